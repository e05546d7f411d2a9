#pragma once
// The options of a batch besides its states (`impactset batch`, impactset.batch()): declared
// beside the run's options so that the option table describes both (engine/option_table.hpp).
#include <optional>
#include <string>
#include <vector>

#include <impactset/engine/run.hpp>

namespace impactset::engine {

/// A batch state's hold-out K' when none is given, for K samples per state: K/4 (the hold-out
/// runs K' more samples: a quarter of the sampling), at least kMinBatchHoldout and at most
/// kMaxBatchHoldout (a run's default, sets::SetOptions::holdout), and never more than K.
/// K = 256: 64 (missed-mass bound 4.6 % with no miss at delta = 0.05); K = 4096: 1024 (0.29 %);
/// K >= 16384: 4096 (0.073 %).
long long BatchHoldout(long long samples);
inline constexpr long long kMinBatchHoldout = 64;
inline constexpr long long kMaxBatchHoldout = 4096;
/// BatchOptions::run.set_options.holdout meaning "BatchHoldout of the samples" (the default).
inline constexpr long long kHoldoutFromSamples = -1;

/// A batch state's polish when none is given, for K samples per state: the hold-out's rule
/// (BatchHoldout: K/4 within [64, 4096], at most K), so that a batch of cheap states spends a
/// quarter of its sampling on the polish, not most of it; a run's default is 4096.
long long BatchPolish(long long samples);
/// BatchOptions::run.set_options.polish meaning "BatchPolish of the samples" (the default).
inline constexpr long long kPolishFromSamples = -1;

/// Options of a batch besides the states.
struct BatchOptions {
  /// The per-state run: samples, seed (the batch seed), design, solver, selection, threads,
  /// sets and set options. keep_samples/keep_trajectories are ignored (features need samples,
  /// which are kept in memory per state and not stored). Default 4096 samples per state, no
  /// reachable sets, the hold-out of Holdout() and the polish of Polish().
  RunOptions run = [] {
    RunOptions r;
    r.sampler.samples = 4096;
    r.set_options.holdout = kHoldoutFromSamples;
    r.set_options.polish = kPolishFromSamples;
    return r;
  }();
  /// h and N for every state; empty: each state's own (its scene's sampler settings), else the
  /// kDefault* values.
  std::optional<double> step;
  std::optional<int> max_steps;
  long long keep = 16;         ///< S, post-impact values kept per state. >= 0.
  int extra_directions = 16;   ///< support directions beyond the 2 d axes. >= 0.
  long long part_states = 64;  ///< states per part file (resume granularity). >= 1.
  /// The hold-out K' every state runs: run.set_options.holdout, or when that is
  /// kHoldoutFromSamples (the default) BatchHoldout(run.sampler.samples), so that a batch of
  /// cheap states does not spend most of its time on the hold-out.
  long long Holdout() const;
  /// The polish every state runs: run.set_options.polish, or when that is kPolishFromSamples (the
  /// default) BatchPolish(run.sampler.samples).
  long long Polish() const;
  /// The coordinates of the features and sets: output specs as sets::ParseOutput reads them
  /// ("contact", "generalized", "com", "base", "joints:A,B", "matrix:C.csv", "NAME=SPEC"), parsed
  /// for each state (a MuJoCo model's com and base maps depend on its qpos). Empty: contact and
  /// generalized. run.set_options.outputs is ignored.
  std::vector<std::string> outputs;
  void Validate() const;
};

}  // namespace impactset::engine
