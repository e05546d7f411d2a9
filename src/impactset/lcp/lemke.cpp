#include <impactset/lcp/lemke.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <impactset/common/error_policy.hpp>
#include <impactset/common/internal/simd.hpp>
#include <impactset/lcp/internal/covering.hpp>
#include <impactset/lcp/internal/dense_lu.hpp>
#include <impactset/lcp/problem.hpp>

namespace impactset::lcp {

void LemkeOptions::Validate() const {
  if (max_pivots < 1) InvalidArgument("LemkeOptions.max_pivots", max_pivots, "must be >= 1");
  if (!(zero_tolerance > 0 && zero_tolerance <= 1e-3)) {
    InvalidArgument("LemkeOptions.zero_tolerance", zero_tolerance, "must lie in (0, 1e-3]");
  }
  if (!(pivot_floor > 0 && pivot_floor <= 1e-3)) {
    InvalidArgument("LemkeOptions.pivot_floor", pivot_floor, "must lie in (0, 1e-3]");
  }
  if (!(tie_tolerance >= 0 && tie_tolerance <= 1e-3)) {
    InvalidArgument("LemkeOptions.tie_tolerance", tie_tolerance, "must lie in [0, 1e-3]");
  }
  if (!(covering_perturbation >= 0 && covering_perturbation <= 10)) {
    InvalidArgument("LemkeOptions.covering_perturbation", covering_perturbation,
                    "must lie in [0, 10]");
  }
  if (!(restore_above >= 0 && restore_above <= accept_tolerance)) {
    InvalidArgument("LemkeOptions.restore_above", restore_above,
                    "must lie in [0, accept_tolerance]");
  }
  if (!(accept_tolerance > 0)) {
    InvalidArgument("LemkeOptions.accept_tolerance", accept_tolerance, "must be > 0");
  }
}

LemkeSolver::LemkeSolver(const LemkeOptions& options) : options_(options) { options_.Validate(); }

void LemkeSolver::Resize(Eigen::Index n) {
  if (n == n_) return;
  n_ = n;
  nv_ = static_cast<int>((n + 3) / 4);
  ld_ = 4 * static_cast<Eigen::Index>(nv_);
  binv_.setIdentity(ld_, n);  // rows n.. stay zero: the four-row loops never change them
  touched_.assign(n, 0);
  active_.clear();
  active_.reserve(n);
  b_.setZero(ld_);
  u_.setZero(ld_);
  u_scale_.setZero(ld_);
  basis_.assign(n, 0);
  lu_.resize(n, n);
  basic_.assign(n, 0);
  pivot_row_.assign(n, 0);
  x_.resize(n);
  ratio_.setZero(ld_);
  tied_.assign(n, 0);
  SetDefaultCovering();
}

// Covering vector internal::PerturbedCovering (c = 0: d = 1). Rows n.. are 0, so their initial
// ratios are 0 / 0 = NaN, which never blocks.
void LemkeSolver::SetDefaultCovering() {
  SetNaturalOrder();
  d_.setZero(ld_);
  for (Eigen::Index i = 0; i < n_; ++i) {
    d_(i) = internal::PerturbedCovering(i, options_.covering_perturbation);
  }
  custom_covering_ = false;
}

void LemkeSolver::SetNaturalOrder() {
  lex_order_.resize(n_);
  for (Eigen::Index i = 0; i < n_; ++i) lex_order_[i] = static_cast<int>(i);
}

namespace {

// Four rows at a time: element-wise operations round exactly as the scalar formulas, and minima
// and maxima are exact in any order, so every value below is the scalar code's, bit for bit (up
// to the sign of a zero where an update by a zero factor is not skipped: the same z).
using simd::Abs4;
using simd::Double4;
using simd::Load4;
using simd::Long4;
using simd::Store4;

// Rows i0 .. i0 + 3 of a vector of n entries, zero past n (without reading past it).
// Lane by lane, not a loop: GCC turns such a loop into a call of memcpy, which spills every
// vector register of the caller.
IMPACTSET_ALWAYS_INLINE Double4 LoadRows(const double* a, Eigen::Index i0, Eigen::Index n) {
  if (i0 + 4 <= n) return Load4(a + i0);
  Double4 v = {0, 0, 0, 0};
  if (i0 < n) v[0] = a[i0];
  if (i0 + 1 < n) v[1] = a[i0 + 1];
  if (i0 + 2 < n) v[2] = a[i0 + 2];
  return v;
}

// Lane mask of row r within the four rows starting at i0.
IMPACTSET_ALWAYS_INLINE Long4 IsRow(Eigen::Index i0, Eigen::Index r) {
  const Long4 rows = {0, 1, 2, 3};
  return rows + static_cast<long long>(i0) == static_cast<long long>(r);
}

// max_i |x_i| over nv four-row vectors (rows past n are zero).
IMPACTSET_ALWAYS_INLINE double MaxAbs(const double* x, int nv) {
  Double4 m4 = {0, 0, 0, 0};
  for (int k = 0; k < nv; ++k) {
    const Double4 v = Abs4(Load4(x + 4 * k));
    m4 = v > m4 ? v : m4;
  }
  return std::max(std::max(m4[0], m4[1]), std::max(m4[2], m4[3]));
}

// ratio_i = b'_i / den_i for the rows that block (all rows when `all`, else den_i > zt us_i and
// den_i > floor), NaN for the others, with b'_i = 0 where |b_i| <= snap; returns the least ratio
// of a blocking row (+inf when none blocks). Padding rows (b = den = us = 0) give NaN.
IMPACTSET_ALWAYS_INLINE double BlockingRatios(const double* b,
                                              const double* den,
                                              const double* us,
                                              int nv,
                                              double snap,
                                              double zt,
                                              double floor,
                                              bool all,
                                              double* ratio) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  Double4 best4 = {kInf, kInf, kInf, kInf};
  const Double4 nan4 = {kNaN, kNaN, kNaN, kNaN}, zero4 = {0, 0, 0, 0};
  for (int k = 0; k < nv; ++k) {
    const Double4 bv = Load4(b + 4 * k), dv = Load4(den + 4 * k);
    const Double4 bi = Abs4(bv) <= snap ? zero4 : bv;
    Double4 r = bi / dv;
    if (!all) r = ((dv > zt * Load4(us + 4 * k)) & (dv > floor)) ? r : nan4;
    Store4(ratio + 4 * k, r);
    best4 = r < best4 ? r : best4;  // a NaN never wins
  }
  return std::min(std::min(best4[0], best4[1]), std::min(best4[2], best4[3]));
}

}  // namespace

