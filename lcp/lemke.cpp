#include "lcp/lemke.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "common/error_policy.hpp"
#include "lcp/problem.hpp"

namespace impactset::lcp {

void LemkeOptions::Validate() const {
  if (max_pivots < 1) InvalidArgument("LemkeOptions.max_pivots", max_pivots, "must be >= 1");
  if (!(zero_tolerance > 0 && zero_tolerance <= 1e-3)) {
    InvalidArgument("LemkeOptions.zero_tolerance", zero_tolerance, "must lie in (0, 1e-3]");
  }
  if (!(tie_tolerance >= 0 && tie_tolerance <= 1e-3)) {
    InvalidArgument("LemkeOptions.tie_tolerance", tie_tolerance, "must lie in [0, 1e-3]");
  }
  if (!(covering_perturbation >= 0 && covering_perturbation <= 10)) {
    InvalidArgument("LemkeOptions.covering_perturbation", covering_perturbation,
                    "must lie in [0, 10]");
  }
  if (!(accept_tolerance > 0)) {
    InvalidArgument("LemkeOptions.accept_tolerance", accept_tolerance, "must be > 0");
  }
}

LemkeSolver::LemkeSolver(const LemkeOptions& options) : options_(options) { options_.Validate(); }

void LemkeSolver::Resize(Eigen::Index n) {
  if (n == n_) return;
  n_ = n;
  binv_.setIdentity(n, n);
  touched_.assign(n, 0);
  active_.clear();
  active_.reserve(n);
  b_.resize(n);
  u_.resize(n);
  u_scale_.resize(n);
  basis_.assign(n, 0);
  basis_matrix_.resize(n, n);
  lu_ = Eigen::PartialPivLU<MatrixXd>(n);
  x_.resize(n);
  ratio_.resize(n);
  tied_.reserve(n);
  SetDefaultCovering();
}

// Covering vector d_i = 1 + c * frac(i * golden ratio): c = 0 is the classical d = 1; c > 0
// gives a different, still positive, path through the same problem.
void LemkeSolver::SetDefaultCovering() {
  lex_order_.resize(n_);
  for (Eigen::Index i = 0; i < n_; ++i) lex_order_[i] = static_cast<int>(i);
  d_.resize(n_);
  for (Eigen::Index i = 0; i < n_; ++i) {
    const double g = static_cast<double>(i) * 0.6180339887498949;
    d_(i) = 1.0 + options_.covering_perturbation * (g - std::floor(g));
  }
  custom_covering_ = false;
}

// u = B^-1 a for the tableau column a of variable var in [I, -M, -d]. B^-1 differs from the
// identity only in the columns of rows pivoted on so far (active_), because every pivot's eta
// matrix differs from I only in its pivot column; so u = a + sum_{c in active} (B^-1 e_c - e_c) a_c
// costs n |active| instead of n^2 (a few pivots on n = 10..25 step LCPs).
void LemkeSolver::ComputeColumn(const MatrixRef& M, int var) {
  const Eigen::Index n = n_;
  double* __restrict u = u_.data();
  double* __restrict us = u_scale_.data();
  if (var < n) {  // w_var: a = e_var, u = column var of B^-1
    const double* col = binv_.col(var).data();
    for (Eigen::Index i = 0; i < n; ++i) {
      u[i] = col[i];
      us[i] = std::abs(col[i]);
    }
    return;
  }
  const double* a = var < 2 * n ? M.col(var - n).data() : d_.data();  // a = -(this column)
  for (Eigen::Index i = 0; i < n; ++i) {
    u[i] = -a[i];
    us[i] = std::abs(a[i]);
  }
  for (int c : active_) {
    const double ac = -a[c];
    if (ac == 0.0) continue;
    const double* col = binv_.col(c).data();
    for (Eigen::Index i = 0; i < n; ++i) {
      u[i] += col[i] * ac;
      us[i] += std::abs(col[i] * ac);
    }
    u[c] -= ac;
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
int LemkeSolver::RatioTest(bool initial) {
  const double tol = options_.tie_tolerance;
  const double snap = tol * b_scale_;
  const double zt = options_.zero_tolerance;
  const double* __restrict b = b_.data();
  const double* __restrict den = initial ? d_.data() : u_.data();
  const double* __restrict us = u_scale_.data();
  double* __restrict ratio = ratio_.data();
  double best = std::numeric_limits<double>::infinity();
  tied_.clear();
  // A pivot entry counts only above roundoff: relative to the magnitudes that cancelled into it,
  // and never below 1e-2 * zero_tolerance of the column's largest entry, because a
  // row whose own products are all tiny can cancel to 1e-16 "relative" to nothing.
  double umax = 0;
  if (!initial) {
    for (Eigen::Index i = 0; i < n_; ++i) umax = std::max(umax, std::abs(den[i]));
  }
  const double floor = 1e-2 * zt * umax;
  for (Eigen::Index i = 0; i < n_; ++i) {
    // NaN marks a row that does not block; NaN compares false in the tie test below.
    const bool blocks = initial || (den[i] > zt * us[i] && den[i] > floor);
    const double bi = std::abs(b[i]) <= snap ? 0.0 : b[i];
    ratio[i] = blocks ? bi / den[i] : std::numeric_limits<double>::quiet_NaN();
    if (blocks && ratio[i] < best) best = ratio[i];
  }
  const double reach = best + tol * std::abs(best);
  for (Eigen::Index i = 0; i < n_; ++i) {
    if (ratio[i] <= reach) tied_.push_back(static_cast<int>(i));
  }
  if (tied_.size() <= 1) return tied_.empty() ? -1 : tied_[0];
  if (!initial) {
    for (int i : tied_) {
      if (basis_[i] == 2 * n_) return i;
    }
  }
  for (Eigen::Index kk = 0; kk < n_ && tied_.size() > 1; ++kk) {
    const Eigen::Index k = lex_order_[kk];
    double kbest = std::numeric_limits<double>::infinity();
    for (int i : tied_) kbest = std::min(kbest, binv_(i, k) / (initial ? d_(i) : u_(i)));
    size_t kept = 0;
    for (int i : tied_) {
      const double key = binv_(i, k) / (initial ? d_(i) : u_(i));
      if (key - kbest <= tol * std::max(std::abs(key), std::abs(kbest))) tied_[kept++] = i;
    }
    tied_.resize(kept);
  }
  return tied_[0];  // rows of B^-1 are independent: more than one left only through roundoff
}

// B^-1 <- E B^-1 and b <- E b for the eta matrix E of pivot row r (x_r /= u_r, x_i -= u_i x_r).
// Only B^-1's non-identity columns and column r change (see ComputeColumn).
void LemkeSolver::Pivot(int r) {
  const Eigen::Index n = n_;
  const double* __restrict u = u_.data();
  const double inv = 1.0 / u[r];
  auto apply = [&](double* __restrict x) {
    const double t = x[r] * inv;
    if (t != 0.0) {
      for (Eigen::Index i = 0; i < n; ++i) x[i] -= u[i] * t;
    }
    x[r] = t;
  };
  if (!touched_[r]) {
    touched_[r] = 1;
    active_.push_back(r);
  }
  for (int c : active_) apply(binv_.col(c).data());
  apply(b_.data());
}

// Reads z off the final tableau (z0 is non-basic). Only if that fails the residual check is
// B x = q re-solved by LU from the basis columns, removing the drift of the product-form
// updates; the better of the two is kept. Returns the residual of the z written.
Residual LemkeSolver::ExtractSolution(const MatrixRef& M, const VectorRef& q, VectorXd* z) {
  const Eigen::Index n = n_;
  auto fill = [&](const VectorXd& vals) {
    z->setZero();
    for (Eigen::Index i = 0; i < n; ++i) {
      if (basis_[i] >= n) (*z)(basis_[i] - n) = std::max(0.0, vals(i));
    }
  };
  fill(b_);
  const Residual tableau = ComputeResidual(M, q, *z);
  if (IsSolution(tableau, options_.accept_tolerance)) return tableau;
  for (Eigen::Index i = 0; i < n; ++i) {
    const int v = basis_[i];
    if (v < n) {
      basis_matrix_.col(i).setZero();
      basis_matrix_(v, i) = 1.0;
    } else {
      basis_matrix_.col(i) = -M.col(v - n);
    }
  }
  lu_.compute(basis_matrix_);
  x_.noalias() = lu_.solve(q);
  fill(x_);
  const Residual refined = ComputeResidual(M, q, *z);
  if (refined.Worst() <= tableau.Worst()) return refined;
  fill(b_);
  return tableau;
}

SolveInfo LemkeSolver::Solve(const MatrixRef& M, const VectorRef& q, VectorXd* z) {
  ValidateProblem(M, q);
  Resize(q.size());
  if (custom_covering_) SetDefaultCovering();
  return SolvePrepared(M, q, z);
}

SolveInfo LemkeSolver::SolveWithCovering(const MatrixRef& M,
                                         const VectorRef& q,
                                         const VectorRef& covering,
                                         VectorXd* z,
                                         const std::vector<int>* lex_order) {
  ValidateProblem(M, q);
  if (covering.size() != q.size()) {
    InvalidArgument("covering.size()", covering.size(),
                    "must equal n = " + std::to_string(q.size()));
  }
  if (!(covering.minCoeff() > 0) || !covering.allFinite()) {
    InvalidArgument("covering", covering.transpose(), "entries must be finite and > 0");
  }
  Resize(q.size());
  if (lex_order) {
    seen_.assign(q.size(), 0);  // no allocation after the first solve at this n
    bool ok = static_cast<Eigen::Index>(lex_order->size()) == q.size();
    for (size_t i = 0; ok && i < lex_order->size(); ++i) {
      const int k = (*lex_order)[i];
      ok = k >= 0 && k < q.size() && !seen_[k];
      if (ok) seen_[k] = 1;
    }
    if (!ok) InvalidArgument("lex_order", "(given)", "must be a permutation of 0..n-1");
    lex_order_ = *lex_order;
  }
  d_ = covering;
  custom_covering_ = true;
  return SolvePrepared(M, q, z);
}

SolveInfo LemkeSolver::SolvePrepared(const MatrixRef& M, const VectorRef& q, VectorXd* z) {
  const Eigen::Index n = q.size();
  z->resize(n);
  z->setZero();
  SolveInfo info;
  info.solver = id();
  info.attempts = 1;
  if (q.minCoeff() >= 0) {  // trivial solution z = 0
    info.status = Status::kSolved;
    info.residual = ComputeResidual(M, q, *z);
    info.message = "trivial solution: q >= 0";
    return info;
  }
  for (int c : active_) {  // back to B^-1 = I touching only what the last solve changed
    binv_.col(c).setZero();
    binv_(c, c) = 1.0;
    touched_[c] = 0;
  }
  active_.clear();
  b_ = q;
  b_scale_ = q.cwiseAbs().maxCoeff();
  for (Eigen::Index i = 0; i < n; ++i) basis_[i] = static_cast<int>(i);
  const int z0 = static_cast<int>(2 * n);

  // Initial pivot: z0 enters at the lexicographically smallest row of [q, I] / d.
  ComputeColumn(M, z0);
  int r = RatioTest(/*initial=*/true);
  int entering = z0;
  for (;;) {
    Pivot(r);
    const int leaving = basis_[r];
    basis_[r] = entering;
    if (leaving == z0) {
      info.residual = ExtractSolution(M, q, z);
      info.status = IsSolution(info.residual, options_.accept_tolerance)
                        ? Status::kSolved
                        : Status::kResidualTooLarge;
      // string_view literals: a ternary of plain literals would cost a strlen per solve.
      using namespace std::literals;
      info.message =
          info.ok() ? "z0 left the basis"sv : "z0 left the basis but residual check failed"sv;
      return info;
    }
    if (info.pivots >= options_.max_pivots) {
      info.status = Status::kMaxPivots;
      info.message = "pivot cap reached";
      break;
    }
    entering = leaving < n ? leaving + static_cast<int>(n) : leaving - static_cast<int>(n);
    ComputeColumn(M, entering);
    r = RatioTest(/*initial=*/false);
    if (r < 0) {
      info.status = Status::kRayTermination;
      info.message = "secondary ray: no row blocks the entering column";
      break;
    }
    ++info.pivots;
  }
  // Report the current basic z (not a solution) with its honest residual.
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

}  // namespace impactset::lcp
