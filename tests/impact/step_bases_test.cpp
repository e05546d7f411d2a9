#include <impactset/impact/step_bases.hpp>

#include <gtest/gtest.h>

#include <algorithm>

#include <vector>

namespace impactset::impact {
namespace {

// An identity step matrix: every basis factorises.
const MatrixXd kW = MatrixXd::Identity(4, 4);

TEST(StepBasisTable, KeepsFrequentSuccessorsMostFrequentFirst) {
  StepBasisTable t;
  const int a = t.Intern(std::vector<int>{0, 1});
  const int b = t.Intern(std::vector<int>{2});
  const int c = t.Intern(std::vector<int>{1, 3});
  EXPECT_EQ(t.Intern(std::vector<int>{2}), b);
  for (int i = 0; i < 10; ++i) t.Record(StepBasisTable::kFirstStep, b);
  for (int i = 0; i < 30; ++i) t.Record(StepBasisTable::kFirstStep, a);
  t.Record(StepBasisTable::kFirstStep, c);  // seen once: not kept
  for (int i = 0; i < 5; ++i) t.Record(a, c);
  t.Finish(kW);
  const std::vector<int> first(t.Successors(StepBasisTable::kFirstStep).begin(),
                               t.Successors(StepBasisTable::kFirstStep).end());
  EXPECT_EQ(first, (std::vector<int>{a, b}));
  ASSERT_EQ(t.Successors(a).size(), 1u);
  EXPECT_EQ(t.Successors(a)[0], c);
  EXPECT_TRUE(t.Successors(b).empty());
  EXPECT_TRUE(t.Successors(StepBasisTable::kUnknown).empty());
  EXPECT_EQ(t.Id(std::vector<int>{1, 3}), c);
  EXPECT_EQ(t.Id(std::vector<int>{3}), StepBasisTable::kUnknown);
  EXPECT_EQ(t.tried_bases(), 3);
}

TEST(StepBasisTable, AtMostMaxTriesAndNoRareOnes) {
  StepBasisTable t;
  std::vector<int> ids;
  for (int j = 0; j < 3 * StepBasisTable::kMaxTries; ++j) {
    ids.push_back(t.Intern(std::vector<int>{j % 4, 4 + j}));
  }
  // 1000 steps after the first: each id 100 times except the last, 2 times (0.2 % < kMinShare).
  for (size_t j = 0; j + 1 < ids.size(); ++j) {
    for (int i = 0; i < 100; ++i) t.Record(StepBasisTable::kFirstStep, ids[j]);
  }
  t.Record(StepBasisTable::kFirstStep, ids.back());
  t.Record(StepBasisTable::kFirstStep, ids.back());
  t.Finish(
      MatrixXd::Identity(4 + 3 * StepBasisTable::kMaxTries, 4 + 3 * StepBasisTable::kMaxTries));
  const auto list = t.Successors(StepBasisTable::kFirstStep);
  EXPECT_EQ(static_cast<int>(list.size()), StepBasisTable::kMaxTries);
  EXPECT_EQ(std::count(list.begin(), list.end(), ids.back()), 0);
}

TEST(StepBasisTable, RemoveTakesABasisOutOfEveryList) {
  StepBasisTable t;
  const int a = t.Intern(std::vector<int>{0});
  const int b = t.Intern(std::vector<int>{1});
  for (int i = 0; i < 4; ++i) {
    t.Record(StepBasisTable::kFirstStep, a);
    t.Record(b, a);
    t.Record(a, b);
  }
  t.Finish(kW);
  t.Remove(a);
  EXPECT_TRUE(t.Successors(StepBasisTable::kFirstStep).empty());
  EXPECT_TRUE(t.Successors(b).empty());
  EXPECT_EQ(t.Successors(a).size(), 1u);
  EXPECT_EQ(t.tried_bases(), 1);
  t.Remove(b);
  EXPECT_TRUE(t.empty());
}

}  // namespace
}  // namespace impactset::impact
