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
  cmd->add_flag("--no-detect-non-unique", args->no_detect,
                "random selection: skip the covering-1 solve that detects non-unique steps "
                "(same samples, half the solves)");
  cmd->add_flag("--keep-samples", args->keep_samples, "store every sample in /samples");
  cmd->add_flag("--keep-trajectories", args->keep_trajectories,
                "store every intermediate velocity in /reachable");
  cmd->add_option("--shard", args->shard, "compute shard i of n (i/n, 0-based); join with merge")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "output HDF5 file (default: impactset-<system>.h5)");
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  auto* sets = cmd->add_option_group("sets", "eps-nets, hulls and coverage (docs/coverage.md)");
  sets->add_option("--epsilon", args->sets.epsilon,
                   "net radius (default: 1% of the largest pre-impact contact speed)");
  sets->add_option("--delta", args->sets.delta, "coverage statements hold with prob. 1 - delta")
      ->capture_default_str();
  sets->add_option("--lipschitz", args->sets.lipschitz,
                   "Lipschitz constant of the sample map: adds the Lemma-1 bound");
  sets->add_option("--holdout", args->sets.holdout,
                   "fresh samples K' for the hold-out bound (0 = none)")
      ->capture_default_str();
  sets->add_option("--hull-max-dim", args->sets.hull_max_dimension,
                   "skip hulls of sets of higher dimension")
      ->capture_default_str();
  sets->add_option("--max-net-points", args->sets.max_net_points,
                   "cap per net; beyond it the net's radius doubles (its epsilon grows)")
      ->capture_default_str();
  sets->add_flag(
      "--no-reachable", [args](std::int64_t) { args->sets.reachable = false; },
      "no nets of the reachable set");
  sets->add_flag("--no-sets", args->no_sets, "no nets, hulls or coverage (sampling only)");
  return cmd;
}

namespace {
nlohmann::json CoverageJson(const data::CoverageArrays& c) {
  nlohmann::json j;
  j["delta"] = c.delta;
  if (c.holdout > 0) {
    j["holdout"] = {{"samples", c.holdout},
                    {"missed", c.missed},
                    {"not_terminated", c.holdout_not_terminated},
                    {"missed_mass_upper", c.missed_mass_upper},
                    {"assumptions", c.holdout_assumptions}};
  } else {
    j["holdout"] = nullptr;
  }
  if (c.lemma1) {
    j["lemma1"] = {{"lipschitz", c.lipschitz},
                   {"cube_dimension", c.cube_dimension},
                   {"failure_bound", c.failure_bound},
                   {"samples_needed", c.samples_needed},
                   {"assumptions", c.lemma1_assumptions}};
  } else {
    j["lemma1"] = nullptr;
  }
  return j;
}

// Top-level keys describe the post-impact set in contact coordinates; "sets" has all four.
void AddSetsJson(const std::vector<data::PointSetArrays>& sets, nlohmann::json* j) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& s : sets) {
    nlohmann::json e = {{"set", s.set},
                        {"coords", s.coords},
                        {"net_size", s.net.points.cols()},
                        {"epsilon", s.net.epsilon},
                        {"separation", s.net.separation},
                        {"coarsenings", s.net.coarsenings},
                        {"offered", s.net.offered},
                        {"hull_status", s.hull.status},
                        {"hull_dim", s.hull.dimension},
                        {"hull_volume", s.hull.volume}};
    if (s.coverage) e["coverage"] = CoverageJson(*s.coverage);
    if (s.set == "post_impact" && s.coords == "contact") {
      (*j)["net_size"] = e["net_size"];
      (*j)["epsilon"] = e["epsilon"];
      (*j)["hull_dim"] = e["hull_dim"];
      (*j)["hull_volume"] = e["hull_volume"];
      (*j)["hull_status"] = e["hull_status"];
      (*j)["coverage"] = e["coverage"];
    }
    all.push_back(std::move(e));
  }
  (*j)["sets"] = std::move(all);
}

