// Seghete & Murphey's propagative impact law (laws/seghete_murphey*.hpp, docs/seghete-murphey.md)
// after Seghete & Murphey, IEEE T-ASE 2014 ([S-J]) and ICRA 2012 ([S-C]): single-impact
// reflections, Newton's cradle (also the built-in scene), existence and uniqueness for two
// contacts, billiards built from M and Jn, the design measures, energy and momentum identities.
// Expected values come from the papers or from hand derivations (quoted to 5-6 significant digits
// where they are not exact), never from this program's output.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/LU>
#include <boost/math/tools/roots.hpp>

#include <impactset/laws/seghete_murphey.hpp>
#include <impactset/systems/builtin.hpp>
#include "test_util.hpp"

namespace impactset::laws {
namespace {

using testing::CompareMatrices;

// Closed-form algebra on O(1) data: a handful of reflections carry ~1e-15 roundoff.
constexpr double kExact = 1e-12;
// Hand-derived decimals quoted to 5-6 significant digits.
constexpr double kPrinted6 = 1e-6;
constexpr double kPrinted5 = 2e-5;

impact::ImpactProblem Frictionless(const MatrixXd& M, const MatrixXd& Jn, const VectorXd& v) {
  return impact::ImpactProblem(M, Jn, MatrixXd(0, M.rows()), VectorXd::Zero(Jn.rows()), v, 0);
}

VectorXd Vec(std::initializer_list<double> x) {
  VectorXd v(x.size());
  int i = 0;
  for (double a : x) v[i++] = a;
  return v;
}

// Chain of balls on a line: contact i joins balls i and i+1, Dphi_i = e_{i+1} - e_i.
impact::ImpactProblem Chain(const VectorXd& masses, const VectorXd& v) {
  const int n = static_cast<int>(masses.size());
  MatrixXd Jn = MatrixXd::Zero(n - 1, n);
  for (int i = 0; i + 1 < n; ++i) {
    Jn(i, i) = -1;
    Jn(i, i + 1) = 1;
  }
  return Frictionless(masses.asDiagonal().toDenseMatrix(), Jn, v);
}

// Seeded random data (no global RNG): every run draws the same cases.
MatrixXd RandomSpd(int n, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  MatrixXd A(n, n);
  for (int i = 0; i < n * n; ++i) A.data()[i] = g(rng);
  return A * A.transpose() + 0.5 * MatrixXd::Identity(n, n);
}

VectorXd RandomVec(int n, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = g(rng);
  return v;
}

double G(const MatrixXd& Minv, const VectorXd& a, const VectorXd& b) { return a.dot(Minv * b); }

// Two g-unit covectors u, v (rows of the returned Jn) with <u, v>_g = s, in random directions.
MatrixXd NormalsWithCosine(const MatrixXd& M, double s, std::mt19937_64& rng) {
  const int n = static_cast<int>(M.rows());
  const MatrixXd Minv = M.inverse();
  VectorXd u = RandomVec(n, rng);
  u /= std::sqrt(G(Minv, u, u));
  VectorXd w = RandomVec(n, rng);
  w -= G(Minv, w, u) * u;
  w /= std::sqrt(G(Minv, w, w));
  MatrixXd Jn(2, n);
  Jn.row(0) = u.transpose();
  Jn.row(1) = (s * u + std::sqrt(1 - s * s) * w).transpose();
  return Jn;
}

// ---------------------------------------------------------------- single-impact primitives

TEST(SegheteMurpheyReflection, IsAnInvolutiveScaleFreeIsometry) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 2 + trial % 5;
    const MatrixXd M = RandomSpd(n, rng);
    const MatrixXd Minv = M.inverse();
    const VectorXd u = RandomVec(n, rng);
    const MatrixXd Gamma = ReflectionMatrix(M, u);
    const MatrixXd I = MatrixXd::Identity(n, n);
    EXPECT_TRUE(CompareMatrices(Gamma * Gamma, I, kExact * M.norm()));          // (8)
    EXPECT_TRUE(CompareMatrices(ReflectionMatrix(M, 3.7 * u), Gamma, kExact));  // (9)
    EXPECT_TRUE(
        CompareMatrices(Minv * Gamma.transpose() * M, Gamma, kExact * M.norm()));  // velocity form
    // Row momenta act on the right: p Gamma, with <a, b>_g = a M^-1 b^T (Lemma 5, eq. 21).
    const VectorXd pa = RandomVec(n, rng), pb = RandomVec(n, rng);
    const VectorXd qa = Gamma.transpose() * pa, qb = Gamma.transpose() * pb;
    EXPECT_NEAR(G(Minv, qa, qa), G(Minv, pa, pa), kExact * G(Minv, pa, pa) * 10);
    EXPECT_NEAR(G(Minv, qa, qb), G(Minv, pa, pb),
                kExact * std::sqrt(G(Minv, pa, pa) * G(Minv, pb, pb)) * 10);
  }
}

TEST(SegheteMurpheyReflection, ElasticImpactFlipsTheNormalComponentOnly) {
  std::mt19937_64 rng(12);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 3;
    const MatrixXd M = RandomSpd(n, rng);
    const MatrixXd Minv = M.inverse();
    MatrixXd Jn(1, n);
    Jn.row(0) = RandomVec(n, rng).transpose();
    VectorXd v = RandomVec(n, rng);
    if (Jn.row(0).dot(v) > 0) v = -v;  // infeasible: <p-, u>_g = Jn v < 0
    const impact::ImpactProblem p = Frictionless(M, Jn, v);
    const PropagativeResult r = ResolvePropagative(p);
    ASSERT_EQ(r.status, PropagativeStatus::kFeasible);
    ASSERT_EQ(r.reflections, 1);
    const VectorXd u = Jn.row(0).transpose();
    const VectorXd pm = M * v, pp = M * r.v_plus;
    EXPECT_NEAR(G(Minv, pp, u), -G(Minv, pm, u), kExact * 10);
    const double lambda = -2 * G(Minv, pm, u) / G(Minv, u, u);
    EXPECT_GT(lambda, 0);
    EXPECT_NEAR(r.lambda[0], lambda, kExact * std::abs(lambda) * 10);
    const VectorXd tangential_minus = pm - G(Minv, pm, u) / G(Minv, u, u) * u;
    const VectorXd tangential_plus = pp - G(Minv, pp, u) / G(Minv, u, u) * u;
    EXPECT_TRUE(CompareMatrices(tangential_plus, tangential_minus, kExact * 10 * pm.norm()));
  }
}

