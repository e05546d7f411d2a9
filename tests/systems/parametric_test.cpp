// Parametrised systems (systems/parametric.hpp): M, Jn, Jf and q against hand-derived values
// (Seghete-Murphey digest §3.1, §3.2, §3.4), and bad parameters naming the field.
#include "systems/parametric.hpp"

#include <gtest/gtest.h>

#include "impact/seghete_murphey_diagnostics.hpp"
#include "impact/seghete_murphey_resolver.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace impactset::systems {
namespace {

// M and the Jacobians are sums of a few products of the inputs: roundoff only.
constexpr double kTol = 1e-12;
constexpr double kPi = std::numbers::pi;

::testing::AssertionResult Near(const MatrixXd& a, const MatrixXd& b, double tol) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) {
    return ::testing::AssertionFailure()
           << "shape " << a.rows() << "x" << a.cols() << " vs " << b.rows() << "x" << b.cols();
  }
  const double err = a.size() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff();
  if (err <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "error " << err << "\n" << a << "\nvs\n" << b;
}

// Runs f and returns the exception's message ("" if none was thrown).
template <typename F>
std::string Message(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Cradle, UnequalMassesAndRadii) {
  CradleParams p;
  p.masses = (VectorXd(3) << 1, 2, 1).finished();
  p.radii = (VectorXd(3) << 0.5, 0.3, 0.2).finished();
  p.velocities = (VectorXd(3) << 1, 0, -1).finished();
  const LoadedScene s = MakeCradle(p);
  EXPECT_TRUE(Near(s.problem.M(), p.masses.asDiagonal().toDenseMatrix(), kTol));
  // phi_i = x_{i+1} - x_i - r_i - r_{i+1} (digest §3.1): Jn row i = e_{i+1} - e_i.
  EXPECT_TRUE(Near(s.problem.Jn(), (MatrixXd(2, 3) << -1, 1, 0, 0, -1, 1).finished(), kTol));
  EXPECT_TRUE(Near(s.q, (VectorXd(3) << 0, 0.8, 1.3).finished(), kTol));
  EXPECT_TRUE(Near(s.problem.v_minus(), p.velocities, kTol));
  EXPECT_EQ(s.problem.k(), 0);
}

TEST(Cradle, AnyNThroughTheRegistry) {
  const LoadedScene s = LoadParametric("cradle", {{"n", "6"}});
  EXPECT_EQ(s.problem.n(), 6);
  EXPECT_EQ(s.problem.m(), 5);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(s.problem.Jn()(i, i), -1);
    EXPECT_EQ(s.problem.Jn()(i, i + 1), 1);
  }
  EXPECT_EQ(s.problem.v_minus()(0), 1);
  EXPECT_EQ(s.problem.v_minus().tail(5).cwiseAbs().maxCoeff(), 0);
}

TEST(Billiard, MassesJacobiansAndNormalInnerProduct) {
  BilliardParams p;
  p.theta = 1.9;
  p.ra = 0.7;
  p.rb = 1.1;
  p.rc = 1.3;
  p.density = 2;
  const LoadedScene s = MakeBilliard(p);
  auto mass = [&](double r) { return 2 * 4.0 / 3.0 * kPi * r * r * r; };
  const VectorXd md =
      (VectorXd(6) << mass(0.7), mass(0.7), mass(1.1), mass(1.1), mass(1.3), mass(1.3)).finished();
  EXPECT_TRUE(Near(s.problem.M(), md.asDiagonal().toDenseMatrix(), 1e-12 * md.maxCoeff()));
  const double c = std::cos(p.theta / 2), sn = std::sin(p.theta / 2);
  // D phi_a = (1/d_a)[x_a - x_c, y_a - y_c, 0, 0, x_c - x_a, y_c - y_a] (digest §3.2, corrected
  // sign); a at angle +theta/2, b at -theta/2.
  const MatrixXd jn = (MatrixXd(2, 6) << c, sn, 0, 0, -c, -sn, 0, 0, c, -sn, -c, sn).finished();
  EXPECT_TRUE(Near(s.problem.Jn(), jn, kTol));
  // Orthogonal tangent t = (n_y, -n_x), Jf = t^T (v_other - v_c).
  const MatrixXd jf = (MatrixXd(2, 6) << sn, -c, 0, 0, -sn, c, 0, 0, -sn, -c, sn, c).finished();
  EXPECT_TRUE(Near(s.problem.ContactJacobian().bottomRows(2), jf, kTol));
  EXPECT_TRUE(Near(s.q.head(2), (p.ra + p.rc) * (VectorXd(2) << c, sn).finished(), kTol));
  EXPECT_TRUE(Near(s.q.segment(2, 2), (p.rb + p.rc) * (VectorXd(2) << c, -sn).finished(), kTol));
  // D1: <D phi_a, D phi_b>_g = cos(theta) / m_c.
  const MatrixXd W = s.problem.Jn() * s.problem.M().llt().solve(s.problem.Jn().transpose());
  EXPECT_NEAR(W(0, 1), std::cos(p.theta) / mass(1.3), kTol);
  EXPECT_TRUE(Near(s.problem.v_minus(), (VectorXd(6) << 0, 0, 0, 0, 1, 0).finished(), kTol));
}

