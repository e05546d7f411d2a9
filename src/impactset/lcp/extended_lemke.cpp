#include <impactset/lcp/extended_lemke.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <impactset/common/error_policy.hpp>
#include <impactset/lcp/internal/dense_lu.hpp>
#include <impactset/lcp/internal/equilibrate.hpp>
#include <impactset/lcp/internal/later_link.hpp>
#include <impactset/lcp/problem.hpp>

namespace impactset::lcp {

namespace {

using Real = long double;

// Tolerances relative to long double's 1.1e-19 unit roundoff: about 1e4 units, the margin the
// native Lemke's 1e-11 gives double. A pivot entry counts as positive above kZero times the
// magnitudes that cancelled into it (and kZero times the column's largest entry); basic values
// within kZero of ||q||_inf are degenerate zeros; ratios within kTie tie.
constexpr Real kZero = 1e-15L;
constexpr Real kTie = 1e-15L;

using internal::FactorLu;
using internal::SolveLu;

}  // namespace

void ExtendedLemkeOptions::Validate() const {
  if (max_pivots < 1)
    InvalidArgument("ExtendedLemkeOptions.max_pivots", max_pivots, "must be >= 1");
  if (refactor_every < 1) {
    InvalidArgument("ExtendedLemkeOptions.refactor_every", refactor_every, "must be >= 1");
  }
  if (covering_perturbations.empty()) {
    InvalidArgument("ExtendedLemkeOptions.covering_perturbations", "(empty)",
                    "must hold at least one value");
  }
  for (size_t i = 0; i < covering_perturbations.size(); ++i) {
    const double c = covering_perturbations[i];
    if (!(c >= 0 && c <= 10)) {
      InvalidArgument("ExtendedLemkeOptions.covering_perturbations[" + std::to_string(i) + "]", c,
                      "must lie in [0, 10]");
    }
  }
  if (!(accept_tolerance > 0)) {
    InvalidArgument("ExtendedLemkeOptions.accept_tolerance", accept_tolerance, "must be > 0");
  }
}

ExtendedLemkeSolver::ExtendedLemkeSolver(const ExtendedLemkeOptions& options) : options_(options) {
  options_.Validate();
}

// Ruiz equilibration by powers of two (internal/equilibrate.hpp); scale = false
// keeps the caller's M.
void ExtendedLemkeSolver::Equilibrate(const MatrixRef& M, const VectorRef& q, bool scale) {
  const int n = n_;
  m_.assign(static_cast<size_t>(n) * n, 0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) m_[i + j * n] = M(i, j);
  row_scale_.resize(n);
  col_scale_.resize(n);
  internal::EquilibrateByPowersOfTwo(m_.data(), n, scale ? internal::kRuizSweeps : 0,
                                     row_scale_.data(), col_scale_.data());
  q_.resize(n);
  q_scale_ = 0;
  for (int i = 0; i < n; ++i) {
    q_[i] = row_scale_[i] * static_cast<Real>(q(i));
    q_scale_ = std::max(q_scale_, std::abs(q_[i]));
  }
}

// Entry `row` of the tableau column of variable var in [I, -M, -d] (w_j = j, z_j = n + j,
// z0 = 2n).
ExtendedLemkeSolver::Real ExtendedLemkeSolver::A(int var, int row) const {
  const int n = n_;
  if (var < n) return var == row ? 1 : 0;
  if (var < 2 * n) return -m_[row + static_cast<size_t>(var - n) * n];
  return -d_[row];
}

void ExtendedLemkeSolver::Column(int var) {
  const int n = n_;
  for (int i = 0; i < n; ++i) u_[i] = us_[i] = 0;
  for (int c = 0; c < n; ++c) {
    const Real a = A(var, c);
    if (a == 0) continue;
    const Real* col = &binv_[static_cast<size_t>(c) * n];
    for (int i = 0; i < n; ++i) {
      u_[i] += col[i] * a;
      us_[i] += std::abs(col[i] * a);
    }
  }
}

// Lexicographic minimum-ratio test on the rows of [b, B^-1] / u over the blocking rows (initial:
// all rows, divided by d). Among tied rows z0's leaves first. -1 when no row blocks.
int ExtendedLemkeSolver::RatioTest(bool initial) {
  const int n = n_;
  const Real* den = initial ? d_.data() : u_.data();
  Real umax = 0;
  for (int i = 0; i < n; ++i) umax = std::max(umax, std::abs(den[i]));
  constexpr Real kInf = std::numeric_limits<Real>::infinity();
  Real best = kInf;
  work_.assign(n, kInf);  // ratio per row, +inf when the row does not block
  for (int i = 0; i < n; ++i) {
    if (!initial && !(den[i] > kZero * us_[i] && den[i] > kZero * umax)) continue;
    const Real bi = std::abs(b_[i]) <= kZero * q_scale_ ? 0 : b_[i];
    work_[i] = bi / den[i];
    best = std::min(best, work_[i]);
  }
  if (best == kInf) return -1;
  std::vector<int>& tied = perm_;  // free outside refactorisation
  tied.clear();
  for (int i = 0; i < n; ++i) {
    if (work_[i] <= best + kTie * std::abs(best)) tied.push_back(i);
  }
  if (!initial) {
    for (int r : tied) {
      if (basis_[r] == 2 * n) return r;
    }
  }
  for (int k = 0; k < n && tied.size() > 1; ++k) {
    const Real* col = &binv_[static_cast<size_t>(k) * n];
    Real kbest = kInf;
    for (int r : tied) kbest = std::min(kbest, col[r] / den[r]);
    size_t kept = 0;
    for (int r : tied) {
      const Real key = col[r] / den[r];
      if (key - kbest <= kTie * std::max(std::abs(key), std::abs(kbest))) tied[kept++] = r;
    }
    tied.resize(kept);
  }
  return tied[0];
}

void ExtendedLemkeSolver::Pivot(int r) {
  const int n = n_;
  const Real inv = 1 / u_[r];
  auto apply = [&](Real* x) {
    const Real t = x[r] * inv;
    if (t != 0) {
      for (int i = 0; i < n; ++i) x[i] -= u_[i] * t;
    }
    x[r] = t;
  };
  for (int c = 0; c < n; ++c) apply(&binv_[static_cast<size_t>(c) * n]);
  apply(b_.data());
}

// B^-1 from the basis columns by LU (B^-1 = B \ I) and b = B^-1 q; false (nothing changed) when
// B is singular to working precision.
bool ExtendedLemkeSolver::Refactorise() {
  const int n = n_;
  lu_.resize(static_cast<size_t>(n) * n);
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < n; ++r) lu_[r + static_cast<size_t>(c) * n] = A(basis_[c], r);
  perm_.resize(n);
  if (!FactorLu(lu_.data(), n, n, perm_.data())) return false;
  for (int c = 0; c < n; ++c) {
    Real* col = &binv_[static_cast<size_t>(c) * n];
    std::fill(col, col + n, Real{0});
    col[c] = 1;
    SolveLu(lu_.data(), n, n, perm_.data(), col);
  }
  for (int i = 0; i < n; ++i) b_[i] = q_[i];
  SolveLu(lu_.data(), n, n, perm_.data(), b_.data());
  return true;
}

