// Parametrised systems (systems/parametric.hpp, docs/parametric-systems.md): M, Jn, Jf and q
// against hand-derived values, Seghete & Murphey's reference outcomes on the generated systems
// (IEEE T-ASE 2014, [S-J]; ICRA 2012, [S-C]), and bad parameters naming the field.
#include <impactset/systems/parametric.hpp>

#include <gtest/gtest.h>

#include <impactset/laws/seghete_murphey_diagnostics.hpp>
#include <impactset/laws/seghete_murphey_maps.hpp>
#include <impactset/laws/seghete_murphey_resolver.hpp>

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace impactset::systems {
namespace {

using testing::CompareMatrices;

// M and the Jacobians are sums of a few products of the inputs: roundoff only.
constexpr double kTol = 1e-12;
constexpr double kPi = std::numbers::pi;

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
  EXPECT_TRUE(CompareMatrices(s.problem.M(), p.masses.asDiagonal().toDenseMatrix(), kTol));
  // phi_i = x_{i+1} - x_i - r_i - r_{i+1}: Jn row i = e_{i+1} - e_i.
  EXPECT_TRUE(
      CompareMatrices(s.problem.Jn(), (MatrixXd(2, 3) << -1, 1, 0, 0, -1, 1).finished(), kTol));
  EXPECT_TRUE(CompareMatrices(s.q, (VectorXd(3) << 0, 0.8, 1.3).finished(), kTol));
  EXPECT_TRUE(CompareMatrices(s.problem.v_minus(), p.velocities, kTol));
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
  EXPECT_TRUE(
      CompareMatrices(s.problem.M(), md.asDiagonal().toDenseMatrix(), 1e-12 * md.maxCoeff()));
  const double c = std::cos(p.theta / 2), sn = std::sin(p.theta / 2);
  // D phi_a = (1/d_a)[x_a - x_c, y_a - y_c, 0, 0, x_c - x_a, y_c - y_a] (the gradient of the gap
  // d_a - r_a - r_c, sign checked by hand); a at angle +theta/2, b at -theta/2.
  const MatrixXd jn = (MatrixXd(2, 6) << c, sn, 0, 0, -c, -sn, 0, 0, c, -sn, -c, sn).finished();
  EXPECT_TRUE(CompareMatrices(s.problem.Jn(), jn, kTol));
  // Orthogonal tangent t = (n_y, -n_x), Jf = t^T (v_other - v_c).
  const MatrixXd jf = (MatrixXd(2, 6) << sn, -c, 0, 0, -sn, c, 0, 0, -sn, -c, sn, c).finished();
  EXPECT_TRUE(CompareMatrices(s.problem.ContactJacobian().bottomRows(2), jf, kTol));
  EXPECT_TRUE(
      CompareMatrices(s.q.head(2), (p.ra + p.rc) * (VectorXd(2) << c, sn).finished(), kTol));
  EXPECT_TRUE(
      CompareMatrices(s.q.segment(2, 2), (p.rb + p.rc) * (VectorXd(2) << c, -sn).finished(), kTol));
  // <D phi_a, D phi_b>_g = cos(theta) / m_c.
  const MatrixXd W = s.problem.Jn() * s.problem.M().llt().solve(s.problem.Jn().transpose());
  EXPECT_NEAR(W(0, 1), std::cos(p.theta) / mass(1.3), kTol);
  EXPECT_TRUE(
      CompareMatrices(s.problem.v_minus(), (VectorXd(6) << 0, 0, 0, 0, 1, 0).finished(), kTol));
}

TEST(Billiard, MinimumAngleAddsTheABContact) {
  EXPECT_NEAR(BilliardMinAngle(1, 1, 1), kPi / 3, kTol);
  // theta_min = pi/6 needs r_c = 2.864 r: sin(theta_min / 2) = r / (r + r_c), by hand.
  EXPECT_NEAR(BilliardMinAngle(1, 1, 2.8637), kPi / 6, 1e-4);
  BilliardParams p;
  p.theta = BilliardMinAngle(1, 1, 1);
  const LoadedScene s = MakeBilliard(p);
  ASSERT_EQ(s.problem.m(), 3);
  EXPECT_TRUE(CompareMatrices(s.problem.Jn().row(2),
                              (MatrixXd(1, 6) << 0, 1, 0, -1, 0, 0).finished(),
                              1e-9));  // n = (0, -1) from a above to b
}

TEST(Rhex, ReducedConfigurationAndJacobians) {
  RhexParams p;  // phi_r 0.5, gamma 0.3, equal legs 0.1: delta = gamma/2, phi_l = -phi_r - gamma
  const double l = 0.1, h = p.hip_offset, pr = p.phi_r, g = p.gamma, pl = -pr - g;
  const VectorXd q = RhexConfiguration(p);
  const double y = l * std::cos(pr) + l * std::cos(pr + g);
  EXPECT_TRUE(CompareMatrices(q, (VectorXd(7) << 0, y, 0, pl, pr, g, g).finished(), kTol));
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
  EXPECT_TRUE(CompareMatrices(s.problem.Jn().row(0), row(pr, h, true), kTol));    // right foot: u
  EXPECT_TRUE(CompareMatrices(s.problem.Jn().row(1), row(pl, -h, false), kTol));  // left foot: v
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

// [S-C] Fig. 2, qualitative: s(phi_r, gamma) has two
// mirror-image global minima and one local maximum at the symmetric stance. The paper states no
// dimension; this holds for "minimum = most negative s" with a body taller than it is long
// (pitch radius of gyration above half the hip spacing) and branch 0, and not for the defaults
// (docs/parametric-systems.md, the RHex section).
struct RhexGrid {
  static constexpr int kHalf = 24;       // 49 x 49 points, (0, 0) at (kHalf, kHalf)
  static constexpr double kStep = 0.05;  // rad: phi_r, gamma in [-1.2, 1.2]
  static constexpr int kN = 2 * kHalf + 1;
  MatrixXd s = MatrixXd::Constant(kN, kN, std::numeric_limits<double>::quiet_NaN());
  static double Angle(int i) { return (i - kHalf) * kStep; }
};

// s = <u, v>_g: the cosine between the feet's normals in the M^-1 metric; NaN where the
// generator rejects (phi_r, gamma) (feet not below the hips).
RhexGrid SampleRhexCosine(RhexParams p) {
  RhexGrid g;
  for (int i = 0; i < RhexGrid::kN; ++i) {
    for (int j = 0; j < RhexGrid::kN; ++j) {
      p.phi_r = RhexGrid::Angle(i);
      p.gamma = RhexGrid::Angle(j);
      try {
        g.s(i, j) = laws::Cometric(MakeRhex(p).problem).cosines(0, 1);
      } catch (const std::invalid_argument&) {
      }
    }
  }
  return g;
}

struct GridPoint {
  int i, j;
};
// Strict local extrema over the 8 neighbours, at points whose whole 5 x 5 block is feasible and
// inside the grid: an extremum next to a hole or the edge is not "isolated".
void LocalExtrema(const MatrixXd& s,
                  std::vector<GridPoint>* minima,
                  std::vector<GridPoint>* maxima) {
  for (int i = 2; i < s.rows() - 2; ++i) {
    for (int j = 2; j < s.cols() - 2; ++j) {
      if (s.block(i - 2, j - 2, 5, 5).hasNaN()) continue;
      bool lower = true, higher = true;
      for (int di = -1; di <= 1; ++di) {
        for (int dj = -1; dj <= 1; ++dj) {
          if (di == 0 && dj == 0) continue;
          lower = lower && s(i, j) < s(i + di, j + dj);
          higher = higher && s(i, j) > s(i + di, j + dj);
        }
      }
      if (lower) minima->push_back({i, j});
      if (higher) maxima->push_back({i, j});
    }
  }
}

TEST(Rhex, CosineHasTwoMirrorMinimaAndAMaximumAtTheSymmetricStance) {
  // Mirror images come from the same kinematics reflected: roundoff only.
  constexpr double kMirrorTol = 1e-12;
  constexpr int c = RhexGrid::kHalf;
  constexpr double kInf = std::numeric_limits<double>::infinity();  // holes: not a minimum
  RhexParams p;          // branch 0; body 1 kg, thighs and shanks 0.1 kg each
  p.hip_offset = 0.05;   // hips 0.1 apart, legs 0.3 long
  p.shank_length = 0.2;  // thigh 0.1
  p.body_height = 0.2;   // body 0.1 x 0.2: rho^2 = (4 h^2 + H^2) / 12 > h^2
  const RhexGrid g = SampleRhexCosine(p);
  int feasible = 0;
  for (int i = 0; i < RhexGrid::kN; ++i) {
    for (int j = 0; j < RhexGrid::kN; ++j) {
      if (std::isnan(g.s(i, j))) continue;
      ++feasible;
      EXPECT_NEAR(g.s(i, j), g.s(2 * c - i, 2 * c - j), kMirrorTol) << i << ", " << j;
    }
  }
  EXPECT_GT(feasible, RhexGrid::kN * RhexGrid::kN / 4) << "feasible grid points";
  std::vector<GridPoint> minima, maxima;
  LocalExtrema(g.s, &minima, &maxima);
  ASSERT_EQ(minima.size(), 2u);
  ASSERT_EQ(maxima.size(), 1u);
  // C: the straight-legged symmetric stance. Its legs do not enter Jn, so s is the rigid body's
  // (1/m - h^2/I) / (1/m + h^2/I): m = 1.4 kg, I = 1 kg rho^2 + 2 (0.2 kg) h^2, so s = 5/26.
  EXPECT_EQ(maxima[0].i, c);
  EXPECT_EQ(maxima[0].j, c);
  EXPECT_NEAR(g.s(c, c), 5.0 / 26.0, kTol);
  // A, B: mirror images, both the grid's global minimum, away from C. Here they are the
  // straight-legged splayed stances phi_r = +-0.95, gamma = 0, s = -0.0021.
  const GridPoint a = minima[0], b = minima[1];
  EXPECT_EQ(a.i + b.i, 2 * c);
  EXPECT_EQ(a.j + b.j, 2 * c);
  EXPECT_EQ(a.j, c);
  EXPECT_NEAR(std::abs(RhexGrid::Angle(a.i)), 0.95, RhexGrid::kStep / 2);  // to the grid point
  const double global_min = g.s.array().isNaN().select(kInf, g.s.array()).minCoeff();
  EXPECT_EQ(g.s(a.i, a.j), global_min);
  EXPECT_NEAR(g.s(b.i, b.j), global_min, kMirrorTol);
  EXPECT_LT(global_min, 0);

  // The defaults (hips 0.5 apart, body 0.5 x 0.1, legs 0.2) do not reproduce Fig. 2: the same
  // stance C is the one global minimum of s instead (rho^2 < h^2).
  const RhexGrid d = SampleRhexCosine(RhexParams{});
  minima.clear();
  maxima.clear();
  LocalExtrema(d.s, &minima, &maxima);
  ASSERT_FALSE(minima.empty());
  EXPECT_EQ(d.s(c, c), d.s.array().isNaN().select(kInf, d.s.array()).minCoeff());
  for (const GridPoint& m : maxima) EXPECT_FALSE(m.i == c && m.j == c);
}

// The generated systems reproduce Seghete & Murphey's billiard and cradle outcomes end to end
// (the same values as tests/laws/seghete_murphey_test.cpp, there on systems built by hand): the
// kinematics, masses and contact order are right.
TEST(Billiard, OrderingDiscrepancyAndOutcomesMatchTheHandBuiltBilliard) {
  // Hand-derived values quoted with 6 decimals.
  constexpr double kPrinted6 = 6e-7;
  auto make = [](double theta) {
    BilliardParams p;
    p.theta = theta;
    return MakeBilliard(p).problem;
  };
  const auto p60 = make(kPi / 3 + 1e-12);  // a, b touching: a third contact (a-b) at rest
  laws::PropagativeOptions a_first;
  a_first.first_contact = 0;
  const auto r60 = laws::ResolvePropagative(p60, a_first);
  ASSERT_EQ(r60.status, laws::PropagativeStatus::kFeasible);
  EXPECT_TRUE(CompareMatrices(
      r60.v_plus, (VectorXd(6) << 0.75, 0.433013, 0.375, -0.216506, -0.125, -0.216506).finished(),
      kPrinted6));  // 60 degrees, a first
  const auto p120 = make(2 * kPi / 3);
  EXPECT_NEAR(laws::OrderingDiscrepancy(p120, p120.v_minus(), 0, 1), 0.559017, kPrinted6);
  const auto p90 = make(kPi / 2);
  EXPECT_NEAR(laws::OrderingDiscrepancy(p90, p90.v_minus(), 0, 1), 0, kTol);  // orthogonal
  const double tsw = std::acos((1 - std::sqrt(5.0)) / 2);
  const auto psw = make(tsw);
  EXPECT_NEAR(laws::OrderingDiscrepancy(psw, psw.v_minus(), 0, 1), (std::sqrt(5.0) - 1) / 2,
              1e-9);  // where the longest sequence switches from 2 to 3 reflections
}

TEST(Cradle, UnequalMassesGiveTwoOutcomesByFirstContact) {
  const LoadedScene s = LoadParametric("cradle", {{"masses", "1,2,1"}, {"velocities", "1,0,-1"}});
  laws::PropagativeOptions u_first, v_first;
  u_first.first_contact = 0;
  v_first.first_contact = 1;
  const auto u = laws::ResolvePropagative(s.problem, u_first);
  const auto v = laws::ResolvePropagative(s.problem, v_first);
  EXPECT_TRUE(CompareMatrices(u.v_plus, (VectorXd(3) << -13, -10, 33).finished() / 27, kTol));
  EXPECT_TRUE(CompareMatrices(v.v_plus, (VectorXd(3) << -33, 10, 13).finished() / 27, kTol));
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
            }).find("theta = '1x': not a number"),
            std::string::npos);
  EXPECT_NE(Message([] {
              LoadParametric("cradle", {{"masses", "1, x,1"}});
            }).find("masses[1] = 'x': not a number"),
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
