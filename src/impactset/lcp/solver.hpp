#pragma once
// The common interface of every LCP solver in impactset.
#include <impactset/common/enum_names.hpp>
#include <string_view>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/lcp/residual.hpp>

namespace impactset::lcp {

/// Which algorithm produced an answer.
enum class SolverId {
  kNone,         ///< no solver succeeded (fallback chain exhausted)
  kNative,       ///< impactset's lexicographic Lemke (lcp/lemke.hpp), covering vector d = 1
  kNativeAlt,    ///< the same with a perturbed covering vector (a different pivot path)
  kSiconos,      ///< Siconos numerics lexicographic Lemke via its driver (lcp/siconos_lemke.hpp)
  kEnumeration,  ///< complementary-basis enumeration (lcp/enumerate.hpp)
  kChain,        ///< FallbackSolver's id(); its SolveInfo.solver names the link that succeeded
  kExtended,     ///< Lemke in long double or quad precision, equilibrated (lcp/extended_lemke.hpp)
  kProximal      ///< proximal-point steps, each a regularised LCP (lcp/proximal_lemke.hpp)
};

/// Outcome of one solve. Under every status z holds the solver's last iterate (or zeros);
/// only kSolved promises IsSolution(residual).
enum class Status {
  kSolved,            ///< z passed the residual check at the solver's tolerance.
  kRayTermination,    ///< pivoting hit a (secondary) ray: no blocking row for the entering column.
  kMaxPivots,         ///< pivot or iteration cap reached.
  kResidualTooLarge,  ///< the method claimed success but z failed the residual check.
  kNoSolution,        ///< enumeration found no solution on a non-singular complementary basis.
  kTooLarge           ///< the method refuses this size (enumeration above its n cap).
};

IMPACTSET_ENUM_NAMES(Status,
                     "status",
                     {E::kSolved, "solved"},
                     {E::kRayTermination, "ray_termination"},
                     {E::kMaxPivots, "max_pivots"},
                     {E::kResidualTooLarge, "residual_too_large"},
                     {E::kNoSolution, "no_solution"},
                     {E::kTooLarge, "too_large"})

inline std::string_view ToString(Status s) { return EnumName(s); }
IMPACTSET_ENUM_NAMES(SolverId,
                     "solver id",
                     {E::kNone, "none"},
                     {E::kNative, "native"},
                     {E::kNativeAlt, "native_alt"},
                     {E::kSiconos, "siconos"},
                     {E::kEnumeration, "enumeration"},
                     {E::kChain, "chain"},
                     {E::kExtended, "extended"},
                     {E::kProximal, "proximal"})

inline std::string_view ToString(SolverId s) { return EnumName(s); }

/// What every solve reports: non-convergence is a status here, never an exception
/// (common/error_policy.hpp). Holds no heap memory so that solving allocates
/// nothing in steady state.
struct SolveInfo {
  Status status = Status::kNoSolution;
  SolverId solver = SolverId::kNone;  ///< the solver whose answer z is
  int pivots = 0;                     ///< pivots (or bases tried, for enumeration)
  int attempts = 0;                   ///< solvers tried (1 unless a fallback chain ran)
  Residual residual;  ///< ComputeResidual(M, q, z) of the returned z (of z + low part if low_part)
  std::string_view message;  ///< static text saying why, for logs
  /// The answer is z + low_part, each double (Solver::Solve with a low_part argument): no double
  /// vector met the check, the two together do. Only when the caller asked for such answers.
  bool low_part = false;
  bool ok() const { return status == Status::kSolved; }
};

/// Whether a solve checks its inputs. Checking costs about as much as two pivots on a 10 x 10 step
/// LCP, so callers that already guarantee what it checks may skip it.
enum class InputCheck {
  kValidate,        ///< ValidateProblem(M, q), and the covering vector and order: bad input throws
  kCallerValidated  ///< the caller guarantees all of that (the fallback chain, which validated at
                    ///< its own entry; Algorithm 1, whose step LCPs are built from a validated
                    ///< problem with drawn coverings and permutations). Sizes are still asserted.
};

/// A stateful LCP solver: it owns its workspace, so use one instance per thread.
class Solver {
 public:
  virtual ~Solver() = default;
  virtual SolverId id() const = 0;
  /// Sizes the workspace for LCPs of n unknowns now, so that the first solve of that size
  /// allocates nothing: a sampler's fallback may first run deep inside its loop. Solvers without
  /// a reusable workspace ignore it.
  virtual void Reserve(Eigen::Index n) { static_cast<void>(n); }
  /// After a solve that returned kSolved: the indices whose z is basic in the complementary
  /// basis the answer was read from, increasing, into *z_basic, and true (a warm start can try
  /// that basis on the next q; lcp/warm_start.hpp). False where the solver knows no such basis
  /// (a method without one, a path that ended off a complementary basis, a failed solve).
  virtual bool FinalBasis(std::vector<int>* z_basic) const {
    static_cast<void>(z_basic);
    return false;
  }
  /// Solves LCP(M, q). z is resized to n (no allocation when it already has size n).
  /// @throws std::invalid_argument on bad input (see ValidateProblem); never for non-convergence.
  SolveInfo Solve(const MatrixRef& M, const VectorRef& q, VectorXd* z) {
    return DoSolve(M, q, z, InputCheck::kValidate);
  }
  /// Solve with the input check skipped when check is kCallerValidated and the solver supports
  /// that (the native Lemke and the fallback chain); others validate anyway.
  SolveInfo Solve(const MatrixRef& M, const VectorRef& q, VectorXd* z, InputCheck check) {
    return DoSolve(M, q, z, check);
  }
  /// Solve that may answer in two parts. Where a solver reaches an exact solution that every
  /// double vector misses the check with (impulses 1e4 times q and more that cancel in M z:
  /// rounding z alone moves M z + q by more than the tolerance), the answer is z + *low_part,
  /// each double, and SolveInfo::low_part says so; its residual is ComputeResidual(M, q, z,
  /// *low_part). Otherwise *low_part is left empty and the solve is the one above. Only the
  /// extended link's long-double and quad-precision passes (and the chain that holds them)
  /// answer in two parts.
  SolveInfo Solve(
      const MatrixRef& M, const VectorRef& q, VectorXd* z, VectorXd* low_part, InputCheck check) {
    low_part->resize(0);
    return DoSolveInTwoParts(M, q, z, low_part, check);
  }

