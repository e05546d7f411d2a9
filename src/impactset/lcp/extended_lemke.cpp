#include <impactset/lcp/extended_lemke.hpp>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include <impactset/common/error_policy.hpp>
#include <impactset/lcp/internal/covering.hpp>
#include <impactset/lcp/internal/dense_lu.hpp>
#include <impactset/lcp/internal/equilibrate.hpp>
#include <impactset/lcp/internal/later_link.hpp>
#include <impactset/lcp/problem.hpp>

namespace impactset::lcp {

// Named, not anonymous: ExtendedLemkeSolver::Paths holds these types.
namespace lexicographic {

using Quad = boost::multiprecision::cpp_bin_float_quad;

// Tolerances of a path in Real. A pivot entry counts as positive above zero times the
// magnitudes that cancelled into it (and zero times the column's largest entry); basic values
// within zero of ||q||_inf are degenerate zeros; ratios within tie tie. Long double: about 1e4
// units of its 1.1e-19 roundoff, the margin the native Lemke's 1e-11 gives double. Quad: 1e-24
// (its roundoff is 9.6e-35), measured on the random family's step LCPs the long-double passes
// lose: 1e-30 to 1e-21 solve 25 to 31 of 38, 1e-24 the most.
template <class Real>
struct PathTolerances;
template <>
struct PathTolerances<long double> {
  static long double Zero() { return 1e-15L; }
};
template <>
struct PathTolerances<Quad> {
  static Quad Zero() { return Quad(1e-24); }
};

using internal::FactorLu;
using internal::SolveLu;

enum class PathEnd { kSolution, kMaxPivots, kRay };

// Lemke's lexicographic method in Real on one LCP (column-major m, q, both exact copies of the
// long-double equilibrated ones), one covering vector per FollowPath.
template <class Real>
class LexicographicPath {
 public:
  void Load(const std::vector<long double>& m, const std::vector<long double>& q, int n);
  PathEnd FollowPath(double perturbation, int max_pivots, int refactor_every, int* pivots);
  // The end's z in Real: re-solved from M_ZZ (reading 0; false when not a solution end or M_ZZ
  // is singular) or the tableau's b (reading 1).
  bool ReadEnd(PathEnd end, int reading, std::vector<Real>* y);

 private:
  void Column(int var);                   // u = B^-1 a_var, us = |B^-1| |a_var|
  int RatioTest(bool initial);            // leaving row, -1 on a ray
  void Pivot(int r);                      // B^-1 and b by the eta matrix of row r
  bool Refactorise();                     // B^-1 and b from the basis columns
  bool SolveBasis(std::vector<Real>* y);  // M_ZZ y_Z = -q_Z for the final basis, refined
  Real A(int var, int row) const;         // entry of the tableau column of var: [I, -M, -d]

