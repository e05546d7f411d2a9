#pragma once
// Sequential ("staged") single-contact resolution, the comparison law of Halm & Posa §2.2.2 and
// §5.4 (docs/model.md §3), exactly as the authors' CompareImpactMethods.m runs it
// (docs/examples.md §1.9).
#include <impactset/common/enum_names.hpp>
#include <string_view>
#include <vector>

#include <impactset/impact/impact_problem.hpp>
#include <impactset/lcp/solver.hpp>

namespace impactset::laws {

/// Options of sequential resolution. Defaults are the authors' (docs/examples.md §1.9).
struct SequentialOptions {
  /// Most single-contact impacts per sequence: the authors' N_staged = 10 rounds of one impact
  /// each. Sequences still colliding then end non-terminated (the 5-contact disk stack does).
  /// >= 1.
  int max_impacts = 10;
  /// A sequence is done once min_i (Jn v)_i >= -termination_tolerance; checked before every
  /// single impact. Authors: MATLAB eps * 1e10 = 2.220446e-6. >= 0.
  double termination_tolerance = 2.220446e-6;
  /// Besides the m sequences that start at each contact and cycle in index order (the
  /// authors'), also run every other permutation of the contacts, resolved cyclically, when
  /// m <= max_permuted_contacts (m! sequences: 24 at m = 4).
  bool all_orderings = true;
  /// See all_orderings. In [1, 8] (8! = 40320 sequences).
  int max_permuted_contacts = 4;
  /// Record the velocity after every single impact (v- first).
  bool keep_trajectory = false;
  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

enum class SequenceStatus {
  kTerminated,  ///< no contact colliding any more: v_plus is the sequence's outcome
  kImpactCap,   ///< max_impacts single impacts and still colliding
  kLcpFailure   ///< a single-contact LCP had no accepted solution (the solver's status says why)
};
IMPACTSET_ENUM_NAMES(SequenceStatus,
                     "sequence status",
                     {E::kTerminated, "terminated"},
                     {E::kImpactCap, "impact_cap"},
                     {E::kLcpFailure, "lcp_failure"})

inline std::string_view ToString(SequenceStatus s) { return EnumName(s); }

/// One sequence's outcome.
struct SequentialOutcome {
  /// Contacts in the order they are resolved, cyclically: impact j hits ordering[j % m].
  std::vector<int> ordering;
  SequenceStatus status = SequenceStatus::kTerminated;
  bool terminated() const { return status == SequenceStatus::kTerminated; }
  VectorXd v_plus;            ///< final generalized velocity
  VectorXd contact_velocity;  ///< ContactJacobian() v_plus: normal, then tangential velocities
  /// Single-contact LCP solves. As in the authors' code, a contact that is not colliding when
  /// its turn comes is still "resolved" (zero impulse) and counted, as long as another contact
  /// is colliding.
  int single_impacts = 0;
  double worst_residual = 0;         ///< max lcp Residual::Worst() over the solves
  double energy_ratio = 1;           ///< KE(v_plus) / KE(v-) (1 when KE(v-) = 0)
  std::vector<VectorXd> trajectory;  ///< v-, then v after each impact, when keep_trajectory
};

/// Resolves the impact at problem.v_minus() one contact at a time in the cyclic `ordering`: each
/// single impact is the 1-contact Anitescu-Potra LCP of that contact alone (the authors' `active`
/// mask, docs/examples.md §1.8: inelastic, maximal-dissipation Coulomb friction).
/// @param ordering  a permutation of 0..m-1.
/// @param solver    LCP solver for the single-contact LCPs; nullptr: an lcp::FallbackSolver.
/// @throws std::invalid_argument for an ordering that is not a permutation or invalid options.
SequentialOutcome ResolveSequentially(const impact::ImpactProblem& problem,
                                      const std::vector<int>& ordering,
                                      lcp::Solver* solver = nullptr,
                                      const SequentialOptions& options = {});

/// All sequences: first the m cyclic orders starting at contact 0, 1, ..., m-1 (the authors'
/// v_staged{j}), then, if options.all_orderings and m <= options.max_permuted_contacts, every
/// other permutation in lexicographic order. Outcomes are not merged: different orderings may
/// give the same v_plus.
/// @throws std::invalid_argument on invalid options.
std::vector<SequentialOutcome> SequentialOutcomes(const impact::ImpactProblem& problem,
                                                  lcp::Solver* solver = nullptr,
                                                  const SequentialOptions& options = {});

}  // namespace impactset::laws
