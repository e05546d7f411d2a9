#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "apps/commands.hpp"
#include "apps/dataset_io.hpp"
#include "apps/json_util.hpp"
#include "lcp/error_policy.hpp"
#include "sampling/sampler.hpp"

namespace impactset::app {

CLI::App* AddRunCommand(CLI::App* app, RunArgs* args) {
  auto* cmd =
      app->add_subcommand("run", "sample the post-impact set (Algorithm 2) into an HDF5 file");
  args->source.AddOptions(cmd);
  cmd->add_option("--samples", args->samples, "number of samples K (default: the system's)");
  cmd->add_option("--seed", args->seed, "seed of the per-sample random streams")
      ->capture_default_str();
  cmd->add_option("--threads", args->threads, "worker threads, 0 = all cores, 1 = inline")
      ->capture_default_str();
  cmd->add_option("--design", args->design,
                  "p-vectors: iid, sobol (digitally shifted), sobol-plain")
      ->check(CLI::IsMember({"iid", "sobol", "sobol-plain"}))
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
  cmd->add_flag("--keep-samples", args->keep_samples, "store every sample in /samples");
  cmd->add_flag("--keep-trajectories", args->keep_trajectories,
                "store every intermediate velocity in /reachable");
  cmd->add_option("--shard", args->shard, "compute shard i of n (i/n, 0-based); join with merge")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "output HDF5 file (default: impactset-<system>.h5)");
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  return cmd;
}

namespace {
// Defaults when a problem file carries no settings: the authors' termination test and a
// modest sample count; h = 1 impulse unit suits O(1)-scaled problems.
constexpr long long kDefaultSamples = 16384;
constexpr double kDefaultStep = 1.0;
constexpr int kDefaultMaxSteps = 10;

void ParseShard(const std::string& s, int* index, int* count) {
  int i = -1, n = -1;
  char slash = 0, extra = 0;
  if (std::sscanf(s.c_str(), "%d%c%d%c", &i, &slash, &n, &extra) != 3 || slash != '/') {
    InvalidArgument("--shard", s, "must be i/n with integers, e.g. 0/4");
  }
  *index = i;
  *count = n;
}

std::string DefaultOut(const std::string& name) {
  return "impactset-" + std::filesystem::path(name).stem().string() + ".h5";
}

void ProgressBar(long long done, long long total, double seconds) {
  const double f = total ? static_cast<double>(done) / total : 1.0;
  const double rate = seconds > 0 ? done / seconds : 0.0;
  const double eta = rate > 0 ? (total - done) / rate : 0.0;
  const int width = 30, fill = static_cast<int>(f * width);
  std::fprintf(stderr, "\r[%.*s%*s] %5.1f%%  %.0f samples/s  ETA %.0f s ", fill,
               "==============================", width - fill, "", 100 * f, rate, eta);
  if (done == total) std::fprintf(stderr, "\n");
}
}  // namespace

