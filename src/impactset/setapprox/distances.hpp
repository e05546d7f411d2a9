#pragma once
// Distances between point sets and from points to a convex hull (docs/model.md §7.4): to compare
// models and measure convergence. Euclidean throughout.
#include <impactset/common/enum_names.hpp>
#include <vector>

#include <impactset/setapprox/convex_hull.hpp>
#include <impactset/setapprox/min_norm_point.hpp>
#include <impactset/setapprox/types.hpp>

namespace impactset::setapprox {

/// The one-sided (directed) distance h(A, B) = max_{a in A} min_{b in B} ||a - b||.
struct DirectedDistance {
  double distance = 0;
  Index from_index = -1;  ///< a column of A attaining the max (the first such column)
  Index to_index = -1;    ///< a nearest column of B to it
};

/// min_{b in set} ||q - b|| for every column q of queries (d x k); set is d x N, N >= 1.
/// A k-d tree (nanoflann) on set: O(N log N + k log N) expected.
/// @throws std::invalid_argument on an empty set, mismatched rows or non-finite entries.
VectorXd NearestDistances(const PointsRef& queries, const PointsRef& set);

/// h(A, B) = max_a min_b ||a - b|| (0 means A is a subset of B). A and B are d x N_A, d x N_B with
/// N_A, N_B >= 1. Cost as NearestDistances(A, B).
/// @throws std::invalid_argument on empty sets, mismatched rows or non-finite entries.
DirectedDistance OneSidedDistance(const PointsRef& a, const PointsRef& b);

/// Hausdorff distance max(h(A, B), h(B, A)) with both directions.
struct HausdorffDistanceResult {
  double distance = 0;
  DirectedDistance a_to_b;  ///< h(A, B)
  DirectedDistance b_to_a;  ///< h(B, A)
};
/// @throws std::invalid_argument as OneSidedDistance.
HausdorffDistanceResult HausdorffDistance(const PointsRef& a, const PointsRef& b);

/// Options of DistanceToHull.
struct HullDistanceOptions {
  MinNormPointOptions projection;  ///< Wolfe's algorithm, for points outside the hull

  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

enum class HullDistanceStatus {
  kInside,     ///< the projection of x onto the hull's subspace lies in H: distance = off-subspace
  kProjected,  ///< outside; Wolfe converged: distance is the distance to the projection onto H
  kNotConverged  ///< outside; Wolfe stopped early: only lower_bound <= dist <= distance holds
};
IMPACTSET_ENUM_NAMES(HullDistanceStatus,
                     "hull distance status",
                     {E::kInside, "inside"},
                     {E::kProjected, "projected"},
                     {E::kNotConverged, "not-converged"})

inline const char* ToString(HullDistanceStatus status) { return EnumName(status).data(); }

/// Per point x_j (columns of the query), with y = B^T (x - c), rho = ||(I - B B^T)(x - c)|| the
/// distance off the hull's affine subspace and H = c + B conv(vertex_coordinates):
///   dist(x, H)^2 = rho^2 + dist(y, conv Y)^2   (H lies in the subspace; Pythagoras).
/// dist(y, conv Y) is 0 when max_f (n_f . y + offset_f) <= 0 (kInside); otherwise it is computed
/// by Wolfe's nearest-point algorithm on the hull's vertices (MinNormPoint), which returns a
/// point p of conv Y (so ||y - p|| is an upper bound) and a separating-hyperplane lower bound;
/// the facet value max_f (n_f . y + offset_f) is a second lower bound.
struct HullDistanceResult {
  VectorXd distance;     ///< sqrt(rho^2 + ||y - p||^2): exact up to tolerance unless kNotConverged,
                         ///< in which case it is an upper bound
  VectorXd lower_bound;  ///< sqrt(rho^2 + max(facet value, Wolfe's bound, 0)^2) <= dist(x, H)
  VectorXd off_subspace;  ///< rho
  MatrixXd nearest;       ///< d x k: c + B p, the nearest point of H (when not kNotConverged)
  std::vector<HullDistanceStatus> status;
};

/// Distance from each column of points (d x k) to the hull (0 inside, up to roundoff).
/// Cost per outside point: a few Wolfe iterations of O(m r) each (m hull vertices).
/// @throws std::invalid_argument on mismatched rows, non-finite entries or bad options.
HullDistanceResult DistanceToHull(const ConvexHull& hull,
                                  const PointsRef& points,
                                  const HullDistanceOptions& options = {});

}  // namespace impactset::setapprox
