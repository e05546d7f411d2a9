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

/// SetOptions::polish's default: enough rounds of the directed search from a set's ends to
/// reach its extremes on the shipped systems where the mixed design alone falls short
/// (docs/coverage.md, "The polish"), at a cost near that of the run's own sets.
inline constexpr long long kDefaultPolish = 4096;

/// Options of the set outputs (`impactset run --epsilon --delta --lipschitz --holdout`).
struct SetOptions {
  /// The outputs y = C v whose coordinates the sets are built in, each under its own name
  /// (sets/output_map.hpp). Empty: DefaultOutputs(problem) = {contact, generalized}. Valid
  /// (OutputMap::Validate), distinct names, n columns.
  std::vector<OutputMap> outputs;
  /// Covering radius ε of every net, in velocity units (every output alike). Empty: each output's
  /// own default, PilotEpsilons for a run (DefaultEpsilons without one; docs/coverage.md, "The net
  /// radius"). > 0 and finite when given.
  std::optional<double> epsilon;
  /// Confidence 1 - delta of the hold-out statement, per output (docs/coverage.md); Lemma 1
  /// states its own failure probability. In (0, 1).
  double delta = 0.05;
  /// Lipschitz constant L of the map from p-sequences to post-impact contact velocities, for
  /// Lemma 1 (statement (a)) on the contact output of an iid or mixed run; empty = statement (a)
  /// not computed. > 0 and finite when given.
  std::optional<double> lipschitz;
  /// K', the fresh iid samples of statement (b); 0 = not computed. With no miss, 4096 gives a
  /// missed-mass bound of 1 - 0.05^(1/4096) = 7.3e-4 at delta = 0.05. >= 0.
  long long holdout = 4096;
  /// Samples of the polish (SetBuilder::Polish, docs/coverage.md "The polish"): a directed
  /// search from the samples at the ends of each post-impact set, run after the run's samples
  /// (whole runs and merges of the iid, Sobol and mixed designs); its outcomes join the sets and
  /// its second half decides the extent statement. 0 = none. >= 0.
  long long polish = kDefaultPolish;
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

/// Samples of the pilot that sizes a run's default radii (PilotEpsilons): the mixed design at the
/// run's h, N, solver and selection, from seed RadiusPilotSeed(seed).
inline constexpr long long kRadiusPilotSamples = 256;
/// A run's default radius of an output: this fraction of the largest axis width of the pilot's
/// terminated outcomes in that output, so that a net resolves the set's own shape whatever its
/// size next to the impact speed (a humanoid heel strike's com set is 1e-3 of it).
inline constexpr double kRadiusWidthFraction = 1e-2;
/// A pilot width below this fraction of the output's impact scale (DefaultEpsilons / 1 %) is
/// roundoff of a set that is one point: the output keeps DefaultEpsilons.
inline constexpr double kRadiusFlatFraction = 1e-9;
/// The radius pilot's seed, Mix64(seed ^ "Radius!!"): its draws are not the run's.
std::uint64_t RadiusPilotSeed(std::uint64_t seed);
/// Each output's default radius for a run with these sampler options (docs/coverage.md, "The net
/// radius"): kRadiusWidthFraction x the pilot's largest axis width in that output, or
/// DefaultEpsilons where the pilot's outcomes are one point (or none terminated). A function of
/// the problem and the run's seed, h, N, solver and selection only: every shard of a run gets
/// the same radii.
std::vector<double> PilotEpsilons(const impact::ImpactProblem& problem,
                                  const std::vector<OutputMap>& outputs,
                                  const sampling::SamplerOptions& run);

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
  /// Every point offered to the net (each terminated sample) lies in the hull grown by margin:
  /// normal . y + offset <= margin on every facet, and within flatness + margin of the affine
  /// hull. margin = the net's covering radius + thinning_radius (HullContains tests exactly
  /// this). 0 for a hull of points other than a net's.
  double margin = 0;

  /// The first line of detail, cut to at most 160 characters, with " (+N lines from Qhull)" when
  /// Qhull said more: what a terminal shows.
  std::string Summary() const;
  /// Whether Qhull wrote anything (detail holds it).
  bool HasQhullMessages() const;
};

