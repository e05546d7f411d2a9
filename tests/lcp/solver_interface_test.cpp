// What every solver promises through the common interface: bad input is an exception naming
// the problem (and never reaches Siconos), and the fallback chain counts honestly.
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include <impactset/lcp/fallback.hpp>

namespace impactset::lcp {
namespace {

// Through the plain Solve, or the InputCheck overload with kValidate: both check the input.
std::string Message(Solver& s, const MatrixXd& M, const VectorXd& q, bool overload = false) {
  VectorXd z;
  try {
    if (overload) {
      s.Solve(M, q, &z, InputCheck::kValidate);
    } else {
      s.Solve(M, q, &z);
    }
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

class EverySolver : public ::testing::TestWithParam<std::string> {};

TEST_P(EverySolver, BadInputIsAnExceptionNamingTheProblem) {
  const auto s = MakeSolver(GetParam());
  const MatrixXd I = MatrixXd::Identity(2, 2);
  const VectorXd q = -VectorXd::Ones(2);
  EXPECT_NE(Message(*s, MatrixXd::Ones(2, 3), q).find("square"), std::string::npos);
  EXPECT_NE(Message(*s, I, VectorXd::Ones(3)).find("q.size() = 3"), std::string::npos);
  EXPECT_NE(Message(*s, MatrixXd(0, 0), VectorXd(0)).find("n >= 1"), std::string::npos);
  MatrixXd nan = I;
  nan(0, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(Message(*s, nan, q).find("M(0,1)"), std::string::npos);
  VectorXd inf = q;
  inf(1) = -std::numeric_limits<double>::infinity();
  EXPECT_NE(Message(*s, I, inf).find("q(1)"), std::string::npos);
  EXPECT_NE(Message(*s, nan, q, /*overload=*/true).find("M(0,1)"), std::string::npos);
  EXPECT_NE(Message(*s, I, inf, /*overload=*/true).find("q(1)"), std::string::npos);
}

// Skipping the check changes nothing on valid input (Algorithm 1's step LCPs take this path).
TEST_P(EverySolver, CallerValidatedSolveGivesTheCheckedAnswer) {
  const auto s = MakeSolver(GetParam());
  MatrixXd M(3, 3);
  M << 2, 1, 0, 1, 2, 1, 0, 1, 2;
  const VectorXd q = (VectorXd(3) << -1, 0.5, -2).finished();
  VectorXd checked, skipped;
  const SolveInfo a = s->Solve(M, q, &checked);
  const SolveInfo b = s->Solve(M, q, &skipped, InputCheck::kCallerValidated);
  ASSERT_TRUE(a.ok()) << ToString(a.status);
  ASSERT_TRUE(b.ok()) << ToString(b.status);
  EXPECT_EQ(checked, skipped);
}

TEST_P(EverySolver, OneByOneNegativePivotIsNotASolution) {
  // Siconos' driver returns z = -q/M for n = 1 without checking M's sign:
  // M = -1, q = -1 gives z = -1. Our residual check must turn that into a failure status.
  const auto s = MakeSolver(GetParam());
  VectorXd z;
  const SolveInfo info = s->Solve(-MatrixXd::Identity(1, 1), -VectorXd::Ones(1), &z);
  EXPECT_FALSE(info.ok()) << ToString(info.status);
  EXPECT_FALSE(IsSolution(ComputeResidual(-MatrixXd::Identity(1, 1), -VectorXd::Ones(1), z)));
}

INSTANTIATE_TEST_SUITE_P(Names,
                         EverySolver,
                         ::testing::Values("native", "siconos", "enumeration", "chain"));

TEST(MakeSolver, UnknownNameListsTheChoices) {
  try {
    MakeSolver("path");
    FAIL();
  } catch (const std::invalid_argument& e) {
    // The message comes from the enum's one name table: it lists every name, with the field.
    EXPECT_NE(std::string(e.what()).find("lcp = path"), std::string::npos) << e.what();
    for (const std::string& name : EnumNameList<SolverKind>()) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << name;
    }
  }
}

TEST(FallbackSolver, CountsWhichLinkSolved) {
  FallbackSolver chain;
  VectorXd z;
  MatrixXd M(2, 2);
  M << 2, 1, 1, 2;
  VectorXd q(2);
  q << -1, -1;
  const SolveInfo ok = chain.Solve(M, q, &z);
  EXPECT_EQ(ok.solver, SolverId::kNative);
  EXPECT_EQ(ok.attempts, 1);
  // Infeasible: every link fails, the chain says so and counts one failure.
  const SolveInfo bad = chain.Solve(-MatrixXd::Identity(1, 1), -VectorXd::Ones(1), &z);
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.solver, SolverId::kNone);
  // native, three perturbed natives, Siconos, proximal, extended, enumeration
  EXPECT_EQ(bad.attempts, 8);
  EXPECT_EQ(chain.counters().solves, 2);
  EXPECT_EQ(chain.counters().SolvedBy(SolverId::kNative), 1);
  EXPECT_EQ(chain.counters().failures, 1);
}

TEST(FallbackOptions, BadPerturbationNamesTheField) {
  FallbackOptions o;
  o.native_alt_perturbations = {1.0, -2.0};
  try {
    o.Validate();
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("native_alt_perturbations[1] = -2"), std::string::npos);
  }
}

}  // namespace
}  // namespace impactset::lcp
