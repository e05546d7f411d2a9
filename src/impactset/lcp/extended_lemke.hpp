#pragma once
// The fallback chain's last link: Lemke's method on the equilibrated LCP in extended precision
// (long double), with the basis inverse refactorised from scratch as the path goes and the final
// z re-solved from the basis. For the step LCPs double precision loses: exact ties from
// linearly dependent contact rows, mass matrices with condition numbers near 1e10, mu = 1000
// next to unit entries (docs/robustness.md "Random impact problems").
#include <vector>

#include <impactset/lcp/lemke.hpp>
#include <impactset/lcp/solver.hpp>

namespace impactset::lcp {

/// Options of ExtendedLemkeSolver.
struct ExtendedLemkeOptions {
  /// Pivot cap per path (after the initial z0 pivot). >= 1.
  int max_pivots = 2000;
  /// Pivots between refactorisations of B^-1 from the basis columns (LU in long double), which
  /// removes the drift of the product-form updates. >= 1.
  int refactor_every = 16;
  /// Covering-vector perturbations tried in turn (0: d = 1; c > 0: d_i = 1 + c frac(0.618 i),
  /// as LemkeOptions::covering_perturbation); each is a different path. Non-empty, each in
  /// [0, 10].
  std::vector<double> covering_perturbations = {0.0, 1.0, 3.0};
  /// Acceptance tolerance on the double-precision residual of the returned z (residual.hpp):
  /// the same check as every other link. > 0.
  double accept_tolerance = kAcceptTolerance;
  /// Follow the paths on the LCP scaled by powers of two first, then on the caller's (M, q);
  /// off: the caller's only (to measure what the scaling contributes).
  bool equilibrate = true;
  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

/// Three passes, cheapest first, each answer accepted only through IsSolution on the caller's
/// (M, q) in double:
///  1. the native Lemke in double on the LCP equilibrated by powers of two (rows and columns of
///     M scaled to a largest entry near 1; exact, so the scaled LCP has the same solutions);
///  2. Lemke's lexicographic method in long double (64-bit significand on x86-64: 11 bits more
///     than double) on the equilibrated LCP, one path per covering vector;
///  3. the same on the caller's LCP as given.
/// On ill-scaled step LCPs each pass solves some the others do not. In passes 2 and 3, B^-1 is
/// recomputed from the basis columns every refactor_every pivots and the final z is re-solved
/// from the complementary basis with two refinement steps. Slow (n^2 per pivot plus n^3 per
/// refactorisation): meant for the rare step LCP every earlier link failed on.
/// Not thread-safe; use one instance per thread.
class ExtendedLemkeSolver final : public Solver {
 public:
  explicit ExtendedLemkeSolver(const ExtendedLemkeOptions& options = {});
  SolverId id() const override { return SolverId::kExtended; }

 private:
  using Real = long double;
  SolveInfo DoSolve(const MatrixRef& M, const VectorRef& q, VectorXd* z, InputCheck check) override;
  bool SolveScaledInDouble(
      const MatrixRef& M, const VectorRef& q, SolveInfo* info, VectorXd* z, double* best);
  bool FollowPaths(const MatrixRef& M,
                   const VectorRef& q,
                   const char* pass,
                   SolveInfo* info,
                   VectorXd* z,
                   double* best);
  void Equilibrate(const MatrixRef& M, const VectorRef& q, bool scale);
  enum class PathEnd { kSolution, kMaxPivots, kRay };
  PathEnd FollowPath(double perturbation, int* pivots);
  void Column(int var);                   // u = B^-1 a_var, us = |B^-1| |a_var|
  int RatioTest(bool initial);            // leaving row, -1 on a ray
  void Pivot(int r);                      // B^-1 and b by the eta matrix of row r
  bool Refactorise();                     // B^-1 and b from the basis columns
  bool SolveBasis(std::vector<Real>* y);  // M_ZZ y_Z = -q_Z for the final basis, refined
  Real A(int var, int row) const;         // entry of the tableau column of var: [I, -M, -d]

  ExtendedLemkeOptions options_;
  int n_ = 0;
  std::vector<Real> m_, q_, d_, row_scale_, col_scale_;  // scaled M (column-major), q, covering
  std::vector<Real> binv_, b_, u_, us_, lu_, work_;      // B^-1 (column-major), B^-1 q, column
  std::vector<int> basis_, perm_;                        // basic variable per row; LU row swaps
  Real q_scale_ = 1;
  LemkeSolver scaled_native_;  // the double-precision pass on the equilibrated LCP
  MatrixXd scaled_m_;
  VectorXd scaled_q_;
};

}  // namespace impactset::lcp