/// What is known of a post-impact set beyond its samples (docs/coverage.md): three statements,
/// each with its own hypotheses.
///  - extent (an observation, no probability): how far the support values moved between the
///    first half of the run and the whole run;
///  - hold-out (mass): a Clopper-Pearson bound on the probability, under iid sampling, of an
///    outcome farther than the net's radius from the net. It bounds mass, not extent: outcomes
///    iid caps reach rarely (the extremes) weigh little in it;
///  - Lemma 1 (only with a Lipschitz constant, the iid part of an iid or mixed run, the contact
///    output): P[every sample terminates and the net is not an (eps0 + eps)-net] <= G (1-1/G)^K.
struct CoverageResult {
  // Extent.
  bool extent = false;      ///< evaluated (the support polytope kept its first half)
  double extent_width = 0;  ///< the sampled set's largest axis width (output units)
  /// The largest rise of a support value h_j from the run's first half (K/2 samples) to the
  /// whole run, as a fraction of extent_width (+inf when the first half had no terminated
  /// sample; 0 for a set of width 0).
  double extent_moved = 0;
  bool extent_converged = false;  ///< extent_moved <= kExtentConvergedFraction
  std::string extent_statement;   ///< the statement in words (what a summary prints)
  // (b) hold-out, no Lipschitz constant needed.
  long long holdout = 0;                 ///< K' fresh samples that terminated (0: not evaluated)
  long long holdout_not_terminated = 0;  ///< fresh samples with step_cap or lcp_failure (left out)
  long long missed = 0;                  ///< of them, farther than epsilon from the net
  double delta = 0;                      ///< confidence 1 - delta
  double missed_mass_upper = 1;          ///< Clopper-Pearson upper bound on the missed probability
  std::string holdout_assumptions;
  // (a) Lemma 1, only with a user-given Lipschitz constant, where it holds.
  bool lemma1 = false;  ///< stated (else lemma1_assumptions says why not, when L was given)
  double lipschitz = 0;
  long long cube_dimension = 0;  ///< d = m N of the p-sequences
  double log_cells = 0;          ///< log G, at the initial radius eps0
  /// G (1 - 1/G)^K, K the run's iid samples, bounding P[every sample of the run terminated and
  /// the net is not an (eps0 + eps)-net of the set], eps0 the radius the net started with (fixed
  /// before sampling) and eps its covering radius (2 eps0 when the net was never coarsened).
  /// 1 when some sample did not terminate (the argument needs each in the net).
  double failure_bound = 1;
  double samples_needed = 0;  ///< K for failure_bound <= delta (+inf when beyond a double)
  std::string lemma1_assumptions;
};

/// The extent statement's threshold: the extent counts as converged when no support value rose
/// by more than this fraction of the set's largest width in the run's second half. 1 %: the
/// resolution a controller study reads a range at; a coarser threshold would call the 30 %
/// shortfall of a default iid run on a legged robot "converged" only by luck of the halves.
inline constexpr double kExtentConvergedFraction = 0.01;
/// A support value's rise no larger than this fraction of max(1, the largest |support value|)
/// is roundoff: step LCPs are accepted at residuals up to 1e-9, so samples that are one outcome
/// differ by that much (a set that is a single point would otherwise rise by "10 %" of a width
/// of 1e-16).
inline constexpr double kExtentRoundoff = 1e-9;

/// The largest axis width max_i h(+e_i) + h(-e_i) of a support polytope (SupportDirections puts
/// the axes first): the set's widest coordinate range; 0 when it has no point.
double LargestAxisWidth(const struct SupportResult& support);
/// Each coordinate's range over the set's points, exact over every sample: column 0 the least
/// value -h(-e_i), column 1 the largest h(+e_i) (d x 2; +-inf entries when the set has no point).
MatrixXd AxisRanges(const struct SupportResult& support);
/// The extent statement of a support polytope that kept its first half (CoverageResult's extent
/// fields; extent = false when it did not).
/// `run_samples`: the run's K; a cut beyond it (first_half_end > K) is a polish's
/// (SetBuilder::Polish), and the statement then speaks of the polish's second half.
CoverageResult ExtentOf(const struct SupportResult& support, long long run_samples = 0);

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
  /// Post-impact sets: h_j over the samples of the first half of the run only (global index <
  /// first_half_end = K / 2; -inf where none terminated), for the extent statement (ExtentOf).
  /// Empty when not tracked (reachable sets, a dataset written before).
  VectorXd first_half_values;
  long long first_half_end = 0;  ///< K / 2 of the run (0: not tracked)
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

/// Adds the coverage statements to the post-impact sets (CoverageResult; docs/coverage.md):
/// the extent statement from each set's support polytope (ExtentOf), the hold-out statement
/// (reruns Algorithm 1 on options.holdout fresh iid samples; a terminated hold-out sample is
/// missed when it is farther than its net's covering radius from every net point) and, with a
/// Lipschitz constant, Lemma 1 where it holds: the contact output, the iid design (K = samples)
/// or the mixed one (K = its iid samples, samples / 2), every sample terminated, G at the output's
/// initial radius (`initial_epsilons`, in the order of `outputs`). Where it does not hold,
/// lemma1 stays false and lemma1_assumptions says why. `samples`: the samples (any status) whose
/// terminated outcomes were offered to the nets. Each set's output is looked up by name.
void AddCoverage(const impact::ImpactProblem& problem,
                 const std::vector<OutputMap>& outputs,
                 const std::vector<double>& initial_epsilons,
                 const sampling::SamplerOptions& run,
                 const SetOptions& options,
                 long long samples,
                 std::vector<PointSet>* sets);

/// The convex hull of points (a net's, whose points are pairwise farther apart than separation;
/// 0 when unknown), in their affine hull, with the options' flatness tolerance, dimension cap and
/// point cap.
HullResult HullOfPoints(const MatrixXd& points, const SetOptions& options, double separation = 0);
/// HullOfPoints of a net's points with HullResult::margin set (the net's covering radius plus any
/// thinning radius): the grown hull holds every point offered to the net.
HullResult HullOfNet(const NetResult& net, const SetOptions& options);
/// HullOfNet of every set's net, the hulls computed in parallel on up to `threads`
/// threads (0 = every hardware thread; each hull is a function of its own net only, so the result
/// is the same at any thread count).
void AddHulls(const SetOptions& options, std::vector<PointSet>* sets, int threads = 0);

}  // namespace impactset::sets
