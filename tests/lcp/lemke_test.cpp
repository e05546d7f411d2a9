#include "lcp/lemke.hpp"

#include <gtest/gtest.h>

namespace impactset::lcp {
namespace {

TEST(Lemke, TrivialSolutionNeedsNoPivot) {
  LemkeSolver s;
  VectorXd z;
  const SolveInfo info = s.Solve(MatrixXd::Identity(3, 3), VectorXd::Ones(3), &z);
  EXPECT_TRUE(info.ok());
  EXPECT_EQ(info.pivots, 0);
  EXPECT_EQ(z, VectorXd::Zero(3));
}

TEST(Lemke, SolvesASmallPMatrixExactly) {
  MatrixXd M(2, 2);
  M << 2, 1, 1, 2;
  VectorXd q(2);
  q << -5, -6;  // interior solution z = M^-1 (-q) = (4/3, 7/3)
  LemkeSolver s;
  VectorXd z;
  const SolveInfo info = s.Solve(M, q, &z);
  ASSERT_TRUE(info.ok()) << info.message;
  EXPECT_NEAR(z(0), 4.0 / 3.0, 1e-14);
  EXPECT_NEAR(z(1), 7.0 / 3.0, 1e-14);
}

TEST(Lemke, ReportsRayOnInfeasibleProblem) {
  // w = -z - 1 < 0 for every z >= 0: infeasible, Lemke must end on a ray.
  MatrixXd M = -MatrixXd::Identity(1, 1);
  VectorXd q = -VectorXd::Ones(1);
  LemkeSolver s;
  VectorXd z;
  const SolveInfo info = s.Solve(M, q, &z);
  EXPECT_EQ(info.status, Status::kRayTermination);
  EXPECT_FALSE(IsSolution(info.residual));
}

TEST(LemkeOptions, ValidationNamesTheField) {
  LemkeOptions o;
  o.max_pivots = 0;
  try {
    o.Validate();
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("max_pivots = 0"), std::string::npos);
  }
}

}  // namespace
}  // namespace impactset::lcp
