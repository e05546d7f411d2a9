#pragma once
// Algorithm 2's set outputs (model.md §6-7): ε-nets of the post-impact and reachable sets built
// while samples stream, convex hulls of the nets, and the two coverage statements. Joins
// sampling/ (the sample stream), setapprox/ (nets, hulls, bounds) and data/ (the stored arrays).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "data/dataset.hpp"
#include "impact/impact_problem.hpp"
#include "sampling/sampler.hpp"

namespace impactset::app {

/// Options of the set outputs (`impactset run --epsilon --delta --lipschitz --holdout`).
struct SetOptions {
  /// Covering radius ε of every net, in velocity units (contact and generalized coordinates
  /// alike). Empty: kDefaultEpsilonFraction x the largest |contact velocity| before impact, so
  /// nets stay a few hundred points on the paper's examples. > 0 and finite when given.
  std::optional<double> epsilon;
  /// Confidence 1 - delta of both coverage statements. In (0, 1).
  double delta = 0.05;
  /// Lipschitz constant L of the map from p-sequences to post-impact contact velocities, for
  /// Lemma 1 (statement (a)); empty = statement (a) not computed. > 0 and finite when given.
  std::optional<double> lipschitz;
  /// K', the fresh iid samples of statement (b); 0 = not computed. With no miss, 4096 gives a
  /// missed-mass bound of 1 - 0.05^(1/4096) = 7.3e-4 at delta = 0.05. >= 0.
  long long holdout = 4096;
  /// Hulls are skipped (status says why) above this affine dimension: Qhull's output grows like
  /// N^floor(r/2). 1 ... 9.
  int hull_max_dimension = 6;
  /// Relative SVD tolerance deciding a hull's dimension (setapprox::AffineHullOptions). Samples
  /// end within the termination tolerance (1e-8) of exact values, so 1e-6 flattens sets that are
  /// flat up to that noise (the box-wall's resting contact). In (0, 1).
  double flatness_tolerance = 1e-6;
  bool reachable = true;  ///< also build the reachable-set nets (every intermediate velocity)
  /// Cap on each net's size: beyond it the net's radius doubles (setapprox::BoundedNet) and the
  /// stored epsilon is the resulting covering radius. Bounds memory and time when epsilon is
  /// small for the set's dimension (the disk stack's 9-D reachable set). >= 1.
  long long max_net_points = 50000;
  /// @throws std::invalid_argument naming the field, its value and the rule.
  void Validate() const;
};

/// ε when none is given: 1 % of the impact speed scale max_i |(J_c v-)_i|.
constexpr double kDefaultEpsilonFraction = 1e-2;
double DefaultEpsilon(const impact::ImpactProblem& problem);

/// Builds the four nets (post_impact | reachable) x (contact | generalized) from sample blocks in
/// sample order; post-impact nets take terminated samples only, reachable nets every velocity of
/// every sample (v- included).
class SetBuilder {
 public:
  /// @throws std::invalid_argument for bad options.
  SetBuilder(const impact::ImpactProblem& problem, const SetOptions& options);
  ~SetBuilder();
  SetBuilder(const SetBuilder&) = delete;
  SetBuilder& operator=(const SetBuilder&) = delete;

  double epsilon() const { return epsilon_; }
  /// Stream options whose sink feeds this builder (it must outlive the sampler run).
  sampling::StreamOptions Stream();
  void Consume(const sampling::SampleBlock& block);
  /// Offers points directly: used by `merge`, which rebuilds nets from kept samples.
  void ConsumePostImpact(const MatrixXd& v_plus, const std::vector<std::int32_t>& status);
  void ConsumeReachable(const MatrixXd& velocities);

  /// Nets, hulls and coverage. The hold-out reruns Algorithm 1 on K' fresh iid samples (a stream
  /// disjoint from every run's: seed HoldoutSeed(seed)) with the run's h, N, solver and selection.
  /// @param[in] run  the run's options (samples = K of the whole run, for Lemma 1).
  std::vector<data::PointSetArrays> Finish(const sampling::SamplerOptions& run) const;
  /// Nets and hulls only (Finish without the coverage).
  std::vector<data::PointSetArrays> Sets() const;

 private:
  struct Nets;
  const impact::ImpactProblem& problem_;
  SetOptions options_;
  double epsilon_;
  std::unique_ptr<Nets> nets_;
};

/// The hold-out's seed: never equal to a run seed's own stream (a fixed odd offset, mixed).
std::uint64_t HoldoutSeed(std::uint64_t seed);

/// Adds /coverage to the post-impact sets (the hold-out reruns Algorithm 1, see Finish): a
/// hold-out sample is missed when it is farther than epsilon from every stored net point.
void AddCoverage(const impact::ImpactProblem& problem,
                 const sampling::SamplerOptions& run,
                 const SetOptions& options,
                 double epsilon,
                 std::vector<data::PointSetArrays>* sets);

/// The stored form of the options (attributes of /net) and back.
data::SetSettings ToSettings(const SetOptions& options, double epsilon);
SetOptions FromSettings(const data::SetSettings& settings);

/// Rebuilds a net's hull from stored net points (merge of shards whose samples were not kept).
data::HullArrays HullOfPoints(const MatrixXd& points, const SetOptions& options);

}  // namespace impactset::app
