// The LCP layer's robustness requirement, small version: on the step LCPs that Algorithm 1 visits
// (lambda_max = h p at the velocities reached), the native Lemke alone solves >= 99.99 % and the
// fallback chain 100 %, every accepted answer passing the residual check. The 10^6 version is
// bench/lcp_census (numbers in bench/README.md).
#include <impactset/sampling/lcp_census.hpp>

#include <string>

#include <gtest/gtest.h>

#include <impactset/lcp/residual.hpp>
#include <impactset/sampling/basis_pilot.hpp>
#include <impactset/systems/matrix_input.hpp>
#include "test_util.hpp"

namespace impactset::sampling {
namespace {

using impactset::testing::Example;
using impactset::testing::TestName;

constexpr long long kSolves = 10000;
constexpr double kNativeFraction = 0.9999;  // the target for the native Lemke alone

class LcpCensusTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LcpCensusTest, NativeAndChainSolveVisitedStepLcps) {
  const auto lp = systems::LoadProblemJson(std::string(IMPACTSET_TEST_DATA_DIR) + "/problems/" +
                                           GetParam() + ".json");
  impact::Algorithm1Options o;
  o.step = *lp.settings.step;
  o.max_steps = *lp.settings.max_steps;
  for (std::uint64_t seed : {1u, 2u}) {
    const LcpCensus c = RunLcpCensus(lp.problem, o, seed, kSolves);
    EXPECT_GE(c.chain.solves, kSolves);
    EXPECT_EQ(c.chain.failures, 0) << "seed " << seed;
    EXPECT_EQ(c.lcp_failures, 0);
    EXPECT_LE(c.worst_residual, lcp::kAcceptTolerance);
    if (GetParam().rfind("disk-stack", 0) == 0) continue;  // only the chain is required there
    EXPECT_GE(c.NativeFraction(), kNativeFraction)
        << "native solved " << c.chain.SolvedBy(lcp::SolverId::kNative) << " of " << c.chain.solves;
  }
}

INSTANTIATE_TEST_SUITE_P(PaperExamples,
                         LcpCensusTest,
                         ::testing::ValuesIn(impactset::testing::kPaperExamples),
                         [](const auto& info) { return TestName(info.param); });

// The basis census counts what the warm start does: on the rocking block the pilot's table answers
// most steps without a path, and the pivots walked fall accordingly; the same samples' steps.
TEST(BasisCensus, CountsTheWarmStartsOfTheRockingBlock) {
  const auto lp = Example("rocking-block");
  impact::Algorithm1Options o;
  o.step = *lp.settings.step;
  o.max_steps = *lp.settings.max_steps;
  const BasisCensus c = RunBasisCensus(lp.problem, o, 3, 4096);
  EXPECT_EQ(c.pilot, BasisPilotSamples(4096));
  EXPECT_GT(c.steps, c.samples - c.pilot);
  EXPECT_LE(c.later_steps, c.steps);
  EXPECT_LE(c.known_bases, c.steps);
  EXPECT_GT(c.distinct, 1);
  EXPECT_LE(c.top1, c.top4);
  EXPECT_LE(c.top4, c.top16);
  EXPECT_GT(c.table_bases, 0);
  EXPECT_GT(c.table_hits, c.steps / 2);
  EXPECT_LT(c.pivots_table, c.pivots_cold / 2);
}

}  // namespace
}  // namespace impactset::sampling