int RunRun(const RunArgs& args) {
  std::string name;
  const systems::LoadedProblem lp = args.source.Load(&name);
  sampling::SamplerOptions o;
  o.algorithm.step = args.step.value_or(lp.settings.step.value_or(kDefaultStep));
  o.algorithm.max_steps = args.max_steps.value_or(lp.settings.max_steps.value_or(kDefaultMaxSteps));
  o.algorithm.selection =
      args.selection == "first" ? impact::Selection::kFirst : impact::Selection::kRandom;
  o.samples = args.samples.value_or(lp.settings.samples.value_or(kDefaultSamples));
  o.seed = args.seed;
  o.threads = args.threads;
  o.design = sampling::ParseDesign(args.design);
  o.lcp = args.lcp;
  o.keep_samples = args.keep_samples;
  o.keep_trajectories = args.keep_trajectories;
  ParseShard(args.shard, &o.shard_index, &o.shard_count);
  o.Validate();
  const std::string out = args.out.empty() ? DefaultOut(name) : args.out;

  const auto t0 = std::chrono::steady_clock::now();
  sampling::ProgressCallback progress;
  if (isatty(fileno(stderr)) && !args.json) {
    progress = [&](long long done, long long total) {
      ProgressBar(done, total,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    };
  }
  const sampling::SamplerResult r = sampling::RunSampler(lp.problem, o, progress);
  data::WriteDataset(out, ToDataset(name, lp.problem, o, r));
  const sampling::SampleSummary& summary = r.summary;
  const int exit_code = summary.lcp_failures > 0 ? 3 : 0;
  const double rate = r.seconds > 0 ? r.count / r.seconds : 0.0;

  if (args.json) {
    nlohmann::json j;
    j["system"] = name;
    j["samples"] = summary.samples;
    j["first_sample"] = r.first_sample;
    j["seed"] = o.seed;
    j["design"] = args.design;
    j["h"] = o.algorithm.step;
    j["max_steps"] = o.algorithm.max_steps;
    j["lcp"] = o.lcp;
    j["selection"] = args.selection;
    j["threads"] = r.threads_used;
    j["terminated"] = summary.terminated;
    j["step_capped"] = summary.step_capped;
    j["lcp_failures"] = summary.lcp_failures;
    j["lcp_solves_mean"] = summary.MeanSolves();
    j["lcp_fallbacks"] = summary.lcp_fallbacks;
    j["non_unique_samples"] = summary.non_unique;
    j["worst_residual"] = summary.worst_residual;
    j["energy_ratio_max"] = summary.energy_ratio_max;
    j["contact_velocity_min"] = ToJson(summary.contact_velocity_min);
    j["contact_velocity_max"] = ToJson(summary.contact_velocity_max);
    j["solves_histogram"] = summary.solves_histogram;
    j["seconds"] = r.seconds;
    j["samples_per_second"] = rate;
    j["out"] = out;
    std::cout << j.dump(1) << "\n";
    return exit_code;
  }
  const auto& p = lp.problem;
  std::printf(
      "impactset run: %s  (n = %d, m = %d, h = %g, N = %d, seed = %llu, design = %s, "
      "lcp = %s, selection = %s)\n",
      name.c_str(), p.n(), p.m(), o.algorithm.step, o.algorithm.max_steps,
      static_cast<unsigned long long>(o.seed), args.design.c_str(), o.lcp.c_str(),
      args.selection.c_str());
  if (o.shard_count > 1) {
    std::printf("shard %d/%d: samples [%lld, %lld) of %lld\n", o.shard_index, o.shard_count,
                r.first_sample, r.first_sample + r.count, o.samples);
  }
  std::printf("samples %lld: terminated %lld, step cap %lld, LCP failure %lld\n", summary.samples,
              summary.terminated, summary.step_capped, summary.lcp_failures);
  std::printf("LCP solves per sample %.4f (fallbacks %lld), worst residual %.2e\n",
              summary.MeanSolves(), summary.lcp_fallbacks, summary.worst_residual);
  if (o.algorithm.selection == impact::Selection::kRandom) {
    std::printf("samples with a non-unique step: %lld\n", summary.non_unique);
  }
  std::printf("max KE+/KE- %.6f (terminated samples)\n", summary.energy_ratio_max);
  std::printf("post-impact contact velocities (terminated samples):\n");
  const int per_contact = p.k() == 0 ? 0 : (p.k() == 2 ? 1 : 2);
  for (Eigen::Index i = 0; i < summary.contact_velocity_min.size(); ++i) {
    const bool normal = i < p.m();
    const long idx = normal ? i : (i - p.m()) / std::max(1, per_contact);
    std::printf("  %-12s contact %ld: [%+.6f, %+.6f]\n", normal ? "normal" : "tangential", idx,
                summary.contact_velocity_min(i), summary.contact_velocity_max(i));
  }
  std::printf("%.3f s, %.0f samples/s on %d thread%s\nwrote %s\n", r.seconds, rate, r.threads_used,
              r.threads_used == 1 ? "" : "s", out.c_str());
  return exit_code;
}

}  // namespace impactset::app