ExtendedLemkeSolver::PathEnd ExtendedLemkeSolver::FollowPath(double perturbation, int* pivots) {
  const int n = n_, z0 = 2 * n;
  d_.resize(n);
  for (int i = 0; i < n; ++i) {
    const double g = static_cast<double>(i) * 0.6180339887498949;
    d_[i] = 1 + perturbation * (g - std::floor(g));
  }
  binv_.assign(static_cast<size_t>(n) * n, 0);
  for (int i = 0; i < n; ++i) binv_[i + static_cast<size_t>(i) * n] = 1;
  b_ = q_;
  u_.assign(n, 0);
  us_.assign(n, 0);
  basis_.resize(n);
  for (int i = 0; i < n; ++i) basis_[i] = i;
  Column(z0);
  int r = RatioTest(/*initial=*/true);
  int entering = z0;
  for (int since = 1;; ++since) {
    Pivot(r);
    const int leaving = basis_[r];
    basis_[r] = entering;
    if (leaving == z0) return PathEnd::kSolution;
    if (since > options_.max_pivots) return PathEnd::kMaxPivots;  // this path's, not the total
    if (since % options_.refactor_every == 0) Refactorise();
    entering = leaving < n ? leaving + n : leaving - n;
    Column(entering);
    r = RatioTest(/*initial=*/false);
    if (r < 0) return PathEnd::kRay;
    ++*pivots;
  }
}

// y with M_ZZ y_Z = -q_Z for the basic z's Z of the final basis (LU, two refinement steps in long
// double), y = 0 elsewhere; false when M_ZZ is singular.
bool ExtendedLemkeSolver::SolveBasis(std::vector<Real>* y) {
  const int n = n_;
  std::vector<int> Z;
  for (int i = 0; i < n; ++i) {
    if (basis_[i] >= n && basis_[i] < 2 * n) Z.push_back(basis_[i] - n);
  }
  y->assign(n, 0);
  const int k = static_cast<int>(Z.size());
  if (k == 0) return true;
  lu_.resize(static_cast<size_t>(k) * k);
  for (int c = 0; c < k; ++c)
    for (int r = 0; r < k; ++r) lu_[r + static_cast<size_t>(c) * k] = m_[Z[r] + Z[c] * n];
  perm_.resize(k);
  if (!FactorLu(lu_.data(), k, k, perm_.data())) return false;
  std::vector<Real> x(k), res(k);
  for (int r = 0; r < k; ++r) x[r] = -q_[Z[r]];
  SolveLu(lu_.data(), k, k, perm_.data(), x.data());
  for (int step = 0; step < 2; ++step) {
    for (int r = 0; r < k; ++r) {
      Real s = -q_[Z[r]];
      for (int c = 0; c < k; ++c) s -= m_[Z[r] + Z[c] * n] * x[c];
      res[r] = s;
    }
    SolveLu(lu_.data(), k, k, perm_.data(), res.data());
    for (int r = 0; r < k; ++r) x[r] += res[r];
  }
  for (int r = 0; r < k; ++r) {
    if (!std::isfinite(static_cast<double>(x[r]))) return false;
    (*y)[Z[r]] = x[r];
  }
  return true;
}