  const Real zero_ = PathTolerances<Real>::Zero();
  const Real tie_ = PathTolerances<Real>::Zero();
  int n_ = 0;
  std::vector<Real> m_, q_, d_;                      // M (column-major), q, covering vector
  std::vector<Real> binv_, b_, u_, us_, lu_, work_;  // B^-1 (column-major), B^-1 q, column
  std::vector<int> basis_, perm_;                    // basic variable per row; LU row swaps
  Real q_scale_ = 1;
};

template <class Real>
void LexicographicPath<Real>::Load(const std::vector<long double>& m,
                                   const std::vector<long double>& q,
                                   int n) {
  using std::abs;  // and Boost.Multiprecision's, by argument lookup
  n_ = n;
  m_.assign(m.begin(), m.end());  // exact: every entry is a double times a power of two
  q_.assign(q.begin(), q.end());
  q_scale_ = 0;
  for (const Real& v : q_) q_scale_ = std::max(q_scale_, Real(abs(v)));
}

template <class Real>
bool LexicographicPath<Real>::ReadEnd(PathEnd end, int reading, std::vector<Real>* y) {
  const int n = n_;
  if (reading == 0) return end == PathEnd::kSolution && SolveBasis(y);
  y->assign(n, 0);
  for (int i = 0; i < n; ++i) {
    if (basis_[i] >= n && basis_[i] < 2 * n) (*y)[basis_[i] - n] = b_[i];
  }
  return true;
}

// Entry `row` of the tableau column of variable var in [I, -M, -d] (w_j = j, z_j = n + j,
// z0 = 2n).
template <class Real>
Real LexicographicPath<Real>::A(int var, int row) const {
  const int n = n_;
  if (var < n) return var == row ? 1 : 0;
  if (var < 2 * n) return -m_[row + static_cast<size_t>(var - n) * n];
  return -d_[row];
}

template <class Real>
void LexicographicPath<Real>::Column(int var) {
  using std::abs;  // and Boost.Multiprecision's, by argument lookup
  const int n = n_;
  for (int i = 0; i < n; ++i) u_[i] = us_[i] = 0;
  for (int c = 0; c < n; ++c) {
    const Real a = A(var, c);
    if (a == 0) continue;
    const Real* col = &binv_[static_cast<size_t>(c) * n];
    for (int i = 0; i < n; ++i) {
      u_[i] += col[i] * a;
      us_[i] += abs(col[i] * a);
    }
  }
}

// Lexicographic minimum-ratio test on the rows of [b, B^-1] / u over the blocking rows (initial:
// all rows, divided by d). Among tied rows z0's leaves first. -1 when no row blocks.
template <class Real>
int LexicographicPath<Real>::RatioTest(bool initial) {
  using std::abs;  // and Boost.Multiprecision's, by argument lookup
  const int n = n_;
  const Real* den = initial ? d_.data() : u_.data();
  Real umax = 0;
  for (int i = 0; i < n; ++i) umax = std::max(umax, abs(den[i]));
  const Real kInf = std::numeric_limits<Real>::infinity();
  Real best = kInf;
  work_.assign(n, kInf);  // ratio per row, +inf when the row does not block
  for (int i = 0; i < n; ++i) {
    if (!initial && !(den[i] > zero_ * us_[i] && den[i] > zero_ * umax)) continue;
    const Real bi = abs(b_[i]) <= zero_ * q_scale_ ? 0 : b_[i];
    work_[i] = bi / den[i];
    best = std::min(best, work_[i]);
  }
  if (best == kInf) return -1;
  std::vector<int>& tied = perm_;  // free outside refactorisation
  tied.clear();
  for (int i = 0; i < n; ++i) {
    if (work_[i] <= best + tie_ * abs(best)) tied.push_back(i);
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
      if (key - kbest <= tie_ * std::max(abs(key), abs(kbest))) tied[kept++] = r;
    }
    tied.resize(kept);
  }
  return tied[0];
}

template <class Real>
void LexicographicPath<Real>::Pivot(int r) {
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
template <class Real>
bool LexicographicPath<Real>::Refactorise() {
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

template <class Real>
PathEnd LexicographicPath<Real>::FollowPath(double perturbation,
                                            int max_pivots,
                                            int refactor_every,
                                            int* pivots) {
  const int n = n_, z0 = 2 * n;
  d_.resize(n);
  for (int i = 0; i < n; ++i) d_[i] = internal::PerturbedCovering(i, perturbation);
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
    if (since > max_pivots) return PathEnd::kMaxPivots;  // this path's, not the total
    if (since % refactor_every == 0) Refactorise();
    entering = leaving < n ? leaving + n : leaving - n;
    Column(entering);
    r = RatioTest(/*initial=*/false);
    if (r < 0) return PathEnd::kRay;
    ++*pivots;
  }
}

// y with M_ZZ y_Z = -q_Z for the basic z's Z of the final basis (LU, two refinement steps in long
// double), y = 0 elsewhere; false when M_ZZ is singular.
template <class Real>
bool LexicographicPath<Real>::SolveBasis(std::vector<Real>* y) {
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

}  // namespace lexicographic

using lexicographic::LexicographicPath;
using lexicographic::PathEnd;
using lexicographic::Quad;

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
  auto check_each = [](const std::vector<double>& values, const std::string& field) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (!(values[i] >= 0 && values[i] <= 10)) {
        InvalidArgument("ExtendedLemkeOptions." + field + "[" + std::to_string(i) + "]", values[i],
                        "must lie in [0, 10]");
      }
    }
  };
  check_each(covering_perturbations, "covering_perturbations");
  check_each(further_covering_perturbations, "further_covering_perturbations");
  if (!(accept_tolerance > 0)) {
    InvalidArgument("ExtendedLemkeOptions.accept_tolerance", accept_tolerance, "must be > 0");
  }
}

