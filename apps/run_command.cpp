#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include <impactset/common/error_policy.hpp>
#include <impactset/data/output_path.hpp>
#include <impactset/distributed/distributed.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/engine/step_scaling.hpp>
#include <impactset/sampling/sampler.hpp>
#include "apps/commands.hpp"
#include "apps/json_util.hpp"
#include "apps/set_report.hpp"

namespace impactset::app {

CLI::App* AddRunCommand(CLI::App* app, RunArgs* args) {
  auto* cmd =
      app->add_subcommand("run", "sample the post-impact set (Algorithm 2) into an HDF5 file");
  args->source.AddOptions(cmd);
  AddOptionFlags(cmd, engine::kRunCommand, &args->options);
  cmd->add_option("--out", args->out, "output HDF5 file (default: impactset-<system>.h5)");
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  cmd->add_option("--output", args->outputs,
                  "coordinates of the sets, y = C v (repeatable; default contact and "
                  "generalized): contact, generalized, com, base, joints:NAME,... (MuJoCo "
                  "models), matrix:FILE.csv (rows of C); NAME=SPEC names one (docs/mujoco.md)")
      ->allow_extra_args(false);
  return cmd;
}

namespace {
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

bool DetectsNonUnique(const sampling::SamplerOptions& o) {
  return o.algorithm.selection == impact::Selection::kRandom && o.algorithm.detect_non_unique;
}

// Per output: its post-impact range in each coordinate over the set's points (every terminated
// sample and the polish's), read off the support polytope.
struct OutputRange {
  sets::OutputMap output;
  VectorXd min, max;  // empty when the post-impact set has no support polytope or no point
};
std::vector<OutputRange> OutputRanges(const engine::RunResult& r) {
  std::vector<OutputRange> ranges;
  for (sets::OutputMap& o : r.Outputs()) {
    OutputRange range{std::move(o), {}, {}};
    const sets::PointSet* s = r.Find(sets::SetKind::kPostImpact, range.output.name);
    const Eigen::Index d = range.output.dimension();
    if (s && s->support.count > 0 && s->support.values.size() >= 2 * d) {
      const MatrixXd axes = sets::AxisRanges(s->support);
      range.min = axes.col(0);
      range.max = axes.col(1);
    }
    ranges.push_back(std::move(range));
  }
  return ranges;
}

nlohmann::json OutputsJson(const engine::RunResult& r) {
  nlohmann::json all = nlohmann::json::array();
  for (const OutputRange& o : OutputRanges(r)) {
    const bool ranged = o.min.size() > 0;
    all.push_back({{"name", o.output.name},
                   {"spec", o.output.spec},
                   {"dimension", o.output.dimension()},
                   {"coordinate_names", o.output.coordinate_names},
                   {"post_impact_min", ranged ? ToJson(o.min) : nlohmann::json(nullptr)},
                   {"post_impact_max", ranged ? ToJson(o.max) : nlohmann::json(nullptr)}});
  }
  return all;
}

// Every option of the run as the table names it (null: unset).
nlohmann::json OptionsJson(const engine::RunOptions& o) {
  nlohmann::json all = nlohmann::json::object();
  for (const engine::OptionField& f : engine::RunOptionFields()) {
    if (!(f.surfaces & engine::kRunCommand)) continue;
    const std::optional<engine::OptionValue> v = engine::GetOption(f, o);
    all[std::string(f.name)] =
        v ? std::visit([](const auto& x) { return nlohmann::json(x); }, *v) : nlohmann::json();
  }
  return all;
}

nlohmann::json RunJson(const engine::RunResult& r,
                       const std::string& out,
                       const distributed::RunReport& split) {
  const sampling::SamplerOptions& o = r.options.sampler;
  const sampling::SampleSummary& summary = r.summary;
  nlohmann::json j;
  j["system"] = r.system;
  j["samples"] = summary.samples;
  j["first_sample"] = r.first_sample;
  j["seed"] = o.seed;
  j["design"] = sampling::ToString(o.design);
  j["h"] = o.algorithm.step;
  j["max_steps"] = o.algorithm.max_steps;
  j["step_rule"] =
      r.options.step_rule.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.options.step_rule);
  const std::optional<std::string> advice = engine::StepCapAdvice(r);
  j["advice"] = advice ? nlohmann::json(*advice) : nlohmann::json(nullptr);
  j["lcp"] = lcp::ToString(o.solver);
  j["selection"] = impact::ToString(o.algorithm.selection);
  j["threads"] = r.threads_used;
  j["terminated"] = summary.terminated;
  j["step_capped"] = summary.step_capped;
  j["lcp_failures"] = summary.lcp_failures;
  j["non_physical"] = summary.non_physical;
  j["lcp_solves_mean"] = summary.MeanSolves();
  j["lcp_fallbacks"] = summary.lcp_fallbacks;
  j["warm_starts"] = summary.warm_starts;
  j["non_unique_samples"] =
      DetectsNonUnique(o) ? nlohmann::json(summary.non_unique) : nlohmann::json(nullptr);
  j["worst_residual"] = summary.worst_residual;
  // No terminated sample: no ratio and no range (the bounds are still +-inf).
  const bool ranges = summary.terminated > 0;
  j["energy_ratio_max"] =
      ranges ? nlohmann::json(summary.energy_ratio_max) : nlohmann::json(nullptr);
  j["contact_velocity_min"] =
      ranges ? ToJson(summary.contact_velocity_min) : nlohmann::json(nullptr);
  j["contact_velocity_max"] =
      ranges ? ToJson(summary.contact_velocity_max) : nlohmann::json(nullptr);
  j["solves_histogram"] = summary.solves_histogram;
  if (r.options.sets) {
    AddSetsJson(r.sets, &j);
    j["outputs"] = OutputsJson(r);
  }
  j["seconds"] = r.seconds;
  j["sets_seconds"] = r.sets_seconds;
  j["samples_per_second"] = r.seconds > 0 ? r.count / r.seconds : 0.0;
  // Under mpirun: the ranks, the whole run's wall time and rank 0's merge (one process: 1, 0).
  j["ranks"] = split.ranks;
  j["wall_seconds"] = split.seconds;
  j["merge_seconds"] = split.merge_seconds;
  j["out"] = out;
  j["options"] = OptionsJson(r.options);
  return j;
}

// Ranges of the post-impact contact velocities: over the contact set's points when the run built
// it (terminated samples and the polish's), else over the terminated samples; `labels` (a MuJoCo
// model's contact coordinates, "c0:floor/foot:n", ...) name the rows when given.
void PrintRanges(const engine::RunResult& r, const std::vector<std::string>& labels) {
  const auto& p = r.problem;
  const sampling::SampleSummary& summary = r.summary;
  MatrixXd range(summary.contact_velocity_min.size(), 2);
  range << summary.contact_velocity_min, summary.contact_velocity_max;
  const char* over = "terminated samples";
  for (const OutputRange& o : OutputRanges(r)) {
    if (o.output.kind != sets::Coordinates::kContact || o.min.size() != range.rows()) continue;
    range << o.min, o.max;
    const bool polished = engine::Polishes(r.options) && r.options.sampler.shard_count == 1;
    over = polished ? "terminated samples and the polish" : "terminated samples";
  }
  std::printf("post-impact contact velocities (%s):\n", over);
  const int per_contact = p.k() == 0 ? 0 : (p.k() == 2 ? 1 : 2);
  for (Eigen::Index i = 0; i < summary.contact_velocity_min.size(); ++i) {
    const bool normal = i < p.m();
    const long idx = normal ? i : (i - p.m()) / std::max(1, per_contact);
    // 3-D contacts have two tangential coordinates (along t1, t2): label them apart.
    const char* kind = normal                 ? "normal"
                       : per_contact == 1     ? "tangential"
                       : (i - p.m()) % 2 == 0 ? "tangent t1"
                                              : "tangent t2";
    const double lo = range(i, 0), hi = range(i, 1);
    if (static_cast<std::size_t>(i) < labels.size()) {
      std::printf("  %-12s %s: [%+.6f, %+.6f]\n", kind, labels[static_cast<std::size_t>(i)].c_str(),
                  lo, hi);
    } else {
      std::printf("  %-12s contact %ld: [%+.6f, %+.6f]\n", kind, idx, lo, hi);
    }
  }
}

// Outputs other than the built-ins (whose ranges the contact lines and the nets already show).
void PrintOutputs(const engine::RunResult& r) {
  constexpr Eigen::Index kMaxPrinted = 12;  // a humanoid's 27 generalized rates: see the file
  const bool polished = engine::Polishes(r.options) && r.options.sampler.shard_count == 1;
  for (const OutputRange& o : OutputRanges(r)) {
    if (o.output.kind != sets::Coordinates::kMap) continue;
    std::printf("output %s (%s, d = %ld): post-impact range over the set (terminated samples%s)\n",
                o.output.name.c_str(), o.output.spec.c_str(),
                static_cast<long>(o.output.dimension()), polished ? " and the polish" : "");
    if (o.min.size() == 0) {
      std::printf("  none (no terminated sample)\n");
      continue;
    }
    for (Eigen::Index i = 0; i < std::min(o.min.size(), kMaxPrinted); ++i) {
      std::printf("  %-16s [%+.6f, %+.6f]\n", o.output.coordinate_names[i].c_str(), o.min(i),
                  o.max(i));
    }
    if (o.min.size() > kMaxPrinted) {
      std::printf("  ... %ld more in --json and the dataset\n",
                  static_cast<long>(o.min.size() - kMaxPrinted));
    }
  }
}

void PrintRun(const engine::RunResult& r,
              const std::string& out,
              const distributed::RunReport& split,
              const std::vector<std::string>& labels) {
  const sampling::SamplerOptions& o = r.options.sampler;
  const sampling::SampleSummary& summary = r.summary;
  const auto& p = r.problem;
  std::printf(
      "impactset run: %s  (n = %d, m = %d, h = %g, N = %d, seed = %llu, design = %s, "
      "lcp = %s, selection = %s)\n",
      r.system.c_str(), p.n(), p.m(), o.algorithm.step, o.algorithm.max_steps,
      static_cast<unsigned long long>(o.seed), sampling::ToString(o.design),
      lcp::ToString(o.solver), impact::ToString(o.algorithm.selection));
  if (o.shard_count > 1) {
    std::printf("shard %d/%d: samples [%lld, %lld) of %lld\n", o.shard_index, o.shard_count,
                r.first_sample, r.first_sample + r.count, o.samples);
  }
  if (!r.options.step_rule.empty()) std::printf("%s\n", r.options.step_rule.c_str());
  std::printf("samples %lld: terminated %lld, step cap %lld, LCP failure %lld, non-physical %lld\n",
              summary.samples, summary.terminated, summary.step_capped, summary.lcp_failures,
              summary.non_physical);
  if (const auto advice = engine::StepCapAdvice(r)) std::printf("warning: %s\n", advice->c_str());
  std::printf(
      "LCP solves per sample %.4f (fallbacks %lld, warm-started %.1f %%), worst residual "
      "%.2e\n",
      summary.MeanSolves(), summary.lcp_fallbacks,
      summary.lcp_solves ? 100.0 * summary.warm_starts / summary.lcp_solves : 0.0,
      summary.worst_residual);
  if (DetectsNonUnique(o)) {
    std::printf("samples with a non-unique step: %lld\n", summary.non_unique);
  } else if (o.algorithm.selection == impact::Selection::kRandom) {
    std::printf("non-unique steps: not checked (--detect-non-unique)\n");
  }
  if (summary.terminated == 0) {
    std::printf("max KE+/KE-: none (no sample terminated)\n");
    std::printf("post-impact contact velocities: none (no sample terminated)\n");
  } else {
    std::printf("max KE+/KE- %.6f (terminated samples)\n", summary.energy_ratio_max);
    PrintRanges(r, labels);
  }
  if (r.options.sets) {
    PrintOutputs(r);
    PrintSets(r.sets, summary.samples - summary.terminated);
    if (!r.options.set_options.reachable) std::printf("reachable sets: not built (--reachable)\n");
  }
  if (split.ranks > 1) {  // the shards' times add up over ranks: the wall time says more
    std::printf(
        "%.3f s, %.0f samples/s on %d ranks x %d thread%s (receiving and merging on rank 0: %.3f "
        "s)\n"
        "wrote %s\n",
        split.seconds, split.seconds > 0 ? r.count / split.seconds : 0.0, split.ranks,
        r.threads_used, r.threads_used == 1 ? "" : "s", split.merge_seconds, out.c_str());
    return;
  }
  const double rate = r.seconds > 0 ? r.count / r.seconds : 0.0;
  std::printf("%.3f s, %.0f samples/s on %d thread%s (sets: %.3f s)\nwrote %s\n", r.seconds, rate,
              r.threads_used, r.threads_used == 1 ? "" : "s", r.sets_seconds, out.c_str());
}

}  // namespace

