// Touchdown (robots/mujoco_model.hpp, MujocoOptions::touchdown): geom pairs counted, not contacts;
// a model with more contacts in the search than MuJoCo's buffer holds; a planar base of slide
// joints; pairs left inside each other said.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <sstream>
#include <string>

#include <impactset/robots/mujoco_model.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include "test_util.hpp"

namespace impactset::robots {
namespace {

// A trunk on four straight legs ending in spheres of radius 0.03 (feet 0.4 m below the trunk's
// centre, the lowest points 0.43 m below), carrying `boxes` small boxes that collide with the
// floor: with MuJoCo's search margin every box-plane pair gives 4 contacts, far more than the
// buffer of 100 that MuJoCo allocates by default. `short_leg` shortens the first leg by that much.
std::string Quadruped(int boxes, double short_leg = 0) {
  std::ostringstream x;
  x << "<mujoco><worldbody><geom name='floor' type='plane' size='5 5 0.1'/>"
    << "<body name='trunk' pos='0 0 1'><freejoint name='root'/>"
    << "<geom type='box' size='0.3 0.15 0.05' mass='8'/>";
  for (int i = 0; i < boxes; ++i) {
    x << "<geom type='box' size='0.01 0.01 0.01' mass='0.01' pos='" << -0.25 + 0.5 * i / boxes
      << " 0 0.06'/>";
  }
  const double xs[] = {0.25, 0.25, -0.25, -0.25}, ys[] = {0.12, -0.12, 0.12, -0.12};
  for (int i = 0; i < 4; ++i) {
    const double length = 0.4 - (i == 0 ? short_leg : 0);
    x << "<body name='leg" << i << "' pos='" << xs[i] << " " << ys[i] << " 0'>"
      << "<joint name='hip" << i << "' axis='0 1 0'/>"
      << "<geom type='capsule' fromto='0 0 0 0 0 " << -length
      << "' size='0.02' mass='0.3' contype='0' conaffinity='0'/>"
      << "<geom name='foot" << i << "' type='sphere' size='0.03' pos='0 0 " << -length
      << "' mass='0.05'/></body>";
  }
  x << "</body></worldbody></mujoco>";
  return x.str();
}

MujocoOptions Falling(int touchdown, int nq = 11, int nv = 10) {
  MujocoOptions o;
  o.touchdown = touchdown;
  o.state.qpos = Eigen::VectorXd::Zero(nq);
  (*o.state.qpos)(2) = 1;
  (*o.state.qpos)(3) = 1;
  o.state.qvel = Eigen::VectorXd::Zero(nv);
  (*o.state.qvel)(2) = -1;
  return o;
}

TEST(Touchdown, FourFeetLandTogetherPastTheContactBuffer) {
  const MujocoProblem r = LoadMujocoXml(Quadruped(40), "quadruped", Falling(4));
  ASSERT_EQ(r.contacts.size(), 4u);
  std::set<std::string> feet;
  for (const ContactReport& c : r.contacts) {
    feet.insert(c.geom1 == "floor" ? c.geom2 : c.geom1);
    EXPECT_LE(std::abs(c.distance), kDefaultContactMargin / 2) << c.name;
  }
  EXPECT_EQ(feet, (std::set<std::string>{"foot0", "foot1", "foot2", "foot3"}));
  EXPECT_NEAR(r.qpos(2), 0.43, kDefaultContactMargin / 2);  // the feet's lowest points at z = 0
  EXPECT_TRUE(r.warnings.empty());
}

// Touchdown counts pairs: the cube-flat scene's one pair (4 corner contacts) lands with 1; 2 is
// more pairs than the model has.
TEST(Touchdown, CountsGeomPairs) {
  MujocoOptions o = Falling(1, 7, 6);
  const MujocoProblem r = LoadMujocoScene("cube-flat", o);
  EXPECT_EQ(r.loaded.problem.m(), 4);
  o.touchdown = 2;
  EXPECT_TRUE(testing::ThrowsNaming([&] { LoadMujocoScene("cube-flat", o); },
                                    "make 1 geom pair with the rest"));
}

// A leg 5 cm short: landing the fourth pair pushes the other three 5 cm in, and says so.
TEST(Touchdown, PairsLeftInsideEachOtherAreSaid) {
  const MujocoProblem r = LoadMujocoXml(Quadruped(0, 0.05), "quadruped", Falling(4));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("3 geom pairs penetrate"), std::string::npos) << r.warnings[0];
  EXPECT_TRUE(LoadMujocoXml(Quadruped(0, 0.05), "quadruped", Falling(1)).warnings.empty());
}

// The planar hopper (slides rootx, rootz and the pitch hinge) lifted by 0.25 m comes back down
// by its rootz slide to the keyframe's height, heel and toe on the floor.
TEST(Touchdown, PlanarSlideBase) {
  const MujocoProblem land = LoadMujocoScene("planar-hopper");
  MujocoOptions o;
  o.state.qpos = land.qpos;
  (*o.state.qpos)(1) += 0.25;
  o.state.qvel = land.qvel;
  EXPECT_TRUE(testing::ThrowsNaming([&] { LoadMujocoScene("planar-hopper", o); },
                                    "touchdown moves the floating base onto it"));
  o.touchdown = 1;
  const MujocoProblem r = LoadMujocoScene("planar-hopper", o);
  EXPECT_EQ(r.contacts.size(), 2u);
  EXPECT_NEAR(r.touchdown_shift, 0.25, kDefaultContactMargin);
  EXPECT_NEAR(r.qpos(1), land.qpos(1), kDefaultContactMargin);
  EXPECT_EQ(r.qpos(0), land.qpos(0));
  // The source line says what was given, once.
  EXPECT_NE(r.loaded.provenance.find("at qpos and qvel given, touched down"), std::string::npos)
      << r.loaded.provenance;
  MujocoOptions velocity;
  velocity.state.keyframe = "land";
  velocity.state.qvel = land.qvel;
  EXPECT_NE(LoadMujocoScene("planar-hopper", velocity)
                .loaded.provenance.find("at keyframe 'land' with qvel given"),
            std::string::npos);
}

}  // namespace
}  // namespace impactset::robots
