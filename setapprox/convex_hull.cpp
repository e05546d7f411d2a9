#include "setapprox/convex_hull.hpp"

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

// Qhull 2020.2's C++ container headers (Qhull.h, QhullFacet.h, ...) do not compile as C++20
// (constructors spelled QhullSet<T>(...), DR 2237), so we drive the reentrant C library through
// orgQhull::QhullQh, which compiles, owns qhT, and routes every Qhull message into a string
// (libqhullcpp's qh_fprintf) instead of stderr; its QH_TRY_ catches qh_errexit's longjmp.
#include <libqhullcpp/QhullError.h>
#include <libqhullcpp/QhullQh.h>

#include "setapprox/internal/check.hpp"

namespace impactset::setapprox {

using internal::InvalidArgument;
using internal::Shape;

void ConvexHullOptions::Validate() const { affine.Validate(); }

namespace {

/// The libqhull_r calls, between setjmp and longjmp: plain C only (a longjmp skips destructors
/// and may clobber non-volatile locals, so nothing else lives in this frame). @return the
/// QH_TRY_ status, 0 on success.
[[gnu::noinline]] int QhullCalls(
    orgQhull::QhullQh* qh, double* coordinates, int n, int r, char* command) {
  using orgQhull::QhullError;  // named unqualified by QH_TRY_
  QH_TRY_(qh) {
    qh_initflags(qh, command);
    qh_init_B(qh, coordinates, n, r, False);
    qh_qhull(qh);
    qh_check_output(qh);
    qh_prepare_output(qh);
    qh_getarea(qh, qh->facet_list);
  }
  qh->NOerrexit = True;
  return QH_TRY_status;
}

/// Runs Qhull on the r x N column-major coordinates y and fills the facet, vertex and volume
/// fields of hull. @throws std::runtime_error with Qhull's message.
void RunQhull(const MatrixXd& y, ConvexHull* hull) {
  const int r = static_cast<int>(y.rows());
  const int n = static_cast<int>(y.cols());
  MatrixXd coordinates;  // Qhull reads the N x r row-major array; keep the caller's intact
  std::unique_ptr<orgQhull::QhullQh> owner;
  orgQhull::QhullQh* qh = nullptr;
  // Default options first: pre-merged facets (C-0 / Qx), no output. Nearly coplanar ridges in
  // dimension >= 4 (outcome sets are full of them) can end in a "dupridge" topology error
  // (QH6271); Qhull's documented remedies are Q12 (allow the wide merge) and, failing that, QJ
  // (joggle the input: no merges at all). Merged facets bound every point within qh
  // max_outside; joggled ones within the joggle, and distance_roundoff includes both.
  char plain[] = "qhull";
  char wide[] = "qhull Q12";
  char joggle[] = "qhull QJ";
  for (char* command : {plain, wide, joggle}) {
    coordinates = y;
    owner = std::make_unique<orgQhull::QhullQh>();
    qh = owner.get();
    const int status = QhullCalls(qh, coordinates.data(), n, r, command);
    try {
      qh->maybeThrowQhullMessage(status);
      break;
    } catch (const orgQhull::QhullError& e) {
      const std::string what = e.what();
      if (command != joggle && what.find("QH6271") != std::string::npos) continue;
      throw std::runtime_error(std::string("Qhull failed on ") + std::to_string(n) +
                               " points in dimension " + std::to_string(r) +
                               " (affine-hull coordinates): " + what);
    }
  }

  hull->volume = qh->totvol;
  hull->distance_roundoff = std::max(qh->DISTround, qh->max_outside);
  if (qh->JOGGLEmax < REALmax / 2) hull->distance_roundoff += 2 * qh->JOGGLEmax * std::sqrt(r);

  std::vector<Index> ids;
  ids.reserve(static_cast<std::size_t>(qh->num_vertices));
  for (vertexT* vertex = qh->vertex_list; vertex && vertex->next; vertex = vertex->next) {
    ids.push_back(static_cast<Index>(qh_pointid(qh, vertex->point)));
  }
  std::sort(ids.begin(), ids.end());
  hull->vertex_indices = ids;

  Index f_count = 0;
  for (facetT* facet = qh->facet_list; facet && facet->next; facet = facet->next) ++f_count;
  hull->facet_normals.resize(r, f_count);
  hull->facet_offsets.resize(f_count);
  Index f = 0;
  for (facetT* facet = qh->facet_list; facet && facet->next; facet = facet->next, ++f) {
    for (int k = 0; k < r; ++k) hull->facet_normals(k, f) = facet->normal[k];
    hull->facet_offsets(f) = facet->offset;
  }
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
    RunQhull(y, &hull);
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
