#pragma once
// The Routh post-impact set of an impact state, as tests compare other laws against it.
#include <cstdint>

#include <impactset/sampling/sampler.hpp>

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
  return sampling::TerminatedColumns(run.records.contact_velocity, run.records.status);
}

}  // namespace impactset::testing