// Two balls on a line, m = (1, 3), v- = (2, 0), contact [-1, 1].
TEST(SegheteMurpheyReflection, TwoBallsElasticRestitutionAndPlastic) {
  const impact::ImpactProblem p = Chain(Vec({1, 3}), Vec({2, 0}));
  EXPECT_TRUE(CompareMatrices(ResolvePropagative(p).v_plus, Vec({-1, 1}), kExact));
  PropagativeOptions half;
  half.e = 0.25;  // sqrt(e) = R = 0.5
  EXPECT_TRUE(CompareMatrices(ResolvePropagative(p, half).v_plus, Vec({-0.25, 0.75}), kExact));
  EXPECT_TRUE(CompareMatrices(ResolvePlastic(p, p.v_minus()).v_plus, Vec({0.5, 0.5}), kExact));
  EXPECT_TRUE(CompareMatrices(ResolvePlastic(p, p.v_minus(), PlasticMode::kEquality).v_plus,
                              Vec({0.5, 0.5}), kExact));
  const VectorXd blend =
      BlendOutcome(ResolvePropagative(p).v_plus, ResolvePlastic(p, p.v_minus()).v_plus, 0.5);
  EXPECT_TRUE(CompareMatrices(blend, Vec({-0.25, 0.75}), kExact));
}

// [S-C]: for one contact the blend of elastic and plastic outcomes is the map Gamma_e.
TEST(SegheteMurpheyReflection, SingleContactBlendEqualsGammaE) {
  std::mt19937_64 rng(14);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 4;
    const MatrixXd M = RandomSpd(n, rng);
    MatrixXd Jn(1, n);
    Jn.row(0) = RandomVec(n, rng).transpose();
    VectorXd v = RandomVec(n, rng);
    if (Jn.row(0).dot(v) > 0) v = -v;
    const impact::ImpactProblem p = Frictionless(M, Jn, v);
    const double R = 0.05 * trial;
    const VectorXd blend =
        BlendOutcome(ResolvePropagative(p).v_plus, ResolvePlastic(p, v).v_plus, R);
    PropagativeOptions o;
    o.e = R * R;
    const PropagativeResult seq = ResolvePropagative(p, o);
    EXPECT_TRUE(CompareMatrices(blend, seq.v_plus, kExact * 10 * v.norm()));
    const VectorXd u = Jn.row(0).transpose();
    const double pu = G(M.inverse(), M * v, u), uu = G(M.inverse(), u, u);
    const double loss = (1 - R * R) * pu * pu / (2 * uu);
    EXPECT_NEAR(p.KineticEnergy(v) - p.KineticEnergy(blend), loss,
                kExact * 10 * p.KineticEnergy(v));
  }
}

// ---------------------------------------------------------------- Newton's cradle

TEST(SegheteMurpheyCradle, NormalsAndResetMatrices) {
  const impact::ImpactProblem p = Chain(Vec({1, 1, 1}), Vec({1, 0, 0}));
  const Cometric c(p);
  EXPECT_NEAR(c.cosines(0, 1), -0.5, kExact);
  MatrixXd Gu(3, 3), Gv(3, 3), Guvu(3, 3);
  Gu << 0, 1, 0, 1, 0, 0, 0, 0, 1;
  Gv << 1, 0, 0, 0, 0, 1, 0, 1, 0;
  Guvu << 0, 0, 1, 0, 1, 0, 1, 0, 0;  // (15)
  const MatrixXd M = p.M();
  const MatrixXd gu = ReflectionMatrix(M, p.Jn().row(0).transpose());
  const MatrixXd gv = ReflectionMatrix(M, p.Jn().row(1).transpose());
  EXPECT_TRUE(CompareMatrices(gu, Gu, kExact));
  EXPECT_TRUE(CompareMatrices(gv, Gv, kExact));
  EXPECT_TRUE(CompareMatrices(gu * gv * gu, Guvu, kExact));
  EXPECT_TRUE(CompareMatrices(gv * gu * gv, Guvu, kExact));
}

TEST(SegheteMurpheyCradle, ElasticGivesZeroZeroV) {
  for (double v0 : {1.0, 2.5}) {
    const impact::ImpactProblem p = Chain(Vec({1, 1, 1}), Vec({v0, 0, 0}));
    const PropagativeResult r = ResolvePropagative(p);
    EXPECT_EQ(r.status, PropagativeStatus::kFeasible);
    EXPECT_TRUE(CompareMatrices(r.v_plus, Vec({0, 0, v0}), kExact * v0));
    EXPECT_EQ(r.sequence, (std::vector<int>{0, 1}));  // {u, v}: forced choice, 2 reflections
    for (const std::vector<int>& seq : {std::vector<int>{0, 1, 0}, std::vector<int>{1, 0, 1}}) {
      PropagativeOptions o;
      o.policy = OrderingPolicy::kUserSequence;
      o.user_sequence = seq;
      const PropagativeResult u = ResolvePropagative(p, o);
      EXPECT_EQ(u.status, PropagativeStatus::kFeasible);
      EXPECT_TRUE(CompareMatrices(u.v_plus, Vec({0, 0, v0}), kExact * v0));
    }
  }
}

TEST(SegheteMurpheyCradle, BuiltinSceneGivesZeroZeroOneUnderEveryPolicy) {
  const systems::LoadedProblem lp = systems::LoadBuiltin("newtons-cradle");
  const impact::ImpactProblem& p = lp.problem;
  ASSERT_EQ(p.n(), 3);
  ASSERT_EQ(p.m(), 2);
  const PropagativeOutcomeSet set = EnumeratePropagative(p);
  EXPECT_EQ(set.status, EnumerationStatus::kComplete);
  ASSERT_EQ(set.outcomes.size(), 1u);
  EXPECT_TRUE(CompareMatrices(set.outcomes[0].v_plus, Vec({0, 0, 1}), kExact));
  EXPECT_TRUE(set.forced_choice);
  for (OrderingPolicy policy : {OrderingPolicy::kMostViolated, OrderingPolicy::kLeastViolated,
                                OrderingPolicy::kFixedOrder, OrderingPolicy::kRandom}) {
    PropagativeOptions o;
    o.policy = policy;
    o.fixed_order = {1, 0};
    EXPECT_TRUE(CompareMatrices(ResolvePropagative(p, o).v_plus, Vec({0, 0, 1}), kExact))
        << ToString(policy);
  }
}

