#include <impactset/lcp/residual.hpp>

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include <impactset/lcp/problem.hpp>

namespace impactset::lcp {
namespace {

TEST(Residual, ZeroAtAKnownSolution) {
  MatrixXd M(2, 2);
  M << 2, 1, 1, 2;
  VectorXd q(2);
  q << -1, 1;
  VectorXd z(2);
  z << 0.5, 0;  // w = (0, 1.5)
  const Residual r = ComputeResidual(M, q, z);
  EXPECT_EQ(r.Worst(), 0.0);
  EXPECT_TRUE(IsSolution(r));
}

TEST(Residual, EachPartDetectsItsViolation) {
  MatrixXd M = MatrixXd::Identity(2, 2);
  VectorXd q(2);
  q << -1, 1;
  VectorXd z(2);
  z << -0.5, 0;  // z < 0 and w = (-1.5, 1) < 0
  Residual r = ComputeResidual(M, q, z);
  EXPECT_DOUBLE_EQ(r.z_negativity, 0.5);
  EXPECT_DOUBLE_EQ(r.w_negativity, 1.5);
  EXPECT_FALSE(IsSolution(r));
  z << 1, 1;  // feasible (w = (0, 2)) but z2 w2 = 2
  r = ComputeResidual(M, q, z);
  EXPECT_EQ(r.z_negativity, 0.0);
  EXPECT_EQ(r.w_negativity, 0.0);
  EXPECT_DOUBLE_EQ(r.natural, 1.0);
  EXPECT_DOUBLE_EQ(r.complementarity, 2.0);
}

TEST(Residual, NonFiniteIsNeverASolution) {
  MatrixXd M = MatrixXd::Identity(1, 1);
  VectorXd q = VectorXd::Ones(1);
  VectorXd z(1);
  z << std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(IsSolution(ComputeResidual(M, q, z)));
}

// The check runs four rows at a time with a scalar tail: every part must see a violation in every
// row, whichever lane or the tail holds it.
TEST(Residual, SeesAViolationInEveryRowOfEverySize) {
  for (int n = 1; n <= 13; ++n) {
    const MatrixXd M = MatrixXd::Identity(n, n);
    for (int i = 0; i < n; ++i) {
      VectorXd q = VectorXd::Ones(n), z = VectorXd::Zero(n);
      z(i) = -0.5;  // w_i = 0.5: z negative, natural map 0.5, product 0.25
      Residual r = ComputeResidual(M, q, z);
      EXPECT_EQ(r.z_negativity, 0.5) << "n " << n << " row " << i;
      EXPECT_EQ(r.natural, 0.5) << "n " << n << " row " << i;
      EXPECT_EQ(r.complementarity, 0.25) << "n " << n << " row " << i;
      EXPECT_EQ(r.w_negativity, 0.0);
      q(i) = -0.25;  // z = 0: w_i = -0.25 alone violates
      r = ComputeResidual(M, q, VectorXd::Zero(n));
      EXPECT_EQ(r.w_negativity, 0.25) << "n " << n << " row " << i;
      z.setZero();
      z(i) = std::numeric_limits<double>::quiet_NaN();
      EXPECT_FALSE(ComputeResidual(M, q, z).finite) << "n " << n << " row " << i;
    }
  }
}

// z = (1e8, 1e8) with w = M z + q = 0 exactly: each row's products are 1e8 (1 + 2^-40) = 1e8 +
// 390625 2^-32 (59 significant bits, exact in long double) and -1e8, and q cancels their sum.
// In double the first product rounds to the 2^-26 grid near 1e8, 7.2e-9 off: a residual of
// 7.2e-9 that is only the roundoff of evaluating it, above the 1e-9 tolerance. The check sums
// such a w again in long double and sees the exact zero.
TEST(Residual, AnAnswerIsNotRefusedForTheRoundoffOfEvaluatingIt) {
  const double a = 1 + std::ldexp(1.0, -40);
  MatrixXd M(2, 2);
  M << a, -1, -1, a;
  VectorXd q = VectorXd::Constant(2, -390625 * std::ldexp(1.0, -32));
  const VectorXd z = VectorXd::Constant(2, 1e8);
  VectorXd w_double = M * z + q;  // what a double evaluation sees
  EXPECT_GT(w_double.cwiseAbs().maxCoeff(), 5 * kAcceptTolerance);
  const Residual r = ComputeResidual(M, q, z);
  EXPECT_EQ(r.Worst(), 0.0);
  EXPECT_TRUE(IsSolution(r));
  // A real violation well above that roundoff is still refused, with its value (long double
  // rounds at 1e8 to 7e-12).
  q(0) -= 5e-8;
  const Residual off = ComputeResidual(M, q, z);
  EXPECT_FALSE(IsSolution(off));
  EXPECT_NEAR(off.w_negativity, 5e-8, 1e-11);
}

// z* = (1 + 2^-60, 1) solves LCP(M, q) exactly with w = 0; z1 rounds to 1 in double, which leaves
// w1 = -2^-20 (1e-6 of the scale). Carried in two parts, 1 + 2^-60, it is checked as their sum
// (M z fits long double's 64 bits exactly here) and passes; the sum counts the low part at its
// value. (The one-part check of z = (1, 1) sums in double first, where q1 vanishes beside 2^40:
// the limit stated in residual.hpp.)
TEST(Residual, AnAnswerInTwoPartsIsCheckedAsTheirSum) {
  const double big = std::ldexp(1.0, 40);
  MatrixXd M(2, 2);
  M << big, -big, 0, 1;
  const VectorXd q = (VectorXd(2) << -std::ldexp(1.0, -20), -1).finished();
  const VectorXd z = VectorXd::Ones(2);
  VectorXd low = VectorXd::Zero(2);
  const Residual rounded = ComputeResidual(M, q, z, low);
  EXPECT_FALSE(IsSolution(rounded));
  EXPECT_EQ(rounded.w_negativity, std::ldexp(1.0, -20));
  low(0) = std::ldexp(1.0, -60);
  EXPECT_EQ(ComputeResidual(M, q, z, low).Worst(), 0.0);
  low(0) = std::ldexp(1.0, -59);  // w1 = +2^-20 at z1 = 1: refused
  const Residual off = ComputeResidual(M, q, z, low);
  EXPECT_FALSE(IsSolution(off));
  EXPECT_EQ(off.natural, std::ldexp(1.0, -20));
}

TEST(ValidateProblem, RejectsBadInputNamingIt) {
  const MatrixXd sq = MatrixXd::Identity(2, 2);
  const VectorXd q2 = VectorXd::Ones(2);
  auto message = [](const MatrixXd& M, const VectorXd& q) {
    try {
      ValidateProblem(M, q);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_NE(message(MatrixXd(2, 3), q2).find("square"), std::string::npos);
  EXPECT_NE(message(sq, VectorXd::Ones(3)).find("n = q.size() = 3"), std::string::npos);
  EXPECT_NE(message(MatrixXd(0, 0), VectorXd(0)).find("n >= 1"), std::string::npos);
  MatrixXd bad = sq;
  bad(1, 0) = std::numeric_limits<double>::infinity();
  EXPECT_NE(message(bad, q2).find("M(1,0)"), std::string::npos);
  VectorXd qn = q2;
  qn(1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message(sq, qn).find("q(1)"), std::string::npos);
}

}  // namespace
}  // namespace impactset::lcp
