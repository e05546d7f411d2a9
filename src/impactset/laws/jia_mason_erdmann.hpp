#pragma once
// Jia, Mason & Erdmann (2013), "Multiple impacts: a state transition diagram approach" (equation,
// section and figure numbers are the paper's; docs/jia-mason-erdmann.md). A point-valued,
// frictionless multi-contact impact law: each contact carries a virtual linear normal spring
// (stiffness k_i, strain energy E_i); along the collision dE_i/dI_i = -xdot_i (eq. (5), (13), (14))
// and the impulses of the active contacts grow in the ratio
// dI_j/dI_p = F_j/F_p = sqrt(k_j E_j / (k_p E_p)) (eq. (15), (24)). Energy is lost by Stronge's
// bi-stiffness rule: at the end of compression of contact i, k_i <- k_i/e_i^2 and E_i <- e_i^2 E_i
// (§3.3). The collision is a sequence of states (sets of active contacts, Fig. 4, §10): a state
// ends when an active contact finishes restitution or an inactive one starts approaching again;
// compression may restart inside a state.
//
// The outcome depends only on the Delassus matrix W = Jn M^-1 Jn^T, xdot- = Jn v-, the stiffness
// ratios and the e_i (Theorem 5; xdot = xdot- + W I along the collision). Friction and tangential
// compliance (§8, Jia 2012) are not modelled: see docs/jia-mason-erdmann.md.
#include <impactset/common/enum_names.hpp>
#include <string_view>
#include <vector>

#include <impactset/impact/impact_problem.hpp>

namespace impactset::laws {

/// Phase of a contact's virtual spring.
enum class JmePhase {
  kInactive,     ///< no force; the contact separates (xdot_i >= 0)
  kCompression,  ///< active, xdot_i < 0 (or just (re)activated)
  kRestitution,  ///< active, after an end of compression, xdot_i >= 0
  kLocked,       ///< rigid unilateral constraint (e_i = 0 or the chattering guard below)
};

/// Options of SolveJiaMasonErdmann.
struct JmeOptions {
  /// Original normal stiffness k-bar_i per contact (only ratios matter, Theorem 5(i)). Empty =
  /// all 1. m entries, each finite and > 0.
  VectorXd stiffness;
  /// Energetic coefficient of restitution e_i per contact (Stronge). Empty = all
  /// `default_restitution`. m entries in [0, 1]; e_i = 0 locks contact i at its first end of
  /// compression (the bodies merge, supplement §E.3 of the paper).
  VectorXd restitution;
  /// e_i used when `restitution` is empty. 0 (plastic) matches the inelastic set-valued model
  /// this project compares against. In [0, 1].
  double default_restitution = 0;
  /// RK4 step in fictitious time: h = step_fraction / sqrt(sum_active k_i W_ii), i.e. a fixed
  /// fraction of the fastest spring's period, re-evaluated at every event as stiffnesses grow
  /// (adaptive). RK4's global error ~ step_fraction^4: 0.01 gives ~1e-8 on O(1) outcomes.
  /// In (0, 0.5].
  double step_fraction = 0.01;
  /// Chattering guard (ours; docs/jia-mason-erdmann.md): when an end of compression would make
  /// k_i / k-bar_i exceed this, contact i is locked (rigid, xdot_i = 0) instead; it is released
  /// when its constraint force reaches 0. At extreme stiffness ratios the stiff contact otherwise
  /// cycles through compression ends and restarts without end, k_i growing geometrically (a Zeno
  /// accumulation). > 1.
  double lock_ratio = 1e8;
  /// Relative tolerance merging near-simultaneous restitution ends into one transition
  /// (simultaneous ends go to the terminal state S4 directly, Fig. 4), relative to the largest
  /// spring deflection so far. In [0, 1e-3].
  double event_tolerance = 1e-9;
  /// Caps: states (active-set changes) and RK4 steps. >= 1. Steps grow like the square root of
  /// the stiffness ratio (the stiff spring's period sets h): ball-ball-table at e = 0.7 needs
  /// 2.2e4 at ratio 1e9 (the lock ends the chattering); at e = 1 (no lock) 9e4 at 1e5 and
  /// 2.9e6 at 1e8, so 1e9 hits this cap (~2 s).
  int max_states = 100000;
  long max_steps = 5000000;
  /// Record the impulse curve and strain energies after every step (JmeResult::trace_*).
  bool record_trace = false;

  /// Optional resumed start (a state in the middle of a collision, e.g. a row of the paper's
  /// Table 1): impulses so far, strain energies, phases and current stiffnesses k_i. All empty =
  /// the collision's start: contacts with xdot_i- <= 0 active in compression, no impulse.
  VectorXd start_impulse, start_energy, start_stiffness;
  std::vector<JmePhase> start_phase;

