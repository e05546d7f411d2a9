// The accuracy restoration (lcp::LemkeOptions::restore_above, default lcp::kRestoreAbove)
// re-solves a Lemke answer from its final basis: samples of the paper's examples move at
// roundoff level, and through near-ties of later steps a few end on other outcomes. What must
// not move is the distribution of the outcomes. Per example, against the former threshold
// (1e-9): (1) an independent seed's samples pass a two-sample Kolmogorov-Smirnov test per
// coordinate of v+; (2) the samples that moved (same seed, same streams) are distributed after
// as before - a restoration that steered near-ties towards some solutions would fail it.
#include <impactset/sampling/sampler.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/lcp/lemke.hpp>
#include "test_util.hpp"

namespace impactset::sampling {
namespace {

using impactset::testing::Example;

// The threshold the restoration used before accuracy became the default.
constexpr double kFormerThreshold = 1e-9;
constexpr long long kSamples = 1 << 14;
// Every KS test of this file together may reject a true null with probability 1e-3 at most
// (Bonferroni over the examples' coordinates, twice): alpha per test.
constexpr double kAlpha = 1e-3 / 150;
// A sample moved to another outcome when some coordinate of v+ changed by more than this times
// the largest |v+| of the run (roundoff moves are ~1e-15 of it).
constexpr double kMovedRelative = 1e-6;
// Fewer moved samples than this make no test (2): nothing to compare.
constexpr long long kMinMoved = 20;

MatrixXd VPlus(const systems::LoadedProblem& lp,
               std::uint64_t seed,
               double restore_above,
               impact::Selection selection = impact::Selection::kRandom) {
  SamplerOptions o;
  o.algorithm.step = *lp.settings.step;
  o.algorithm.max_steps = *lp.settings.max_steps;
  o.algorithm.lemke.restore_above = restore_above;
  o.algorithm.selection = selection;
  o.samples = kSamples / testing::TestSampleDivisor();  // the sanitized build runs an eighth
  o.seed = seed;
  o.threads = 2;
  o.keep_samples = true;
  return RunSampler(lp.problem, o).records.v_plus;  // n x K
}

// The two-sample Kolmogorov-Smirnov statistic sup |F_a - F_b| and its critical value at kAlpha.
struct Ks {
  double d = 0, critical = 0;
  bool Rejects() const { return d > critical; }
};
Ks KolmogorovSmirnov(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const double n = static_cast<double>(a.size()), m = static_cast<double>(b.size());
  Ks ks;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= x) ++i;
    while (j < b.size() && b[j] <= x) ++j;
    ks.d = std::max(ks.d, std::abs(static_cast<double>(i) / n - static_cast<double>(j) / m));
  }
  ks.critical = std::sqrt(-0.5 * std::log(kAlpha / 2)) * std::sqrt((n + m) / (n * m));
  return ks;
}

// Row i of v's columns `cols`, rounded to multiples of `grain`: the paper's examples have atoms
// (many samples on one outcome), and roundoff of 1e-12 splits an atom's ties differently in two
// runs, which moves the KS statistic by the atom's whole mass.
std::vector<double> Row(const MatrixXd& v,
                        Eigen::Index i,
                        const std::vector<Eigen::Index>& cols,
                        double grain) {
  std::vector<double> out;
  for (Eigen::Index k : cols) out.push_back(std::round(v(i, k) / grain) * grain);
  return out;
}

// The columns of a and b (same seed) whose outcome differs beyond roundoff.
std::vector<Eigen::Index> Moved(const MatrixXd& a, const MatrixXd& b) {
  const double scale = a.cwiseAbs().maxCoeff();
  std::vector<Eigen::Index> moved;
  for (Eigen::Index k = 0; k < a.cols(); ++k) {
    if ((a.col(k) - b.col(k)).cwiseAbs().maxCoeff() > kMovedRelative * scale) moved.push_back(k);
  }
  return moved;
}

// Whether every coordinate of a's columns `ca` and b's columns `cb` passes the KS test.
bool SameDistribution(const MatrixXd& a,
                      const std::vector<Eigen::Index>& ca,
                      const MatrixXd& b,
                      const std::vector<Eigen::Index>& cb,
                      const std::string& what) {
  bool same = true;
  const double grain = kMovedRelative * std::max(a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff());
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    const Ks ks = KolmogorovSmirnov(Row(a, i, ca, grain), Row(b, i, cb, grain));
    if (ks.Rejects()) {
      ADD_FAILURE() << what << ": coordinate " << i << " D = " << ks.d << " > " << ks.critical;
      same = false;
    }
  }
  return same;
}

std::vector<Eigen::Index> All(Eigen::Index n) {
  std::vector<Eigen::Index> all(static_cast<size_t>(n));
  for (Eigen::Index k = 0; k < n; ++k) all[static_cast<size_t>(k)] = k;
  return all;
}

class RestoreDistribution : public ::testing::TestWithParam<std::string> {};

TEST_P(RestoreDistribution, OutcomesDistributedAsWithTheFormerThreshold) {
  ASSERT_LT(lcp::kRestoreAbove, kFormerThreshold);  // the default restores more answers
  const systems::LoadedProblem lp = Example(GetParam());
  const MatrixXd before = VPlus(lp, 1, kFormerThreshold);
  const MatrixXd now = VPlus(lp, 1, lcp::kRestoreAbove);
  const MatrixXd independent = VPlus(lp, 2, lcp::kRestoreAbove);
  EXPECT_TRUE(SameDistribution(before, All(before.cols()), independent, All(independent.cols()),
                               GetParam() + ", seeds 1 and 2"));
  const std::vector<Eigen::Index> moved = Moved(before, now);
  std::printf("%s: %zu of %lld samples moved to another outcome\n", GetParam().c_str(),
              moved.size(), static_cast<long long>(before.cols()));
  if (static_cast<long long>(moved.size()) >= kMinMoved) {
    EXPECT_TRUE(SameDistribution(before, moved, now, moved, GetParam() + ", moved samples"));
  }
}

INSTANTIATE_TEST_SUITE_P(PaperExamples,
                         RestoreDistribution,
                         ::testing::ValuesIn(impactset::testing::kPaperExamples),
                         [](const auto& info) { return impactset::testing::TestName(info.param); });

}  // namespace
}  // namespace impactset::sampling
