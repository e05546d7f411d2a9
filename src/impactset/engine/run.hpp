#pragma once
// Algorithm 2 as a library: sample the post-impact set of one impact state and turn the samples
// into what users act on (docs/model.md §6-7, docs/coverage.md, docs/dataset-format.md).
//
//   const systems::LoadedProblem lp = systems::LoadBuiltin("rocking-block");
//   engine::RunOptions options = engine::DefaultRunOptions(lp.settings);
//   options.sampler.samples = 4096;
//   const engine::RunResult r = engine::Run(lp.problem, options, "rocking-block");
//   const sets::PointSet* s = r.Find(sets::SetKind::kPostImpact, "contact");
//   double volume = s->hull.volume;
//
// A run samples K Algorithm-1 outcomes (sample i depends only on (seed, i), so results are
// bit-identical at any thread count and for any split into shards), keeps the bounded-memory
// summary, optionally the per-sample arrays, and builds ε-nets while the samples stream:
//   post_impact x outputs: y = C v+ of the outcomes v+ of terminated samples,
//   reachable   x outputs: y = C v of every velocity v-, v_1, ..., v+ of every sample,
// for each output y = C v of SetOptions::outputs (sets/output_map.hpp; by default contact,
// y = J_c v: normal velocities, then tangential ones, and generalized, y = v). Each net
// gets the convex hull of its points (in their affine hull) and the post-impact nets get the
// coverage statements of docs/coverage.md. Merge() joins the results of disjoint sample ranges
// (shards) into exactly the result of one run; ToDataset()/FromDataset() convert to and from the
// HDF5 dataset.
#include <optional>
#include <string>
#include <vector>

#include <impactset/data/dataset.hpp>
#include <impactset/impact/impact_problem.hpp>
#include <impactset/sampling/sampler.hpp>
#include <impactset/sets/set_outputs.hpp>
#include <impactset/systems/matrix_input.hpp>

namespace impactset::engine {

/// Sampler defaults when neither the user nor the problem gives them: a modest sample count,
/// h = 1 impulse unit (suits O(1)-scaled problems) and the authors' N = 10.
inline constexpr long long kDefaultSamples = 16384;
inline constexpr double kDefaultStep = 1.0;
inline constexpr int kDefaultMaxSteps = 10;

/// Everything a run needs besides the problem.
struct RunOptions {
  /// Algorithm 1 and 2: h, N, selection, samples K, seed, threads, design, LCP solver, shard,
  /// what to keep (sampling::SamplerOptions documents each field and its default).
  sampling::SamplerOptions sampler;
  /// Build nets, hulls and coverage statements. false: sampling only (RunResult::sets empty).
  bool sets = true;
  /// Options of the nets, hulls and coverage statements (used when sets is true).
  sets::SetOptions set_options;
  /// Names of the velocity coordinates and of the contact coordinates (a MuJoCo model's "root:vx",
  /// "c0:floor/foot:n"); empty: v0, v1, ... and c0:n, c0:t, .... The built-in outputs and the
  /// files' columns carry them. ResolveOutputs fills them from a model.
  std::vector<std::string> velocity_names, contact_names;
  /// How h and N were scaled to the problem (ScaledRunOptions, engine/step_scaling.hpp); empty
  /// when they came from the user, the problem or the defaults. Stored as "step_rule".
  std::string step_rule;
  /// The factor the step pilot raised h by beyond the rule's 2 Lambda / kScaledSteps
  /// (ScaledStep::growth; 1: not raised or not scaled). Stored as "step_growth" when not 1.
  double step_growth = 1;
  /// @throws std::invalid_argument naming the field, its value and the rule.
  void Validate() const;
};

/// The run options for a problem whose input may carry sampler settings (scene files and the
/// built-in systems do): h, N and K from `settings` when present, else kDefault*.
RunOptions DefaultRunOptions(const systems::ProblemSettings& settings);

/// What a run (or a merge of shard runs) produced.
struct RunResult {
  std::string system{};           ///< the label the run was given (stored in the dataset)
  impact::ImpactProblem problem;  ///< the impact state
  /// The options as run. set_options.epsilon is the given radius, or unset when each output took
  /// its own default (each PointSet's net.epsilon is the radius used).
  RunOptions options{};
  long long first_sample = 0;  ///< global index of the first sample of this result
  long long count = 0;         ///< samples in this result
  int threads_used = 1;
  double seconds = 0;       ///< sampling wall time
  double sets_seconds = 0;  ///< nets, hulls and coverage wall time
  sampling::SampleSummary summary{};
  /// Per-sample arrays, present when options.sampler.keep_samples or keep_trajectories
  /// (trajectories filled only with keep_trajectories).
  std::optional<sampling::SampleArrays> samples{};
  /// The sets (empty when options.sets is false): post_impact x outputs, then, with
  /// set_options.reachable, reachable x outputs (outputs in the order of Outputs()).
  std::vector<sets::PointSet> sets{};
  std::string version{};       ///< impactset version that produced it
  std::string git_revision{};  ///< and its git revision
  std::string created{};       ///< ISO 8601 UTC

