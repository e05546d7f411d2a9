#include <impactset/engine/batch_options.hpp>

#include <algorithm>
#include <cmath>

#include <impactset/common/error_policy.hpp>

namespace impactset::engine {

long long BatchHoldout(long long samples) {
  return std::min(samples, std::clamp(samples / 4, kMinBatchHoldout, kMaxBatchHoldout));
}

long long BatchOptions::Holdout() const {
  const long long given = run.set_options.holdout;
  return given == kHoldoutFromSamples ? BatchHoldout(run.sampler.samples) : given;
}

long long BatchPolish(long long samples) { return BatchHoldout(samples); }

long long BatchOptions::Polish() const {
  const long long given = run.set_options.polish;
  return given == kPolishFromSamples ? BatchPolish(run.sampler.samples) : given;
}

void BatchOptions::Validate() const {
  RunOptions resolved = run;  // the run's rules, with the hold-out and polish the states will use
  resolved.set_options.holdout = Holdout();
  resolved.set_options.polish = Polish();
  resolved.Validate();
  if (step && !(*step > 0 && std::isfinite(*step))) InvalidArgument("step", *step, "must be > 0");
  if (max_steps && *max_steps < 1) InvalidArgument("max_steps", *max_steps, "must be >= 1");
  if (run.sampler.shard_count != 1) {
    InvalidArgument("shard_count", run.sampler.shard_count, "a batch runs whole states (1)");
  }
  if (keep < 0 || keep > 1000000) InvalidArgument("keep", keep, "must be in [0, 10^6]");
  if (extra_directions < 0 || extra_directions > 100000) {
    InvalidArgument("extra_directions", extra_directions, "must be in [0, 10^5]");
  }
  if (part_states < 1) InvalidArgument("part_states", part_states, "must be >= 1");
  if (!run.set_options.outputs.empty()) {
    InvalidArgument("outputs", run.set_options.outputs.size(),
                    "a batch builds its features and sets in contact and generalized coordinates "
                    "(other outputs: impactset run --output)");
  }
}

}  // namespace impactset::engine
