// Algorithm 1 (docs/model.md §5) on the paper's examples and on hand-made single-contact problems.
#include <impactset/impact/algorithm1.hpp>
#include <impactset/impact/jam.hpp>
#include <impactset/laws/anitescu_potra.hpp>
#include <impactset/laws/sequential.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/lcp/fallback.hpp>
#include <impactset/sampling/streams.hpp>
#include <impactset/systems/matrix_input.hpp>
#include "test_util.hpp"

namespace impactset::impact {
namespace {

using impactset::testing::CompareMatrices;
using impactset::testing::Example;
using impactset::testing::TestName;

// Roundoff of one step on O(1) data, with room for a few steps.
constexpr double kVelocityTolerance = 1e-9;
// KE+/KE- may exceed 1 only by roundoff (Theorem 7: every step dissipates).
constexpr double kEnergyTolerance = 1e-12;

Algorithm1Options PaperOptions(const systems::LoadedProblem& lp) {
  Algorithm1Options o;
  o.step = *lp.settings.step;
  o.max_steps = *lp.settings.max_steps;
  return o;
}

// A point mass (n = 2) falling on the floor with slip: one contact, closed forms known.
ImpactProblem PointMass(double vx, double vy, double mu) {
  MatrixXd M = MatrixXd::Identity(2, 2) * 2.0;
  MatrixXd Jn(1, 2), Jf(1, 2);
  Jn << 0, 1;
  Jf << 1, 0;
  VectorXd v(2);
  v << vx, vy;
  return ImpactProblem::Planar(M, Jn, Jf, VectorXd::Constant(1, mu), v);
}

// Runs Algorithm 1 with `first` selection and p = 1 at every step (lambda_max = h).
SampleResult RunFullSteps(const ImpactProblem& p, double step, int max_steps) {
  Algorithm1Options o;
  o.step = step;
  o.max_steps = max_steps;
  o.selection = Selection::kFirst;
  lcp::FallbackSolver chain;
  RouthSampler s(p, o, &chain);
  FixedSchedule ones({VectorXd::Ones(p.m())});
  return s.Run(ones);
}

class PaperExamples : public ::testing::TestWithParam<std::string> {};

TEST_P(PaperExamples, TerminatedSamplesAreInelasticAndDissipative) {
  const auto lp = Example(GetParam());
  for (Selection sel : {Selection::kFirst, Selection::kRandom}) {
    Algorithm1Options o = PaperOptions(lp);
    o.selection = sel;
    o.check_steps = true;
    lcp::FallbackSolver chain;
    RouthSampler sampler(lp.problem, o, &chain);
    int terminated = 0;
    for (std::uint64_t i = 0; i < 2000; ++i) {
      sampling::IidPSource src(5, i);
      sampling::SampleChoices choices(5, i);
      const SampleResult& r = sampler.Run(src, &choices);
      ASSERT_NE(r.status, SampleStatus::kLcpFailure) << "sample " << i;
      EXPECT_LE(r.energy_ratio, 1.0 + kEnergyTolerance);
      EXPECT_EQ(r.check_violations, 0) << "sample " << i;  // every step obeys checks.hpp
      EXPECT_LE(r.lcp_solves, o.max_steps);
      const double min_normal = (lp.problem.Jn() * r.v_plus).minCoeff();
      if (r.status == SampleStatus::kTerminated) {
        ++terminated;
        EXPECT_GE(min_normal, -o.termination_tolerance);
      } else {
        EXPECT_EQ(r.lcp_solves, o.max_steps);  // a capped sample used every step
        EXPECT_LT(min_normal, -o.termination_tolerance);
      }
    }
    EXPECT_GT(terminated, 1000) << ToString(sel);
  }
}

TEST_P(PaperExamples, DetectionOffKeepsTheSameSamples) {
  // Random selection keeps the drawn-covering solution either way; the covering-1 solve only
  // detects non-uniqueness. So switching it off must not change a single sample.
  const auto lp = Example(GetParam());
  Algorithm1Options on = PaperOptions(lp), off = on;
  on.detect_non_unique = true;
  off.detect_non_unique = false;
  lcp::FallbackSolver chain_on, chain_off;
  RouthSampler a(lp.problem, on, &chain_on), b(lp.problem, off, &chain_off);
  for (std::uint64_t i = 0; i < 1000; ++i) {
    sampling::IidPSource s1(3, i), s2(3, i);
    sampling::SampleChoices c1(3, i), c2(3, i);
    const SampleResult ra = a.Run(s1, &c1);  // a copy: b reuses its own result
    const SampleResult& rb = b.Run(s2, &c2);
    ASSERT_EQ(ra.v_plus, rb.v_plus) << "sample " << i;  // bitwise
    EXPECT_EQ(ra.status, rb.status);
    EXPECT_EQ(ra.lcp_solves, rb.lcp_solves);  // one per step either way
    EXPECT_FALSE(rb.non_unique_step);
  }
}

INSTANTIATE_TEST_SUITE_P(All,
                         PaperExamples,
                         ::testing::ValuesIn(impactset::testing::kPaperExamples),
                         [](const auto& info) { return TestName(info.param); });

// Sample i's outcome is a pure function of (seed, i) (docs/model.md §6.3): the same pair gives
// the same bits on a second sampler that has solved another sample first, so no workspace leaks
// between samples.
TEST(Algorithm1, SameStreamSameSampleBitForBit) {
  const auto lp = Example("compass-gait");
  lcp::FallbackSolver chain1, chain2;
  RouthSampler a(lp.problem, PaperOptions(lp), &chain1);
  RouthSampler b(lp.problem, PaperOptions(lp), &chain2);
  for (std::uint64_t i : {0u, 17u, 999u}) {
    sampling::IidPSource s1(9, i), s2(9, i);
    sampling::SampleChoices c1(9, i), c2(9, i);
    const SampleResult ra = a.Run(s1, &c1);  // a copy: a reuses its result
    sampling::IidPSource warm(9, i + 1);
    sampling::SampleChoices warmc(9, i + 1);
    b.Run(warm, &warmc);
    const SampleResult& rb = b.Run(s2, &c2);
    EXPECT_EQ(ra.v_plus, rb.v_plus) << "sample " << i;  // bitwise
    EXPECT_EQ(ra.status, rb.status) << "sample " << i;
    EXPECT_EQ(ra.lcp_solves, rb.lcp_solves) << "sample " << i;
  }
}

// The streams themselves: sample i's p-stream (seed, 2 i) and choice stream (seed, 2 i + 1)
// differ from each other and from those of other indices and seeds (sampling/streams.hpp).
TEST(Algorithm1, StreamsDifferByIndexSeedAndPurpose) {
  auto first_draws = [](impact::PSource&& p) {
    VectorXd x(4);
    p.Next(0, x);
    return x;
  };
  auto first_choices = [](impact::UniformSource&& c) {
    VectorXd x(4);
    for (Eigen::Index j = 0; j < x.size(); ++j) x(j) = c.NextUniform();
    return x;
  };
  const VectorXd p = first_draws(sampling::IidPSource(9, 5));
  EXPECT_EQ(p, first_draws(sampling::IidPSource(9, 5)));
  EXPECT_NE(p, first_draws(sampling::IidPSource(9, 6)));
  EXPECT_NE(p, first_draws(sampling::IidPSource(10, 5)));
  const VectorXd c = first_choices(sampling::SampleChoices(9, 5));
  EXPECT_EQ(c, first_choices(sampling::SampleChoices(9, 5)));
  EXPECT_NE(c, first_choices(sampling::SampleChoices(9, 6)));
  EXPECT_NE(c, first_choices(sampling::SampleChoices(10, 5)));
  EXPECT_NE(c, p);
}

// Distinct outcomes among samples, each run with streams from make_streams(k).
template <class MakeStreams>
int DistinctOutcomes(RouthSampler& sampler, int samples, MakeStreams make_streams) {
  std::vector<VectorXd> seen;
  for (int k = 0; k < samples; ++k) {
    auto [source, choices] = make_streams(static_cast<std::uint64_t>(k));
    const VectorXd v = sampler.Run(source, &choices).v_plus;
    if (std::find(seen.begin(), seen.end(), v) == seen.end()) seen.push_back(v);
  }
  return static_cast<int>(seen.size());
}

// A sample must use its own streams: on sets that are not a single point, other indices or seeds
// give other outcomes. Each half isolates one stream, so a sampler that replaced either by a
// fixed one would produce a single outcome there and fail:
// - the p-stream, with `first` selection (the choice stream is then never read) on the compass
//   gait, whose post-impact set spreads over a region;
// - the choice stream, with `random` selection and one fixed p-stream on RAMone, whose step LCPs
//   have several solutions (RandomSelectionSpreadsRamoneWhereFirstCollapses).
TEST(Algorithm1, OtherIndicesAndSeedsGiveOtherOutcomes) {
  constexpr int kSamples = 40;
  const auto cg = Example("compass-gait");
  Algorithm1Options first = PaperOptions(cg);
  first.selection = Selection::kFirst;
  lcp::FallbackSolver chain;
  RouthSampler by_p(cg.problem, first, &chain);
  const int by_index = DistinctOutcomes(by_p, kSamples, [](std::uint64_t k) {
    return std::make_pair(sampling::IidPSource(9, k), sampling::SampleChoices(9, 0));
  });
  const int by_seed = DistinctOutcomes(by_p, kSamples, [](std::uint64_t k) {
    return std::make_pair(sampling::IidPSource(100 + k, 3), sampling::SampleChoices(9, 0));
  });
  // Measured 27 and 25 distinct of 40 (the set has atoms: several cap sequences end on the same
  // outcome); one fixed stream would give 1.
  EXPECT_GE(by_index, kSamples / 4) << "p-streams of indices 0.." << kSamples - 1;
  EXPECT_GE(by_seed, kSamples / 4) << "p-streams of seeds 100.." << 100 + kSamples - 1;

  const auto ramone = Example("ramone");
  RouthSampler by_choice(ramone.problem, PaperOptions(ramone), &chain);
  const int by_choice_index = DistinctOutcomes(by_choice, kSamples, [](std::uint64_t k) {
    return std::make_pair(sampling::IidPSource(2, 0), sampling::SampleChoices(2, k));
  });
  const int by_choice_seed = DistinctOutcomes(by_choice, kSamples, [](std::uint64_t k) {
    return std::make_pair(sampling::IidPSource(2, 0), sampling::SampleChoices(100 + k, 0));
  });
  // Measured 40 of 40 each: an early step's choice changes every later step.
  EXPECT_GE(by_choice_index, kSamples / 4) << "choice streams of indices 0.." << kSamples - 1;
  EXPECT_GE(by_choice_seed, kSamples / 4) << "choice streams of seeds 100.." << 100 + kSamples - 1;
}

TEST(Algorithm1, LargeCapTerminatesInOneStepWithRouthsSingleImpact) {
  // Sliding impact: vx = 1, vy = -1, mu = 0.3, m = 2. Normal impulse stops the fall:
  // Pn = m * 1 = 2; friction opposes slip with |Pt| = mu Pn = 0.6 < m vx = 2, so it slides on.
  const ImpactProblem p = PointMass(1.0, -1.0, 0.3);
  const SampleResult r = RunFullSteps(p, 100.0, 10);  // far more than the 2 units the impact needs
  EXPECT_EQ(r.status, SampleStatus::kTerminated);
  EXPECT_EQ(r.lcp_solves, 1);
  EXPECT_NEAR(r.v_plus(1), 0.0, kVelocityTolerance);
  EXPECT_NEAR(r.v_plus(0), 1.0 - 0.6 / 2.0, kVelocityTolerance);
}

TEST(Algorithm1, SmallStepsReachTheSameSingleContactOutcome) {
  // Sticking impact: vx = 0.2, vy = -1, mu = 1: |m vx| = 0.4 <= mu m |vy| = 2, so it sticks.
  const ImpactProblem p = PointMass(0.2, -1.0, 1.0);
  const SampleResult r = RunFullSteps(p, 0.3, 50);  // needs ceil(2 / 0.3) = 7 full steps
  EXPECT_EQ(r.status, SampleStatus::kTerminated);
  EXPECT_EQ(r.lcp_solves, 7);
  EXPECT_NEAR(r.v_plus(0), 0.0, kVelocityTolerance);
  EXPECT_NEAR(r.v_plus(1), 0.0, kVelocityTolerance);
}

TEST(Algorithm1, StepCapIsReportedNeverTerminated) {
  const ImpactProblem p = PointMass(0.0, -1.0, 0.5);
  const SampleResult r =
      RunFullSteps(p, 0.1, 3);  // 2 units of impulse needed, 3 steps of 0.1 allowed
  EXPECT_EQ(r.status, SampleStatus::kStepCap);
  EXPECT_EQ(r.lcp_solves, 3);
  EXPECT_NEAR(r.v_plus(1), -1.0 + 0.3 / 2.0, kVelocityTolerance);
}

// A solver that answers every step LCP in two parts: impulses (1 + 2^-60, 1) on two opposed
// contacts (k = 0: z = (s, lambda_n)), the first carried as 1 and 2^-60.
class TwoPartAnswers final : public lcp::Solver {
 public:
  lcp::SolverId id() const override { return lcp::SolverId::kExtended; }

