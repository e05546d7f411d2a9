// MuJoCo models as impact states (robots/): the cube's matrices against the hand derivation, the
// contact report, the names, the state choice and every refusal with its message.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <impactset/robots/mujoco_model.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/robots/state_vector.hpp>
#include "test_util.hpp"

namespace impactset::robots {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

// Hand-derived entries are sums of a few products of 0.5, 1 and unit tangents: round-off only.
constexpr double kHandTolerance = 1e-10;

Matrix3d Skew(const Vector3d& r) {
  Matrix3d s;
  s << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return s;
}

// Velocity of the body point at r (from the centre, world frame) under the free joint's qvel
// (v world, w body = world at the identity orientation): v + w x r = [I, -[r]x] qvel.
Eigen::Matrix<double, 3, 6> PointMap(const Vector3d& r) {
  Eigen::Matrix<double, 3, 6> j;
  j << Matrix3d::Identity(), -Skew(r);
  return j;
}

// The 1 m, 1 kg cube at rest on its face: M = diag(1, 1, 1, I, I, I) with I = m (1 + 1) / 12;
// contact i at corner r_i = (+-0.5, +-0.5, -0.5): Jn_i = e_z^T [I, -[r_i]x], D_ij = d_ij^T [I,
// -[r_i]x] with d_ij = cos(pi j / 2) t1_i + sin(pi j / 2) t2_i, mu = 1, v- = qvel.
TEST(MujocoModel, CubeMatricesEqualTheHandDerivation) {
  const MujocoProblem r = LoadMujocoScene("cube-flat");
  const impact::ImpactProblem& p = r.loaded.problem;
  ASSERT_EQ(p.n(), 6);
  ASSERT_EQ(p.m(), 4);
  ASSERT_EQ(p.k(), 4);
  Eigen::VectorXd diag(6);
  diag << 1, 1, 1, 1.0 / 6, 1.0 / 6, 1.0 / 6;
  EXPECT_LE((p.M() - MatrixXd(diag.asDiagonal())).cwiseAbs().maxCoeff(), kHandTolerance);
  std::set<std::pair<int, int>> corners;
  for (int i = 0; i < p.m(); ++i) {
    const ContactReport& c = r.contacts[i];
    SCOPED_TRACE(c.name);
    // The corner: contact points lie on the floor under the cube's bottom corners.
    const Vector3d rel = c.point - Vector3d(0, 0, 0.5);
    EXPECT_NEAR(std::abs(rel.x()), 0.5, kHandTolerance);
    EXPECT_NEAR(std::abs(rel.y()), 0.5, kHandTolerance);
    EXPECT_NEAR(rel.z(), -0.5, 1e-4);  // the contact point is midway: within the margin
    const Vector3d corner(std::copysign(0.5, rel.x()), std::copysign(0.5, rel.y()), -0.5);
    corners.insert({rel.x() > 0, rel.y() > 0});
    EXPECT_LE((c.normal - Vector3d::UnitZ()).norm(), kHandTolerance);
    EXPECT_NEAR(c.tangent1.dot(c.normal), 0, kHandTolerance);
    EXPECT_NEAR(c.tangent2.dot(c.normal), 0, kHandTolerance);
    EXPECT_NEAR(c.tangent1.cross(c.tangent2).dot(c.normal), 1, kHandTolerance);
    const auto map = PointMap(corner);
    EXPECT_LE((p.Jn().row(i) - Vector3d::UnitZ().transpose() * map).cwiseAbs().maxCoeff(),
              kHandTolerance);
    for (int j = 0; j < 4; ++j) {
      const Vector3d d = std::cos(M_PI * j / 2) * c.tangent1 + std::sin(M_PI * j / 2) * c.tangent2;
      EXPECT_LE((p.D().row(4 * i + j) - d.transpose() * map).cwiseAbs().maxCoeff(), kHandTolerance)
          << "direction " << j;
    }
    EXPECT_EQ(p.mu()(i), 1.0);
    EXPECT_EQ(c.motion, ContactMotion::kApproaching);
    EXPECT_NEAR(c.normal_velocity, -0.442944691807002, kHandTolerance);
  }
  EXPECT_EQ(corners.size(), 4u) << "the four contacts are the four bottom corners";
  Eigen::VectorXd v(6);
  v << 0, 0, -0.442944691807002, 0, 0, 0;
  EXPECT_EQ(p.v_minus(), v);
}

// URDF through MuJoCo's compiler: a ball (1 kg) on a vertical prismatic joint `z`, carried by a
// cart (2 kg) on a horizontal prismatic joint `x`, resting on a fixed floor box of the root link.
// By hand: M = [[m_cart + m_ball, 0], [0, m_ball]], Jn = [0, 1] (the ball's height), the four
// friction directions are +-x (on the cart's coordinate) and +-y (no coordinate moves along y),
// mu = 1 (URDF has no friction: MuJoCo's default).
constexpr const char* kSliderUrdf = R"(<robot name="slider">
  <link name="base">
    <collision><origin xyz="0 0 -0.5"/><geometry><box size="4 4 1"/></geometry></collision>
  </link>
  <link name="cart">
    <inertial><mass value="2"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="ball">
    <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/>
    </inertial>
    <collision><geometry><sphere radius="0.1"/></geometry></collision>
  </link>
  <joint name="x" type="prismatic"><parent link="base"/><child link="cart"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="z" type="prismatic"><parent link="cart"/><child link="ball"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
</robot>)";

