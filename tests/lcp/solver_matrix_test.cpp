// The solver x problem matrix: every solver behind lcp::MakeSolver on every
// reference LCP in tests/data/lcp (written by scripts/make_reference_lcps.py; the format and the
// families are described in tests/data/lcp/README.md), plus lcp::EnumerateSolutions against the
// solution lists the script's own numpy enumeration oracle wrote into the files.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/lcp/enumerate.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/lcp/residual.hpp>
#include "reference_lcp.hpp"
#include "test_util.hpp"

namespace impactset::lcp {
namespace {

using testing::BankDir;
using testing::BankFileNames;
using testing::CompareMatrices;
using testing::LoadReferenceLcp;
using testing::MaxAbsOrOne;
using testing::ReferenceLcp;

// A unique solution (P-matrix files only) is compared with the file's vector to this tolerance,
// relative to max(1, ||z_ref||_inf): those files have cond_2(M) <= 1.8e6 (see their headers), so
// a backward-stable basis solve is within ~cond * eps = 4e-10; 1e-8 leaves a 25x margin.
constexpr double kUniqueSolutionTolerance = 1e-8;
// EnumerateSolutions (Eigen FullPivLU) and the numpy oracle (LAPACK LU) solve the same basis
// systems and differ by ~cond(M[S,S]) * eps: measured 7e-11 (relative) on ap_ramone, whose bases
// reach cond ~1e10 through mu = 1e5; 1e-8 leaves a 100x margin.
constexpr double kOracleMatchTolerance = 1e-8;

const std::vector<std::string>& SolverNames() {
  static const std::vector<std::string> names = {"native", "siconos", "enumeration", "chain"};
  return names;
}

std::string Describe(const Residual& r) {
  std::ostringstream os;
  os << "residual natural " << r.natural << ", z_neg " << r.z_negativity << ", w_neg "
     << r.w_negativity << ", compl " << r.complementarity;
  return os.str();
}

// Pairs (solver, file) that are known not to solve, with the status they end on and why. Each
// entry is checked: the test fails if the pair starts passing (then delete the entry) or fails
// differently.
struct ExpectedFailure {
  Status status;
  std::string_view reason;
};
const std::map<std::pair<std::string, std::string>, ExpectedFailure>& ExpectedFailures() {
  static const std::map<std::pair<std::string, std::string>, ExpectedFailure> list = {
      {{"enumeration", "routh_disk_stack_1"},
       {Status::kTooLarge, "n = 25 > EnumerationOptions::max_size = 20 (2^25 bases)"}},
      {{"enumeration", "routh_disk_stack_2"},
       {Status::kTooLarge, "n = 25 > EnumerationOptions::max_size = 20 (2^25 bases)"}},
      // Siconos' lexicographic Lemke ends on a secondary ray (after 8 and 11 pivots, residual
      // 0.64 and 0.11) on two AP-structured LCPs that our Lemke solves in 6 and 8 pivots.
      {{"siconos", "copositive_2"},
       {Status::kRayTermination, "Siconos Lemke ends on a secondary ray"}},
      {{"siconos", "copositive_4"},
       {Status::kRayTermination, "Siconos Lemke ends on a secondary ray"}},
  };
  return list;
}

class SolverMatrixTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(SolverMatrixTest, SolvesEveryLcpThatHasASolution) {
  const auto& [solver_name, file] = GetParam();
  const ReferenceLcp lcp = LoadReferenceLcp(file);
  const std::unique_ptr<Solver> solver = MakeSolver(solver_name);
  VectorXd z;
  const SolveInfo info = solver->Solve(lcp.M, lcp.q, &z);
  const Residual residual = ComputeResidual(lcp.M, lcp.q, z);
  const std::string context = std::string(ToString(info.status)) + " (" +
                              std::string(info.message) + "), " + Describe(residual);