// What a pass's answers are called, rounded to double or in two parts.
struct ExtendedLemkeSolver::Pass {
  std::string_view rounded, two_parts;
};

// The LCP of a pass in long double (equilibrated or as given) and the paths that follow it.
struct ExtendedLemkeSolver::Paths {
  // One scaling of the caller's LCP in long double: M (column-major) and q scaled, and the
  // factors (powers of two: exact, so the quad path loads the same LCP).
  struct Scaled {
    std::vector<long double> m, q, row_scale, col_scale;
  };
  int n = 0;
  Scaled equilibrated, as_given;
  LexicographicPath<long double> extended;
  LexicographicPath<Quad> quad;

  // Ruiz equilibration by powers of two (internal/equilibrate.hpp) into *s; scale = false keeps
  // the caller's M.
  void Scale(const MatrixRef& M, const VectorRef& Q, bool scale, Scaled* s) {
    n = static_cast<int>(Q.size());
    s->m.assign(static_cast<size_t>(n) * n, 0);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) s->m[i + j * n] = M(i, j);
    s->row_scale.resize(n);
    s->col_scale.resize(n);
    internal::EquilibrateByPowersOfTwo(s->m.data(), n, scale ? internal::kRuizSweeps : 0,
                                       s->row_scale.data(), s->col_scale.data());
    s->q.resize(n);
    for (int i = 0; i < n; ++i) s->q[i] = s->row_scale[i] * static_cast<long double>(Q(i));
  }

  // Each covering vector's path in Real on the scaled LCP s, each end read twice
  // (re-solved from M_ZZ, and the tableau's b) and offered to the caller's check: rounded to
  // double and, when low_part is not null and that fails, in two parts.
  template <class Real>
  bool Follow(LexicographicPath<Real>* path,
              const Scaled& s,
              const std::vector<double>& covers,
              const ExtendedLemkeOptions& options,
              const MatrixRef& M,
              const VectorRef& Q,
              const Pass& pass,
              SolveInfo* info,
              VectorXd* z,
              VectorXd* low_part,
              double* best) {
    using std::max;
    path->Load(s.m, s.q, n);
    VectorXd candidate(n), low(n);
    std::vector<Real> y;
    for (double c : covers) {
      const PathEnd end =
          path->FollowPath(c, options.max_pivots, options.refactor_every, &info->pivots);
      if (end == PathEnd::kMaxPivots) info->status = Status::kMaxPivots;
      for (int reading = 0; reading < 2; ++reading) {
        if (!path->ReadEnd(end, reading, &y)) continue;
        for (int j = 0; j < n; ++j) {
          const Real zj = max(Real{0}, Real(s.col_scale[j]) * y[j]);
          candidate(j) = static_cast<double>(zj);
          low(j) = static_cast<double>(zj - Real(candidate(j)));
        }
        if (internal::OfferCandidate(M, Q, candidate, options.accept_tolerance, pass.rounded, info,
                                     z, best)) {
          return true;
        }
        if (low_part && internal::OfferInTwoParts(M, Q, candidate, low, options.accept_tolerance,
                                                  pass.two_parts, info, z, low_part)) {
          return true;
        }
      }
    }
    return false;
  }
};

ExtendedLemkeSolver::ExtendedLemkeSolver(const ExtendedLemkeOptions& options)
    : options_(options), paths_(std::make_unique<Paths>()) {
  options_.Validate();
}

ExtendedLemkeSolver::~ExtendedLemkeSolver() = default;