// ComputeColumn and Pivot for columns longer than 32 rows: the same operations in the workspace
// vectors (a few stalled loads matter less against n |active| work), and the column product skips
// a_c = 0 (at these lengths the work saved outweighs the mispredicted branches).
IMPACTSET_ALWAYS_INLINE void LemkeSolver::ComputeColumnInMemory(const MatrixRef& M, int var) {
  const int nv = nv_;
  const Eigen::Index n = n_;
  double* __restrict u = u_.data();
  double* __restrict us = u_scale_.data();
  if (var < n) {  // w_var: a = e_var, u = column var of B^-1
    const double* __restrict col = binv_.col(var).data();
    for (int k = 0; k < nv; ++k) {
      const Double4 c = Load4(col + 4 * k);
      Store4(u + 4 * k, c);
      Store4(us + 4 * k, Abs4(c));
    }
    return;
  }
  const double* a = var < 2 * n ? M.col(var - n).data() : d_.data();  // a = -(this column)
  for (Eigen::Index i = 0; i < n; ++i) {  // rows n.. of u and us are zero already
    u[i] = -a[i];
    us[i] = std::abs(a[i]);
  }
  for (int c : active_) {
    const double ac = -a[c];
    if (ac == 0.0) continue;
    const double* __restrict col = binv_.col(c).data();
    for (int k = 0; k < nv; ++k) {
      const Double4 p = Load4(col + 4 * k) * ac;
      Store4(u + 4 * k, Load4(u + 4 * k) + p);
      Store4(us + 4 * k, Load4(us + 4 * k) + Abs4(p));
    }
    u[c] -= ac;
  }
}

