#pragma once
// Builds a run's ε-nets and support polytopes while samples stream (docs/model.md §6), in the
// coordinates of each output; set_outputs.hpp holds what it produces.
#include <cstdint>
#include <memory>
#include <vector>

#include <impactset/impact/impact_problem.hpp>
#include <impactset/sampling/sampler.hpp>
#include <impactset/sets/output_map.hpp>
#include <impactset/sets/set_outputs.hpp>

namespace impactset::sets {

/// Builds the nets (post_impact | reachable) x (each output) from sample blocks in sample order;
/// post-impact nets take terminated samples only, reachable nets every velocity of every sample
/// (v- included). Sets() lists them post-impact first, each kind in the order of the outputs.
class SetBuilder {
 public:
  /// The sets of a run with these sampler options: each output's default radius comes from a
  /// pilot of the run's impact (PilotEpsilons), and the post-impact support polytopes also keep
  /// the first half of the run's values (SupportResult::first_half_values) for the extent
  /// statement.
  /// @throws std::invalid_argument for bad options (outputs whose C has other than n columns).
  SetBuilder(const impact::ImpactProblem& problem,
             const SetOptions& options,
             const sampling::SamplerOptions& run);
  /// Without a run: default radii DefaultEpsilons, no first-half values (no extent statement).
  SetBuilder(const impact::ImpactProblem& problem, const SetOptions& options);
  ~SetBuilder();
  SetBuilder(const SetBuilder&) = delete;
  SetBuilder& operator=(const SetBuilder&) = delete;

  /// The net radius of each output, in the order of outputs() (SetOptions::epsilon, or each
  /// output's default: OutputEpsilons).
  const std::vector<double>& epsilons() const { return epsilons_; }
  /// The outputs the sets are built in (options.outputs, or the defaults).
  const std::vector<OutputMap>& outputs() const { return outputs_; }
  /// Stream options whose sink feeds this builder (it must outlive the sampler run). Their
  /// prepare step (maps to the outputs, block support polytopes, tests against snapshots of the
  /// nets) runs on the sampler's worker threads; the sink then offers each net only the points
  /// its snapshot did not cover. The nets and polytopes are bit for bit those of a serial pass.
  sampling::StreamOptions Stream();
  void Consume(const sampling::SampleBlock& block);
  /// Offers points directly: used by Merge, which rebuilds nets from kept samples. Column k is
  /// sample first + k (post-impact); trajectory column c belongs to the sample whose offsets
  /// bracket it (reachable; no offsets: every column is sample `first`). With `status` (one per
  /// sample), the trajectories of kNonPhysical samples are left out of the reachable sets as their
  /// end states are left out of the post-impact sets.
  void ConsumePostImpact(const MatrixXd& v_plus,
                         const std::vector<impact::SampleStatus>& status,
                         long long first = 0);
  void ConsumeReachable(const MatrixXd& velocities,
                        const std::vector<std::int64_t>& offsets = {},
                        long long first = 0,
                        const std::vector<impact::SampleStatus>* status = nullptr);

  /// The polish (docs/coverage.md, "The polish"): for each output, a directed search
  /// (sampling::PolishExtremes) started from the samples that attain its post-impact support
  /// values, `budget` samples split evenly over the outputs; every terminated polish sample joins
  /// every post-impact set (not the reachable ones, nor Lemma 1's K). The polish samples are
  /// numbered from run.samples on, the first half of each output's polish before the second
  /// halves, and the extent statement's cut (SupportResult::first_half_end) moves to the end of
  /// the first halves: it then says how far the polish's second half moved the set. Call once,
  /// after the run's samples and before Finish. Returns the polish samples' count.
  long long Polish(const sampling::SamplerOptions& run, long long budget);
  /// The same from given starts (one list per output, in outputs() order): Merge polishes a
  /// union of shards from their merged support polytopes with a builder that holds no sample.
  long long Polish(const sampling::SamplerOptions& run,
                   long long budget,
                   const std::vector<std::vector<long long>>& starts);

  /// Nets, hulls and coverage. The hold-out reruns Algorithm 1 on K' fresh iid samples (seed
  /// HoldoutSeed(seed)) with the run's h, N, solver and selection. Lemma 1's K is the number of
  /// samples this builder consumed (a shard's own), whatever their status.
  /// @param[in] run  the run's options.
  std::vector<PointSet> Finish(const sampling::SamplerOptions& run) const;
  /// Nets and hulls only (Finish without the coverage); the hulls on up to `threads` threads
  /// (0 = every hardware thread; Finish passes the run's SamplerOptions::threads).
  std::vector<PointSet> Sets(int threads = 0) const;

 private:
  struct Nets;
  struct Prepared;  // what the stream's prepare step computes from a block
  void PreparePost(const MatrixXd& v_plus,
                   const std::vector<impact::SampleStatus>& status,
                   long long first,
                   bool snapshots,
                   Prepared* out) const;
  void PrepareReachable(const MatrixXd& velocities,
                        const std::vector<std::int64_t>& offsets,
                        long long first,
                        const std::vector<impact::SampleStatus>* status,
                        bool snapshots,
                        Prepared* out) const;
  void PrepareBlock(const sampling::SampleBlock& block, bool snapshots, Prepared* out) const;
  // Both public constructors: `run` null for a builder without a run.
  SetBuilder(const impact::ImpactProblem& problem,
             const SetOptions& options,
             const sampling::SamplerOptions* run);
  void Apply(const Prepared& prepared);
  void MakeNets();
  const impact::ImpactProblem& problem_;
  SetOptions options_;
  std::vector<OutputMap> outputs_;
  std::vector<double> epsilons_;
  long long first_half_end_ = 0;  // K / 2 of the run; 0: no first-half values
  std::unique_ptr<Nets> nets_;
};

/// The exact union of two support polytopes of the same set (h = max, ties to the smaller sample
/// index): Merge of shard results is bit for bit a one-run result.
/// @throws std::invalid_argument when the directions differ.
SupportResult MergeSupport(const SupportResult& a, const SupportResult& b);

}  // namespace impactset::sets
