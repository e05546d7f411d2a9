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

/// How the step LCPs of a run's samples end: which complementary bases solve them and how often
/// a warm start (impact::Algorithm1Options::warm_start) finds the answer without a path.
struct BasisCensus {
  long long samples = 0;
  long long pilot = 0;        ///< the pilot's samples (BasisPilotSamples); the rest are counted
  long long steps = 0;        ///< step LCPs of the counted samples
  long long later_steps = 0;  ///< of those, steps after a sample's first (a previous basis exists)
  long long known_bases = 0;  ///< steps whose answer's basis is known (lcp::Solver::FinalBasis)
  long long distinct = 0;     ///< distinct bases among those
  /// Share of the steps ended by the 1, 4 and 16 most frequent bases.
  double top1 = 0, top4 = 0, top16 = 0;
  long long pivots_cold = 0;   ///< pivots, warm start off
  int table_bases = 0;         ///< bases the pilot's table tries (impact::StepBasisTable)
  long long table_hits = 0;    ///< steps answered by a warm start with the pilot's table
  long long pivots_table = 0;  ///< pivots with it
};

/// Runs samples pilot .. samples-1 of the mixed design (the run's own streams for `seed`) with the
/// warm start off and with the table learned from samples 0 .. pilot-1 (pilot =
/// BasisPilotSamples(samples); LearnStepBases), the options otherwise as given.
BasisCensus RunBasisCensus(const impact::ImpactProblem& problem,
                           const impact::Algorithm1Options& options,
                           std::uint64_t seed,
                           long long samples);

}  // namespace impactset::sampling