TEST(SegheteMurpheyCradle, TwoSidedImpactsSwapTheEndVelocities) {
  for (const auto& [vm, vp] :
       {std::pair{Vec({1, 0, -1}), Vec({-1, 0, 1})}, std::pair{Vec({2, 0, -1}), Vec({-1, 0, 2})}}) {
    const impact::ImpactProblem p = Chain(Vec({1, 1, 1}), vm);
    for (const std::vector<int>& seq : {std::vector<int>{0, 1, 0}, std::vector<int>{1, 0, 1}}) {
      PropagativeOptions o;
      o.policy = OrderingPolicy::kUserSequence;
      o.user_sequence = seq;
      EXPECT_TRUE(CompareMatrices(ResolvePropagative(p, o).v_plus, vp, kExact));
    }
    const PropagativeOutcomeSet set = EnumeratePropagative(p);
    ASSERT_EQ(set.outcomes.size(), 1u);
    EXPECT_TRUE(CompareMatrices(set.outcomes[0].v_plus, vp, kExact));
  }
}

TEST(SegheteMurpheyCradle, UnequalMassesGiveTwoOutcomes) {
  const impact::ImpactProblem p = Chain(Vec({1, 2, 1}), Vec({1, 0, -1}));
  EXPECT_NEAR(Cometric(p).cosines(0, 1), -1.0 / 3, kExact);
  const PropagativeOutcomeSet set = EnumeratePropagative(p);
  ASSERT_EQ(set.outcomes.size(), 2u);
  const VectorXd u_first = Vec({-13, -10, 33}) / 27, v_first = Vec({-33, 10, 13}) / 27;
  for (const PropagativeOutcome& o : set.outcomes) {
    const VectorXd& expected = o.sequences.front().front() == 0 ? u_first : v_first;
    EXPECT_TRUE(CompareMatrices(o.v_plus, expected, kExact));
    EXPECT_NEAR(p.M().diagonal().dot(o.v_plus), 0, kExact);  // momentum 0
    EXPECT_NEAR(p.KineticEnergy(o.v_plus), 1, kExact);       // KE 1
  }
  EXPECT_NE(set.outcomes[0].sequences.front().front(), set.outcomes[1].sequences.front().front());
  const UniquenessDiagnostics d = DiagnoseUniqueness(p);
  EXPECT_FALSE(d.all_orderings_agree);
  EXPECT_EQ(d.distinct_outcomes, 2);
  const double p_norm = std::sqrt(2 * p.KineticEnergy(p.v_minus()));
  EXPECT_NEAR(d.unpredictability.xi, CometricNorm(p, u_first - v_first) / p_norm, kExact);
}

TEST(SegheteMurpheyCradle, ForcedChoiceCasesAreUnique) {
  struct Case {
    VectorXd masses, expected;
  };
  for (const Case& c : {Case{Vec({1, 2, 1}), Vec({-1.0 / 3, 2.0 / 9, 8.0 / 9})},
                        Case{Vec({1, 1, 2}), Vec({-1.0 / 3, 0, 2.0 / 3})},
                        Case{Vec({2, 1, 1}), Vec({1.0 / 9, 4.0 / 9, 4.0 / 3})}}) {
    const impact::ImpactProblem p = Chain(c.masses, Vec({1, 0, 0}));
    const PropagativeOutcomeSet set = EnumeratePropagative(p);
    EXPECT_TRUE(set.forced_choice);
    ASSERT_EQ(set.outcomes.size(), 1u);
    EXPECT_TRUE(CompareMatrices(set.outcomes[0].v_plus, c.expected, kExact));
    EXPECT_TRUE(DiagnoseUniqueness(p).forced_choice);
  }
}

TEST(SegheteMurpheyCradle, EqualMassChainIsBubbleSort) {
  struct Case {
    VectorXd v, sorted;
    int reflections;
  };
  for (const Case& c : {Case{Vec({1, 0, 0, 0}), Vec({0, 0, 0, 1}), 3},
                        Case{Vec({3, 1, 0, -2, 5}), Vec({-2, 0, 1, 3, 5}), 6}}) {
    const impact::ImpactProblem p = Chain(VectorXd::Ones(c.v.size()), c.v);
    for (OrderingPolicy policy : {OrderingPolicy::kMostViolated, OrderingPolicy::kLeastViolated,
                                  OrderingPolicy::kFixedOrder, OrderingPolicy::kRandom}) {
      for (std::uint64_t seed : {1, 2, 3}) {
        PropagativeOptions o;
        o.policy = policy;
        o.seed = seed;
        const PropagativeResult r = ResolvePropagative(p, o);
        EXPECT_EQ(r.status, PropagativeStatus::kFeasible);
        EXPECT_TRUE(CompareMatrices(r.v_plus, c.sorted, kExact)) << ToString(policy);
        EXPECT_EQ(r.reflections, c.reflections) << ToString(policy);
      }
    }
    const PropagativeOutcomeSet set = EnumeratePropagative(p);
    ASSERT_EQ(set.outcomes.size(), 1u);
    EXPECT_TRUE(CompareMatrices(set.outcomes[0].v_plus, c.sorted, kExact));
    EXPECT_EQ(set.outcomes[0].min_reflections, c.reflections);
    EXPECT_EQ(set.outcomes[0].max_reflections, c.reflections);
    if (c.v.size() == 5) {
      EXPECT_EQ(set.feasible_sequences, 16);
    }
  }
}

TEST(SegheteMurpheyCradle, PlasticOutcomeSharesTheMomentum) {
  const impact::ImpactProblem p = Chain(Vec({1, 1, 1}), Vec({1, 0, 0}));
  for (PlasticMode mode : {PlasticMode::kEquality, PlasticMode::kCone}) {
    const PlasticResult r = ResolvePlastic(p, p.v_minus(), mode);
    EXPECT_EQ(r.status, PlasticStatus::kSolved);
    EXPECT_TRUE(CompareMatrices(r.v_plus, Vec({1, 1, 1}) / 3, kExact)) << ToString(mode);
    EXPECT_TRUE(CompareMatrices(r.lambda, Vec({2.0 / 3, 1.0 / 3}), kExact)) << ToString(mode);
    EXPECT_NEAR(1 - r.energy_ratio, 2.0 / 3, kExact);
    EXPECT_FALSE(r.adhesive);
  }
}

TEST(SegheteMurpheyCradle, EqualityPlasticPullsWhereConePlasticDoesNot) {
  const impact::ImpactProblem p = Chain(Vec({1, 1, 1}), Vec({1, 0, 1}));
  const PlasticResult eq = ResolvePlastic(p, p.v_minus(), PlasticMode::kEquality);
  EXPECT_TRUE(CompareMatrices(eq.v_plus, Vec({2, 2, 2}) / 3, kExact));
  EXPECT_LT(eq.lambda[1], 0);  // adhesive B-C multiplier
  EXPECT_TRUE(eq.adhesive);
  const PlasticResult cone = ResolvePlastic(p, p.v_minus(), PlasticMode::kCone);
  EXPECT_TRUE(CompareMatrices(cone.v_plus, Vec({0.5, 0.5, 1}), kExact));
  EXPECT_GE(cone.lambda.minCoeff(), 0);
}