TEST(Billiard, MinimumAngleAddsTheABContact) {
  EXPECT_NEAR(BilliardMinAngle(1, 1, 1), kPi / 3, kTol);
  // Digest §3.2: theta_min ~ pi/6 needs r_c ~ 2.864 r.
  EXPECT_NEAR(BilliardMinAngle(1, 1, 2.8637), kPi / 6, 1e-4);
  BilliardParams p;
  p.theta = BilliardMinAngle(1, 1, 1);
  const LoadedScene s = MakeBilliard(p);
  ASSERT_EQ(s.problem.m(), 3);
  EXPECT_TRUE(Near(s.problem.Jn().row(2), (MatrixXd(1, 6) << 0, 1, 0, -1, 0, 0).finished(),
                   1e-9));  // n = (0, -1) from a above to b
}

TEST(Rhex, ReducedConfigurationAndJacobians) {
  RhexParams p;  // phi_r 0.5, gamma 0.3, equal legs 0.1: delta = gamma/2, phi_l = -phi_r - gamma
  const double l = 0.1, h = p.hip_offset, pr = p.phi_r, g = p.gamma, pl = -pr - g;
  const VectorXd q = RhexConfiguration(p);
  const double y = l * std::cos(pr) + l * std::cos(pr + g);
  EXPECT_TRUE(Near(q, (VectorXd(7) << 0, y, 0, pl, pr, g, g).finished(), kTol));
  EXPECT_NEAR(l * std::cos(pl) + l * std::cos(pl + g), y, kTol);  // both feet on the floor
  const LoadedScene s = MakeRhex(p);
  ASSERT_EQ(s.problem.m(), 2);
  // Foot height y + x_hip sin(theta) - l1 cos(theta + phi) - l2 cos(theta + phi + gamma).
  auto row = [&](double phi, double xh, bool right) {
    const double a = l * std::sin(phi) + l * std::sin(phi + g), b = l * std::sin(phi + g);
    MatrixXd r = MatrixXd::Zero(1, 7);
    r(0, 1) = 1;
    r(0, 2) = xh + a;
    r(0, right ? 4 : 3) = a;
    r(0, right ? 6 : 5) = b;
    return r;
  };
  EXPECT_TRUE(Near(s.problem.Jn().row(0), row(pr, h, true), kTol));    // right foot: u
  EXPECT_TRUE(Near(s.problem.Jn().row(1), row(pl, -h, false), kTol));  // left foot: v
  // M: total mass on (x, y); a knee carries its shank, m l^2/3; a hip its thigh and shank.
  const double mt = 0.1, ms = 0.1;
  EXPECT_NEAR(s.problem.M()(0, 0), 1 + 2 * mt + 2 * ms, kTol);
  EXPECT_NEAR(s.problem.M()(1, 1), 1 + 2 * mt + 2 * ms, kTol);
  EXPECT_NEAR(s.problem.M()(0, 1), 0, kTol);
  EXPECT_NEAR(s.problem.M()(5, 5), ms * l * l / 3, kTol);
  const double hip =
      mt * l * l / 3 + ms * (l * l + l * l / 4 + l * l * std::cos(g)) + ms * l * l / 12;
  EXPECT_NEAR(s.problem.M()(3, 3), hip, kTol);
  EXPECT_NEAR(s.problem.M()(4, 4), hip, kTol);
  EXPECT_NEAR(s.problem.M()(3, 4), 0, kTol);  // the legs are not coupled directly
  RhexParams same = p;
  same.branch = 1;
  EXPECT_NEAR(RhexConfiguration(same)(3), pr, kTol);
}

