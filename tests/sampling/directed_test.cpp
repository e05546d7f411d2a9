// The directed design (sampling/directed_design.hpp): deterministic at any thread count, every
// sample a genuine Algorithm-1 outcome of its recorded p-sequence, the pilot the mixed run; the
// polish (PolishExtremes), the same search started from a run's samples.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/sampling/directed_design.hpp>
#include <impactset/sampling/sampler.hpp>
#include <impactset/systems/builtin.hpp>
#include <impactset/systems/matrix_input.hpp>
#include "test_util.hpp"

namespace impactset::sampling {
namespace {

using impactset::testing::Example;

SamplerOptions Directed(const systems::LoadedProblem& lp, int threads, long long samples) {
  SamplerOptions o;
  o.algorithm.step = lp.settings.step.value_or(1.0);
  o.algorithm.max_steps = lp.settings.max_steps.value_or(10);
  o.samples = samples;
  o.seed = 42;
  o.threads = threads;
  o.design = Design::kDirected;
  o.keep_samples = true;
  o.keep_p_sequences = true;
  return o;
}

TEST(DirectedDesign, ParsesAndPrintsItsName) {
  EXPECT_EQ(ParseDesign("directed"), Design::kDirected);
  EXPECT_STREQ(ToString(Design::kDirected), "directed");
}

class DirectedDeterminism : public ::testing::TestWithParam<std::string> {};

TEST_P(DirectedDeterminism, BitIdenticalAt1_2And16Threads) {
  const auto lp = Example(GetParam());
  SamplerOptions o = Directed(lp, 1, 1501);
  o.keep_trajectories = true;
  const SamplerResult one = RunSampler(lp.problem, o);
  ASSERT_EQ(one.records.count(), 1501);
  for (int threads : {2, 16}) {
    o.threads = threads;
    const SamplerResult many = RunSampler(lp.problem, o);
    EXPECT_EQ(one.records.p_sequences, many.records.p_sequences) << threads;
    EXPECT_EQ(one.records.choice_keys, many.records.choice_keys) << threads;
    EXPECT_EQ(one.records.v_plus, many.records.v_plus) << threads;  // bitwise
    EXPECT_EQ(one.records.contact_velocity, many.records.contact_velocity);
    EXPECT_EQ(one.records.status, many.records.status);
    EXPECT_EQ(one.records.lcp_solves, many.records.lcp_solves);
    EXPECT_EQ(one.records.trajectories, many.records.trajectories);
    EXPECT_EQ(one.summary.lcp_solves, many.summary.lcp_solves);
    EXPECT_EQ(one.summary.contact_velocity_max, many.summary.contact_velocity_max);
  }
}

TEST_P(DirectedDeterminism, StreamedBlocksAreTheKeptSamplesInOrder) {
  const auto lp = Example(GetParam());
  const SamplerOptions o = Directed(lp, 2, 1301);
  MatrixXd streamed(lp.problem.n(), 0);
  long long next = 0;
  StreamOptions stream;
  stream.block_size = 256;
  stream.sink = [&](const SampleBlock& b) {
    EXPECT_EQ(b.first, next);
    EXPECT_EQ(b.first % stream.block_size, 0);
    next += b.samples.count();
    streamed.conservativeResize(Eigen::NoChange, next);
    streamed.rightCols(b.samples.count()) = b.samples.v_plus;
  };
  const SamplerResult r = RunSampler(lp.problem, o, {}, stream);
  EXPECT_EQ(next, 1301);
  EXPECT_EQ(streamed, r.records.v_plus);
}

INSTANTIATE_TEST_SUITE_P(Examples,
                         DirectedDeterminism,
                         ::testing::Values("rocking-block", "ramone"),
                         [](const auto& info) { return testing::TestName(info.param); });

// Every sample, pilot and proposals alike, is what Algorithm 1 makes of its p-sequence with the
// choices of its key's stream: the estimate is made of genuine outcomes, an inner approximation
// of the set.
TEST(DirectedDesign, EverySampleReplaysFromItsPSequenceAndChoiceKey) {
  const auto lp = Example("compass-gait");
  const SamplerOptions o = Directed(lp, 2, 700);
  const SamplerResult r = RunSampler(lp.problem, o);
  const MatrixXd& p = r.records.p_sequences;
  ASSERT_EQ(p.rows(), lp.problem.m() * o.algorithm.max_steps);
  ASSERT_EQ(p.cols(), 700);
  ASSERT_EQ(r.records.choice_keys.size(), 700u);
  EXPECT_GE(p.minCoeff(), 0.0);
  EXPECT_LE(p.maxCoeff(), 1.0);
  for (Eigen::Index k = 0; k < p.cols(); ++k) {
    const long long key = r.records.choice_keys[static_cast<size_t>(k)];
    const impact::SampleResult s = RunSampleWithPSequence(lp.problem, o, key, p.col(k));
    ASSERT_EQ(s.v_plus, r.records.v_plus.col(k)) << "sample " << k;  // bitwise
    ASSERT_EQ(s.status, r.records.status[static_cast<size_t>(k)]) << "sample " << k;
    ASSERT_EQ(s.lcp_solves, r.records.lcp_solves[static_cast<size_t>(k)]) << "sample " << k;
  }
}

// Pilot and boundary draws run with their own choices; a proposal made from elites runs with the
// stream of an earlier sample (the elite it starts from), which is what lets the search move an
// outcome through P while a non-unique step keeps its choice.
TEST(DirectedDesign, ProposalsInheritTheChoicesOfEarlierSamples) {
  const auto lp = Example("compass-gait");
  const SamplerResult r = RunSampler(lp.problem, Directed(lp, 2, 2000));
  const std::vector<std::int64_t>& keys = r.records.choice_keys;
  ASSERT_EQ(keys.size(), 2000u);
  const auto pilot = static_cast<long long>(std::ceil(DirectedOptions{}.pilot_fraction * 2000));
  long long inherited = 0;
  for (long long k = 0; k < 2000; ++k) {
    const long long key = keys[static_cast<size_t>(k)];
    if (k < pilot) {
      EXPECT_EQ(key, k);
    }
    EXPECT_LE(key, k);
    EXPECT_GE(key, 0);
    if (key < k) ++inherited;
  }
  EXPECT_GT(inherited, (2000 - pilot) / 2);  // most proposals start from elites
  // Replayed with its own index instead, some inherited sample lands elsewhere: the key matters.
  const SamplerOptions o = Directed(lp, 1, 1);
  long long moved = 0;
  for (long long k = pilot; k < 2000; ++k) {
    if (keys[static_cast<size_t>(k)] == k) continue;
    const impact::SampleResult own =
        RunSampleWithPSequence(lp.problem, o, k, r.records.p_sequences.col(k));
    if (own.v_plus != r.records.v_plus.col(k)) ++moved;
  }
  EXPECT_GT(moved, 0);
}

TEST(DirectedDesign, PilotIsTheMixedRunAndTheRestDiffers) {
  const auto lp = Example("rocking-block");
  SamplerOptions o = Directed(lp, 2, 1024);
  const SamplerResult directed = RunSampler(lp.problem, o);
  o.design = Design::kMixed;
  const SamplerResult mixed = RunSampler(lp.problem, o);
  o.keep_p_sequences = false;  // keeping P runs the same samples
  EXPECT_EQ(RunSampler(lp.problem, o).records.v_plus, mixed.records.v_plus);
  const auto pilot = static_cast<Eigen::Index>(std::ceil(DirectedOptions{}.pilot_fraction * 1024));
  EXPECT_EQ(directed.records.p_sequences.leftCols(pilot),
            mixed.records.p_sequences.leftCols(pilot));
  EXPECT_EQ(directed.records.v_plus.leftCols(pilot), mixed.records.v_plus.leftCols(pilot));
  for (long long k = 0; k < 1024; ++k) {  // mixed samples run with their own choices
    EXPECT_EQ(mixed.records.choice_keys[static_cast<size_t>(k)], k);
  }
  EXPECT_NE(directed.records.p_sequences.rightCols(1024 - pilot),
            mixed.records.p_sequences.rightCols(1024 - pilot));
}

// Every polish sample is an outcome of the law: its recorded P and key replay it bit for bit,
// and the polish moves no support value inward (its starts are the run's own samples).
TEST(Polish, SamplesReplayAndValuesOnlyRise) {
  const auto lp = Example("compass-gait");
  SamplerOptions o = Directed(lp, 2, 3000);
  o.design = Design::kMixed;
  o.keep_samples = false;
  const MatrixXd output = lp.problem.ContactJacobian();
  const PolishResult r = PolishExtremes(lp.problem, o, output, {0, 1, 2999, 17, 1}, 3000, 800);
  ASSERT_EQ(r.samples.count(), 800);
  ASSERT_EQ(r.samples.p_sequences.cols(), 800);
  const SamplerOptions one = Directed(lp, 1, 1);
  long long replayed = 0;
  for (long long k = 0; k < 800; k += 7) {
    const impact::SampleResult s =
        RunSampleWithPSequence(lp.problem, one, r.samples.choice_keys[static_cast<size_t>(k)],
                               r.samples.p_sequences.col(k));
    EXPECT_EQ(s.v_plus, r.samples.v_plus.col(k)) << k;
    ++replayed;
  }
  EXPECT_GT(replayed, 100);
  ASSERT_EQ(r.values.size(), r.start_values.size());
  EXPECT_TRUE((r.values.array() >= r.start_values.array()).all());
  EXPECT_TRUE((r.values.array() > r.start_values.array()).any());
  // The same at one thread.
  SamplerOptions single = o;
  single.threads = 1;
  EXPECT_EQ(PolishExtremes(lp.problem, single, output, {2999, 17, 0, 1}, 3000, 800).samples.v_plus,
            r.samples.v_plus);
  EXPECT_THROW(PolishExtremes(lp.problem, o, output, {3000}, 3000, 10), std::invalid_argument);
  EXPECT_THROW(PolishExtremes(lp.problem, o, output, {0}, 2999, 10), std::invalid_argument);
  EXPECT_THROW(PolishExtremes(lp.problem, o, output, {}, 3000, 10), std::invalid_argument);
  o.design = Design::kDirected;
  EXPECT_THROW(PolishExtremes(lp.problem, o, output, {0}, 3000, 10), std::invalid_argument);
}

// Newton's cradle (three unit discs, frictionless, v- = (1, 0, 0)): every post-impact outcome
// conserves momentum (sum v = 1), has no contact approaching and no energy gained. The directed
// outcomes, chosen for being extreme, must stay in that set.
TEST(DirectedDesign, OutcomesStayInTheCradlesPhysicalSet) {
  // Terminated samples end with Jn v >= -1e-8 (the termination tolerance); momentum and energy
  // hold to the solver's roundoff on O(1) numbers.
  constexpr double kTermination = 1e-8, kRoundoff = 1e-9;
  const auto lp = systems::LoadBuiltin("newtons-cradle");
  const SamplerResult r = RunSampler(lp.problem, Directed(lp, 2, 2000));
  long long terminated = 0;
  for (Eigen::Index k = 0; k < r.records.v_plus.cols(); ++k) {
    if (r.records.status[static_cast<size_t>(k)] != impact::SampleStatus::kTerminated) continue;
    ++terminated;
    const VectorXd v = r.records.v_plus.col(k);
    EXPECT_NEAR(v.sum(), 1.0, kRoundoff) << k;
    EXPECT_GE(v(1) - v(0), -kTermination) << k;
    EXPECT_GE(v(2) - v(1), -kTermination) << k;
    EXPECT_LE(0.5 * v.squaredNorm(), 0.5 + kRoundoff) << k;
  }
  EXPECT_GT(terminated, 1000);
}

TEST(DirectedDesign, RejectsShardsAndBadOptions) {
  const auto lp = Example("rocking-block");
  SamplerOptions o = Directed(lp, 1, 100);
  o.shard_count = 2;
  EXPECT_THROW(RunSampler(lp.problem, o), std::invalid_argument);
  o.shard_count = 1;
  o.directed.pilot_fraction = 0;
  EXPECT_THROW(RunSampler(lp.problem, o), std::invalid_argument);
  o.directed.pilot_fraction = 0.5;
  o.directed.boundary_fraction = 1;
  EXPECT_THROW(RunSampler(lp.problem, o), std::invalid_argument);
  o.directed.boundary_fraction = 0.2;
  EXPECT_THROW(RunSampleWithPSequence(lp.problem, o, 0, VectorXd::Constant(3, 0.5)),
               std::invalid_argument);
  const int dim = lp.problem.m() * o.algorithm.max_steps;
  EXPECT_THROW(RunSampleWithPSequence(lp.problem, o, 0, VectorXd::Constant(dim, 1.5)),
               std::invalid_argument);
}

// The search pushes support values outward: after the pilot, no direction's best value falls,
// and over the rounds some rises.
TEST(DirectedSearch, BestValuesNeverFallAndRise) {
  const auto lp = Example("compass-gait");
  const SamplerOptions o = Directed(lp, 1, 1);
  impact::Algorithm1Options a = o.algorithm;
  DirectedSearch search(DirectedOptions{}, lp.problem.m(), a.max_steps,
                        static_cast<int>(lp.problem.ContactJacobian().rows()), 7, 3000);
  VectorXd after_pilot, last;
  bool rose = false;
  for (auto round = search.NextRound(); round.first < round.second; round = search.NextRound()) {
    for (long long i = round.first; i < round.second; ++i) {
      if (search.Ordered(i)) continue;  // chosen from the state: RunSampler runs those
      VectorXd p(search.dimension());
      long long key = -1;
      search.Proposal(i, p, &key);
      ASSERT_GE(key, 0);
      ASSERT_LE(key, i);
      const impact::SampleResult s = RunSampleWithPSequence(lp.problem, o, key, p);
      search.Observe(i, s.contact_velocity, s.status == impact::SampleStatus::kTerminated, p, key);
    }
    search.EndRound();
    const VectorXd h = search.best_values();
    if (last.size() > 0) {
      EXPECT_TRUE((h.array() >= last.array()).all());
      rose = rose || (h.array() > after_pilot.array()).any();
    } else {
      after_pilot = h;
    }
    last = h;
  }
  EXPECT_GT(search.rounds(), 1);
  EXPECT_TRUE(rose);
}

}  // namespace
}  // namespace impactset::sampling