TEST(MujocoModel, UrdfModelGivesTheHandDerivedMatrices) {
  const std::string path = ::testing::TempDir() + "impactset_slider.urdf";
  std::ofstream(path) << kSliderUrdf;
  MujocoOptions o;
  o.state.qpos = Eigen::Vector2d(0, 0);
  o.state.qvel = Eigen::Vector2d(0.3, -1);
  const MujocoProblem r = LoadMujoco(path, o);
  const impact::ImpactProblem& p = r.loaded.problem;
  ASSERT_EQ(p.m(), 1);
  EXPECT_EQ(r.dof_names, (std::vector<std::string>{"x", "z"}));
  EXPECT_TRUE(testing::CompareMatrices(p.M(), Eigen::Vector2d(3, 1).asDiagonal().toDenseMatrix(),
                                       kHandTolerance));
  EXPECT_TRUE(testing::CompareMatrices(p.Jn(), Eigen::RowVector2d(0, 1), kHandTolerance));
  ASSERT_EQ(p.D().rows(), 4);
  EXPECT_LT(p.D().col(1).cwiseAbs().maxCoeff(), kHandTolerance);  // no direction moves z
  std::vector<double> along_x(p.D().col(0).data(), p.D().col(0).data() + 4);
  std::sort(along_x.begin(), along_x.end());
  const std::vector<double> want{-1, 0, 0, 1};  // +-x on the cart, +-y on nothing
  for (size_t j = 0; j < want.size(); ++j) EXPECT_NEAR(along_x[j], want[j], kHandTolerance) << j;
  EXPECT_EQ(p.mu()(0), 1.0);
  EXPECT_EQ(r.contacts[0].motion, ContactMotion::kApproaching);
  EXPECT_DOUBLE_EQ(r.contacts[0].normal_velocity, -1.0);
}