IMPACTSET_ALWAYS_INLINE void LemkeSolver::PivotInMemory(int r) {
  const int nv = nv_;
  const double* __restrict u = u_.data();
  const double inv = 1.0 / u[r];
  auto apply = [&](double* __restrict x) {
    const double t = x[r] * inv;
    for (int k = 0; k < nv; ++k) Store4(x + 4 * k, Load4(x + 4 * k) - Load4(u + 4 * k) * t);
    x[r] = t;
  };
  for (int c : active_) apply(binv_.col(c).data());
  apply(b_.data());
}

// u = B^-1 a for the tableau column a of variable var in [I, -M, -d]. B^-1 differs from the
// identity only in the columns of rows pivoted on so far (active_), because every pivot's eta
// matrix differs from I only in its pivot column; so u = a + sum_{c in active} (B^-1 e_c - e_c) a_c
// costs n |active| instead of n^2 (a few pivots on n = 10..25 step LCPs).
template <int NV>
IMPACTSET_ALWAYS_INLINE void LemkeSolver::ComputeColumn(const MatrixRef& M, int var) {
  static_assert(NV > 0, "columns of a run-time length: ComputeColumnInMemory");
  const Eigen::Index n = n_;
  // In registers, stored once at the end: a scalar store into a vector that is then loaded whole
  // would stall store forwarding, so single rows change by lane selects.
  Double4 u[NV], us[NV];
  if (var < n) {  // w_var: a = e_var, u = column var of B^-1
    const double* __restrict col = binv_.col(var).data();
    for (int k = 0; k < NV; ++k) {
      u[k] = Load4(col + 4 * k);
      us[k] = Abs4(u[k]);
    }
  } else {
    const double* a = var < 2 * n ? M.col(var - n).data() : d_.data();  // a = -(this column)
    for (int k = 0; k < NV; ++k) {
      const Double4 ak = LoadRows(a, 4 * k, n);
      u[k] = -ak;
      us[k] = Abs4(ak);
    }
    const double* binv = binv_.data();  // locals: stores through double* could alias members
    const Eigen::Index ld = ld_;
    for (const int c : active_) {
      const double ac = -a[c];  // no test for 0: a mispredicted branch costs more than the work
      const double* __restrict col = binv + c * ld;
      for (int k = 0; k < NV; ++k) {
        const Double4 p = Load4(col + 4 * k) * ac;
        u[k] += p;
        us[k] += Abs4(p);
        u[k] = IsRow(4 * k, c) ? u[k] - ac : u[k];  // u_c -= a_c
      }
    }
  }
  for (int k = 0; k < NV; ++k) {
    Store4(u_.data() + 4 * k, u[k]);
    Store4(u_scale_.data() + 4 * k, us[k]);
  }
}

