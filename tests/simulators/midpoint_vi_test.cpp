// Seghete & Murphey's variational time-stepper (simulators/midpoint_vi.hpp, docs/midpoint-vi.md;
// Seghete & Murphey, IEEE T-ASE 2014, cited [S-J]): free flight, an elastic bouncing ball, an
// impact with a configuration-dependent mass matrix, the cradle, the Zeno rule and the ordering
// policy. Systems are built here with PlanarTree. Expected values are closed forms derived in the
// comments, never this program's output.
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>
#include <Eigen/LU>

#include <impactset/simulators/midpoint_vi.hpp>
#include "test_util.hpp"

namespace impactset::simulators {
namespace {

using testing::CompareMatrices;

constexpr double kG = 9.81;
// Closed-form algebra and a few hundred steps of O(1) data: roundoff is ~1e-15 per operation.
constexpr double kRoundoff = 1e-12;
// t* and the impact speed, evaluated by hand and quoted to 6-7 significant digits.
constexpr double kPrinted = 1e-6;

VectorXd Vec1(double x) { return VectorXd::Constant(1, x); }

// A point mass m on a vertical prismatic joint (q = height), floor y = 0 if with_floor.
systems::PlanarTree Ball(double m, bool with_floor) {
  systems::PlanarTree tree;
  const int f = tree.AddFrame("ball", systems::PlanarTree::kWorld, systems::JointType::kPrismaticY);
  tree.AddPointMass("ball", f, systems::Pose2{}, m, 0.0);
  if (with_floor) tree.AddWall("floor", Eigen::Vector2d(0, 1), 0.0);
  return tree;
}

// Three unit-mass discs of radius r on horizontal prismatic joints (q = centre x): a cradle.
systems::PlanarTree Cradle(double r) {
  systems::PlanarTree tree;
  for (const char* name : {"A", "B", "C"}) {
    const int f = tree.AddFrame(name, systems::PlanarTree::kWorld, systems::JointType::kPrismaticX);
    tree.AddDisc(name, f, systems::Pose2{}, r, 1.0);
  }
  return tree;
}

// Two-link arm: revolute q1 at the origin, link 1 of length l1 with a non-colliding point mass m1
// at its end; revolute q2 (relative) there, link 2 of length l2 with a point mass m2 at its tip;
// floor y = -floor_depth touched by the tip only.
constexpr double kL1 = 1.0, kL2 = 0.8, kM1 = 1.5, kM2 = 0.7;
systems::PlanarTree Arm(double floor_depth) {
  systems::PlanarTree tree;
  const int a = tree.AddFrame("link1", systems::PlanarTree::kWorld, systems::JointType::kRevolute);
  tree.AddPointMass("m1", a, systems::Pose2{{kL1, 0}, 0}, kM1, 0.0, /*collision=*/false);
  const int b =
      tree.AddFrame("link2", a, systems::JointType::kRevolute, systems::Pose2{{kL1, 0}, 0});
  tree.AddPointMass("tip", b, systems::Pose2{{kL2, 0}, 0}, kM2, 0.0);
  tree.AddWall("floor", Eigen::Vector2d(0, 1), -floor_depth);
  return tree;
}

// The arm's closed-form mass matrix and dM/dq2 (dM/dq1 = 0).
MatrixXd ArmMass(double q2) {
  const double c = std::cos(q2);
  MatrixXd M(2, 2);
  M << kM1 * kL1 * kL1 + kM2 * (kL1 * kL1 + kL2 * kL2 + 2 * kL1 * kL2 * c),
      kM2 * (kL2 * kL2 + kL1 * kL2 * c), kM2 * (kL2 * kL2 + kL1 * kL2 * c), kM2 * kL2 * kL2;
  return M;
}
MatrixXd ArmMassDq2(double q2) {
  MatrixXd D(2, 2);
  D << 2, 1, 1, 0;
  return -kM2 * kL1 * kL2 * std::sin(q2) * D;
}

// ---------------------------------------------------------------- options

TEST(MidpointViOptions, InvalidOptionsNameTheField) {
  const systems::PlanarTree tree = Ball(1, true);
  auto expect_throw = [&](MidpointViOptions o, const std::string& field) {
    try {
      SimulateMidpointVi(tree, Vec1(1), Vec1(0), o);
      ADD_FAILURE() << "no exception for " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind(field + " = ", 0), 0u) << e.what();
    }
  };
  MidpointViOptions o;
  o.h = 0;
  expect_throw(o, "h");
  o = {};
  o.steps = -1;
  expect_throw(o, "steps");
  o = {};
  o.R = 1.5;
  expect_throw(o, "R");
  o = {};
  o.e = -0.1;
  expect_throw(o, "e");
  o = {};
  o.newton_tolerance = 0;
  expect_throw(o, "newton_tolerance");
  o = {};
  o.gap_tolerance = -1;
  expect_throw(o, "gap_tolerance");
  o = {};
  o.max_impacts_per_step = 0;
  expect_throw(o, "max_impacts_per_step");
  EXPECT_THROW(SimulateMidpointVi(tree, VectorXd::Zero(2), Vec1(0)), std::invalid_argument);
}

// ---------------------------------------------------------------- dM/dq

TEST(MidpointVi, MassMatrixAndDerivativeMatchClosedForm) {
  const systems::PlanarTree tree = Arm(10);
  // Central differences with delta = 6e-6: truncation ~delta^2 |M'''| ~ 1e-11, roundoff
  // ~eps |M| / delta ~ 1e-10.
  constexpr double kFiniteDifference = 1e-8;
  for (double q2 : {0.0, 0.4, -1.3, 2.5}) {
    const VectorXd q = (VectorXd(2) << 0.7, q2).finished();
    EXPECT_TRUE(CompareMatrices(tree.MassMatrix(q), ArmMass(q2), kRoundoff)) << q2;
    const auto dM = MassMatrixDerivative(tree, q);
    ASSERT_EQ(dM.size(), 2u);
    EXPECT_TRUE(CompareMatrices(dM[0], MatrixXd::Zero(2, 2), kFiniteDifference)) << q2;
    EXPECT_TRUE(CompareMatrices(dM[1], ArmMassDq2(q2), kFiniteDifference)) << q2;
  }
}

// ---------------------------------------------------------------- free flight

// Derived by hand: constant gravity, p0 = m v0: q_k = q0 + v0 t_k - g t_k^2 / 2 and
// p_k = m v0 - m g t_k exactly at the nodes (midpoint rule on a quadratic Lagrangian).
TEST(MidpointVi, ExactAtTheNodesForConstantGravity) {
  const double m = 2.0, q0 = 10, v0 = 3, h = 0.1;
  const systems::PlanarTree tree = Ball(m, false);
  MidpointViOptions o;
  o.h = h;
  o.steps = 20;
  const MidpointViResult r = SimulateMidpointVi(tree, Vec1(q0), Vec1(v0), o);
  ASSERT_EQ(r.status, ViStatus::kOk) << r.message;
  ASSERT_EQ(r.records.size(), 21u);
  EXPECT_NEAR(r.records[1].q[0], q0 + h * v0 - kG * h * h / 2, kRoundoff);
  for (int k = 0; k <= 20; ++k) {
    const double t = k * h;
    EXPECT_NEAR(r.records[k].t, t, kRoundoff);
    EXPECT_NEAR(r.records[k].q[0], q0 + v0 * t - kG * t * t / 2, kRoundoff) << k;
    EXPECT_NEAR(r.records[k].p[0], m * v0 - m * kG * t, kRoundoff) << k;
    EXPECT_NEAR(r.records[k].energy, r.records[0].energy, kRoundoff * 1e2) << k;  // |E| ~ 200
  }
  EXPECT_TRUE(r.impacts.empty());

  // The same force as an external force: the symmetric split (f- = f+ = h/2 f) gives the same
  // nodes; trep's left split (f- = h f) gives q1 = q0 + h v0 - g h^2, p1 = m v0 - m g h.
  MidpointViOptions of = o;
  of.gravity = 0;
  of.force = [m](const VectorXd&, const VectorXd&, double) { return Vec1(-m * kG); };
  const MidpointViResult sym = SimulateMidpointVi(tree, Vec1(q0), Vec1(v0), of);
  ASSERT_EQ(sym.status, ViStatus::kOk);
  ASSERT_EQ(sym.records.size(), 21u);
  for (int k = 0; k <= 20; ++k) {
    EXPECT_NEAR(sym.records[k].q[0], r.records[k].q[0], kRoundoff) << k;
    EXPECT_NEAR(sym.records[k].p[0], r.records[k].p[0], kRoundoff) << k;
  }
  of.forcing_split = ForcingSplit::kLeft;
  of.steps = 1;
  const MidpointViResult left = SimulateMidpointVi(tree, Vec1(q0), Vec1(v0), of);
  ASSERT_EQ(left.status, ViStatus::kOk);
  ASSERT_EQ(left.records.size(), 2u);
  EXPECT_NEAR(left.records[1].q[0], q0 + h * v0 - kG * h * h, kRoundoff);
  EXPECT_NEAR(left.records[1].p[0], m * v0 - m * kG * h, kRoundoff);
}

// ---------------------------------------------------------------- impacts

// Derived by hand: m = 1, H = 1, h = 0.01, elastic: first impact at t* = sqrt(2H/g) = 0.451524 s
// with speed sqrt(2 g H) = 4.429447, KE 9.81 before and after; energy 9.81 over 3000 steps. Later
// impacts every 2 t* (the flight is exact, see above, and so is the reflection).
TEST(MidpointVi, ElasticBouncingBallKeepsEnergyAndPeriod) {
  const systems::PlanarTree tree = Ball(1, true);
  MidpointViOptions o;
  o.steps = 3000;
  const MidpointViResult r = SimulateMidpointVi(tree, Vec1(1), Vec1(0), o);
  ASSERT_EQ(r.status, ViStatus::kOk) << r.message;
  ASSERT_EQ(r.records.size(), 3001u);
  const double t0 = std::sqrt(2 / kG);
  ASSERT_FALSE(r.impacts.empty());
  const ViImpact& first = r.impacts.front();
  EXPECT_NEAR(first.t, 0.451524, kPrinted);
  EXPECT_NEAR(-first.p_minus[0], 4.429447, kPrinted);
  EXPECT_NEAR(first.p_plus[0], 4.429447, kPrinted);
  EXPECT_NEAR(first.kinetic_minus, 9.81, 1e-9);  // q* within the root tolerance of 0
  EXPECT_NEAR(first.kinetic_plus, first.kinetic_minus, kRoundoff);
  // Impacts at t0 (2k + 1) until t = 30 s: 30 / (2 t0) + 1/2 -> 33 of them.
  const int expected = static_cast<int>(std::floor((30 / t0 + 1) / 2));
  ASSERT_EQ(static_cast<int>(r.impacts.size()), expected);
  for (int k = 0; k < expected; ++k) {
    // The impact time is found to 1e-13 h; the accumulated node times carry ~k eps.
    EXPECT_NEAR(r.impacts[k].t, t0 * (2 * k + 1), 1e-9) << k;
    EXPECT_FALSE(r.impacts[k].zeno);
  }
  // "Energy 9.81 to about 1e-12": 3000 Newton solves at 1e-12 relative and ~33 reflections.
  constexpr double kEnergyDrift = 1e-11;
  for (const ViRecord& rec : r.records) {
    EXPECT_NEAR(rec.energy, 9.81, kEnergyDrift) << rec.t;
    EXPECT_GE(rec.min_gap, -o.gap_tolerance) << rec.t;
  }
}

// Configuration-dependent M(q): a two-link arm falling under gravity onto a floor with its tip.
// The elastic impact keeps 1/2 p M(q*)^-1 p^T to roundoff, the momentum jump is along Dphi(q*)
// ([S-J] eq. 30) and the tip leaves at the speed it arrived (Gamma flips the normal component).
TEST(MidpointVi, ElasticImpactWithNonlinearMassMatrix) {
  const systems::PlanarTree tree = Arm(1.2);
  MidpointViOptions o;
  o.h = 1e-3;
  o.steps = 1500;
  const MidpointViResult r =
      SimulateMidpointVi(tree, VectorXd::Zero(2), (VectorXd(2) << 0, 0.5).finished(), o);
  ASSERT_EQ(r.status, ViStatus::kOk) << r.message;
  ASSERT_FALSE(r.impacts.empty());
  ASSERT_EQ(r.records.size(), 1501u);
  for (const ViImpact& imp : r.impacts) {
    EXPECT_NEAR(imp.kinetic_plus, imp.kinetic_minus, kRoundoff * imp.kinetic_minus) << imp.t;
    const auto contacts = tree.ContactCandidates(imp.q);
    const Eigen::RowVectorXd jn = contacts[imp.trigger].jn;
    const VectorXd dp = imp.p_plus - imp.p_minus;
    const double lambda = jn.dot(dp) / jn.squaredNorm();
    EXPECT_GT(lambda, 0) << imp.t;  // pushes ([S-J] eq. 5)
    EXPECT_LE((dp - lambda * jn.transpose()).norm(), kRoundoff * dp.norm()) << imp.t;
    const Eigen::LLT<MatrixXd> M(tree.MassMatrix(imp.q));
    EXPECT_NEAR(jn.dot(M.solve(imp.p_plus)), -jn.dot(M.solve(imp.p_minus)), kRoundoff) << imp.t;
    EXPECT_NEAR(contacts[imp.trigger].phi, 0, o.gap_tolerance);
  }
  // Between impacts the midpoint VI is second order with bounded energy error: O(h^2) ~ 1e-6
  // relative to the peak kinetic energy ~20 (bound 1e-3 absolute, 5e-5 relative).
  const double E0 = r.records.front().energy;
  for (const ViRecord& rec : r.records) {
    EXPECT_NEAR(rec.energy, E0, 1e-3) << rec.t;
    EXPECT_GE(rec.min_gap, -o.gap_tolerance) << rec.t;
  }
}

// The cradle in the time-stepper, no gravity along x: A launched at v = 1 into touching B-C.
// Elastic: C leaves at v, A and B rest; momentum sum exactly conserved; energy-loss fractions as
// for the impact law's blend (0, 34 %, 2/3 for R = 1, 0.7, 0: (1 - R^2) 2/3) for h from 1/60 to
// 1/6000 s.
TEST(MidpointVi, CradleLosesTheBlendsEnergyFractionAtEveryStepSize) {
  const double r = 0.5, gap = 0.2345, duration = 0.3;
  const systems::PlanarTree tree = Cradle(r);
  const VectorXd q0 = (VectorXd(3) << 0, 2 * r + gap, 4 * r + gap).finished();
  const VectorXd v0 = (VectorXd(3) << 1, 0, 0).finished();
  for (double R : {1.0, 0.7, 0.0}) {
    for (double rate : {60.0, 600.0, 6000.0}) {
      MidpointViOptions o;
      o.h = 1 / rate;
      o.steps = static_cast<int>(std::lround(duration * rate));
      o.R = R;
      const MidpointViResult res = SimulateMidpointVi(tree, q0, v0, o);
      ASSERT_EQ(res.status, ViStatus::kOk) << res.message;
      ASSERT_EQ(static_cast<int>(res.records.size()), o.steps + 1);
      ASSERT_EQ(res.impacts.size(), 1u) << R << " " << rate;
      EXPECT_NEAR(res.impacts[0].t, gap, 1e-12) << rate;  // A flies freely at v = 1
      EXPECT_EQ(res.impacts[0].active.size(), 2u);        // A-B and B-C
      for (const ViRecord& rec : res.records) {
        EXPECT_NEAR(rec.p.sum(), 1.0, kRoundoff) << R << " " << rate << " " << rec.t;
        EXPECT_GE(rec.min_gap, -o.gap_tolerance);
      }
      const ViRecord& end = res.records.back();
      const double loss = 1 - end.energy / res.records.front().energy;
      EXPECT_NEAR(loss, (1 - R * R) * 2.0 / 3.0, kRoundoff) << R << " " << rate;
      if (R == 1) {
        EXPECT_NEAR(end.p[0], 0, kRoundoff);
        EXPECT_NEAR(end.p[1], 0, kRoundoff);
        EXPECT_NEAR(end.p[2], 1, kRoundoff);
        EXPECT_NEAR(end.q[2], q0[2] + (duration - gap), 1e-9);  // C left at t* with v
      }
    }
  }
}

// Derived by hand: R = 0.8 per impact, H = 1, h = 0.01. Flight n lasts 2 t0 R^n, t0 = 0.451524 s;
// flight 21 is the first shorter than h (2 t0 R^n < h for n > 20.2), so impacts 1-21 bounce and
// impact 22 is Zeno: plastic, the floor persists. Rest at or slightly before t_inf = t0 (1 + R) /
// (1 - R) = 4.0637 s: the flights left after the Zeno impact sum to less than 2 t0 R^21 / (1 - R)
// < 5 h. No penetration, no energy gain.
TEST(MidpointVi, ZenoRuleBringsTheBallToRest) {
  const systems::PlanarTree tree = Ball(1, true);
  const double R = 0.8, t0 = std::sqrt(2 / kG), t_inf = t0 * (1 + R) / (1 - R);
  EXPECT_NEAR(t_inf, 4.0637, 1e-4);
  MidpointViOptions o;
  o.R = R;
  o.steps = 500;
  const MidpointViResult r = SimulateMidpointVi(tree, Vec1(1), Vec1(0), o);
  ASSERT_EQ(r.status, ViStatus::kOk) << r.message;
  ASSERT_EQ(r.impacts.size(), 22u);
  ASSERT_EQ(r.records.size(), 501u);
  double t_expected = t0;
  for (int k = 0; k < 21; ++k) {
    EXPECT_FALSE(r.impacts[k].zeno) << k;
    EXPECT_NEAR(r.impacts[k].t, t_expected, 1e-9) << k;
    // Each bounce keeps R of the speed: KE ratio R^2.
    EXPECT_NEAR(r.impacts[k].kinetic_plus, R * R * r.impacts[k].kinetic_minus, kRoundoff) << k;
    t_expected += 2 * t0 * std::pow(R, k + 1);
  }
  const ViImpact& zeno = r.impacts.back();
  EXPECT_TRUE(zeno.zeno);
  EXPECT_NEAR(zeno.t, t_expected, 1e-9);
  EXPECT_NEAR(zeno.p_plus[0], 0, kRoundoff);
  EXPECT_LE(zeno.t, t_inf);
  EXPECT_GE(zeno.t, t_inf - 5 * o.h);
  ASSERT_EQ(r.persistent.size(), 1u);
  for (size_t k = 1; k < r.records.size(); ++k) {
    const ViRecord& rec = r.records[k];
    EXPECT_GE(rec.min_gap, -o.gap_tolerance) << rec.t;
    EXPECT_LE(rec.energy, r.records[k - 1].energy + kRoundoff) << rec.t;
    if (rec.t > zeno.t) {
      EXPECT_NEAR(rec.q[0], 0, o.gap_tolerance) << rec.t;
      EXPECT_NEAR(rec.p[0], 0, kRoundoff) << rec.t;
    }
  }

  // Without the rule the impacts accumulate (Zeno): the run stops with a status, never a hang.
  o.zeno_rule = false;
  const MidpointViResult off = SimulateMidpointVi(tree, Vec1(1), Vec1(0), o);
  EXPECT_NE(off.status, ViStatus::kOk);
  EXPECT_LT(off.records.back().t, t_inf + o.h);
}

// [S-J] §VII-B's twin runs: the same simultaneous impact resolved most-violated-first
// and least-violated-first. Masses (1, 2, 1), A at 2 and C at -1 reach B at the same instant
// (gaps 0.5 and 0.25); s = -1/3 gives two outcomes (the unequal-mass cradle of
// tests/laws/seghete_murphey_test.cpp). Each run's impact must
// equal the propagative law at the same (M, Jn, v-), and the two runs must differ; both conserve
// momentum and kinetic energy.
TEST(MidpointVi, SimultaneousImpactFollowsTheOrderingPolicy) {
  systems::PlanarTree tree;
  const double masses[3] = {1, 2, 1};
  const char* names[3] = {"A", "B", "C"};
  for (int i = 0; i < 3; ++i) {
    const int f =
        tree.AddFrame(names[i], systems::PlanarTree::kWorld, systems::JointType::kPrismaticX);
    tree.AddDisc(names[i], f, systems::Pose2{}, 0.5, masses[i]);
  }
  const VectorXd q0 = (VectorXd(3) << 0, 1.5, 2.75).finished();
  const VectorXd v0 = (VectorXd(3) << 2, 0, -1).finished();
  VectorXd outcome[2];
  int run = 0;
  for (auto policy : {laws::OrderingPolicy::kMostViolated, laws::OrderingPolicy::kLeastViolated}) {
    MidpointViOptions o;
    o.steps = 40;
    o.policy = policy;
    const MidpointViResult r = SimulateMidpointVi(tree, q0, v0, o);
    ASSERT_EQ(r.status, ViStatus::kOk) << r.message;
    ASSERT_GE(r.impacts.size(), 1u);
    const ViImpact& imp = r.impacts.front();
    EXPECT_NEAR(imp.t, 0.25, 1e-12);
    ASSERT_EQ(imp.active.size(), 2u);
    MatrixXd Jn(2, 3);
    Jn << -1, 1, 0, 0, -1, 1;
    const MatrixXd M = VectorXd::Map(masses, 3).asDiagonal();
    const impact::ImpactProblem problem(M, Jn, MatrixXd(0, 3), VectorXd::Zero(2),
                                        M.inverse() * imp.p_minus, 0);
    laws::PropagativeOptions po;
    po.policy = policy;
    const VectorXd expected = M * laws::ResolvePropagative(problem, po).v_plus;
    EXPECT_TRUE(CompareMatrices(imp.p_plus, expected, kRoundoff));
    EXPECT_NEAR(imp.p_plus.sum(), imp.p_minus.sum(), kRoundoff);
    EXPECT_NEAR(imp.kinetic_plus, imp.kinetic_minus, kRoundoff);
    outcome[run++] = imp.p_plus;
  }
  EXPECT_GT((outcome[0] - outcome[1]).norm(), 0.1);  // the two outcomes differ by O(1)
}

// The persistent-contact machinery behind the Zeno rule: a ball at rest on the floor is pressed in
// by gravity, so the floor persists (no impulse); from t = 0.5 s an upward force 2 m g pulls it
// off, the floor's impulse turns negative and the contact is released. Net force m g upward from
// t = 0.5 s (a step boundary) and constant: the midpoint nodes are exact (see above), so q(1 s) =
// g (0.5 s)^2 / 2 = 1.22625 m.
TEST(MidpointVi, PersistentContactIsReleasedWhenItsForcePulls) {
  const double m = 1.0;
  const systems::PlanarTree tree = Ball(m, true);
  MidpointViOptions o;
  o.steps = 100;
  o.force = [m](const VectorXd&, const VectorXd&, double t) {
    return Vec1(t > 0.5 ? 2 * m * kG : 0);
  };
  const MidpointViResult r = SimulateMidpointVi(tree, Vec1(0), Vec1(0), o);
  ASSERT_EQ(r.status, ViStatus::kOk) << r.message;
  ASSERT_EQ(r.records.size(), 101u);
  ASSERT_EQ(r.impacts.size(), 1u);
  EXPECT_TRUE(r.impacts[0].closure);
  EXPECT_NEAR(r.impacts[0].t, 0, kRoundoff);
  EXPECT_TRUE(r.persistent.empty());
  for (const ViRecord& rec : r.records) {
    if (rec.t <= 0.5 + kRoundoff) {
      EXPECT_NEAR(rec.q[0], 0, kRoundoff) << rec.t;
      EXPECT_NEAR(rec.p[0], 0, kRoundoff) << rec.t;
    } else {
      const double s = rec.t - 0.5;
      EXPECT_NEAR(rec.q[0], kG * s * s / 2, kRoundoff) << rec.t;
    }
  }
  EXPECT_NEAR(r.records.back().q[0], 1.22625, kRoundoff);

  o.zeno_rule = false;  // the same rest needs a persistent contact: reported, not hidden
  EXPECT_EQ(SimulateMidpointVi(tree, Vec1(0), Vec1(0), o).status, ViStatus::kPersistentContact);
}

}  // namespace
}  // namespace impactset::simulators
