#pragma once
// Compliant-contact cross-validation (Halm & Posa §5.4.1, Fig. 12; docs/model.md §8, the authors'
// settings and our differences docs/examples.md §3.7):
// one-sided Kelvin-Voigt normal forces and regularised Coulomb friction integrated through the
// impact with a stiff solver (SUNDIALS CVODE, BDF + Newton + dense linear solver; CVODE lives
// only in compliant.cpp).
//
// The configuration is frozen as in every other impact law here: M, Jn and the tangents are the
// ImpactProblem's, constant through the impact, and each contact's gap evolves as
// phi_i(t) = phi_i(0) + int_0^t (Jn v)_i. (The authors' comparison also moves q; over an impact
// of a few milliseconds at stiffness >= 1e6 that changes the Jacobians by O(rotation) ~ 1e-4.)
#include <impactset/common/enum_names.hpp>
#include <string>
#include <string_view>
#include <vector>

#include <impactset/impact/impact_problem.hpp>

namespace impactset::simulators {

/// When the integration stops.
enum class CompliantEnd {
  /// The authors' terminal event (docs/examples.md §3.7): every touching contact (phi <= 0) has
  /// (Jn v)_i >= -stop_velocity, and every contact has accumulated at least min_impulse.
  kStoppedApproaching,
  /// Every contact is force-free and none approaches: for each contact (Jn v)_i >=
  /// -stop_velocity and, when touching, k phi + c (Jn v)_i >= 0. For restitution studies.
  kSeparated,
};

enum class CompliantJacobian {
  kAnalytic,           ///< the exact Jacobian of the (piecewise smooth) right-hand side
  kDifferenceQuotient  ///< CVODE's internal difference-quotient dense Jacobian
};

/// Options of SimulateCompliantImpact. Defaults are the authors' settings (docs/examples.md §3.7)
/// where they have one.
struct CompliantOptions {
  /// Normal stiffness of the softest contact, N/m (force per unit penetration). > 0.
  /// Authors: 1e6 for their stiffness-ratio and tilt sweeps.
  double stiffness = 1e6;
  /// Relative stiffness per contact: k_i = stiffness * ratio_i / min_j ratio_j. Empty = all
  /// contacts have `stiffness`. m entries, each finite and > 0. Two contacts with ratio
  /// (r, 1): k_A / k_B = r, the softer at `stiffness` (the authors' sweep 1).
  VectorXd stiffness_ratio;
  /// Damping ratio zeta: c_i = 2 zeta sqrt(k_i m_i). Authors: 5 (strongly over-damped). >= 0.
  double damping_ratio = 5;
  /// m_i in c_i above, kg. > 0: the same mass for every contact (the authors' damping
  /// 2 zeta sqrt(k/m) equals this with damping_mass = m = 1). 0: each contact's effective mass
  /// 1 / (Jn_i M^-1 Jn_i^T), which makes zeta the true damping ratio of an isolated contact.
  double damping_mass = 0;
  /// Regularised Coulomb friction f_t = -mu lambda_n v_t / max(|v_t|, v_reg), m/s. > 0.
  /// Sticking contacts creep at |v_t| < v_reg. The authors use 1e-10; with it CVODE fails its
  /// error test at stick-slip transitions in about a third of the rocking-block sweep runs
  /// (kSolverFailure), while 1e-6 runs them all and moves no outcome by more than ~1e-6 m/s.
  double friction_regularisation = 1e-6;
  /// Generalized external force (e.g. gravity), constant through the impact. Empty = none;
  /// else n entries. Authors: gravity (0, -9.81 m, 0) on the rocking block.
  VectorXd external_force;
  /// Initial gap phi_i(0) per contact (negative: penetration). Empty = all 0 (touching).
  VectorXd initial_gap;
  CompliantEnd end = CompliantEnd::kStoppedApproaching;
  /// A contact counts as stopped once (Jn v)_i >= -stop_velocity, m/s. >= 0.
  /// Authors: 1e-3 m / stiffness = 1e-9 at stiffness 1e6.
  double stop_velocity = 1e-9;
  /// kStoppedApproaching also waits until every contact's normal impulse reaches this, N s.
  /// 0 = no such condition. Authors: 1e-2 m |v0| = 4.429e-3 on the rocking block (so that a
  /// tilted block does not stop after its first corner). >= 0.
  double min_impulse = 0;
  /// CVODE relative and absolute tolerances. Authors (ode15s): 1e-10 and 1e-11. > 0.
  double relative_tolerance = 1e-10;
  double absolute_tolerance = 1e-11;
  /// Time cap, s (authors: tspan [0, 0.1]). > 0.
  double max_time = 0.1;
  /// Cap on CVODE internal steps. >= 1.
  long max_steps = 1000000;
  CompliantJacobian jacobian = CompliantJacobian::kAnalytic;
  /// Record (t, total energy) after every internal step (energy_trace below).
  bool record_energy = false;