TEST(SegheteMurpheyCradle, BlendWithAlphaRLosesOneMinusRSquared) {
  const impact::ImpactProblem p = Chain(Vec({1, 1, 1}), Vec({1, 0, 0}));
  const VectorXd ve = ResolvePropagative(p).v_plus, vp = ResolvePlastic(p, p.v_minus()).v_plus;
  const double ke = p.KineticEnergy(p.v_minus());
  const VectorXd b07 = BlendOutcome(ve, vp, 0.7);
  EXPECT_TRUE(CompareMatrices(b07, Vec({0.1, 0.1, 0.8}), kExact));
  EXPECT_NEAR(1 - p.KineticEnergy(b07) / ke, 0.34, kExact);
  const VectorXd b05 = BlendOutcome(ve, vp, 0.5);
  EXPECT_TRUE(CompareMatrices(b05, Vec({1.0 / 6, 1.0 / 6, 2.0 / 3}), kExact));
  EXPECT_NEAR(1 - p.KineticEnergy(b05) / ke, 0.5, kExact);
  for (double R : {0.0, 0.3, 0.9, 1.0}) {
    EXPECT_NEAR(1 - p.KineticEnergy(BlendOutcome(ve, vp, R)) / ke, (1 - R * R) * 2 / 3, kExact);
  }
  // Paper-literal alpha = sqrt(1 - R^2): regression of the switch only.
  const VectorXd lit = BlendOutcome(ve, vp, 0.7, AlphaRule::kPaperSqrt);
  EXPECT_TRUE(CompareMatrices(lit, Vec({0.09529, 0.09529, 0.80943}), kPrinted5));
  EXPECT_NEAR(1 - p.KineticEnergy(lit) / ke, 0.327, 5e-4);  // printed as 32.7 %
}

TEST(SegheteMurpheyCradle, SequentialRestitutionClosedForms) {
  const impact::ImpactProblem p = Chain(Vec({1, 1, 1}), Vec({1, 0, 0}));
  struct Row {
    double rho;
    VectorXd v;
    double ke_ratio;
  };
  for (const Row& row : {Row{0.9, Vec({0.047625, 0.049875, 0.9025}), 0.819262},
                         Row{0.7, Vec({0.130875, 0.146625, 0.7225}), 0.560633},
                         Row{0.5, Vec({0.203125, 0.234375, 0.5625}), 0.412598}}) {
    PropagativeOptions o;
    o.e = row.rho * row.rho;
    const PropagativeResult r = ResolvePropagative(p, o);
    EXPECT_EQ(r.status, PropagativeStatus::kFeasible);
    EXPECT_EQ(r.reflections, 3);
    EXPECT_TRUE(CompareMatrices(r.v_plus, row.v, kExact));  // exact decimals (by hand)
    EXPECT_NEAR(r.energy_ratio, row.ke_ratio, kPrinted6);
    // Hand derivation: after A-B, B-C the first two single impacts leave v_C = (1 + rho)^2 / 4.
    EXPECT_NEAR(r.v_plus[2], (1 + row.rho) * (1 + row.rho) / 4, kExact);
  }
  // rho = 0: alternating projections converge to (1/3, 1/3, 1/3) only asymptotically.
  for (double tol : {1e-6, 1e-12}) {
    PropagativeOptions o;
    o.e = 0;
    o.violation_tolerance = tol;
    const PropagativeResult r = ResolvePropagative(p, o);
    EXPECT_EQ(r.status, PropagativeStatus::kFeasible);
    EXPECT_TRUE(CompareMatrices(r.v_plus, Vec({1, 1, 1}) / 3, 10 * tol)) << "tol " << tol;
    // Each projection halves the violation: 2^-20 < 1e-6 < 2^-19, 2^-40 < 1e-12 < 2^-39.
    EXPECT_EQ(r.reflections, tol == 1e-6 ? 20 : 40) << "tol " << tol;
    o.max_reflections = 10;
    EXPECT_EQ(ResolvePropagative(p, o).status, PropagativeStatus::kReflectionCap);
  }
}

TEST(SegheteMurpheyCradle, EnergyLossIndependentOfSpeed) {
  for (double speed : {0.01, 1.0, 300.0}) {
    const impact::ImpactProblem p = Chain(Vec({1, 1, 1}), Vec({speed, 0, 0}));
    const VectorXd ve = ResolvePropagative(p).v_plus, vp = ResolvePlastic(p, p.v_minus()).v_plus;
    const double ke = p.KineticEnergy(p.v_minus());
    for (const auto& [R, loss] :
         {std::pair{1.0, 0.0}, std::pair{0.7, 0.34}, std::pair{0.0, 2.0 / 3}}) {
      EXPECT_NEAR(1 - p.KineticEnergy(BlendOutcome(ve, vp, R)) / ke, loss, kExact) << speed;
    }
  }
}

// ---------------------------------------------------------------- existence, uniqueness

// Random SPD metric, two g-unit normals with cosine s, random p- with both contacts colliding.
struct TwoContactCase {
  impact::ImpactProblem problem;
  double a, b;  // <p-, u>_g, <p-, v>_g
};

TwoContactCase RandomTwoContact(double s, std::mt19937_64& rng, int n = 4) {
  const MatrixXd M = RandomSpd(n, rng);
  const MatrixXd Jn = NormalsWithCosine(M, s, rng);
  const MatrixXd Minv = M.inverse();
  for (;;) {
    const VectorXd v = RandomVec(n, rng);
    const VectorXd c = Jn * v;  // unit normals: <p, u_i>_g = (Jn v)_i
    if (c[0] < -1e-3 && c[1] < -1e-3) return {Frictionless(M, Jn, v), c[0], c[1]};
  }
}

TEST(SegheteMurpheyUniqueness, OrthogonalNormalsBothOrdersAgree) {
  std::mt19937_64 rng(21);
  for (int trial = 0; trial < 50; ++trial) {
    const TwoContactCase t = RandomTwoContact(0, rng);
    const impact::ImpactProblem& p = t.problem;
    const VectorXd expected =
        p.v_minus() - 2 * t.a * Cometric(p).minv_jnt.col(0) - 2 * t.b * Cometric(p).minv_jnt.col(1);
    const PropagativeOutcomeSet set = EnumeratePropagative(p);
    ASSERT_EQ(set.outcomes.size(), 1u);
    EXPECT_TRUE(CompareMatrices(set.outcomes[0].v_plus, expected, kExact * 100));
    EXPECT_EQ(set.outcomes[0].max_reflections, 2);
    EXPECT_EQ(set.feasible_sequences, 2);
  }
}