// The generated systems reproduce the digest's Seghete-Murphey reference outcomes end to end
// (peer-seghete-murphey.md §4 D3, D4, D6, B4): the kinematics, masses and contact order are right.
TEST(Billiard, DigestXiAndOutcomes) {
  // Digest values printed with 6 decimals.
  constexpr double kPrinted6 = 6e-7;
  auto make = [](double theta) {
    BilliardParams p;
    p.theta = theta;
    return MakeBilliard(p).problem;
  };
  const auto p60 = make(kPi / 3 + 1e-12);  // a, b touching: a third contact (a-b) at rest
  impact::PropagativeOptions a_first;
  a_first.first_contact = 0;
  const auto r60 = impact::ResolvePropagative(p60, a_first);
  ASSERT_EQ(r60.status, impact::PropagativeStatus::kFeasible);
  EXPECT_TRUE(Near(r60.v_plus,
                   (VectorXd(6) << 0.75, 0.433013, 0.375, -0.216506, -0.125, -0.216506).finished(),
                   kPrinted6));  // D3
  const auto p120 = make(2 * kPi / 3);
  EXPECT_NEAR(impact::OrderingDiscrepancy(p120, p120.v_minus(), 0, 1), 0.559017, kPrinted6);  // D4
  const auto p90 = make(kPi / 2);
  EXPECT_NEAR(impact::OrderingDiscrepancy(p90, p90.v_minus(), 0, 1), 0, kTol);  // D2
  const double tsw = std::acos((1 - std::sqrt(5.0)) / 2);
  const auto psw = make(tsw);
  EXPECT_NEAR(impact::OrderingDiscrepancy(psw, psw.v_minus(), 0, 1), (std::sqrt(5.0) - 1) / 2,
              1e-9);  // D6
}

TEST(Cradle, DigestB4TwoOutcomes) {
  const LoadedScene s = LoadParametric("cradle", {{"masses", "1,2,1"}, {"velocities", "1,0,-1"}});
  impact::PropagativeOptions u_first, v_first;
  u_first.first_contact = 0;
  v_first.first_contact = 1;
  const auto u = impact::ResolvePropagative(s.problem, u_first);
  const auto v = impact::ResolvePropagative(s.problem, v_first);
  EXPECT_TRUE(Near(u.v_plus, (VectorXd(3) << -13, -10, 33).finished() / 27, kTol));
  EXPECT_TRUE(Near(v.v_plus, (VectorXd(3) << -33, 10, 13).finished() / 27, kTol));
}

TEST(Parametric, BadParametersNameTheField) {
  EXPECT_NE(Message([] {
              LoadParametric("billiard", {{"theta", "0.5"}});
            }).find("theta = 0.5"),
            std::string::npos);
  EXPECT_NE(Message([] {
              LoadParametric("billiard", {{"theta", "3.2"}});
            }).find("theta"),
            std::string::npos);
  EXPECT_NE(Message([] {
              LoadParametric("billiard", {{"rc", "-1"}});
            }).find("rc = -1"),
            std::string::npos);
  EXPECT_NE(Message([] {
              LoadParametric("billiard", {{"thetta", "1"}});
            }).find("unknown parameter 'thetta' (known: theta"),
            std::string::npos);
  EXPECT_NE(Message([] {
              LoadParametric("billiard", {{"theta", "1x"}});
            }).find("theta = '1x': expected a finite number"),
            std::string::npos);
  EXPECT_NE(Message([] {
              LoadParametric("cradle", {{"masses", "1,2"}, {"n", "3"}});
            }).find("masses = 1,2"),
            std::string::npos);
  EXPECT_NE(Message([] {
              LoadParametric("cradle", {{"radii", "1,0,1"}});
            }).find("radii[1] = 0"),
            std::string::npos);
  EXPECT_NE(Message([] {
              LoadParametric("cradle", {{"velocities", "0,0,1"}});
            }).find("velocities"),
            std::string::npos);
  EXPECT_NE(Message([] {
              LoadParametric("rhex", {{"phi_r", "3"}});
            }).find("phi_r/gamma"),
            std::string::npos);
  EXPECT_NE(Message([] {
              LoadParametric("rhex", {{"branch", "2"}});
            }).find("branch = 2"),
            std::string::npos);
  EXPECT_NE(Message([] {
              LoadSystem("rocking-block", {{"x", "1"}});
            }).find("no parameters"),
            std::string::npos);
  EXPECT_NE(Message([] { ParseParameterAssignments({"theta"}); }).find("expected KEY=VALUE"),
            std::string::npos);
  EXPECT_NE(Message([] {
              ParseParameterAssignments({"a=1", "a=2"});
            }).find("given twice"),
            std::string::npos);
}

}  // namespace
}  // namespace impactset::systems
