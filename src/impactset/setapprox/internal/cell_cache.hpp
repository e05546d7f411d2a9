#pragma once
// A lock-free memo for "which net point covered the last query near here?", shared by the threads
// that query one NetSnapshot. Included only by setapprox/*.cpp.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <impactset/setapprox/types.hpp>

namespace impactset::setapprox::internal {

/// Space is cut into cubes of side ε/√d (diameter ε), and each cube is hashed to one slot that
/// remembers the net point that covered the last query falling in it. Two points of a cube are
/// within ε of each other (2ε in the double-width cubes at 0, see Locate), so that net point is
/// within 2ε (3ε) of the next query there and, in the streams we see (post-impact sets are
/// concentrated, trajectories continuous), covers it most of the time: one distance then
/// replaces a k-d tree search.
///
/// A slot is one relaxed 64-bit atomic holding a 32-bit tag of the cube's hash and a point
/// index, so racing threads can neither tear it nor block. A stale, overwritten or colliding
/// slot only proposes a wrong candidate, which the caller's exact distance test rejects: answers
/// never depend on the memo, only the speed does.
class CellCache {
 public:
  /// Where a query's cube lives in the table.
  struct Cell {
    std::size_t slot = 0;
    std::uint64_t tag = 0;
  };

  /// @param dimension d >= 1; @param epsilon the covering radius (> 0); @param points the net
  /// size, which sets the table size (a few slots per point, 2^12 ... 2^16 slots).
  CellCache(Index dimension, double epsilon, Index points)
      : inverse_side_(std::sqrt(static_cast<double>(dimension)) / epsilon),
        slots_(TableSize(points)) {}

  /// The cube of x (d coordinates). @return false when a coordinate is not finite or so far out
  /// that its cube number would overflow: such a query is not memoised.
  bool Locate(const double* x, Index d, Cell* cell) const {
    // Each coordinate's cube number times its own odd constant, summed: the products do not wait
    // on each other as a chained hash's steps do. Numbers are truncated toward zero, which merges
    // the cubes either side of 0 into one of double width: harmless, the memo only proposes.
    std::uint64_t h = 0;
    for (Index i = 0; i < d; ++i) {
      const double t = x[i] * inverse_side_;
      if (!(std::abs(t) < kLargestCube)) return false;
      h += static_cast<std::uint64_t>(static_cast<std::int64_t>(t)) * Multiplier(i);
    }
    h ^= h >> 32;  // the products mix upward: fold the high bits down, mix once more
    h *= 0x9e3779b97f4a7c15ULL;
    cell->slot = static_cast<std::size_t>(h >> 8) & (slots_.size() - 1);  // bits 8 ... 23
    cell->tag = h >> 32;
    return true;
  }

  /// The point remembered for the cell, or -1.
  Index Candidate(const Cell& cell) const {
    const std::uint64_t e = slots_[cell.slot].load(std::memory_order_relaxed);
    return (e >> 32) == cell.tag ? static_cast<Index>(e & kIndexMask) : -1;
  }

  /// Remembers that `point` (< 2^32) covered a query in the cell.
  void Remember(const Cell& cell, std::uint32_t point) const {
    slots_[cell.slot].store((cell.tag << 32) | point, std::memory_order_relaxed);
  }

 private:
  static constexpr double kLargestCube = 4.0e18;  // |cube number| below 2^62
  static constexpr std::uint64_t kIndexMask = 0xffffffffULL;

  // Distinct odd 64-bit constants per coordinate (the golden ratio's bits, advanced).
  static std::uint64_t Multiplier(Index i) {
    return 0x9e3779b97f4a7c15ULL * (2 * static_cast<std::uint64_t>(i) + 1) +
           2 * static_cast<std::uint64_t>(i);
  }

  static std::size_t TableSize(Index points) {
    std::size_t n = std::size_t{1} << 12;  // 32 KiB: stays in L1/L2 for small nets
    while (n < (std::size_t{1} << 16) &&
           n < 4 * static_cast<std::size_t>(std::max<Index>(points, 0)))
      n <<= 1;
    return n;
  }

  double inverse_side_;
  mutable std::vector<std::atomic<std::uint64_t>> slots_;  // a memo: const queries update it
};

}  // namespace impactset::setapprox::internal
