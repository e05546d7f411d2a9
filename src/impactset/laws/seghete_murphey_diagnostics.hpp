#pragma once
// Uniqueness diagnostics and unpredictability measures of Seghete & Murphey's propagative model
// ([S-J] §V, §VII; [S-C] §III-IV; docs/seghete-murphey.md "Derived results the code uses").
// Frictionless: only M and Jn are used.
#include <vector>

#include <impactset/impact/impact_problem.hpp>
#include <impactset/laws/seghete_murphey_enumeration.hpp>
#include <impactset/laws/seghete_murphey_resolver.hpp>

namespace impactset::laws {

/// A pair of contacts whose unit normals meet at wedge angle pi/k: s_ij = -cos(pi/k) (k = 2 is
/// orthogonality, k = 3 the s = -1/2 of [S-J] Theorem 3). For two contacts such a pair has a
/// unique outcome for every p- (our generalisation, checked numerically; docs/seghete-murphey.md).
struct PiOverKCase {
  int i = 0, j = 0, k = 0;
  double s = 0;
};

/// Per-pair measures of ordering sensitivity at p- ([S-C] §IV; identities derived in
/// docs/seghete-murphey.md), all in g-norm units
/// (divide by ||p-||_g for ratios). a = <p-, u_i>_g, b = <p-, u_j>_g.
struct PairMeasure {
  int i = 0, j = 0;
  double s = 0, a = 0, b = 0;
  /// ||P_N p-||_g, N = span{u_i, u_j}: the [S-C] ||p*|| of eq. (20) for the in-plane
  /// perturbation that would make the pair orthogonal (||dp|| = 2 ||p*||).
  double normal_plane_norm = 0;
  /// 4 |s| ||P_N p-||_g: the first-order ordering discrepancy (check F2).
  double first_order = 0;
  /// Exact ||p Gi Gj - p Gj Gi||_g = 4 |s| sqrt(a^2 + b^2 - 2 s a b) (derived).
  double two_step = 0;
  /// Exact ||p Gi Gj Gi - p Gj Gi Gj||_g = 2 |1 - 4 s^2| sqrt(a^2 + b^2 - 2 s a b).
  double three_step = 0;
  /// g-operator norm of the commutator Gi Gj - Gj Gi = 4 s M^-1 (u_i^T u_j - u_j^T u_i):
  /// 4 |s| sqrt(1 - s^2) ([S-C] eqs. 12-15; 0 iff orthogonal).
  double commutator = 0;
};

/// The design measures of [S-J] §VII and [S-C] §IV at one impact state.
struct Unpredictability {
  /// The unpredictability measure used for design: xi = diameter of the distinct outcome set in
  /// the g-norm / ||p-||_g. For two contacts both colliding this is [S-J] §VII-A's
  /// xi = ||p_ab - p_ba||_g / ||p0||_g. 0 when every ordering agrees.
  double xi = 0;
  /// ||p_argmin - p_argmax||_g / ||p-||_g: the most-violated-first vs least-violated-first runs
  /// of [S-J] §VII-B at this impact (0 if either does not terminate; see argmin_argmax_ok).
  double xi_argmin_argmax = 0;
  bool argmin_argmax_ok = true;    ///< both runs terminated
  std::vector<PairMeasure> pairs;  ///< every pair i < j
  /// max over pairs of |s_ij|: [S-J] §VII's design measure (0 = unique; Theorem 2).
  double max_abs_cosine = 0;
};

/// Options of DiagnoseUniqueness.
struct UniquenessOptions {
  /// |s_ij| <= cosine_tolerance counts as orthogonal and |s_ij + cos(pi/k)| <= cosine_tolerance
  /// as a pi/k wedge. 1e-9: cosines from exact geometry agree to ~1e-15, while a design
  /// optimised to "s = 0" ([S-J] Table I) only reaches ~1e-7, so that is reported as not
  /// orthogonal. In [0, 1).
  double cosine_tolerance = 1e-9;
  /// Largest k searched for s = -cos(pi/k). In [2, 1000].
  int max_k = 12;
  /// The elastic outcome-set enumeration (e is forced to 1).
  PropagativeEnumerationOptions enumeration;
  void Validate() const;
};

struct UniquenessDiagnostics {
  MatrixXd gram;                ///< Dphi_i M^-1 Dphi_j^T (unnormalised; [S-J] Table I may be this)
  MatrixXd cosines;             ///< s_ij of the g-unit normals
  VectorXd initial_components;  ///< <p-, u_i>_g (< 0: colliding at v-)
  std::vector<int> initially_colliding;
  bool orthogonal = false;             ///< every |s_ij| <= tolerance, i != j
  std::vector<PiOverKCase> pi_over_k;  ///< pairs with s_ij = -cos(pi/k), 2 <= k <= max_k
  /// Sufficient conditions for a unique outcome (every admissible ordering gives the same p+):
  bool theorem2 = false;        ///< (b) pairwise orthogonal normals ([S-J] Theorem 2)
  bool theorem3 = false;        ///< (c) two contacts with s = -1/2 ([S-J] Theorem 3)
  bool pi_over_k_pair = false;  ///< (c) two contacts with s = -cos(pi/k), any k (ours, checked)
  bool forced_choice = false;   ///< (a) one colliding contact at every step of every ordering
  /// The elastic outcome set (all admissible orderings).
  PropagativeOutcomeSet outcome_set;
  int distinct_outcomes = 0;
  bool all_orderings_agree = false;  ///< exactly one outcome and the enumeration was complete
  Unpredictability unpredictability;
};

/// Everything above for the impact at problem.v_minus() (elastic, e = 1).
/// @throws std::invalid_argument on invalid options.
UniquenessDiagnostics DiagnoseUniqueness(const impact::ImpactProblem& problem,
                                         const UniquenessOptions& options = {});

/// The measures of Unpredictability at v_minus; `set` is that impact's elastic outcome set
/// (xi is its diameter).
Unpredictability MeasureUnpredictability(const impact::ImpactProblem& problem,
                                         const VectorRef& v_minus,
                                         const PropagativeOutcomeSet& set,
                                         const PropagativeOptions& resolver = {});

/// [S-J] §VII-A's xi for one pair of first contacts: ||p_a - p_b||_g / ||p-||_g where p_a starts
/// with a single impact over contact a (if it collides at v-) and then follows `resolver`'s
/// policy; likewise p_b. For the billiard of §3.2 (contacts a-c, b-c) this is xi(theta).
/// Returns 0 when ||p-||_g = 0. *ok (optional) is false if either run did not terminate.
/// @throws std::invalid_argument for a or b outside [0, m) or invalid resolver options.
double OrderingDiscrepancy(const impact::ImpactProblem& problem,
                           const VectorRef& v_minus,
                           int a,
                           int b,
                           const PropagativeOptions& resolver = {},
                           bool* ok = nullptr);

}  // namespace impactset::laws
