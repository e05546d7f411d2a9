#pragma once
// An ε-net whose size is capped: when it would exceed the cap, its radius doubles and the net is
// thinned (re-netted from its own points), so memory and insertion cost stay bounded however
// small ε is for the set's dimension (a 9-D reachable set at 1 % of the speed scale would
// otherwise keep millions of points). The price is a larger, exactly tracked covering radius.
#include <cstdint>
#include <memory>
#include <span>

#include <impactset/setapprox/epsilon_net.hpp>
#include <impactset/setapprox/types.hpp>

namespace impactset::setapprox {

/// Options of BoundedNet. Validated by the constructor.
struct BoundedNetOptions {
  /// Initial separation radius ε (EpsilonNet::epsilon). > 0 and finite.
  double epsilon = 1e-2;
  /// Largest number of net points kept; exceeding it doubles the radius. >= 1.
  std::int64_t max_points = 50000;
  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

/// Greedy ε-net with a size cap. Invariants, exactly as computed:
///   * every point ever offered lies within covering_radius() of the net (Euclidean);
///   * the net points are pairwise more than separation() apart and size() <= max_points;
///   * the net depends only on the sequence of offered points (deterministic).
/// Without coarsening, covering_radius() == separation() == ε and this is EpsilonNet. Each
/// coarsening sets s' = 2 s and re-nets the current points with radius s', so a point within r
/// of an old net point is within r + s' of the new net: covering_radius becomes r + s'.
class BoundedNet {
 public:
  /// @throws std::invalid_argument on a bad dimension or options.
  BoundedNet(Index dimension, const BoundedNetOptions& options);

  /// Offers one point (coarsening first if the net would exceed the cap).
  /// @throws std::invalid_argument as EpsilonNet::Insert.
  void Insert(const PointRef& point);
  /// Offers the columns in order; identical to Insert on each column.
  void InsertBatch(const PointsRef& points);
  /// InsertBatch(points) for a batch tested in advance, maybe on another thread: covered[c] is
  /// `snapshot`'s answer for column c (NetSnapshot::IsCovered; both answers are relied on). While
  /// the snapshot is of the current net (no coarsening since it was taken) a covered column is
  /// only counted and an uncovered one is tested against the net points added since the snapshot
  /// (EpsilonNet::InsertNotCoveredBy); otherwise columns are offered as Insert. The net is bit for
  /// bit that of InsertBatch(points).
  /// @throws std::invalid_argument when covered.size() != points.cols(), on a wrong row count or
  ///         a non-finite coordinate (all checked before any column is offered).
  void InsertBatch(const PointsRef& points,
                   const NetSnapshot& snapshot,
                   std::span<const std::uint8_t> covered);
  /// The current net's points, frozen; the net keeps the snapshot's tree as their index
  /// (EpsilonNet::Freeze).
  std::shared_ptr<const NetSnapshot> Snapshot() { return net_.Freeze(); }
  /// Whether `snapshot` is of the current net (no coarsening since it was taken).
  bool IsCurrent(const NetSnapshot& snapshot) const { return net_.IsSourceOf(snapshot); }

  const EpsilonNet& net() const { return net_; }
  double separation() const { return net_.epsilon(); }
  double covering_radius() const { return covering_; }
  std::int64_t offered() const { return offered_; }
  int coarsenings() const { return coarsenings_; }
  Index size() const { return net_.size(); }

 private:
  void Coarsen();
  void Count(bool joined);  // one more offer; coarsens when a point that joined broke the cap
  BoundedNetOptions options_;
  EpsilonNet net_;
  double covering_;
  std::int64_t offered_ = 0;
  int coarsenings_ = 0;
};

}  // namespace impactset::setapprox
