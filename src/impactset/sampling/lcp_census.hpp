#pragma once
// Counts how the LCP fallback chain fares on the step LCPs Algorithm 1 actually visits.
#include <cstdint>

#include <impactset/impact/algorithm1.hpp>
#include <impactset/lcp/fallback.hpp>

namespace impactset::sampling {

struct LcpCensus {
  long long samples = 0;
  long long terminated = 0;
  long long step_capped = 0;
  long long lcp_failures = 0;   ///< samples that ended with an unsolved step
  long long non_physical = 0;   ///< samples whose end state failed impact::CheckOutcome
  lcp::FallbackCounters chain;  ///< per-solve: which link succeeded, chain failures
  double worst_residual = 0;    ///< over every accepted step answer
  double NativeFraction() const {
    return chain.solves ? static_cast<double>(chain.SolvedBy(lcp::SolverId::kNative)) / chain.solves
                        : 1.0;
  }
};

/// Runs Algorithm 1 with iid p-vectors (stream (seed, i) for sample i) until at least
/// min_solves step LCPs have been solved, every solve going through a FallbackSolver, so that
/// each step LCP is one a real sample visits (lambda_max = h p at the velocity reached).
LcpCensus RunLcpCensus(const impact::ImpactProblem& problem,
                       const impact::Algorithm1Options& options,
                       std::uint64_t seed,
                       long long min_solves);

}  // namespace impactset::sampling
