#include <impactset/engine/run.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include <impactset/common/error_policy.hpp>
#include <impactset/common/version.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/sets/set_builder.hpp>

namespace impactset::engine {

void RunOptions::Validate() const {
  sampler.Validate();
  if (sets) set_options.Validate();
}

RunOptions DefaultRunOptions(const systems::ProblemSettings& settings) {
  RunOptions o;
  o.sampler.algorithm.step = settings.step.value_or(kDefaultStep);
  o.sampler.algorithm.max_steps = settings.max_steps.value_or(kDefaultMaxSteps);
  o.sampler.samples = settings.samples.value_or(kDefaultSamples);
  return o;
}

const sets::PointSet* RunResult::Find(sets::SetKind set, std::string_view output) const {
  for (const sets::PointSet& s : sets) {
    if (s.set == set && s.output == output) return &s;
  }
  return nullptr;
}

const sets::PointSet* RunResult::Find(sets::SetKind set, sets::Coordinates coords) const {
  return Find(set, std::string_view(ToString(coords)));
}

std::vector<std::string> EpsilonWarnings(const RunResult& run) {
  std::vector<std::string> out;
  for (const sets::PointSet& s : run.sets) {
    const Eigen::Index d = s.net.points.rows();
    if (s.support.count == 0 || s.support.values.size() < 2 * d || d == 0) continue;
    const double extent = sets::LargestAxisWidth(s.support);
    double size = 1;  // the first 2 d directions are +e_j, -e_j
    for (Eigen::Index j = 0; j < 2 * d; ++j) size = std::max(size, std::abs(s.support.values(j)));
    // A set no wider than the flatness tolerance (relative, as hulls decide flatness) is a
    // point up to the samples' termination noise: one net point is then its right net.
    const double point = run.options.set_options.flatness_tolerance * size;
    if (!(extent > point) || !(s.net.epsilon > extent)) continue;
    char line[400];
    std::snprintf(line, sizeof line,
                  "%s %s: net radius eps %.3g exceeds the set's extent %.3g (its widest "
                  "coordinate range): the net is %lld point%s; give a smaller --epsilon",
                  sets::ToString(s.set), s.output.c_str(), s.net.epsilon, extent,
                  static_cast<long long>(s.net.points.cols()), s.net.points.cols() == 1 ? "" : "s");
    out.emplace_back(line);
  }
  return out;
}

std::vector<sets::OutputMap> RunResult::Outputs() const {
  if (options.set_options.outputs.empty()) {
    return {sets::ContactOutput(problem, options.contact_names),
            sets::GeneralizedOutput(problem, options.velocity_names)};
  }
  return options.set_options.outputs;
}

namespace {
double Since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

bool Polishes(const RunOptions& options) {
  return options.sets && options.set_options.polish > 0 &&
         options.sampler.design != sampling::Design::kDirected;
}

RunResult Run(const impact::ImpactProblem& problem,
              const RunOptions& options,
              const std::string& system,
              const ProgressCallback& progress) {
  options.Validate();
  std::unique_ptr<sets::SetBuilder> builder;
  if (options.sets) {
    builder = std::make_unique<sets::SetBuilder>(problem, options.set_options, options.sampler);
  }
  sampling::SamplerResult r = sampling::RunSampler(
      problem, options.sampler, progress, builder ? builder->Stream() : sampling::StreamOptions{});

  RunResult result{.system = system, .problem = problem, .options = options};
  result.first_sample = r.first_sample;
  result.count = r.count;
  result.threads_used = r.threads_used;
  result.seconds = r.seconds;
  result.summary = std::move(r.summary);
  if (options.sampler.keep_samples || options.sampler.keep_trajectories) {
    result.samples = std::move(r.records);
  }
  const auto t_sets = std::chrono::steady_clock::now();
  if (builder && Polishes(options) && options.sampler.shard_count == 1) {
    builder->Polish(options.sampler, options.set_options.polish);
  }
  if (builder) result.sets = builder->Finish(options.sampler);
  result.sets_seconds = Since(t_sets);
  result.version = kVersion;
  result.git_revision = GitRevision();
  result.created = UtcNow();
  return result;
}

std::vector<sets::PointSet> SetsFromSamples(const RunResult& run, const sets::SetOptions& options) {
  if (!run.samples || run.samples->count() != run.count) {
    InvalidArgument("samples", run.samples ? run.samples->count() : 0,
                    "the run must keep its samples (keep_samples) to build sets afterwards");
  }
  sets::SetOptions o = options;
  o.reachable = options.reachable && !run.samples->trajectory_offsets.empty();
  sets::SetBuilder builder(run.problem, o, run.options.sampler);
  builder.ConsumePostImpact(run.samples->v_plus, run.samples->status, run.first_sample);
  RunOptions polish = run.options;  // the run's, with these sets (it may have run without)
  polish.sets = true;
  polish.set_options = o;
  if (Polishes(polish) && run.options.sampler.shard_count == 1) {
    builder.Polish(run.options.sampler, o.polish);
  }
  if (o.reachable) {
    builder.ConsumeReachable(run.samples->trajectories, run.samples->trajectory_offsets,
                             run.first_sample, &run.samples->status);
  }
  return builder.Finish(run.options.sampler);
}

}  // namespace impactset::engine
