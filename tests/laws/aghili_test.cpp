// Aghili's projection-operator impact law (laws/aghili.hpp, docs/aghili.md) on hand-sized
// systems (point mass, rods, an obtuse corner, a pendulum) and on seeded random rank-deficient
// cases. Equation numbers (9a), (11a)-(11e), (27), (28b), (31), (49)-(53), (61) and Remarks 2 and 4
// are those of Aghili's paper. Expected numbers are closed forms written out here, or values
// derived by hand from them and quoted to 7 decimals (6 significant digits for eigenvalues).
#include <impactset/laws/aghili.hpp>

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>
#include <random>
#include <stdexcept>

#include "test_util.hpp"

namespace impactset::laws {
namespace {

using testing::CompareMatrices;
using testing::MaxAbsOrOne;

// Hand cases to 1e-12 absolute: the closed forms are one small SPD solve away.
constexpr double kHand = 1e-12;
// Random cases to 1e-9 relative: cond(M) reaches ~1e4 with M = BB^T + 0.1 I.
constexpr double kRandom = 1e-9;
// The near-singular Jacobian's impulses are of order 1/eps: 1e-6 relative.
constexpr double kNearSingular = 1e-6;
// Hand-derived values quoted to 7 decimals: half a unit of the last digit, plus roundoff.
constexpr double kPrinted7 = 6e-8;
// Hand-derived eigenvalues quoted to 6 significant digits.
constexpr double kPrinted6 = 6e-7;

const double kSqrt3 = std::sqrt(3.0);

VectorXd Vec(std::initializer_list<double> x) {
  VectorXd v(x.size());
  int i = 0;
  for (double d : x) v(i++) = d;
  return v;
}

const VectorXd kNoImpulse = VectorXd(0);

AghiliRestitution Global(double e) {
  AghiliRestitution r;
  r.e = e;
  return r;
}
AghiliRestitution Local(const VectorXd& e) {
  AghiliRestitution r;
  r.per_contact = e;
  return r;
}

// A random case: n in [2, 8], M = B B^T + 0.1 I, A = (m x r)(r x n) of rank r.
struct RandomCase {
  MatrixXd M, A;
  VectorXd v, iu;
  int r;
};
RandomCase MakeRandom(std::mt19937& gen, bool rank_deficient = true) {
  std::uniform_int_distribution<int> nd(2, 8);
  std::normal_distribution<double> g;
  RandomCase c;
  const int n = nd(gen);
  const int m = std::uniform_int_distribution<int>(1, n + 2)(gen);
  const int rmax = std::min(m, n) - (rank_deficient && std::min(m, n) > 1 ? 1 : 0);
  c.r = std::uniform_int_distribution<int>(1, std::max(1, rmax))(gen);
  auto rnd = [&](int a, int b) {
    MatrixXd x(a, b);
    for (int j = 0; j < b; ++j)
      for (int i = 0; i < a; ++i) x(i, j) = g(gen);
    return x;
  };
  const MatrixXd B = rnd(n, n);
  c.M = B * B.transpose() + 0.1 * MatrixXd::Identity(n, n);
  c.A = rnd(m, c.r) * rnd(c.r, n);
  c.v = rnd(n, 1);
  c.iu = rnd(n, 1);
  return c;
}

// Pseudo-inverse of a symmetric PSD matrix keeping its k largest eigenvalues (independent of
// the library's SVD route).
MatrixXd PsdPinv(const MatrixXd& a, int k) {
  Eigen::SelfAdjointEigenSolver<MatrixXd> es(0.5 * (a + a.transpose()));
  MatrixXd out = MatrixXd::Zero(a.rows(), a.cols());
  const int n = static_cast<int>(a.rows());
  for (int i = n - k; i < n; ++i) {
    out += es.eigenvectors().col(i) * es.eigenvectors().col(i).transpose() / es.eigenvalues()(i);
  }
  return out;
}

double MinEig(const MatrixXd& a) {
  return Eigen::SelfAdjointEigenSolver<MatrixXd>(0.5 * (a + a.transpose())).eigenvalues()(0);
}

// ---- Point mass on a floor --------------------------------------------------------------------

TEST(AghiliPointMass, FloorImpactMatchesClosedForm) {
  const MatrixXd M = MatrixXd::Identity(2, 2);
  const MatrixXd A = (MatrixXd(1, 2) << 0, 1).finished();
  const AghiliProjection pr = BuildAghiliProjection(M, A);
  EXPECT_TRUE(CompareMatrices(pr.S, (MatrixXd(2, 2) << 0, 0, 0, 1).finished(), kHand));
  const AghiliResult r = AghiliImpact(M, A, Vec({1, -2}), Global(0.5), kNoImpulse);
  EXPECT_EQ(r.status, AghiliStatus::kSolved);
  EXPECT_TRUE(CompareMatrices(r.v_plus, Vec({1, 1}), kHand));
  EXPECT_NEAR(r.energy_before, 2.5, kHand);
  EXPECT_NEAR(r.energy_after, 1.0, kHand);
  EXPECT_NEAR(r.energy_change, -1.5, kHand);
  EXPECT_NEAR(r.energy_change, -0.5 * 0.75 * 4, kHand);
  EXPECT_NEAR(r.energy_ratio, 0.4, kHand);
  EXPECT_TRUE(CompareMatrices(r.generalized_impulse, Vec({0, 3}), kHand));
  EXPECT_TRUE(CompareMatrices(r.impulse, Vec({3}), kHand));
  EXPECT_TRUE(r.adhesive.empty());
}

// Remark 2: the normal part of an external impulse i_u is absorbed by the contact.
TEST(AghiliPointMass, NormalPartOfExternalImpulseIsAbsorbed) {
  const MatrixXd M = MatrixXd::Identity(2, 2);
  const MatrixXd A = (MatrixXd(1, 2) << 0, 1).finished();
  const AghiliProjection pr = BuildAghiliProjection(M, A);
  EXPECT_TRUE(CompareMatrices(pr.Mo_pinv, (MatrixXd(2, 2) << 1, 0, 0, 0).finished(), kHand));
  const AghiliResult r = AghiliImpact(M, A, Vec({1, -2}), Global(0.5), Vec({0.5, 0.2}));
  EXPECT_TRUE(CompareMatrices(r.v_plus, Vec({1.5, 1}), kHand));
  EXPECT_TRUE(CompareMatrices(r.generalized_impulse, Vec({0, 2.8}), kHand));
  EXPECT_NEAR(r.energy_after, 1.625, kHand);
  EXPECT_NEAR(r.energy_change, -0.875, kHand);
  EXPECT_NEAR(-1.5 + 0.125 + 0.5, -0.875, kHand);  // the three terms of (31)
}

// ---- Tilted rod, one end strikes -------------------------------------------------------------

struct Rod {
  MatrixXd M = Vec({1, 1, 1.0 / 12}).asDiagonal();
  static MatrixXd Rows(double theta, std::initializer_list<double> s) {
    MatrixXd A(s.size(), 3);
    int i = 0;
    for (double si : s) A.row(i++) << 0, 1, si * std::cos(theta);
    return A;
  }
};

// cond(M_c) and (61) outside nu's interval; the energy ratio gamma = 1 - (1 - e^2) 4/13.
TEST(AghiliTiltedRod, OneEndStrikeMatchesClosedFormsAndConditioning) {
  const Rod rod;
  const MatrixXd A = Rod::Rows(M_PI / 6, {-0.5});
  const double c = kSqrt3 / 4;
  const AghiliProjection pr = BuildAghiliProjection(rod.M, A);
  EXPECT_EQ(pr.rank, 1);
  EXPECT_NEAR(pr.nu_min, 13.0 / 57, kHand);
  EXPECT_NEAR(pr.nu_max, 1.0, kHand);
  EXPECT_NEAR(pr.nu, 35.0 / 57, kHand);
  EXPECT_NEAR(pr.cond_Mc, 57.0 / 13, kHand);  // cond(M_c) = cond(Z^T M Z)
  const VectorXd eig_mc = Eigen::SelfAdjointEigenSolver<MatrixXd>(pr.Mc).eigenvalues();
  EXPECT_TRUE(CompareMatrices(eig_mc, Vec({13.0 / 57, 35.0 / 57, 1}), kHand));
  const MatrixXd S_ref =
      4.0 / 13 * (MatrixXd(3, 3) << 0, 0, 0, 0, 1, -c, 0, -12 * c, 12 * c * c).finished();
  EXPECT_TRUE(CompareMatrices(pr.S, S_ref, kHand));
  EXPECT_TRUE(CompareMatrices(
      pr.P, (MatrixXd(3, 3) << 1, 0, 0, 0, 3.0 / 19, 0.3646423, 0, 0.3646423, 16.0 / 19).finished(),
      kPrinted7));
  // Outside the interval, cond follows (61).
  AghiliOptions lo, hi;
  lo.nu = 1e-3;
  hi.nu = 1e3;
  EXPECT_NEAR(BuildAghiliProjection(rod.M, A, lo).cond_Mc, 1000, 1000 * kHand);
  EXPECT_NEAR(BuildAghiliProjection(rod.M, A, hi).cond_Mc, 1e3 * 57 / 13, 1e4 * kHand);
  EXPECT_NEAR(BuildAghiliProjection(rod.M, A, hi).cond_Mc, 4384.615, 1e-3);

  for (double e : {0.0, 0.5, 1.0}) {
    SCOPED_TRACE(e);
    const AghiliResult r = AghiliImpact(rod.M, A, Vec({0, -1, 0}), Global(e), kNoImpulse);
    const double j = 4 * (1 + e) / 13;
    EXPECT_TRUE(CompareMatrices(r.v_plus, Vec({0, -1 + j, -3 * kSqrt3 * j}), kHand));
    EXPECT_NEAR(r.contact_velocity(0), e, kHand);
    EXPECT_NEAR(r.energy_after, 0.5 - 2 * (1 - e * e) / 13, kHand);
    // gamma = 1 - (1 - e^2) 4/13; gamma = 1 at e = 1 to 1e-15.
    EXPECT_NEAR(r.energy_ratio, 1 - (1 - e * e) * 4 / 13, kHand);
    EXPECT_NEAR(r.impulse(0), j, kHand);
    EXPECT_TRUE(CompareMatrices(
        r.projected_inertia,
        4.0 / 13 * (MatrixXd(3, 3) << 0, 0, 0, 0, 1, -c, 0, -c, c * c).finished(), kHand));
  }
  const AghiliResult r1 = AghiliImpact(rod.M, A, Vec({0, -1, 0}), Global(1), kNoImpulse);
  EXPECT_LE(std::abs(r1.energy_change), 1e-15);
  // The hand-derived table at e = 0.5.
  const AghiliResult r05 = AghiliImpact(rod.M, A, Vec({0, -1, 0}), Global(0.5), kNoImpulse);
  EXPECT_TRUE(CompareMatrices(r05.v_plus, Vec({0, -0.5384615, -2.3982242}), kPrinted7));
  EXPECT_NEAR(r05.energy_change, -3.0 / 26, kHand);
  // R = I - 2S: involutory and M-orthogonal (28b).
  const MatrixXd R = MatrixXd::Identity(3, 3) - 2 * pr.S;
  EXPECT_TRUE(CompareMatrices(R * R, MatrixXd::Identity(3, 3), 1e-14));
  EXPECT_TRUE(CompareMatrices(R.transpose() * rod.M * R, rod.M, 1e-14));
}

// ---- Flat rod, three collinear contacts -------------------------------------------------------

TEST(AghiliFlatRod, RedundantMiddleContactChangesNothing) {
  const Rod rod;
  const MatrixXd A = Rod::Rows(0, {-0.5, 0, 0.5});
  const VectorXd v = Vec({0.3, -1, 0.4});
  const AghiliProjection pr = BuildAghiliProjection(rod.M, A);
  EXPECT_EQ(pr.rank, 2);
  EXPECT_TRUE(CompareMatrices(pr.P, Vec({1, 0, 0}).asDiagonal().toDenseMatrix(), kHand));
  EXPECT_TRUE(CompareMatrices(pr.S, Vec({0, 1, 1}).asDiagonal().toDenseMatrix(), kHand));
  EXPECT_NEAR(pr.nu, 1, kHand);
  EXPECT_NEAR(pr.cond_Mc, 1, kHand);
  const AghiliResult r = AghiliImpact(rod.M, A, v, Global(0.5), kNoImpulse);
  EXPECT_EQ(r.status, AghiliStatus::kSolved);
  EXPECT_TRUE(CompareMatrices(r.v_plus, Vec({0.3, 0.5, -0.2}), kHand));
  EXPECT_TRUE(CompareMatrices(r.contact_velocity, Vec({0.6, 0.5, 0.4}), kHand));
  EXPECT_NEAR(r.energy_before, 331.0 / 600, kHand);
  EXPECT_NEAR(r.energy_after, 103.0 / 600, kHand);
  EXPECT_NEAR(r.energy_change, -0.38, kHand);
  EXPECT_TRUE(CompareMatrices(r.generalized_impulse, Vec({0, 1.5, -0.05}), kHand));
  EXPECT_TRUE(CompareMatrices(r.impulse, Vec({0.55, 0.50, 0.45}), kHand));
  // The same v+ without the middle contact; i_lambda (0.8, 0.7).
  const AghiliResult ends =
      AghiliImpact(rod.M, Rod::Rows(0, {-0.5, 0.5}), v, Global(0.5), kNoImpulse);
  EXPECT_TRUE(CompareMatrices(ends.v_plus, r.v_plus, kHand));
  EXPECT_TRUE(CompareMatrices(ends.impulse, Vec({0.8, 0.7}), kHand));
  // nu scaled by 1e-3 / 1e3 gives cond 1000 and the identical v+.
  for (double nu : {1e-3, 1e3}) {
    AghiliOptions o;
    o.nu = nu;
    const AghiliResult rn = AghiliImpact(rod.M, A, v, Global(0.5), kNoImpulse, 0, o);
    EXPECT_NEAR(rn.cond_Mc, 1000, 1e-9);
    EXPECT_TRUE(CompareMatrices(rn.v_plus, r.v_plus, kHand));
  }
}

TEST(AghiliFlatRod, LocalRestitutionHoldsInProjectedFormOnly) {
  const Rod rod;
  const MatrixXd A = Rod::Rows(0, {-0.5, 0, 0.5});
  const VectorXd v = Vec({0.3, -1, 0.4});
  const VectorXd e = Vec({0.2, 0.5, 0.8});
  const AghiliProjection pr = BuildAghiliProjection(rod.M, A);
  const MatrixXd Etil = pr.A_pinv * e.asDiagonal() * A;
  EXPECT_TRUE(CompareMatrices(
      Etil, (MatrixXd(3, 3) << 0, 0, 0, 0, 0.5, 0.1, 0, 0.6, 0.5).finished(), kHand));
  const AghiliResult r = AghiliImpact(rod.M, A, v, Local(e), kNoImpulse);
  // The projected law holds; the per-contact target (0.24, 0.5, 0.64) does not.
  EXPECT_EQ(r.status, AghiliStatus::kProjectedLaw);
  EXPECT_LE(r.residual, kHand);
  EXPECT_NEAR(r.target_residual, 0.04 / 1.2, kHand);  // max |phidot+ - target| / |phidot-|
  EXPECT_TRUE(CompareMatrices(r.v_plus, Vec({0.3, 0.46, 0.4}), kHand));
  EXPECT_TRUE(CompareMatrices(r.contact_velocity, Vec({0.26, 0.46, 0.66}), kHand));
  EXPECT_NEAR(r.energy_after, 0.1574667, kPrinted7);
  EXPECT_NEAR(r.energy_change, -0.3942, kHand);
  EXPECT_TRUE(CompareMatrices(r.generalized_impulse, Vec({0, 1.46, 0}), kHand));
  EXPECT_TRUE(CompareMatrices(r.impulse, Vec({1.46 / 3, 1.46 / 3, 1.46 / 3}), kHand));
  // (53) gives the same loss.
  const RestitutionConsistency c =
      CheckRestitutionConsistency(rod.M, A, e.asDiagonal().toDenseMatrix());
  const VectorXd phidot = A * v;
  const MatrixXd E = e.asDiagonal();
  EXPECT_NEAR(0.5 * phidot.dot((E * c.Q * E - c.Q) * phidot), -0.3942, kHand);
  // Q = W^+ = (1/36)[[7,4,1],[4,4,4],[1,4,7]]; full-space QMI fails, R(A) passes.
  EXPECT_TRUE(
      CompareMatrices(c.Q, (MatrixXd(3, 3) << 7, 4, 1, 4, 4, 4, 1, 4, 7).finished() / 36.0, kHand));
  EXPECT_TRUE(
      CompareMatrices(c.full_eigenvalues, Vec({-0.00788005, 0.0842341, 0.263646}), kPrinted6));
  EXPECT_TRUE(CompareMatrices(c.range_eigenvalues, Vec({0.0813614, 0.263639}), kPrinted6));
  EXPECT_FALSE(c.full_consistent);
  EXPECT_FALSE(c.lmi_consistent);
  EXPECT_TRUE(c.range_consistent);
}

// ---- Obtuse corner: adhesive impulses, energy gain and restitution consistency ----------------

struct Corner {
  MatrixXd M = MatrixXd::Identity(2, 2);
  MatrixXd A = (MatrixXd(2, 2) << 0, 1, 0.6, 0.8).finished();
  VectorXd v = Vec({0.3, -1});
};

TEST(AghiliObtuseCorner, AdhesiveImpulsesAndEnergyGainAreReported) {
  const Corner k;
  EXPECT_TRUE(CompareMatrices(k.A * k.v, Vec({-1, -0.62}), kHand));
  struct Row {
    AghiliRestitution rest;
    VectorXd v_plus, impulse;
    double k_plus;
    bool gain;
  };
  const Row rows[] = {
      {Global(0), Vec({0, 0}), Vec({1.4, -0.5}), 0, false},
      {Global(1), Vec({-0.3, 1}), Vec({2.8, -1.0}), 0.545, false},
      {Local(Vec({1, 0})), Vec({-4.0 / 3, 1}), Vec({4.1777778, -2.7222222}), 1.3888889, true},
      {Local(Vec({0.9, 0.5})), Vec({-0.6833333, 0.9}), Vec({3.2111111, -1.6388889}), 0.6384722,
       true},
      {Local(Vec({0.6, 0.5})), Vec({-0.2833333, 0.6}), Vec({2.3777778, -0.9722222}), 0.2201389,
       false},
  };
  for (const Row& row : rows) {
    const AghiliResult r = AghiliImpact(k.M, k.A, k.v, row.rest, kNoImpulse);
    EXPECT_EQ(r.status, AghiliStatus::kSolved);
    EXPECT_TRUE(CompareMatrices(r.v_plus, row.v_plus, kPrinted7));
    EXPECT_TRUE(CompareMatrices(r.impulse, row.impulse, kPrinted7));
    EXPECT_NEAR(r.energy_before, 0.545, kHand);
    EXPECT_NEAR(r.energy_after, row.k_plus, kPrinted7);
    EXPECT_EQ(r.energy_gain, row.gain);
    // Contact 2's impulse is negative in every row: flagged, not hidden.
    ASSERT_EQ(r.adhesive.size(), 1u);
    EXPECT_EQ(r.adhesive[0], 1);
  }
  EXPECT_NEAR(AghiliImpact(k.M, k.A, k.v, Local(Vec({1, 0})), kNoImpulse).energy_change, 0.8438889,
              kPrinted7);
}

TEST(AghiliObtuseCorner, RestitutionConsistencyVerdicts) {
  const Corner k;
  const RestitutionConsistency a =
      CheckRestitutionConsistency(k.M, k.A, Vec({1, 0}).asDiagonal().toDenseMatrix());
  EXPECT_TRUE(CompareMatrices(a.Q, (MatrixXd(2, 2) << 25, -20, -20, 25).finished() / 9.0, kHand));
  EXPECT_TRUE(CompareMatrices(a.full_eigenvalues, Vec({-1.2316614, 4.0094392}), kPrinted7));
  EXPECT_TRUE(
      CompareMatrices(a.lmi_eigenvalues, Vec({-0.5302618, 1, 1.7431009, 5.3427165}), kPrinted7));
  EXPECT_FALSE(a.full_consistent);
  EXPECT_FALSE(a.lmi_consistent);
  const RestitutionConsistency b =
      CheckRestitutionConsistency(k.M, k.A, Vec({0.9, 0.5}).asDiagonal().toDenseMatrix());
  EXPECT_TRUE(CompareMatrices(b.full_eigenvalues, Vec({-0.1431561, 2.7542672}), kPrinted7));
  EXPECT_NEAR(b.lmi_eigenvalues(0), -0.0736544, kPrinted7);
  EXPECT_FALSE(b.full_consistent);
  const RestitutionConsistency c =
      CheckRestitutionConsistency(k.M, k.A, Vec({0.6, 0.5}).asDiagonal().toDenseMatrix());
  EXPECT_TRUE(CompareMatrices(c.full_eigenvalues, Vec({0.3675155, 3.4935956}), kPrinted7));
  EXPECT_NEAR(c.lmi_eigenvalues(0), 0.2853177, kPrinted7);
  EXPECT_TRUE(c.full_consistent);
  EXPECT_TRUE(c.lmi_consistent);
  // Generalized eigenvalues of (EQE, Q) for (0.9, 0.5): the largest exceeds 1.
  const MatrixXd E = Vec({0.9, 0.5}).asDiagonal();
  Eigen::GeneralizedSelfAdjointEigenSolver<MatrixXd> ges(E * b.Q * E, b.Q);
  EXPECT_TRUE(CompareMatrices(ges.eigenvalues(), Vec({0.1728399, 1.1716046}), kPrinted7));
  // 2-contact closed form, rho = 0.8.
  EXPECT_FALSE(TwoContactConsistent(0.9, 0.5, 0.8));
  EXPECT_TRUE(TwoContactConsistent(0.6, 0.5, 0.8));
  EXPECT_NEAR((1 - 0.81) * (1 - 0.25), 0.1425, kHand);
}

// ---- Flat rod, two end contacts: the QMI is only sufficient -----------------------------------

TEST(AghiliFlatRodEnds, QmiFailsYetNoApproachingStateGainsEnergy) {
  const Rod rod;
  const MatrixXd A = Rod::Rows(0, {-0.5, 0.5});
  const MatrixXd E = Vec({1, 0}).asDiagonal();
  const RestitutionConsistency c = CheckRestitutionConsistency(rod.M, A, E);
  EXPECT_TRUE(CompareMatrices(c.Q, (MatrixXd(2, 2) << 2, 1, 1, 2).finished() / 6.0, kHand));
  EXPECT_TRUE(CompareMatrices(c.full_eigenvalues, Vec({-0.0690356, 0.402369}), kPrinted6));
  EXPECT_FALSE(c.full_consistent);
  const AghiliResult r = AghiliImpact(rod.M, A, Vec({0, -1, 0}), Local(Vec({1, 0})), kNoImpulse);
  EXPECT_TRUE(CompareMatrices(r.v_plus, Vec({0, 0.5, -1}), kHand));
  EXPECT_NEAR(r.energy_after, 1.0 / 6, kHand);
  EXPECT_TRUE(CompareMatrices(r.impulse, Vec({10.0 / 12, 8.0 / 12}), kHand));
  // W_loss = -(1/6) phidot_2 (phidot_1 + phidot_2) <= 0 on a grid of phidot <= 0.
  const AghiliProjection pr = BuildAghiliProjection(rod.M, A);
  for (int i = 0; i <= 40; ++i) {
    for (int j = 0; j <= 40; ++j) {
      const VectorXd phidot = Vec({-i / 40.0, -j / 40.0});
      const VectorXd v = pr.A_pinv * phidot;  // A has full row rank: A v = phidot
      const AghiliResult g = AghiliImpact(rod.M, A, v, Local(Vec({1, 0})), kNoImpulse);
      EXPECT_LE(g.energy_change, kHand);
      EXPECT_NEAR(g.energy_change, -phidot(1) * (phidot(0) + phidot(1)) / 6, kHand);
    }
  }
}

// ---- Pendulum: the acceleration-level law (12), (13) -------------------------------------------

struct Pendulum {
  double g = 9.81;
  MatrixXd M = MatrixXd::Identity(2, 2);
  VectorXd q = Vec({0.5, -kSqrt3 / 2});
  VectorXd qd = Vec({kSqrt3, 1.0});
  VectorXd h = Vec({0, 9.81});
  VectorXd u = Vec({0, 0});
  MatrixXd A() const { return q.transpose(); }
  VectorXd Adot_qd() const { return Vec({qd.squaredNorm()}); }  // d/dt(x, y) . qd = 4
};

TEST(AghiliPendulum, AccelerationIsTangentialGravityPlusCentripetal) {
  const Pendulum p;
  const AghiliAccelerationResult a = AghiliAcceleration(p.M, p.h, p.u, p.A(), p.Adot_qd());
  EXPECT_EQ(a.status, AghiliStatus::kSolved);
  // Tangential gravity plus centripetal v^2/L toward the pivot.
  const VectorXd t = Vec({kSqrt3 / 2, 0.5});
  const VectorXd ref = -p.g * 0.5 * t - 4.0 * p.q;
  EXPECT_TRUE(CompareMatrices(a.qdd, ref, kHand));
  EXPECT_TRUE(CompareMatrices(a.qdd, Vec({-6.2478546, 1.0116016}), kPrinted7));
  EXPECT_TRUE(CompareMatrices(a.force, ref + p.h, kHand));
  EXPECT_NEAR(a.lambda(0), -(p.g * kSqrt3 / 2 + 4), kHand);
  EXPECT_LE(a.residual, kHand);
  // (12) equals (13): qdd = (I - S) M^-1 (u - h) + S a_perp.
  const AghiliProjection pr = BuildAghiliProjection(p.M, p.A());
  const VectorXd a_perp = -pr.A_pinv * p.Adot_qd();
  EXPECT_TRUE(CompareMatrices(a_perp, Vec({-2, 2 * kSqrt3}), kHand));
  const VectorXd q13 =
      (MatrixXd::Identity(2, 2) - pr.S) * p.M.llt().solve(p.u - p.h) + pr.S * a_perp;
  EXPECT_TRUE(CompareMatrices(a.qdd, q13, kHand));
  // Regression: the paper's printed Omega sign violates A qdd + Adot qd = 0 by 2 Adot qd = 8.
  AghiliOptions literal;
  literal.omega_sign = OmegaSign::kPaperLiteral;
  const AghiliAccelerationResult bad =
      AghiliAcceleration(p.M, p.h, p.u, p.A(), p.Adot_qd(), literal);
  EXPECT_NEAR((p.A() * bad.qdd + p.Adot_qd())(0), 8, kHand);
  EXPECT_EQ(bad.status, AghiliStatus::kIllConditioned);
}

TEST(AghiliPendulum, DuplicatedRowHalvesLambda) {
  const Pendulum p;
  MatrixXd A2(2, 2);
  A2 << p.A(), p.A();
  const AghiliAccelerationResult one = AghiliAcceleration(p.M, p.h, p.u, p.A(), p.Adot_qd());
  const AghiliAccelerationResult two = AghiliAcceleration(p.M, p.h, p.u, A2, Vec({4, 4}));
  EXPECT_TRUE(CompareMatrices(two.qdd, one.qdd, kHand));
  EXPECT_TRUE(CompareMatrices(two.force, one.force, kHand));
  EXPECT_TRUE(CompareMatrices(two.lambda, Vec({one.lambda(0) / 2, one.lambda(0) / 2}), kHand));
  EXPECT_EQ(two.rank, 1);
}

// ---- Deactivation by the sign of lambda; impact detection (15) --------------------------------

TEST(AghiliActiveSet, PullingContactDeactivatesAndOnlyApproachingPenetrationIsAnImpact) {
  const MatrixXd M = MatrixXd::Identity(2, 2);
  const MatrixXd A = (MatrixXd(1, 2) << 0, 1).finished();
  const VectorXd h = Vec({0, 9.81});
  const AghiliActiveSetResult stays =
      AghiliActiveSetAcceleration(M, h, Vec({1, 5}), A, Vec({0}), {true});
  EXPECT_TRUE(stays.active[0]);
  EXPECT_EQ(stays.iterations, 0);
  EXPECT_TRUE(CompareMatrices(stays.acceleration.force, Vec({0, 4.81}), kHand));
  EXPECT_NEAR(stays.acceleration.lambda(0), 4.81, kHand);
  EXPECT_TRUE(CompareMatrices(stays.acceleration.qdd, Vec({1, 0}), kHand));
  // u = (1, 15): lambda would be -5.19, so Gamma -> 0 and the mass lifts off.
  EXPECT_NEAR(AghiliAcceleration(M, h, Vec({1, 15}), A, Vec({0})).lambda(0), -5.19, kHand);
  const AghiliActiveSetResult lifts =
      AghiliActiveSetAcceleration(M, h, Vec({1, 15}), A, Vec({0}), {true});
  EXPECT_FALSE(lifts.active[0]);
  EXPECT_EQ(lifts.iterations, 1);
  EXPECT_TRUE(CompareMatrices(lifts.acceleration.qdd, Vec({1, 5.19}), kHand));
  // Detection (15): penetrating-and-approaching only; grazing (phidot = 0) and separating not.
  const std::vector<bool> act =
      ImpactActivation(Vec({0, -1e-3, 0, 0.1, 0}), Vec({-1, -0.5, 0, -1, 0.2}), 0);
  EXPECT_EQ(act, (std::vector<bool>{true, true, false, false, false}));
}

// ---- Near-singular Jacobian: the rank, hence the outcome, depends on the tolerance -------------

TEST(AghiliNearSingular, RankFollowsToleranceAndKeptRowsGiveImpulsesOfOrderOneOverEps) {
  const Rod rod;
  const VectorXd v = Vec({0.3, -1, 0.4});
  struct Row {
    double eps, tol;
    int rank;
  };
  for (const Row row : {Row{1e-2, 1e-10, 3}, Row{1e-6, 1e-10, 3}, Row{1e-6, 1e-6, 2},
                        Row{1e-9, 1e-10, 3}, Row{1e-12, 1e-10, 2}}) {
    SCOPED_TRACE(row.eps);
    MatrixXd A = Rod::Rows(0, {-0.5, 0, 0.5});
    A(2, 0) = row.eps;
    AghiliOptions o;
    o.rank_tolerance = row.tol;
    const AghiliResult r = AghiliImpact(rod.M, A, v, Global(0.5), kNoImpulse, 0, o);
    EXPECT_EQ(r.rank, row.rank);
    EXPECT_FALSE(r.v_plus.hasNaN());
    // sigma_min ~ 0.408 eps: reported whether kept or dropped.
    const double sigma_small = row.rank == 3 ? r.sigma_min_kept : r.sigma_max_dropped;
    EXPECT_NEAR(sigma_small / row.eps, 0.408, 0.001);
    if (row.rank == 3) {
      // S = I: v+ = -e v-, i_lambda = A^-T i_f solved directly (LU, independent of the SVD).
      EXPECT_TRUE(CompareMatrices(r.v_plus, Vec({-0.15, 0.5, -0.2}), kHand));
      const VectorXd i_f = -1.5 * (rod.M * v);
      const VectorXd ref = A.transpose().fullPivLu().solve(i_f);
      EXPECT_TRUE(CompareMatrices(r.impulse, ref, kNearSingular * MaxAbsOrOne(ref)));
      // Hand-derived, rounded: (-44.9, 91.4, -45) at 1e-2, (-0.45, 0.9, -0.45)/eps below.
      const VectorXd table =
          row.eps == 1e-2 ? Vec({-44.9, 91.4, -45}) : Vec({-0.45, 0.9, -0.45}) / row.eps;
      EXPECT_TRUE(CompareMatrices(r.impulse, table, 0.006 * MaxAbsOrOne(table)));
      EXPECT_FALSE(r.adhesive.empty());  // mixed signs of order 1/eps
    } else {
      // The flat rod's redundant-contact answer, perturbed by O(eps).
      EXPECT_TRUE(CompareMatrices(r.v_plus, Vec({0.3, 0.5, -0.2}), kNearSingular));
      EXPECT_TRUE(CompareMatrices(r.impulse, Vec({0.55, 0.5, 0.45}), kNearSingular));
    }
  }
}

// ---- Random rank-deficient cases ---------------------------------------------------------------

class AghiliRandom : public ::testing::Test {
 protected:
  std::mt19937 gen{20240807};
  static constexpr int kCases = 200;
};

TEST_F(AghiliRandom, ProjectorIdentities) {
  for (int t = 0; t < kCases; ++t) {
    const RandomCase c = MakeRandom(gen);
    const int n = static_cast<int>(c.M.rows());
    const MatrixXd I = MatrixXd::Identity(n, n);
    const AghiliProjection p = BuildAghiliProjection(c.M, c.A);
    ASSERT_EQ(p.rank, c.r);
    const MatrixXd& S = p.S;
    const MatrixXd& P = p.P;
    const MatrixXd Minv = c.M.llt().solve(I);
    const double tol =
        kRandom * std::max(1.0, S.cwiseAbs().maxCoeff()) * std::max(1.0, c.M.cwiseAbs().maxCoeff());
    EXPECT_TRUE(CompareMatrices(S * S, S, tol));
    EXPECT_TRUE(CompareMatrices(S * P, MatrixXd::Zero(n, n), tol));              // (11a)
    EXPECT_TRUE(CompareMatrices(P * S.transpose(), MatrixXd::Zero(n, n), tol));  // (11a)
    EXPECT_TRUE(CompareMatrices(S * (I - P), S, tol));                           // (11b)
    EXPECT_TRUE(CompareMatrices((I - P) * S, I - P, tol));                       // (11c)
    EXPECT_TRUE(CompareMatrices(c.M * S, S.transpose() * c.M, tol));             // (11d)
    EXPECT_TRUE(CompareMatrices(c.M * S, S.transpose() * c.M * S, tol));         // (11d)
    EXPECT_TRUE(CompareMatrices((I - S) * Minv, p.Mo_pinv, tol));                // (11e)
    EXPECT_TRUE(CompareMatrices(Minv * (I - S.transpose()), p.Mo_pinv, tol));    // (11e)
    EXPECT_GT(MinEig(p.Mc), 0);                                                  // (9a) corrected
    EXPECT_TRUE(CompareMatrices(p.Mo_pinv, PsdPinv(P * c.M * P, n - p.rank), tol));  // (9c)
    EXPECT_TRUE(CompareMatrices(P * c.M * P * p.Mc.llt().solve(I), P, tol));  // (9d) corrected
    EXPECT_TRUE(CompareMatrices(c.A * S, c.A, tol * MaxAbsOrOne(c.A)));
    const MatrixXd R = I - 2 * S;
    EXPECT_TRUE(CompareMatrices(R * R, I, 4 * tol));  // (28b)
    EXPECT_TRUE(CompareMatrices(R.transpose() * c.M * R, c.M, 4 * tol));
  }
}

TEST_F(AghiliRandom, ProjectorMatchesIndependentClosedForms) {
  for (int t = 0; t < kCases; ++t) {
    const RandomCase c = MakeRandom(gen);
    const int n = static_cast<int>(c.M.rows());
    const MatrixXd I = MatrixXd::Identity(n, n);
    const AghiliProjection p = BuildAghiliProjection(c.M, c.A);
    const double tol = kRandom * std::max(1.0, p.S.cwiseAbs().maxCoeff()) *
                       std::max(1.0, c.M.cwiseAbs().maxCoeff());
    const MatrixXd ZMZ = p.Z.transpose() * c.M * p.Z;
    EXPECT_TRUE(CompareMatrices(I - p.S, p.Z * ZMZ.llt().solve(p.Z.transpose() * c.M), tol));
    const MatrixXd Minv = c.M.llt().solve(I);
    const MatrixXd Wp = PsdPinv(c.A * Minv * c.A.transpose(), p.rank);  // rank taken from A
    EXPECT_TRUE(CompareMatrices(p.S, Minv * c.A.transpose() * Wp * c.A, tol));
    const MatrixXd K = p.S.transpose() * c.M * p.S;
    EXPECT_TRUE(CompareMatrices(K, c.A.transpose() * Wp * c.A, tol));
    EXPECT_TRUE(CompareMatrices(K, K.transpose(), tol));
    EXPECT_GE(MinEig(K), -tol);
    const RestitutionConsistency q =
        CheckRestitutionConsistency(c.M, c.A, MatrixXd::Zero(c.A.rows(), c.A.rows()));
    EXPECT_TRUE(CompareMatrices(q.Q, Wp, kRandom * 10 * MaxAbsOrOne(Wp)));
  }
}

TEST_F(AghiliRandom, OutcomeIndependentOfNu) {
  for (int t = 0; t < kCases; ++t) {
    const RandomCase c = MakeRandom(gen);
    const AghiliProjection p = BuildAghiliProjection(c.M, c.A);
    if (p.rank < p.n) {
      EXPECT_GE(p.nu, p.nu_min * (1 - 1e-12));
      EXPECT_LE(p.nu, p.nu_max * (1 + 1e-12));
      EXPECT_NEAR(p.cond_Mc, p.nu_max / p.nu_min, 1e-12 * p.cond_Mc);
      EXPECT_NEAR(p.cond_Mc, p.cond_Mc, 0);
      // cond(M_c) from its own spectrum.
      const VectorXd ev = Eigen::SelfAdjointEigenSolver<MatrixXd>(p.Mc).eigenvalues();
      EXPECT_NEAR(ev(ev.size() - 1) / ev(0), p.cond_Mc, 1e-9 * p.cond_Mc);
    }
    const AghiliResult base = AghiliImpact(c.M, c.A, c.v, Global(0.4), c.iu);
    for (double scale : {1e-3, 1e3}) {
      AghiliOptions o;
      o.nu = p.nu * scale;
      const AghiliProjection q = BuildAghiliProjection(c.M, c.A, o);
      EXPECT_TRUE(CompareMatrices(q.S, p.S, kRandom * 10 * MaxAbsOrOne(p.S)));
      const AghiliResult r = AghiliImpact(c.M, c.A, c.v, Global(0.4), c.iu, 0, o);
      EXPECT_TRUE(CompareMatrices(r.v_plus, base.v_plus, kRandom * 10 * MaxAbsOrOne(base.v_plus)));
      EXPECT_TRUE(CompareMatrices(r.generalized_impulse, base.generalized_impulse,
                                  kRandom * 10 * MaxAbsOrOne(base.generalized_impulse)));
    }
  }
}

TEST_F(AghiliRandom, RestitutionMomentumAndEnergyIdentities) {
  for (int t = 0; t < kCases; ++t) {
    const RandomCase c = MakeRandom(gen, t % 2 == 0);
    const int n = static_cast<int>(c.M.rows()), m = static_cast<int>(c.A.rows());
    const MatrixXd I = MatrixXd::Identity(n, n);
    const AghiliProjection p = BuildAghiliProjection(c.M, c.A);
    const MatrixXd& S = p.S;
    const MatrixXd K = S.transpose() * c.M * S;
    const VectorXd phidot = c.A * c.v;
    const double escale =
        std::max({1.0, c.v.dot(c.M * c.v), c.iu.squaredNorm()}) * std::max(1.0, p.cond_Mc);
    const double vscale = std::max(1.0, c.v.cwiseAbs().maxCoeff()) * std::max(1.0, p.cond_Mc);
    for (double e : {0.0, 0.3, 1.0}) {
      const AghiliResult r0 = AghiliImpact(c.M, c.A, c.v, Global(e), kNoImpulse);
      const AghiliResult r = AghiliImpact(c.M, c.A, c.v, Global(e), c.iu);
      // Restitution: A v+ + e A v- = 0.
      EXPECT_LE(r.residual, kRandom * vscale);
      EXPECT_TRUE(CompareMatrices(c.A * r.v_plus, -e * phidot, kRandom * vscale * c.A.norm()));
      // Momentum, P i_f = 0, A^T i_lambda = i_f.
      EXPECT_TRUE(
          CompareMatrices(c.M * (r.v_plus - c.v), c.iu + r.generalized_impulse, kRandom * escale));
      EXPECT_TRUE(
          CompareMatrices(p.P * r.generalized_impulse, VectorXd::Zero(n), kRandom * escale));
      EXPECT_TRUE(
          CompareMatrices(c.A.transpose() * r.impulse, r.generalized_impulse, kRandom * escale));
      // Energy: (31), (32), (38), (41).
      const double k31 = -0.5 * (1 - e * e) * c.v.dot(K * c.v) + 0.5 * c.iu.dot(p.Mo_pinv * c.iu) +
                         c.v.dot((I - S.transpose()) * c.iu);
      EXPECT_NEAR(r.energy_change, k31, kRandom * escale);
      EXPECT_NEAR(r0.energy_change, -0.5 * (1 - e * e) * c.v.dot(K * c.v), kRandom * escale);
      EXPECT_NEAR(r0.generalized_impulse.dot(0.5 * (c.v + r0.v_plus)), r0.energy_change,
                  kRandom * escale);
      EXPECT_NEAR(r0.impulse.dot(phidot), -(1 + e) * c.v.dot(K * c.v), kRandom * escale);
      // 0 <= gamma <= 1; gamma = 1 at e = 1.
      EXPECT_GE(r0.energy_ratio, -kRandom);
      EXPECT_LE(r0.energy_ratio, 1 + kRandom * escale);
      if (e == 1) {
        EXPECT_NEAR(r0.energy_ratio, 1, kRandom * escale);
      }
      // E = e I reproduces (27); (28d) equals (27).
      const AghiliResult re = AghiliImpact(c.M, c.A, c.v, Local(VectorXd::Constant(m, e)), c.iu);
      EXPECT_TRUE(CompareMatrices(re.v_plus, r.v_plus, kRandom * vscale));
      const MatrixXd R = I - 2 * S;
      EXPECT_TRUE(CompareMatrices(r0.v_plus, (e * R + (1 - e) * (I - S)) * c.v, kRandom * vscale));
      // Remark 2: i_u in R(A^T) leaves v+ unchanged; Remark 4: i_u in M N(A) leaves
      // i_f unchanged.
      const VectorXd iu_range = c.A.transpose() * VectorXd::Ones(m);
      EXPECT_TRUE(CompareMatrices(AghiliImpact(c.M, c.A, c.v, Global(e), iu_range).v_plus,
                                  r0.v_plus, kRandom * vscale * std::max(1.0, iu_range.norm())));
      if (p.rank < n) {
        const VectorXd iu_null = c.M * p.Z * VectorXd::Ones(n - p.rank);
        EXPECT_TRUE(CompareMatrices(
            AghiliImpact(c.M, c.A, c.v, Global(e), iu_null).generalized_impulse,
            r0.generalized_impulse, kRandom * escale * std::max(1.0, iu_null.norm())));
      }
    }
    // Local E: (49) form, (51)/(52)/(53), general formula with i_u, affinity in E.
    std::uniform_real_distribution<double> ud(0, 1);
    VectorXd e1(m), e2(m);
    for (int i = 0; i < m; ++i) {
      e1(i) = ud(gen);
      e2(i) = ud(gen);
    }
    const MatrixXd E1 = e1.asDiagonal();
    const MatrixXd Etil = p.A_pinv * E1 * c.A;
    const AghiliResult l0 = AghiliImpact(c.M, c.A, c.v, Local(e1), kNoImpulse);
    const AghiliResult l = AghiliImpact(c.M, c.A, c.v, Local(e1), c.iu);
    const MatrixXd R = I - 2 * S;
    EXPECT_TRUE(CompareMatrices(l0.v_plus, (R * Etil + (I - S) * (I - Etil)) * c.v,
                                kRandom * vscale));  // (49)
    EXPECT_LE(l.residual, kRandom * vscale);         // A v+ + A A^+ E A v- = 0
    if (p.rank == m) {
      EXPECT_TRUE(CompareMatrices(c.A * l.v_plus, -E1 * phidot, kRandom * vscale * c.A.norm()));
    }
    const double w51 = 0.5 * c.v.dot(Etil.transpose() * K * Etil * c.v) - 0.5 * c.v.dot(K * c.v);
    const double w52 = -0.5 * c.v.dot((I - Etil.transpose()) * K * (I + Etil) * c.v);
    const RestitutionConsistency q = CheckRestitutionConsistency(c.M, c.A, E1);
    const double w53 = 0.5 * phidot.dot((E1 * q.Q * E1 - q.Q) * phidot);
    EXPECT_NEAR(l0.energy_change, w51, kRandom * escale);
    EXPECT_NEAR(l0.energy_change, w52, kRandom * escale);
    EXPECT_NEAR(l0.energy_change, w53, kRandom * escale);
    const double general =
        w51 + 0.5 * c.iu.dot(p.Mo_pinv * c.iu) + c.v.dot((I - S.transpose()) * c.iu);
    EXPECT_NEAR(l.energy_change, general, kRandom * escale);
    EXPECT_TRUE(
        CompareMatrices(c.M * (l.v_plus - c.v), c.iu + l.generalized_impulse, kRandom * escale));
    for (double a : {0.0, 0.25, 0.7, 1.0}) {
      const AghiliResult mix =
          AghiliImpact(c.M, c.A, c.v, Local(a * e1 + (1 - a) * e2), kNoImpulse);
      const AghiliResult r2 = AghiliImpact(c.M, c.A, c.v, Local(e2), kNoImpulse);
      EXPECT_TRUE(
          CompareMatrices(mix.v_plus, a * l0.v_plus + (1 - a) * r2.v_plus, kRandom * vscale));
    }
  }
}

TEST_F(AghiliRandom, LmiAgreesWithQmi) {
  std::uniform_real_distribution<double> ud(0, 1);
  int consistent = 0, inconsistent = 0;
  for (int t = 0; t < kCases; ++t) {
    const RandomCase c = MakeRandom(gen, false);
    const int m = static_cast<int>(c.A.rows());
    VectorXd e(m);
    for (int i = 0; i < m; ++i) e(i) = ud(gen);
    const RestitutionConsistency q =
        CheckRestitutionConsistency(c.M, c.A, e.asDiagonal().toDenseMatrix());
    // Skip cases within roundoff of the boundary, where either verdict is legitimate.
    if (std::abs(q.full_eigenvalues(0)) < 1e-8 || std::abs(q.lmi_eigenvalues(0)) < 1e-8) continue;
    EXPECT_EQ(q.full_consistent, q.lmi_consistent) << "case " << t;
    (q.full_consistent ? consistent : inconsistent)++;
  }
  EXPECT_GT(consistent, 0);  // both verdicts occur, so the agreement means something
  EXPECT_GT(inconsistent, 0);
}

TEST(AghiliConsistency, TwoContactClosedFormMatchesEigenTest) {
  const MatrixXd M = MatrixXd::Identity(2, 2);
  for (double rho : {-0.95, -0.5, -0.1, 0.3, 0.8, 0.99}) {
    // A A^T = [[1, rho], [rho, 1]].
    const MatrixXd A = (MatrixXd(2, 2) << 1, 0, rho, std::sqrt(1 - rho * rho)).finished();
    for (int i = 0; i <= 10; ++i) {
      for (int j = 0; j <= 10; ++j) {
        const double e1 = i / 10.0, e2 = j / 10.0;
        const double margin = (1 - e1 * e1) * (1 - e2 * e2) - rho * rho * std::pow(1 - e1 * e2, 2);
        if (std::abs(margin) < 1e-9 && margin != 0) continue;  // boundary within roundoff
        const RestitutionConsistency c =
            CheckRestitutionConsistency(M, A, Vec({e1, e2}).asDiagonal().toDenseMatrix());
        EXPECT_EQ(TwoContactConsistent(e1, e2, rho), c.full_consistent)
            << "e " << e1 << "," << e2 << " rho " << rho;
      }
    }
  }
  EXPECT_TRUE(TwoContactConsistent(0.3, 0.3, 1.0));   // e1 = e2 always holds
  EXPECT_FALSE(TwoContactConsistent(0.3, 0.4, 1.0));  // rho^2 = 1 needs e1 = e2
}

// ---- Degenerate Jacobians --------------------------------------------------------------------

TEST(AghiliDegenerate, ZeroRowZeroJacobianAndFullRank) {
  std::mt19937 gen(7);
  for (int t = 0; t < 50; ++t) {
    const RandomCase c = MakeRandom(gen);
    const int n = static_cast<int>(c.M.rows()), m = static_cast<int>(c.A.rows());
    // A zero row is a no-op (an inactive constraint).
    MatrixXd Az(m + 1, n);
    Az << c.A, Eigen::RowVectorXd::Zero(n);
    const AghiliResult a = AghiliImpact(c.M, c.A, c.v, Global(0.5), c.iu);
    const AghiliResult b = AghiliImpact(c.M, Az, c.v, Global(0.5), c.iu);
    EXPECT_TRUE(CompareMatrices(b.v_plus, a.v_plus, kRandom * 10 * MaxAbsOrOne(a.v_plus)));
    EXPECT_NEAR(b.impulse(m), 0, kHand);
    EXPECT_FALSE(b.v_plus.hasNaN() || b.impulse.hasNaN());
    // A = 0: S = 0, v+ = v- + M^-1 i_u.
    const MatrixXd A0 = MatrixXd::Zero(2, n);
    const AghiliProjection p0 = BuildAghiliProjection(c.M, A0);
    EXPECT_EQ(p0.rank, 0);
    EXPECT_TRUE(CompareMatrices(p0.S, MatrixXd::Zero(n, n), kHand));
    EXPECT_TRUE(CompareMatrices(AghiliImpact(c.M, A0, c.v, Global(0.5), c.iu).v_plus,
                                c.v + c.M.llt().solve(c.iu),
                                kRandom * MaxAbsOrOne(c.v + c.M.llt().solve(c.iu))));
    // r = n: S = I, v+ = -e v-, i_u has no effect.
    const MatrixXd Af = MatrixXd::Identity(n, n) + 0.1 * c.M;
    const AghiliResult f = AghiliImpact(c.M, Af, c.v, Global(0.3), c.iu);
    EXPECT_EQ(f.rank, n);
    EXPECT_TRUE(CompareMatrices(f.v_plus, -0.3 * c.v, kRandom * MaxAbsOrOne(-0.3 * c.v)));
  }
}

// ---- The ImpactProblem adapter and input validation ------------------------------------------

TEST(AghiliProblem, FrictionlessAdapterZeroesSeparatingRows) {
  // The obtuse corner as an ImpactProblem with a third, separating contact (Jn v- > 0) and friction
  // data, which the law ignores.
  const MatrixXd Jn = (MatrixXd(3, 2) << 0, 1, 0.6, 0.8, 1, 0).finished();
  const MatrixXd Jf = (MatrixXd(3, 2) << 1, 0, 0.8, -0.6, 0, 1).finished();
  const impact::ImpactProblem prob = impact::ImpactProblem::Planar(
      MatrixXd::Identity(2, 2), Jn, Jf, Vec({0.5, 0.5, 0.5}), Vec({0.3, -1}));
  const AghiliResult r = AghiliImpact(prob, Global(0));
  EXPECT_TRUE(CompareMatrices(r.v_plus, Vec({0, 0}), kHand));
  EXPECT_TRUE(CompareMatrices(r.impulse, Vec({1.4, -0.5, 0}), kHand));
  EXPECT_EQ(r.adhesive, std::vector<int>{1});
}

TEST(AghiliValidation, BadInputThrowsNamingTheField) {
  const MatrixXd M = MatrixXd::Identity(2, 2);
  const MatrixXd A = (MatrixXd(1, 2) << 0, 1).finished();
  auto throws_with = [](auto f, const std::string& field) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what()).find(field) != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(throws_with(
      [&] {
        AghiliImpact(M, A, Vec({1, -1}), Global(1.5), kNoImpulse);
      },
      "restitution.e"));
  EXPECT_TRUE(throws_with(
      [&] {
        AghiliImpact(M, A, Vec({1, -1}), Local(Vec({0.2, 0.3})), kNoImpulse);
      },
      "restitution.per_contact.size()"));
  EXPECT_TRUE(throws_with(
      [&] {
        AghiliImpact(M, A, Vec({1, -1}), Local(Vec({-0.1})), kNoImpulse);
      },
      "restitution.per_contact(0)"));
  EXPECT_TRUE(
      throws_with([&] { AghiliImpact(M, A, Vec({1}), Global(0), kNoImpulse); }, "v_minus.size()"));
  EXPECT_TRUE(throws_with([&] { AghiliImpact(-M, A, Vec({1, -1}), Global(0), kNoImpulse); }, "M"));
  AghiliOptions o;
  o.rank_tolerance = -1;
  EXPECT_TRUE(throws_with([&] { BuildAghiliProjection(M, A, o); }, "rank_tolerance"));
  EXPECT_TRUE(
      throws_with([&] { CheckRestitutionConsistency(M, A, MatrixXd::Identity(2, 2)); }, "E"));
}

}  // namespace
}  // namespace impactset::laws