// The minimum-ratio test. Keys of row i are [b_i, B^-1 row i] / u_i over the rows that block
// (u_i > 0; initial pivot: every row, divided by d_i, b holds q). The first key decides unless
// several rows tie within tie_tolerance; then the B^-1 columns decide in turn (lexicographic
// rule: resolves degeneracy, so the path cannot cycle). When the artificial z0 is among the tied
// rows it leaves: that ends the path at once on a solution (degenerate z0 = 0), where the
// lexicographic order could wander on and end on a ray. Returns -1 when no row blocks (ray).
// Basic values used by the ratio test: values within tie_tolerance * ||q||_inf of zero are zero.
// Step LCPs carry D v entries of +-1e-16 that are exact zeros in exact arithmetic, and roundoff
// leaves -1e-17 where theory says b >= 0; both must count as the degenerate ties they are, so
// that the lexicographic rule (not noise) decides.
template <int NV>
IMPACTSET_ALWAYS_INLINE int LemkeSolver::RatioTest(bool initial) {
  const int nv = NV > 0 ? NV : nv_;
  const double tol = options_.tie_tolerance;
  const double snap = tol * b_scale_;
  const double zt = options_.zero_tolerance;
  const Eigen::Index n = n_;
  const double* __restrict b = b_.data();
  const double* __restrict den = initial ? d_.data() : u_.data();
  const double* __restrict us = u_scale_.data();
  double* __restrict ratio = ratio_.data();
  int* __restrict tied = tied_.data();
  // A pivot entry counts only above roundoff: relative to the magnitudes that cancelled into it,
  // and never below pivot_floor of the column's largest entry, because a row whose own products
  // are all tiny can be roundoff "relative" to nothing.
  const double floor = initial ? 0.0 : options_.pivot_floor * MaxAbs(den, nv);
  const double best = BlockingRatios(b, den, us, nv, snap, zt, floor, initial, ratio);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (best == kInf && std::find(ratio, ratio + n, kInf) == ratio + n) return -1;  // none blocks
  const double reach = best + tol * std::abs(best);
  int count = 0;           // the tied blocking rows (a NaN ratio never passes), in increasing order
  if constexpr (NV > 0) {  // a bit per row; one set bit (the usual case) is the answer
    std::uint32_t rows = 0;
    for (int k = 0; k < NV; ++k) {
      const Long4 t = Load4(ratio + 4 * k) <= reach;
      rows |= static_cast<std::uint32_t>((t[0] & 1) | (t[1] & 2) | (t[2] & 4) | (t[3] & 8))
              << 4 * k;
    }
    if (std::has_single_bit(rows)) return std::countr_zero(rows);
    for (; rows != 0; rows &= rows - 1) tied[count++] = std::countr_zero(rows);
  } else {
    for (Eigen::Index i = 0; i < n; ++i) {  // without branches: which rows tie is data
      tied[count] = static_cast<int>(i);
      count += ratio[i] <= reach;
    }
    if (count == 1) return tied[0];
  }
  if (!initial) {
    for (int j = 0; j < count; ++j) {
      if (basis_[tied[j]] == 2 * n) return tied[j];
    }
  }
  return LexicographicTieBreak(count, den);
}

// Among the tied rows, the lexicographically smallest row of B^-1 / u, columns in lex_order_.
// A column of B^-1 that no pivot touched is e_k: its keys are 0 except 1/u_k > 0 at row k, so it
// only removes row k (if tied), with no division.
int LemkeSolver::LexicographicTieBreak(int count, const double* den) {
  const double tol = options_.tie_tolerance;
  int* __restrict tied = tied_.data();
  for (Eigen::Index kk = 0; kk < n_ && count > 1; ++kk) {
    const Eigen::Index k = lex_order_[kk];
    if (!touched_[k]) {
      for (int j = 0; j < count; ++j) {
        if (tied[j] == k) {
          std::copy(tied + j + 1, tied + count, tied + j);
          --count;
          break;
        }
      }
      continue;
    }
    const double* col = binv_.col(k).data();
    double kbest = std::numeric_limits<double>::infinity();
    for (int j = 0; j < count; ++j) kbest = std::min(kbest, col[tied[j]] / den[tied[j]]);
    int kept = 0;
    for (int j = 0; j < count; ++j) {
      const double key = col[tied[j]] / den[tied[j]];
      if (key - kbest <= tol * std::max(std::abs(key), std::abs(kbest))) tied[kept++] = tied[j];
    }
    count = kept;
  }
  return tied[0];  // rows of B^-1 are independent: more than one left only through roundoff
}

// B^-1 <- E B^-1 and b <- E b for the eta matrix E of pivot row r (x_r /= u_r, x_i -= u_i x_r).
// Only B^-1's non-identity columns change, column r among them: the caller has added r to active_.
// Columns with x_r = 0 are updated too (x - u * 0 changes at most the sign of a zero): a branch
// on it, mispredicted on about every other column, cost a sixth of a 25 x 25 solve.
template <int NV>
IMPACTSET_ALWAYS_INLINE void LemkeSolver::Pivot(int r) {
  static_assert(NV > 0, "columns of a run-time length: PivotInMemory");
  Double4 u[NV];
  for (int k = 0; k < NV; ++k) u[k] = Load4(u_.data() + 4 * k);
  const double inv = 1.0 / u_(r);
  auto apply = [&](double* __restrict x) {
    const double t = x[r] * inv;
    for (int k = 0; k < NV; ++k) Store4(x + 4 * k, Load4(x + 4 * k) - u[k] * t);
    x[r] = t;
  };
  double* binv = binv_.data();  // locals: stores through double* could alias members
  const Eigen::Index ld = ld_;
  const int* active = active_.data();
  const std::size_t count = active_.size();
  for (std::size_t j = 0; j < count; ++j) apply(binv + active[j] * ld);
  apply(b_.data());
}

