#include <impactset/setapprox/affine_hull.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/SVD>

#include <impactset/setapprox/internal/check.hpp>

namespace impactset::setapprox {

using internal::InvalidArgument;
using internal::Shape;

void AffineHullOptions::Validate() const {
  if (!(relative_tolerance > 0 && relative_tolerance < 1)) {
    InvalidArgument("AffineHullOptions::relative_tolerance", relative_tolerance,
                    "must lie in (0, 1)");
  }
}

AffineHull ComputeAffineHull(const PointsRef& points, const AffineHullOptions& options) {
  options.Validate();
  const Index d = points.rows();
  const Index n = points.cols();
  if (d < 1 || n < 1) {
    InvalidArgument("points", Shape(d, n), "an affine hull needs d >= 1 rows and N >= 1 columns");
  }
  internal::RequireFinite(points, "points");

  AffineHull hull;
  hull.ambient_dimension = d;
  hull.point_count = n;
  hull.origin = points.rowwise().mean();
  const MatrixXd centred = points.colwise() - hull.origin;

  const double roundoff = 16 * std::numeric_limits<double>::epsilon() *
                          std::sqrt(static_cast<double>(n)) * points.colwise().norm().maxCoeff();
  if (n == 1) {
    hull.singular_values = VectorXd::Zero(1);
    hull.threshold = roundoff;
    hull.basis.resize(d, 0);
    hull.max_residual = 0;
    return hull;
  }

  // Thin U only: d x min(d, N). With N >> d Eigen first QR-factors the N x d adjoint.
  const Eigen::JacobiSVD<MatrixXd> svd(centred, Eigen::ComputeThinU);
  hull.singular_values = svd.singularValues();
  const double sigma1 = hull.singular_values.size() > 0 ? hull.singular_values(0) : 0.0;
  hull.threshold = std::max(options.relative_tolerance * sigma1, roundoff);
  Index r = 0;
  while (r < hull.singular_values.size() && hull.singular_values(r) > hull.threshold) ++r;
  r = std::min(r, n - 1);  // N points span at most N - 1 dimensions
  hull.dimension = r;
  hull.basis = svd.matrixU().leftCols(r);
  for (Index k = 0; k < r; ++k) {  // sign convention: largest-magnitude entry positive
    Index i_max = 0;
    hull.basis.col(k).cwiseAbs().maxCoeff(&i_max);
    if (hull.basis(i_max, k) < 0) hull.basis.col(k) *= -1;
  }
  hull.max_residual = hull.Residuals(points).maxCoeff();
  return hull;
}

MatrixXd AffineHull::Project(const PointsRef& points) const {
  if (points.rows() != ambient_dimension) {
    InvalidArgument(
        "points", Shape(points.rows(), points.cols()),
        "must have the hull's ambient dimension " + std::to_string(ambient_dimension) + " rows");
  }
  return basis.transpose() * (points.colwise() - origin);
}

MatrixXd AffineHull::Lift(const PointsRef& coordinates) const {
  if (coordinates.rows() != dimension) {
    InvalidArgument("coordinates", Shape(coordinates.rows(), coordinates.cols()),
                    "must have the hull's dimension " + std::to_string(dimension) + " rows");
  }
  return (basis * coordinates).colwise() + origin;
}

VectorXd AffineHull::Residuals(const PointsRef& points) const {
  if (points.rows() != ambient_dimension) {
    InvalidArgument(
        "points", Shape(points.rows(), points.cols()),
        "must have the hull's ambient dimension " + std::to_string(ambient_dimension) + " rows");
  }
  if (dimension == ambient_dimension) return VectorXd::Zero(points.cols());  // the whole space
  const MatrixXd centred = points.colwise() - origin;
  return (centred - basis * (basis.transpose() * centred)).colwise().norm().transpose();
}

}  // namespace impactset::setapprox
