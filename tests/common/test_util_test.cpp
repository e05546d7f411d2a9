// The shared comparison every test relies on: it must fail on every kind of difference.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace impactset::testing {
namespace {

TEST(CompareMatrices, PassesWithinTheToleranceAndOnExactEquality) {
  const Eigen::Vector3d a(1, 2, 3);
  EXPECT_TRUE(CompareMatrices(a, a, 0));
  EXPECT_TRUE(CompareMatrices(a, Eigen::Vector3d(1, 2, 3 + 1e-10), 1e-9));
  EXPECT_TRUE(CompareMatrices(MatrixXd(0, 2), MatrixXd(0, 2), 0));
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(CompareMatrices(Eigen::Vector2d(inf, 0), Eigen::Vector2d(inf, 0), 0));
}

TEST(CompareMatrices, FailsOnShapeNaNAndTheWorstEntryBeyondTolerance) {
  const ::testing::AssertionResult shape =
      CompareMatrices(MatrixXd::Zero(2, 3), MatrixXd::Zero(3, 2), 1.0);
  EXPECT_FALSE(shape);
  EXPECT_NE(std::string(shape.message()).find("2x3"), std::string::npos) << shape.message();
  EXPECT_FALSE(CompareMatrices(VectorXd::Zero(2), VectorXd::Zero(3), 1.0));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(CompareMatrices(Eigen::Vector2d(0, nan), Eigen::Vector2d(0, nan), 1.0));
  Eigen::Matrix2d expected = Eigen::Matrix2d::Zero(), actual = expected;
  actual(0, 1) = 0.5;
  actual(1, 0) = 2.0;  // the worst entry
  const ::testing::AssertionResult off = CompareMatrices(actual, expected, 0.1);
  EXPECT_FALSE(off);
  EXPECT_NE(std::string(off.message()).find("at (1, 0)"), std::string::npos) << off.message();
  EXPECT_TRUE(CompareMatrices(actual, expected, 2.0));
}

TEST(MaxAbsOrOne, NeverBelowOne) {
  EXPECT_EQ(MaxAbsOrOne(Eigen::Vector2d(0.1, -0.2)), 1.0);
  EXPECT_EQ(MaxAbsOrOne(Eigen::Vector2d(0.1, -20)), 20.0);
  EXPECT_EQ(MaxAbsOrOne(VectorXd(0)), 1.0);
}

}  // namespace
}  // namespace impactset::testing