// Two contacts with wedge angle pi/k are unique for every p-, with at most k reflections.
void ExpectUniqueWithin(double s, int max_reflections, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  int longest = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const TwoContactCase t = RandomTwoContact(s, rng);
    const PropagativeOutcomeSet set = EnumeratePropagative(t.problem);
    ASSERT_EQ(set.outcomes.size(), 1u) << "s = " << s << " trial " << trial;
    longest = std::max(longest, set.longest);
  }
  EXPECT_LE(longest, max_reflections) << "s = " << s;
  EXPECT_EQ(longest, TightReflectionBound(s)) << "s = " << s;  // reached within 300 trials
}

TEST(SegheteMurpheyUniqueness, CosineMinusOneHalfIsUnique) { ExpectUniqueWithin(-0.5, 3, 22); }

TEST(SegheteMurpheyUniqueness, WedgesOfPiOverFourAndFiveAreUnique) {
  ExpectUniqueWithin(-std::cos(std::numbers::pi / 4), 4, 23);
  ExpectUniqueWithin(-std::cos(std::numbers::pi / 5), 5, 24);
}

TEST(SegheteMurpheyUniqueness, OtherCosinesGiveTwoOutcomes) {
  std::mt19937_64 rng(25);
  for (double s : {0.3, -0.3, -0.6, 0.6, -0.9}) {
    bool found = false;
    for (int trial = 0; trial < 2000 && !found; ++trial) {
      found = EnumeratePropagative(RandomTwoContact(s, rng).problem).outcomes.size() == 2;
    }
    EXPECT_TRUE(found) << "s = " << s;
  }
}

TEST(SegheteMurpheyUniqueness, TightReflectionBoundIsReachedAndHalfThePapers) {
  EXPECT_EQ(TightReflectionBound(0), 2);
  EXPECT_EQ(PaperReflectionBound(0), 4);
  EXPECT_EQ(TightReflectionBound(-0.5), 3);
  EXPECT_EQ(PaperReflectionBound(-0.5), 6);
  EXPECT_EQ(TightReflectionBound(-0.9), 7);
  EXPECT_EQ(PaperReflectionBound(-0.9), 14);
  EXPECT_EQ(TightReflectionBound(-0.99), 23);
  EXPECT_EQ(PaperReflectionBound(-0.99), 45);
  std::mt19937_64 rng(26);
  for (double s : {0.3, -0.3, -0.6, -0.9}) {
    int longest = 0;
    for (int trial = 0; trial < 1000; ++trial) {
      const PropagativeOutcomeSet set = EnumeratePropagative(RandomTwoContact(s, rng).problem);
      longest = std::max(longest, set.longest);
    }
    EXPECT_EQ(longest, TightReflectionBound(s)) << "s = " << s;
    EXPECT_LE(longest, PaperReflectionBound(s));
  }
}

TEST(SegheteMurpheyUniqueness, CommutatorAndOrderingDifferenceIdentities) {
  std::mt19937_64 rng(27);
  for (double s : {0.3, -0.3, -0.5, 0.7}) {
    const TwoContactCase t = RandomTwoContact(s, rng);
    const impact::ImpactProblem& p = t.problem;
    const MatrixXd& M = p.M();
    const VectorXd u = p.Jn().row(0).transpose(), v = p.Jn().row(1).transpose();
    const MatrixXd Gu = ReflectionMatrix(M, u), Gv = ReflectionMatrix(M, v);
    const MatrixXd Minv = M.inverse();
    // Row-momentum form: Gamma_u Gamma_v - Gamma_v Gamma_u = 4 s M^-1 (u^T v - v^T u).
    EXPECT_TRUE(CompareMatrices(
        Gu * Gv - Gv * Gu, 4 * s * Minv * (u * v.transpose() - v * u.transpose()), kExact * 100));
    // p Gu Gv - p Gv Gu = 4 s (a v - b u), as rows: (Gv^T Gu^T - Gu^T Gv^T) p.
    const VectorXd pm = M * p.v_minus();
    const VectorXd d2 = (Gv.transpose() * Gu.transpose() - Gu.transpose() * Gv.transpose()) * pm;
    EXPECT_TRUE(CompareMatrices(d2, 4 * s * (t.a * v - t.b * u), kExact * 100 * pm.norm()));
    const VectorXd d3 = (Gu.transpose() * Gv.transpose() * Gu.transpose() -
                         Gv.transpose() * Gu.transpose() * Gv.transpose()) *
                        pm;
    EXPECT_TRUE(
        CompareMatrices(d3, 2 * (1 - 4 * s * s) * (t.a * u - t.b * v), kExact * 100 * pm.norm()));
    const PairMeasure pm2 = MeasureUnpredictability(p, p.v_minus(), {}).pairs.at(0);
    EXPECT_NEAR(pm2.two_step, std::sqrt(G(Minv, d2, d2)), kExact * 100);
    EXPECT_NEAR(pm2.three_step, std::sqrt(G(Minv, d3, d3)), kExact * 100);
    // The commutator's g-operator norm 4|s| sqrt(1 - s^2): attained on N, checked on u.
    const VectorXd cu = (Gv.transpose() * Gu.transpose() - Gu.transpose() * Gv.transpose()) * u;
    EXPECT_NEAR(pm2.commutator, std::sqrt(G(Minv, cu, cu)), kExact * 100);
  }
}

