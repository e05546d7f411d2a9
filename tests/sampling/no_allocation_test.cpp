// Per-thread workspaces and no allocation per sample. This binary replaces the
// global operator new with a counting one, so it is its own executable: once a sampler has
// warmed up (workspaces sized by its first samples), running further samples must not allocate.
#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include <gtest/gtest.h>

#include <impactset/impact/algorithm1.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/sampling/sobol_source.hpp>
#include <impactset/sampling/streams.hpp>
#include "test_util.hpp"

namespace {
std::atomic<long long> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
// GCC cannot see that the operator new above is malloc-based.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace impactset::sampling {
namespace {

using impactset::testing::Example;
using impactset::testing::TestName;

// Warm-up: enough samples that every solver path a sample can take (trivial, several pivots,
// LU refinement) has sized its workspace. The chain reserves its native links' workspaces at the
// first solve; Siconos allocates with malloc inside the C library (not counted here) and
// enumeration is not reached on these examples.
constexpr int kWarmup = 200;
constexpr int kMeasured = 2000;

struct Case {
  std::string system;
  impact::Selection selection;
  bool sobol;
};

class NoAllocationPerSample : public ::testing::TestWithParam<Case> {};

TEST_P(NoAllocationPerSample, SteadyStateRunAllocatesNothing) {
  const Case& c = GetParam();
  const auto lp = Example(c.system);
  impact::Algorithm1Options ao;
  ao.step = *lp.settings.step;
  ao.max_steps = *lp.settings.max_steps;
  ao.selection = c.selection;
  auto solver = lcp::MakeSolver("chain");
  impact::RouthSampler sampler(lp.problem, ao, solver.get());
  SobolDesign d;
  d.contacts = lp.problem.m();
  d.max_steps = ao.max_steps;
  std::tie(d.skip, d.leap) = SobolDesign::AuthorsSkipLeap(d.max_steps);
  d.seed = 7;
  SobolGenerator generator(d);
  VectorXd point(generator.dimension());

  long long solves = 0;
  auto run = [&](std::uint64_t i) {
    SampleChoices choices(7, i);
    if (c.sobol) {
      SobolPSource src(&generator, i, &point);
      solves += sampler.Run(src, &choices).lcp_solves;
    } else {
      IidPSource src(7, i);
      solves += sampler.Run(src, &choices).lcp_solves;
    }
  };
  for (int i = 0; i < kWarmup; ++i) run(static_cast<std::uint64_t>(i));
  const long long before = g_allocations.load();
  for (int i = kWarmup; i < kWarmup + kMeasured; ++i) run(static_cast<std::uint64_t>(i));
  const long long allocations = g_allocations.load() - before;
  EXPECT_GT(solves, kMeasured);  // the samples did solve step LCPs
  EXPECT_EQ(allocations, 0) << allocations << " allocations in " << kMeasured << " samples";
}

std::vector<Case> Cases() {
  std::vector<Case> out;
  for (const std::string& s : impactset::testing::kPaperExamples) {
    for (auto sel : {impact::Selection::kFirst, impact::Selection::kRandom}) {
      for (bool sobol : {false, true}) out.push_back({s, sel, sobol});
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(PaperExamples,
                         NoAllocationPerSample,
                         ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return TestName(info.param.system) + "_" +
                                  impact::ToString(info.param.selection) +
                                  (info.param.sobol ? "_sobol" : "_iid");
                         });

// The counter works: an allocation is seen (otherwise every test above passes vacuously).
TEST(NoAllocationPerSample, CounterSeesAnAllocation) {
  const long long before = g_allocations.load();
  auto* v = new std::vector<double>(100);
  const long long after = g_allocations.load();
  delete v;
  EXPECT_GE(after - before, 2);
}

}  // namespace
}  // namespace impactset::sampling
