#pragma once
// Algorithm 2's set outputs (docs/model.md §6-7, docs/coverage.md): ε-nets of the post-impact
// and reachable sets built while samples stream, convex hulls of the nets, and the two coverage
// statements. Joins sampling/ (the sample stream) and setapprox/ (nets, hulls, bounds).
#include <cstdint>
#include <impactset/common/enum_names.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <impactset/impact/impact_problem.hpp>
#include <impactset/sampling/sampler.hpp>
#include <impactset/sets/output_map.hpp>

namespace impactset::sets {

/// Which set a net approximates.
enum class SetKind {
  kPostImpact,  ///< v+ of the samples that terminated (eq. 87; docs/model.md §7.1)
  kReachable    ///< every velocity v-, v_1, ..., v+ of every sample (eqs. 83-86; §7.1)
};
/// What became of a net's convex hull.
enum class HullStatus {
  kComputed,          ///< vertices, facets and volume are filled in
  kEmptyNet,          ///< no point to take the hull of (no terminated sample)
  kDimensionTooHigh,  ///< the affine hull's dimension exceeds SetOptions::hull_max_dimension
  kFailed             ///< Qhull gave up (HullResult::detail has its message)
};
/// How a net was built.
enum class NetConstruction {
  kGreedyInSampleOrder,  ///< one run: points farther than epsilon from the net join it in order
  kUnionOfShardNets      ///< merge without kept samples: within epsilon, separation not kept
};
IMPACTSET_ENUM_NAMES(SetKind, "set", {E::kPostImpact, "post_impact"}, {E::kReachable, "reachable"})
IMPACTSET_ENUM_NAMES(HullStatus,
                     "hull status",
                     {E::kComputed, "computed"},
                     {E::kEmptyNet, "empty_net"},
                     {E::kDimensionTooHigh, "dimension_too_high"},
                     {E::kFailed, "failed"})
IMPACTSET_ENUM_NAMES(NetConstruction,
                     "net construction",
                     {E::kGreedyInSampleOrder, "greedy in sample order"},
                     {E::kUnionOfShardNets, "union of shard nets"})
/// Names at the command-line and HDF5 boundary ("post_impact", "computed", ...): EnumNames.
inline const char* ToString(SetKind s) { return EnumName(s).data(); }
inline const char* ToString(HullStatus s) { return EnumName(s).data(); }
inline const char* ToString(NetConstruction c) { return EnumName(c).data(); }
inline SetKind ParseSetKind(std::string_view name) { return ParseEnum<SetKind>(name); }
inline NetConstruction ParseNetConstruction(std::string_view name) {
  return ParseEnum<NetConstruction>(name);
}

/// A hull's facets as half-spaces a . x <= b in ambient coordinates (the files' convention):
/// a = B n (d x F), b = a . c - offset, from n . y + offset <= 0 with y = B^T (x - c); and back
/// (n = B^T a, offset = a . c - b; equal up to roundoff).
struct AmbientFacets {
  MatrixXd normals;  ///< d x F
  VectorXd bounds;   ///< F
};
struct HullResult;
AmbientFacets ToAmbientFacets(const HullResult& hull);
void FromAmbientFacets(const AmbientFacets& facets, HullResult* hull);

/// Options of the set outputs (`impactset run --epsilon --delta --lipschitz --holdout`).
struct SetOptions {
  /// The outputs y = C v whose coordinates the sets are built in, each under its own name
  /// (sets/output_map.hpp). Empty: DefaultOutputs(problem) = {contact, generalized}. Valid
  /// (OutputMap::Validate), distinct names, n columns.
  std::vector<OutputMap> outputs;
  /// Covering radius ε of every net, in velocity units (every output alike). Empty: each output's
  /// own default, DefaultEpsilons (docs/coverage.md, "The net radius"). > 0 and finite when given.
  std::optional<double> epsilon;
  /// Confidence 1 - delta of both coverage statements (docs/model.md §6.4, docs/coverage.md).
  /// In (0, 1).
  double delta = 0.05;
  /// Lipschitz constant L of the map from p-sequences to post-impact contact velocities, for
  /// Lemma 1 (statement (a)); empty = statement (a) not computed. > 0 and finite when given.
  std::optional<double> lipschitz;
  /// K', the fresh iid samples of statement (b); 0 = not computed. With no miss, 4096 gives a
  /// missed-mass bound of 1 - 0.05^(1/4096) = 7.3e-4 at delta = 0.05. >= 0.
  long long holdout = 4096;
  /// Hulls are skipped (HullStatus::kDimensionTooHigh) above this affine dimension: Qhull's
  /// output grows like N^floor(r/2). 1 ... 9.
  int hull_max_dimension = 6;
  /// Cap on the points a hull is computed from: Qhull's work grows with the points near the
  /// boundary like N^floor(r/2) (a 48 k-point 6-D net takes ~3 s of CPU, bench_sets). A net with
  /// more points is thinned first: re-netted from its own points with the smallest radius
  /// delta = 2^j x its separation that leaves at most this many, and the hull is that of the
  /// thinned points, an inner approximation within Hausdorff distance delta of the net's hull
  /// (HullResult::thinning_radius; detail says so). 0 = never thin. >= 0.
  long long hull_max_points = 20000;
  /// Relative SVD tolerance deciding a hull's dimension (setapprox::AffineHullOptions). Samples
  /// end within the termination tolerance (1e-8) of exact values, so 1e-6 flattens sets that are
  /// flat up to that noise (the box-wall's resting contact). In (0, 1).
  double flatness_tolerance = 1e-6;
  /// Also build the reachable-set nets (every velocity of every trajectory: v-, the intermediate
  /// velocities and v+). Off by default: a diagnostic of the impact process that, with one point
  /// per step of every sample, costs more than the post-impact sets (docs/performance.md).
  bool reachable = false;
  /// Cap on each net's size: beyond it the net's radius doubles (setapprox::BoundedNet) and the
  /// stored epsilon is the resulting covering radius. Bounds memory and time when epsilon is
  /// small for the set's dimension (the disk stack's 9-D reachable set). >= 1.
  long long max_net_points = 50000;
  /// @throws std::invalid_argument naming the field, its value and the rule.
  void Validate() const;
};

/// ε when none is given: 1 % of the impact speed scale max_i |(J_c v-)_i| (docs/model.md §7.2).
/// The contact output's default, and the radius the planner's Lemma 1 uses.
constexpr double kDefaultEpsilonFraction = 1e-2;
double DefaultEpsilon(const impact::ImpactProblem& problem);
/// Each output's ε when none is given, in the output's own scale (docs/coverage.md, "The net
/// radius"): the contact output's is DefaultEpsilon(problem); any other output's is
/// kDefaultEpsilonFraction x max_j |(C (v_AP - v-))_j|, the largest change the simultaneous
/// inelastic (Anitescu-Potra) impact makes in that output's coordinates, and DefaultEpsilon when
/// that change is 0 or the AP LCP is not solved.
std::vector<double> DefaultEpsilons(const impact::ImpactProblem& problem,
                                    const std::vector<OutputMap>& outputs);
/// The ε of each output: `given` for every output when set, else DefaultEpsilons.
std::vector<double> OutputEpsilons(const impact::ImpactProblem& problem,
                                   const std::vector<OutputMap>& outputs,
                                   const std::optional<double>& given);

/// An ε-net of one set (setapprox::BoundedNet).
struct NetResult {
  MatrixXd points;        ///< d x size
  double epsilon = 0;     ///< covering radius: every point offered lies within epsilon of the net
  double separation = 0;  ///< net points are pairwise farther apart than this
  long long coarsenings = 0;  ///< radius doublings forced by the size cap (0: separation = epsilon)
  long long offered = 0;      ///< points offered to the net (samples or trajectory velocities)
  NetConstruction construction = NetConstruction::kGreedyInSampleOrder;
};

/// The convex hull of a net's points (setapprox::ConvexHull), in the coordinates
/// y = B^T (x - c) of their affine hull.
struct HullResult {
  HullStatus status = HullStatus::kEmptyNet;
  /// Human-readable status: "computed", "computed from a thinned net: ...", "skipped: dimension 9
  /// > hull_max_dimension 6", or "failed: <Qhull's message>" (what datasets store). Anything
  /// Qhull wrote follows, after "\nQhull said:\n" (also for a computed hull, e.g. the report of a
  /// retried attempt); Summary() gives one line of it.
  std::string detail;
  int dimension = -1;            ///< r, the dimension of the affine hull (-1: no point)
  VectorXd center;               ///< c (d)
  MatrixXd basis;                ///< B (d x r), orthonormal columns
  MatrixXd vertices;             ///< d x v, ambient coordinates
  MatrixXd facet_normals;        ///< r x F, outward unit normals
  VectorXd facet_offsets;        ///< F: y is inside iff normal . y + offset <= 0
  double volume = 0;             ///< r-dimensional measure
  double flatness = 0;           ///< largest distance of a net point from the affine hull
  double distance_roundoff = 0;  ///< Qhull's roundoff bound on facet distances
  long long qhull_points = 0;    ///< points handed to Qhull (after thinning)
  /// 0, or the radius delta of the thinning (SetOptions::hull_max_points): the hull is then an
  /// inner approximation within Hausdorff distance delta of the hull of every net point.
  double thinning_radius = 0;

