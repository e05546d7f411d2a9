// BatchedLemkeSolver promises each lane LemkeSolver::SolveWithCovering's answer bit for bit, on
// any inputs and whatever runs in the other lanes. Checked on the reference bank and the hard
// step LCPs, each with right-hand sides drawn around its own (degenerate zeros kept), drawn
// covering vectors and column orders, lanes refilled as they finish in a shuffled order.
#include <impactset/lcp/batched_lemke.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/lcp/lemke.hpp>
#include "reference_lcp.hpp"

namespace impactset::lcp {
namespace {

constexpr int kLanes = BatchedLemkeSolver::kLanes;

struct Job {
  VectorXd q, covering;
  std::vector<int> order;
};

bool SameBits(const VectorXd& a, const VectorXd& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Right-hand sides around q: the bank's own, then each entry scaled by a factor in [0.5, 1.5]
// (zeros stay zero, so degenerate ties survive), a third of them with a random sign flipped, and
// one q >= 0 (the trivial answer).
std::vector<Job> DrawJobs(const VectorXd& q, int count, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0, 1);
  const Eigen::Index n = q.size();
  std::vector<Job> jobs;
  for (int j = 0; j < count; ++j) {
    Job job;
    job.q = q;
    if (j > 0) {
      for (Eigen::Index i = 0; i < n; ++i) job.q(i) *= 0.5 + unit(rng);
    }
    if (j % 3 == 2) job.q(static_cast<Eigen::Index>(unit(rng) * n)) *= -1;
    if (j == count - 1) job.q = job.q.cwiseAbs();
    job.covering.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) job.covering(i) = std::exp(10 * unit(rng) - 5);
    job.order.resize(static_cast<size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) job.order[static_cast<size_t>(i)] = static_cast<int>(i);
    if (j % 2 == 1) std::shuffle(job.order.begin(), job.order.end(), rng);
    jobs.push_back(std::move(job));
  }
  return jobs;
}

// Solves every job through the lanes, each lane refilled with the next job when it finishes,
// and compares each answer with LemkeSolver's on the same inputs. Returns the jobs that differ.
int CompareWithLemke(const std::string& name, const MatrixXd& M, const std::vector<Job>& jobs) {
  LemkeSolver single;
  BatchedLemkeSolver batched;
  batched.SetMatrix(M);
  std::vector<int> job_of_lane(kLanes, -1);
  size_t next = 0;
  int differ = 0;
  auto start = [&](int l) {
    if (next == jobs.size()) return;
    const Job& job = jobs[next];
    job_of_lane[static_cast<size_t>(l)] = static_cast<int>(next++);
    batched.Start(l, job.q, job.covering, &job.order);
  };
  for (int l = kLanes - 1; l >= 0; --l) start(l);  // lanes filled out of order
  VectorXd z, expected;
  while (const unsigned done = batched.Advance()) {
    for (int l = 0; l < kLanes; ++l) {
      if (!(done >> l & 1U)) continue;
      const int j = job_of_lane[static_cast<size_t>(l)];
      const SolveInfo got = batched.Finish(l, &z);
      const Job& job = jobs[static_cast<size_t>(j)];
      const SolveInfo want =
          single.SolveWithCovering(M, job.q, job.covering, &expected, &job.order);
      const bool same =
          got.status == want.status && got.pivots == want.pivots && got.solver == want.solver &&
          got.attempts == want.attempts && got.message == want.message &&
          SameBits(got.residual.Worst(), want.residual.Worst()) && SameBits(z, expected);
      if (!same) {
        ++differ;
        ADD_FAILURE() << name << " job " << j << " lane " << l << ": " << got.message << " ("
                      << got.pivots << " pivots) against " << want.message << " (" << want.pivots
                      << " pivots), |dz| "
                      << (z.size() == expected.size() ? (z - expected).cwiseAbs().maxCoeff()
                                                      : -1.0);
      }
      start(l);
    }
  }
  for (int l = 0; l < kLanes; ++l) EXPECT_TRUE(batched.Idle(l)) << name;
  EXPECT_EQ(next, jobs.size()) << name;
  return differ;
}

TEST(BatchedLemke, EveryLaneIsLemkeBitForBitOnTheReferenceBank) {
  std::mt19937_64 rng(20261127);
  int solves = 0;
  for (const std::string& name : testing::BankFileNames()) {
    const testing::ReferenceLcp lcp = testing::LoadReferenceLcp(name);
    const std::vector<Job> jobs = DrawJobs(lcp.q, 23, rng);
    EXPECT_EQ(CompareWithLemke(name, lcp.M, jobs), 0);
    solves += static_cast<int>(jobs.size());
  }
  EXPECT_GT(solves, 1000);
}

TEST(BatchedLemke, EveryLaneIsLemkeBitForBitOnTheHardStepLcps) {
  std::mt19937_64 rng(7);
  for (const testing::HardStepLcp& lcp : testing::LoadHardStepLcps()) {
    EXPECT_EQ(CompareWithLemke(lcp.name, lcp.M, DrawJobs(lcp.q, 9, rng)), 0);
  }
}

TEST(BatchedLemke, AnswersOfOneLcpDoNotDependOnTheOtherLanes) {
  // One job solved alone and beside three others, in each lane: the same bits every time.
  const testing::ReferenceLcp lcp = testing::LoadReferenceLcp("routh_disk_stack_1");
  std::mt19937_64 rng(3);
  const std::vector<Job> jobs = DrawJobs(lcp.q, 4, rng);
  BatchedLemkeSolver batched;
  batched.SetMatrix(lcp.M);
  VectorXd alone, beside;
  batched.Start(0, jobs[1].q, jobs[1].covering, &jobs[1].order);
  ASSERT_EQ(batched.Advance(), 1U);
  const SolveInfo first = batched.Finish(0, &alone);
  for (int l = 0; l < kLanes; ++l) {
    for (int k = 0; k < kLanes; ++k) {
      const Job& job = jobs[static_cast<size_t>(k == l ? 1 : (k + 2) % 4)];
      batched.Start(k, job.q, job.covering, &job.order);
    }
    bool seen = false;
    while (const unsigned done = batched.Advance()) {
      for (int k = 0; k < kLanes; ++k) {
        if (!(done >> k & 1U)) continue;
        VectorXd z;
        const SolveInfo info = batched.Finish(k, &z);
        if (k != l) continue;
        seen = true;
        EXPECT_EQ(info.pivots, first.pivots);
        EXPECT_TRUE(SameBits(z, alone)) << "lane " << l;
      }
    }
    EXPECT_TRUE(seen);
  }
}

TEST(BatchedLemke, RejectsANonSquareOrNonFiniteMatrixNamingIt) {
  BatchedLemkeSolver batched;
  EXPECT_THROW(
      {
        try {
          batched.SetMatrix(MatrixXd::Zero(2, 3));
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("2 x 3"), std::string::npos) << e.what();
          throw;
        }
      },
      std::invalid_argument);
  MatrixXd M = MatrixXd::Identity(2, 2);
  M(0, 1) = std::nan("");
  EXPECT_THROW(batched.SetMatrix(M), std::invalid_argument);
  EXPECT_EQ(batched.Advance(), 0U);  // nothing started: nothing to do
}

}  // namespace
}  // namespace impactset::lcp
