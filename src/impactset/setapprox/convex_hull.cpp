#include <impactset/setapprox/convex_hull.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include <impactset/setapprox/internal/check.hpp>
#include <impactset/setapprox/internal/hull_prefilter.hpp>
#include <impactset/setapprox/internal/qhull_run.hpp>

namespace impactset::setapprox {

using internal::InvalidArgument;
using internal::Shape;

void ConvexHullOptions::Validate() const {
  affine.Validate();
  if (max_qhull_points < 0) {
    InvalidArgument("ConvexHullOptions::max_qhull_points", max_qhull_points,
                    "must be >= 0 (0 = no cap)");
  }
}

HullTooLarge::HullTooLarge(Index points_, Index cap_, Index dimension_)
    : std::runtime_error(std::to_string(points_) + " candidate vertices in dimension " +
                         std::to_string(dimension_) + " exceed max_qhull_points " +
                         std::to_string(cap_)),
      points(points_),
      cap(cap_),
      dimension(dimension_) {}

namespace {

/// Qhull on the candidate columns of y (all of them without the prefilter); fills the facet,
/// vertex-index, volume and message fields of hull.
void HullByQhull(const MatrixXd& y, const ConvexHullOptions& options, ConvexHull* hull) {
  std::vector<Index> ids(static_cast<std::size_t>(y.cols()));
  std::iota(ids.begin(), ids.end(), 0);
  if (options.prefilter) ids = internal::HullCandidates(y);
  const Index count = static_cast<Index>(ids.size());
  if (options.max_qhull_points > 0 && count > options.max_qhull_points) {
    throw HullTooLarge(count, options.max_qhull_points, y.rows());
  }
  MatrixXd candidates(y.rows(), count);
  for (Index k = 0; k < count; ++k) candidates.col(k) = y.col(ids[static_cast<std::size_t>(k)]);
  internal::QhullOutput q = internal::RunQhull(candidates);
  hull->qhull_points = count;
  hull->qhull_command = q.command;
  hull->qhull_messages = std::move(q.messages);
  hull->volume = q.volume;
  hull->distance_roundoff = q.distance_roundoff;
  hull->facet_normals = std::move(q.facet_normals);
  hull->facet_offsets = std::move(q.facet_offsets);
  hull->vertex_indices.clear();
  for (Index v : q.vertex_ids) hull->vertex_indices.push_back(ids[static_cast<std::size_t>(v)]);
  std::sort(hull->vertex_indices.begin(), hull->vertex_indices.end());
}

}  // namespace

ConvexHull ComputeConvexHull(const PointsRef& points, const ConvexHullOptions& options) {
  options.Validate();
  ConvexHull hull;
  hull.affine = ComputeAffineHull(points, options.affine);  // validates points
  const Index r = hull.affine.dimension;
  const MatrixXd y = hull.affine.Project(points);
  if (r == 0) {
    hull.vertex_indices = {0};
    hull.facet_normals.resize(0, 0);
    hull.facet_offsets.resize(0);
    hull.volume = 0;
  } else if (r == 1) {
    Index i_min = 0, i_max = 0;
    const double lo = y.row(0).minCoeff(&i_min);
    const double hi = y.row(0).maxCoeff(&i_max);
    IMPACTSET_ASSERT(i_min != i_max);
    hull.vertex_indices = {std::min(i_min, i_max), std::max(i_min, i_max)};
    hull.facet_normals.resize(1, 2);
    hull.facet_normals << -1.0, 1.0;
    hull.facet_offsets.resize(2);
    hull.facet_offsets << lo, -hi;
    hull.volume = hi - lo;
  } else {
    if (points.cols() > std::numeric_limits<int>::max()) {
      InvalidArgument("points.cols()", points.cols(), "Qhull takes at most 2^31 - 1 points");
    }
    HullByQhull(y, options, &hull);
  }
  const Index m = static_cast<Index>(hull.vertex_indices.size());
  hull.vertices.resize(points.rows(), m);
  hull.vertex_coordinates.resize(r, m);
  for (Index k = 0; k < m; ++k) {
    hull.vertices.col(k) = points.col(hull.vertex_indices[static_cast<std::size_t>(k)]);
    hull.vertex_coordinates.col(k) = y.col(hull.vertex_indices[static_cast<std::size_t>(k)]);
  }
  return hull;
}

double ConvexHull::MaxFacetValue(const PointRef& y) const {
  if (y.size() != dimension()) {
    InvalidArgument("y.size()", y.size(),
                    "must equal the hull's dimension " + std::to_string(dimension()));
  }
  if (facet_offsets.size() == 0) return -std::numeric_limits<double>::infinity();
  return (facet_normals.transpose() * y + facet_offsets).maxCoeff();
}

bool ConvexHull::Contains(const PointRef& x, double tolerance) const {
  if (!(tolerance >= 0) || !std::isfinite(tolerance)) {
    InvalidArgument("tolerance", tolerance, "must be >= 0 and finite");
  }
  if (x.size() != ambient_dimension()) {
    InvalidArgument(
        "x.size()", x.size(),
        "must equal the hull's ambient dimension " + std::to_string(ambient_dimension()));
  }
  internal::RequireFinite(x, "x");
  const VectorXd centred = x - affine.origin;
  const VectorXd y = affine.basis.transpose() * centred;
  if ((centred - affine.basis * y).norm() > tolerance) return false;
  return MaxFacetValue(y) <= tolerance;
}

std::vector<bool> ConvexHull::ContainsAll(const PointsRef& points, double tolerance) const {
  if (points.rows() != ambient_dimension()) {
    InvalidArgument(
        "points", Shape(points.rows(), points.cols()),
        "must have the hull's ambient dimension " + std::to_string(ambient_dimension()) + " rows");
  }
  std::vector<bool> out(static_cast<std::size_t>(points.cols()));
  for (Index j = 0; j < points.cols(); ++j) {
    out[static_cast<std::size_t>(j)] = Contains(points.col(j), tolerance);
  }
  return out;
}

}  // namespace impactset::setapprox
