// Compliant-contact cross-validation (simulators/compliant.hpp; Halm & Posa §5.4.1, Fig. 12;
// docs/model.md §8, docs/examples.md 3.7).
#include <impactset/simulators/compliant.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include <impactset/sampling/sampler.hpp>
#include <impactset/setapprox/distances.hpp>
#include <impactset/simulators/tilted_drop.hpp>
#include <impactset/systems/builtin.hpp>
#include "test_util.hpp"

namespace impactset::simulators {
namespace {

using testing::CompareMatrices;

// A point mass m on the floor: n = 1, Jn = [1], frictionless.
impact::ImpactProblem PointMass(double mass, double v0) {
  return impact::ImpactProblem(MatrixXd::Constant(1, 1, mass), MatrixXd::Ones(1, 1), MatrixXd(0, 1),
                               VectorXd::Zero(1), VectorXd::Constant(1, -v0), 0);
}

// Coefficient of restitution of the one-sided Kelvin-Voigt contact m x'' = -(k x + c x') while
// that force pushes (x < 0, k x + c x' < 0), zeta < 1/sqrt(2). From x = -(v0/wd) e^{-zeta w t}
// sin(wd t) the force vanishes when tan(wd t) = -2 zeta sqrt(1 - zeta^2) / (1 - 2 zeta^2), at
// wd t* in (pi/2, pi), and the mass leaves with e = x'(t*) / v0 (Schwager & Poeschel 2007).
double OneSidedRestitution(double zeta) {
  const double s = std::sqrt(1 - zeta * zeta);
  const double wd_t = M_PI - std::atan(2 * zeta * s / (1 - 2 * zeta * zeta));
  const double sigma_t = zeta / s * wd_t;  // zeta w t* = zeta / sqrt(1 - zeta^2) * wd t*
  // x'(t)/v0 = -e^{-sigma t} (cos(wd t) - zeta / s sin(wd t))
  return -std::exp(-sigma_t) * (std::cos(wd_t) - zeta / s * std::sin(wd_t));
}

// CVODE at rtol 1e-10 resolves the exit velocity to ~1e-9; the root is located to ~1e-12 s.
constexpr double kRestitutionTolerance = 1e-7;

TEST(Compliant, PointMassRestitutionMatchesKelvinVoigtClosedForm) {
  for (double zeta : {0.0, 0.05, 0.2, 0.5}) {
    for (double k : {1e4, 1e8}) {
      CompliantOptions o;
      o.stiffness = k;
      o.damping_ratio = zeta;
      o.end = CompliantEnd::kSeparated;
      o.stop_velocity = 0;
      const double v0 = 0.7, mass = 2.0;
      const CompliantResult r = SimulateCompliantImpact(PointMass(mass, v0), o);
      ASSERT_TRUE(r.terminated()) << r.message;
      const double e = r.v_plus[0] / v0;
      EXPECT_NEAR(e, OneSidedRestitution(zeta), kRestitutionTolerance)
          << "zeta " << zeta << " k " << k;
      // Impulse = momentum change, and the contact time scales as 1/sqrt(k).
      EXPECT_NEAR(r.impulse[0], mass * (r.v_plus[0] + v0), 1e-9);
      EXPECT_GT(r.duration, 0.5 * M_PI * std::sqrt(mass / k) * 0.9);
      EXPECT_LT(r.duration, M_PI * std::sqrt(mass / k) / std::sqrt(1 - zeta * zeta) * 1.0001);
    }
  }
}

TEST(Compliant, RejectsBadOptionsByName) {
  const impact::ImpactProblem p = PointMass(1, 1);
  auto throws_naming = [&](const CompliantOptions& o, const std::string& field) {
    return testing::ThrowsNaming([&] { SimulateCompliantImpact(p, o); }, field);
  };
  CompliantOptions o;
  o.stiffness = 0;
  EXPECT_TRUE(throws_naming(o, "stiffness"));
  o = {};
  o.stiffness_ratio = VectorXd::Ones(2);
  EXPECT_TRUE(throws_naming(o, "stiffness_ratio.size()"));
  o = {};
  o.stiffness_ratio = VectorXd::Constant(1, -1);
  EXPECT_TRUE(throws_naming(o, "stiffness_ratio[0]"));
  o = {};
  o.damping_ratio = -1;
  EXPECT_TRUE(throws_naming(o, "damping_ratio"));
  o = {};
  o.friction_regularisation = 0;
  EXPECT_TRUE(throws_naming(o, "friction_regularisation"));
  o = {};
  o.relative_tolerance = std::nan("");
  EXPECT_TRUE(throws_naming(o, "relative_tolerance"));
  o = {};
  o.max_time = -1;
  EXPECT_TRUE(throws_naming(o, "max_time"));
  o = {};
  o.max_steps = 0;
  EXPECT_TRUE(throws_naming(o, "max_steps"));
  o = {};
  o.external_force = VectorXd::Zero(3);
  EXPECT_TRUE(throws_naming(o, "external_force.size()"));
  o = {};
  o.initial_gap = VectorXd::Zero(2);
  EXPECT_TRUE(throws_naming(o, "initial_gap.size()"));
}

TEST(Compliant, CapsBecomeStatusesNotExceptions) {
  CompliantOptions o;
  o.max_steps = 3;
  EXPECT_EQ(SimulateCompliantImpact(PointMass(1, 1), o).status, CompliantStatus::kStepLimit);
  o = {};
  o.max_time = 1e-6;  // far shorter than the ~3 ms compression at k = 1e6
  EXPECT_EQ(SimulateCompliantImpact(PointMass(1, 1), o).status, CompliantStatus::kTimeLimit);
}

// The rocking block (docs/examples.md 3.2) and its drop speed v0 = sqrt(2 g 0.01).
constexpr double kV0 = 0.442944691807002;
constexpr double kGravity = 9.81;

// The authors' compliant settings (docs/examples.md 3.7): zeta = 5 with their 2 zeta sqrt(k/m), m =
// 1; vtol = 1e-3 m / k; itol = 1e-2 m v0; ode15s tolerances; gravity on.
CompliantOptions PaperOptions() {
  CompliantOptions o;
  o.stiffness = 1e6;
  o.damping_ratio = 5;
  o.damping_mass = 1;
  // The authors' 1e-10 makes CVODE fail its error test at stick-slip kinks in about a third of
  // these runs; 1e-6 m/s of creep is far below epsilon (CompliantOptions::friction_regularisation).
  o.friction_regularisation = 1e-6;
  o.stop_velocity = 1e-3 / o.stiffness;
  o.min_impulse = 1e-2 * kV0;
  o.relative_tolerance = 1e-10;
  o.absolute_tolerance = 1e-11;
  o.max_time = 0.1;
  o.external_force = Eigen::Vector3d(0, -kGravity, 0);
  return o;
}

TEST(Compliant, TiltedDropMatchesTheAuthorsConstruction) {
  const auto scene = systems::LoadBuiltinScene("rocking-block");
  // A box of mass 1: gravity is (0, -m g, 0) whatever the tilt.
  const VectorXd g = systems::GravityForce(scene.tree, scene.q, kGravity);
  EXPECT_TRUE(CompareMatrices(g, Eigen::Vector3d(0, -kGravity, 0), 1e-14));
  // Tilt theta about the centre: the lower corner sinks by (a/2) sin|theta| - (b/2)(1 - cos
  // theta) (a = 1, b = 2), the block is lifted by that depth, the other corner is then a sin
  // |theta| above the floor, and v_y = -sqrt(v0^2 - 2 g depth) (docs/examples.md 3.7, sweep 2).
  const double theta = 0.01 * M_PI / 180;
  const auto tilt = simulators::TiltScene(scene, theta, kGravity);
  const double depth = 0.5 * std::sin(theta) - (1 - std::cos(theta));
  constexpr double kRoundoff = 1e-14;  // a few ulps of O(1) coordinates and speeds
  EXPECT_NEAR(tilt.q[1], 1 + depth, kRoundoff);
  EXPECT_NEAR(tilt.q[2], theta, 1e-18);
  EXPECT_NEAR(tilt.gap.minCoeff(), 0, kRoundoff);
  EXPECT_NEAR(tilt.gap.maxCoeff(), std::sin(theta), kRoundoff);
  EXPECT_NEAR(tilt.problem.v_minus()[1], -std::sqrt(kV0 * kV0 - 2 * kGravity * depth), kRoundoff);
}

// Contact-space checks of one run without external force: momentum balance
// M (v+ - v-) = Jn^T Lambda_n + T^T Lambda_t and the integrated Coulomb cone |Lambda_t| <= mu
// Lambda_n (each instant's force lies in the cone, so the integral does).
constexpr double kMomentumTolerance = 1e-8;  // rtol 1e-10 on O(1) velocities and impulses
void ExpectBalancedImpulses(const impact::ImpactProblem& p, const CompliantResult& r) {
  const int m = p.m();
  const MatrixXd& cj = p.ContactJacobian();
  const VectorXd lhs = p.M() * (r.v_plus - p.v_minus());
  const VectorXd rhs = cj.transpose() * r.impulse;
  EXPECT_TRUE(CompareMatrices(lhs, rhs, kMomentumTolerance));
  const int d = static_cast<int>((cj.rows() - m) / m);
  for (int i = 0; i < m; ++i) {
    EXPECT_GE(r.impulse[i], 0);
    if (d > 0) {
      EXPECT_LE(r.impulse.segment(m + i * d, d).norm(), p.mu()[i] * r.impulse[i] + 1e-12);
    }
  }
}

// The total energy (kinetic + stored in the springs) never increases: the one-sided force only
// dissipates (power -c vn^2 while pushing, k phi vn < 0 while clipped) and so does friction.
// Tolerance: CVODE's local error control (rtol 1e-10) on an O(0.1 J) energy.
constexpr double kEnergyRiseTolerance = 1e-9;
TEST(Compliant, EnergyNeverIncreases) {
  const auto scene = systems::LoadBuiltinScene("rocking-block");
  struct Case {
    std::string name;
    impact::ImpactProblem problem;
    VectorXd gap;
    VectorXd ratio;
  };
  std::vector<Case> cases;
  for (const std::string& name : testing::kPaperExamples) {
    const auto lp = testing::Example(name);
    VectorXd ratio(lp.problem.m());
    for (int i = 0; i < ratio.size(); ++i) ratio[i] = std::pow(10.0, (i % 3) - 1.0);
    cases.push_back({name, lp.problem, VectorXd(), ratio});
  }
  const auto tilt = simulators::TiltScene(scene, 0.005 * M_PI / 180);
  cases.push_back({"tilted rocking block", tilt.problem, tilt.gap, VectorXd()});
  for (const auto& c : cases) {
    CompliantOptions o;
    o.stiffness = 1e7;
    o.damping_ratio = 0.3;  // under-damped: the springs store and return energy
    o.friction_regularisation = 1e-6;
    o.end = CompliantEnd::kSeparated;
    o.record_energy = true;
    o.stiffness_ratio = c.ratio;
    o.initial_gap = c.gap;
    const CompliantResult r = SimulateCompliantImpact(c.problem, o);
    EXPECT_TRUE(r.terminated()) << c.name << ": " << r.message;
    ASSERT_GE(r.energy.size(), 2u);
    const double e0 = r.energy.front();
    for (size_t j = 1; j < r.energy.size(); ++j) {
      ASSERT_LE(r.energy[j], r.energy[j - 1] + kEnergyRiseTolerance * e0)
          << c.name << " at t = " << r.energy_time[j];
    }
    EXPECT_LE(r.energy_ratio, 1 + kEnergyRiseTolerance) << c.name;
    ExpectBalancedImpulses(c.problem, r);
  }
}

// With damping c = 2 zeta sqrt(k m) and no external force the equations are invariant under
// k -> s k, t -> t / sqrt(s), phi -> phi / sqrt(s): the outcome does not depend on the stiffness
// scale (only on ratios), from 1e6 to 1e11. The stop velocity is a velocity, kept fixed.
constexpr double kScaleInvarianceTolerance = 1e-6;  // rtol 1e-10 integrations and root location
TEST(Compliant, OutcomeIndependentOfStiffnessScale) {
  const auto lp = testing::Example("rocking-block");
  CompliantOptions o;
  o.stiffness_ratio = Eigen::Vector2d(10, 1);
  o.stiffness = 1e6;
  const CompliantResult base = SimulateCompliantImpact(lp.problem, o);
  ASSERT_TRUE(base.terminated()) << base.message;
  ExpectBalancedImpulses(lp.problem, base);
  for (double k : {1e8, 1e11}) {
    o.stiffness = k;
    const CompliantResult r = SimulateCompliantImpact(lp.problem, o);
    ASSERT_TRUE(r.terminated()) << r.message;
    EXPECT_TRUE(CompareMatrices(r.v_plus, base.v_plus, kScaleInvarianceTolerance)) << "k = " << k;
    EXPECT_NEAR(r.duration * std::sqrt(k / 1e6), base.duration, 1e-6 * base.duration);
  }
}

// The analytic Jacobian and CVODE's difference quotients integrate the same ODE: with a smooth
// enough friction law (v_reg = 1e-3) both reach the same outcome.
constexpr double kJacobianAgreement = 1e-7;  // two rtol 1e-10 integrations with different steps
TEST(Compliant, AnalyticJacobianAgreesWithDifferenceQuotients) {
  for (const char* name : {"rocking-block", "box-wall", "compass-gait"}) {
    const auto lp = testing::Example(name);
    CompliantOptions o;
    o.friction_regularisation = 1e-3;
    o.stiffness_ratio = VectorXd::LinSpaced(lp.problem.m(), 1, 3);
    const CompliantResult a = SimulateCompliantImpact(lp.problem, o);
    o.jacobian = CompliantJacobian::kDifferenceQuotient;
    const CompliantResult b = SimulateCompliantImpact(lp.problem, o);
    ASSERT_TRUE(a.terminated()) << name << ": " << a.message;
    ASSERT_TRUE(b.terminated()) << name << ": " << b.message;
    EXPECT_TRUE(CompareMatrices(a.v_plus, b.v_plus, kJacobianAgreement)) << name;
  }
}

// Fig. 12 (docs/examples.md 3.7): the authors' two sweeps of 51 runs each, stiffness ratio
// k_A / k_B = 10^-5 ... 10^5 and initial tilt -0.01 ... 0.01 degrees, against the rocking block's
// Routh set with the paper's settings (h = 0.3, N = 10, 2^14 samples), in the contact-normal
// plane (Jn_A v+, Jn_B v+).
struct Fig12 {
  MatrixXd routh;      // 2 x K normal velocities of the Routh samples
  MatrixXd compliant;  // 2 x 102 end normal velocities
  std::vector<CompliantResult> runs;
};
const Fig12& RockingBlockFig12() {
  static const Fig12 fig = [] {
    Fig12 f;
    const auto lp = testing::Example("rocking-block");
    sampling::SamplerOptions so;
    so.algorithm.step = *lp.settings.step;
    so.algorithm.max_steps = *lp.settings.max_steps;
    so.samples = *lp.settings.samples;
    so.seed = 12;
    so.keep_samples = true;
    const auto routh = sampling::RunSampler(lp.problem, so);
    f.routh = routh.records.contact_velocity.topRows(2);
    f.runs = StiffnessRatioSweep(lp.problem, PaperOptions(), -5, 5, 51);
    const auto scene = systems::LoadBuiltinScene("rocking-block");
    const double limit = 0.01 * M_PI / 180;
    for (int j = 0; j < 51; ++j) {
      const auto tilt = simulators::TiltScene(scene, -limit + 2 * limit * j / 50, kGravity);
      CompliantOptions o = PaperOptions();
      o.initial_gap = tilt.gap;
      f.runs.push_back(SimulateCompliantImpact(tilt.problem, o));
    }
    f.compliant.resize(2, static_cast<Eigen::Index>(f.runs.size()));
    for (size_t j = 0; j < f.runs.size(); ++j) {
      f.compliant.col(static_cast<Eigen::Index>(j)) = f.runs[j].contact_velocity.head(2);
    }
    return f;
  }();
  return fig;
}

// epsilon: the compliant runs include gravity during the 0.3-1.6 ms of contact (g T up to
// 1.6e-2 m/s, mostly taken up by the contact that is still pushing) and the lifted corner
// leaves while the other is still loaded, which the impulsive Routh model has no counterpart
// for; measured worst 3.2e-3 m/s (tilt -0.01 deg), so 5e-3 m/s = 1.1 % of v0.
constexpr double kFig12Epsilon = 5e-3;
TEST(Compliant, RockingBlockRunsLieWithinEpsilonOfTheRouthSet) {
  const Fig12& f = RockingBlockFig12();
  ASSERT_EQ(f.runs.size(), 102u);
  ASSERT_GT(f.routh.cols(), 0);
  for (const auto& r : f.runs) ASSERT_TRUE(r.terminated()) << r.message;
  const VectorXd to_samples = setapprox::NearestDistances(f.compliant, f.routh);
  const auto hull = setapprox::ComputeConvexHull(f.routh);
  const auto to_hull = setapprox::DistanceToHull(hull, f.compliant);
  Eigen::Index worst = 0;
  to_hull.distance.maxCoeff(&worst);
  SCOPED_TRACE(::testing::Message()
               << "worst run " << worst << ": Jn v+ = (" << f.compliant(0, worst) << ", "
               << f.compliant(1, worst) << "); max Jn v+ (A, B): Routh ("
               << f.routh.row(0).maxCoeff() << ", " << f.routh.row(1).maxCoeff() << "), compliant ("
               << f.compliant.row(0).maxCoeff() << ", " << f.compliant.row(1).maxCoeff() << ")");
  ::testing::Test::RecordProperty("worst_distance_to_hull",
                                  std::to_string(to_hull.distance.maxCoeff()));
  EXPECT_LE(to_hull.distance.maxCoeff(), kFig12Epsilon);
  EXPECT_LE(to_samples.maxCoeff(), kFig12Epsilon);
}

}  // namespace
}  // namespace impactset::simulators
