#pragma once
// The finite outcome set of Seghete & Murphey's propagative model: every admissible ordering
// ([S-J] §III Definition 1; docs/seghete-murphey.md).
// Depth-first over every colliding contact at every step, deduplicated in the g-norm.
// Frictionless: only M and Jn are used.
#include <impactset/common/enum_names.hpp>
#include <vector>

#include <impactset/impact/impact_problem.hpp>

namespace impactset::laws {

/// Options of EnumeratePropagative.
struct PropagativeEnumerationOptions {
  /// Per-reflection [S-C] energetic restitution, as PropagativeOptions::e. In [0, 1].
  double e = 1.0;
  /// As PropagativeOptions::violation_tolerance (relative to ||p-||_g). >= 0.
  double violation_tolerance = 1e-10;
  /// Longest sequence followed; longer branches are counted in capped_sequences. >= 1.
  int max_reflections = 1000;
  /// Most terminated-or-capped sequences explored before stopping with kSequenceCap (the tree
  /// grows exponentially with the contact count). >= 1.
  long long max_sequences = 100000;
  /// Two outcomes are one when ||p_a - p_b||_g <= distinct_tolerance * ||p-||_g. 1e-9 is far
  /// above the roundoff of a propagation (~1e-14) and far below physically distinct outcomes.
  /// In (0, 1).
  double distinct_tolerance = 1e-9;
  /// Keep only Def-1-minimal sequences ([S-J] Definition 1): drop a feasible sequence when a
  /// proper subsequence (any positions, order kept, each reflection applied unconditionally)
  /// already gives a feasible velocity. For two contacts these are the shortest sequences.
  bool minimal_only = false;
  /// Minimality is checked by trying all 2^L - 2 proper non-empty subsequences, only for
  /// sequences of length L <= max_minimality_length; longer ones count in unchecked_minimality
  /// and are kept. In [1, 24].
  int max_minimality_length = 16;
  /// Sequences stored per outcome (all are counted). >= 0.
  int max_stored_sequences = 64;
  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

enum class EnumerationStatus {
  kComplete,       ///< every admissible sequence explored and terminated
  kReflectionCap,  ///< complete tree, but some branches hit max_reflections (non-termination)
  kSequenceCap     ///< stopped after max_sequences sequences: the set may be incomplete
};
IMPACTSET_ENUM_NAMES(EnumerationStatus,
                     "enumeration status",
                     {E::kComplete, "complete"},
                     {E::kReflectionCap, "reflection_cap"},
                     {E::kSequenceCap, "sequence_cap"})

inline std::string_view ToString(EnumerationStatus s) { return EnumName(s); }

/// One distinct outcome and the sequences that produce it.
struct PropagativeOutcome {
  VectorXd v_plus;            ///< of the first sequence found (n)
  VectorXd contact_velocity;  ///< problem.ContactJacobian() * v_plus
  VectorXd lambda;            ///< per-contact multipliers of the first sequence ([S-J] sign)
  std::vector<std::vector<int>> sequences;  ///< up to max_stored_sequences, in DFS order
  long long sequence_count = 0;             ///< all sequences giving this outcome
  int min_reflections = 0;
  int max_reflections = 0;
  double residual = 0;      ///< feasibility residual of the first sequence (as the resolver's)
  double energy_ratio = 1;  ///< KE(v+) / KE(v-)
};

struct PropagativeOutcomeSet {
  EnumerationStatus status = EnumerationStatus::kComplete;
  /// Distinct outcomes, in DFS order (lower contact indices explored first). Empty only if no
  /// branch terminated. A feasible v- gives one outcome, v- itself, with the empty sequence.
  std::vector<PropagativeOutcome> outcomes;
  long long feasible_sequences = 0;    ///< terminated sequences kept (all outcomes)
  long long capped_sequences = 0;      ///< branches that hit max_reflections
  long long non_minimal_dropped = 0;   ///< feasible sequences dropped by minimal_only
  long long unchecked_minimality = 0;  ///< minimal_only: kept without the check (too long)
  long long nodes = 0;                 ///< single impacts applied over the whole tree
  /// At every node of the explored tree at most one contact collided: every ordering is the
  /// same one (forced choice). Meaningful for the whole tree only when status
  /// is not kSequenceCap.
  bool forced_choice = true;
  int longest = 0;  ///< longest terminated sequence kept
};

/// Enumerates every admissible propagation of the impact at v_minus.
/// @throws std::invalid_argument on invalid options or a size mismatch.
PropagativeOutcomeSet EnumeratePropagative(const impact::ImpactProblem& problem,
                                           const VectorRef& v_minus,
                                           const PropagativeEnumerationOptions& options = {});

/// The same at problem.v_minus().
PropagativeOutcomeSet EnumeratePropagative(const impact::ImpactProblem& problem,
                                           const PropagativeEnumerationOptions& options = {});

/// Whether the feasible `sequence` is Def-1-minimal for v_minus: no proper non-empty
/// subsequence gives a feasible velocity (elastic reflections, e as given).
/// @throws std::invalid_argument if the sequence is longer than 24 or names a bad contact.
bool IsMinimalSequence(const impact::ImpactProblem& problem,
                       const VectorRef& v_minus,
                       const std::vector<int>& sequence,
                       double e = 1.0,
                       double violation_tolerance = 1e-10);

/// Reflection-count bounds for two contacts of cosine s in (-1, 1) (derived, check C5):
/// with gamma = (pi - arccos s) / 2, the tight bound ceil(pi / (2 gamma)) over sequences that
/// reflect only over colliding contacts, and [S-J] Theorem 1's ceil(pi / gamma).
/// @throws std::invalid_argument unless -1 < s < 1.
int TightReflectionBound(double s);
int PaperReflectionBound(double s);

}  // namespace impactset::laws