void PrintSets(const std::vector<data::PointSetArrays>& sets) {
  for (const auto& s : sets) {
    std::printf("%-11s %-11s net %6lld points (eps %.3g, %lld offered), hull: %s", s.set.c_str(),
                s.coords.c_str(), static_cast<long long>(s.net.points.cols()), s.net.epsilon,
                static_cast<long long>(s.net.offered), s.hull.status.c_str());
    if (s.hull.status == "computed") {
      std::printf(", dim %lld, volume %.4g", static_cast<long long>(s.hull.dimension),
                  s.hull.volume);
    }
    std::printf("\n");
    if (!s.coverage) continue;
    const auto& c = *s.coverage;
    if (c.holdout > 0) {
      std::printf(
          "    hold-out: %lld of %lld fresh terminated samples missed (%lld hit the step cap); "
          "missed mass <= %.3g (conf. %g)\n",
          static_cast<long long>(c.missed), static_cast<long long>(c.holdout),
          static_cast<long long>(c.holdout_not_terminated), c.missed_mass_upper, 1 - c.delta);
    }
    if (c.lemma1) {
      std::printf("    Lemma 1 (L = %g, d = %lld): P[not a net] <= %.3g; %.3g samples for %g\n",
                  c.lipschitz, static_cast<long long>(c.cube_dimension), c.failure_bound,
                  c.samples_needed, c.delta);
    }
  }
}

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
  o.algorithm.detect_non_unique = !args.no_detect;
  o.samples = args.samples.value_or(lp.settings.samples.value_or(kDefaultSamples));
  o.seed = args.seed;
  o.threads = args.threads;
  o.design = sampling::ParseDesign(args.design);
  o.lcp = args.lcp;
  o.keep_samples = args.keep_samples;
  o.keep_trajectories = args.keep_trajectories;
  ParseShard(args.shard, &o.shard_index, &o.shard_count);
  o.Validate();
  std::unique_ptr<SetBuilder> sets;
  if (!args.no_sets) sets = std::make_unique<SetBuilder>(lp.problem, args.sets);
  const std::string out = args.out.empty() ? DefaultOut(name) : args.out;

  const auto t0 = std::chrono::steady_clock::now();
  sampling::ProgressCallback progress;
  if (isatty(fileno(stderr)) && !args.json) {
    progress = [&](long long done, long long total) {
      ProgressBar(done, total,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    };
  }
  const sampling::SamplerResult r = sampling::RunSampler(
      lp.problem, o, progress, sets ? sets->Stream() : sampling::StreamOptions{});
  data::Dataset dataset = ToDataset(name, lp.problem, o, r);
  const auto t_sets = std::chrono::steady_clock::now();
  if (sets) {
    dataset.sets = sets->Finish(o);
    dataset.set_settings = ToSettings(args.sets, sets->epsilon());
  }
  const double sets_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_sets).count();
  data::WriteDataset(out, dataset);
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
    j["non_unique_samples"] =
        o.algorithm.selection == impact::Selection::kRandom && o.algorithm.detect_non_unique
            ? nlohmann::json(summary.non_unique)
            : nlohmann::json(nullptr);
    j["worst_residual"] = summary.worst_residual;
    j["energy_ratio_max"] = summary.energy_ratio_max;
    j["contact_velocity_min"] = ToJson(summary.contact_velocity_min);
    j["contact_velocity_max"] = ToJson(summary.contact_velocity_max);
    j["solves_histogram"] = summary.solves_histogram;
    if (sets) AddSetsJson(dataset.sets, &j);
    j["seconds"] = r.seconds;
    j["sets_seconds"] = sets_seconds;
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
  if (o.algorithm.selection == impact::Selection::kRandom && o.algorithm.detect_non_unique) {
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
  if (sets) PrintSets(dataset.sets);
  std::printf("%.3f s, %.0f samples/s on %d thread%s (sets: %.3f s)\nwrote %s\n", r.seconds, rate,
              r.threads_used, r.threads_used == 1 ? "" : "s", sets_seconds, out.c_str());
  return exit_code;
}

}  // namespace impactset::app