 protected:
  lcp::SolveInfo DoSolve(const MatrixRef&, const VectorRef&, VectorXd*, lcp::InputCheck) override {
    ADD_FAILURE() << "the sampler asked for an answer in one part";
    return {};
  }
  lcp::SolveInfo DoSolveInTwoParts(const MatrixRef& M,
                                   const VectorRef& q,
                                   VectorXd* z,
                                   VectorXd* low,
                                   lcp::InputCheck) override {
    *z = (VectorXd(4) << 0, 0, 1, 1).finished();
    *low = (VectorXd(4) << 0, 0, std::ldexp(1.0, -60), 0).finished();
    lcp::SolveInfo info;
    info.status = lcp::Status::kSolved;
    info.solver = id();
    info.attempts = 1;
    info.low_part = true;
    info.residual = lcp::ComputeResidual(M, q, *z, *low);
    return info;
  }
};

// A step answered in two parts moves the velocity by M^-1 J^T (z + low), summed in long double:
// on a body of mass 2^-40 between two opposed contacts, the impulses (1 + 2^-60, 1) change the
// velocity by 2^-20 exactly and stop the approach, which the rounded impulses (1, 1) would leave
// unchanged (the sample would then run into the step cap). A second, free coordinate keeps the
// two contacts from jamming the body (impact/jam.hpp), which would end the sample without a step.
TEST(Algorithm1, AStepAnsweredInTwoPartsMovesTheVelocityByBothParts) {
  const MatrixXd M = (MatrixXd(2, 2) << std::ldexp(1.0, -40), 0, 0, 1).finished();
  const MatrixXd Jn = (MatrixXd(2, 2) << 1, 0, -1, 0).finished();
  const ImpactProblem p(M, Jn, MatrixXd(0, 2), VectorXd::Zero(2),
                        (VectorXd(2) << -std::ldexp(1.0, -20), 0).finished(), 0);
  Algorithm1Options o;
  o.max_steps = 3;
  o.selection = Selection::kFirst;
  TwoPartAnswers solver;
  RouthSampler s(p, o, &solver);
  FixedSchedule ones({VectorXd::Ones(p.m())});
  const SampleResult r = s.Run(ones);
  EXPECT_EQ(r.status, SampleStatus::kTerminated);
  EXPECT_EQ(r.lcp_solves, 1);
  EXPECT_EQ(r.v_plus(0), 0.0);
}

// A solver that claims every step LCP solved with a fixed (lambda_n, lambda_D) on the point mass
// (k = 2: z = (s, lambda_n, lambda_D1, lambda_D2, gamma)): a planted fault that the end-state
// check must catch however the answer got past a solver's own test.
class FixedImpulse final : public lcp::Solver {
 public:
  FixedImpulse(double normal, double d1, double d2) : normal_(normal), d1_(d1), d2_(d2) {}
  lcp::SolverId id() const override { return lcp::SolverId::kNative; }

