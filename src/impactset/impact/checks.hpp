#pragma once
// Physical checks of an impulse and the velocity it produces (docs/model.md §1-§4), shared by the
// impact-law tests and the sampler. They assert properties, not vectors: an impact law's answer
// may be non-unique, but every answer must pass these.
#include <string>

#include <impactset/impact/impact_problem.hpp>

namespace impactset::impact {

/// Tolerances of CheckImpulse. Velocities and impulses are compared on the problem's own scale,
/// with a floor of 1 (like lcp::ComputeResidual): vscale = max(1, ||ContactJacobian() v_before||
/// _inf), iscale = max(1, ||(lambda_n, lambda_D)||_inf). The defaults sit far above the
/// roundoff of a pivoting solve with a basis re-solve (~1e-14 on O(1) data) and far below any
/// physical effect; loosen them only for solvers that stop early (PATH-like, ~1e-6).
struct CheckTolerances {
  /// KE(v_after) <= KE(v_before) + energy * max(KE(v_before), 1e-300) (Theorems 2 and 7). > 0.
  double energy = 1e-9;
  /// Velocity tolerance, times vscale (inelasticity, friction direction, "is sliding"). > 0.
  double velocity = 1e-8;
  /// Impulse tolerance, times iscale (cone, sign, "carries an impulse", normal cap). > 0.
  double impulse = 1e-9;
  /// Momentum balance ||M (v_after - v_before) - J^T lambda||_inf <= momentum * max(1,
  /// ||M v_before||_inf, ||J^T lambda||_inf): v_after really is produced by lambda. > 0.
  double momentum = 1e-9;
  /// Also require every contact to be non-approaching, min_i (Jn v_after)_i >= -velocity *
  /// vscale. True for a whole Anitescu-Potra impact and for a terminated Algorithm-1 sample;
  /// false (the default) for one Routh step, which may leave contacts still closing.
  bool require_non_approaching = false;
  /// @throws std::invalid_argument naming the field that is not > 0.
  void Validate() const;
};

/// Worst violation of each check (0 when satisfied exactly; units in brackets) and whether each
/// passed at the given tolerances.
struct CheckReport {
  /// KE(v_after) - KE(v_before) [energy]; <= 0 is dissipation (Theorems 2 and 7).
  double energy_gain = 0;
  /// max over contacts with lambda_n_i > impulse tol of (Jn v_after)_i [velocity]: a normal
  /// impulse must not push a contact apart (inelastic law, eqs. 31c and 72c).
  double inelastic = 0;
  /// max(0, -min_i (Jn v_after)_i) [velocity]; judged only if require_non_approaching.
  double approaching = 0;
  /// max over contacts of (sum_j lambda_ij - mu_i lambda_n_i) and of -lambda_ij, -lambda_n_i
  /// [impulse]: the (linearised) Coulomb cone, eqs. 31d/72d.
  double cone = 0;
  /// max over directions with lambda_ij > impulse tol of d_ij v_after - min_l d_il v_after
  /// [velocity]: friction acts only along the directions most opposed to the slip (maximal
  /// dissipation; for k = 2, against the tangential velocity).
  double slip_direction = 0;
  /// max over sliding contacts (slip speed -min_l d_il v_after > velocity tol) of mu_i lambda_n_i
  /// - sum_j lambda_ij [impulse]: a sliding contact's friction is on the cone boundary.
  double slip_cone_slack = 0;
  /// max_i lambda_n_i - lambda_max_i [impulse] when a cap is given (Routh step, eq. 73).
  double normal_cap = 0;
  /// Momentum-balance error, relative (see CheckTolerances::momentum).
  double momentum = 0;

  bool energy_ok = true;
  bool inelastic_ok = true;  ///< includes the non-approaching test when requested
  bool cone_ok = true;
  bool slip_ok = true;  ///< slip_direction and slip_cone_slack
  bool normal_cap_ok = true;
  bool momentum_ok = true;
  bool ok = true;  ///< all of the above

  /// One line listing every number, for test failure messages and logs.
  std::string Describe() const;
};

/// Checks an impulse (lambda_n [m], lambda_D [m k], laid out as in ImpactProblem::D()) applied at
/// velocity v_before and the resulting v_after.
/// @param lambda_max  optional normal impulse cap (size m) of a Routh step; nullptr: no cap.
/// @throws std::invalid_argument on size mismatches or invalid tolerances.
CheckReport CheckImpulse(const ImpactProblem& problem,
                         const VectorRef& v_before,
                         const VectorRef& v_after,
                         const VectorRef& lambda_n,
                         const VectorRef& lambda_d,
                         const CheckTolerances& tolerances = {},
                         const VectorXd* lambda_max = nullptr);

/// Checks the end state of a whole impact made of many steps: v_plus reached from the problem's
/// v- by the total impulse (lambda_n, lambda_D) = `total` (the sum of every step's). Fills
/// energy_gain/energy_ok, approaching/inelastic_ok (min_i (Jn v_plus)_i >= -velocity * vscale,
/// judged always) and cone/cone_ok (the total impulse in the linearised cone: each step's is, and
/// the cone is convex); the per-step conditions (slip, cap, inelastic per contact) do not hold for
/// a sum and are left as passed. Momentum is not judged: v_plus is summed from the steps' images
/// M^-1 J^T lambda, so it holds to their roundoff by construction. The cone is judged at
/// tolerances.impulse x max(1, ||total||_inf, accepted_scale), where accepted_scale is the sum
/// over the steps of the scale each step's answer was accepted at (max(1, ||w_R||_inf)): every
/// step may leave its cone rows short by its acceptance tolerance, and those add up. Allocates
/// nothing. @pre sizes agree (asserted).
CheckReport CheckOutcome(const ImpactProblem& problem,
                         const VectorRef& v_plus,
                         const VectorRef& total,
                         const CheckTolerances& tolerances = {},
                         double accepted_scale = 0);

}  // namespace impactset::impact
