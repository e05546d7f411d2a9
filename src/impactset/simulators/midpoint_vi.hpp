#pragma once
// Seghete & Murphey's variational time-stepper with impacts ([S-J] §VI eqs. 28-30, [S-C] §I-A and
// end of §II; docs/midpoint-vi.md) for a planar kinematic tree under gravity: midpoint
// discrete Lagrangian, DEL equations solved by Newton, impact-time solve, impact step (30) with the
// Seghete-Murphey law in the metric M(q*)^-1, and the Zeno rule. The choices the papers leave
// open are listed in docs/midpoint-vi.md.
//
// Conventions: q are the tree's joint coordinates, momenta p are column vectors (the transposed
// covectors of the papers). Lagrangian L = 1/2 v^T M(q) v - V(q) with V = sum_s m_s g y_s over the
// tree's shapes (so -grad V = GravityForce). Discrete Legendre maps for a substep of length T from
// q_a to q_b, qbar = (q_a + q_b)/2, vbar = (q_b - q_a)/T, l = dL/dq(qbar, vbar) ([S-J] eq. 28):
//   F+ = M(qbar) vbar + T/2 l,   F- = -M(qbar) vbar + T/2 l.
// A substep solves p_a + F-(q_a, q_b) + f- = 0 for q_b and sets p_b = F+(q_a, q_b) + f+.
#include <functional>
#include <impactset/common/enum_names.hpp>
#include <string>
#include <string_view>
#include <vector>

#include <impactset/laws/seghete_murphey.hpp>
#include <impactset/systems/planar_tree.hpp>

namespace impactset::simulators {

/// How the impact map between the elastic and plastic limits is chosen ([S-J] §III-A).
enum class ViRestitution {
  kBlend,      ///< [S-J] eq. (17): p+ = alpha p_e + (1 - alpha) p_p, alpha = BlendAlpha(R)
  kSequential  ///< [S-C]: Gamma_e (factor 1 + sqrt(e)) for every single impact of the propagation
};
IMPACTSET_ENUM_NAMES(ViRestitution,
                     "restitution",
                     {E::kBlend, "blend"},
                     {E::kSequential, "sequential"})
inline std::string_view ToString(ViRestitution r) { return EnumName(r); }

/// How an extra non-conservative force f(qbar, vbar, t_mid) enters the discrete equations
/// (the papers leave it open; gravity is in the Lagrangian and is not affected).
enum class ForcingSplit {
  kSymmetric,  ///< Default: f- = f+ = T/2 f (exact for constant forces, like gravity in L)
  kLeft        ///< trep's MidpointVI: f- = T f, f+ = 0
};
IMPACTSET_ENUM_NAMES(ForcingSplit,
                     "forcing split",
                     {E::kSymmetric, "symmetric"},
                     {E::kLeft, "left"})
inline std::string_view ToString(ForcingSplit s) { return EnumName(s); }

/// Options of SimulateMidpointVi. Units: SI (s, m, kg).
struct MidpointViOptions {
  double h = 0.01;        ///< step (s), > 0
  int steps = 100;        ///< number of steps, >= 0
  double gravity = 9.81;  ///< along -y (m/s^2), finite (0: no gravity)
  /// Optional extra generalized force f(q, v, t) (n entries), evaluated at the substep's
  /// midpoint (qbar, vbar, t_a + T/2) and split per forcing_split. Empty: none.
  std::function<VectorXd(const VectorXd& q, const VectorXd& v, double t)> force;
  ForcingSplit forcing_split = ForcingSplit::kSymmetric;

  ViRestitution restitution = ViRestitution::kBlend;
  double R = 1.0;  ///< kBlend: [S-J] energetic restitution in [0, 1] (1 elastic, 0 plastic)
  double e = 1.0;  ///< kSequential: [S-C] energetic restitution in [0, 1] per single impact
  laws::AlphaRule alpha_rule = laws::AlphaRule::kR;           ///< kBlend ([S-J] eq. 17, corrected)
  laws::PlasticMode plastic_mode = laws::PlasticMode::kCone;  ///< plastic part and Zeno
  laws::OrderingPolicy policy = laws::OrderingPolicy::kMostViolated;  ///< elastic ordering
  /// Relative collision threshold of the propagation (PropagativeOptions::violation_tolerance);
  /// also decides whether a touching contact is colliding at the start of a substep. >= 0.
  double violation_tolerance = 1e-10;

  /// [S-J] §VII-B Zeno rule: an impact whose first-crossing contact already had an impact less
  /// than h earlier is resolved plastically (plastic_mode) and the contacts with a positive
  /// plastic multiplier become persistent (held at phi = 0 until their force would pull); a
  /// touching, non-colliding contact pressed into penetration by the free step is made persistent
  /// too. Off: such a contact ends the run with kPersistentContact.
  bool zeno_rule = true;

