// The native Lemke on a real robot's step LCPs: MuJoCo's humanoid.xml (Debian's libmujoco-samples)
// landing flat on both feet, the recipe of docs/mujoco.md: 8 foot contacts, 56 x 56 step LCPs whose
// Delassus blocks are singular (four contacts per rigid foot). Target: fewer than 0.1 % of
// the steps need a link after the native Lemke, none is left unsolved. A pivot floor of 1e-13
// (lcp::kPivotFloorBefore) needed the chain on 0.35 % of these steps.
#include <string>

#include <gtest/gtest.h>

#include <impactset/engine/step_scaling.hpp>
#include <impactset/lcp/lemke.hpp>
#include <impactset/lcp/residual.hpp>
#include <impactset/robots/mujoco_model.hpp>
#include <impactset/sampling/lcp_census.hpp>

namespace impactset {
namespace {

constexpr long long kSolves = 20000;
constexpr double kNativeFraction = 0.999;  // the target "< 0.1 % fallbacks"

robots::MujocoProblem LandingHumanoid() {
  robots::MujocoOptions mo;
  mo.state.qpos = VectorXd::Zero(28);
  mo.state.qpos->head(7) << 0, 0, 1.285, 1, 0, 0, 0;  // both feet on the floor, upright
  mo.state.qvel = VectorXd::Zero(27);
  (*mo.state.qvel)(2) = -0.5;  // falling at 0.5 m/s
  return robots::LoadMujoco(IMPACTSET_HUMANOID_XML, mo);
}

TEST(HumanoidCensus, NativeLemkeSolvesTheStepLcpsOfAFlatLanding) {
  const robots::MujocoProblem h = LandingHumanoid();
  ASSERT_EQ(h.loaded.problem.m(), 8) << "the recipe's state should touch down on 8 foot contacts";
  const engine::RunOptions scaled = engine::ScaledRunOptions(h.loaded.problem, h.loaded.settings);
  for (double floor : {lcp::kPivotFloor, lcp::kPivotFloorBefore}) {
    impact::Algorithm1Options o = scaled.sampler.algorithm;
    o.lemke.pivot_floor = floor;
    const sampling::LcpCensus c = sampling::RunLcpCensus(h.loaded.problem, o, 1, kSolves);
    SCOPED_TRACE("pivot_floor " + std::to_string(floor));
    ASSERT_GE(c.chain.solves, kSolves);
    EXPECT_EQ(c.chain.failures, 0);
    EXPECT_EQ(c.lcp_failures, 0);
    EXPECT_LE(c.worst_residual, lcp::kAcceptTolerance);
    const double native = c.NativeFraction();
    if (floor == lcp::kPivotFloor) {
      EXPECT_GE(native, kNativeFraction) << c.chain.SolvedBy(lcp::SolverId::kNative) << " of "
                                         << c.chain.solves << " solved by the native Lemke";
    } else {
      EXPECT_LT(native, kNativeFraction) << "the old floor no longer fails here: the test lost "
                                            "its witness";
    }
  }
}

}  // namespace
}  // namespace impactset
