#include "setapprox/support_polytope.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "setapprox/internal/check.hpp"

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
  if (points.rows() != d) {
    InvalidArgument("points", Shape(points.rows(), points.cols()),
                    "must have the directions' dimension " + std::to_string(d) + " rows");
  }
  if (static_cast<Index>(indices.size()) != k) {
    InvalidArgument("indices.size()", indices.size(),
                    "must equal the number of columns " + std::to_string(k));
  }
  for (Index c = 0; c < k; ++c) {
    if (indices[static_cast<std::size_t>(c)] >= 0) internal::RequireFinite(points.col(c), "points");
  }
  constexpr Index kChunk = 256;
  constexpr double kMinusInf = -std::numeric_limits<double>::infinity();
  std::vector<double> rows(static_cast<std::size_t>(kChunk * d));  // chunk, row by row
  std::vector<double> start(static_cast<std::size_t>(kChunk)), v(start.size());
  for (Index c0 = 0; c0 < k; c0 += kChunk) {
    const Index n = std::min(kChunk, k - c0);
    // A skipped column sums zeros onto -inf: its value stays -inf and can never win.
    for (Index c = 0; c < n; ++c) {
      const bool offered = indices[static_cast<std::size_t>(c0 + c)] >= 0;
      start[static_cast<std::size_t>(c)] = offered ? 0.0 : kMinusInf;
      for (Index i = 0; i < d; ++i) {
        rows[static_cast<std::size_t>(i * n + c)] = offered ? points(i, c0 + c) : 0.0;
      }
    }
    for (Index j = 0; j < directions_.cols(); ++j) {
      // v[c] = u_j . x_c, summed in coordinate order from 0 as Dot does: the same value for each
      // c, computed for all c together (the loops vectorise across columns).
      std::copy(start.begin(), start.begin() + n, v.begin());
      for (Index i = 0; i < d; ++i) {
        const double u = directions_(i, j);
        const double* row = rows.data() + i * n;
        for (Index c = 0; c < n; ++c) v[static_cast<std::size_t>(c)] += u * row[c];
      }
      double top = kMinusInf;
      for (Index c = 0; c < n; ++c)
        top = v[static_cast<std::size_t>(c)] > top ? v[static_cast<std::size_t>(c)] : top;
      if (top < values_(j)) continue;  // no column beats or ties h_j: Add would change nothing
      AddValues(j, std::span<const double>(v.data(), static_cast<std::size_t>(n)),
                indices.subspan(static_cast<std::size_t>(c0), static_cast<std::size_t>(n)), points,
                c0);
    }
  }
  for (std::int64_t i : indices) count_ += i >= 0 ? 1 : 0;
}

// Add's rule for direction j over the chunk's values in column order; the attaining point is
// copied once, from the column that won last (the one Add would have copied last).
void SupportPolytope::AddValues(Index j,
                                std::span<const double> v,
                                std::span<const std::int64_t> indices,
                                const PointsRef& points,
                                Index first_column) {
  const auto a = static_cast<std::size_t>(j);
  Index won = -1;
  for (std::size_t c = 0; c < v.size(); ++c) {
    const std::int64_t index = indices[c];
    if (index < 0) continue;
    if (Beats(j, v[c], index)) {
      values_(j) = v[c];
      attaining_[a] = index;
      won = static_cast<Index>(c);
    }
  }
  if (won >= 0) points_.col(j) = points.col(first_column + won);
}

void SupportPolytope::Merge(const SupportPolytope& other) {
  if (other.directions_.rows() != directions_.rows() ||
      other.directions_.cols() != directions_.cols() || other.directions_ != directions_) {
    InvalidArgument("other directions", Shape(other.directions_.rows(), other.directions_.cols()),
                    "must equal this polytope's directions bit for bit");
  }
  count_ += other.count_;
  for (Index j = 0; j < directions_.cols(); ++j) {
    const auto a = static_cast<std::size_t>(j);
    if (other.attaining_[a] < 0) continue;
    if (attaining_[a] < 0 || other.values_(j) > values_(j) ||
        (other.values_(j) == values_(j) && other.attaining_[a] < attaining_[a])) {
      values_(j) = other.values_(j);
      attaining_[a] = other.attaining_[a];
      points_.col(j) = other.points_.col(j);
    }
  }
}

VectorXd SupportPolytope::OuterViolations(const PointsRef& points) const {
  const Index d = directions_.rows();
  if (points.rows() != d) {
    InvalidArgument("points", Shape(points.rows(), points.cols()),
                    "must have the directions' dimension " + std::to_string(d) + " rows");
  }
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