// Back to B^-1 = I, touching only the columns the last solve changed, and b = q.
template <int NV>
IMPACTSET_ALWAYS_INLINE void LemkeSolver::ResetTableau(const VectorRef& q) {
  const int nv = NV > 0 ? NV : nv_;
  for (int c : active_) {
    double* col = binv_.col(c).data();
    for (int k = 0; k < nv; ++k) {  // all ld_ rows: an overflowed pivot may have left NaN padding
      const Double4 one = {1, 1, 1, 1}, zero = {0, 0, 0, 0};
      Store4(col + 4 * k, IsRow(4 * k, c) ? one : zero);
    }
    touched_[c] = 0;
  }
  active_.clear();
  for (int k = 0; k < nv; ++k) Store4(b_.data() + 4 * k, LoadRows(q.data(), 4 * k, n_));
}

// Lemke's path from the initial pivot (z0 enters at the lexicographically smallest row of
// [q, I] / d) until z0 leaves the basis, the pivot cap or a secondary ray.
template <int NV>
IMPACTSET_ALWAYS_INLINE LemkeSolver::PathEnd LemkeSolver::FollowPathFor(const MatrixRef& M,
                                                                        const VectorRef& q,
                                                                        int* pivots) {
  ResetTableau<NV>(q);
  const int n = static_cast<int>(n_);
  const int z0 = 2 * n;
  // Columns of up to 32 rows in registers, longer ones in the workspace vectors. Spelled out
  // twice: a lambda's body is a function of its own, compiled for the baseline unless inlined.
  if constexpr (NV == 0) {
    ComputeColumnInMemory(M, z0);
  } else {
    ComputeColumn<NV>(M, z0);
  }
  int r = RatioTest<NV>(/*initial=*/true);
  int entering = z0;
  for (;;) {
    if (!touched_[r]) {  // column r of B^-1 is about to leave the identity
      touched_[r] = 1;
      active_.push_back(r);
    }
    if constexpr (NV == 0) {
      PivotInMemory(r);
    } else {
      Pivot<NV>(r);
    }
    const int leaving = basis_[r];
    basis_[r] = entering;
    if (leaving == z0) return PathEnd::kSolution;
    if (*pivots >= options_.max_pivots) return PathEnd::kMaxPivots;
    entering = leaving < n ? leaving + n : leaving - n;
    if constexpr (NV == 0) {
      ComputeColumnInMemory(M, entering);
    } else {
      ComputeColumn<NV>(M, entering);
    }
    r = RatioTest<NV>(/*initial=*/false);
    if (r < 0) return PathEnd::kRay;
    ++*pivots;
  }
}

// Step LCPs are 4 x 4 to 25 x 25 (cube and quadruped steps up to ~90): columns up to 32 rows get
// loops of a fixed length, larger ones the run-time count.
IMPACTSET_SIMD_CLONES LemkeSolver::PathEnd LemkeSolver::FollowPath(const MatrixRef& M,
                                                                   const VectorRef& q,
                                                                   int* pivots) {
  switch (nv_) {
    case 1:
      return FollowPathFor<1>(M, q, pivots);
    case 2:
      return FollowPathFor<2>(M, q, pivots);
    case 3:
      return FollowPathFor<3>(M, q, pivots);
    case 4:
      return FollowPathFor<4>(M, q, pivots);
    case 5:
      return FollowPathFor<5>(M, q, pivots);
    case 6:
      return FollowPathFor<6>(M, q, pivots);
    case 7:
      return FollowPathFor<7>(M, q, pivots);
    case 8:
      return FollowPathFor<8>(M, q, pivots);
    default:
      return FollowPathFor<0>(M, q, pivots);
  }
}