  /// @throws std::invalid_argument naming the field, its value and the rule it breaks.
  /// Sizes of stiffness_ratio, external_force and initial_gap are checked against the problem
  /// by SimulateCompliantImpact.
  void Validate() const;
};

enum class CompliantStatus {
  kTerminated,     ///< the end condition was met: v_plus is the outcome
  kTimeLimit,      ///< max_time reached first: v_plus is the state at max_time
  kStepLimit,      ///< max_steps internal steps first: v_plus is the state at the last step
  kSolverFailure,  ///< CVODE returned an error (solver_flag, message): v_plus is the last state
};
IMPACTSET_ENUM_NAMES(CompliantStatus,
                     "compliant status",
                     {E::kTerminated, "terminated"},
                     {E::kTimeLimit, "time_limit"},
                     {E::kStepLimit, "step_limit"},
                     {E::kSolverFailure, "solver_failure"})

inline std::string_view ToString(CompliantStatus s) { return EnumName(s); }

struct CompliantResult {
  CompliantStatus status = CompliantStatus::kSolverFailure;
  bool terminated() const { return status == CompliantStatus::kTerminated; }
  VectorXd v_plus;            ///< generalized velocity at the end
  VectorXd contact_velocity;  ///< ContactJacobian() v_plus: normal, then tangential
  VectorXd gap;               ///< phi_i at the end
  VectorXd stiffness;         ///< k_i used
  VectorXd damping;           ///< c_i used
  /// Integrated contact forces (impulses), N s: normal per contact, then tangential in the
  /// coordinates of ContactJacobian() (1 per contact for k = 2, 2 for k >= 4, none for k = 0).
  VectorXd impulse;
  double duration = 0;  ///< simulated time, s
  long steps = 0;       ///< CVODE internal steps
  long rhs_evaluations = 0;
  /// Restarts of the integrator at kinks of the force law (contact touches, the one-sided force
  /// switches, |v_t| crosses v_reg).
  long restarts = 0;
  long jacobian_evaluations = 0;
  int solver_flag = 0;      ///< the last CVODE return flag (0 = success)
  std::string message;      ///< why it stopped, for kSolverFailure CVODE's flag name
  double energy_ratio = 1;  ///< KE(v_plus) / KE(v-) (1 when KE(v-) = 0)
  /// With record_energy: times and total energy KE + sum_i k_i phi_i^2 / 2 (phi_i < 0) - f.q
  /// (the last term is the work potential of external_force, q measured from the start).
  std::vector<double> energy_time, energy;
};

/// Integrates M v' = Jn^T lambda_n + T^T f_t + f_ext, phi' = Jn v from v(0) = v-, phi(0) =
/// initial_gap, where T are the tangential rows of ContactJacobian() and, per contact,
///   lambda_n = [phi <= 0] max(-(k phi + c Jn v), 0)            (one-sided Kelvin-Voigt)
///   f_t      = -mu lambda_n v_t / max(|v_t|, v_reg)             (regularised Coulomb)
/// (docs/examples.md §3.7), until options.end holds. Friction acts along the true tangent plane
/// (isotropic cone) rather than along the k polyhedral directions of D.
/// @throws std::invalid_argument for invalid options or sizes that do not match the problem.
CompliantResult SimulateCompliantImpact(const impact::ImpactProblem& problem,
                                        const CompliantOptions& options = {});

/// The authors' stiffness-ratio sweep (docs/examples.md §3.7, sweep 1) for a two-contact problem:
/// count values r = log10(k_A / k_B) evenly spaced in [log10_min, log10_max], each run with
/// stiffness_ratio (10^r, 1) on top of `options`. @throws std::invalid_argument for m != 2,
/// count < 1 or log10_min > log10_max.
std::vector<CompliantResult> StiffnessRatioSweep(const impact::ImpactProblem& problem,
                                                 const CompliantOptions& options,
                                                 double log10_min,
                                                 double log10_max,
                                                 int count);

}  // namespace impactset::simulators
