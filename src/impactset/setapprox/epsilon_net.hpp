#pragma once
// Incremental greedy ε-net (Halm & Posa, Definition 1; docs/model.md §7.2): a subset N of the
// points offered so far such that every offered point lies within ε of N.
#include <cstdint>
#include <memory>
#include <vector>

#include <impactset/setapprox/types.hpp>

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

class NetSnapshot;

/// Greedy ε-net built incrementally. Insert(x) keeps x as a net point iff no net point lies within
/// ε of it, i.e. iff min_{n in N} ||x - n||^2 > ε^2, with every squared distance computed in
/// double as the sum of squared coordinate differences in coordinate order and ε^2 rounded once.
/// The k-d tree only proposes candidates (searched with a slightly wider radius); each is decided
/// by that one sum, so whether x is covered depends only on x and the set of net points, not on
/// the tree, the search order or the net point tried first. Hence, exactly as computed:
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
/// cell ε would need 3^d cells per query and was rejected for d up to 6-12. After Freeze the points
/// so far are searched in the snapshot's single static tree and the dynamic tree holds only the
/// later ones (the ε-nets of a sampling run refreeze as they grow by an eighth).
///
/// Parallel use: Snapshot() freezes the current points; other threads test points against the
/// snapshot while the net keeps growing, and InsertCoveredBy then skips the search for the points
/// it covered. Since the net only grows and "covered" is decided by the same sum, the net is bit
/// for bit the one of a serial pass, whenever the snapshot was taken.
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

  /// Offers a point that `snapshot` found covered (NetSnapshot::IsCovered). When the snapshot was
  /// taken of this net, the point is within ε of a net point, Insert would not keep it, and it is
  /// only counted as offered (no search); otherwise this is Insert(point).
  /// @return true iff it joined the net. @throws std::invalid_argument as Insert.
  bool InsertCoveredBy(const PointRef& point, const NetSnapshot& snapshot);
  /// Offers a point that `snapshot` found not covered (NetSnapshot::IsCovered false). When the
  /// snapshot was taken of this net, none of its points is within ε, so only the net points added
  /// since are searched; otherwise this is Insert(point). Either way the same answer as Insert.
  /// @return true iff it joined the net. @throws std::invalid_argument as Insert.
  bool InsertNotCoveredBy(const PointRef& point, const NetSnapshot& snapshot);
  /// Counts n offers of points that `snapshot` found covered, without looking at them (the caller
  /// has checked them): what n calls of InsertCoveredBy do when the snapshot was taken of this
  /// net. @return false, counting nothing, when it was not (the points must then be offered).
  bool CountCoveredBy(const NetSnapshot& snapshot, std::int64_t n);

  /// A frozen copy of the net's current points with its own k-d tree (O(|N| log |N|) to build).
  std::shared_ptr<const NetSnapshot> Snapshot() const;
  /// Snapshot(), which the net also keeps as the index of these points: its own index then holds
  /// only the points that join later, so the searches of InsertNotCoveredBy with this snapshot
  /// look at those alone, and other searches at one static tree plus them. Answers and the net
  /// are unchanged; only the cost of searches moves (call it as the net grows geometrically, as
  /// taking a snapshot costs O(|N| log |N|)). Not concurrent with any other use of this net.
  std::shared_ptr<const NetSnapshot> Freeze();
  /// Whether `snapshot` was taken of this net: then every point it covers, this net covers.
  bool IsSourceOf(const NetSnapshot& snapshot) const;

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

/// The points of an EpsilonNet at one moment, with their own static k-d tree. Immutable: any number
/// of threads may query it while the net it came from goes on growing. Queries also share a
/// lock-free memo of which point covered the last query in each small cube of space (cubes of
/// diameter ε), tried before the tree: it changes which covering point is reported and how fast,
/// never whether x is covered.
class NetSnapshot {
 public:
  ~NetSnapshot();
  NetSnapshot(const NetSnapshot&) = delete;
  NetSnapshot& operator=(const NetSnapshot&) = delete;

  /// Whether some snapshot point lies within ε of x (length dimension(), finite): the net's own
  /// test on the snapshot's points, so a point covered here is covered by the net.
  /// @param[in,out] hint  optional: a snapshot point index tried first (the one that covered the
  ///                      previous query of a continuous stream); when x is covered, set to a
  ///                      snapshot point within ε of x. Only the speed depends on its input.
  /// @throws std::invalid_argument on a wrong size (coordinates are not checked for speed).
  bool IsCovered(const PointRef& x, Index* hint = nullptr) const;

  Index dimension() const;
  double epsilon() const;
  Index size() const;  ///< net points frozen
  /// d x size(): the net's first size() points, in insertion order (indices as in `hint`).
  const MatrixXd& points() const;
  /// Identifies the net it was taken of (a moved-from net keeps no identity).
  std::uint64_t net_id() const;

 private:
  friend class EpsilonNet;
  struct Impl;
  explicit NetSnapshot(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Convenience: the greedy ε-net of the columns of points, offered in column order.
EpsilonNet BuildEpsilonNet(const PointsRef& points, const EpsilonNetOptions& options);

}  // namespace impactset::setapprox
