#include <impactset/lcp/batched_lemke.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <impactset/common/error_policy.hpp>
#include <impactset/common/internal/simd.hpp>
#include <impactset/lcp/internal/lemke_steps.hpp>

namespace impactset::lcp {

// Each lane's values are LemkeSolver's, bit for bit: element-wise operations round as the scalar
// formulas, sums run in the same order (slot by slot, as active_), an update skipped there is
// skipped here by a select (never x + 0, which would turn -0 into +0), and minima and maxima of
// finite values are exact in any order.
using simd::Abs4;
using simd::Double4;
using simd::Load4;
using simd::Long4;
using simd::Store4;

static_assert(BatchedLemkeSolver::kLanes == 4, "one lane per element of a Double4");
constexpr int L = BatchedLemkeSolver::kLanes;

namespace {
IMPACTSET_ALWAYS_INLINE Double4 Splat(double x) { return Double4{x, x, x, x}; }
IMPACTSET_ALWAYS_INLINE bool Has(unsigned mask, int l) { return (mask >> l & 1U) != 0; }
}  // namespace

BatchedLemkeSolver::BatchedLemkeSolver(const LemkeOptions& options) : tail_(options) {}

bool BatchedLemkeSolver::Idle(int lane) const {
  IMPACTSET_ASSERT(lane >= 0 && lane < L);
  return lanes_[lane].state == LaneState::kIdle;
}

void BatchedLemkeSolver::SetMatrix(const MatrixRef& M) {
  for (const Lane& lane : lanes_) IMPACTSET_ASSERT(lane.state == LaneState::kIdle);
  if (M.rows() == 0 || M.rows() != M.cols()) {
    InvalidArgument("M", std::to_string(M.rows()) + " x " + std::to_string(M.cols()),
                    "must be square and not empty");
  }
  if (!M.allFinite()) InvalidArgument("M", "(given)", "entries must be finite");
  M_ = M;
  Resize(M.rows());
}

void BatchedLemkeSolver::Resize(Eigen::Index n) {
  tail_.Resize(n);
  if (n == n_) return;
  n_ = n;
  const auto rows = static_cast<size_t>(n) * L;
  slots_.assign(rows * static_cast<size_t>(n), 0.0);
  for (std::vector<double>* v : {&b_, &u_, &us_, &d_, &ratio_}) v->assign(rows, 0.0);
  for (Lane& lane : lanes_) {
    for (std::vector<int>* v :
         {&lane.basis, &lane.column_of_slot, &lane.slot_of_column, &lane.lex_order, &lane.tied}) {
      v->assign(static_cast<size_t>(n), -1);
    }
    lane.q.resize(n);
    lane.z.resize(n);
  }
}

void BatchedLemkeSolver::Start(int l,
                               const VectorRef& q,
                               const VectorRef& covering,
                               const std::vector<int>* lex_order) {
  IMPACTSET_ASSERT(l >= 0 && l < L && lanes_[l].state == LaneState::kIdle);
  IMPACTSET_ASSERT(q.size() == n_ && covering.size() == n_);
  IMPACTSET_ASSERT(!lex_order || static_cast<Eigen::Index>(lex_order->size()) == n_);
  Lane& lane = lanes_[l];
  const Eigen::Index n = n_;
  lane.q = q;
  lane.info = SolveInfo{};
  lane.trivial = tail_.Begin(M_, q, &lane.z, &lane.info);
  if (lane.trivial) {
    lane.state = LaneState::kFinished;
    return;
  }
  lane.b_scale = tail_.b_scale_;
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    lane.basis[k] = static_cast<int>(i);
    lane.slot_of_column[k] = -1;
    lane.lex_order[k] = lex_order ? (*lex_order)[k] : static_cast<int>(i);
    b_[k * L + l] = q(i);
    d_[k * L + l] = covering(i);
  }
  lane.active = 0;
  lane.initial = true;
  lane.entering = static_cast<int>(2 * n);  // z0
  lane.state = LaneState::kRunning;
}

