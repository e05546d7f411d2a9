#include <impactset/setapprox/distances.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <impactset/setapprox/internal/check.hpp>
#include <impactset/setapprox/internal/kd_tree.hpp>

namespace impactset::setapprox {

using internal::InvalidArgument;
using internal::Shape;

namespace {

void CheckPair(const PointsRef& a, const char* a_name, const PointsRef& b, const char* b_name) {
  if (a.rows() < 1 || a.cols() < 1) {
    InvalidArgument(a_name, Shape(a.rows(), a.cols()),
                    "must hold at least one point of R^d, d >= 1");
  }
  if (b.rows() < 1 || b.cols() < 1) {
    InvalidArgument(b_name, Shape(b.rows(), b.cols()),
                    "must hold at least one point of R^d, d >= 1");
  }
  if (a.rows() != b.rows()) {
    InvalidArgument(
        b_name, Shape(b.rows(), b.cols()),
        std::string("must have as many rows as ") + a_name + " (" + std::to_string(a.rows()) + ")");
  }
  if (b.cols() > std::numeric_limits<std::uint32_t>::max() - 1) {
    InvalidArgument(std::string(b_name) + ".cols()", b.cols(), "the k-d tree takes < 2^32 points");
  }
  internal::RequireFinite(a, a_name);
  internal::RequireFinite(b, b_name);
}

/// Nearest column of set for every column of queries: squared distances and indices.
void Nearest(const PointsRef& queries,
             const PointsRef& set,
             VectorXd* dist_sq,
             std::vector<std::uint32_t>* index) {
  const internal::ColumnCloud cloud(set);
  const internal::StaticTree tree(static_cast<int>(set.rows()), cloud,
                                  nanoflann::KDTreeSingleIndexAdaptorParams(internal::kLeafSize));
  dist_sq->resize(queries.cols());
  index->resize(static_cast<std::size_t>(queries.cols()));
  VectorXd q(queries.rows());
  for (Index j = 0; j < queries.cols(); ++j) {
    q = queries.col(j);
    std::uint32_t i = 0;
    double d2 = std::numeric_limits<double>::infinity();
    nanoflann::KNNResultSet<double, std::uint32_t> result(1);
    result.init(&i, &d2);
    tree.findNeighbors(result, q.data(), nanoflann::SearchParams());
    IMPACTSET_ASSERT(result.size() == 1);
    (*dist_sq)(j) = d2;
    (*index)[static_cast<std::size_t>(j)] = i;
  }
}

}  // namespace

VectorXd NearestDistances(const PointsRef& queries, const PointsRef& set) {
  CheckPair(queries, "queries", set, "set");
  VectorXd d2;
  std::vector<std::uint32_t> index;
  Nearest(queries, set, &d2, &index);
  return d2.cwiseSqrt();
}

DirectedDistance OneSidedDistance(const PointsRef& a, const PointsRef& b) {
  CheckPair(a, "a", b, "b");
  VectorXd d2;
  std::vector<std::uint32_t> index;
  Nearest(a, b, &d2, &index);
  DirectedDistance out;
  const double max_d2 = d2.maxCoeff(&out.from_index);
  out.distance = std::sqrt(max_d2);
  out.to_index = static_cast<Index>(index[static_cast<std::size_t>(out.from_index)]);
  return out;
}

HausdorffDistanceResult HausdorffDistance(const PointsRef& a, const PointsRef& b) {
  HausdorffDistanceResult out;
  out.a_to_b = OneSidedDistance(a, b);
  out.b_to_a = OneSidedDistance(b, a);
  out.distance = std::max(out.a_to_b.distance, out.b_to_a.distance);
  return out;
}

void HullDistanceOptions::Validate() const { projection.Validate(); }

HullDistanceResult DistanceToHull(const ConvexHull& hull,
                                  const PointsRef& points,
                                  const HullDistanceOptions& options) {
  options.Validate();
  const Index d = hull.ambient_dimension();
  if (points.rows() != d) {
    InvalidArgument("points", Shape(points.rows(), points.cols()),
                    "must have the hull's ambient dimension " + std::to_string(d) + " rows");
  }
  internal::RequireFinite(points, "points");
  const AffineHull& affine = hull.affine;
  const Index k = points.cols();

  HullDistanceResult out;
  out.distance.resize(k);
  out.lower_bound.resize(k);
  out.off_subspace = affine.Residuals(points);
  out.nearest.resize(d, k);
  out.status.resize(static_cast<std::size_t>(k));
  const MatrixXd y = affine.Project(points);
  for (Index j = 0; j < k; ++j) {
    const double rho = out.off_subspace(j);
    const double facet_value = hull.MaxFacetValue(y.col(j));
    HullDistanceStatus& status = out.status[static_cast<std::size_t>(j)];
    if (facet_value <= 0) {  // also r = 0: no facets, H = {c}
      status = HullDistanceStatus::kInside;
      out.distance(j) = rho;
      out.lower_bound(j) = rho;
      out.nearest.col(j) = affine.origin + affine.basis * y.col(j);
      continue;
    }
    const MinNormPointResult p =
        MinNormPoint(hull.vertex_coordinates, y.col(j), options.projection);
    status = p.status == MinNormPointStatus::kConverged ? HullDistanceStatus::kProjected
                                                        : HullDistanceStatus::kNotConverged;
    const double lower = std::max(facet_value, p.lower_bound);
    out.distance(j) = std::hypot(rho, p.distance);
    out.lower_bound(j) = std::hypot(rho, std::min(lower, p.distance));
    out.nearest.col(j) = affine.origin + affine.basis * p.point;
  }
  return out;
}

}  // namespace impactset::setapprox