// The native Lemke in double on the equilibrated LCP: powers of two scale exactly, so the
// scaled LCP has exactly the solutions C^-1 z; its pivot tests then see entries near 1.
bool ExtendedLemkeSolver::SolveScaledInDouble(
    const MatrixRef& M, const VectorRef& q, SolveInfo* info, VectorXd* z, double* best) {
  const int n = paths_->n;
  const Paths::Scaled& e = paths_->equilibrated;
  scaled_m_.resize(n, n);
  scaled_q_.resize(n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) scaled_m_(i, j) = static_cast<double>(e.m[i + j * n]);
  for (int i = 0; i < n; ++i) scaled_q_(i) = static_cast<double>(e.q[i]);
  VectorXd y;
  const SolveInfo si = scaled_native_.Solve(scaled_m_, scaled_q_, &y, InputCheck::kCallerValidated);
  info->pivots += si.pivots;
  if (y.size() != n) return false;
  VectorXd candidate(n);
  for (int j = 0; j < n; ++j)
    candidate(j) = std::max(0.0, static_cast<double>(e.col_scale[j]) * y(j));
  return internal::OfferCandidate(M, q, candidate, options_.accept_tolerance,
                                  "extended Lemke: solved in double on the equilibrated LCP", info,
                                  z, best);
}

SolveInfo ExtendedLemkeSolver::Run(
    const MatrixRef& M, const VectorRef& q, VectorXd* z, VectorXd* low_part, InputCheck check) {
  if (check == InputCheck::kValidate) ValidateProblem(M, q);
  IMPACTSET_ASSERT(M.rows() == q.size() && M.cols() == q.size() && q.size() > 0);
  bool trivial = false;
  SolveInfo info = internal::StartLinkSolve(SolverId::kExtended, Status::kRayTermination,
                                            "extended Lemke: no path ended on an accepted solution",
                                            M, q, z, &trivial);
  if (trivial) return info;
  // Cheapest first: double on the equilibrated LCP, then long double on it and on the caller's
  // scaling, then the same in quad precision. On the random family each solves step LCPs the
  // others do not (docs/robustness.md).
  double best = std::numeric_limits<double>::infinity();
  Paths& p = *paths_;
  if (options_.equilibrate) {
    p.Scale(M, q, /*scale=*/true, &p.equilibrated);
    if (SolveScaledInDouble(M, q, &info, z, &best)) return info;
  }
  p.Scale(M, q, /*scale=*/false, &p.as_given);
  auto both = [&](auto* path, const std::vector<double>& covers, const Pass& equilibrated,
                  const Pass& as_given) {
    return (options_.equilibrate && p.Follow(path, p.equilibrated, covers, options_, M, q,
                                             equilibrated, &info, z, low_part, &best)) ||
           p.Follow(path, p.as_given, covers, options_, M, q, as_given, &info, z, low_part, &best);
  };
  static constexpr Pass kLongEquilibrated = {
      "extended Lemke: solved in long double on the equilibrated LCP",
      "extended Lemke: solved in long double on the equilibrated LCP, in two parts"};
  static constexpr Pass kLongAsGiven = {
      "extended Lemke: solved in long double on the LCP as given",
      "extended Lemke: solved in long double on the LCP as given, in two parts"};
  static constexpr Pass kQuadEquilibrated = {
      "extended Lemke: solved in quad precision on the equilibrated LCP",
      "extended Lemke: solved in quad precision on the equilibrated LCP, in two parts"};
  static constexpr Pass kQuadAsGiven = {
      "extended Lemke: solved in quad precision on the LCP as given",
      "extended Lemke: solved in quad precision on the LCP as given, in two parts"};
  // A second round on other paths only where the first lost every one: the first round's
  // answers stay what they were.
  for (const std::vector<double>* covers :
       {&options_.covering_perturbations, &options_.further_covering_perturbations}) {
    if (covers->empty()) continue;
    if (both(&p.extended, *covers, kLongEquilibrated, kLongAsGiven)) return info;
    if (options_.quad_precision && both(&p.quad, *covers, kQuadEquilibrated, kQuadAsGiven)) {
      return info;
    }
  }
  if (std::isfinite(best) && info.status != Status::kMaxPivots) {
    info.status = Status::kResidualTooLarge;
  }
  return info;
}

}  // namespace impactset::lcp