unsigned BatchedLemkeSolver::Advance() {
  for (;;) {
    unsigned running = 0, finished = 0;
    for (int l = 0; l < L; ++l) {
      if (lanes_[l].state == LaneState::kRunning) running |= 1U << l;
      if (lanes_[l].state == LaneState::kFinished) finished |= 1U << l;
    }
    if (finished != 0 || running == 0) return finished;
    Iterate(running);
  }
}

SolveInfo BatchedLemkeSolver::Finish(int l, VectorXd* z) {
  IMPACTSET_ASSERT(l >= 0 && l < L && lanes_[l].state == LaneState::kFinished);
  Lane& lane = lanes_[l];
  lane.state = LaneState::kIdle;
  if (lane.trivial) {
    *z = lane.z;
    return lane.info;
  }
  const Eigen::Index n = n_;
  z->resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {  // the path's final basis and b, for Conclude
    tail_.basis_[i] = lane.basis[static_cast<size_t>(i)];
    tail_.b_(i) = b_[static_cast<size_t>(i) * L + l];
  }
  return tail_.Conclude(M_, lane.q, lane.end, lane.info, z);
}

// u = B^-1 a for each running lane's entering column a of [I, -M, -d] (LemkeSolver::
// ComputeColumn): a w column is read from the lane's slots (or is e_var), a z column starts at
// -a and adds the slots' contributions slot by slot.
IMPACTSET_ALWAYS_INLINE void BatchedLemkeSolver::ComputeColumns(unsigned running) {
  const Eigen::Index n = n_;
  const auto ld = static_cast<size_t>(n) * L;  // one slot
  const double* a[L] = {};                     // the z lanes' columns a (stride in a_stride)
  size_t a_stride[L] = {};
  int most = 0;  // slots of the z lanes
  for (int l = 0; l < L; ++l) {
    if (!Has(running, l)) continue;
    const Lane& lane = lanes_[l];
    const int var = lane.entering;
    if (var < n) {  // w_var: column var of B^-1
      const int s = lane.slot_of_column[static_cast<size_t>(var)];
      for (Eigen::Index i = 0; i < n; ++i) {
        const auto k = static_cast<size_t>(i) * L + l;
        const double x = s >= 0 ? slots_[static_cast<size_t>(s) * ld + k] : (i == var ? 1.0 : 0.0);
        u_[k] = x;
        us_[k] = std::abs(x);
      }
      continue;
    }
    a[l] = var < 2 * n ? M_.col(var - n).data() : d_.data() + l;
    a_stride[l] = var < 2 * n ? 1 : L;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double ai = a[l][static_cast<size_t>(i) * a_stride[l]];
      u_[static_cast<size_t>(i) * L + l] = -ai;
      us_[static_cast<size_t>(i) * L + l] = std::abs(ai);
    }
    most = std::max(most, lane.active);
  }
  for (int j = 0; j < most; ++j) {
    Double4 ac = Splat(0);
    int column[L] = {};
    for (int l = 0; l < L; ++l) {
      if (a[l] == nullptr || j >= lanes_[l].active) continue;
      column[l] = lanes_[l].column_of_slot[static_cast<size_t>(j)];
      ac[l] = -a[l][static_cast<size_t>(column[l]) * a_stride[l]];
    }
    const Long4 add = ac != Splat(0);
    if (!(add[0] | add[1] | add[2] | add[3])) continue;
    const double* __restrict slot = slots_.data() + static_cast<size_t>(j) * ld;
    double* __restrict u = u_.data();
    double* __restrict us = us_.data();
    for (Eigen::Index i = 0; i < n; ++i) {
      const Double4 p = Load4(slot + i * L) * ac;
      const Double4 ui = Load4(u + i * L), usi = Load4(us + i * L);
      Store4(u + i * L, add ? ui + p : ui);
      Store4(us + i * L, add ? usi + Abs4(p) : usi);
    }
    for (int l = 0; l < L; ++l) {
      if (add[l]) u[static_cast<size_t>(column[l]) * L + l] -= ac[l];  // u_c -= a_c
    }
  }
}

