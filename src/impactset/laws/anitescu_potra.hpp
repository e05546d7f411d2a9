#pragma once
// The Anitescu-Potra simultaneous impact law (Halm & Posa eqs. 31-35; docs/model.md §2, the LCP
// itself in impact/impact_lcps.hpp; the authors' form docs/examples.md §1.2, §1.4 and §1.8): one
// LCP for all contacts at once, velocity-level inelastic, Coulomb friction with maximal
// dissipation.
#include <vector>

#include <impactset/impact/impact_problem.hpp>
#include <impactset/lcp/enumerate.hpp>
#include <impactset/lcp/solver.hpp>

namespace impactset::laws {

/// One solution of the Anitescu-Potra LCP
///   0 <= z = (lambda_n, lambda_D, gamma) ⊥ W_AP z + (J v, 0) >= 0,
///   v_plus = v + M^-1 (Jn^T lambda_n + D^T lambda_D).
/// Impulses are always sized for the full problem (m, m k, m); contacts left out by an `active`
/// mask carry zeros.
struct AnitescuPotraOutcome {
  VectorXd v_plus;    ///< post-impact generalized velocity (n)
  VectorXd lambda_n;  ///< normal impulses (m)
  VectorXd lambda_d;  ///< friction-direction impulses (m k), rows as in ImpactProblem::D()
  /// Slip speeds (m; empty when k = 0): gamma_i >= -min_j d_ij v_plus, with equality whenever
  /// mu_i lambda_n_i > 0 (otherwise the LCP leaves gamma_i free above that bound).
  VectorXd gamma;
  VectorXd contact_velocity;  ///< problem.ContactJacobian() * v_plus: normal, then tangential
  /// The LCP solve. Under any status other than kSolved the fields above hold the solver's last
  /// iterate and are not an outcome of the law.
  lcp::SolveInfo info;
};

/// The sub-problem of the contacts with active[i] true: rows of Jn, each contact's k rows of D,
/// and mu are kept in order; M and v_minus are unchanged (the authors' `active` mask,
/// docs/examples.md §1.8).
/// @throws std::invalid_argument if active.size() != m or no contact is active.
impact::ImpactProblem ActiveSubProblem(const impact::ImpactProblem& problem,
                                       const std::vector<bool>& active);

/// Solves the AP LCP at velocity v with `solver` (e.g. lcp::FallbackSolver); one solution, the
/// solver's choice when there are several.
/// @param active  optional contact mask (size m): only these contacts take part, as in the
///                authors' AnitescuCollider (used by sequential resolution). nullptr: all. An
///                all-false mask is no impact: v_plus = v, zero impulses, status kSolved, no
///                solve. (Repeated masked calls rebuild the sub-problem; callers in a loop should
///                build ActiveSubProblem once.)
/// @throws std::invalid_argument on size mismatches (v, active) or a null solver; never for a
///         failed solve (info.status says so).
AnitescuPotraOutcome SolveAnitescuPotra(const impact::ImpactProblem& problem,
                                        const VectorRef& v,
                                        lcp::Solver* solver,
                                        const std::vector<bool>* active = nullptr);

/// Options of AllAnitescuPotraOutcomes.
struct AnitescuPotraAllOptions {
  /// The enumeration of complementary bases (lcp/enumerate.hpp). Its max_size (default 20) caps
  /// the LCP size m (k + 2): 2^size bases, about 1 s at 20 (planar m = 5, spatial k = 8 m = 2).
  lcp::EnumerationOptions enumeration;
  /// Two outcomes are the same when ||v_plus_a - v_plus_b||_inf <= distinct_tolerance * s,
  /// s = max(||v||_inf, ||v_plus_a||_inf, ||v_plus_b||_inf). Since v_plus - v = M^-1 J^T lambda,
  /// equal v_plus is exactly equal contact-velocity change J (v_plus - v) (the authors'
  /// criterion, docs/examples.md §1.10). 1e-7 is far above a basis solve's roundoff (~1e-14) and
  /// far below physically different outcomes. In (0, 1).
  double distinct_tolerance = 1e-7;
  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

/// Every distinct post-impact velocity of the AP law, by enumeration.
struct AnitescuPotraSet {
  /// kSolved: at least one outcome; kTooLarge: LCP size above enumeration.max_size (no
  /// outcomes); kNoSolution: no solution on a non-singular complementary basis.
  lcp::Status status = lcp::Status::kNoSolution;
  /// Distinct outcomes in the enumeration's order (index set as a bit mask, increasing: the
  /// trivial solution lambda = 0 first, when v is not colliding). Each keeps the first LCP
  /// solution found for its v_plus; info.solver = kEnumeration.
  std::vector<AnitescuPotraOutcome> outcomes;
  int lcp_solutions = 0;  ///< distinct LCP solutions z before merging equal v_plus
  long long bases_tried = 0;
};

/// Enumerates all solutions of the AP LCP at v living on non-singular complementary bases (what
/// the authors' LCPSolver_Remy does, but including the trivial solution) and merges those with
/// equal v_plus. Blind spot (stated by lcp::EnumerateSolutions): solutions that exist only on
/// singular bases; interiors of solution continua are represented by their vertices.
/// @param active  optional contact mask, as in SolveAnitescuPotra.
/// @throws std::invalid_argument on size mismatches or invalid options.
AnitescuPotraSet AllAnitescuPotraOutcomes(const impact::ImpactProblem& problem,
                                          const VectorRef& v,
                                          const AnitescuPotraAllOptions& options = {},
                                          const std::vector<bool>* active = nullptr);

}  // namespace impactset::laws