TEST(MujocoModel, NamesLabelEveryCoordinateDistinctly) {
  const MujocoProblem r = LoadMujocoScene("quadruped");
  const impact::ImpactProblem& p = r.loaded.problem;
  ASSERT_EQ(r.dof_names.size(), static_cast<size_t>(p.n()));
  EXPECT_EQ(r.dof_names[0], "trunk:vx");
  EXPECT_EQ(r.dof_names[5], "trunk:wz");
  EXPECT_EQ(r.dof_names[6], "fl_hip");
  ASSERT_EQ(r.contact_coordinate_names.size(), static_cast<size_t>(p.ContactJacobian().rows()));
  const std::set<std::string> distinct(r.contact_coordinate_names.begin(),
                                       r.contact_coordinate_names.end());
  EXPECT_EQ(distinct.size(), r.contact_coordinate_names.size());
  EXPECT_EQ(r.base_body, "trunk");
  EXPECT_EQ(r.base_map.rows(), 6);
  EXPECT_EQ(r.com_jacobian.rows(), 3);
  // Each foot lands: four contacts, all feet on the floor, all approaching.
  ASSERT_EQ(p.m(), 4);
  for (const ContactReport& c : r.contacts) {
    EXPECT_EQ(c.geom1, "floor");
    EXPECT_NE(c.geom2.find("_foot"), std::string::npos) << c.geom2;
    EXPECT_EQ(c.motion, ContactMotion::kApproaching) << c.name;
  }
  // The centre of mass moves as the free joint's linear velocity when the legs are still.
  Eigen::VectorXd v = Eigen::VectorXd::Zero(p.n());
  v.head(3) << 0.3, -0.2, 0.1;
  EXPECT_LE((r.com_jacobian * v - v.head(3)).norm(), kHandTolerance);
}

TEST(MujocoModel, SeparatingAndRestingContactsAreKeptAndReported) {
  MujocoOptions o;
  o.state.qvel = Eigen::VectorXd::Zero(6);
  o.state.qvel->head(3) << 0.2, 0, 0;  // sliding along x, not falling
  const MujocoProblem r = LoadMujocoScene("cube-edge", o);
  ASSERT_EQ(r.loaded.problem.m(), 2);
  for (const ContactReport& c : r.contacts) EXPECT_EQ(c.motion, ContactMotion::kResting);
  o.state.qvel->head(3) << 0, 0, 0.1;  // lifting off
  const MujocoProblem up = LoadMujocoScene("cube-edge", o);
  ASSERT_EQ(up.loaded.problem.m(), 2);
  for (const ContactReport& c : up.contacts) EXPECT_EQ(c.motion, ContactMotion::kSeparating);
}

TEST(MujocoModel, FrictionDirectionsSpanTheTangentPlaneEvenly) {
  for (const int k : {8, 16}) {
    MujocoOptions o;
    o.friction_directions = k;
    const impact::ImpactProblem p = LoadMujocoScene("cube-flat", o).loaded.problem;
    ASSERT_EQ(p.k(), k);
    ASSERT_EQ(p.D().rows(), 4 * k);
    for (int j = 0; j < k / 2; ++j) {
      EXPECT_EQ(p.D().row(j + k / 2), (-p.D().row(j)).eval());  // closed under negation, exactly
    }
  }
}

TEST(MujocoModel, RefusesBadStatesNamingTheProblem) {
  MujocoOptions o;
  o.state.keyframe = "nope";
  EXPECT_TRUE(testing::ThrowsNaming([&] { LoadMujocoScene("cube-flat", o); }, "keyframe = nope"));
  EXPECT_TRUE(testing::ThrowsNaming([&] { LoadMujocoScene("cube-flat", o); }, "known: impact"));
  o = {};
  o.state.qpos = Eigen::VectorXd::Zero(3);
  EXPECT_TRUE(testing::ThrowsNaming([&] { LoadMujocoScene("cube-flat", o); }, "qpos = 3 numbers"));
  o.state.qpos = Eigen::VectorXd(7);
  *o.state.qpos << 0, 0, 2, 1, 0, 0, 0;  // a metre above the floor
  EXPECT_TRUE(testing::ThrowsNaming([&] { LoadMujocoScene("cube-flat", o); }, "no contact"));
  o = {};
  o.friction_directions = 6;
  EXPECT_TRUE(
      testing::ThrowsNaming([&] { LoadMujocoScene("cube-flat", o); }, "friction_directions = 6"));
  EXPECT_TRUE(testing::ThrowsNaming([] { LoadMujoco("/nonexistent/robot.xml", {}); },
                                    "/nonexistent/robot.xml"));
  const auto rejected = [] { LoadMujocoXml("<mujoco><bogus/></mujoco>", "bad", {}); };
  EXPECT_TRUE(testing::ThrowsNaming(rejected, "MuJoCo cannot load the model"));
  EXPECT_TRUE(testing::ThrowsNaming(rejected, "bogus"));  // MuJoCo's own message
  EXPECT_TRUE(testing::ThrowsNaming([] { LoadMujocoScene("no-such-scene"); },
                                    "known: compass-gait-planar, compass-gait-slope, cube-edge"));
}

