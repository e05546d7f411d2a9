// Joint limits in the impact (robots/mujoco_model.hpp, ContactReport::joint_limit): a hinge at its
// stop is a frictionless unilateral constraint on its coordinate, and an impact on it alone has
// the inelastic single-constraint answer; with the foot's contacts as well, every outcome closes
// neither the stop nor a contact and gains no energy.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include <impactset/impact/algorithm1.hpp>
#include <impactset/impact/p_source.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/robots/mujoco_model.hpp>
#include <impactset/robots/mujoco_scenes.hpp>

namespace impactset::robots {
namespace {

// Velocities of O(1) m/s, answers from a few LU and Lemke solves: round-off only.
constexpr double kAnalytic = 1e-9;

// The planar hopper (qpos rootx, rootz, pitch, hip, knee, ankle) at the land keyframe's pose with
// the knee moved to `knee` and velocity `qvel`.
MujocoOptions Hopper(double knee, const Eigen::VectorXd& qvel, double lift = 0) {
  const MujocoProblem land = LoadMujocoScene("planar-hopper");
  MujocoOptions o;
  o.state.qpos = land.qpos;
  (*o.state.qpos)(4) = knee;
  (*o.state.qpos)(1) += lift;
  o.state.qvel = qvel;
  return o;
}

Eigen::VectorXd Qvel(std::initializer_list<double> v) {
  Eigen::VectorXd q(static_cast<Eigen::Index>(v.size()));
  std::copy(v.begin(), v.end(), q.data());
  return q;
}

std::vector<impact::SampleResult> Samples(const impact::ImpactProblem& p, int count) {
  impact::Algorithm1Options o;
  o.step = 0.05;
  o.max_steps = 400;
  o.selection = impact::Selection::kFirst;
  lcp::FallbackSolver solver;
  impact::RouthSampler sampler(p, o, &solver);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<impact::SampleResult> out;
  for (int s = 0; s < count; ++s) {
    std::vector<Eigen::VectorXd> schedule;
    for (int j = 0; j < o.max_steps; ++j) {
      schedule.push_back(Eigen::VectorXd::NullaryExpr(p.m(), [&] { return u(rng); }));
    }
    impact::FixedSchedule f(schedule);
    out.push_back(sampler.Run(f));
  }
  return out;
}

// In the air, the knee at its lower stop (0) and closing at 1 rad/s: v+ = v- - M^-1 J^T
// (J M^-1 J^T)^-1 J v- with J = e_knee, the only outcome.
TEST(JointLimit, AKneeOnItsStopAloneHasTheInelasticAnswer) {
  const MujocoProblem r =
      LoadMujocoScene("planar-hopper", Hopper(0, Qvel({0.3, 0, 0.2, 0.5, -1, 0.4}), 1));
  ASSERT_EQ(r.contacts.size(), 1u);
  EXPECT_TRUE(r.contacts[0].joint_limit);
  EXPECT_EQ(r.contacts[0].name, "c0:limit/knee/lower");
  EXPECT_EQ(r.contacts[0].motion, ContactMotion::kApproaching);
  const impact::ImpactProblem& p = r.loaded.problem;
  Eigen::RowVectorXd J = Eigen::RowVectorXd::Zero(6);
  J(4) = 1;
  EXPECT_EQ(p.Jn(), J);
  const Eigen::MatrixXd Minv = p.M().inverse();
  const Eigen::VectorXd expected =
      p.v_minus() - Minv * J.transpose() * ((J * p.v_minus()) / (J * Minv * J.transpose())(0));
  for (const impact::SampleResult& s : Samples(p, 50)) {
    ASSERT_EQ(s.status, impact::SampleStatus::kTerminated);
    EXPECT_LE((s.v_plus - expected).cwiseAbs().maxCoeff(), kAnalytic);
  }
  EXPECT_NEAR(expected(4), 0, kAnalytic);
}

// At the upper stop the row is -e: opening past 2.4 rad is what closes onto it.
TEST(JointLimit, TheUpperStopPushesTheOtherWay) {
  const MujocoProblem r =
      LoadMujocoScene("planar-hopper", Hopper(2.4, Qvel({0, 0, 0, 0, 1, 0}), 1));
  ASSERT_EQ(r.contacts.size(), 1u);
  EXPECT_EQ(r.contacts[0].name, "c0:limit/knee/upper");
  EXPECT_EQ(r.loaded.problem.Jn()(0, 4), -1.0);
  EXPECT_EQ(r.contacts[0].motion, ContactMotion::kApproaching);
  MujocoOptions off = Hopper(2.4, Qvel({0, 0, 0, 0, 1, 0}), 1);
  off.ignore_constraints = true;  // the stop left out: nothing in contact
  EXPECT_THROW(LoadMujocoScene("planar-hopper", off), std::invalid_argument);
}

// Landing with the knee on its stop and closing: the foot's contact and the stop together. Every
// outcome leaves each of them not closing and gains no kinetic energy.
TEST(JointLimit, StopAndFootContactsTogether) {
  const MujocoProblem land = LoadMujocoScene("planar-hopper");
  MujocoOptions o = Hopper(0, land.qvel);
  (*o.state.qvel)(4) = -1.5;
  o.touchdown = 1;  // the knee moved: bring the foot back onto the floor
  const MujocoProblem r = LoadMujocoScene("planar-hopper", o);
  ASSERT_GE(r.contacts.size(), 2u);  // the foot on the floor (touchdown), then the stop
  EXPECT_FALSE(r.contacts.front().joint_limit);
  EXPECT_TRUE(r.contacts.back().joint_limit);
  const impact::ImpactProblem& p = r.loaded.problem;
  const double ke = 0.5 * p.v_minus().dot(p.M() * p.v_minus());
  int terminated = 0;
  for (const impact::SampleResult& s : Samples(p, 200)) {
    if (s.status != impact::SampleStatus::kTerminated) continue;
    ++terminated;
    EXPECT_GE((p.Jn() * s.v_plus).minCoeff(), -kAnalytic);
    EXPECT_LE(0.5 * s.v_plus.dot(p.M() * s.v_plus), ke * (1 + kAnalytic));
  }
  EXPECT_GT(terminated, 150);
}

}  // namespace
}  // namespace impactset::robots
