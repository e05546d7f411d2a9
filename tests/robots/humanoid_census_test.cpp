// The native Lemke on a real robot's step LCPs: MuJoCo's humanoid.xml (Debian's libmujoco-samples)
// landing flat on both feet, the recipe of docs/mujoco.md: 8 foot contacts, 56 x 56 step LCPs whose
// Delassus blocks are singular (four contacts per rigid foot). Target: fewer than 0.1 % of
// the steps need a link after the native Lemke, none is left unsolved. The problem is also the
// witness that the default pivot floor matters: a floor 100 times lower pivots on roundoff and
// needs the chain on more of these steps than the target allows.
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
// A floor at the roundoff level (~1e-13) of the zero entries of the singular Delassus blocks.
constexpr double kLowerFloor = lcp::kPivotFloor / 100;

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
  struct Floor {
    double value;
    bool meets_target;  // the default does; the lower floor is the witness that it matters
  };
  for (const Floor floor : {Floor{lcp::kPivotFloor, true}, Floor{kLowerFloor, false}}) {
    impact::Algorithm1Options o = scaled.sampler.algorithm;
    o.lemke.pivot_floor = floor.value;
    const sampling::LcpCensus c = sampling::RunLcpCensus(h.loaded.problem, o, 1, kSolves);
    SCOPED_TRACE("pivot_floor " + std::to_string(floor.value));
    ASSERT_GE(c.chain.solves, kSolves);
    EXPECT_EQ(c.chain.failures, 0);
    EXPECT_EQ(c.lcp_failures, 0);
    EXPECT_LE(c.worst_residual, lcp::kAcceptTolerance);
    const double native = c.NativeFraction();
    if (floor.meets_target) {
      EXPECT_GE(native, kNativeFraction) << c.chain.SolvedBy(lcp::SolverId::kNative) << " of "
                                         << c.chain.solves << " solved by the native Lemke";
    } else {
      EXPECT_LT(native, kNativeFraction) << "the lower floor no longer fails here: the test "
                                            "lost its witness";
    }
  }
}

}  // namespace
}  // namespace impactset
