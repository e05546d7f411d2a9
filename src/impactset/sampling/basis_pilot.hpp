#pragma once
// The pilot that learns which complementary bases solve a run's step LCPs (the warm start's
// table, impact::StepBasisTable).
#include <cstdint>
#include <memory>

#include <impactset/impact/algorithm1.hpp>
#include <impactset/impact/step_bases.hpp>
#include <impactset/lcp/fallback.hpp>

namespace impactset::sampling {

struct SamplerOptions;

/// Most and fewest samples of the pilot: K / 8 of them, at most kBasisPilotMax; below
/// kBasisPilotMin (runs of fewer than 128 samples) there is no pilot and each sample tries only
/// its own previous basis. 256 samples see the bases that solve 78-99 % of the planar examples'
/// steps (docs/performance.md) at 0.4 % of a default run.
inline constexpr long long kBasisPilotMax = 256;
inline constexpr long long kBasisPilotMin = 16;

/// A table is used only if, learned from the pilot's first half, it answers at least this share
/// of the second half's steps as the selection does. Tries that miss cost an LU solve each: on the
/// disk stack and the flat cube (1-2 % answered) the warm start made runs 20 % slower; from about a
/// third answered it saves more than it costs (docs/performance.md).
inline constexpr double kMinPilotWarmShare = 0.3;

/// The seed of every run's pilot: the table depends on the problem and Algorithm 1's options, not
/// on the run's seed, so a design that does not depend on the seed (plain Sobol with the first
/// selection) still does not.
inline constexpr std::uint64_t kBasisPilotSeed = 0x5eed'ba5e;

/// The pilot's size for a run of `samples` samples (0: none).
long long BasisPilotSamples(long long samples);

/// Runs samples [first, end) of the mixed design (even: iid, odd: ordered p-sequences; the
/// streams of `seed`, as RunSampler draws them) on sampler.
void RunMixedSamples(impact::RouthSampler& sampler,
                     std::uint64_t seed,
                     long long first,
                     long long end);

/// The table a pilot of `pilot` samples learns: samples 0 .. pilot-1 of the mixed design with
/// Algorithm 1's options and the given solver, on the calling thread. The first half learns
/// which bases follow which; the second half verifies: every step a table basis solves is also
/// solved by the selection, and a basis whose velocity increment differed there (it would decide
/// a non-unique step otherwise than the selection) is removed. Empty when the bases left answered
/// fewer than kMinPilotWarmShare of the second half's steps. The same arguments give the same
/// table on any machine and in any process.
impact::StepBasisTable LearnStepBases(const impact::ImpactProblem& problem,
                                      const impact::Algorithm1Options& algorithm,
                                      lcp::SolverKind solver,
                                      std::uint64_t seed,
                                      long long pilot);

/// A run's table: LearnStepBases with its options, kBasisPilotSeed and
/// BasisPilotSamples(options.samples) samples. Null where no table is used: the warm start off,
/// detect_non_unique on, or no pilot.
std::shared_ptr<const impact::StepBasisTable> LearnRunStepBases(
    const impact::ImpactProblem& problem, const SamplerOptions& options);

}  // namespace impactset::sampling