// The minimum-ratio test of every running lane (LemkeSolver::RatioTest): ratios, the least one,
// the rows tied with it; a single tied row is the pivot row, ties go to ResolveTie. Lanes whose
// column blocks nowhere end on a secondary ray. Returns the lanes that pivot.
IMPACTSET_ALWAYS_INLINE unsigned BatchedLemkeSolver::RatioTests(unsigned running) {
  const LemkeOptions& o = tail_.options_;
  const Eigen::Index n = n_;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  Long4 initial = {0, 0, 0, 0};
  Double4 snap = Splat(0);
  for (int l = 0; l < L; ++l) {
    initial[l] = lanes_[l].initial ? -1 : 0;
    snap[l] = o.tie_tolerance * lanes_[l].b_scale;
  }
  const double* __restrict b = b_.data();
  const double* __restrict u = u_.data();
  const double* __restrict us = us_.data();
  const double* __restrict d = d_.data();
  double* __restrict ratio = ratio_.data();
  Double4 biggest = Splat(0);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Double4 v = Abs4(Load4(u + i * L));
    biggest = v > biggest ? v : biggest;
  }
  const Double4 floor = initial ? Splat(0) : Splat(o.pivot_floor) * biggest;
  const Double4 zt = Splat(o.zero_tolerance);
  Double4 best = Splat(kInf);
  Long4 any_inf = {0, 0, 0, 0};
  for (Eigen::Index i = 0; i < n; ++i) {
    const Double4 bv = Load4(b + i * L);
    const Double4 den = initial ? Load4(d + i * L) : Load4(u + i * L);
    const Double4 bi = Abs4(bv) <= snap ? Splat(0) : bv;
    Double4 r = bi / den;
    r = (initial | ((den > zt * Load4(us + i * L)) & (den > floor))) ? r : Splat(kNaN);
    Store4(ratio + i * L, r);
    best = r < best ? r : best;  // a NaN never wins
    any_inf |= r == Splat(kInf);
  }
  const Double4 reach = best + Splat(o.tie_tolerance) * Abs4(best);
  Long4 count = {0, 0, 0, 0}, first = {-1, -1, -1, -1};
  for (Eigen::Index i = 0; i < n; ++i) {
    const Long4 tied = Load4(ratio + i * L) <= reach;
    first = (tied & (first < 0)) ? Long4{i, i, i, i} : first;
    count -= tied;
  }
  unsigned pivoting = 0;
  for (int l = 0; l < L; ++l) {
    if (!Has(running, l)) continue;
    Lane& lane = lanes_[l];
    if (best[l] == kInf && any_inf[l] == 0) {  // no row blocks
      lane.end = LemkeSolver::PathEnd::kRay;
      lane.state = LaneState::kFinished;
      continue;
    }
    lane.row = count[l] == 1 ? static_cast<int>(first[l]) : ResolveTie(l, reach[l]);
    if (!lane.initial) ++lane.info.pivots;
    pivoting |= 1U << l;
  }
  return pivoting;
}

// Several rows of lane l tie: z0's row leaves first (ending the path), else the lexicographic
// rule on the rows of B^-1 (the initial test: on [q, I] / d) decides.
int BatchedLemkeSolver::ResolveTie(int l, double reach) {
  Lane& lane = lanes_[l];
  const Eigen::Index n = n_;
  int count = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (ratio_[static_cast<size_t>(i) * L + l] <= reach) lane.tied[count++] = static_cast<int>(i);
  }
  if (!lane.initial) {
    for (int j = 0; j < count; ++j) {
      if (lane.basis[lane.tied[j]] == 2 * n) return lane.tied[j];
    }
  }
  const size_t ld = static_cast<size_t>(n) * L;
  const auto column_of = [&](int k) -> const double* {
    const int s = lane.slot_of_column[static_cast<size_t>(k)];
    return s < 0 ? nullptr : slots_.data() + static_cast<size_t>(s) * ld + l;
  };
  const double* den = (lane.initial ? d_.data() : u_.data()) + l;
  return internal::LexicographicTieBreak(count, lane.tied.data(), n, lane.lex_order.data(),
                                         column_of, den, L, tail_.options_.tie_tolerance);
}

