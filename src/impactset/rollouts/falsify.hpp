#pragma once
// Falsification: a directed search for the worst outcome of a rollout's impacts, against iid
// rollouts at equal cost (docs/rollouts.md "Falsification").
//
// The first set_events impact events' p-vectors are the search's variables: rollout j's event e
// takes p at step s from u_je(s m + i) (m: the first event's contacts; the first set_steps
// steps), the rest of its randomness from its own stream (RunRolloutsWithDraws). A
// cross-entropy search draws a
// population of u from a clipped Gaussian per entry, keeps the rollouts with the worst metric
// (the elite) and moves the Gaussian to them, round after round. The same number of iid rollouts
// (RunRollouts' rollouts 0 ... budget - 1) is the comparison. Iid sampling estimates
// probabilities; the search only looks for bad outcomes that the set admits, faster.
#include <string>
#include <vector>

#include <impactset/rollouts/rollout.hpp>

namespace impactset::rollouts {

struct FalsifyOptions {
  std::string metric;      ///< the name of one of RolloutOptions::metrics
  bool maximize = true;    ///< the worst outcome has the largest value (false: the smallest)
  long long budget = 400;  ///< rollouts of the search, and of the iid comparison. >= population
  int population = 20;     ///< rollouts per round. >= 4
  double elite_fraction = 0.25;  ///< the share of a round that moves the search. In (0, 1)
  int set_steps = 16;            ///< steps of each event whose p the search sets. >= 1
  int set_events = 4;            ///< the first events whose p the search sets. >= 1
  /// @throws std::invalid_argument naming the field (an unknown metric lists the known ones).
  void Validate(const RolloutOptions& rollout) const;
};

struct FalsifyResult {
  long long rollouts = 0;  ///< each side's
  /// The worst metric value found: by the search, by iid rollouts (NaN: no rollout reached T).
  double worst_directed = 0, worst_iid = 0;
  /// The worst so far after each round of `population` rollouts, each side.
  std::vector<double> directed_trace, iid_trace;
  long long not_ok_directed = 0, not_ok_iid = 0;  ///< rollouts that stopped early
  RolloutResult worst;                            ///< the search's worst rollout
  /// Its events' set p entries (RunRolloutsWithDraws replays it).
  std::vector<VectorXd> worst_draws;
  long long iid_worst_index = -1;  ///< the iid side's worst rollout (RolloutKey with the seed)
};

/// Runs the search and the comparison (deterministic in options.seed; options.rollouts is not
/// used: falsify.budget rollouts each). @throws std::invalid_argument from the Validates.
FalsifyResult FalsifyRollouts(const robots::SimulationModel& model,
                              const RolloutOptions& options,
                              const FalsifyOptions& falsify);

}  // namespace impactset::rollouts
