#include "lcp/lemke.hpp"

#include <algorithm>
#include <cmath>

#include "lcp/error_policy.hpp"
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
  binv_.resize(n, n);
  b_.resize(n);
  u_.resize(n);
  u_scale_.resize(n);
  basis_.assign(n, 0);
  basis_matrix_.resize(n, n);
  lu_ = Eigen::PartialPivLU<MatrixXd>(n);
  x_.resize(n);
  // Covering vector d_i = 1 + c * frac(i * golden ratio): c = 0 is the classical d = 1; c > 0
  // gives a different, still positive, path through the same problem.
  d_.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double g = static_cast<double>(i) * 0.6180339887498949;
    d_(i) = 1.0 + options_.covering_perturbation * (g - std::floor(g));
  }
}

// u = B^-1 a for the tableau column a of variable var in [I, -M, -d].
void LemkeSolver::ComputeColumn(const MatrixRef& M, int var) {
  const Eigen::Index n = n_;
  if (var < n) {
    u_ = binv_.col(var);
    u_scale_ = u_.cwiseAbs();
  } else if (var < 2 * n) {
    u_.noalias() = -binv_ * M.col(var - n);
    u_scale_.noalias() = binv_.cwiseAbs() * M.col(var - n).cwiseAbs();
  } else {
    u_.noalias() = -binv_ * d_;
    u_scale_.noalias() = binv_.cwiseAbs() * d_;
  }
}

// Basic value used by the ratio test: values within tie_tolerance * ||q||_inf of zero are zero.
// Step LCPs carry D v entries of +-1e-16 that are exact zeros in exact arithmetic, and roundoff
// leaves -1e-17 where theory says b >= 0; both must count as the degenerate ties they are, so
// that the lexicographic rule (not noise) decides.
double LemkeSolver::Snapped(int i) const {
  return std::abs(b_(i)) <= options_.tie_tolerance * b_scale_ ? 0.0 : b_(i);
}

// Is row i lexicographically smaller than row j in the ratio test? Keys are
// [b, B^-1 row] / u (initial pivot: divided by d = 1 instead, b holds q).
bool LemkeSolver::LexLess(int i, int j, bool initial) const {
  const double ui = initial ? d_(i) : u_(i);
  const double uj = initial ? d_(j) : u_(j);
  if (!RatioTied(i, j, initial)) return Snapped(i) / ui < Snapped(j) / uj;
  const double tol = options_.tie_tolerance;
  for (Eigen::Index k = 0; k < n_; ++k) {
    const double a = binv_(i, k) / ui, c = binv_(j, k) / uj;
    if (std::abs(a - c) > tol * std::max(std::abs(a), std::abs(c))) return a < c;
  }
  return i < j;  // rows of B^-1 are independent, so this is reached only through roundoff
}

bool LemkeSolver::RatioTied(int i, int j, bool initial) const {
  const double ri = Snapped(i) / (initial ? d_(i) : u_(i));
  const double rj = Snapped(j) / (initial ? d_(j) : u_(j));
  return std::abs(ri - rj) <= options_.tie_tolerance * std::max(std::abs(ri), std::abs(rj));
}

// Returns the leaving row, or -1 if no row blocks the entering column (ray). When the artificial
// z0 ties for the minimum ratio it leaves: that ends the path at once on a solution (degenerate
// z0 = 0), where the lexicographic order could wander on and end on a ray.
int LemkeSolver::RatioTest(bool initial) const {
  int best = -1;
  for (Eigen::Index i = 0; i < n_; ++i) {
    if (!initial && !(u_(i) > options_.zero_tolerance * u_scale_(i))) continue;
    if (best < 0 || LexLess(static_cast<int>(i), best, initial)) best = static_cast<int>(i);
  }
  if (initial || best < 0 || basis_[best] == 2 * n_) return best;
  for (Eigen::Index i = 0; i < n_; ++i) {
    if (basis_[i] != 2 * n_) continue;
    if (u_(i) > options_.zero_tolerance * u_scale_(i) && RatioTied(static_cast<int>(i), best, false)) {
      return static_cast<int>(i);
    }
    break;
  }
  return best;
}

void LemkeSolver::Pivot(int r) {
  const double piv = u_(r);
  binv_.row(r) /= piv;
  b_(r) /= piv;
  for (Eigen::Index i = 0; i < n_; ++i) {
    if (i == r) continue;
    const double f = u_(i);
    if (f == 0.0) continue;
    binv_.row(i) -= f * binv_.row(r);
    b_(i) -= f * b_(r);
  }
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
  const Eigen::Index n = q.size();
  Resize(n);
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
  binv_.setIdentity();
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
      info.status = IsSolution(info.residual, options_.accept_tolerance) ? Status::kSolved
                                                                          : Status::kResidualTooLarge;
      info.message = info.ok() ? "z0 left the basis" : "z0 left the basis but residual check failed";
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