// Reads z off the final tableau (z0 is non-basic). When its residual is above
// options.restore_above, the product-form updates have drifted (badly scaled data): z is re-solved
// from the basis by LU with one refinement step (RestoreFromBasis) and the better of the two is
// kept. Below it, the tableau's z stands bit for bit, so well-scaled problems pay one comparison.
Residual LemkeSolver::ExtractSolution(const MatrixRef& M, const VectorRef& q, VectorXd* z) {
  const Eigen::Index n = n_;
  z->setZero();
  for (Eigen::Index i = 0; i < n; ++i) {
    if (basis_[i] >= n) (*z)(basis_[i] - n) = std::max(0.0, b_(i));
  }
  const Residual tableau = ComputeResidual(M, q, *z);
  if (tableau.finite && tableau.Worst() <= options_.restore_above) return tableau;
  x_ = *z;
  if (!RestoreFromBasis(M, q, z)) {
    *z = x_;
    return tableau;
  }
  const Residual restored = ComputeResidual(M, q, *z);
  if (restored.Worst() <= tableau.Worst()) return restored;
  *z = x_;
  return tableau;
}

// The final basis is complementary: with Z the k indices whose z is basic, w_i = 0 for i in Z,
// so z_Z solves M_ZZ z_Z = -q_Z (and z = 0 elsewhere). LU with partial pivoting of M_ZZ, one
// step of iterative refinement (r = -q_Z - M_ZZ z_Z, z_Z += M_ZZ^-1 r). False if M_ZZ is
// singular to working precision (z is then left as it was).
bool LemkeSolver::RestoreFromBasis(const MatrixRef& M, const VectorRef& q, VectorXd* z) {
  const Eigen::Index n = n_;
  int k = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (basis_[i] >= n && basis_[i] < 2 * n) basic_[k++] = basis_[i] - static_cast<int>(n);
  }
  if (k == 0) return false;
  double* a = lu_.data();  // k x k, column-major with leading dimension n
  for (int c = 0; c < k; ++c) {
    for (int r = 0; r < k; ++r) a[r + c * n] = M(basic_[r], basic_[c]);
  }
  if (!internal::FactorLu(a, k, static_cast<int>(n), pivot_row_.data())) return false;
  double* x = u_.data();  // the ratio-test workspaces are free once the path has ended
  double* res = u_scale_.data();
  for (int r = 0; r < k; ++r) x[r] = -q(basic_[r]);
  LuSolve(k, x);
  for (int r = 0; r < k; ++r) {  // refinement: res = -q_Z - M_ZZ x
    double s = -q(basic_[r]);
    for (int c = 0; c < k; ++c) s -= M(basic_[r], basic_[c]) * x[c];
    res[r] = s;
  }
  LuSolve(k, res);
  for (int r = 0; r < k; ++r) x[r] += res[r];
  for (int r = 0; r < k; ++r) {
    if (!std::isfinite(x[r])) return false;
  }
  z->setZero();
  for (int r = 0; r < k; ++r) (*z)(basic_[r]) = std::max(0.0, x[r]);
  return true;
}

// Solves (LU) y = x in place with the factors and row swaps RestoreFromBasis left in lu_.
void LemkeSolver::LuSolve(int k, double* x) const {
  internal::SolveLu(lu_.data(), k, static_cast<int>(n_), pivot_row_.data(), x);
}

SolveInfo LemkeSolver::DoSolve(const MatrixRef& M,
                               const VectorRef& q,
                               VectorXd* z,
                               InputCheck check) {
  if (check == InputCheck::kValidate) ValidateProblem(M, q);
  IMPACTSET_ASSERT(M.rows() == q.size() && M.cols() == q.size() && q.size() > 0);
  Resize(q.size());
  if (custom_covering_) SetDefaultCovering();
  return SolvePrepared(M, q, z);
}

SolveInfo LemkeSolver::SolveWithCovering(const MatrixRef& M,
                                         const VectorRef& q,
                                         const VectorRef& covering,
                                         VectorXd* z,
                                         const std::vector<int>* lex_order,
                                         InputCheck check) {
  if (check == InputCheck::kValidate) ValidateCovering(M, q, covering, lex_order);
  IMPACTSET_ASSERT(M.rows() == q.size() && M.cols() == q.size() && covering.size() == q.size());
  IMPACTSET_ASSERT(!lex_order || static_cast<Eigen::Index>(lex_order->size()) == q.size());
  Resize(q.size());
  if (lex_order) {
    lex_order_ = *lex_order;
  } else {
    SetNaturalOrder();  // not the order of an earlier call
  }
  d_.head(q.size()) = covering;  // rows n.. stay 0 (see SetDefaultCovering)
  custom_covering_ = true;
  return SolvePrepared(M, q, z);
}