  /// @throws std::invalid_argument naming the field, its value and the rule it breaks. Sizes
  /// are checked against the problem by SolveJiaMasonErdmann.
  void Validate() const;
};

enum class JmeStatus {
  kTerminated,  ///< no active contact is left: the outcome is final
  kStateLimit,  ///< max_states reached: the outcome is the state at that point
  kStepLimit,   ///< max_steps reached: the outcome is the state at that point
};
IMPACTSET_ENUM_NAMES(JmeStatus,
                     "jme status",
                     {E::kTerminated, "terminated"},
                     {E::kStateLimit, "state_limit"},
                     {E::kStepLimit, "step_limit"})

inline std::string_view ToString(JmeStatus s) { return EnumName(s); }

enum class JmeEventType {
  kCompressionEnd,  ///< xdot_i crosses 0 upward: k_i /= e_i^2, E_i *= e_i^2 (§3.3 (i))
  kRestart,         ///< xdot_i crosses 0 downward in restitution: k_i unchanged (§3.3 (ii))
  kRestitutionEnd,  ///< E_i reaches 0 while separating: the contact leaves the active set
  kReactivation,    ///< an inactive contact starts approaching: joins with E_i = 0 (§3.3 (iii))
  kLock,            ///< end of compression with e_i = 0 or past lock_ratio: rigid
  kRelease,         ///< a locked contact's constraint force reaches 0: leaves the active set
};
IMPACTSET_ENUM_NAMES(JmeEventType,
                     "jme event type",
                     {E::kCompressionEnd, "compression_end"},
                     {E::kRestart, "restart"},
                     {E::kRestitutionEnd, "restitution_end"},
                     {E::kReactivation, "reactivation"},
                     {E::kLock, "lock"},
                     {E::kRelease, "release"})

inline std::string_view ToString(JmeEventType t) { return EnumName(t); }

struct JmeEvent {
  JmeEventType type;
  int contact;
  VectorXd impulse;  ///< normal impulses at the event
  double energy;     ///< E_contact just before the event (E_max at an end of compression)
};

struct JmeResult {
  JmeStatus status = JmeStatus::kStepLimit;
  bool terminated() const { return status == JmeStatus::kTerminated; }
  VectorXd impulse;          ///< normal impulses I (m), >= 0
  VectorXd normal_velocity;  ///< xdot+ = xdot- + W I (m)
  /// Filled by the ImpactProblem overload: v+ = v- + M^-1 Jn^T I and ContactJacobian() v+.
  VectorXd v_plus, contact_velocity;
  /// Active sets in order, starting with the first state; the terminal (empty) state is
  /// appended when the collision ends (paper's S4).
  std::vector<std::vector<int>> states;
  std::vector<JmeEvent> events;
  VectorXd stiffness;  ///< final k_i (k-bar_i / e_i^(2j) after j compression ends)
  long steps = 0;      ///< RK4 steps
  /// Theorem 2 audit: change in kinetic energy, energy dissipated at compression ends and
  /// locks, strain energy left, and residual |dKE + lost + sum E| (0 up to integration error).
  double kinetic_energy_change = 0, energy_lost = 0, residual = 0;
  /// With record_trace: impulses and strain energies (m x T) after every step.
  MatrixXd trace_impulse, trace_energy;
};

/// Integrates the JME collision on contact-space data: W (m x m, symmetric PSD with positive
/// diagonal) and xdot- (m). Within a state the ODE dI_j/dI_p = F_j/F_p, dF_j/dI_p =
/// -k_j xdot_j / F_p ((15), (24) in the forces F_i = sqrt(2 k_i E_i)) is integrated multiplied by
/// F_p, i.e. in the fictitious time tau with dI_i = F_i dtau: the same impulse curve,
/// without the F_p -> 0 singularity at the start and at simultaneous ends. RK4 with the step of
/// JmeOptions::step_fraction; events are located by bisection on the step.
/// @throws std::invalid_argument for invalid options, sizes or W.
JmeResult SolveJiaMasonErdmann(const MatrixXd& W,
                               const VectorXd& xdot_minus,
                               const JmeOptions& options = {});

/// The same on an impact problem's normal part (friction ignored: frictionless model).
JmeResult SolveJiaMasonErdmann(const impact::ImpactProblem& problem,
                               const JmeOptions& options = {});

/// Stiffness-ratio sweep: count values r evenly spaced in [log10_min, log10_max] (one value
/// log10_min when count = 1), each run with k-bar = options.stiffness (or ones) with contact
/// `swept_contact`'s entry multiplied by 10^r. For two contacts and default stiffness that is
/// k_0 / k_1 = 10^r, as simulators::StiffnessRatioSweep of the compliant model.
/// @throws std::invalid_argument for count < 1, log10_min > log10_max, non-finite bounds or
///         swept_contact outside [0, m).
std::vector<JmeResult> JmeStiffnessRatioSweep(const impact::ImpactProblem& problem,
                                              const JmeOptions& options,
                                              double log10_min,
                                              double log10_max,
                                              int count,
                                              int swept_contact = 0);

}  // namespace impactset::laws
