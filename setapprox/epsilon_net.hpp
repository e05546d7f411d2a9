#pragma once
// Incremental greedy ε-net (Halm & Posa, Definition 1; docs/model.md §7.2): a subset N of the
// points offered so far such that every offered point lies within ε of N.
#include <cstdint>
#include <memory>
#include <vector>

#include "setapprox/types.hpp"

namespace impactset::setapprox {

/// The norm in which "within ε" is measured.
enum class NetNorm {
  kEuclidean  ///< ||x - y||_2
};

/// Options of EpsilonNet. Validated once, by the constructor.
struct EpsilonNetOptions {
  /// Covering radius ε, in the units of the point coordinates. Every point offered ends within ε
  /// of the net, and net points are pairwise more than ε apart. A smaller ε gives a larger net:
  /// about (extent / ε)^r points for a set of dimension r. > 0 and finite.
  double epsilon = 1e-2;
  /// Only the Euclidean norm is implemented.
  NetNorm norm = NetNorm::kEuclidean;

  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

/// Nearest net point of a query (index into the net, in insertion order).
struct NetNeighbor {
  Index index = -1;     ///< -1 when the net is empty
  double distance = 0;  ///< Euclidean distance; +inf when the net is empty
};

/// Greedy ε-net built incrementally. Insert(x) keeps x as a net point iff no net point lies within
/// ε of it, i.e. iff min_{n in N} ||x - n||^2 > ε^2 (squared distances computed in double as a sum
/// of squared coordinate differences; ε^2 rounded once; the net point that decided the previous
/// offer is tried first, so a point within rounding of ε may be decided by that point's sum).
/// Hence, exactly as computed:
///   * every point ever offered lies within ε of the net (the net only grows);
///   * net points are pairwise more than ε apart;
///   * the net is a subset of the offered points, and depends only on their order
///     (deterministic: the same sequence gives the same net).
///
/// Memory: only the net points are stored (dimension x size() doubles plus the index), never the
/// offered points.
///
/// Spatial index: nanoflann's dynamic k-d tree (KDTreeSingleIndexDynamicAdaptor), which keeps
/// ~log2(size) static k-d trees of sizes 2^k and rebuilds the small ones on insertion (the
/// logarithmic method). A covered point is found by a radius search that stops at the first net
/// point within ε. Per offered point: expected O(log^2 |N|) for the query and amortized
/// O(log^2 |N|) for an insertion, so K offers cost O(K log^2 |N|) <= O(K log^2 K). A grid hash with
/// cell ε would need 3^d cells per query and was rejected for d up to 6-12.
///
/// Not thread-safe for concurrent Insert; const queries may run concurrently.
class EpsilonNet {
 public:
  /// @param[in] dimension  d, the length of every point. >= 1.
  /// @throws std::invalid_argument on a bad dimension or options.
  EpsilonNet(Index dimension, const EpsilonNetOptions& options);
  ~EpsilonNet();
  EpsilonNet(EpsilonNet&&) noexcept;
  EpsilonNet& operator=(EpsilonNet&&) noexcept;
  EpsilonNet(const EpsilonNet&) = delete;
  EpsilonNet& operator=(const EpsilonNet&) = delete;

  /// Offers one point. @return true iff it joined the net (it was farther than ε from the net).
  /// @throws std::invalid_argument if point.size() != dimension() or a coordinate is not finite.
  bool Insert(const PointRef& point);

  /// Offers the columns of points (d x k) in column order; identical to k calls of Insert.
  /// @return the number of columns that joined the net.
  /// @throws std::invalid_argument on a wrong row count or a non-finite coordinate (checked for
  ///         the whole batch before any point is offered, so a bad batch leaves the net unchanged).
  Index InsertBatch(const PointsRef& points);

  /// Euclidean distance from point to the nearest net point; +inf for an empty net.
  double DistanceToNet(const PointRef& point) const;
  /// DistanceToNet for each column of points (d x k).
  VectorXd DistancesToNet(const PointsRef& points) const;
  /// Nearest net point and its distance.
  NetNeighbor Nearest(const PointRef& point) const;
  /// Whether some net point lies within ε of point (the test Insert uses).
  bool IsCovered(const PointRef& point) const;

  Index dimension() const;
  double epsilon() const;
  /// Number of net points |N|.
  Index size() const;
  /// Number of points offered so far (Insert calls plus batch columns).
  std::int64_t offered() const;
  /// The net points, d x size(), in insertion order (a copy).
  MatrixXd points() const;
  /// For each net point, its position in the sequence of offered points (0-based).
  const std::vector<std::int64_t>& source_indices() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Convenience: the greedy ε-net of the columns of points, offered in column order.
EpsilonNet BuildEpsilonNet(const PointsRef& points, const EpsilonNetOptions& options);

}  // namespace impactset::setapprox