// A pendulum bob resting on the floor, a slide held by an equality and the hinge 1 degree beyond
// its limit (MuJoCo counts a limit active within the joint's margin, 0 by default).
constexpr const char* kConstrained = R"(<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 1"/>
    <body name="arm" pos="0 0 0.1">
      <joint name="swing" type="hinge" axis="0 1 0" limited="true" range="1 90"/>
      <geom name="bob" type="sphere" size="0.1" pos="0 0 0" mass="1"/>
      <body name="tip" pos="0.3 0 0">
        <joint name="slide" type="slide" axis="1 0 0"/>
        <geom type="sphere" size="0.01" pos="0 0 0.5" mass="0.1" contype="0" conaffinity="0"/>
      </body>
    </body>
  </worldbody>
  <equality><joint name="lock" joint1="slide"/></equality>
  <keyframe><key name="down" qpos="0 0" qvel="-1 0"/></keyframe>
</mujoco>)";

TEST(MujocoModel, ActiveConstraintsAreNamedOrIgnoredOnRequest) {
  const auto load = [] { LoadMujocoXml(kConstrained, "pendulum", {}); };
  EXPECT_TRUE(testing::ThrowsNaming(load, "equality lock"));
  EXPECT_FALSE(testing::ThrowsNaming(load, "joint limit swing"));  // a hinge's stop is modelled
  MujocoOptions o;
  o.ignore_constraints = true;
  const MujocoProblem r = LoadMujocoXml(kConstrained, "pendulum", o);
  EXPECT_EQ(r.loaded.problem.m(), 1);
  EXPECT_EQ(r.dof_names, (std::vector<std::string>{"swing", "slide"}));
}

TEST(MujocoModel, StateVectorsFromCommaListsAndJson) {
  EXPECT_EQ(ParseStateVector("1, 2.5,-3", "qpos"), Eigen::Vector3d(1, 2.5, -3));
  EXPECT_TRUE(testing::ThrowsNaming([] { ParseStateVector("1,x", "qpos"); },
                                    "qpos = 1,x: qpos[1] = 'x': not a number"));
  EXPECT_TRUE(testing::ThrowsNaming([] { ParseStateVector("0,nan", "qvel"); },
                                    "qvel[1] = 'nan': not a finite number"));
  const std::string path = ::testing::TempDir() + "impactset_mujoco_state.json";
  std::ofstream(path) << R"({"qpos": [0, 1], "qvel": [2.5, -1]})";
  EXPECT_EQ(ParseStateVector(path, "qvel"), Eigen::Vector2d(2.5, -1));
  EXPECT_EQ(ParseStateVector(path, "qpos"), Eigen::Vector2d(0, 1));
  EXPECT_TRUE(testing::ThrowsNaming([] { ParseStateVector("/nonexistent/state.json", "qvel"); },
                                    "qvel = /nonexistent/state.json: no such file"));
  // Decided by content: a list is a list however long (a humanoid's 28 numbers at full
  // precision exceed the 255 characters of a file name), and a long path is a missing file.
  std::string list;
  for (int i = 0; i < 28; ++i) list += (i ? "," : "") + std::string("0.12345678901234567");
  ASSERT_GT(list.size(), 255u);
  EXPECT_EQ(ParseStateVector(list, "qpos").size(), 28);
  EXPECT_TRUE(IsNumberList(list));
  const std::string long_path = std::string(300, 'q') + ".json";
  EXPECT_TRUE(testing::ThrowsNaming([&] { ParseStateVector(long_path, "qpos"); },
                                    ": no such file (File name too long)"));
}