// B^-1 <- E B^-1 and b <- E b with each pivoting lane's eta matrix (LemkeSolver::Pivot): x_r =
// x_r / u_r, x_i -= u_i x_r, skipped where x_r / u_r is 0. A row pivoted on for the first time
// brings its column of B^-1 (still e_r) into the lane's next slot.
IMPACTSET_ALWAYS_INLINE void BatchedLemkeSolver::Pivot(unsigned pivoting) {
  const Eigen::Index n = n_;
  const size_t ld = static_cast<size_t>(n) * L;
  Double4 inv = Splat(0);
  int row[L] = {};
  int most = 0;
  for (int l = 0; l < L; ++l) {
    if (!Has(pivoting, l)) continue;
    Lane& lane = lanes_[l];
    const int r = row[l] = lane.row;
    if (lane.slot_of_column[static_cast<size_t>(r)] < 0) {
      const int s = lane.active++;
      lane.slot_of_column[static_cast<size_t>(r)] = s;
      lane.column_of_slot[static_cast<size_t>(s)] = r;
      double* col = slots_.data() + static_cast<size_t>(s) * ld + l;
      for (Eigen::Index i = 0; i < n; ++i) col[i * L] = i == r ? 1.0 : 0.0;
    }
    inv[l] = 1.0 / u_[static_cast<size_t>(r) * L + l];
    most = std::max(most, lane.active);
  }
  const double* __restrict u = u_.data();
  auto apply = [&](double* __restrict x, unsigned lanes) __attribute__((always_inline)) {
    Double4 t = Splat(0);
    for (int l = 0; l < L; ++l) {
      if (Has(lanes, l)) t[l] = x[row[l] * L + l] * inv[l];
    }
    const Long4 update = t != Splat(0);
    if (update[0] | update[1] | update[2] | update[3]) {
      for (Eigen::Index i = 0; i < n; ++i) {
        const Double4 xi = Load4(x + i * L);
        Store4(x + i * L, update ? xi - Load4(u + i * L) * t : xi);
      }
    }
    for (int l = 0; l < L; ++l) {
      if (Has(lanes, l)) x[row[l] * L + l] = t[l];  // x_r = t
    }
  };
  for (int j = 0; j < most; ++j) {
    unsigned lanes = 0;
    for (int l = 0; l < L; ++l) {
      if (Has(pivoting, l) && j < lanes_[l].active) lanes |= 1U << l;
    }
    apply(slots_.data() + static_cast<size_t>(j) * ld, lanes);
  }
  apply(b_.data(), pivoting);
}

// The basis change of each pivoting lane, then the end of its path (z0 left: a solution; the
// pivot cap) or its next entering variable, the complement of the one that left.
IMPACTSET_ALWAYS_INLINE unsigned BatchedLemkeSolver::AfterPivot(unsigned pivoting) {
  const int n = static_cast<int>(n_);
  unsigned finished = 0;
  for (int l = 0; l < L; ++l) {
    if (!Has(pivoting, l)) continue;
    Lane& lane = lanes_[l];
    const int leaving = lane.basis[static_cast<size_t>(lane.row)];
    lane.basis[static_cast<size_t>(lane.row)] = lane.entering;
    lane.initial = false;
    if (leaving == 2 * n) {
      lane.end = LemkeSolver::PathEnd::kSolution;
    } else if (lane.info.pivots >= tail_.options_.max_pivots) {
      lane.end = LemkeSolver::PathEnd::kMaxPivots;
    } else {
      lane.entering = leaving < n ? leaving + n : leaving - n;
      continue;
    }
    lane.state = LaneState::kFinished;
    finished |= 1U << l;
  }
  return finished;
}

IMPACTSET_AVX2_CLONES unsigned BatchedLemkeSolver::Iterate(unsigned running) {
  ComputeColumns(running);
  const unsigned pivoting = RatioTests(running);
  Pivot(pivoting);
  return AfterPivot(pivoting) | (running & ~pivoting);
}

}  // namespace impactset::lcp
