#pragma once
// Support-function polytopes of a sampled set: for fixed directions u_1 ... u_J, the largest
// value h_j = max_k u_j . x_k over the samples and the first sample attaining it. O(J d) per
// sample, and exactly mergeable: the result over disjoint sample ranges, merged in any order, is
// bit for bit the result of one pass over all samples (threads, shards, MPI ranks).
#include <cstdint>
#include <span>
#include <vector>

#include <impactset/setapprox/types.hpp>

namespace impactset::setapprox {

/// For points x_k with global sample indices i_k and unit directions U = [u_1 ... u_J] (d x J):
///   h_j = max_k u_j . x_k   (the support function of conv{x_k} at u_j),
///   a_j = min { i_k : u_j . x_k = h_j }   (the first sample attaining it),
/// each dot product summed in coordinate order (one code path, so the same x gives the same
/// value wherever it is added). Two descriptions of the convex hull H = conv{x_k} follow:
///   outer:  H is a subset of P_out = { x : U^T x <= h }   (J halfspaces; the facets),
///   inner:  P_in = conv{ x_{a_j} } is a subset of H      (at most J attaining points),
/// both exact for the samples, and P_in and P_out touch every supporting hyperplane u_j . x = h_j.
/// As J grows (directions dense on the sphere) both tend to H.
class SupportPolytope {
 public:
  /// @param[in] directions  d x J, d >= 1, J >= 1, finite columns of unit norm (to 1e-12).
  /// @throws std::invalid_argument naming the rule broken.
  explicit SupportPolytope(MatrixXd directions);
  /// A polytope as stored (its accessors' values), e.g. read back from a dataset.
  /// @throws std::invalid_argument when the sizes disagree or as the other constructor.
  SupportPolytope(MatrixXd directions,
                  VectorXd values,
                  std::vector<std::int64_t> attaining_samples,
                  MatrixXd attaining_points,
                  std::int64_t count);

  /// Offers x (length d, finite) as sample `index` (>= 0). @throws std::invalid_argument on a
  /// wrong size or a non-finite coordinate.
  void Add(const PointRef& x, std::int64_t index);
  /// Offers the columns of points (d x k) in column order, column c as sample indices[c], and
  /// skips the columns whose index is negative: bit for bit the same as Add on each offered
  /// column in turn (each dot product is still summed in coordinate order; the values of a chunk
  /// of columns are computed together, vectorised across columns). Faster than k calls of Add.
  /// @throws std::invalid_argument on a wrong row count, indices.size() != k, or a non-finite
  ///         coordinate in an offered column (checked before anything is added).
  void AddBatch(const PointsRef& points, std::span<const std::int64_t> indices);
  /// Counts n points that Add would change nothing for but count(): repeats, bit for bit, of
  /// points already offered with a sample index no larger than theirs (they tie at best and never
  /// beat; every trajectory starts at the same v-), or points within `radius` of a point that
  /// MarkDeepInside marked (they lie strictly below every h_j). Lets a caller skip their dot
  /// products. @throws std::invalid_argument if n < 0.
  void CountSkipped(std::int64_t n);
  /// Marks the columns x_k of points (d x k) around which a ball of radius r lies strictly inside
  /// every halfspace: h_j - u_j . x_k > r + kDeepInsideMargin (r + |x_k|_1 + |h_j|) for every j.
  /// A point y with |y - x_k| <= r (as EpsilonNet measures it) then has u_j . y < h_j as Add
  /// computes it, whatever the rounding: it can neither beat nor tie, now or later (h only
  /// grows). So entries of *deep already nonzero stay; *deep is resized to k and the others
  /// are recomputed, O(J d) each. @throws std::invalid_argument on a wrong row count or a
  /// radius that is not >= 0 and finite.
  void MarkDeepInside(const PointsRef& points,
                      double radius,
                      std::vector<std::uint8_t>* deep) const;

  /// Relative margin of MarkDeepInside: far above the rounding of a d-term dot product and of a
  /// squared distance (~d 2^-53 of the magnitudes), far below any covering radius in use.
  static constexpr double kDeepInsideMargin = 1e-9;
  /// Joins other's samples (same directions, bit for bit): h_j = max, ties to the smaller index.
  /// Commutative and associative, so any merge order gives the one-pass result.
  /// @return whether some h_j grew. @throws std::invalid_argument when the directions differ.
  bool Merge(const SupportPolytope& other);

  const MatrixXd& directions() const { return directions_; }
  /// h (J): -inf where nothing was added.
  const VectorXd& values() const { return values_; }
  /// a (J): -1 where nothing was added.
  const std::vector<std::int64_t>& attaining_samples() const { return attaining_; }
  /// d x J: x_{a_j} (NaN columns where nothing was added).
  const MatrixXd& attaining_points() const { return points_; }
  /// Points offered.
  std::int64_t count() const { return count_; }

  /// max over x_j (columns, d x k) of the largest violation max_j (u_j . x - h_j): <= 0 iff every
  /// column lies in P_out. @throws std::invalid_argument on a wrong row count.
  VectorXd OuterViolations(const PointsRef& points) const;

 private:
  /// The one update rule: a value beats h_j when larger, or equal with a smaller sample index.
  bool Beats(Index j, double v, std::int64_t index) const {
    return v > values_(j) || (v == values_(j) && index < attaining_[static_cast<std::size_t>(j)]);
  }
  Index AddValues(Index j, std::span<const double> v, std::span<const std::int64_t> indices);
  MatrixXd directions_;
  VectorXd values_;
  std::vector<std::int64_t> attaining_;
  MatrixXd points_;
  std::int64_t count_ = 0;
};

}  // namespace impactset::setapprox