// Tangents do not follow MuJoCo's arbitrary frame: t1 is world x projected onto the contact
// plane (world y when the normal is along x), t2 = n x t1.
TEST(MujocoModel, TangentsAreWorldXProjected) {
  for (const char* scene : {"cube-flat", "quadruped"}) {
    const MujocoProblem r = LoadMujocoScene(scene);
    for (const ContactReport& c : r.contacts) {
      EXPECT_LE((c.tangent1 - Vector3d::UnitX()).norm(), kHandTolerance) << scene << " " << c.name;
      EXPECT_LE((c.tangent2 - Vector3d::UnitY()).norm(), kHandTolerance) << scene << " " << c.name;
    }
  }
  const char* wall = R"(<mujoco><worldbody><geom name="wall" type="plane" size="0 0 1"
      zaxis="1 0 0"/><body name="ball" pos="0.1 0 0"><freejoint/><geom type="sphere" size="0.1"
      mass="1"/></body></worldbody></mujoco>)";
  MujocoOptions o;
  o.state.qpos = Eigen::VectorXd(7);
  *o.state.qpos << 0.1, 0, 0, 1, 0, 0, 0;
  o.state.qvel = Eigen::VectorXd::Zero(6);
  (*o.state.qvel)(0) = -1;
  const MujocoProblem r = LoadMujocoXml(wall, "wall", o);
  ASSERT_EQ(r.contacts.size(), 1u);
  EXPECT_LE((r.contacts[0].tangent1 - Vector3d::UnitY()).norm(), kHandTolerance);
  EXPECT_LE((r.contacts[0].tangent2 - Vector3d::UnitZ()).norm(), kHandTolerance);
}

// What would pass silently is refused with the entry's index and name, or remarked.
TEST(MujocoModel, SilentStatesAreRefusedOrRemarked) {
  MujocoOptions o;
  o.state.qpos = Eigen::VectorXd(7);
  *o.state.qpos << 0, 0, 0.5, 0, 0, 0, 0;
  o.state.qvel = Eigen::VectorXd::Zero(6);
  (*o.state.qvel)(2) = -1;
  EXPECT_TRUE(testing::ThrowsNaming([&] { LoadMujocoScene("cube-flat", o); },
                                    "qpos[3..6] (joint cube: qw, qx, qy, qz) = (0, 0, 0, 0)"));
  (*o.state.qpos)(3) = 2;
  const MujocoProblem r = LoadMujocoScene("cube-flat", o);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("has norm 2, not 1: normalised to (1, 0, 0, 0)"), std::string::npos);
  EXPECT_EQ(r.qpos(3), 1.0);
  (*o.state.qvel)(2) = std::nan("");
  EXPECT_TRUE(testing::ThrowsNaming([&] { LoadMujocoScene("cube-flat", o); },
                                    "qvel[2] (cube:vz) = nan: must be finite"));
  o.state.qvel.reset();  // qpos alone: v- = 0 and so no contact approaches
  (*o.state.qpos)(3) = 1;
  const MujocoProblem still = LoadMujocoScene("cube-flat", o);
  ASSERT_EQ(still.warnings.size(), 2u);
  EXPECT_NE(still.warnings[0].find("qvel not given"), std::string::npos);
  EXPECT_NE(still.warnings[1].find("no contact is approaching (4 resting, 0 separating)"),
            std::string::npos);
  EXPECT_TRUE(LoadMujocoScene("cube-flat").warnings.empty());
}