// [S-J] Lemma 4 (the feasible cone) and Lemma 6 (alternating reflections rotate by 2 gamma).
TEST(SegheteMurpheyUniqueness, FeasibleConeAndRotationLemmas) {
  std::mt19937_64 rng(28);
  for (double s : {-0.3, -0.5, 0.2}) {
    const TwoContactCase t = RandomTwoContact(s, rng);
    const impact::ImpactProblem& p = t.problem;
    const MatrixXd Minv = p.M().inverse();
    const VectorXd u = p.Jn().row(0).transpose(), v = p.Jn().row(1).transpose();
    const double gamma = std::asin(std::sqrt((1 + s) / 2));
    EXPECT_NEAR(gamma, (std::numbers::pi - std::acos(s)) / 2, kExact);
    const VectorXd r0 = (u + v) / std::sqrt(G(Minv, u + v, u + v));
    // Lemma 4 on momenta in N: feasible iff <p, r> >= ||p|| cos(gamma).
    for (int k = 0; k < 72; ++k) {
      const double phi = 2 * std::numbers::pi * k / 72 + 0.01;
      const VectorXd w = (v - s * u) / std::sqrt(1 - s * s);
      const VectorXd pn = std::cos(phi) * u + std::sin(phi) * w;  // g-unit, in N
      const bool feasible = G(Minv, pn, u) >= 0 && G(Minv, pn, v) >= 0;
      EXPECT_EQ(feasible, G(Minv, pn, r0) >= std::cos(gamma) - 1e-12) << "phi " << phi;
    }
    // Lemma 6: alternating reflections of r0 rotate by 2 gamma.
    const MatrixXd Gu = ReflectionMatrix(p.M(), u), Gv = ReflectionMatrix(p.M(), v);
    VectorXd r = r0;
    for (int i = 1; i <= 6; ++i) {
      r = (i % 2 ? Gu : Gv).transpose() * r;
      EXPECT_NEAR(G(Minv, r, r0), std::cos(2 * i * gamma), kExact * 100) << i;
    }
  }
}

// [S-J] Definition 1: the minimal sequences give at most two outcomes.
TEST(SegheteMurpheyUniqueness, ArgminIsShortestAndMinimalSetHasAtMostTwo) {
  std::mt19937_64 rng(29);
  for (double s : {0.3, -0.3, -0.6, -0.9}) {
    for (int trial = 0; trial < 200; ++trial) {
      const TwoContactCase t = RandomTwoContact(s, rng);
      const PropagativeResult argmin = ResolvePropagative(t.problem);
      PropagativeEnumerationOptions o;
      o.minimal_only = true;
      const PropagativeOutcomeSet minimal = EnumeratePropagative(t.problem, o);
      const PropagativeOutcomeSet all = EnumeratePropagative(t.problem);
      int shortest = 1 << 30;
      for (const PropagativeOutcome& out : all.outcomes) {
        shortest = std::min(shortest, out.min_reflections);
      }
      EXPECT_EQ(argmin.reflections, shortest) << "s " << s << " trial " << trial;
      EXPECT_LE(minimal.outcomes.size(), 2u);
      EXPECT_TRUE(IsMinimalSequence(t.problem, t.problem.v_minus(), argmin.sequence));
    }
  }
}

// Two independent ball pairs plus a ball on a wall: three pairwise M^-1-orthogonal normals.
TEST(SegheteMurpheyUniqueness, ThreeOrthogonalContactsEveryOrderingAgrees) {
  MatrixXd Jn = MatrixXd::Zero(3, 5);
  Jn.row(0) << -1, 1, 0, 0, 0;  // balls 1-2
  Jn.row(1) << 0, 0, -1, 1, 0;  // balls 3-4
  Jn.row(2) << 0, 0, 0, 0, 1;   // ball 5 on a wall at its left
  const impact::ImpactProblem p =
      Frictionless(Vec({1, 2, 3, 0.5, 4}).asDiagonal(), Jn, Vec({2, -1, 1, 0, -3}));
  const UniquenessDiagnostics d = DiagnoseUniqueness(p);
  EXPECT_TRUE(d.orthogonal);
  EXPECT_TRUE(d.theorem2);
  EXPECT_TRUE(d.all_orderings_agree);
  ASSERT_EQ(d.outcome_set.outcomes.size(), 1u);
  const PropagativeOutcome& o = d.outcome_set.outcomes[0];
  EXPECT_EQ(o.sequence_count, 6);  // all 3! orderings
  EXPECT_EQ(o.min_reflections, 3);
  EXPECT_EQ(o.max_reflections, 3);
  // Each pair reflects independently (two-ball elastic closed form); the wall flips ball 5.
  EXPECT_TRUE(CompareMatrices(o.v_plus, Vec({-2, 1, 5.0 / 7, 12.0 / 7, 3}), kExact));
  EXPECT_NEAR(d.unpredictability.xi, 0, kExact);
}

// ---------------------------------------------------------------- billiards (built here)

// Equal masses m; c at the origin moving at (V, 0); a at angle +theta/2, b at -theta/2, both at
// distance 2r. q = (xa, ya, xb, yb, xc, yc); contacts a-c then b-c with the correct-sign
// gradients Dphi_a = [ (a - c)/d, 0, 0, (c - a)/d ] of the gaps |a - c| - 2r.
impact::ImpactProblem Billiard(double theta, double V = 1, double mc = 1) {
  const double ca = std::cos(theta / 2), sa = std::sin(theta / 2);
  MatrixXd Jn = MatrixXd::Zero(2, 6);
  Jn.row(0) << ca, sa, 0, 0, -ca, -sa;
  Jn.row(1) << 0, 0, ca, -sa, -ca, sa;
  return Frictionless(Vec({1, 1, 1, 1, mc, mc}).asDiagonal(), Jn, Vec({0, 0, 0, 0, V, 0}));
}

TEST(SegheteMurpheyBilliard, NormalInnerProduct) {
  for (double deg : {60.0, 90.0, 120.0, 150.0}) {
    const double theta = deg * std::numbers::pi / 180;
    for (double mc : {1.0, 3.0}) {
      const Cometric c(Billiard(theta, 1, mc));
      EXPECT_NEAR(c.gram(0, 1), std::cos(theta) / mc, kExact);
      if (mc == 1) {
        EXPECT_NEAR(c.cosines(0, 1), std::cos(theta) / 2, kExact);
      }
    }
  }
}

VectorXd FirstContact(const impact::ImpactProblem& p, int first) {
  PropagativeOptions o;
  o.first_contact = first;
  const PropagativeResult r = ResolvePropagative(p, o);
  EXPECT_TRUE(r.first_contact_used);
  return r.v_plus;
}

