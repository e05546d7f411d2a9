// The native Lemke's pivot floor (lcp::LemkeOptions::pivot_floor, default lcp::kPivotFloor) is a
// guard against pivoting on roundoff: it may decide which of several solutions a non-unique step
// keeps, and nothing else. Run with the same seeds at the default floor and at a floor 100 times
// lower (paired samples), on the paper examples with non-unique steps:
//   * a sample whose steps were all unique keeps its outcome (up to the uniqueness tolerance);
//   * the law of the kept outcome moves little: with the same p-sequences the two empirical
//     distributions differ only in the samples that moved, so their total-variation distance is
//     at most moved / K, bounded here.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include <impactset/lcp/lemke.hpp>
#include <impactset/sampling/sampler.hpp>
#include <impactset/systems/matrix_input.hpp>
#include "test_util.hpp"

namespace impactset::sampling {
namespace {

using impactset::testing::Example;

// Largest fraction of samples allowed to move to another solution. Measured: compass gait and
// RAMone 1e-4, disk stack 5.5e-3 (10^5 and 2 x 10^4 samples); 2 % leaves room for other seeds.
constexpr double kMaxMoved = 0.02;
// A sample "moved" when some coordinate of v+ changed by more than this: far above the 1e-11
// roundoff differences of another pivot path, far below the solutions' separations (>= 1e-3).
constexpr double kMovedAbove = 1e-6;
// The other floor: 100 times lower, at the roundoff level of the zero entries of singular
// Delassus blocks (lcp/lemke.hpp), so the two runs take different pivot paths on some steps.
constexpr double kLowerFloor = lcp::kPivotFloor / 100;

struct Case {
  std::string example;
  long long samples;
};

class PivotFloor : public ::testing::TestWithParam<Case> {};

TEST_P(PivotFloor, DecidesOnlyBetweenSolutionsOfNonUniqueSteps) {
  const auto lp = Example(GetParam().example);
  SamplerOptions o;
  o.algorithm.step = *lp.settings.step;
  o.algorithm.max_steps = *lp.settings.max_steps;
  o.samples = GetParam().samples;
  o.seed = 5;
  o.threads = 2;
  o.keep_samples = true;
  o.algorithm.detect_non_unique = true;  // the unique samples are the ones checked below
  SamplerOptions lower = o;
  lower.algorithm.lemke.pivot_floor = kLowerFloor;
  const SamplerResult a = RunSampler(lp.problem, lower, {});
  const SamplerResult b = RunSampler(lp.problem, o, {});
  ASSERT_EQ(a.records.count(), o.samples);
  ASSERT_EQ(b.records.count(), o.samples);
  long long moved = 0, non_unique = 0;
  for (long long k = 0; k < o.samples; ++k) {
    const double d = (a.records.v_plus.col(k) - b.records.v_plus.col(k)).cwiseAbs().maxCoeff();
    const bool unique = !a.records.non_unique[k] && !b.records.non_unique[k];
    non_unique += unique ? 0 : 1;
    if (d <= kMovedAbove) continue;
    ++moved;
    EXPECT_FALSE(unique) << "sample " << k << " had only unique steps and moved by " << d;
  }
  EXPECT_GT(non_unique, 0) << "the example must have non-unique steps for this test to mean much";
  EXPECT_LE(static_cast<double>(moved), kMaxMoved * static_cast<double>(o.samples))
      << moved << " of " << o.samples << " samples moved to another solution";
  RecordProperty("moved", std::to_string(moved));
}

INSTANTIATE_TEST_SUITE_P(NonUniqueExamples,
                         PivotFloor,
                         ::testing::Values(Case{"compass-gait", 20000},
                                           Case{"ramone", 20000},
                                           Case{"disk-stack", 4000}),
                         [](const auto& info) {
                           std::string n = info.param.example;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
}  // namespace impactset::sampling