 protected:
  lcp::SolveInfo DoSolve(const MatrixRef&, const VectorRef&, VectorXd* z, lcp::InputCheck) override {
    *z = (VectorXd(5) << 0, normal_, d1_, d2_, 0).finished();
    lcp::SolveInfo info;
    info.status = lcp::Status::kSolved;
    info.solver = id();
    info.attempts = 1;
    return info;
  }

 private:
  double normal_, d1_, d2_;
};

SampleResult RunWith(lcp::Solver* solver, const ImpactProblem& p) {
  Algorithm1Options o;
  o.max_steps = 3;
  o.selection = Selection::kFirst;
  RouthSampler s(p, o, solver);
  FixedSchedule ones({VectorXd::Ones(p.m())});
  return s.Run(ones);
}

// Falling at 1 on mass 2: the impulse 6 sends it up at 2, four times the energy it came with.
TEST(Algorithm1, AnEndStateWithMoreEnergyIsNonPhysical) {
  const ImpactProblem p = PointMass(0.0, -1.0, 0.5);
  FixedImpulse bounce(6, 0, 0);
  const SampleResult r = RunWith(&bounce, p);
  EXPECT_EQ(r.status, SampleStatus::kNonPhysical);
  EXPECT_FALSE(r.outcome.energy_ok);
  EXPECT_NEAR(r.energy_ratio, 4.0, kVelocityTolerance);
  FixedImpulse stop(2, 0, 0);  // the same state stopped exactly: terminated
  EXPECT_EQ(RunWith(&stop, p).status, SampleStatus::kTerminated);
}

// Opposed friction impulses of 5 cancel in the velocity (the mass stops, energy drops to 0) but
// sum to 10 > mu lambda_n = 1: outside the cone.
TEST(Algorithm1, ATotalImpulseOutsideTheConeIsNonPhysical) {
  const ImpactProblem p = PointMass(0.0, -1.0, 0.5);
  FixedImpulse squeeze(2, 5, 5);
  const SampleResult r = RunWith(&squeeze, p);
  EXPECT_EQ(r.status, SampleStatus::kNonPhysical);
  EXPECT_TRUE(r.outcome.energy_ok);
  EXPECT_FALSE(r.outcome.cone_ok);
  EXPECT_NEAR(r.outcome.cone, 9.0, kVelocityTolerance);
}

// Every paper example's samples pass the end-state check (none is non-physical).
TEST(Algorithm1, PaperExamplesHaveNoNonPhysicalSample) {
  for (const std::string name : {"rocking-block", "compass-gait", "ramone"}) {
    const systems::LoadedProblem lp = Example(name);
    lcp::FallbackSolver chain;
    RouthSampler s(lp.problem, PaperOptions(lp), &chain);
    for (std::uint64_t i = 0; i < 512; ++i) {
      sampling::IidPSource src(3, i);
      sampling::SampleChoices choices(3, i);
      const SampleResult& r = s.Run(src, &choices);
      EXPECT_NE(r.status, SampleStatus::kNonPhysical) << name << " sample " << i << ": "
                                                       << r.outcome.Describe();
    }
  }
}

// A point in the plane between three walls whose normals are 120 degrees apart: they positively
// span R^2, so the only velocity with no wall approaching is 0 (impact/jam.hpp).
ImpactProblem Jammed(double vx, double vy) {
  MatrixXd Jn(3, 2);
  Jn << 1, 0, -0.5, std::sqrt(3.0) / 2, -0.5, -std::sqrt(3.0) / 2;
  MatrixXd Jf(3, 2);
  Jf << 0, 1, -std::sqrt(3.0) / 2, -0.5, std::sqrt(3.0) / 2, -0.5;
  return ImpactProblem::Planar(MatrixXd::Identity(2, 2), Jn, Jf, VectorXd::Constant(3, 0.5),
                               (VectorXd(2) << vx, vy).finished());
}

TEST(Jam, NormalsThatPositivelySpanJamAndTheSampleEndsAtRest) {
  const ImpactProblem p = Jammed(-1.0, 0.3);
  const JamReport jam = DetectJam(p);
  EXPECT_TRUE(jam.jammed);
  EXPECT_EQ(jam.rank, 2);
  EXPECT_LE(jam.balance, kJamTolerance);
  Algorithm1Options o;
  lcp::FallbackSolver chain;
  RouthSampler s(p, o, &chain);
  sampling::IidPSource src(1, 0);
  sampling::SampleChoices choices(1, 0);
  const SampleResult& r = s.Run(src, &choices);
  EXPECT_EQ(r.status, SampleStatus::kTerminated);
  EXPECT_EQ(r.lcp_solves, 0);
  EXPECT_EQ(r.v_plus, VectorXd::Zero(2));
}

// Two opposed walls and a floor leave the ceiling direction free: not jammed. Neither is a
// problem with no more contacts than velocities.
TEST(Jam, ALeftOpenDirectionIsNotAJam) {
  MatrixXd Jn(3, 2);
  Jn << 1, 0, -1, 0, 0, 1;
  const ImpactProblem open = ImpactProblem::Planar(
      MatrixXd::Identity(2, 2), Jn, MatrixXd::Zero(3, 2), VectorXd::Zero(3),
      (VectorXd(2) << -1.0, -1.0).finished());
  const JamReport r = DetectJam(open);
  EXPECT_FALSE(r.jammed);
  EXPECT_GT(r.balance, 1e-3);
  EXPECT_FALSE(DetectJam(PointMass(0.0, -1.0, 0.5)).jammed);
}

TEST(Algorithm1, NonCollidingStateCostsNoSolve) {
  const ImpactProblem p = PointMass(1.0, 0.5, 0.5);
  const SampleResult r = RunFullSteps(p, 1.0, 10);
  EXPECT_EQ(r.status, SampleStatus::kTerminated);
  EXPECT_EQ(r.lcp_solves, 0);
  EXPECT_EQ(r.v_plus, p.v_minus());
}

TEST(Algorithm1, TrajectoryHoldsEveryIntermediateVelocity) {
  const auto lp = Example("rocking-block");
  Algorithm1Options o = PaperOptions(lp);
  o.keep_trajectory = true;
  lcp::FallbackSolver chain;
  RouthSampler s(lp.problem, o, &chain);
  sampling::IidPSource src(1, 3);
  sampling::SampleChoices choices(1, 3);
  const SampleResult& r = s.Run(src, &choices);
  ASSERT_GT(r.lcp_solves, 1);  // steps to compare
  ASSERT_EQ(static_cast<int>(r.trajectory.size()), r.lcp_solves + 1);
  EXPECT_EQ(r.trajectory.front(), lp.problem.v_minus());
  EXPECT_EQ(r.trajectory.back(), r.v_plus);
  for (size_t k = 1; k < r.trajectory.size(); ++k) {  // each step dissipates (Theorem 7)
    EXPECT_LE(lp.problem.KineticEnergy(r.trajectory[k]),
              lp.problem.KineticEnergy(r.trajectory[k - 1]) + kEnergyTolerance);
  }
}

// The sampler reuses the storage of earlier trajectories: a sample's trajectory must not depend on
// how long the samples before it were (longer, shorter, none).
TEST(Algorithm1, TrajectoryDoesNotDependOnTheSamplesRunBefore) {
  const auto lp = Example("compass-gait");
  Algorithm1Options o = PaperOptions(lp);
  o.keep_trajectory = true;
  auto run = [&](RouthSampler& s, std::uint64_t i) {
    sampling::IidPSource src(4, i);
    sampling::SampleChoices choices(4, i);
    return s.Run(src, &choices).trajectory;  // a copy: the next Run reuses the storage
  };
  lcp::FallbackSolver fresh_chain, busy_chain;
  std::vector<std::vector<VectorXd>> alone;
  for (std::uint64_t i = 0; i < 40; ++i) {
    RouthSampler fresh(lp.problem, o, &fresh_chain);
    alone.push_back(run(fresh, i));
  }
  RouthSampler busy(lp.problem, o, &busy_chain);
  std::size_t shortest = 1000, longest = 0;
  for (std::uint64_t i : {39, 0, 17, 3, 3, 28, 11, 0, 39, 25, 6}) {
    const std::vector<VectorXd> t = run(busy, i);
    EXPECT_EQ(t, alone[i]) << "sample " << i;
    shortest = std::min(shortest, t.size());
    longest = std::max(longest, t.size());
  }
  EXPECT_LT(shortest, longest);  // lengths did vary, so storage was both reused and extended
}

TEST(Algorithm1, RandomSelectionSpreadsRamoneWhereFirstCollapses) {
  // docs/model.md §8-9: with `first`, every RAMone sample lands on one point; with `random` the
  // trailing foot (contact B = 1) sticks, slides or lifts across samples.
  const auto lp = Example("ramone");
  auto spread = [&](Selection sel) {
    Algorithm1Options o = PaperOptions(lp);
    o.selection = sel;
    o.detect_non_unique = true;  // counted below
    lcp::FallbackSolver chain;
    RouthSampler s(lp.problem, o, &chain);
    VectorXd lo = VectorXd::Constant(4, 1e9), hi = VectorXd::Constant(4, -1e9);
    int non_unique = 0;
    for (std::uint64_t i = 0; i < 3000; ++i) {
      sampling::IidPSource src(2, i);
      sampling::SampleChoices choices(2, i);
      const SampleResult& r = s.Run(src, &choices);
      if (r.status != SampleStatus::kTerminated) continue;
      lo = lo.cwiseMin(r.contact_velocity);
      hi = hi.cwiseMax(r.contact_velocity);
      non_unique += r.non_unique_step;
    }
    return std::make_tuple(VectorXd(hi - lo), lo, hi, non_unique);
  };
  const auto [first_range, first_lo, first_hi, first_nu] = spread(Selection::kFirst);
  const auto [rand_range, rand_lo, rand_hi, rand_nu] = spread(Selection::kRandom);
  EXPECT_LT(first_range(1), 1e-9);  // trailing-foot normal velocity: a single value
  EXPECT_LT(first_range(3), 1e-9);  // trailing-foot slip: a single value
  EXPECT_GT(rand_nu, 100);
  // Random: some samples stick (slip 0, no lift) and some slide (slip < 0) or lift (vn > 0).
  EXPECT_GT(rand_range(3), 0.01);
  EXPECT_NEAR(rand_hi(3), 0.0, 1e-9);
  EXPECT_LT(rand_lo(3), -0.02);
  EXPECT_GT(rand_hi(1), 1e-4);
  EXPECT_NEAR(rand_lo(1), 0.0, 1e-9);
}

TEST(Algorithm1Options, BadValuesNameTheField) {
  Algorithm1Options o;
  o.step = -1;
  EXPECT_THROW(o.Validate(), std::invalid_argument);
  try {
    o.Validate();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("step (h) = -1"), std::string::npos);
  }
  o = Algorithm1Options{};
  o.max_steps = 0;
  EXPECT_THROW(o.Validate(), std::invalid_argument);
}

}  // namespace
}  // namespace impactset::impact

