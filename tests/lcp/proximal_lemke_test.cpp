// The chain's proximal link (lcp/proximal_lemke.hpp) on step LCPs of the random impact-problem
// family (bench/random_family.hpp) that every other link of the chain loses, and on the kept
// hard ones: each is solved, and nothing is accepted above the check.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/lcp/fallback.hpp>
#include <impactset/lcp/lemke.hpp>
#include <impactset/lcp/proximal_lemke.hpp>
#include <impactset/lcp/residual.hpp>
#include "step_lcp_files.hpp"

namespace impactset::lcp {
namespace {

// tests/data/proximal-step-lcps/s<seed>-k<k>-<problem>-<sample>.txt: the step LCP on which a
// sample of the random family ended in lcp_failure before this link existed (and before the
// extended link's quad-precision passes and second round, which come after it and solve them
// too).
std::vector<StepLcpFile> ChainExhausted() { return LoadStepLcps("proximal-step-lcps"); }

void ExpectAccepted(const StepLcpFile& lcp, const SolveInfo& info, const VectorXd& z) {
  ASSERT_EQ(info.status, Status::kSolved) << lcp.name << ": " << info.message;
  const Residual r = ComputeResidual(lcp.M, lcp.q, z);
  EXPECT_TRUE(IsSolution(r)) << lcp.name << ": " << r.Worst();
  EXPECT_EQ(info.residual.Worst(), r.Worst()) << lcp.name;
  EXPECT_GE(z.minCoeff(), 0.0) << lcp.name;
}

TEST(ProximalLemke, EveryOtherLinkFailsTheKeptStepLcpsAndTheChainSolvesThemWithIt) {
  const std::vector<StepLcpFile> lcps = ChainExhausted();
  ASSERT_EQ(lcps.size(), 5u);
  for (const StepLcpFile& lcp : lcps) {
    FallbackOptions no_proximal;
    no_proximal.use_proximal = false;
    // The extended link's quad passes and its second round, after this link, solve them too.
    no_proximal.extended.quad_precision = false;
    no_proximal.extended.further_covering_perturbations = {};
    FallbackSolver without(no_proximal);
    VectorXd z;
    EXPECT_NE(without.Solve(lcp.M, lcp.q, &z).status, Status::kSolved) << lcp.name;
    FallbackSolver chain;
    const SolveInfo info = chain.Solve(lcp.M, lcp.q, &z);
    EXPECT_EQ(info.solver, SolverId::kProximal) << lcp.name;
    ExpectAccepted(lcp, info, z);
    EXPECT_EQ(chain.counters().SolvedBy(SolverId::kProximal), 1) << lcp.name;
  }
}

TEST(ProximalLemke, SolvesEveryHardStepLcpTheExtendedLinkIsTestedOn) {
  // Including fail-101-2, which only the extended link's quad-precision passes solve too.
  for (const StepLcpFile& lcp : LoadStepLcps("hard-step-lcps")) {
    ProximalLemkeSolver proximal;
    VectorXd z;
    ExpectAccepted(lcp, proximal.Solve(lcp.M, lcp.q, &z), z);
  }
}

// Which round and which inner tolerance each kept LCP needs: s7-k4-408-19 is solved only on the
// equilibrated LCP, s1-k4-101-20, s1-k4-316-30 and s1-k8-496-2 only with the inner zero
// tolerance 1e-16.
TEST(ProximalLemke, EachRoundAndInnerToleranceSolvesOneTheOthersDoNot) {
  for (const StepLcpFile& lcp : ChainExhausted()) {
    ProximalLemkeSolver proximal;
    VectorXd z;
    const SolveInfo info = proximal.Solve(lcp.M, lcp.q, &z);
    ExpectAccepted(lcp, info, z);
    const bool equilibrated = lcp.name == "s7-k4-408-19.txt";
    EXPECT_EQ(info.message, equilibrated ? "proximal Lemke: solved on the equilibrated LCP"
                                         : "proximal Lemke: solved on the LCP as given")
        << lcp.name;
    ProximalLemkeSolver coarse({.zero_tolerances = {1e-11}});
    const bool fine_needed = lcp.name == "s1-k4-316-30.txt" || lcp.name == "s1-k8-496-2.txt" ||
                             lcp.name == "s1-k4-101-20.txt";
    EXPECT_EQ(coarse.Solve(lcp.M, lcp.q, &z).status == Status::kSolved, !fine_needed) << lcp.name;
  }
}

TEST(ProximalLemke, AgreesWithLemkeWhereTheSolutionIsUnique) {
  // M symmetric positive definite: LCP(M, q) has exactly one solution, which every fixed point of
  // the proximal steps must be. Tolerance: both answers pass the 1e-9 check on O(1) data.
  constexpr double kAgreement = 1e-9;
  MatrixXd A(4, 4);
  A << 2, -1, 0.5, 0, -1, 3, 0, 1, 0.5, 0, 4, -1, 0, 1, -1, 2.5;
  const MatrixXd M = A * A.transpose();
  VectorXd q(4);
  q << -1, 2, -3, 0.5;
  VectorXd expected, z;
  ASSERT_TRUE(LemkeSolver().Solve(M, q, &expected).ok());
  ProximalLemkeSolver proximal;
  const SolveInfo info = proximal.Solve(M, q, &z);
  ASSERT_TRUE(info.ok()) << info.message;
  EXPECT_LE((z - expected).cwiseAbs().maxCoeff(), kAgreement);
  EXPECT_EQ(info.solver, SolverId::kProximal);
}

TEST(ProximalLemke, ATrivialProblemIsZero) {
  ProximalLemkeSolver proximal;
  VectorXd z;
  const SolveInfo info = proximal.Solve(MatrixXd::Identity(3, 3), VectorXd::Ones(3), &z);
  EXPECT_TRUE(info.ok());
  EXPECT_EQ(z, VectorXd::Zero(3));
}

TEST(ProximalLemke, BadOptionsNameTheirField) {
  auto message = [](ProximalLemkeOptions o) -> std::string {
    try {
      ProximalLemkeSolver s(o);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no exception";
  };
  EXPECT_NE(message({.weights = {}}).find("weights"), std::string::npos);
  EXPECT_NE(message({.weights = {1e-8, 0.5}}).find("weights[1] = 0.5"), std::string::npos);
  EXPECT_NE(message({.max_steps = 0}).find("max_steps"), std::string::npos);
  EXPECT_NE(message({.zero_tolerances = {0.0}}).find("zero_tolerances[0]"), std::string::npos);
  EXPECT_NE(message({.accept_tolerance = 0}).find("accept_tolerance"), std::string::npos);
  FallbackOptions chain;
  chain.proximal.max_steps = -1;
  EXPECT_THROW(FallbackSolver{chain}, std::invalid_argument);
}

}  // namespace
}  // namespace impactset::lcp
