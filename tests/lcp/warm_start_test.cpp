#include <impactset/lcp/warm_start.hpp>

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include <impactset/lcp/lemke.hpp>
#include <impactset/lcp/residual.hpp>

namespace impactset::lcp {
namespace {

// A random symmetric positive definite n x n matrix: every LCP(M, q) has one solution.
MatrixXd RandomSpd(int n, std::mt19937_64* rng) {
  std::normal_distribution<double> g;
  MatrixXd A(n, n);
  for (int i = 0; i < A.size(); ++i) A.data()[i] = g(*rng);
  return A * A.transpose() + 0.1 * MatrixXd::Identity(n, n);
}

VectorXd RandomVector(int n, std::mt19937_64* rng) {
  std::normal_distribution<double> g;
  VectorXd q(n);
  for (int i = 0; i < n; ++i) q(i) = g(*rng);
  return q;
}

// Well-solved SPD LCPs land near roundoff (lemke.hpp's kRestoreAbove); a basis re-solve with
// refinement must do at least as well.
constexpr double kSolvedTolerance = 1e-12;

TEST(KnownBasis, LemkesFinalBasisGivesItsAnswerBack) {
  std::mt19937_64 rng(7);
  LemkeSolver lemke;
  KnownBasis known;
  std::vector<int> basis;
  VectorXd z, zb;
  KnownBasis::Workspace work;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 2 + trial % 12;
    const MatrixXd M = RandomSpd(n, &rng);
    const VectorXd q = RandomVector(n, &rng);
    ASSERT_TRUE(lemke.Solve(M, q, &z).ok());
    ASSERT_TRUE(lemke.FinalBasis(&basis));
    ASSERT_TRUE(known.Factor(M, basis));
    const Residual r = known.Try(M, q, &zb, 1e-9, kRestoreAbove, &work);
    ASSERT_TRUE(IsSolution(r, kSolvedTolerance)) << "trial " << trial << ": " << r.Worst();
    EXPECT_LE((zb - z).cwiseAbs().maxCoeff(), 1e-9 * std::max(1.0, z.cwiseAbs().maxCoeff()));
  }
}
// A basis is a claim about which of w_i, z_i are zero: on a q where the solution has another
// pattern it must be refused, not return a non-solution.
TEST(KnownBasis, RefusesAQWhoseSolutionHasAnotherPattern) {
  std::mt19937_64 rng(11);
  LemkeSolver lemke;
  KnownBasis known;
  KnownBasis::Workspace work;
  std::vector<int> basis;
  VectorXd z, zb;
  int refused = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 3 + trial % 8;
    const MatrixXd M = RandomSpd(n, &rng);
    const VectorXd q = RandomVector(n, &rng);
    ASSERT_TRUE(lemke.Solve(M, q, &z).ok());
    ASSERT_TRUE(lemke.FinalBasis(&basis));
    ASSERT_TRUE(known.Factor(M, basis));
    const VectorXd q2 = RandomVector(n, &rng);
    ASSERT_TRUE(lemke.Solve(M, q2, &z).ok());
    const Residual r = known.Try(M, q2, &zb, 1e-9, kRestoreAbove, &work);
    if (IsSolution(r)) {  // then it is the (unique) solution
      EXPECT_LE((zb - z).cwiseAbs().maxCoeff(), 1e-9 * std::max(1.0, z.cwiseAbs().maxCoeff()));
    } else {
      ++refused;
    }
  }
  EXPECT_GT(refused, 50);  // random q mostly have other patterns
}

TEST(KnownBasis, FactorRefusesASingularBlock) {
  MatrixXd M = MatrixXd::Ones(3, 3);  // every 2 x 2 principal block is singular
  KnownBasis known;
  EXPECT_TRUE(known.Factor(M, std::vector<int>{1}));
  EXPECT_FALSE(known.Factor(M, std::vector<int>{0, 2}));
  EXPECT_TRUE(known.empty());
}

}  // namespace
}  // namespace impactset::lcp