  /// The set of that kind in the coordinates of the output of that name, or nullptr when it was
  /// not built.
  const sets::PointSet* Find(sets::SetKind set, std::string_view output) const;
  /// The same for a built-in output's default name ("contact", "generalized").
  const sets::PointSet* Find(sets::SetKind set, sets::Coordinates coords) const;
  /// The outputs the sets are (or would be) built in: options.set_options.outputs, or
  /// DefaultOutputs(problem) when that is empty.
  std::vector<sets::OutputMap> Outputs() const;
  /// Some sample hit a step LCP that no solver of the chain could solve.
  bool HasLcpFailures() const { return summary.lcp_failures > 0; }
};

/// One line per net whose radius exceeds its set's extent (the widest coordinate range of the
/// set's support polytope): such a net is a single point and says nothing of the set's shape.
/// Sets no wider than set_options.flatness_tolerance x their largest |coordinate| (at least 1)
/// are points up to roundoff and are not reported. The command line prints them on stderr and
/// Python warns (RuntimeWarning).
std::vector<std::string> EpsilonWarnings(const RunResult& run);

/// Called on the calling thread with the number of samples done so far; throwing from it
/// (conventionally sampling::Cancelled) cancels the run (sampling::ProgressCallback).
using ProgressCallback = sampling::ProgressCallback;

/// Whether a run with these options is polished (sets::SetBuilder::Polish) once all its samples
/// are in: sets on, set_options.polish > 0 and a design whose samples are a function of (seed,
/// index) (not the directed one). Run polishes whole runs, Merge the merged shards.
bool Polishes(const RunOptions& options);

/// Runs Algorithm 2 on this shard of samples, then builds the sets (and, for a whole run, the
/// polish: Polishes()).
/// @param[in] system  a label stored with the result (the system's or file's name).
/// @throws std::invalid_argument for bad options, before any work starts.
/// @throws whatever `progress` throws: the sampling stops, every worker thread is joined and no
///         result exists (nothing to write). Cancellation is checked while sampling, not while the
///         sets are built.
RunResult Run(const impact::ImpactProblem& problem,
              const RunOptions& options,
              const std::string& system = "problem",
              const ProgressCallback& progress = {});

/// The sets of a run that kept its samples, built afterwards with `options`: the nets, hulls
/// and coverage that a run with these set options builds while it streams (the same points, the
/// same hold-out, the same polish for a whole run). Reachable sets need kept trajectories; without
/// them (or with options.reachable false) only the post-impact sets are built.
/// @throws std::invalid_argument for bad options or a run without kept samples.
std::vector<sets::PointSet> SetsFromSamples(const RunResult& run, const sets::SetOptions& options);

}  // namespace impactset::engine
