// The warm start (impact::Algorithm1Options::warm_start): a table learned from the run's pilot,
// tried before each Lemke path. The same samples at any thread count and on replay; on steps
// with one solution the path's answers to roundoff; bases that decide a non-unique step
// otherwise than the selection are dropped by the pilot.
#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <impactset/sampling/basis_pilot.hpp>
#include <impactset/sampling/sampler.hpp>
#include "test_util.hpp"

namespace impactset::sampling {
namespace {

using impactset::testing::Example;

SamplerOptions Options(const systems::LoadedProblem& lp, long long samples, bool warm) {
  SamplerOptions o;
  o.algorithm.step = lp.settings.step.value_or(1.0);
  o.algorithm.max_steps = lp.settings.max_steps.value_or(10);
  o.algorithm.warm_start = warm;
  o.samples = samples;
  o.seed = 5;
  o.threads = 2;
  o.keep_samples = true;
  o.keep_p_sequences = true;
  return o;
}

// Warm and path answers of a step with one solution differ by LU against product-form roundoff;
// over a few steps of O(1) velocities that stays far below this.
constexpr double kRoundoff = 1e-9;

TEST(WarmStart, TheRockingBlocksTableAnswersMostStepsAndChangesNoSample) {
  const auto lp = Example("rocking-block");
  const SamplerResult cold = RunSampler(lp.problem, Options(lp, 8192, false));
  const SamplerResult warm = RunSampler(lp.problem, Options(lp, 8192, true));
  const auto table = LearnRunStepBases(lp.problem, Options(lp, 8192, true));
  ASSERT_TRUE(table);
  EXPECT_GT(table->tried_bases(), 0);
  EXPECT_GT(warm.summary.warm_starts, warm.summary.lcp_solves / 2);
  EXPECT_EQ(cold.summary.warm_starts, 0);
  ASSERT_EQ(cold.records.status, warm.records.status);
  EXPECT_LE((cold.records.v_plus - warm.records.v_plus).cwiseAbs().maxCoeff(), kRoundoff);
}

TEST(WarmStart, SameSamplesAtAnyThreadCountAndOnReplay) {
  const auto lp = Example("box-wall");
  SamplerOptions o = Options(lp, 3001, true);
  o.threads = 1;
  const SamplerResult one = RunSampler(lp.problem, o);
  ASSERT_GT(one.summary.warm_starts, 0);
  o.threads = 7;
  const SamplerResult many = RunSampler(lp.problem, o);
  EXPECT_EQ(one.records.v_plus, many.records.v_plus);  // bitwise
  EXPECT_EQ(one.summary.warm_starts, many.summary.warm_starts);
  for (const long long k : {0LL, 1LL, 1000LL, 3000LL}) {
    const impact::SampleResult r = RunSampleWithPSequence(lp.problem, o, one.records.choice_keys[k],
                                                          one.records.p_sequences.col(k));
    EXPECT_EQ(r.v_plus, one.records.v_plus.col(k)) << k;
  }
}

// RAMone's steps have several solutions with different increments (docs/model.md §9): a basis
// that solves such a step would pin every sample to one of them. The pilot must drop every such
// basis, so the set's extent is the selection's.
TEST(WarmStart, NonUniqueStepsAreLeftToTheSelection) {
  const auto lp = Example("ramone");
  const SamplerResult cold = RunSampler(lp.problem, Options(lp, 4096, false));
  const SamplerResult warm = RunSampler(lp.problem, Options(lp, 4096, true));
  const MatrixXd& a = cold.records.contact_velocity;
  const MatrixXd& b = warm.records.contact_velocity;
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    EXPECT_NEAR(a.row(i).minCoeff(), b.row(i).minCoeff(), kRoundoff) << i;
    EXPECT_NEAR(a.row(i).maxCoeff(), b.row(i).maxCoeff(), kRoundoff) << i;
  }
}

TEST(WarmStart, NoTableForSmallRunsOrWithDetection) {
  const auto lp = Example("rocking-block");
  EXPECT_EQ(BasisPilotSamples(127), 0);
  EXPECT_EQ(BasisPilotSamples(1 << 20), kBasisPilotMax);
  EXPECT_FALSE(LearnRunStepBases(lp.problem, Options(lp, 100, true)));
  SamplerOptions o = Options(lp, 8192, true);
  o.algorithm.detect_non_unique = true;
  EXPECT_FALSE(LearnRunStepBases(lp.problem, o));
  o.algorithm.detect_non_unique = false;
  o.algorithm.warm_start = false;
  EXPECT_FALSE(LearnRunStepBases(lp.problem, o));
}

}  // namespace
}  // namespace impactset::sampling
