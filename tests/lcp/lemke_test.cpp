#include <impactset/lcp/lemke.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <impactset/lcp/residual.hpp>
#include "reference_lcp.hpp"
#include "test_util.hpp"

namespace impactset::lcp {
namespace {

using testing::CompareMatrices;
using testing::LoadReferenceLcp;
using testing::MaxAbsOrOne;
using testing::ReferenceLcp;

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

// The path runs on columns padded to a multiple of four rows, with a fixed-length loop up to 32
// rows and a run-time one above: every size, in an order that makes one solver shrink and grow
// its workspace, must reach the unique solution of a P-matrix LCP, with d = 1 and drawn d alike.
TEST(Lemke, EverySizeReachesTheUniqueSolutionOfAPMatrixLcp) {
  // Both paths end on the one solution; they differ by roundoff of well-conditioned data.
  constexpr double kAgreement = 1e-10;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  std::vector<int> sizes(40);
  std::iota(sizes.begin(), sizes.end(), 1);
  std::shuffle(sizes.begin(), sizes.end(), rng);
  LemkeSolver solver, drawn;
  for (int n : sizes) {
    MatrixXd A(n, n);
    for (auto& x : A.reshaped()) x = uni(rng);
    const MatrixXd M = A * A.transpose() + n * MatrixXd::Identity(n, n);  // SPD: a P-matrix
    VectorXd q(n), d(n);
    for (int i = 0; i < n; ++i) {
      q(i) = 3 * uni(rng) - 1;  // mostly negative: most rows end up basic
      d(i) = std::exp(4 * uni(rng));
    }
    q(n / 2) = -1;  // at least one row must pivot
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    VectorXd z1, z2;
    const SolveInfo a = solver.Solve(M, q, &z1);
    const SolveInfo b = drawn.SolveWithCovering(M, q, d, &z2, &order);
    ASSERT_TRUE(a.ok()) << "n " << n << ": " << a.message;
    ASSERT_TRUE(b.ok()) << "n " << n << ": " << b.message;
    EXPECT_LE(a.residual.Worst(), 1e-12) << "n " << n;
    EXPECT_LE((z1 - z2).cwiseAbs().maxCoeff(), kAgreement * MaxAbsOrOne(z1)) << "n " << n;
    EXPECT_GT((z1.array() > 0).count(), 0) << "n " << n;  // not the trivial solution
  }
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

// ---------------------------------------------------------------------------------------------
// Drawn covering vectors and lexicographic orders: what Algorithm 1's `random` selection uses
// (impact/algorithm1.cpp), on reference LCPs with several solutions (tests/data/lcp).

// A Lemke answer is matched to a listed solution to this tolerance, relative to max(1, |z|_inf):
// both are basis solves on O(1) data of these files (cond <= 1e10 on the RAMone step LCPs).
constexpr double kListedSolutionTolerance = 1e-8;

// Index of the listed solution within tolerance of z, or -1.
int ListedSolution(const ReferenceLcp& lcp, const VectorXd& z) {
  for (size_t i = 0; i < lcp.solutions.size(); ++i) {
    const VectorXd& s = lcp.solutions[i];
    if (CompareMatrices(z, s, kListedSolutionTolerance * MaxAbsOrOne(s)))
      return static_cast<int>(i);
  }
  return -1;
}

// As Algorithm 1 draws them: covering entries log-uniform in [e^-5, e^5], a uniform permutation.
VectorXd DrawCovering(Eigen::Index n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0, 1);
  VectorXd d(n);
  for (Eigen::Index i = 0; i < n; ++i) d(i) = std::exp(10 * unit(rng) - 5);
  return d;
}
std::vector<int> DrawOrder(Eigen::Index n, std::mt19937_64& rng) {
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}
std::vector<int> Reversed(Eigen::Index n) {
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.rbegin(), order.rend(), 0);
  return order;
}

// Each drawn (covering, order) pair ends on a listed solution that passes the residual check,
// and the draws reach several of them: the covering vector and the order steer the pivot path.
// RAMone's step LCP (mu = 1e5) also has draws whose path ends on a ray: those must come back as
// a failure status, never as an accepted answer (measured 10 of 200 here).
TEST(LemkeCovering, DrawnCoveringVectorsReachSeveralListedSolutions) {
  constexpr int kDraws = 200;
  struct Case {
    const char* file;
    size_t min_reached;  // distinct listed solutions reached (measured 5, 11, 2, 4, 6, 6)
    int max_failures;
  };
  for (const Case c : {Case{"degenerate_3", 4, 0}, Case{"psd_3", 8, 0}, Case{"copositive_1", 2, 0},
                       Case{"routh_compass_gait_1", 3, 0}, Case{"routh_rocking_block_3", 4, 0},
                       Case{"routh_ramone_1", 4, kDraws / 10}}) {
    SCOPED_TRACE(c.file);
    const ReferenceLcp lcp = LoadReferenceLcp(c.file);
    ASSERT_TRUE(lcp.list_known);
    ASSERT_GE(lcp.solutions.size(), c.min_reached);
    std::mt19937_64 rng(2024);
    LemkeSolver solver;
    std::set<int> reached;
    int failures = 0;
    for (int t = 0; t < kDraws; ++t) {
      const VectorXd covering = DrawCovering(lcp.q.size(), rng);
      const std::vector<int> order = DrawOrder(lcp.q.size(), rng);
      VectorXd z;
      const SolveInfo info = solver.SolveWithCovering(lcp.M, lcp.q, covering, &z, &order);
      const bool passes = IsSolution(ComputeResidual(lcp.M, lcp.q, z));
      if (!info.ok()) {
        ++failures;
        EXPECT_FALSE(passes) << "draw " << t << ": a solution reported as "
                             << ToString(info.status);
        continue;
      }
      EXPECT_TRUE(passes) << "draw " << t;
      const int k = ListedSolution(lcp, z);
      EXPECT_GE(k, 0) << "draw " << t << ": not a listed solution";
      reached.insert(k);
    }
    reached.erase(-1);
    EXPECT_GE(reached.size(), c.min_reached);
    EXPECT_LE(failures, c.max_failures);
  }
}

// The answer is a function of (M, q, covering, order) alone: bitwise the same from a fresh solver,
// from the same solver again, and after the solver has worked on another problem of another size.
TEST(LemkeCovering, SameInputsGiveBitwiseTheSameAnswer) {
  const ReferenceLcp lcp = LoadReferenceLcp("routh_compass_gait_1");
  const ReferenceLcp other = LoadReferenceLcp("degenerate_3");
  std::mt19937_64 rng(99);
  for (int t = 0; t < 20; ++t) {
    const VectorXd covering = DrawCovering(lcp.q.size(), rng);
    const std::vector<int> order = DrawOrder(lcp.q.size(), rng);
    LemkeSolver a, b;
    VectorXd za, zb, za2, scratch;
    const SolveInfo ia = a.SolveWithCovering(lcp.M, lcp.q, covering, &za, &order);
    const std::vector<int> other_order = Reversed(other.q.size());
    b.SolveWithCovering(other.M, other.q, VectorXd::Ones(other.q.size()), &scratch, &other_order);
    b.Solve(lcp.M, lcp.q, &scratch);
    const SolveInfo ib = b.SolveWithCovering(lcp.M, lcp.q, covering, &zb, &order);
    a.SolveWithCovering(lcp.M, lcp.q, covering, &za2, &order);
    ASSERT_TRUE(ia.ok()) << "draw " << t;
    EXPECT_EQ(za, zb) << "draw " << t;
    EXPECT_EQ(za, za2) << "draw " << t;
    EXPECT_EQ(ia.pivots, ib.pivots) << "draw " << t;
  }
}

// Covering vector 1 with the order 0, 1, ... is the classical Lemke of Solve, bit for bit.
TEST(LemkeCovering, UnitCoveringInNaturalOrderIsSolve) {
  for (const char* file : {"degenerate_4", "routh_rocking_block_1", "psd_3"}) {
    const ReferenceLcp lcp = LoadReferenceLcp(file);
    std::vector<int> natural(static_cast<size_t>(lcp.q.size()));
    std::iota(natural.begin(), natural.end(), 0);
    LemkeSolver a, b;
    VectorXd za, zb;
    ASSERT_TRUE(a.Solve(lcp.M, lcp.q, &za).ok()) << file;
    ASSERT_TRUE(b.SolveWithCovering(lcp.M, lcp.q, VectorXd::Ones(lcp.q.size()), &zb, &natural).ok())
        << file;
    EXPECT_EQ(za, zb) << file;
  }
}

// degenerate_4: M = diag([[1, 1], [1, 1]], [[2, 1], [1, 2]]), q = (-1, -1, 0, 0), solutions e_0
// and e_1. With d = 1 the first ratio test ties rows 0 and 1 (q_i / d_i = -1); the
// lexicographic rule compares the rows of B^-1 = I column by column in the given order: order
// 0, 1, ... keeps row 1 (column 0 reads 1 and 0), so w_1 leaves, z_1 enters and the path ends on
// e_1; the reversed order reaches column 1 first, keeps row 0 and ends on e_0. A covering vector
// breaks the tie before the order does: the row with the smaller q_i / d_i leaves.
TEST(LemkeCovering, OrderBreaksTiesAndCoveringVectorPicksTheLeavingRow) {
  const ReferenceLcp lcp = LoadReferenceLcp("degenerate_4");
  const VectorXd e0 = VectorXd::Unit(4, 0), e1 = VectorXd::Unit(4, 1);
  const VectorXd ones = VectorXd::Ones(4);
  std::vector<int> natural(4);
  std::iota(natural.begin(), natural.end(), 0);
  const std::vector<int> reversed = Reversed(4);
  LemkeSolver solver;
  VectorXd z;
  ASSERT_TRUE(solver.SolveWithCovering(lcp.M, lcp.q, ones, &z, &natural).ok());
  EXPECT_EQ(z, e1);
  ASSERT_TRUE(solver.SolveWithCovering(lcp.M, lcp.q, ones, &z, &reversed).ok());
  EXPECT_EQ(z, e0);
  const VectorXd favour_0 = (VectorXd(4) << 1, 2, 1, 1).finished();  // q / d = (-1, -0.5, 0, 0)
  const VectorXd favour_1 = (VectorXd(4) << 2, 1, 1, 1).finished();
  for (const std::vector<int>& order : {natural, reversed}) {
    ASSERT_TRUE(solver.SolveWithCovering(lcp.M, lcp.q, favour_0, &z, &order).ok());
    EXPECT_EQ(z, e0);
    ASSERT_TRUE(solver.SolveWithCovering(lcp.M, lcp.q, favour_1, &z, &order).ok());
    EXPECT_EQ(z, e1);
  }
  // The same holds on a real step LCP: the rocking block's first Routh step, where the order alone
  // (d = 1) moves the answer between two of its six solutions.
  const ReferenceLcp step = LoadReferenceLcp("routh_rocking_block_1");
  std::vector<int> step_natural(static_cast<size_t>(step.q.size()));
  std::iota(step_natural.begin(), step_natural.end(), 0);
  VectorXd za, zb;
  const VectorXd step_ones = VectorXd::Ones(step.q.size());
  const std::vector<int> step_reversed = Reversed(step.q.size());
  ASSERT_TRUE(solver.SolveWithCovering(step.M, step.q, step_ones, &za, &step_natural).ok());
  ASSERT_TRUE(solver.SolveWithCovering(step.M, step.q, step_ones, &zb, &step_reversed).ok());
  const int ka = ListedSolution(step, za), kb = ListedSolution(step, zb);
  EXPECT_GE(ka, 0);
  EXPECT_GE(kb, 0);
  EXPECT_NE(ka, kb);
}

// Without an order, SolveWithCovering uses 0, 1, ... (the documented default), not the order of
// the solver's previous call: on degenerate_4 with d = 1 the natural order ends on e_1 and the
// reversed order on e_0, so a solve after a reversed-order solve must still end on e_1.
TEST(LemkeCovering, NoOrderMeansNaturalOrderNotThePreviousCallsOrder) {
  const ReferenceLcp lcp = LoadReferenceLcp("degenerate_4");
  const VectorXd ones = VectorXd::Ones(4);
  LemkeSolver solver;
  VectorXd z;
  ASSERT_TRUE(solver.SolveWithCovering(lcp.M, lcp.q, ones, &z).ok());
  EXPECT_EQ(z, VectorXd::Unit(4, 1));
  const std::vector<int> reversed = Reversed(4);
  ASSERT_TRUE(solver.SolveWithCovering(lcp.M, lcp.q, ones, &z, &reversed).ok());
  ASSERT_EQ(z, VectorXd::Unit(4, 0));
  ASSERT_TRUE(solver.SolveWithCovering(lcp.M, lcp.q, ones, &z).ok());
  EXPECT_EQ(z, VectorXd::Unit(4, 1));
}

// The fast path for callers that validated their inputs gives bit-identical answers.
TEST(LemkeCovering, CallerValidatedInputsGiveTheSameAnswers) {
  const ReferenceLcp step = LoadReferenceLcp("routh_rocking_block_1");
  const VectorXd ones = VectorXd::Ones(step.q.size());
  const std::vector<int> order = Reversed(step.q.size());
  LemkeSolver a, b;
  VectorXd za, zb;
  ASSERT_TRUE(a.Solve(step.M, step.q, &za).ok());
  ASSERT_TRUE(b.Solve(step.M, step.q, &zb, InputCheck::kCallerValidated).ok());
  EXPECT_EQ(za, zb);
  ASSERT_TRUE(a.SolveWithCovering(step.M, step.q, ones, &za, &order).ok());
  ASSERT_TRUE(
      b.SolveWithCovering(step.M, step.q, ones, &zb, &order, InputCheck::kCallerValidated).ok());
  EXPECT_EQ(za, zb);
}

TEST(LemkeCovering, RejectsBadCoveringAndOrderNamingThem) {
  const ReferenceLcp lcp = LoadReferenceLcp("degenerate_4");
  LemkeSolver solver;
  VectorXd z;
  const VectorXd ones = VectorXd::Ones(4);
  EXPECT_TRUE(testing::ThrowsNaming(
      [&] { solver.SolveWithCovering(lcp.M, lcp.q, (VectorXd(4) << 1, 0, 1, 1).finished(), &z); },
      "covering"));
  EXPECT_TRUE(testing::ThrowsNaming(
      [&] { solver.SolveWithCovering(lcp.M, lcp.q, VectorXd::Ones(3), &z); }, "covering.size()"));
  const std::vector<int> repeated = {0, 1, 1, 3}, short_order = {0, 1, 2};
  EXPECT_TRUE(testing::ThrowsNaming(
      [&] { solver.SolveWithCovering(lcp.M, lcp.q, ones, &z, &repeated); }, "lex_order"));
  EXPECT_TRUE(testing::ThrowsNaming(
      [&] { solver.SolveWithCovering(lcp.M, lcp.q, ones, &z, &short_order); }, "lex_order"));
}

}  // namespace
}  // namespace impactset::lcp
