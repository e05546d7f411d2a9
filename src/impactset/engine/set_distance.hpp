#pragma once
// How far apart two outcome sets are (model comparison, convergence studies; `impactset
// distance`): Hausdorff and one-sided distances between the points standing for each set, and
// the distances from each set's points to the other's convex hull.
#include <string>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/data/dataset.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/sets/set_outputs.hpp>

namespace impactset::engine {

/// The points standing for one set of one run: every kept sample when there are any (terminated
/// samples for the post-impact set, every trajectory velocity for the reachable set), else the
/// set's net.
struct SetPoints {
  std::string label;   ///< names the run in messages (a file name, "a", ...)
  MatrixXd points;     ///< d x N
  std::string source;  ///< "terminated samples", "trajectories" or "net"
  double epsilon = 0;  ///< every sample lies within epsilon of these points (0 for samples)
  /// The run's support polytope of the set over every sample (empty directions when the run has
  /// none stored; DistanceBetween then computes one from `points`).
  sets::SupportResult support;
};

/// In the coordinates of the run's output named `output` (kept samples are mapped, y = C v).
/// @throws std::invalid_argument naming `label` when the run has no such output, neither kept
///         samples nor a net of the set, or when the set has no point.
SetPoints PointsOf(const RunResult& run,
                   sets::SetKind set,
                   const std::string& output,
                   const std::string& label);
/// The same for a dataset file's contents (run and sweep files alike).
SetPoints PointsOf(const data::Dataset& dataset,
                   sets::SetKind set,
                   const std::string& output,
                   const std::string& label);

/// Distances from one set's points to the convex hull of the other's.
struct HullDistanceSummary {
  bool computed = false;
  std::string status;     ///< "computed", or "not computed: <Qhull's message>"
  double max = 0;         ///< largest distance of a point to the hull
  long long outside = 0;  ///< points farther from the hull than its tolerance (kHullTolerance)
};

struct SetDistance {
  double hausdorff = 0;  ///< max(a_to_b, b_to_a)
  double a_to_b = 0;     ///< h(A, B) = max over A of the distance to B
  double b_to_a = 0;     ///< h(B, A)
  /// a.epsilon + b.epsilon: where nets stand in for samples, the sets' own distances may differ
  /// from the ones above by up to this.
  double net_slack = 0;
  HullDistanceSummary a_to_hull_b, b_to_hull_a;
  /// max_j |h_A(u_j) - h_B(u_j)| over the fixed directions SupportDirections(d,
  /// kSetSupportExtraDirections): the Hausdorff distance between the convex hulls is
  /// max over all unit u of |h_A(u) - h_B(u)|, so this is a lower bound on it, cheap (O(J d)
  /// from stored polytopes) and computed over every sample when the runs stored their support.
  double support_gap = 0;
  std::string support_source;  ///< "stored support polytopes" or "computed from the points"
};

/// Hulls of more points than this are not computed by DistanceBetween ("not computed: ...",
/// setapprox::HullTooLarge): Qhull on a million 6-D samples would run for minutes.
inline constexpr long long kDistanceHullMaxPoints = 200000;

/// A point counts as outside a hull when it is farther than the hull's affine flatness plus
/// Qhull's roundoff plus kHullTolerance x (1 + the largest |coordinate| of the hull's points):
/// Wolfe's projection stops at about that relative accuracy.
inline constexpr double kHullTolerance = 1e-9;
/// Hulls are taken in the points' affine hull with this relative flatness tolerance, as
/// SetOptions::flatness_tolerance (samples end within 1e-8 of exact values).
inline constexpr double kHullFlatness = 1e-6;

/// @throws std::invalid_argument naming b's label when the two point sets have different
///         dimensions (not the same system).
SetDistance DistanceBetween(const SetPoints& a, const SetPoints& b);

/// Distances from the columns of points (d x k) to a computed hull of a run (the set
/// c + B conv(vertices) of HullResult), 0 inside up to roundoff (setapprox::DistanceToHull).
/// @throws std::invalid_argument if the hull's status is not kComputed or the points' dimension
///         is not the hull's.
VectorXd DistancesToHull(const sets::HullResult& hull, const MatrixXd& points);
/// Whether each column lies in the stored hull up to `tolerance`: the hull grown by its margin
/// (HullResult::margin, which makes it hold every sample of the run: every facet value at most
/// margin + tolerance and off the affine hull by at most flatness + margin + tolerance), or, for
/// a hull with margin 0, setapprox::ConvexHull::Contains (facet values and the distance off the
/// affine hull at most tolerance).
/// @throws as DistancesToHull; std::invalid_argument for a negative tolerance.
std::vector<bool> HullContains(const sets::HullResult& hull,
                               const MatrixXd& points,
                               double tolerance);

}  // namespace impactset::engine
