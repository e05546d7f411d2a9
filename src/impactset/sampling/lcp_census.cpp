#include <impactset/sampling/lcp_census.hpp>

#include <algorithm>

#include <impactset/sampling/streams.hpp>

namespace impactset::sampling {

LcpCensus RunLcpCensus(const impact::ImpactProblem& problem,
                       const impact::Algorithm1Options& options,
                       std::uint64_t seed,
                       long long min_solves) {
  lcp::FallbackOptions chain_options;
  chain_options.native = options.lemke;
  lcp::FallbackSolver chain(chain_options);
  impact::Algorithm1Options o = options;
  o.selection = impact::Selection::kFirst;  // count the chain's own answers, one per step
  impact::RouthSampler sampler(problem, o, &chain);
  LcpCensus c;
  for (long long i = 0; chain.counters().solves < min_solves; ++i) {
    IidPSource source(seed, static_cast<std::uint64_t>(i));
    const impact::SampleResult& r = sampler.Run(source);
    ++c.samples;
    switch (r.status) {
      case impact::SampleStatus::kTerminated:
        ++c.terminated;
        break;
      case impact::SampleStatus::kStepCap:
        ++c.step_capped;
        break;
      case impact::SampleStatus::kLcpFailure:
        ++c.lcp_failures;
        break;
      case impact::SampleStatus::kNonPhysical:
        ++c.non_physical;
        break;
    }
    if (r.status != impact::SampleStatus::kLcpFailure) {
      c.worst_residual = std::max(c.worst_residual, r.worst_residual);
    }
    if (r.lcp_solves == 0) break;  // v- is not colliding: no step LCP to count
  }
  c.chain = chain.counters();
  return c;
}

}  // namespace impactset::sampling