// The native Lemke in double on the equilibrated LCP: powers of two scale exactly, so the
// scaled LCP has exactly the solutions C^-1 z; its pivot tests then see entries near 1.
bool ExtendedLemkeSolver::SolveScaledInDouble(
    const MatrixRef& M, const VectorRef& q, SolveInfo* info, VectorXd* z, double* best) {
  const int n = n_;
  scaled_m_.resize(n, n);
  scaled_q_.resize(n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) scaled_m_(i, j) = static_cast<double>(m_[i + j * n]);
  for (int i = 0; i < n; ++i) scaled_q_(i) = static_cast<double>(q_[i]);
  VectorXd y;
  const SolveInfo si = scaled_native_.Solve(scaled_m_, scaled_q_, &y, InputCheck::kCallerValidated);
  info->pivots += si.pivots;
  if (y.size() != n) return false;
  VectorXd candidate(n);
  for (int j = 0; j < n; ++j)
    candidate(j) = std::max(0.0, static_cast<double>(col_scale_[j]) * y(j));
  return internal::OfferCandidate(M, q, candidate, options_.accept_tolerance,
                                  "extended Lemke: solved in double on the equilibrated LCP", info,
                                  z, best);
}

// Every covering vector's path on the LCP as Equilibrate last left it, each end read twice:
// re-solved from M_ZZ (a solution path) and the tableau's b.
bool ExtendedLemkeSolver::FollowPaths(const MatrixRef& M,
                                      const VectorRef& q,
                                      const char* pass,
                                      SolveInfo* info,
                                      VectorXd* z,
                                      double* best) {
  const int n = n_;
  VectorXd candidate(n);
  std::vector<Real> y;
  for (double c : options_.covering_perturbations) {
    const PathEnd end = FollowPath(c, &info->pivots);
    if (end == PathEnd::kMaxPivots) info->status = Status::kMaxPivots;
    for (int reading = 0; reading < 2; ++reading) {
      if (reading == 0 && (end != PathEnd::kSolution || !SolveBasis(&y))) continue;
      if (reading == 1) {
        y.assign(n, 0);
        for (int i = 0; i < n; ++i) {
          if (basis_[i] >= n && basis_[i] < 2 * n) y[basis_[i] - n] = b_[i];
        }
      }
      for (int j = 0; j < n; ++j)
        candidate(j) = static_cast<double>(std::max(Real{0}, col_scale_[j] * y[j]));
      if (internal::OfferCandidate(M, q, candidate, options_.accept_tolerance, pass, info, z,
                                   best)) {
        return true;
      }
    }
  }
  return false;
}

SolveInfo ExtendedLemkeSolver::DoSolve(const MatrixRef& M,
                                       const VectorRef& q,
                                       VectorXd* z,
                                       InputCheck check) {
  if (check == InputCheck::kValidate) ValidateProblem(M, q);
  IMPACTSET_ASSERT(M.rows() == q.size() && M.cols() == q.size() && q.size() > 0);
  n_ = static_cast<int>(q.size());
  bool trivial = false;
  SolveInfo info = internal::StartLinkSolve(SolverId::kExtended, Status::kRayTermination,
                                            "extended Lemke: no path ended on an accepted solution",
                                            M, q, z, &trivial);
  if (trivial) return info;
  // Cheapest first: double on the equilibrated LCP, then long double on it, then long double
  // on the caller's scaling. On the random family each solves step LCPs the others do not
  // (docs/robustness.md).
  double best = std::numeric_limits<double>::infinity();
  if (options_.equilibrate) {
    Equilibrate(M, q, /*scale=*/true);
    if (SolveScaledInDouble(M, q, &info, z, &best) ||
        FollowPaths(M, q, "extended Lemke: solved in long double on the equilibrated LCP", &info, z,
                    &best)) {
      return info;
    }
  }
  Equilibrate(M, q, /*scale=*/false);
  if (FollowPaths(M, q, "extended Lemke: solved in long double on the LCP as given", &info, z,
                  &best)) {
    return info;
  }
  if (std::isfinite(best) && info.status != Status::kMaxPivots) {
    info.status = Status::kResidualTooLarge;
  }
  return info;
}

}  // namespace impactset::lcp
