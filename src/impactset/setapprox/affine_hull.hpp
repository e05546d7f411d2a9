#pragma once
// Affine hull of a point set by SVD (docs/model.md §7.3): outcome sets are often flat, so hulls and
// distances are computed in the affine subspace the points span, with its basis stored.
#include <impactset/setapprox/types.hpp>

namespace impactset::setapprox {

/// Options of ComputeAffineHull.
struct AffineHullOptions {
  /// Relative tolerance on the singular values of the centred points X = [x_j - c] (d x N).
  /// Direction i is kept iff sigma_i > tau, with
  ///   tau = max(relative_tolerance * sigma_1,  16 * eps_machine * sqrt(N) * max_j ||x_j||_2),
  /// the second term being the roundoff of forming X itself (so identical points give r = 0).
  /// Raise it when the points carry solver noise off an exact subspace (e.g. 1e-6 for outcomes
  /// computed to 1e-8); a larger value flattens more. In (0, 1).
  double relative_tolerance = 1e-9;

  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

/// The affine subspace {c + B y : y in R^r} fitted to the points.
struct AffineHull {
  Index ambient_dimension = 0;  ///< d
  Index dimension = 0;          ///< r, 0 <= r <= min(d, N - 1)
  Index point_count = 0;        ///< N
  VectorXd origin;              ///< c = centroid of the points (d)
  /// B, d x r, orthonormal columns: the left singular vectors of X with sigma_i > tau, in
  /// decreasing sigma order; each column's largest-magnitude entry is made positive.
  MatrixXd basis;
  VectorXd singular_values;  ///< all min(d, N) singular values sigma_1 >= sigma_2 >= ... of X
  double threshold = 0;      ///< tau (see AffineHullOptions)
  /// max_j ||(I - B B^T)(x_j - c)||: how far the farthest point lies off the subspace. Up to
  /// roundoff it is <= sigma_{r+1} <= tau (a column norm is at most the spectral norm).
  double max_residual = 0;

  /// Subspace coordinates y_j = B^T (x_j - c) of the columns of points (d x k) -> r x k.
  /// @throws std::invalid_argument if points.rows() != d.
  MatrixXd Project(const PointsRef& points) const;
  /// Ambient points c + B y_j of subspace coordinates (r x k) -> d x k.
  /// @throws std::invalid_argument if coordinates.rows() != r.
  MatrixXd Lift(const PointsRef& coordinates) const;
  /// Distances ||(I - B B^T)(x_j - c)|| of the columns of points off the subspace (length k);
  /// exactly 0 when r = d.
  /// @throws std::invalid_argument if points.rows() != d.
  VectorXd Residuals(const PointsRef& points) const;
};

/// Fits the affine hull of the columns of points (d x N, N >= 1, finite).
/// Cost: one SVD of the d x N centred matrix, O(N d^2) (Eigen JacobiSVD with QR preconditioning).
/// @throws std::invalid_argument on an empty set, d = 0, a non-finite coordinate or bad options.
AffineHull ComputeAffineHull(const PointsRef& points, const AffineHullOptions& options = {});

}  // namespace impactset::setapprox
