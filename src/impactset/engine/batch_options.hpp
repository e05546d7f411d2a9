#pragma once
// The options of a batch besides its states (`impactset batch`, impactset.batch()): declared
// beside the run's options so that the option table describes both (engine/option_table.hpp).
#include <optional>
#include <string>
#include <vector>

#include <impactset/engine/run.hpp>

namespace impactset::engine {

/// Options of a batch besides the states.
struct BatchOptions {
  /// The per-state run: samples, seed (the batch seed), design, solver, selection, threads,
  /// sets and set options. keep_samples/keep_trajectories are ignored (features need samples,
  /// which are kept in memory per state and not stored). Default 4096 samples per state and no
  /// reachable sets.
  RunOptions run = [] {
    RunOptions r;
    r.sampler.samples = 4096;
    r.set_options.reachable = false;  // a batch's features are post-impact: reachable on demand
    return r;
  }();
  /// h and N for every state; empty: each state's own (its scene's sampler settings), else the
  /// kDefault* values.
  std::optional<double> step;
  std::optional<int> max_steps;
  long long keep = 16;         ///< S, post-impact values kept per state. >= 0.
  int extra_directions = 16;   ///< support directions beyond the 2 d axes. >= 0.
  long long part_states = 64;  ///< states per part file (resume granularity). >= 1.
  /// The coordinates of the features and sets: output specs as sets::ParseOutput reads them
  /// ("contact", "generalized", "com", "base", "joints:A,B", "matrix:C.csv", "NAME=SPEC"), parsed
  /// for each state (a MuJoCo model's com and base maps depend on its qpos). Empty: contact and
  /// generalized. run.set_options.outputs is ignored.
  std::vector<std::string> outputs;
  void Validate() const;
};

}  // namespace impactset::engine
