#pragma once
// The Routh post-impact set of an impact state, as tests compare other laws against it.
#include <cstdint>
#include <vector>

#include "sampling/sampler.hpp"

namespace impactset::testing {

/// Contact velocities (contact coordinates x K') of the terminated samples among `samples`
/// Algorithm-2 samples (iid, the given h and N): the sampled Routh post-impact set. Step-capped
/// samples are left out, since they are not post-impact outcomes.
inline Eigen::MatrixXd RouthContactVelocities(const impact::ImpactProblem& problem,
                                              double step,
                                              int max_steps,
                                              long long samples,
                                              std::uint64_t seed) {
  sampling::SamplerOptions so;
  so.algorithm.step = step;
  so.algorithm.max_steps = max_steps;
  so.samples = samples;
  so.seed = seed;
  so.keep_samples = true;
  const auto run = sampling::RunSampler(problem, so);
  std::vector<Eigen::Index> kept;
  for (size_t j = 0; j < run.records.status.size(); ++j) {
    if (run.records.status[j] == 0) kept.push_back(static_cast<Eigen::Index>(j));
  }
  Eigen::MatrixXd set(run.records.contact_velocity.rows(), static_cast<Eigen::Index>(kept.size()));
  for (size_t j = 0; j < kept.size(); ++j) {
    set.col(static_cast<Eigen::Index>(j)) = run.records.contact_velocity.col(kept[j]);
  }
  return set;
}

}  // namespace impactset::testing