  /// The first line of detail, cut to at most 160 characters, with " (+N lines from Qhull)" when
  /// Qhull said more: what a terminal shows.
  std::string Summary() const;
  /// Whether Qhull wrote anything (detail holds it).
  bool HasQhullMessages() const;
};

/// How much of the true set the net may miss (docs/coverage.md).
struct CoverageResult {
  // (b) hold-out, no Lipschitz constant needed.
  long long holdout = 0;                 ///< K' fresh samples that terminated (0: not evaluated)
  long long holdout_not_terminated = 0;  ///< fresh samples with step_cap or lcp_failure (left out)
  long long missed = 0;                  ///< of them, farther than epsilon from the net
  double delta = 0;                      ///< confidence 1 - delta
  double missed_mass_upper = 1;          ///< Clopper-Pearson upper bound on the missed probability
  std::string holdout_assumptions;
  // (a) Lemma 1, only with a user-given Lipschitz constant.
  bool lemma1 = false;  ///< evaluated: a Lipschitz constant was given
  double lipschitz = 0;
  long long cube_dimension = 0;  ///< d = m N of the p-sequences
  double log_cells = 0;          ///< log G, for the net's own epsilon
  /// P[the net is not a (2 epsilon)-net of the set] <= this, epsilon the net's own: G (1 -
  /// 1/G)^K when every one of the K samples terminated, else 1 (no bound: the sub-cube argument
  /// needs every sample in the net; lemma1_assumptions says how many did not terminate).
  double failure_bound = 1;
  double samples_needed = 0;  ///< K for failure_bound <= delta (planner), all samples terminating
  std::string lemma1_assumptions;
};

/// Extra random directions of a set's support polytope beyond the 2 d axes:
/// SupportDirections(d, kSetSupportExtraDirections) (sets/features.hpp), the same for every
/// run of dimension d.
inline constexpr int kSetSupportExtraDirections = 64;

/// The support-function polytope of one set over every sample (setapprox::SupportPolytope): for
/// the fixed unit directions u_j, h_j = max over the set's points of u_j . x and the first sample
/// attaining it. Outer description {x : U^T x <= h} (J facets), inner conv(attaining_points);
/// both exact for the samples (not for a net), and merged exactly across threads and shards.
struct SupportResult {
  MatrixXd directions;  ///< d x J: SupportDirections(d, kSetSupportExtraDirections)
  VectorXd values;      ///< J: h_j (-inf when the set has no point)
  std::vector<std::int64_t> attaining_samples;  ///< J: global sample index (-1: no point)
  MatrixXd attaining_points;                    ///< d x J (NaN columns when no point)
  long long count = 0;                          ///< points offered
};

/// One set in the coordinates of one output.
struct PointSet {
  SetKind set = SetKind::kPostImpact;
  std::string output = "contact";  ///< the output's name (OutputMap::name)
  NetResult net;
  HullResult hull;
  /// Over every sample of the run (post-impact: terminated samples; reachable: every velocity,
  /// attributed to its sample). Empty directions when not computed (a dataset written before).
  SupportResult support;
  std::optional<CoverageResult> coverage;  ///< post-impact sets of a run with coverage
};

/// The hold-out's seed, Mix64(seed ^ "Holdout!"): its streams' keys are pseudo-random like the
/// run's, so hold-out and run draws are disjoint with overwhelming probability (not by
/// construction).
std::uint64_t HoldoutSeed(std::uint64_t seed);

/// Adds coverage to the post-impact sets (the hold-out reruns Algorithm 1, see Finish): a
/// terminated hold-out sample is missed when it is farther than its net's epsilon from every
/// net point (d <= epsilon covers). Each set's output is looked up by name in `outputs`.
/// Statement (a) uses each net's own epsilon (its covering radius) and K = `samples`, the
/// samples (any status) whose terminated outcomes were offered to the nets; its bound is stated
/// only when all of them terminated (net.offered == samples), else failure_bound is 1 and
/// lemma1_assumptions says why (docs/coverage.md).
void AddCoverage(const impact::ImpactProblem& problem,
                 const std::vector<OutputMap>& outputs,
                 const sampling::SamplerOptions& run,
                 const SetOptions& options,
                 long long samples,
                 std::vector<PointSet>* sets);

/// The convex hull of points (a net's, whose points are pairwise farther apart than separation;
/// 0 when unknown), in their affine hull, with the options' flatness tolerance, dimension cap and
/// point cap.
HullResult HullOfPoints(const MatrixXd& points, const SetOptions& options, double separation = 0);
/// HullOfPoints of every set's net points, the hulls computed in parallel on up to `threads`
/// threads (0 = every hardware thread; each hull is a function of its own net only, so the result
/// is the same at any thread count).
void AddHulls(const SetOptions& options, std::vector<PointSet>* sets, int threads = 0);

}  // namespace impactset::sets