// [S-J] §VII-A's billiard at 90, 60, 120 and 150 degrees: both first contacts and xi.
TEST(SegheteMurpheyBilliard, OutcomesAndDiscrepancyAtFourAngles) {
  struct Row {
    double deg;
    VectorXd a_first;  // (va, vb, vc)
    double xi;
    int reflections;
  };
  const double h = 0.433013, q = 0.216506;
  for (const Row& row :
       {Row{90, Vec({0.5, 0.5, 0.5, -0.5, 0, 0}), 0, 2},
        Row{60, Vec({0.75, h, 0.375, -q, -0.125, -q}), 0.75, 2},
        Row{120, Vec({0.25, h, 0.375, -0.649519, 0.375, q}), 0.559017, 2},
        Row{150, Vec({0.108253, 0.404006, 0.125, -0.466506, 0.766747, 0.0625}), 0.154914, 3}}) {
    const impact::ImpactProblem p = Billiard(row.deg * std::numbers::pi / 180);
    const VectorXd va = FirstContact(p, 0), vb = FirstContact(p, 1);
    EXPECT_TRUE(CompareMatrices(va, row.a_first, kPrinted6)) << row.deg;
    // b first is the mirror image (y -> -y, a <-> b).
    const VectorXd mirror = Vec({row.a_first[2], -row.a_first[3], row.a_first[0], -row.a_first[1],
                                 row.a_first[4], -row.a_first[5]});
    EXPECT_TRUE(CompareMatrices(vb, mirror, kPrinted6)) << row.deg;
    EXPECT_NEAR(OrderingDiscrepancy(p, p.v_minus(), 0, 1), row.xi, kPrinted6) << row.deg;
    const UniquenessDiagnostics d = DiagnoseUniqueness(p);
    EXPECT_NEAR(d.unpredictability.xi, row.xi, kPrinted6) << row.deg;
    EXPECT_EQ(d.outcome_set.longest, row.reflections) << row.deg;
    EXPECT_EQ(d.all_orderings_agree, row.deg == 90) << row.deg;
  }
}

TEST(SegheteMurpheyBilliard, XiCurveMatchesClosedForms) {
  const double theta_sw = std::acos((1 - std::sqrt(5.0)) / 2);
  for (double deg = 60; deg <= 180; deg += 2.5) {
    const double th = deg * std::numbers::pi / 180;
    const impact::ImpactProblem p = Billiard(th);
    const double common = std::sqrt(2.0) * std::cos(th / 2) * std::sqrt(2 - std::cos(th));
    const double xi =
        th <= theta_sw ? common * std::abs(std::cos(th)) : common * std::sin(th) * std::sin(th);
    EXPECT_NEAR(OrderingDiscrepancy(p, p.v_minus(), 0, 1), xi, 1e-9) << deg;
  }
  const impact::ImpactProblem sw = Billiard(theta_sw - 1e-9), after = Billiard(theta_sw + 1e-6);
  EXPECT_EQ(EnumeratePropagative(sw).longest, 2);
  EXPECT_EQ(EnumeratePropagative(after).longest, 3);
  EXPECT_NEAR(OrderingDiscrepancy(sw, sw.v_minus(), 0, 1), (std::sqrt(5.0) - 1) / 2, 1e-6);
  // theta = 180 deg: grazing, no reflection at all.
  const impact::ImpactProblem graze = Billiard(std::numbers::pi);
  EXPECT_EQ(ResolvePropagative(graze).reflections, 0);
  EXPECT_NEAR(OrderingDiscrepancy(graze, graze.v_minus(), 0, 1), 0, kExact);
}

// Root-finding s(theta) = 0 from any start in (theta_min, pi) converges to pi/2
// ([S-J] §VII-A: s is proportional to cos(theta) whatever the masses). Boost's
// bracket_and_solve_root walks from the start by factors of 1.5 (s falls with theta) and TOMS 748
// refines the bracket; every evaluated theta stays in [theta_min, pi) (theta_min = pi/3 for equal
// radii: a and b touch there).
TEST(SegheteMurpheyBilliard, CosineRootIsPiOverTwoFromAnyStart) {
  const double pi = std::numbers::pi, theta_min = pi / 3;
  for (double mc : {1.0, 3.0}) {
    for (double start : {theta_min + 1e-3, 1.2, 1.5, 1.6, 2.0, 2.5, 3.0, pi - 1e-3}) {
      double lo_seen = start, hi_seen = start;
      auto s = [&](double theta) {
        lo_seen = std::min(lo_seen, theta);
        hi_seen = std::max(hi_seen, theta);
        return Cometric(Billiard(theta, 1, mc)).cosines(0, 1);
      };
      std::uintmax_t iterations = 100;
      const auto bracket = boost::math::tools::bracket_and_solve_root(
          s, start, 1.5, /*rising=*/false, boost::math::tools::eps_tolerance<double>(45),
          iterations);
      ASSERT_LT(iterations, 100u) << start;
      // eps_tolerance(45): relative bracket width 2^-44 ~ 6e-14.
      EXPECT_NEAR(0.5 * (bracket.first + bracket.second), pi / 2, 1e-12) << start << " " << mc;
      EXPECT_GE(lo_seen, theta_min) << start;
      EXPECT_LT(hi_seen, pi) << start;
    }
  }
}

// ---------------------------------------------------------------- design measures

// [S-C] eqs. (16)-(20): orthogonal unit u, v; v_eps = v + eps w with unit w ⊥ v.
TEST(SegheteMurpheyDesign, PerturbationMeasure) {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 10; ++trial) {
    const int n = 5;
    const MatrixXd M = RandomSpd(n, rng), Minv = M.inverse();
    const MatrixXd uv = NormalsWithCosine(M, 0, rng);
    const VectorXd u = uv.row(0).transpose(), v = uv.row(1).transpose();
    VectorXd w = RandomVec(n, rng);
    w -= G(Minv, w, v) * v;
    w /= std::sqrt(G(Minv, w, w));
    const VectorXd p = RandomVec(n, rng);
    auto p_eps = [&](double eps) {  // p Gamma(v_eps) Gamma(u) as a column
      const MatrixXd Gve = ReflectionMatrix(M, v + eps * w), Gu = ReflectionMatrix(M, u);
      return VectorXd(Gu.transpose() * Gve.transpose() * p);
    };
    const double h = 1e-6;  // central difference: error O(h^2) ~ 1e-12
    const VectorXd dp = (p_eps(h) - p_eps(-h)) / (2 * h);
    const VectorXd p_plus = p_eps(0);
    const VectorXd p_star = G(Minv, p, w) * w + G(Minv, p, v) * v;
    EXPECT_NEAR(std::sqrt(G(Minv, dp, dp)), 2 * std::sqrt(G(Minv, p_star, p_star)), 1e-7);
    EXPECT_NEAR(G(Minv, dp, p_plus), 0, 1e-7);
  }
}

TEST(SegheteMurpheyDesign, SmallCosineDiscrepancyIsFirstOrder) {
  std::mt19937_64 rng(42);
  for (double s : {1e-2, -1e-3, 1e-4}) {
    const TwoContactCase t = RandomTwoContact(s, rng);
    const impact::ImpactProblem& p = t.problem;
    PropagativeOptions o;
    o.policy = OrderingPolicy::kUserSequence;
    o.user_sequence = {0, 1};
    const VectorXd uv = ResolvePropagative(p, o).v_plus;
    o.user_sequence = {1, 0};
    const VectorXd vu = ResolvePropagative(p, o).v_plus;
    const double diff = CometricNorm(p, uv - vu);
    const PairMeasure m = MeasureUnpredictability(p, p.v_minus(), {}).pairs.at(0);
    EXPECT_NEAR(diff, m.two_step, kExact * 100);
    EXPECT_NEAR(diff / m.first_order, 1, 2 * s * s + 1e-9)
        << s;  // first_order = two_step / sqrt(1-s^2)
  }
}

