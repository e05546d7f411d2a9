// The shipped MuJoCo twins of the paper's planar cases (robots/scenes/rocking-block-planar.xml,
// compass-gait-planar.xml): their impact problems are the built-ins' and so are their Routh sets;
// rollouts of the Zeno block decay as the paper's §4.3 block does.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <impactset/catalog/system_catalog.hpp>
#include <impactset/impact/algorithm1.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/robots/mujoco_simulation.hpp>
#include <impactset/rollouts/rollout.hpp>
#include <impactset/sampling/streams.hpp>
#include <impactset/setapprox/distances.hpp>
#include "test_util.hpp"

namespace impactset {
namespace {

// M: the twins' point masses carry an inertia of 1e-9 and the compass gait's hip a mass of 1e-9
// (MuJoCo needs them); the built-ins have none.
constexpr double kMassTolerance = 2e-9;
// D: each contact point lies half the contact spheres' radius (1 um) below the corner or foot,
// which moves the friction rows' rotation column by 5e-7.
constexpr double kFrictionRowTolerance = 1e-6;
// Jn and v-: the same closed forms in both, evaluated in another order.
constexpr double kRoundoff = 1e-12;

struct Twin {
  const char* scene;
  const char* keyframe;
  const char* builtin;
};
constexpr Twin kTwins[] = {{"rocking-block-planar", "impact", "rocking-block"},
                           {"rocking-block-planar", "zeno", "zeno-block"},
                           {"compass-gait-planar", "impact", "compass-gait"}};

robots::MujocoProblem LoadTwin(const Twin& t) {
  robots::MujocoOptions o;
  o.state.keyframe = t.keyframe;
  return robots::LoadMujocoScene(t.scene, o);
}

TEST(MujocoTwins, ImpactProblemsAreTheBuiltIns) {
  for (const Twin& t : kTwins) {
    SCOPED_TRACE(std::string(t.scene) + " at " + t.keyframe);
    const impact::ImpactProblem twin = LoadTwin(t).loaded.problem;
    const systems::LoadedProblem built = catalog::LoadSystem(t.builtin);
    const impact::ImpactProblem& p = built.problem;
    EXPECT_TRUE(testing::CompareMatrices(twin.M(), p.M(), kMassTolerance));
    EXPECT_TRUE(testing::CompareMatrices(twin.Jn(), p.Jn(), kRoundoff));
    EXPECT_TRUE(testing::CompareMatrices(twin.v_minus(), p.v_minus(), kRoundoff));
    EXPECT_EQ(twin.mu(), p.mu());
    // k = 4 in 3-D: per contact +x, +y, -x, -y; the planar k = 2: +x, -x. The y rows are 0
    // (no motion out of the plane).
    ASSERT_EQ(twin.k(), 4);
    ASSERT_EQ(p.k(), 2);
    for (int i = 0; i < p.m(); ++i) {
      EXPECT_TRUE(
          testing::CompareMatrices(twin.D().row(4 * i), p.D().row(2 * i), kFrictionRowTolerance));
      EXPECT_TRUE(testing::CompareMatrices(twin.D().row(4 * i + 2), p.D().row(2 * i + 1),
                                           kFrictionRowTolerance));
      EXPECT_EQ(twin.D().row(4 * i + 1).norm(), 0.0);
      EXPECT_EQ(twin.D().row(4 * i + 3).norm(), 0.0);
    }
  }
}

// v+ of the terminated samples among `count` (columns) at the built-in's h and N (the paper's
// N caps a few samples, which are not in the set).
MatrixXd Samples(const impact::ImpactProblem& p,
                 const systems::ProblemSettings& s,
                 int count,
                 std::uint64_t seed) {
  impact::Algorithm1Options o;
  o.step = *s.step;
  o.max_steps = *s.max_steps;
  lcp::FallbackSolver solver;
  impact::RouthSampler sampler(p, o, &solver);
  MatrixXd out(p.n(), count);
  int kept = 0;
  for (int i = 0; i < count; ++i) {
    sampling::IidPSource source(seed, static_cast<std::uint64_t>(i));
    sampling::SampleChoices choices(seed, static_cast<std::uint64_t>(i));
    const impact::SampleResult& r = sampler.Run(source, &choices);
    EXPECT_NE(r.status, impact::SampleStatus::kLcpFailure);
    if (r.status == impact::SampleStatus::kTerminated) out.col(kept++) = r.v_plus;
  }
  EXPECT_GT(kept, count * 9 / 10);
  return out.leftCols(kept);
}

TEST(MujocoTwins, RouthSetsAreTheBuiltIns) {
  constexpr int kSamples = 2048;
  for (const Twin& t : kTwins) {
    SCOPED_TRACE(std::string(t.scene) + " at " + t.keyframe);
    const systems::LoadedProblem built = catalog::LoadSystem(t.builtin);
    const MatrixXd twin = Samples(LoadTwin(t).loaded.problem, built.settings, kSamples, 5);
    const MatrixXd same = Samples(built.problem, built.settings, kSamples, 5);
    const MatrixXd other = Samples(built.problem, built.settings, kSamples, 6);
    // The twin's samples against the built-in's, and the built-in's against its own samples from
    // another seed: the second is the sampling's own resolution of the set, and the twin must be
    // as close. (The same p-vectors drive twin and same; where a step has several solutions the
    // random selection may pick another, so the sets are compared, not the samples.)
    const double h_twin = setapprox::HausdorffDistance(twin, same).distance;
    const double h_self = setapprox::HausdorffDistance(other, same).distance;
    EXPECT_LE(h_twin, 1.5 * h_self + kFrictionRowTolerance)
        << "twin " << h_twin << ", another seed " << h_self << ", " << twin.cols() << " and "
        << same.cols() << " samples";
    EXPECT_LT(h_self, 0.1 * built.problem.v_minus().norm());  // the comparison resolves the set
  }
}

// The Zeno block of the paper's §4.3 as rollouts: pivoting about A, B strikes at 1 m/s; every
// impact (B striking, A at rest: a one-point Routh set) leaves 0.7 of the angular speed, and the
// block rocks from corner to corner until the strikes are slower than impact_speed, then rests.
TEST(MujocoTwins, ZenoBlockRollsOutTheRockingDecay) {
  robots::MujocoOptions mo;
  mo.state.keyframe = "zeno";
  const robots::SimulationModel model = robots::LoadSimulationModelXml(
      robots::MujocoSceneXml("rocking-block-planar"), "rocking-block-planar", mo);
  rollouts::RolloutOptions o;
  o.horizon = 3;
  o.rollouts = 4;
  o.threads = 1;
  o.record_every = 1;
  const rollouts::RolloutReport r = rollouts::RunRollouts(model, o);
  // 0.7^k m/s > 0.1 m/s for k = 0 ... 5: six strikes are events.
  constexpr int kEvents = 6;
  // A strike is resolved at the first step B is within the contact margin, up to one 1 ms step
  // of pivoting away from flat, and its speed is compared with the record one step earlier.
  constexpr double kStrikeTolerance = 0.01;
  for (const rollouts::RolloutResult& x : r.rollouts) {
    EXPECT_EQ(x.status, rollouts::RolloutStatus::kOk);
    EXPECT_EQ(x.events, kEvents);
    // Each strike after the first (which is the keyframe itself): where |omega| fell under 0.9 of
    // the record before; the impact keeps 0.7 of it. Between strikes MuJoCo's soft pivot
    // dissipates a little more, so the rocking decays at least as fast as 0.7 per strike.
    std::vector<double> after{std::abs(x.record_qvel[0](2))};
    for (size_t i = 1; i < x.record_qvel.size(); ++i) {
      const double w0 = std::abs(x.record_qvel[i - 1](2)), w1 = std::abs(x.record_qvel[i](2));
      if (w0 > 0.05 && w1 < 0.9 * w0) {
        EXPECT_NEAR(w1 / w0, 0.7, kStrikeTolerance) << "strike at t = " << x.record_time[i];
        after.push_back(w1);
      }
    }
    ASSERT_EQ(after.size(), static_cast<size_t>(kEvents)) << "strikes found";
    // The first strike from exactly flat: the paper's 0.7, to the twin's contact geometry.
    EXPECT_NEAR(after[0], 0.7, kFrictionRowTolerance);
    for (int k = 1; k < kEvents; ++k) EXPECT_LE(after[k] / after[k - 1], 0.7 + kStrikeTolerance);
    EXPECT_LT(x.qvel.norm(), 1e-6);        // at rest at T
    EXPECT_LT(std::abs(x.qpos(2)), 1e-6);  // flat
  }
}

}  // namespace
}  // namespace impactset
