#pragma once
// The fallback chain's last Lemke link: Lemke's method on the equilibrated LCP in extended
// precision (long double, then quad precision), with the basis inverse refactorised from scratch
// as the path goes and the final z re-solved from the basis. For the step LCPs double precision
// loses: exact ties from linearly dependent contact rows, mass matrices with condition numbers
// near 1e10, mu = 1000 next to unit entries (docs/robustness.md "Random impact problems").
#include <memory>
#include <vector>

#include <impactset/lcp/lemke.hpp>
#include <impactset/lcp/solver.hpp>

namespace impactset::lcp {

/// Options of ExtendedLemkeSolver.
struct ExtendedLemkeOptions {
  /// Pivot cap per path (after the initial z0 pivot). >= 1.
  int max_pivots = 2000;
  /// Pivots between refactorisations of B^-1 from the basis columns (LU in the path's
  /// precision), which removes the drift of the product-form updates. >= 1.
  int refactor_every = 16;
  /// Covering-vector perturbations tried in turn (0: d = 1; c > 0: d_i = 1 + c frac(0.618 i),
  /// as LemkeOptions::covering_perturbation); each is a different path. Non-empty, each in
  /// [0, 10].
  std::vector<double> covering_perturbations = {0.0, 1.0, 3.0};
  /// Covering-vector perturbations of a second round of passes 2 to 5, run only when every path
  /// of the first round failed (so the first round's answers do not depend on them). May be
  /// empty; each in [0, 10].
  std::vector<double> further_covering_perturbations = {7.0, 10.0};
  /// Acceptance tolerance on the double-precision residual of the returned z (residual.hpp):
  /// the same check as every other link. > 0.
  double accept_tolerance = kAcceptTolerance;
  /// Follow the paths on the LCP scaled by powers of two first, then on the caller's (M, q);
  /// off: the caller's only (to measure what the scaling contributes).
  bool equilibrate = true;
  /// After the long-double passes, the same paths in quad precision (113-bit significand,
  /// Boost.Multiprecision's cpp_bin_float_quad, in software). Off: long double only.
  bool quad_precision = true;
  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

/// Five passes, cheapest first, each answer accepted only through IsSolution on the caller's
/// (M, q) in double:
///  1. the native Lemke in double on the LCP equilibrated by powers of two (rows and columns of
///     M scaled to a largest entry near 1; exact, so the scaled LCP has the same solutions);
///  2. Lemke's lexicographic method in long double (64-bit significand on x86-64: 11 bits more
///     than double) on the equilibrated LCP, one path per covering vector;
///  3. the same on the caller's LCP as given;
///  4. and 5. passes 2 and 3 in quad precision (options.quad_precision);
/// then, if all failed, passes 2 to 5 again with further_covering_perturbations.
/// On ill-scaled step LCPs each pass solves some the others do not. In passes 2 to 5, B^-1 is
/// recomputed from the basis columns every refactor_every pivots and the final z is re-solved
/// from the complementary basis with two refinement steps. Slow (n^2 per pivot plus n^3 per
/// refactorisation; passes 4 and 5 up to seconds at n = 70): meant for the rare step LCP every
/// earlier link failed on. Through Solver's two-part Solve, an end of passes 2 to 5 whose rounding
/// to double misses the check is offered again as z plus the rounding's error (SolveInfo::
/// low_part; the two-part ComputeResidual decides). Not thread-safe; use one instance per thread.
class ExtendedLemkeSolver final : public TwoPartSolver {
 public:
  explicit ExtendedLemkeSolver(const ExtendedLemkeOptions& options = {});
  ~ExtendedLemkeSolver() override;
  SolverId id() const override { return SolverId::kExtended; }

 private:
  struct Pass;   // what a pass's answers are called
  struct Paths;  // the lexicographic paths in long double and in quad precision
  SolveInfo Run(const MatrixRef& M,
                const VectorRef& q,
                VectorXd* z,
                VectorXd* low_part,
                InputCheck check) override;
  bool SolveScaledInDouble(
      const MatrixRef& M, const VectorRef& q, SolveInfo* info, VectorXd* z, double* best);

  ExtendedLemkeOptions options_;
  std::unique_ptr<Paths> paths_;
  LemkeSolver scaled_native_;  // the double-precision pass on the equilibrated LCP
  MatrixXd scaled_m_;
  VectorXd scaled_q_;
};

}  // namespace impactset::lcp
