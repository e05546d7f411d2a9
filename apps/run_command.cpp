#include <chrono>
#include <cstdio>
#include <iostream>

#include "apps/commands.hpp"
#include "apps/json_util.hpp"
#include "impact/algorithm1.hpp"
#include "lcp/error_policy.hpp"
#include "lcp/fallback.hpp"
#include "sampling/streams.hpp"
#include "sampling/summary.hpp"

namespace impactset::app {

CLI::App* AddRunCommand(CLI::App* app, RunArgs* args) {
  auto* cmd = app->add_subcommand("run", "sample the post-impact set (Algorithm 1, many samples)");
  args->source.AddOptions(cmd);
  cmd->add_option("--samples", args->samples, "number of samples (default: the system's)");
  cmd->add_option("--seed", args->seed, "seed of the per-sample random streams")
      ->capture_default_str();
  cmd->add_option("--step", args->step, "step size h in impulse units (default: the system's)");
  cmd->add_option("--max-steps", args->max_steps, "step cap N (default: the system's)");
  cmd->add_option("--lcp", args->lcp, "LCP solver: chain (native, then fallbacks), native, siconos")
      ->check(CLI::IsMember({"chain", "native", "siconos"}))
      ->capture_default_str();
  cmd->add_option("--selection", args->selection,
                  "non-unique step LCPs: random (drawn covering vector) or first (solver's answer)")
      ->check(CLI::IsMember({"random", "first"}))
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  return cmd;
}

namespace {
// Defaults when a problem file carries no settings: the authors' termination test and a
// modest sample count; h = 1 impulse unit suits O(1)-scaled problems.
constexpr long long kDefaultSamples = 16384;
constexpr double kDefaultStep = 1.0;
constexpr int kDefaultMaxSteps = 10;
}  // namespace

int RunRun(const RunArgs& args) {
  std::string name;
  const systems::LoadedProblem lp = args.source.Load(&name);
  impact::Algorithm1Options o;
  o.step = args.step.value_or(lp.settings.step.value_or(kDefaultStep));
  o.max_steps = args.max_steps.value_or(lp.settings.max_steps.value_or(kDefaultMaxSteps));
  const long long samples = args.samples.value_or(lp.settings.samples.value_or(kDefaultSamples));
  if (samples < 1) InvalidArgument("--samples", samples, "must be >= 1");
  o.selection = args.selection == "first" ? impact::Selection::kFirst : impact::Selection::kRandom;
  o.Validate();

  const auto solver = lcp::MakeSolver(args.lcp);
  impact::RouthSampler sampler(lp.problem, o, solver.get());
  sampling::SampleSummary summary(static_cast<int>(lp.problem.ContactJacobian().rows()));
  const auto t0 = std::chrono::steady_clock::now();
  for (long long i = 0; i < samples; ++i) {
    sampling::IidPSource source(args.seed, static_cast<std::uint64_t>(i));
    sampling::SampleChoices choices(args.seed, static_cast<std::uint64_t>(i));
    summary.Add(sampler.Run(source, &choices));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const int exit_code = summary.lcp_failures > 0 ? 3 : 0;

  if (args.json) {
    nlohmann::json j;
    j["system"] = name;
    j["samples"] = summary.samples;
    j["seed"] = args.seed;
    j["h"] = o.step;
    j["max_steps"] = o.max_steps;
    j["lcp"] = args.lcp;
    j["selection"] = args.selection;
    j["non_unique_samples"] = summary.non_unique;
    j["terminated"] = summary.terminated;
    j["step_capped"] = summary.step_capped;
    j["lcp_failures"] = summary.lcp_failures;
    j["lcp_solves_mean"] = summary.MeanSolves();
    j["lcp_fallbacks"] = summary.lcp_fallbacks;
    j["worst_residual"] = summary.worst_residual;
    j["energy_ratio_max"] = summary.energy_ratio_max;
    j["contact_velocity_min"] = ToJson(summary.contact_velocity_min);
    j["contact_velocity_max"] = ToJson(summary.contact_velocity_max);
    j["solves_histogram"] = summary.solves_histogram;
    j["seconds"] = seconds;
    j["samples_per_second"] = seconds > 0 ? samples / seconds : 0.0;
    j["out"] = nullptr;
    std::cout << j.dump(1) << "\n";
    return exit_code;
  }
  const auto& p = lp.problem;
  std::printf(
      "impactset run: %s  (n = %d, m = %d, h = %g, N = %d, seed = %llu, lcp = %s, "
      "selection = %s)\n",
      name.c_str(), p.n(), p.m(), o.step, o.max_steps, static_cast<unsigned long long>(args.seed),
      args.lcp.c_str(), args.selection.c_str());
  std::printf("samples %lld: terminated %lld, step cap %lld, LCP failure %lld\n", summary.samples,
              summary.terminated, summary.step_capped, summary.lcp_failures);
  std::printf("LCP solves per sample %.4f (fallbacks %lld), worst residual %.2e\n",
              summary.MeanSolves(), summary.lcp_fallbacks, summary.worst_residual);
  if (o.selection == impact::Selection::kRandom) {
    std::printf("samples with a non-unique step: %lld\n", summary.non_unique);
  }
  std::printf("max KE+/KE- %.6f (terminated samples)\n", summary.energy_ratio_max);
  std::printf("post-impact contact velocities (terminated samples):\n");
  for (Eigen::Index i = 0; i < summary.contact_velocity_min.size(); ++i) {
    const bool normal = i < p.m();
    const long idx = normal ? i : (i - p.m()) / std::max(1, (p.k() >= 4 ? 2 : 1));
    std::printf("  %-12s contact %ld: [%+.6f, %+.6f]\n", normal ? "normal" : "tangential", idx,
                summary.contact_velocity_min(i), summary.contact_velocity_max(i));
  }
  std::printf("%.3f s, %.0f samples/s (1 thread)\n", seconds,
              seconds > 0 ? samples / seconds : 0.0);
  return exit_code;
}

}  // namespace impactset::app