  /// A contact is active at q* (part of the impact) iff phi <= gap_tolerance; a substep crosses
  /// contact j iff phi_j(q_b) < -gap_tolerance. Length units, > 0.
  double gap_tolerance = 1e-9;
  /// Newton stops when every DEL residual entry is <= newton_tolerance (1 + ||p_a||_inf)
  /// (momentum rows; persistent-contact rows are phi / T in velocity units). > 0.
  double newton_tolerance = 1e-12;
  int max_newton_iterations = 50;  ///< >= 1
  /// Impact-time root: the bracket on tau shrinks below time_tolerance * h. > 0.
  double time_tolerance = 1e-13;
  int max_impacts_per_step = 200;  ///< more impacts in one step give kImpactCap. >= 1
  /// Central-difference step for dM/dq, relative (delta_i = dm_step max(1, |q_i|)); cbrt(eps) =
  /// 6e-6 balances truncation (~delta^2) and roundoff (~eps/delta): ~1e-10 relative error. > 0.
  double dm_step = 6e-6;

  /// @throws std::invalid_argument naming the field, its value and the rule broken.
  void Validate() const;
};

enum class ViStatus {
  kOk,                       ///< all steps done
  kNewtonFailure,            ///< a DEL solve did not reach newton_tolerance
  kImpactTimeFailure,        ///< the impact-time root could not be bracketed or solved
  kImpactResolutionFailure,  ///< the impact law returned a non-solved status (e.g. the cap)
  kImpactCap,                ///< more than max_impacts_per_step impacts in one step
  kPersistentContact         ///< zeno_rule off and a contact would have to persist
};
IMPACTSET_ENUM_NAMES(ViStatus,
                     "vi status",
                     {E::kOk, "ok"},
                     {E::kNewtonFailure, "newton_failure"},
                     {E::kImpactTimeFailure, "impact_time_failure"},
                     {E::kImpactResolutionFailure, "impact_resolution_failure"},
                     {E::kImpactCap, "impact_cap"},
                     {E::kPersistentContact, "persistent_contact"})

inline std::string_view ToString(ViStatus s) { return EnumName(s); }

/// One impact (or a Zeno closure) at time t, configuration q*. Contacts are indices into
/// PlanarTree::ContactCandidates.
struct ViImpact {
  double t = 0;
  VectorXd q;                 ///< q*
  int trigger = -1;           ///< the contact whose crossing defined t*
  std::vector<int> active;    ///< contacts with phi(q*) <= gap_tolerance (the impact's contacts)
  VectorXd p_minus, p_plus;   ///< momenta before and after (p = M(q*) v)
  std::vector<int> sequence;  ///< elastic propagation's reflections (candidate indices)
  bool zeno = false;          ///< resolved plastically by the Zeno rule
  bool closure = false;       ///< no impulse: a touching contact was made persistent
  std::vector<int> closed;    ///< contacts made persistent here
  double kinetic_minus = 0, kinetic_plus = 0;  ///< 1/2 p^T M(q*)^-1 p before and after
};

/// State at the end of a step (records[0] is the initial state).
struct ViRecord {
  double t = 0;
  VectorXd q, p;
  double kinetic = 0;  ///< 1/2 p^T M(q)^-1 p
  double energy = 0;   ///< kinetic + V(q)
  double min_gap = 0;  ///< min over contact candidates of phi(q) (+inf without candidates)
};

struct MidpointViResult {
  ViStatus status = ViStatus::kOk;
  std::string message;        ///< what failed, when status != kOk
  int steps = 0;              ///< steps completed
  int newton_iterations = 0;  ///< total over all DEL solves
  double residual = 0;        ///< largest final DEL residual (scaled as newton_tolerance)
  std::vector<ViRecord> records;
  std::vector<ViImpact> impacts;
  std::vector<int> persistent;  ///< contacts persistent at the end
};

/// Simulates from q0 with velocity v0 (p0 = M(q0) v0) for options.steps steps of options.h.
/// Under a non-ok status, records and impacts hold everything up to the failure.
/// @throws std::invalid_argument on invalid options or q0/v0 sizes != tree.num_positions().
MidpointViResult SimulateMidpointVi(const systems::PlanarTree& tree,
                                    const VectorXd& q0,
                                    const VectorXd& v0,
                                    const MidpointViOptions& options = {});

/// dM/dq_i by central differences with delta_i = step max(1, |q_i|), i = 0..n-1.
std::vector<MatrixXd> MassMatrixDerivative(const systems::PlanarTree& tree,
                                           const VectorXd& q,
                                           double step = 6e-6);

/// V(q) = sum_s m_s g y_s over the tree's moving shapes (g along -y).
double GravityPotential(const systems::PlanarTree& tree, const VectorXd& q, double gravity);

}  // namespace impactset::simulators