// Touchdown: the lifted cube is lowered onto the floor; no contact names the nearest pair.
TEST(MujocoModel, TouchdownAndTheNearestPair) {
  MujocoOptions o;
  o.state.qpos = Eigen::VectorXd(7);
  *o.state.qpos << 0.3, -0.2, 2, 1, 0, 0, 0;
  EXPECT_TRUE(testing::ThrowsNaming([&] { LoadMujocoScene("cube-flat", o); },
                                    "the nearest pair, floor/cube, is 1.5 m apart"));
  o.touchdown = 1;
  const MujocoProblem r = LoadMujocoScene("cube-flat", o);
  EXPECT_EQ(r.loaded.problem.m(), 4);
  EXPECT_DOUBLE_EQ(r.touchdown_shift, 1.5);
  EXPECT_EQ(r.qpos.head<3>(), Vector3d(0.3, -0.2, 0.5));
  o.touchdown = 5;  // a box on a plane has 4 corner contacts at most
  EXPECT_TRUE(testing::ThrowsNaming([&] { LoadMujocoScene("cube-flat", o); }, "touchdown = 5"));
}

TEST(MujocoModel, ShippedScenesListAndLoad) {
  ASSERT_EQ(MujocoScenes().size(), 9u);
  for (const SceneInfo& s : MujocoScenes()) {
    SCOPED_TRACE(s.name);
    EXPECT_FALSE(s.description.empty());
    const MujocoProblem r = LoadMujocoScene(s.name);
    EXPECT_GE(r.loaded.problem.m(), 2);
    // Every contact approaches, except a compass gait's standing foot (its pivot: resting).
    const std::string standing = s.name == "compass-gait-planar"  ? "c1:floor/trailing_foot"
                                 : s.name == "compass-gait-slope" ? "c1:foot_b/stone_0"
                                                                  : "";
    for (const ContactReport& c : r.contacts) {
      EXPECT_EQ(c.motion,
                c.name == standing ? ContactMotion::kResting : ContactMotion::kApproaching)
          << c.name;
    }
  }
  EXPECT_EQ(LoadMujocoScene("rocking-block-3d").loaded.settings.step, 0.3);
}

// The state written out is the one a load uses: the keyframe's, with a given qvel in its place;
// loading at the written-out state gives the same problem.
TEST(MujocoModel, ResolvedStateIsTheKeyframeWithTheGivenVectors) {
  const std::string& xml = MujocoSceneXml("cube-flat");
  MujocoState by_name;
  by_name.keyframe = "impact";
  const MujocoState s = ResolveMujocoStateXml(xml, "cube-flat", by_name);
  EXPECT_TRUE(s.keyframe.empty());
  ASSERT_TRUE(s.qpos && s.qvel);
  Eigen::VectorXd qpos(7);
  qpos << 0, 0, 0.5, 1, 0, 0, 0;
  EXPECT_EQ(*s.qpos, qpos);
  EXPECT_EQ((*s.qvel)(2), -0.442944691807002);
  const Eigen::VectorXd qvel = Eigen::VectorXd::LinSpaced(6, -1, 0.5);
  MujocoState only_qvel;
  only_qvel.qvel = qvel;
  const MujocoState given = ResolveMujocoStateXml(xml, "cube-flat", only_qvel);
  EXPECT_EQ(*given.qpos, qpos);  // the first keyframe's
  EXPECT_EQ(*given.qvel, qvel);
  MujocoOptions o;
  o.state = given;
  MujocoOptions k;
  k.state.qvel = qvel;
  EXPECT_EQ(LoadMujocoScene("cube-flat", o).loaded.problem.Jn(),
            LoadMujocoScene("cube-flat", k).loaded.problem.Jn());
  MujocoState unknown;
  unknown.keyframe = "nope";
  EXPECT_TRUE(testing::ThrowsNaming([&] { ResolveMujocoStateXml(xml, "cube-flat", unknown); },
                                    "known: impact"));
}

}  // namespace
}  // namespace impactset::robots