 protected:
  /// What both Solve overloads run (one virtual, so a solver implements the solve once).
  virtual SolveInfo DoSolve(const MatrixRef& M,
                            const VectorRef& q,
                            VectorXd* z,
                            InputCheck check) = 0;
  /// What the two-part Solve runs: solvers that never answer in two parts keep this default.
  virtual SolveInfo DoSolveInTwoParts(
      const MatrixRef& M, const VectorRef& q, VectorXd* z, VectorXd* low_part, InputCheck check) {
    static_cast<void>(low_part);
    return DoSolve(M, q, z, check);
  }
};

/// A solver that can answer in two parts: it implements Run once, and both Solve forms reach it
/// (low_part null for the one-part form).
class TwoPartSolver : public Solver {
 protected:
  /// Solves; low_part null takes answers rounded to double only.
  virtual SolveInfo Run(const MatrixRef& M,
                        const VectorRef& q,
                        VectorXd* z,
                        VectorXd* low_part,
                        InputCheck check) = 0;

 private:
  SolveInfo DoSolve(const MatrixRef& M, const VectorRef& q, VectorXd* z, InputCheck check) final {
    return Run(M, q, z, nullptr, check);
  }
  SolveInfo DoSolveInTwoParts(const MatrixRef& M,
                              const VectorRef& q,
                              VectorXd* z,
                              VectorXd* low_part,
                              InputCheck check) final {
    return Run(M, q, z, low_part, check);
  }
};

}  // namespace impactset::lcp
