// The chain's extended link (lcp/extended_lemke.hpp) on step LCPs of the random impact-problem
// family (bench/random_family.hpp) on which every earlier link of the chain failed (all but
// fail-101-8 still do; see below): each of its five passes solves some that the others do not,
// and nothing is accepted above the check.
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/lcp/extended_lemke.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/lcp/residual.hpp>
#include "step_lcp_files.hpp"

namespace impactset::lcp {
namespace {

using Lcp = StepLcpFile;

std::vector<Lcp> LoadHardLcps() { return LoadStepLcps("hard-step-lcps"); }

// Which pass solves each kept LCP (seed 1 of the family, k = 4, step LCPs of 28 to 70 rows;
// files named fail-<problem>-<sample>). fail-101-2 was lost by every pass before the
// quad-precision ones (the proximal link solves it too, tests/lcp/proximal_lemke_test.cpp).
const std::map<std::string, std::string>& ExpectedPass() {
  static const std::map<std::string, std::string> pass = {
      {"fail-105-5.txt", "in double on the equilibrated LCP"},
      {"fail-128-13.txt", "in double on the equilibrated LCP"},
      {"fail-101-10.txt", "in double on the equilibrated LCP"},
      {"fail-181-0.txt", "in long double on the equilibrated LCP"},
      {"fail-181-4.txt", "in long double on the equilibrated LCP"},
      {"fail-128-11.txt", "in double on the equilibrated LCP"},
      {"fail-101-1.txt", "in long double on the equilibrated LCP"},
      {"fail-101-15.txt", "in long double on the LCP as given"},
      {"fail-101-5.txt", "in long double on the LCP as given"},
      {"fail-101-8.txt", "in long double on the LCP as given"},
      {"fail-101-2.txt", "in quad precision on the LCP as given"},
      {"fail-188-3.txt", "in double on the equilibrated LCP"},
  };
  return pass;
}

TEST(ExtendedLemke, TheLinksBeforeTheProximalAndExtendedOnesFailTheKeptStepLcps) {
  for (const Lcp& lcp : LoadHardLcps()) {
    FallbackOptions without;
    without.use_proximal = false;
    without.use_extended = false;
    FallbackSolver chain(without);
    VectorXd z;
    const SolveInfo info = chain.Solve(lcp.M, lcp.q, &z);
    if (lcp.name == "fail-101-8.txt") {
      // Siconos' answer was refused for the roundoff of summing its w in double; evaluated as the
      // check now does where that sum cannot decide (residual.hpp), its residual passes.
      EXPECT_EQ(info.solver, SolverId::kSiconos) << lcp.name;
      continue;
    }
    EXPECT_NE(info.status, Status::kSolved) << lcp.name;
  }
}

TEST(ExtendedLemke, EachPassSolvesItsStepLcpsAndNothingIsAcceptedAboveTheCheck) {
  const std::vector<Lcp> lcps = LoadHardLcps();
  ASSERT_EQ(lcps.size(), ExpectedPass().size());
  for (const Lcp& lcp : lcps) {
    ExtendedLemkeSolver extended;
    VectorXd z;
    const SolveInfo info = extended.Solve(lcp.M, lcp.q, &z);
    const Residual r = ComputeResidual(lcp.M, lcp.q, z);
    const std::string& pass = ExpectedPass().at(lcp.name);
    if (pass.empty()) {
      EXPECT_NE(info.status, Status::kSolved) << lcp.name << ": " << info.message;
      EXPECT_FALSE(IsSolution(r)) << lcp.name;
      continue;
    }
    ASSERT_EQ(info.status, Status::kSolved) << lcp.name << ": " << info.message;
    EXPECT_EQ(info.message, "extended Lemke: solved " + pass) << lcp.name;
    EXPECT_TRUE(IsSolution(r)) << lcp.name << ": " << r.Worst();
    EXPECT_EQ(info.residual.Worst(), r.Worst()) << lcp.name;
    EXPECT_GE(z.minCoeff(), 0.0) << lcp.name;
  }
}

// Step LCPs of seed 7 of the family (k = 4, s7-k4-<problem>-<sample>, n = 45 and 49) that every
// other link and the long-double passes lose: Lemke's paths in quad precision solve them, one
// on the equilibrated LCP, one on the LCP as given.
TEST(ExtendedLemke, TheQuadPrecisionPassesSolveWhatEveryOtherPassLoses) {
  const std::vector<Lcp> lcps = LoadStepLcps("quad-step-lcps");
  ASSERT_EQ(lcps.size(), 2u);
  for (const Lcp& lcp : lcps) {
    FallbackOptions without;  // nor the second round, which solves them too
    without.extended.quad_precision = false;
    without.extended.further_covering_perturbations = {};
    FallbackSolver chain(without);
    VectorXd z;
    EXPECT_NE(chain.Solve(lcp.M, lcp.q, &z).status, Status::kSolved) << lcp.name;
    ExtendedLemkeSolver extended;
    const SolveInfo info = extended.Solve(lcp.M, lcp.q, &z);
    ASSERT_EQ(info.status, Status::kSolved) << lcp.name << ": " << info.message;
    const bool as_given = lcp.name == "s7-k4-919-9.txt";
    EXPECT_EQ(info.message,
              as_given ? "extended Lemke: solved in quad precision on the LCP as given"
                       : "extended Lemke: solved in quad precision on the equilibrated LCP")
        << lcp.name;
    const Residual r = ComputeResidual(lcp.M, lcp.q, z);
    EXPECT_TRUE(IsSolution(r)) << lcp.name << ": " << r.Worst();
    EXPECT_EQ(info.residual.Worst(), r.Worst()) << lcp.name;
    EXPECT_GE(z.minCoeff(), 0.0) << lcp.name;
  }
}

// Step LCPs of seed 7 of the family (k = 4, n = 70 and 49) whose exact solution no double vector
// meets the check with: the paths end on it (quad-precision residuals near 1e-26), but rounding
// z to double moves M z + q by 1e-9 to 1e-8 of the scale. Asked for, the answer comes in two
// parts; not asked for, no link solves them.
TEST(ExtendedLemke, AnAnswerNoDoubleVectorCarriesComesInTwoParts) {
  const std::map<std::string, std::string> pass = {
      {"s7-k4-543-16.txt", "in quad precision on the equilibrated LCP, in two parts"},
      {"s7-k4-919-16.txt", "in long double on the LCP as given, in two parts"}};
  const std::vector<Lcp> lcps = LoadStepLcps("two-part-step-lcps");
  ASSERT_EQ(lcps.size(), pass.size());
  for (const Lcp& lcp : lcps) {
    FallbackSolver chain;
    VectorXd z, low;
    EXPECT_NE(chain.Solve(lcp.M, lcp.q, &z).status, Status::kSolved) << lcp.name;
    EXPECT_TRUE(low.size() == 0);
    const SolveInfo info = chain.Solve(lcp.M, lcp.q, &z, &low, InputCheck::kValidate);
    ASSERT_EQ(info.status, Status::kSolved) << lcp.name << ": " << info.message;
    EXPECT_TRUE(info.low_part) << lcp.name;
    EXPECT_EQ(info.solver, SolverId::kExtended) << lcp.name;
    EXPECT_EQ(info.message, "extended Lemke: solved " + pass.at(lcp.name)) << lcp.name;
    EXPECT_EQ(chain.counters().two_part, 1) << lcp.name;
    ASSERT_EQ(low.size(), z.size());
    const Residual both = ComputeResidual(lcp.M, lcp.q, z, low);
    EXPECT_TRUE(IsSolution(both)) << lcp.name << ": " << both.Worst();
    EXPECT_EQ(info.residual.Worst(), both.Worst()) << lcp.name;
    EXPECT_FALSE(IsSolution(ComputeResidual(lcp.M, lcp.q, z))) << lcp.name;
    EXPECT_GE(z.minCoeff(), 0.0) << lcp.name;
    for (Eigen::Index j = 0; j < z.size(); ++j) {  // the rounding error of z: below its last bit
      EXPECT_LE(std::abs(low(j)), std::ldexp(std::abs(z(j)), -52)) << lcp.name << " " << j;
    }
  }
}

// A step LCP of seed 11 of the family (k = 4, problem 873: n = 8, seven contacts with dependent
// rows, mu = 1000; the LCP has 49 rows) on which no path of the first round ends on a solution
// (the best quad-precision iterate misses the check by a factor of two): a further covering
// vector's path in quad precision does, in two parts; without the second round nothing does.
TEST(ExtendedLemke, TheFurtherCoveringVectorsSolveWhatTheFirstRoundLoses) {
  const std::vector<Lcp> lcps = LoadStepLcps("further-path-step-lcps");
  ASSERT_EQ(lcps.size(), 1u);
  const Lcp& lcp = lcps.front();
  FallbackOptions first_round_only;
  first_round_only.extended.further_covering_perturbations = {};
  FallbackSolver without(first_round_only);
  VectorXd z, low;
  EXPECT_NE(without.Solve(lcp.M, lcp.q, &z, &low, InputCheck::kValidate).status, Status::kSolved);
  FallbackSolver chain;
  const SolveInfo info = chain.Solve(lcp.M, lcp.q, &z, &low, InputCheck::kValidate);
  ASSERT_EQ(info.status, Status::kSolved) << info.message;
  EXPECT_EQ(info.solver, SolverId::kExtended);
  EXPECT_EQ(info.message,
            "extended Lemke: solved in quad precision on the equilibrated LCP, in two parts");
  ASSERT_TRUE(info.low_part);
  const Residual r = ComputeResidual(lcp.M, lcp.q, z, low);
  EXPECT_TRUE(IsSolution(r)) << r.Worst();
  EXPECT_EQ(info.residual.Worst(), r.Worst());
  EXPECT_GE(z.minCoeff(), 0.0);
}

TEST(ExtendedLemke, ThePivotCapIsPerPath) {
  // fail-101-1 is solved after paths that end otherwise, 2261 pivots in all: a cap on the
  // total would have stopped it first.
  const std::vector<Lcp> lcps = LoadHardLcps();
  const auto it = std::find_if(lcps.begin(), lcps.end(),
                               [](const Lcp& l) { return l.name == "fail-101-1.txt"; });
  ASSERT_NE(it, lcps.end());
  ExtendedLemkeSolver extended;
  VectorXd z;
  const SolveInfo info = extended.Solve(it->M, it->q, &z);
  EXPECT_EQ(info.status, Status::kSolved) << info.message;
  EXPECT_GT(info.pivots, ExtendedLemkeOptions{}.max_pivots);
}

TEST(ExtendedLemke, BadOptionsNameTheirField) {
  auto message = [](ExtendedLemkeOptions o) -> std::string {
    try {
      ExtendedLemkeSolver s(o);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no exception";
  };
  EXPECT_NE(message({.max_pivots = 0}).find("max_pivots"), std::string::npos);
  EXPECT_NE(message({.refactor_every = 0}).find("refactor_every"), std::string::npos);
  EXPECT_NE(message({.covering_perturbations = {}}).find("covering_perturbations"),
            std::string::npos);
  EXPECT_NE(message({.covering_perturbations = {0.0, 11.0}}).find("covering_perturbations[1]"),
            std::string::npos);
  EXPECT_NE(
      message({.further_covering_perturbations = {-1.0}}).find("further_covering_perturbations[0]"),
      std::string::npos);
}

}  // namespace
}  // namespace impactset::lcp