namespace impactset::impact {
namespace {

// Fixed schedules reproduce the deterministic laws where the paper says they do: the Routh law with
// equal caps on a symmetric impact is the simultaneous one, and caps given to one contact at a
// time, each large enough to finish that contact, are sequential resolution in that order.
constexpr double kLawTolerance = 1e-9;  // both sides are exact pivoting solves on O(1) data

SampleResult RunSchedule(const ImpactProblem& p, double step, std::vector<VectorXd> schedule) {
  Algorithm1Options o;
  o.step = step;
  o.max_steps = 50;
  o.selection = Selection::kFirst;
  lcp::FallbackSolver chain;
  RouthSampler s(p, o, &chain);
  FixedSchedule fixed(std::move(schedule));
  return s.Run(fixed);
}

TEST(FixedSchedule, EqualCapsOnTheRockingBlockGiveTheSimultaneousRest) {
  // Paper §5.4 / Fig. 9: Anitescu-Potra brings the block to rest; equal caps p = (1, 1) keep the
  // two corners' impulses equal, so the Routh path is the simultaneous one.
  const auto lp = Example("rocking-block");
  lcp::FallbackSolver chain;
  const laws::AnitescuPotraOutcome ap =
      laws::SolveAnitescuPotra(lp.problem, lp.problem.v_minus(), &chain);
  ASSERT_TRUE(ap.info.ok());
  for (double h : {0.05, 0.3, 10.0}) {
    const SampleResult r = RunSchedule(lp.problem, h, {VectorXd::Ones(2)});
    EXPECT_EQ(r.status, SampleStatus::kTerminated);
    EXPECT_TRUE(CompareMatrices(r.v_plus, ap.v_plus, kLawTolerance)) << "h = " << h;
  }
}

TEST(FixedSchedule, OneContactAtATimeIsSequentialResolution) {
  // p = (1, 0) then (0, 1) ... with h far above either contact's impulse: step j resolves one
  // contact completely, as one single impact of the sequential law (docs/examples.md 1.9).
  for (const char* name : {"rocking-block", "box-wall", "compass-gait"}) {
    const auto lp = Example(name);
    const ImpactProblem& p = lp.problem;
    VectorXd a = VectorXd::Zero(p.m()), b = VectorXd::Zero(p.m());
    a(0) = 1;
    b(1) = 1;
    for (const std::vector<int>& order : {std::vector<int>{0, 1}, std::vector<int>{1, 0}}) {
      std::vector<VectorXd> schedule;
      for (int k = 0; k < 10; ++k) schedule.push_back(order[k % 2] == 0 ? a : b);
      const SampleResult r = RunSchedule(p, 100.0, schedule);
      const laws::SequentialOutcome seq = laws::ResolveSequentially(p, order);
      ASSERT_TRUE(seq.terminated()) << name;
      EXPECT_EQ(r.status, SampleStatus::kTerminated) << name;
      EXPECT_TRUE(CompareMatrices(r.v_plus, seq.v_plus, kLawTolerance))
          << name << " order " << order[0] << order[1];
    }
  }
}

}  // namespace
}  // namespace impactset::impact
