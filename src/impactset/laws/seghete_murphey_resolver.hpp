#pragma once
// Seghete & Murphey's propagative multi-impact resolver (docs/seghete-murphey.md; [S-J] §III
// eq. 14, [S-C] §III): with an infinitesimal gap assumed between contacts, single impacts over
// one colliding contact at a time are applied until no contact collides. Frictionless: only M
// and Jn of the ImpactProblem are used; D and mu are ignored.
//
// Candidate set (corrected from [S-J] §III): every contact of the problem is active (the problem
// is posed at the impact configuration), and feasibility is checked against all of them at every
// step, also those not colliding at v- (Newton's cradle needs this).
#include <cstdint>
#include <impactset/common/enum_names.hpp>
#include <string_view>
#include <vector>

#include <impactset/impact/impact_problem.hpp>

namespace impactset::laws {

/// Which colliding contact the next single impact is over. Ties go to the lowest index.
enum class OrderingPolicy {
  kMostViolated,   ///< argmin_i <p, u_i>_g over colliding i ([S-J] run 1; shortest for 2 contacts)
  kLeastViolated,  ///< argmax_i <p, u_i>_g over colliding i ([S-J] §VII-B run 2)
  kFixedOrder,     ///< the first colliding contact in PropagativeOptions::fixed_order
  kRandom,         ///< uniformly among the colliding contacts, from PropagativeOptions::seed
  kUserSequence    ///< exactly PropagativeOptions::user_sequence, in order ([S-J] eq. 14)
};
IMPACTSET_ENUM_NAMES(OrderingPolicy,
                     "ordering policy",
                     {E::kMostViolated, "most_violated"},
                     {E::kLeastViolated, "least_violated"},
                     {E::kFixedOrder, "fixed_order"},
                     {E::kRandom, "random"},
                     {E::kUserSequence, "user_sequence"})

inline std::string_view ToString(OrderingPolicy p) { return EnumName(p); }

/// Options of ResolvePropagative.
struct PropagativeOptions {
  OrderingPolicy policy = OrderingPolicy::kMostViolated;
  /// [S-C] energetic restitution per single impact: each uses Gamma_e, factor 1 + sqrt(e) ([S-C]
  /// eq. 9). 1 = elastic (the [S-J] model), 0 = plastic single impacts
  /// (alternating projections: converges only asymptotically, so the cap may be reached).
  /// sqrt(e) is the Newtonian coefficient of each single impact. In [0, 1].
  double e = 1.0;
  /// Contact i collides when <p, u_i>_g < -violation_tolerance * ||p-||_g (relative, so the
  /// test is independent of the velocity scale). 1e-10 is far above the roundoff of a few
  /// hundred reflections (~1e-14) and far below physical approach speeds. >= 0.
  double violation_tolerance = 1e-10;
  /// Most single impacts before giving up with kReflectionCap. Termination is proven only for
  /// two contacts ([S-J] Theorem 1), and not for e < 1. >= 1.
  int max_reflections = 1000;
  /// kFixedOrder: the priority order (a permutation of 0..m-1); empty means 0, 1, ..., m-1.
  std::vector<int> fixed_order;
  /// kUserSequence: contact indices in [0, m), applied in this order whether or not the contact
  /// is colliding at its turn (the product of eq. 14), and only these.
  std::vector<int> user_sequence;
  /// kRandom: the seed of a std::mt19937_64 private to this call (no global state).
  std::uint64_t seed = 1;
  /// Any policy but kUserSequence: if >= 0 and contact first_contact collides at v-, the first
  /// single impact is over it (the "a first" / "b first" orderings of [S-J] §VII-A); the policy
  /// picks the rest. -1: the policy picks from the start. In [-1, m).
  int first_contact = -1;
  /// @throws std::invalid_argument naming the field that breaks its rule (m = contact count).
  void Validate(int m) const;
};

enum class PropagativeStatus {
  kFeasible,          ///< no contact collides at v_plus: the propagation's outcome
  kReflectionCap,     ///< max_reflections single impacts and still colliding (non-termination)
  kSequenceExhausted  ///< kUserSequence: the sequence ended with a contact still colliding
};
IMPACTSET_ENUM_NAMES(PropagativeStatus,
                     "propagative status",
                     {E::kFeasible, "feasible"},
                     {E::kReflectionCap, "reflection_cap"},
                     {E::kSequenceExhausted, "sequence_exhausted"})

inline std::string_view ToString(PropagativeStatus s) { return EnumName(s); }

/// One propagation's result. Under every status v_plus is the velocity after the reflections
/// applied; only kFeasible makes it an outcome of the law.
struct PropagativeResult {
  PropagativeStatus status = PropagativeStatus::kFeasible;
  VectorXd v_plus;            ///< final generalized velocity (n)
  VectorXd contact_velocity;  ///< problem.ContactJacobian() * v_plus (normal, then tangential)
  std::vector<int> sequence;  ///< the contacts reflected over, in order (the w_i of eq. 14)
  /// Multiplier of each single impact, [S-J] sign with unnormalised Dphi (p+ = p- + lambda
  /// Dphi_i; > 0 when the contact was colliding), aligned with `sequence`.
  std::vector<double> step_multipliers;
  /// Per-contact sum of step_multipliers (m): p+ = p- + sum_i lambda_i Dphi_i.
  VectorXd lambda;
  int reflections = 0;  ///< sequence.size()
  /// Every single impact was over a contact colliding at its turn, and none followed a feasible
  /// velocity. Always true except possibly for kUserSequence.
  bool admissible = true;
  /// first_contact >= 0 was honoured (it collided at v-); false when it was not or not asked.
  bool first_contact_used = false;
  /// Feasibility residual max(0, -min_i <p+, u_i>_g) / ||p-||_g (0 when ||p-||_g = 0).
  double residual = 0;
  double energy_ratio = 1;  ///< KE(v+) / KE(v-) (1 when KE(v-) = 0)
};

/// Propagates the impact at `v_minus` (see the file comment).
/// @throws std::invalid_argument on invalid options or a size mismatch.
PropagativeResult ResolvePropagative(const impact::ImpactProblem& problem,
                                     const VectorRef& v_minus,
                                     const PropagativeOptions& options = {});

/// The same at problem.v_minus().
PropagativeResult ResolvePropagative(const impact::ImpactProblem& problem,
                                     const PropagativeOptions& options = {});

}  // namespace impactset::laws
