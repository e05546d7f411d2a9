#pragma once
// All solutions of a small LCP by enumeration of complementary bases (the method of
// C. D. Remy, IJRR 2017, used by Halm & Posa's reference code; docs/examples.md §1.10 says how
// this one differs).
#include <vector>

#include <impactset/lcp/solver.hpp>

namespace impactset::lcp {

/// Options of EnumerateSolutions / EnumerationSolver.
struct EnumerationOptions {
  /// Largest n accepted: the cost is 2^n small linear solves (n = 20: about 1e6). In [1, 30].
  int max_size = 20;
  /// A basis M(S,S) counts as singular when FullPivLU finds rank < |S| at this relative
  /// threshold (Remy's rank test). In (0, 1e-3].
  double singular_tolerance = 1e-12;
  /// Candidates pass when IsSolution(residual, accept_tolerance). > 0.
  double accept_tolerance = kAcceptTolerance;
  /// Two solutions are the same when ||z1 - z2||_inf <= dedupe_tolerance * max(1, ||z1||_inf).
  /// >= 0.
  double dedupe_tolerance = 1e-9;
  /// Stop after the first solution (EnumerationSolver does; EnumerateSolutions does not).
  bool stop_at_first = false;
  void Validate() const;
};

/// Every solution found, in the order of the index sets visited (S as a bit mask, increasing:
/// the trivial solution z = 0 first when q >= 0).
struct EnumerationResult {
  Status status = Status::kNoSolution;  ///< kSolved if at least one, kTooLarge if n > max_size
  std::vector<VectorXd> solutions;      ///< distinct solutions (see dedupe_tolerance)
  long long bases_tried = 0;
  long long singular_bases = 0;
};

/// Enumerates all index sets S of {0..n-1}; on each non-singular M(S,S) solves
/// M(S,S) z_S = -q_S, sets z elsewhere to 0 and keeps z if it passes the residual check.
/// What it cannot see: solutions that exist only on singular bases, and the interior of a
/// continuum of solutions (it returns that continuum's basic vertices).
/// @throws std::invalid_argument on bad input (ValidateProblem) or options.
EnumerationResult EnumerateSolutions(const MatrixRef& M,
                                     const VectorRef& q,
                                     const EnumerationOptions& options = {});

/// EnumerateSolutions with stop_at_first, as a Solver (the last link of the fallback chain).
class EnumerationSolver final : public Solver {
 public:
  explicit EnumerationSolver(const EnumerationOptions& options = {});
  SolverId id() const override { return SolverId::kEnumeration; }
  int max_size() const { return options_.max_size; }

 private:
  SolveInfo DoSolve(const MatrixRef& M,
                    const VectorRef& q,
                    VectorXd* z,
                    InputCheck check) override;  // validates whatever check says
  EnumerationOptions options_;
};

}  // namespace impactset::lcp
