// The random impact-problem family of bench/random_family.hpp (docs/robustness.md "Random impact
// problems") run as a user's matrices are run: engine::Run with the default step rule of a bare
// problem (engine::ProblemRunOptions, h and N scaled to the problem). Every Routh step LCP has a
// solution (Halm & Posa, Theorem 6), so the goal is no LCP failure at all. On the suite's own seeds
// none happens, and the suite holds the code to that: no sample lost to an LCP failure, at most
// kMaxCappedFraction capped, no accepted residual above the acceptance tolerance, and the physics
// checks for every terminated sample. At scale (3000 problems x 128 samples, k = 4 and 8, and a
// second seed) none is lost either: bench/impact_family_main.cpp, docs/robustness.md.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include <impactset/engine/run.hpp>
#include <impactset/engine/step_scaling.hpp>
#include <impactset/impact/algorithm1.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/sampling/streams.hpp>
#include "bench/random_family.hpp"
#include "test_util.hpp"

namespace impactset {
namespace {

// Problems per spatial k and samples per problem: about 15 s per k in the Release build, most of
// it the pilots and the chain's later links on the hardest problems.
constexpr int kProblems = 100;
constexpr int kSamples = 16;
// The bound on step-capped samples over the family: a run warns above it.
constexpr double kMaxCappedFraction = 1e-3;
// Without the chain's proximal link these seeds lose 14 and 15 of their 1600 samples (in 2 and
// 1 problems) to LCP failures; without the extended link, or with the step rule's h unscaled,
// more.

// testing::TestSampleDivisor (8 in the sanitized build) divides the problem count: the same
// code paths, too few problems for the rates, which are then not checked.
int Divisor() { return testing::TestSampleDivisor(); }
// Energy may grow by roundoff only (KE+/KE- is a ratio of two O(1) sums).
constexpr double kEnergyTolerance = 1e-9;

// A family problem run as matrix input is: h and N from the default step rule; no sets, one
// thread.
engine::RunOptions MatrixInputOptions(const family::FamilyProblem& fp, int samples) {
  systems::LoadedProblem lp{fp.problem, {}, ""};
  lp.settings.scale_missing_steps = true;
  lp.settings.samples = samples;
  engine::RunOptions o = engine::ProblemRunOptions(lp);
  o.sets = false;
  o.sampler.threads = 1;
  return o;
}

struct Counts {
  long long samples = 0, failures = 0, failing_problems = 0, capped = 0, energy_gains = 0;
  long long approaching = 0, problems = 0;
};

void RunFamily(std::uint64_t seed, int spatial_k, Counts* c) {
  for (int i = 0; i < kProblems / Divisor(); ++i) {
    const family::FamilyProblem fp = family::DrawProblem(seed, i, spatial_k);
    const engine::RunOptions o = MatrixInputOptions(fp, kSamples);
    const engine::RunResult r = engine::Run(fp.problem, o);
    const sampling::SampleSummary& s = r.summary;
    ++c->problems;
    c->samples += s.samples;
    c->failures += s.lcp_failures;
    c->failing_problems += s.lcp_failures > 0;
    c->capped += s.step_capped;
    if (s.lcp_failures > 0 || s.step_capped > 0) {
      std::printf(
          "problem %d (%s, %s, %s, cond %.1e, h %.3g, N %d): %lld LCP failures, %lld "
          "capped\n",
          i, fp.Geometry().c_str(), fp.dependent ? "dependent" : "independent",
          ToString(fp.mu_class), fp.condition, o.sampler.algorithm.step,
          o.sampler.algorithm.max_steps, static_cast<long long>(s.lcp_failures),
          static_cast<long long>(s.step_capped));
    }
    // The summary's worst residual covers failed solves too: every solve was accepted only when
    // no sample failed.
    if (s.lcp_failures == 0) {
      EXPECT_LE(s.worst_residual, lcp::kAcceptTolerance) << "problem " << i;
    }
    if (s.terminated == 0) continue;
    if (s.energy_ratio_max > 1 + kEnergyTolerance) ++c->energy_gains;
    // Normal velocities come first in the contact coordinates.
    const double tol = o.sampler.algorithm.termination_tolerance;
    if (s.contact_velocity_min.head(fp.problem.m()).minCoeff() < -tol) ++c->approaching;
  }
}

void ExpectFamilyHolds(std::uint64_t seed, int spatial_k) {
  Counts c;
  RunFamily(seed, spatial_k, &c);
  std::printf(
      "seed %llu, k = %d: %lld problems, %lld samples, %lld LCP failures in %lld problems, "
      "%lld capped\n",
      static_cast<unsigned long long>(seed), spatial_k, c.problems, c.samples, c.failures,
      c.failing_problems, c.capped);
  if (Divisor() == 1) {
    EXPECT_EQ(c.failures, 0) << "in " << c.failing_problems << " problems";
    EXPECT_LE(c.capped, kMaxCappedFraction * c.samples);
  } else {
    std::printf("rates not checked: %d problems (IMPACTSET_TEST_SAMPLE_DIVISOR)\n",
                kProblems / Divisor());
  }
  EXPECT_EQ(c.energy_gains, 0);
  EXPECT_EQ(c.approaching, 0);
}

TEST(RandomFamily, SpatialFourDirectionsNoFailureNoCapNoEnergyGain) { ExpectFamilyHolds(35, 4); }

TEST(RandomFamily, SpatialEightDirectionsNoFailureNoCapNoEnergyGain) { ExpectFamilyHolds(36, 8); }

// Problem 793 of seed 7 (n = 17, ten contacts, mu = 5, condition number 8.4e9): no h lets every
// pilot sample finish within the pilot's steps, and growing h to the pilot's limit (8^8 times, to
// 1.4e11) let no more of them finish; it only inflated the step LCPs' impulse caps, and with them
// the scale of the residual check, and 22 of 32 samples were capped, some steps raising the
// kinetic energy by 3 %. The pilot keeps the h that let the most pilot samples finish.
TEST(RandomFamily, ThePilotKeepsTheStepThatLetsMostPilotSamplesFinish) {
  if (Divisor() != 1) GTEST_SKIP() << "one slow problem; the rule is the same in every build";
  constexpr int kSamplesHere = 32;
  const family::FamilyProblem fp = family::DrawProblem(7, 793, 4);
  const engine::RunOptions o = MatrixInputOptions(fp, kSamplesHere);
  EXPECT_LT(o.sampler.algorithm.step, 1e8) << o.step_rule;
  const engine::RunResult r = engine::Run(fp.problem, o);
  EXPECT_LE(r.summary.step_capped, 1) << o.step_rule;
  EXPECT_EQ(r.summary.lcp_failures, 0);
  EXPECT_LE(r.summary.energy_ratio_max, 1 + kEnergyTolerance);
}

// Problem 694 of seed 11 (n = 7, six frictionless contacts, condition number 6.4e9): the
// least-norm impulse the step rule starts from (2.8e-4) is about 1e8 times too small, and in the
// first eight growths of h no pilot sample finished; with eight growths only, all 32 samples were
// capped at N = 300. The pilot grows on while none has finished, and the samples finish.
TEST(RandomFamily, ThePilotGrowsOnWhileNoPilotSampleFinishes) {
  constexpr int kSamplesHere = 32;
  const family::FamilyProblem fp = family::DrawProblem(11, 694, 4);
  const engine::RunOptions o = MatrixInputOptions(fp, kSamplesHere / Divisor());
  const engine::RunResult r = engine::Run(fp.problem, o);
  EXPECT_EQ(r.summary.step_capped, 0) << o.step_rule;
  EXPECT_EQ(r.summary.lcp_failures, 0);
  EXPECT_LE(r.summary.energy_ratio_max, 1 + kEnergyTolerance);
  const double tol = o.sampler.algorithm.termination_tolerance;
  EXPECT_GE(r.summary.contact_velocity_min.head(fp.problem.m()).minCoeff(), -tol);
}

// Problem 919 of seed 7 (n = 12, seven contacts with dependent rows, mu = 1000, condition number
// 9.8e9): impulses up to 1e5 times the step LCP's q cancel in the Delassus matrix, and some step
// LCPs have an exact solution that no double vector carries (rounding it to double moves M z + q
// by 1e-8 of the scale). Until the chain answered such LCPs in two parts, 26 of its 32 samples
// ended in lcp_failure. Its first samples at the step rule's h and N (bench/impact_family --seed 7
// --only 919 --list; the pilot that finds them takes 20 s): none fails, steps are answered in two
// parts, and the samples end as any other, with no contact approaching and no energy gained.
TEST(RandomFamily, StepsAnsweredInTwoPartsLoseNoSample) {
  if (Divisor() != 1) GTEST_SKIP() << "one slow problem; the sanitized build runs the links' tests";
  constexpr int kSamplesHere = 6;
  const family::FamilyProblem fp = family::DrawProblem(7, 919, 4);
  const impact::ImpactProblem& p = fp.problem;
  impact::Algorithm1Options a;
  a.step = 1.61e3;
  a.max_steps = 148;
  lcp::FallbackSolver chain;
  impact::RouthSampler sampler(p, a, &chain);
  constexpr std::uint64_t kSeed = 1;
  for (int i = 0; i < kSamplesHere; ++i) {
    sampling::IidPSource source(kSeed, i);
    sampling::SampleChoices choices(kSeed, i);
    const impact::SampleResult& r = sampler.Run(source, &choices);
    ASSERT_EQ(r.status, impact::SampleStatus::kTerminated) << "sample " << i;
    EXPECT_LE(r.worst_residual, lcp::kAcceptTolerance) << "sample " << i;
    EXPECT_LE(r.energy_ratio, 1 + kEnergyTolerance) << "sample " << i;
    EXPECT_GE((p.Jn() * r.v_plus).minCoeff(), -a.termination_tolerance) << "sample " << i;
  }
  EXPECT_GE(chain.counters().two_part, 1);
  EXPECT_EQ(chain.counters().failures, 0);
}

}  // namespace
}  // namespace impactset