  if (const auto it = ExpectedFailures().find({solver_name, file});
      it != ExpectedFailures().end()) {
    ASSERT_NE(info.status, Status::kSolved)
        << "listed as an expected failure but now solves: delete its ExpectedFailures() entry";
    ASSERT_EQ(info.status, it->second.status) << "fails differently than listed: " << context;
    GTEST_SKIP() << "expected failure: " << it->second.reason;
  }

  if (!lcp.HasSolution()) {
    EXPECT_NE(info.status, Status::kSolved) << "the LCP has no solution, but " << context;
    EXPECT_FALSE(IsSolution(residual)) << context;
    return;
  }
  ASSERT_EQ(info.status, Status::kSolved) << context;
  EXPECT_TRUE(IsSolution(residual)) << context;
  if (lcp.unique) {
    EXPECT_TRUE(CompareMatrices(z, lcp.solutions.front(),
                                kUniqueSolutionTolerance * MaxAbsOrOne(lcp.solutions.front())));
  }
}

std::string SolverFileName(
    const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& info) {
  return std::get<0>(info.param) + "__" + std::get<1>(info.param);
}

INSTANTIATE_TEST_SUITE_P(Bank,
                         SolverMatrixTest,
                         ::testing::Combine(::testing::ValuesIn(SolverNames()),
                                            ::testing::ValuesIn(BankFileNames())),
                         SolverFileName);

// lcp::EnumerateSolutions must find exactly the oracle's solutions: same count, each matched.
class EnumerationOracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(EnumerationOracleTest, FindsExactlyTheListedSolutions) {
  const ReferenceLcp lcp = LoadReferenceLcp(GetParam());
  if (!lcp.list_known) GTEST_SKIP() << "solutions unknown (n = " << lcp.q.size() << ")";
  const EnumerationResult result = EnumerateSolutions(lcp.M, lcp.q);
  EXPECT_EQ(result.status, lcp.solutions.empty() ? Status::kNoSolution : Status::kSolved);
  ASSERT_EQ(result.solutions.size(), lcp.solutions.size());
  std::vector<int> matched_by(result.solutions.size(), -1);  // one-to-one, not just "near some"
  for (size_t i = 0; i < lcp.solutions.size(); ++i) {
    size_t closest = 0;
    double distance = std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < result.solutions.size(); ++j) {
      const double d = (result.solutions[j] - lcp.solutions[i]).cwiseAbs().maxCoeff();
      if (d < distance) {
        closest = j;
        distance = d;
      }
    }
    EXPECT_TRUE(CompareMatrices(result.solutions[closest], lcp.solutions[i],
                                kOracleMatchTolerance * MaxAbsOrOne(lcp.solutions[i])))
        << "listed solution " << i << " vs the closest one EnumerateSolutions found";
    EXPECT_EQ(matched_by[closest], -1)
        << "listed solutions " << matched_by[closest] << " and " << i << " match the same one";
    matched_by[closest] = static_cast<int>(i);
  }
}

// Runs at test registration: a file that does not parse is kept, so that its test reports why.
std::vector<std::string> BankFilesWithKnownSolutions() {
  std::vector<std::string> out;
  for (const std::string& name : BankFileNames()) {
    try {
      if (!LoadReferenceLcp(name).list_known) continue;
    } catch (const std::exception&) {
    }
    out.push_back(name);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Bank,
                         EnumerationOracleTest,
                         ::testing::ValuesIn(BankFilesWithKnownSolutions()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

// The bank is read at all and holds every family (an empty or missing directory would otherwise
// leave the parameterized suites above with nothing to run).
TEST(ReferenceLcpBank, HoldsEveryFamily) {
  std::map<std::string, int> per_family;
  for (const std::string& name : BankFileNames()) ++per_family[LoadReferenceLcp(name).family];
  for (const char* family :
       {"psd", "pmatrix", "copositive", "degenerate", "infeasible", "ap", "routh"}) {
    EXPECT_GE(per_family[family], 1) << "no file of family " << family << " in " << BankDir();
  }
}

}  // namespace
}  // namespace impactset::lcp
