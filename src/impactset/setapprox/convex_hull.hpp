#pragma once
// Convex hull of a point set (docs/model.md §7.3), computed with Qhull in the points' affine
// subspace so that flat sets (a plane in R^3, a segment, a single repeated point) get a hull of
// their own dimension instead of Qhull's "initial simplex is flat" error (QH6154).
#include <stdexcept>
#include <string>
#include <vector>

#include <impactset/setapprox/affine_hull.hpp>
#include <impactset/setapprox/types.hpp>

namespace impactset::setapprox {

/// Options of ComputeConvexHull.
struct ConvexHullOptions {
  /// Flatness detection (the SVD tolerance deciding the hull's dimension r).
  AffineHullOptions affine{};
  /// Hand Qhull only the candidate vertices (Akl-Toussaint): the points extreme in one of a fixed
  /// set of directions (all {-1, 0, +1} vectors with up to 2 non-zeros, 3 for r <= 6) and every
  /// point not strictly inside the hull E of those. A dropped point lies inside E by more than 10x
  /// Qhull's roundoff bound for E, so the hull is that of all points up to Qhull's roundoff (it is
  /// not an inner approximation). Off by default: measured on outcome-like clouds (bench_sets,
  /// bench/README.md) it drops 70-85 % of the points yet makes Qhull slower in 4-6 dimensions,
  /// whose cost is set by the points near the boundary, which the prefilter keeps.
  bool prefilter = false;
  /// Refuse (HullTooLarge) when more than this many points would reach Qhull (after the
  /// prefilter): Qhull's work grows like N^floor(r/2) and can run for minutes in r >= 6.
  /// 0 = no cap. >= 0.
  Index max_qhull_points = 0;

  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

/// The convex hull H of N points of R^d, stored in the coordinates y = B^T (x - c) of their affine
/// hull (dimension r, see AffineHull). The set represented is exactly
///   H = { c + B y : n_f . y + offset_f <= 0 for every facet f } = c + B conv(vertex_coordinates),
/// i.e. the hull of the points projected onto the subspace; each input point is at most
/// affine.max_residual from its projection.
///   r = 0: H = {c} (no facets, no vertices besides index 0, volume 0);
///   r = 1: a segment, two vertices (the extreme points), facets -1 / +1, volume = its length;
///   r >= 2: Qhull with default options (merged facets, so a cube has 6 facets; 'C-0'/'Qx'),
///          but for r >= 5 and more than 1000 points with 'QJ' (joggled input, simplicial
///          facets, volume to ~1e-10 relative; 8-9x faster on 6-D outcome nets;
///          distance_roundoff includes the joggle).
struct ConvexHull {
  AffineHull affine;  ///< c, B, r and the flatness of the input
  /// Input columns that are hull vertices, ascending. For r = 0 just {0}.
  std::vector<Index> vertex_indices;
  MatrixXd vertices;            ///< d x m: the input points vertex_indices (ambient, unprojected)
  MatrixXd vertex_coordinates;  ///< r x m: the same vertices in subspace coordinates
  MatrixXd facet_normals;       ///< r x F: outward unit normals (subspace coordinates)
  VectorXd facet_offsets;       ///< F: y is inside iff n_f . y + offset_f <= 0 for all f
  /// r-dimensional measure of H in the subspace (area for r = 2, length for r = 1, 0 for r = 0).
  /// B is orthonormal, so this is also H's r-dimensional Hausdorff measure in R^d.
  double volume = 0;
  /// Qhull's bound on how far an input point may lie above a facet: max(qh DISTround,
  /// qh max_outside); 0 when r <= 1. A containment tolerance below it is meaningless.
  double distance_roundoff = 0;
  /// Points handed to Qhull (all of them without the prefilter; 0 when r <= 1).
  Index qhull_points = 0;
  /// The Qhull options that succeeded ("qhull", "qhull Q12" or "qhull QJ"; empty when r <= 1).
  std::string qhull_command;
  /// Everything Qhull wrote (warnings, the reports of retried attempts), tagged with the options
  /// of each attempt; empty when it said nothing. Qhull never writes to the terminal.
  std::string qhull_messages;

  Index ambient_dimension() const { return affine.ambient_dimension; }
  Index dimension() const { return affine.dimension; }
  Index facet_count() const { return facet_offsets.size(); }

  /// max_f (n_f . y + offset_f) for subspace coordinates y (r): <= 0 inside, and for y outside it
  /// is a lower bound on the distance from y to the hull. -inf when there are no facets (r = 0).
  double MaxFacetValue(const PointRef& y) const;

  /// Whether x (ambient, length d) lies in H up to tolerance: ||(I - B B^T)(x - c)|| <= tolerance
  /// and max_f (n_f . y + offset_f) <= tolerance with y = B^T (x - c). Every point within
  /// tolerance of H passes; a point that passes may lie farther than tolerance from H near a sharp
  /// vertex (each facet is moved outward by tolerance). Input points pass for
  /// tolerance >= affine.max_residual + distance_roundoff (up to roundoff of the projection).
  /// @throws std::invalid_argument on a wrong size, a non-finite entry or tolerance < 0.
  bool Contains(const PointRef& x, double tolerance) const;
  /// Contains for every column of points (d x k).
  std::vector<bool> ContainsAll(const PointsRef& points, double tolerance) const;
};

/// Thrown by ComputeConvexHull when more than ConvexHullOptions::max_qhull_points points would
/// reach Qhull.
class HullTooLarge : public std::runtime_error {
 public:
  HullTooLarge(Index points, Index cap, Index dimension);
  Index points = 0;     ///< points that would have reached Qhull
  Index cap = 0;        ///< max_qhull_points
  Index dimension = 0;  ///< r
};

/// Convex hull of the columns of points (d x N, N >= 1, finite): affine hull by SVD, then
/// r = 0 / 1 by hand and r >= 2 with Qhull on the r x N subspace coordinates (of the candidate
/// vertices with options.prefilter).
/// Cost: the SVD, the prefilter (O(N r J) for J directions, one small Qhull, O(N r F) facet
/// values) plus Qhull in dimension r on the candidates; Qhull's output grows like N^floor(r/2) for
/// points near the boundary, so hull an ε-net rather than millions of raw samples when r >= 5.
/// @throws std::invalid_argument on bad input or options.
/// @throws std::runtime_error carrying Qhull's message (e.g. "QH6227 qhull topology error: Only 5
///         facets remain" or "QH6154 ... initial simplex is flat") when the set is flat to within
///         ~1e-13 relative in some direction yet kept by a lowered affine tolerance (the default
///         1e-9 flattens such sets first); raise options.affine.relative_tolerance then. Qhull
///         never prints or aborts; its messages are in the exception's text.
/// @throws HullTooLarge when the candidates exceed options.max_qhull_points.
ConvexHull ComputeConvexHull(const PointsRef& points, const ConvexHullOptions& options = {});

}  // namespace impactset::setapprox
