#pragma once
// Nearest point of a polytope given by its vertices: Wolfe's algorithm (P. Wolfe, "Finding the
// nearest point in a polytope", Math. Programming 11, 1976). Used for the distance from a point to
// a convex hull (distances.hpp).
#include <impactset/common/enum_names.hpp>
#include <vector>

#include <impactset/setapprox/types.hpp>

namespace impactset::setapprox {

/// Options of MinNormPoint.
struct MinNormPointOptions {
  /// Optimality: stop when ||x||^2 - min_j x . p_j <= tolerance * max_{j in S} ||p_j||^2 (Wolfe's
  /// Z1; the gap bounds ||x||^2 - (distance)^2). In (0, 1e-3].
  double tolerance = 1e-12;
  /// Weights <= weight_tolerance * max weight are dropped from the corral (Wolfe's Z3). In
  /// (0, 1e-3].
  double weight_tolerance = 1e-12;
  /// Cap on major plus minor iterations; Wolfe terminates finitely, and in practice needs a few
  /// times the dimension. >= 1.
  int max_iterations = 1000;

  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

enum class MinNormPointStatus {
  kConverged,       ///< the optimality gap is within tolerance: point is the nearest point
  kIterationLimit,  ///< max_iterations reached: point is a feasible point (upper bound only)
  kStalled          ///< roundoff stopped progress: point is feasible, bounds still valid
};
IMPACTSET_ENUM_NAMES(MinNormPointStatus,
                     "min norm point status",
                     {E::kConverged, "converged"},
                     {E::kIterationLimit, "iteration-limit"},
                     {E::kStalled, "stalled"})

inline const char* ToString(MinNormPointStatus status) { return EnumName(status).data(); }

/// Result of MinNormPoint for target q and polytope P = conv(columns of V).
struct MinNormPointResult {
  MinNormPointStatus status = MinNormPointStatus::kConverged;
  VectorXd point;              ///< a point of P (the nearest one when kConverged), length r
  double distance = 0;         ///< ||point - q||: always an upper bound on dist(q, P)
  double lower_bound = 0;      ///< max(0, min_j u . (v_j - q)) with u = (point - q)/distance:
                               ///< a certified lower bound on dist(q, P) (separating hyperplane)
  std::vector<Index> support;  ///< columns of V with positive weight (the final corral)
  VectorXd weights;            ///< their convex weights, summing to 1
  int iterations = 0;
};

/// Nearest point to target of conv(columns of vertices), vertices r x m (m >= 1), by Wolfe's
/// algorithm: any status leaves lower_bound <= dist(target, P) <= distance (up to roundoff).
/// @throws std::invalid_argument on empty or mismatched input, non-finite entries, bad options.
MinNormPointResult MinNormPoint(const PointsRef& vertices,
                                const PointRef& target,
                                const MinNormPointOptions& options = {});

}  // namespace impactset::setapprox
