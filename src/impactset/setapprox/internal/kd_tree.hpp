#pragma once
// nanoflann adaptors over setapprox's column-major point storage. Included only by
// setapprox/*.cpp: nanoflann stays out of the public headers.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <nanoflann.hpp>

#include <impactset/setapprox/types.hpp>

namespace impactset::setapprox::internal {

/// A fixed d x N point set viewed in place: point j starts at data + j * stride.
struct ColumnCloud {
  const double* data = nullptr;
  std::size_t dim = 0;
  std::size_t count = 0;
  std::size_t stride = 0;  ///< distance between consecutive columns (Ref's outer stride)

  explicit ColumnCloud(const PointsRef& points)
      : data(points.data()),
        dim(static_cast<std::size_t>(points.rows())),
        count(static_cast<std::size_t>(points.cols())),
        stride(static_cast<std::size_t>(points.outerStride())) {}
  std::size_t kdtree_get_point_count() const { return count; }
  double kdtree_get_pt(std::size_t idx, std::size_t k) const { return data[idx * stride + k]; }
  template <class BoundingBox>
  bool kdtree_get_bbox(BoundingBox& /*bb*/) const {
    return false;
  }
};

/// The points of a growing set (the ε-net: dim coordinates per point, appended at the back) from
/// point `first` on; index i of the tree is point first + i.
struct GrowingCloud {
  const std::vector<double>* coords = nullptr;
  std::size_t dim = 0;
  std::size_t first = 0;

  std::size_t kdtree_get_point_count() const { return coords->size() / dim - first; }
  double kdtree_get_pt(std::size_t idx, std::size_t k) const {
    return (*coords)[(first + idx) * dim + k];
  }
  template <class BoundingBox>
  bool kdtree_get_bbox(BoundingBox& /*bb*/) const {
    return false;
  }
};

using StaticTree =
    nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Adaptor<double, ColumnCloud, double>,
                                        ColumnCloud,
                                        -1,
                                        std::uint32_t>;
using DynamicTree =
    nanoflann::KDTreeSingleIndexDynamicAdaptor<nanoflann::L2_Adaptor<double, GrowingCloud, double>,
                                               GrowingCloud,
                                               -1,
                                               std::uint32_t>;

/// Leaf size of every tree: nanoflann's default, fast for d <= 8 in our measurements.
inline constexpr std::size_t kLeafSize = 10;

/// |a - b|^2 summed in coordinate order: the one distance every "within ε" decision uses, so a
/// decision depends only on the two points, never on which search path or tree made it.
inline double SquaredDistance(const double* a, const double* b, Index d) {
  double s = 0;
  for (Index i = 0; i < d; ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return s;
}

/// nanoflann sums squared differences in groups of four and prunes with incrementally updated
/// box distances, so its value for a pair may differ from SquaredDistance by a few ulps. Searches
/// run with the radius widened by this relative margin and every candidate is decided by
/// SquaredDistance: no point within r2 (as SquaredDistance computes it) can be pruned.
inline constexpr double kSearchMargin = 1e-10;

/// The radius the tree searches for AnyWithinResult(r2): r2 widened by kSearchMargin.
inline double SearchThreshold(double r2) {
  return std::nextafter(r2 * (1 + kSearchMargin), std::numeric_limits<double>::infinity());
}

/// Result set for "is any point within squared radius r2 of x?", decided by SquaredDistance on
/// the points of `coords` (dim doubles each): stops descending as soon as one is found
/// (worstDist() turns negative, which prunes every remaining branch and leaf entry).
class AnyWithinResult {
 public:
  using DistanceType = double;
  using IndexType = std::uint32_t;

  /// @param threshold  SearchThreshold(r2), computed once by the caller.
  AnyWithinResult(double r2, double threshold, const double* x, const double* coords, Index dim)
      : r2_(r2), threshold_(threshold), x_(x), coords_(coords), dim_(dim) {}
  std::size_t size() const { return found_ ? 1 : 0; }
  bool full() const { return found_; }
  bool addPoint(double /*approximate*/, IndexType index) {
    if (SquaredDistance(x_, coords_ + static_cast<std::size_t>(index) * dim_, dim_) <= r2_) {
      found_ = true;
      index_ = index;
    }
    return !found_;
  }
  IndexType index() const { return index_; }  ///< the point found (when found())
  double worstDist() const { return found_ ? -1.0 : threshold_; }
  bool found() const { return found_; }

 private:
  double r2_;
  double threshold_;
  const double* x_;
  const double* coords_;
  Index dim_;
  bool found_ = false;
  IndexType index_ = 0;
};

}  // namespace impactset::setapprox::internal
