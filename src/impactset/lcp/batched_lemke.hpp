#pragma once
// Lemke's method on several LCPs of one matrix at once, one LCP per lane of a vector register.
#include <array>
#include <cstdint>
#include <vector>

#include <impactset/lcp/lemke.hpp>

namespace impactset::lcp {

/// Solves LCP(M, q) for up to kLanes right-hand sides of one matrix M in lockstep. Every lane
/// follows exactly the path LemkeSolver::SolveWithCovering follows on its own inputs (same
/// covering vector, same lexicographic column order, the same arithmetic in the same order), so
/// each answer, SolveInfo included, is bit for bit that solver's: a caller may replace one by the
/// other without changing a result. The lanes' pivots run together, one lane per element of a
/// four-double vector, so that the dependent loads, divisions and branches of one solve overlap
/// with the others' (a lone solve of a 10 x 10 step LCP is latency-bound, not arithmetic-bound).
///
/// A caller with many LCPs keeps every lane busy:
///
///   solver.SetMatrix(M);
///   for (int l = 0; l < kLanes; ++l) solver.Start(l, q[l], d[l], &order[l]);
///   while (unsigned done = solver.Advance()) {
///     for (int l = 0; l < kLanes; ++l) {
///       if (done >> l & 1) { info = solver.Finish(l, &z); ...; maybe solver.Start(l, ...); }
///     }
///   }
///
/// Lanes are independent: which lanes run beside a solve, and when it started, never change its
/// answer. Not thread-safe; one instance per thread. After the first solves of a size, no call
/// allocates.
class BatchedLemkeSolver {
 public:
  static constexpr int kLanes = 4;

  /// @throws std::invalid_argument naming the option that breaks its rule (LemkeOptions).
  explicit BatchedLemkeSolver(const LemkeOptions& options = {});

  /// The matrix of the following solves (copied). Every lane must be idle.
  /// @throws std::invalid_argument if M is empty, not square or not finite.
  void SetMatrix(const MatrixRef& M);

  /// Starts the idle lane `lane` on LCP(M, q) with covering vector `covering` and the
  /// lexicographic column order `lex_order` (null: 0, 1, ...), as
  /// LemkeSolver::SolveWithCovering(M, q, covering, z, lex_order, InputCheck::kCallerValidated).
  /// The caller guarantees what kCallerValidated says (finite q, positive covering, a
  /// permutation); sizes and the lane's state are asserted. A trivial LCP (q >= 0) finishes here.
  void Start(int lane,
             const VectorRef& q,
             const VectorRef& covering,
             const std::vector<int>* lex_order = nullptr);

  /// Pivots every running lane until at least one lane has finished. Returns the finished lanes
  /// as a bit mask (bit l: lane l), 0 only when no lane is running or finished.
  unsigned Advance();

  /// The answer of the finished lane `lane`, which becomes idle. z is resized to n.
  SolveInfo Finish(int lane, VectorXd* z);

  bool Idle(int lane) const;
  Eigen::Index size() const { return n_; }
  const LemkeOptions& options() const { return tail_.options(); }

 private:
  enum class LaneState : std::uint8_t { kIdle, kRunning, kFinished };
  // One lane's solve: what LemkeSolver keeps per solve, but B^-1 and b live in the shared
  // structure-of-arrays workspaces below.
  struct Lane {
    LaneState state = LaneState::kIdle;
    bool trivial = false;  // q >= 0: answered at Start
    bool initial = true;   // z0 enters: the initial ratio test on [q, I] / d
    int entering = 0;
    int row = -1;    // the pivot row the ratio test chose
    int active = 0;  // B^-1's non-identity columns, stored in slots 0 .. active - 1
    double b_scale = 1;
    LemkeSolver::PathEnd end = LemkeSolver::PathEnd::kSolution;
    SolveInfo info;
    std::vector<int> basis, column_of_slot, slot_of_column, lex_order, tied;
    VectorXd q, z;
  };
  // One lockstep iteration of the running lanes: column, ratio test, pivot. Returns the lanes
  // that finished.
  unsigned Iterate(unsigned running);
  void ComputeColumns(unsigned running);
  unsigned RatioTests(unsigned running);
  int ResolveTie(int l, double reach);
  void Pivot(unsigned pivoting);
  unsigned AfterPivot(unsigned pivoting);
  void Resize(Eigen::Index n);

  LemkeSolver tail_;  // concludes every path (LemkeSolver::Begin and Conclude)
  MatrixXd M_;
  Eigen::Index n_ = 0;
  std::array<Lane, kLanes> lanes_;
  // Structure of arrays: row i of lane l at [i * kLanes + l]; slot s of B^-1's non-identity
  // columns at slots_[(s * n + i) * kLanes + l] (each lane's slots in the order it pivoted on
  // their rows, as LemkeSolver's active_ list).
  std::vector<double> slots_, b_, u_, us_, d_, ratio_;
};

}  // namespace impactset::lcp