void LemkeSolver::ValidateCovering(const MatrixRef& M,
                                   const VectorRef& q,
                                   const VectorRef& covering,
                                   const std::vector<int>* lex_order) {
  ValidateProblem(M, q);
  if (covering.size() != q.size()) {
    InvalidArgument("covering.size()", covering.size(),
                    "must equal n = " + std::to_string(q.size()));
  }
  if (!(covering.minCoeff() > 0) || !covering.allFinite()) {
    InvalidArgument("covering", covering.transpose(), "entries must be finite and > 0");
  }
  if (!lex_order) return;
  seen_.assign(q.size(), 0);  // no allocation after the first solve at this n
  bool ok = static_cast<Eigen::Index>(lex_order->size()) == q.size();
  for (size_t i = 0; ok && i < lex_order->size(); ++i) {
    const int k = (*lex_order)[i];
    ok = k >= 0 && k < q.size() && !seen_[k];
    if (ok) seen_[k] = 1;
  }
  if (!ok) InvalidArgument("lex_order", "(given)", "must be a permutation of 0..n-1");
}

SolveInfo LemkeSolver::SolvePrepared(const MatrixRef& M, const VectorRef& q, VectorXd* z) {
  const Eigen::Index n = q.size();
  z->resize(n);
  SolveInfo info;
  info.solver = id();
  info.attempts = 1;
  double qmin = 0, qmax = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    qmin = std::min(qmin, q(i));
    qmax = std::max(qmax, std::abs(q(i)));
  }
  complementary_end_ = false;
  if (qmin >= 0) {  // trivial solution z = 0
    for (Eigen::Index i = 0; i < n; ++i) basis_[i] = static_cast<int>(i);
    complementary_end_ = true;
    z->setZero();
    info.status = Status::kSolved;
    info.residual = ComputeResidual(M, q, *z);
    info.message = "trivial solution: q >= 0";
    return info;
  }
  b_scale_ = qmax;
  for (Eigen::Index i = 0; i < n; ++i) basis_[i] = static_cast<int>(i);
  const PathEnd end = FollowPath(M, q, &info.pivots);
  if (end == PathEnd::kSolution) {
    info.residual = ExtractSolution(M, q, z);
    info.status = IsSolution(info.residual, options_.accept_tolerance) ? Status::kSolved
                                                                       : Status::kResidualTooLarge;
    complementary_end_ = info.ok();
    // string_view literals: a ternary of plain literals would cost a strlen per solve.
    using namespace std::literals;
    info.message =
        info.ok() ? "z0 left the basis"sv : "z0 left the basis but residual check failed"sv;
    return info;
  }
  if (end == PathEnd::kMaxPivots) {
    info.status = Status::kMaxPivots;
    info.message = "pivot cap reached";
  } else {
    info.status = Status::kRayTermination;
    info.message = "secondary ray: no row blocks the entering column";
  }
  // Report the current basic z (not a solution) with its honest residual.
  z->setZero();
  for (Eigen::Index i = 0; i < n; ++i) {
    if (basis_[i] >= n && basis_[i] < 2 * n) (*z)(basis_[i] - n) = b_(i);
  }
  info.residual = ComputeResidual(M, q, *z);
  // On degenerate problems the path can reach a basis whose iterate already solves the LCP
  // (z0 ~ 0 but still basic) and then hit a ray; the residual decides, as for every answer.
  if (IsSolution(info.residual, options_.accept_tolerance)) {
    info.status = Status::kSolved;
    info.message = "path ended early but its iterate passes the residual check";
  }
  return info;
}

bool LemkeSolver::FinalBasis(std::vector<int>* z_basic) const {
  if (!complementary_end_) return false;
  z_basic->clear();
  for (Eigen::Index i = 0; i < n_; ++i) {
    if (basis_[i] >= n_) z_basic->push_back(basis_[i] - static_cast<int>(n_));
  }
  std::sort(z_basic->begin(), z_basic->end());
  return true;
}

}  // namespace impactset::lcp
