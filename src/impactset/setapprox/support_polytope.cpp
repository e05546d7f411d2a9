#include <impactset/setapprox/support_polytope.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include <impactset/common/internal/simd.hpp>
#include <impactset/setapprox/internal/check.hpp>

namespace impactset::setapprox {

using internal::InvalidArgument;
using internal::Shape;

namespace {

/// u . x summed in coordinate order: the one code path for every value (no SIMD reordering).
double Dot(const double* u, const double* x, Index d) {
  double s = 0;
  for (Index i = 0; i < d; ++i) s += u[i] * x[i];
  return s;
}

// Four doubles as one value (common/internal/simd.hpp): element-wise + and * round exactly as
// scalar code does, on SSE2 (two halves) or AVX2 alike.
using simd::Double4;
using simd::Load4;
using simd::Long4;
using simd::Store4;

// *m = max(*m, a) element-wise, for finite values, by mask (GCC and Clang alike).
IMPACTSET_ALWAYS_INLINE void RaiseTo(Double4* m, const Double4& a) {
  const Long4 take_a = a > *m;
  Long4 ia, im;
  std::memcpy(&ia, &a, sizeof ia);
  std::memcpy(&im, m, sizeof im);
  const Long4 r = (ia & take_a) | (im & ~take_a);
  std::memcpy(m, &r, sizeof r);
}

// Columns c0 ... c0 + 7 of a chunk stored row by row (rows[i n + c]): *a and *b get u . x_c for
// the first and last four, each summed in coordinate order from 0 as Dot sums.
IMPACTSET_ALWAYS_INLINE void EightValues(
    const double* rows, Index n, Index c0, const double* u, Index d, Double4* a, Double4* b) {
  *a = Double4{0, 0, 0, 0};
  *b = *a;
  for (Index i = 0; i < d; ++i) {
    const double* r = rows + i * n + c0;
    const Double4 ui = {u[i], u[i], u[i], u[i]};
    *a += ui * Load4(r);
    *b += ui * Load4(r + 4);
  }
}

// u . x_c for a column past the last full group of eight, summed as Dot sums.
double TailValue(const double* rows, Index n, Index c, const double* u, Index d) {
  double acc = 0;
  for (Index i = 0; i < d; ++i) acc += u[i] * rows[i * n + c];
  return acc;
}

// v[c] = u . x_c for the n columns of a chunk stored row by row: the same values as Dot, eight
// columns at a time in registers.
IMPACTSET_SIMD_CLONES void ChunkValues(
    const double* rows, Index n, const double* u, Index d, double* v) {
  Index c0 = 0;
  for (; c0 + 8 <= n; c0 += 8) {
    Double4 a, b;
    EightValues(rows, n, c0, u, d, &a, &b);
    Store4(v + c0, a);
    Store4(v + c0 + 4, b);
  }
  for (; c0 < n; ++c0) v[c0] = TailValue(rows, n, c0, u, d);
}

// Directions taken together by ChunkMaxima: their sums are independent, so the processor
// overlaps them (one direction at a time waits on each add's latency).
constexpr Index kDirectionGroup = 4;

// tops[q] = max_c u_q . x_c over the chunk for the kDirectionGroup directions u[q], without
// storing the values: most chunks of a long run beat no h_j, and this answers that with the sums
// and running maxima in registers. Each value is summed as Dot sums it, and a max is exact, so
// the order of the comparisons does not matter.
IMPACTSET_SIMD_CLONES void ChunkMaxima(
    const double* rows, Index n, const double* const* u, Index d, double* tops) {
  constexpr double kLow = -std::numeric_limits<double>::infinity();
  Double4 ma[kDirectionGroup], mb[kDirectionGroup];
  for (Index q = 0; q < kDirectionGroup; ++q) ma[q] = mb[q] = Double4{kLow, kLow, kLow, kLow};
  Index c0 = 0;
  for (; c0 + 8 <= n; c0 += 8) {
    Double4 a[kDirectionGroup] = {}, b[kDirectionGroup] = {};
    for (Index i = 0; i < d; ++i) {
      const Double4 ra = Load4(rows + i * n + c0), rb = Load4(rows + i * n + c0 + 4);
      for (Index q = 0; q < kDirectionGroup; ++q) {
        const Double4 ui = {u[q][i], u[q][i], u[q][i], u[q][i]};
        a[q] += ui * ra;
        b[q] += ui * rb;
      }
    }
    for (Index q = 0; q < kDirectionGroup; ++q) {
      RaiseTo(&ma[q], a[q]);
      RaiseTo(&mb[q], b[q]);
    }
  }
  for (Index q = 0; q < kDirectionGroup; ++q) {
    double top = kLow;
    for (int k = 0; k < 4; ++k) top = std::max({top, ma[q][k], mb[q][k]});
    for (Index c = c0; c < n; ++c) top = std::max(top, TailValue(rows, n, c, u[q], d));
    tops[q] = top;
  }
}

// tops[q] = the chunk's largest value along directions j + q, q < kDirectionGroup; a group that
// runs past the last direction repeats it (its extra tops are not read).
void ChunkMaximaFrom(
    const MatrixXd& directions, Index j, const double* rows, Index n, double* tops) {
  const double* u[kDirectionGroup];
  for (Index q = 0; q < kDirectionGroup; ++q) {
    u[q] = directions.col(std::min(j + q, directions.cols() - 1)).data();
  }
  ChunkMaxima(rows, n, u, directions.rows(), tops);
}

}  // namespace

SupportPolytope::SupportPolytope(MatrixXd directions) : directions_(std::move(directions)) {
  if (directions_.rows() < 1 || directions_.cols() < 1) {
    InvalidArgument("directions", Shape(directions_.rows(), directions_.cols()),
                    "must have at least one row and one column");
  }
  internal::RequireFinite(directions_, "directions");
  for (Index j = 0; j < directions_.cols(); ++j) {
    if (std::abs(directions_.col(j).norm() - 1) > 1e-12) {
      InvalidArgument("directions column " + std::to_string(j) + " norm", directions_.col(j).norm(),
                      "must be 1 (unit directions)");
    }
  }
  values_ = VectorXd::Constant(directions_.cols(), -std::numeric_limits<double>::infinity());
  attaining_.assign(static_cast<std::size_t>(directions_.cols()), -1);
  points_ = MatrixXd::Constant(directions_.rows(), directions_.cols(),
                               std::numeric_limits<double>::quiet_NaN());
}

SupportPolytope::SupportPolytope(MatrixXd directions,
                                 VectorXd values,
                                 std::vector<std::int64_t> attaining_samples,
                                 MatrixXd attaining_points,
                                 std::int64_t count)
    : SupportPolytope(std::move(directions)) {
  const Index j = directions_.cols();
  if (values.size() != j || static_cast<Index>(attaining_samples.size()) != j ||
      attaining_points.rows() != directions_.rows() || attaining_points.cols() != j) {
    InvalidArgument("support arrays", Shape(attaining_points.rows(), attaining_points.cols()),
                    "values, attaining samples and points must have one entry per direction (" +
                        std::to_string(j) + ")");
  }
  if (count < 0) InvalidArgument("count", count, "must be >= 0");
  values_ = std::move(values);
  attaining_ = std::move(attaining_samples);
  points_ = std::move(attaining_points);
  count_ = count;
}

void SupportPolytope::Add(const PointRef& x, std::int64_t index) {
  const Index d = directions_.rows();
  if (x.size() != d) {
    InvalidArgument("x.size()", x.size(),
                    "must equal the directions' dimension " + std::to_string(d));
  }
  if (index < 0) InvalidArgument("index", index, "must be >= 0");
  internal::RequireFinite(x, "x");
  ++count_;
  for (Index j = 0; j < directions_.cols(); ++j) {
    const double v = Dot(directions_.col(j).data(), x.data(), d);
    const auto a = static_cast<std::size_t>(j);
    if (Beats(j, v, index)) {
      values_(j) = v;
      attaining_[a] = index;
      points_.col(j) = x;
    }
  }
}

void SupportPolytope::AddBatch(const PointsRef& points, std::span<const std::int64_t> indices) {
  const Index d = directions_.rows(), k = points.cols();
  internal::RequireRows(points, d, "the directions'");
  if (static_cast<Index>(indices.size()) != k) {
    InvalidArgument("indices.size()", indices.size(),
                    "must equal the number of columns " + std::to_string(k));
  }
  if (!points.allFinite()) {  // one vectorised pass; a skipped column may hold anything
    for (Index c = 0; c < k; ++c) {
      if (indices[static_cast<std::size_t>(c)] >= 0)
        internal::RequireFinite(points.col(c), "points");
    }
  }
  // The offered columns, packed: skipped ones cost nothing.
  std::vector<Index> cols;
  cols.reserve(static_cast<std::size_t>(k));
  for (Index c = 0; c < k; ++c) {
    if (indices[static_cast<std::size_t>(c)] >= 0) cols.push_back(c);
  }
  constexpr Index kChunk = 256;
  std::vector<double> rows(static_cast<std::size_t>(kChunk * d));  // chunk, row by row
  std::vector<double> v(static_cast<std::size_t>(kChunk));
  std::vector<std::int64_t> chunk_index(v.size());
  double tops[kDirectionGroup];
  for (std::size_t c0 = 0; c0 < cols.size(); c0 += kChunk) {
    const auto n = static_cast<Index>(std::min<std::size_t>(kChunk, cols.size() - c0));
    for (Index c = 0; c < n; ++c) {
      const Index col = cols[c0 + static_cast<std::size_t>(c)];
      chunk_index[static_cast<std::size_t>(c)] = indices[static_cast<std::size_t>(col)];
      for (Index i = 0; i < d; ++i) rows[static_cast<std::size_t>(i * n + c)] = points(i, col);
    }
    for (Index j = 0; j < directions_.cols(); ++j) {
      if (j % kDirectionGroup == 0) ChunkMaximaFrom(directions_, j, rows.data(), n, tops);
      // No column beats or ties h_j: Add would change nothing.
      if (tops[j % kDirectionGroup] < values_(j)) continue;
      ChunkValues(rows.data(), n, directions_.col(j).data(), d, v.data());
      const Index won =
          AddValues(j, std::span<const double>(v.data(), static_cast<std::size_t>(n)),
                    std::span<const std::int64_t>(chunk_index.data(), static_cast<std::size_t>(n)));
      if (won >= 0) points_.col(j) = points.col(cols[c0 + static_cast<std::size_t>(won)]);
    }
  }
  count_ += static_cast<std::int64_t>(cols.size());
}

// Add's rule for direction j over the chunk's values in column order. @return the column that
// won last (whose point Add would have copied last), or -1.
Index SupportPolytope::AddValues(Index j,
                                 std::span<const double> v,
                                 std::span<const std::int64_t> indices) {
  const auto a = static_cast<std::size_t>(j);
  Index won = -1;
  for (std::size_t c = 0; c < v.size(); ++c) {
    if (Beats(j, v[c], indices[c])) {
      values_(j) = v[c];
      attaining_[a] = indices[c];
      won = static_cast<Index>(c);
    }
  }
  return won;
}

void SupportPolytope::CountSkipped(std::int64_t n) {
  if (n < 0) InvalidArgument("n", n, "must be >= 0");
  count_ += n;
}

void SupportPolytope::MarkDeepInside(const PointsRef& points,
                                     double radius,
                                     std::vector<std::uint8_t>* deep) const {
  const Index d = directions_.rows();
  internal::RequireRows(points, d, "the directions'");
  if (!(radius >= 0) || !std::isfinite(radius)) {
    InvalidArgument("radius", radius, "must be >= 0 and finite");
  }
  deep->resize(static_cast<std::size_t>(points.cols()), 0);
  for (Index k = 0; k < points.cols(); ++k) {
    auto& flag = (*deep)[static_cast<std::size_t>(k)];
    if (flag != 0) continue;  // h only grows: still deep
    const double* x = points.col(k).data();
    const double scale = radius + points.col(k).lpNorm<1>();
    bool inside = true;
    for (Index j = 0; j < directions_.cols() && inside; ++j) {
      const double h = values_(j);  // -inf (nothing added) fails the test
      inside = h - Dot(directions_.col(j).data(), x, d) >
               radius + kDeepInsideMargin * (scale + std::abs(h));
    }
    flag = inside ? 1 : 0;
  }
}

bool SupportPolytope::Merge(const SupportPolytope& other) {
  if (other.directions_.rows() != directions_.rows() ||
      other.directions_.cols() != directions_.cols() || other.directions_ != directions_) {
    InvalidArgument("other directions", Shape(other.directions_.rows(), other.directions_.cols()),
                    "must equal this polytope's directions bit for bit");
  }
  count_ += other.count_;
  bool grew = false;
  for (Index j = 0; j < directions_.cols(); ++j) {
    const auto a = static_cast<std::size_t>(j);
    if (other.attaining_[a] < 0) continue;
    if (attaining_[a] < 0 || other.values_(j) > values_(j) ||
        (other.values_(j) == values_(j) && other.attaining_[a] < attaining_[a])) {
      grew = grew || other.values_(j) > values_(j);
      values_(j) = other.values_(j);
      attaining_[a] = other.attaining_[a];
      points_.col(j) = other.points_.col(j);
    }
  }
  return grew;
}

VectorXd SupportPolytope::OuterViolations(const PointsRef& points) const {
  const Index d = directions_.rows();
  internal::RequireRows(points, d, "the directions'");
  VectorXd out(points.cols());
  for (Index k = 0; k < points.cols(); ++k) {
    double worst = -std::numeric_limits<double>::infinity();
    for (Index j = 0; j < directions_.cols(); ++j) {
      worst = std::max(worst, Dot(directions_.col(j).data(), points.col(k).data(), d) - values_(j));
    }
    out(k) = worst;
  }
  return out;
}

}  // namespace impactset::setapprox
