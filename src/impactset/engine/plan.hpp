#pragma once
// The planner (docs/coverage.md): how many samples a coverage target needs, before any run.
//  - hold-out (statement (b)): K' fresh samples with no miss bound the missed mass by a target;
//  - Lemma 1 (statement (a)), only with a Lipschitz constant: K samples make an epsilon-net with
//    probability 1 - delta.
#include <optional>
#include <string>

#include <impactset/impact/impact_problem.hpp>
#include <impactset/systems/matrix_input.hpp>

namespace impactset::engine {

/// What to plan for (`impactset plan`).
struct PlanOptions {
  /// Net radius epsilon. Empty: the contact output's default radius of a run (PilotEpsilons).
  /// > 0 and finite.
  std::optional<double> epsilon;
  /// Each statement holds with probability 1 - delta (each on its own). In (0, 1).
  double delta = 0.05;
  /// Lipschitz constant L of the sample map for Lemma 1; empty: no Lemma-1 plan. > 0, finite.
  std::optional<double> lipschitz;
  /// Step cap N (the cube dimension is d = m N). Empty: the N a run of the problem uses (its
  /// own, or the step pilot's: ProblemRunOptions). >= 1.
  std::optional<int> max_steps;
  /// Hold-out target: bound on the probability mass the net may miss. In (0, 1).
  double missed_mass = 1e-3;
  /// @throws std::invalid_argument naming the field, its value and the rule.
  void Validate() const;
};

struct HoldoutPlan {
  long long samples = 0;    ///< K': fresh samples that, with no miss, give the target
  double missed_mass = 0;   ///< the bound reached (<= the target)
  std::string assumptions;  ///< the hypotheses, in words
};

struct Lemma1Plan {
  double lipschitz = 0;
  int cube_dimension = 0;  ///< d = m N
  /// K: iid samples that make the net a 2 epsilon-net with probability 1 - delta when every
  /// sample terminates (an integer, possibly beyond 2^63, stored as double; +inf when beyond a
  /// double, and assumptions says so)
  double samples = 0;
  double log_cells = 0;     ///< log G, G = ceil(L sqrt(d) / epsilon)^d
  std::string assumptions;  ///< the hypotheses, in words
};

struct PlanResult {
  double epsilon = 0;  ///< the radius planned for
  double delta = 0;
  int max_steps = 0;  ///< N used for d = m N
  HoldoutPlan holdout;
  std::optional<Lemma1Plan> lemma1;  ///< when PlanOptions::lipschitz is given
};

/// Plans both statements for the problem, with the step rule and default radius of a run of it.
/// @throws std::invalid_argument for bad options.
PlanResult Plan(const systems::LoadedProblem& loaded, const PlanOptions& options);

}  // namespace impactset::engine