// ---------------------------------------------------------------- identities and options

TEST(SegheteMurpheyProperties, ElasticOutcomesConserveEnergyAndMomentumBalance) {
  std::mt19937_64 rng(51);
  double worst_energy = 0, worst_momentum = 0;
  int outcomes = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const int m = 2 + trial % 3, n = m + 1 + trial % 3;  // independent normals
    const MatrixXd M = RandomSpd(n, rng);
    MatrixXd Jn(m, n);
    for (int i = 0; i < m; ++i) Jn.row(i) = RandomVec(n, rng).transpose();
    const impact::ImpactProblem p = Frictionless(M, Jn, RandomVec(n, rng));
    PropagativeEnumerationOptions eo;
    eo.max_sequences = 2000;
    const PropagativeOutcomeSet set = EnumeratePropagative(p, eo);
    const double ke = p.KineticEnergy(p.v_minus());
    const double p_norm = (M * p.v_minus()).norm();
    for (const PropagativeOutcome& o : set.outcomes) {
      ++outcomes;
      worst_energy = std::max(worst_energy, std::abs(p.KineticEnergy(o.v_plus) - ke) / ke);
      // [S-J] (4a): M (v+ - v-) = Jn^T lambda.
      worst_momentum = std::max(
          worst_momentum,
          (M * (o.v_plus - p.v_minus()) - Jn.transpose() * o.lambda).cwiseAbs().maxCoeff() /
              p_norm);
      EXPECT_LE(o.residual, 1e-10);
    }
  }
  EXPECT_GT(outcomes, 100);
  EXPECT_LE(worst_energy, kExact) << "relative energy error, worst over " << outcomes;
  EXPECT_LE(worst_momentum, kExact) << "momentum balance, worst over " << outcomes;
}

TEST(SegheteMurpheyProperties, CradleMomentumAndEnergyEveryOrdering) {
  const impact::ImpactProblem p = Chain(Vec({1, 1, 1}), Vec({1, 0, 0}));
  const PropagativeOutcomeSet set = EnumeratePropagative(p);
  ASSERT_FALSE(set.outcomes.empty());
  for (const PropagativeOutcome& o : set.outcomes) {
    EXPECT_NEAR(o.v_plus.sum(), 1, kExact);
    EXPECT_NEAR(p.KineticEnergy(o.v_plus), 0.5, kExact);
  }
}

TEST(SegheteMurpheyOptions, InvalidOptionsNameTheField) {
  const impact::ImpactProblem p = Chain(Vec({1, 1, 1}), Vec({1, 0, 0}));
  auto throws_with = [&](PropagativeOptions o, const std::string& field) {
    try {
      ResolvePropagative(p, o);
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "no exception for " << field;
  };
  PropagativeOptions o;
  o.e = 1.5;
  throws_with(o, "PropagativeOptions.e");
  o = {};
  o.max_reflections = 0;
  throws_with(o, "max_reflections");
  o = {};
  o.fixed_order = {0, 0};
  throws_with(o, "fixed_order");
  o = {};
  o.user_sequence = {0, 2};
  throws_with(o, "user_sequence");
  o = {};
  o.first_contact = 2;
  throws_with(o, "first_contact");
  PropagativeEnumerationOptions eo;
  eo.distinct_tolerance = 0;
  EXPECT_THROW(EnumeratePropagative(p, eo), std::invalid_argument);
  EXPECT_THROW(BlendAlpha(-0.1), std::invalid_argument);
}

TEST(SegheteMurpheyOptions, UserSequenceStatusAndAdmissibility) {
  const impact::ImpactProblem p = Chain(Vec({1, 1, 1}), Vec({1, 0, 0}));
  PropagativeOptions o;
  o.policy = OrderingPolicy::kUserSequence;
  o.user_sequence = {0};
  const PropagativeResult r = ResolvePropagative(p, o);
  EXPECT_EQ(r.status, PropagativeStatus::kSequenceExhausted);  // (0, 1, 0): B-C now collides
  EXPECT_TRUE(r.admissible);
  o.user_sequence = {1, 0, 1};  // contact 1 is not colliding at v-
  EXPECT_FALSE(ResolvePropagative(p, o).admissible);
}

TEST(SegheteMurpheyOptions, SequenceCapIsReported) {
  const impact::ImpactProblem p = Chain(VectorXd::Ones(5), Vec({3, 1, 0, -2, 5}));
  PropagativeEnumerationOptions eo;
  eo.max_sequences = 5;
  const PropagativeOutcomeSet set = EnumeratePropagative(p, eo);
  EXPECT_EQ(set.status, EnumerationStatus::kSequenceCap);
  EXPECT_EQ(set.feasible_sequences, 5);
  eo.max_sequences = 16;  // exactly the tree's 16 sequences (the bubble-sort test): complete
  EXPECT_EQ(EnumeratePropagative(p, eo).status, EnumerationStatus::kComplete);
}

TEST(SegheteMurpheyDiagnostics, PiOverKCases) {
  const UniquenessDiagnostics cradle = DiagnoseUniqueness(Chain(Vec({1, 1, 1}), Vec({1, 0, 0})));
  ASSERT_EQ(cradle.pi_over_k.size(), 1u);
  EXPECT_EQ(cradle.pi_over_k[0].k, 3);
  EXPECT_TRUE(cradle.theorem3);
  EXPECT_TRUE(cradle.pi_over_k_pair);
  EXPECT_FALSE(cradle.orthogonal);
  EXPECT_TRUE(cradle.all_orderings_agree);
  std::mt19937_64 rng(61);
  const TwoContactCase t = RandomTwoContact(-std::cos(std::numbers::pi / 5), rng);
  const UniquenessDiagnostics d = DiagnoseUniqueness(t.problem);
  ASSERT_EQ(d.pi_over_k.size(), 1u);
  EXPECT_EQ(d.pi_over_k[0].k, 5);
  EXPECT_FALSE(d.theorem3);
  EXPECT_TRUE(d.pi_over_k_pair);
  EXPECT_TRUE(d.all_orderings_agree);
}

}  // namespace
}  // namespace impactset::laws