// The engine's options from the command line: the problem's (engine::ProblemRunOptions), then the
// user's flags; `model` (MuJoCo sources) resolves the com, base and joints outputs.
engine::RunOptions ToRunOptions(const RunArgs& args,
                                const systems::LoadedProblem& lp,
                                const robots::MujocoProblem* model) {
  engine::RunOptions o = engine::ResolveRunOptions(lp, args.options.Values());
  engine::ResolveOutputs(args.outputs, lp.problem, model, &o);
  if (!o.sets && !args.outputs.empty()) {
    InvalidArgument("--output", args.outputs.front(),
                    "sets are off (--no-sets): no output to build");
  }
  o.Validate();
  return o;
}

int RunRun(const RunArgs& args) {
  std::string name;
  std::optional<robots::MujocoProblem> model;
  const systems::LoadedProblem lp = args.source.Load(&name, &model);
  const engine::RunOptions options = ToRunOptions(args, lp, model ? &*model : nullptr);
  const std::string out = args.out.empty() ? DefaultOut(name) : args.out;

  // Refused before the run, not after it (rank 0 writes the file).
  distributed::CheckOnRankZero([&] { data::PrepareOutputPath(out); });
  const auto t0 = std::chrono::steady_clock::now();
  engine::ProgressCallback progress;
  if (isatty(fileno(stderr)) && !args.json) {
    progress = [&](long long done, long long total) {
      ProgressBar(done, total,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    };
  }
  // Under mpirun the ranks split the samples; rank 0 merges them and writes the file.
  distributed::RunReport split;
  const std::optional<engine::RunResult> merged =
      distributed::Run(lp.problem, options, name, progress, &split);
  if (!merged) return 0;
  const engine::RunResult& r = *merged;
  if (const auto warning = engine::FailureWarning(r)) {
    std::fprintf(stderr, "impactset: warning: %s\n", warning->c_str());
  }
  if (const auto note = engine::JamNote(r.problem)) {
    std::fprintf(stderr, "impactset: note: %s\n", note->c_str());
  }
  if (const auto warning = engine::StepGrowthWarning(r.options)) {
    std::fprintf(stderr, "impactset: warning: %s\n", warning->c_str());
  }
  if (const auto warning = engine::PhysicsWarning(r)) {
    std::fprintf(stderr, "impactset: warning: %s\n", warning->c_str());
  }
  for (const std::string& w : engine::EpsilonWarnings(r)) {
    std::fprintf(stderr, "impactset: warning: %s\n", w.c_str());
  }
  engine::WriteRun(out, r);
  if (args.json) {
    std::cout << RunJson(r, out, split).dump(1) << "\n";
  } else {
    PrintRun(r, out, split, model ? model->contact_coordinate_names : std::vector<std::string>{});
  }
  return r.HasLcpFailures() ? 3 : 0;
}

}  // namespace impactset::app
