// Determinism of the parallel sampler: sample i depends only on (seed, i).
#include <impactset/sampling/sampler.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/systems/matrix_input.hpp>
#include "test_util.hpp"

namespace impactset::sampling {
namespace {

using impactset::testing::Example;
using impactset::testing::TestName;

SamplerOptions Options(const systems::LoadedProblem& lp, Design design, int threads) {
  SamplerOptions o;
  o.algorithm.step = *lp.settings.step;
  o.algorithm.max_steps = *lp.settings.max_steps;
  o.samples = 3001;  // odd, so shards and TBB chunks have ragged ends
  o.seed = 42;
  o.threads = threads;
  o.design = design;
  o.keep_samples = true;
  o.keep_trajectories = true;
  return o;
}

void ExpectSameRecords(const SampleArrays& a, const SampleArrays& b) {
  EXPECT_EQ(a.v_plus, b.v_plus);  // bitwise: Eigen's == compares exactly
  EXPECT_EQ(a.contact_velocity, b.contact_velocity);
  EXPECT_EQ(a.lcp_solves, b.lcp_solves);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.energy_ratio, b.energy_ratio);
  EXPECT_EQ(a.non_unique, b.non_unique);
  EXPECT_EQ(a.trajectories, b.trajectories);
  EXPECT_EQ(a.trajectory_offsets, b.trajectory_offsets);
}

class SamplerDeterminism : public ::testing::TestWithParam<std::tuple<std::string, Design>> {};

TEST_P(SamplerDeterminism, BitIdenticalAcrossThreadCounts) {
  const auto lp = Example(std::get<0>(GetParam()));
  const SamplerResult one = RunSampler(lp.problem, Options(lp, std::get<1>(GetParam()), 1));
  for (int threads : {2, 16}) {
    const SamplerResult many =
        RunSampler(lp.problem, Options(lp, std::get<1>(GetParam()), threads));
    ExpectSameRecords(one.records, many.records);
    EXPECT_EQ(one.summary.contact_velocity_min, many.summary.contact_velocity_min);
    EXPECT_EQ(one.summary.contact_velocity_max, many.summary.contact_velocity_max);
    EXPECT_EQ(one.summary.solves_histogram, many.summary.solves_histogram);
    EXPECT_EQ(one.summary.lcp_solves, many.summary.lcp_solves);
    EXPECT_EQ(one.summary.energy_ratio_max, many.summary.energy_ratio_max);
  }
}

TEST_P(SamplerDeterminism, ShardsConcatenateToTheSingleRun) {
  const auto lp = Example(std::get<0>(GetParam()));
  const SamplerOptions base = Options(lp, std::get<1>(GetParam()), 2);
  const SamplerResult whole = RunSampler(lp.problem, base);
  long long next = 0;
  for (int s = 0; s < 3; ++s) {
    SamplerOptions o = base;
    o.shard_index = s;
    o.shard_count = 3;
    const SamplerResult part = RunSampler(lp.problem, o);
    EXPECT_EQ(part.first_sample, next);
    EXPECT_EQ(part.records.v_plus, whole.records.v_plus.middleCols(next, part.count));
    EXPECT_EQ(part.records.lcp_solves,
              std::vector<std::int32_t>(whole.records.lcp_solves.begin() + next,
                                        whole.records.lcp_solves.begin() + next + part.count));
    next += part.count;
  }
  EXPECT_EQ(next, base.samples);
}

INSTANTIATE_TEST_SUITE_P(Examples,
                         SamplerDeterminism,
                         ::testing::Combine(::testing::Values("compass-gait", "ramone"),
                                            ::testing::Values(Design::kIid, Design::kSobol)),
                         [](const auto& info) {
                           std::string s =
                               std::get<0>(info.param) + "_" +
                               (std::get<1>(info.param) == Design::kIid ? "iid" : "sobol");
                           return TestName(s);
                         });

TEST(Sampler, SummaryMatchesRecords) {
  const auto lp = Example("box-wall");
  const SamplerResult r = RunSampler(lp.problem, Options(lp, Design::kIid, 2));
  ASSERT_EQ(r.count, 3001);
  long long terminated = 0, solves = 0;
  for (long long k = 0; k < r.count; ++k) {
    terminated += r.records.status[k] == impact::SampleStatus::kTerminated;
    solves += r.records.lcp_solves[k];
  }
  EXPECT_EQ(r.summary.samples, r.count);
  EXPECT_EQ(r.summary.terminated, terminated);
  EXPECT_EQ(r.summary.lcp_solves, solves);
}

// threads = 0 runs a short run inline (no arena to start) and a long one on every hardware thread;
// the samples are the ones of an explicit thread count either way.
TEST(Sampler, AutomaticThreadsRunShortRunsInline) {
  const auto lp = Example("box-wall");
  SamplerOptions o = Options(lp, Design::kIid, 0);
  o.samples = kAutoInlineSamples - 1;
  const SamplerResult short_run = RunSampler(lp.problem, o);
  EXPECT_EQ(short_run.threads_used, 1);
  o.threads = 2;
  ExpectSameRecords(short_run.records, RunSampler(lp.problem, o).records);
  o.threads = 0;
  o.samples = kAutoInlineSamples;
  if (std::thread::hardware_concurrency() > 1) {
    EXPECT_GT(RunSampler(lp.problem, o).threads_used, 1);
  }
}

// Each sample draws from its own (seed, index) streams: a run with another seed differs, and the
// samples of one run are not copies of each other on the compass gait, whose set is not a point.
// A sampler that handed every sample one fixed stream would fail both.
TEST(Sampler, IidSamplesDependOnSeedAndIndex) {
  const auto lp = Example("compass-gait");
  SamplerOptions a = Options(lp, Design::kIid, 2), b = a;
  a.samples = b.samples = 200;
  b.seed = a.seed + 1;
  const SamplerResult ra = RunSampler(lp.problem, a), rb = RunSampler(lp.problem, b);
  ASSERT_EQ(ra.count, 200);
  EXPECT_NE(ra.records.v_plus, rb.records.v_plus);
  std::vector<VectorXd> distinct;
  for (Eigen::Index k = 0; k < ra.records.v_plus.cols(); ++k) {
    const VectorXd v = ra.records.v_plus.col(k);
    if (std::find(distinct.begin(), distinct.end(), v) == distinct.end()) distinct.push_back(v);
  }
  EXPECT_GT(distinct.size(), 150u) << "distinct outcomes among 200 samples";
}

TEST(Sampler, SobolDesignsDifferBySeedPlainDoesNot) {
  const auto lp = Example("rocking-block");
  SamplerOptions a = Options(lp, Design::kSobol, 1), b = a;
  b.seed = 43;
  EXPECT_NE(RunSampler(lp.problem, a).records.v_plus, RunSampler(lp.problem, b).records.v_plus);
  a.design = b.design = Design::kSobolPlain;
  a.algorithm.selection = b.algorithm.selection = impact::Selection::kFirst;
  EXPECT_EQ(RunSampler(lp.problem, a).records.v_plus, RunSampler(lp.problem, b).records.v_plus);
}

TEST(SamplerOptions, BadValuesNameTheField) {
  SamplerOptions o;
  auto message = [&] {
    try {
      o.Validate();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  o.samples = 0;
  EXPECT_NE(message().find("samples = 0"), std::string::npos);
  o = SamplerOptions{};
  o.shard_index = 3;
  o.shard_count = 3;
  EXPECT_NE(message().find("shard index = 3"), std::string::npos);
  o = SamplerOptions{};
  o.solver = static_cast<lcp::SolverKind>(99);
  EXPECT_NE(message().find("lcp solver = 99"), std::string::npos);
  o = SamplerOptions{};
  o.algorithm.step = 0;
  EXPECT_NE(message().find("step (h) = 0"), std::string::npos);
}

// Cancellation (ProgressCallback): a run that ignored the stop would take hours (10^9 samples);
// stopping takes one range or block per worker (well under a second). The bound absorbs a loaded
// host.
constexpr double kStopSeconds = 30;
constexpr long long kEndless = 1000000000;
// How long a block that entered the sink after the callback threw waits for the sampler to set
// its stop flag: the gap is one exception's unwinding, but a loaded CI machine can deschedule
// the progress thread in it for a few time slices.
constexpr auto kStopFlagGrace = std::chrono::milliseconds(500);

double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class SamplerCancellation : public ::testing::TestWithParam<int> {};  // threads

TEST_P(SamplerCancellation, ThrowingProgressStopsTheRunAndPropagates) {
  const auto lp = Example("rocking-block");
  SamplerOptions o = Options(lp, Design::kIid, GetParam());
  o.samples = kEndless;
  o.keep_samples = o.keep_trajectories = false;
  long long calls = 0;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    RunSampler(lp.problem, o, [&](long long done, long long total) {
      ++calls;
      EXPECT_LT(done, total);
      throw std::runtime_error("stop here");
    });
    ADD_FAILURE() << "the run was not cancelled";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "stop here");  // the callback's own exception
  }
  EXPECT_EQ(calls, 1);
  EXPECT_LT(SecondsSince(t0), kStopSeconds);
}

TEST_P(SamplerCancellation, NoBlockReachesTheSinkAfterTheStop) {
  const auto lp = Example("rocking-block");
  SamplerOptions o = Options(lp, Design::kIid, GetParam());
  o.samples = kEndless;
  o.keep_samples = o.keep_trajectories = false;
  StreamOptions stream;
  stream.block_size = 1024;
  std::atomic<long long> blocks{0};  // written by the sink, read by the progress thread
  long long after_stop = 0;
  std::atomic<bool> stopped{false};  // written by the progress thread, read by the sink
  stream.sink = [&](const SampleBlock& b) {
    EXPECT_EQ(b.first, blocks.load() * stream.block_size);  // still in order
    ++blocks;
    if (!stopped.load()) return;
    // The callback has thrown, but the sampler sets its own stop flag only once the exception
    // reaches it; a block may enter the sink in between. This one waits long enough for the
    // flag to be set; no block may follow it.
    if (after_stop++ == 0) std::this_thread::sleep_for(kStopFlagGrace);
  };
  const auto t0 = std::chrono::steady_clock::now();
  auto progress = [&](long long done, long long) {
    // Let two blocks reach the sink first: `done` counts finished samples, and with several
    // threads a later block may finish before the one the sink waits for.
    if (done < 2 * stream.block_size || blocks.load() < 2) return;
    stopped.store(true);
    throw Cancelled();
  };
  EXPECT_THROW(RunSampler(lp.problem, o, progress, stream), Cancelled);
  EXPECT_TRUE(stopped.load());
  EXPECT_GE(blocks, 2);
  EXPECT_LT(blocks, kEndless / stream.block_size);
  EXPECT_LE(after_stop, 1);
  EXPECT_LT(SecondsSince(t0), kStopSeconds);
}

INSTANTIATE_TEST_SUITE_P(Threads,
                         SamplerCancellation,
                         ::testing::Values(1, 2, 4),
                         [](const auto& info) { return "threads_" + std::to_string(info.param); });

// ParallelForInSink: outside a sink and in a one-thread run's sink, inline in increasing order;
// in the sink of a run of several threads (iid: the pipeline; directed: between rounds) every
// part once, on the run's threads, and an exception thrown by a part leaves RunSampler.
TEST(ParallelForInSink, EveryPartOnceOnTheRunsThreadsAndInlineOutsideOne) {
  std::vector<long long> order;
  ParallelForInSink(5, [&](long long i) { order.push_back(i); });
  EXPECT_EQ(order, (std::vector<long long>{0, 1, 2, 3, 4}));
  EXPECT_THROW(ParallelForInSink(-1, [](long long) {}), std::invalid_argument);

  const auto lp = Example("rocking-block");
  constexpr long long kParts = 64;
  for (Design design : {Design::kIid, Design::kDirected}) {
    for (int threads : {1, 2, 4}) {
      SCOPED_TRACE(std::string(ToString(design)) + " threads " + std::to_string(threads));
      SamplerOptions o = Options(lp, design, threads);
      o.keep_samples = o.keep_trajectories = false;
      StreamOptions stream;
      stream.block_size = 500;
      long long blocks = 0;
      bool in_order = true;
      std::atomic<bool> elsewhere{false};  // a part ran on another thread than its sink's
      std::vector<std::atomic<int>> calls(kParts);
      stream.sink = [&](const SampleBlock&) {
        const bool first = blocks++ == 0;
        const std::thread::id sink = std::this_thread::get_id();
        std::atomic<long long> next{0};
        ParallelForInSink(kParts, [&](long long i) {
          ++calls[static_cast<size_t>(i)];
          if (next.fetch_add(1) != i) in_order = false;
          if (std::this_thread::get_id() != sink) elsewhere = true;
          // In the first block, part 0 waits for another thread of the run to take a part (it
          // does once its own block is done); inline, nothing else would, and the wait ends.
          const auto t0 = std::chrono::steady_clock::now();
          while (first && i == 0 && threads > 1 && !elsewhere && SecondsSince(t0) < 5) {
            std::this_thread::sleep_for(std::chrono::microseconds(100));
          }
        });
      };
      RunSampler(lp.problem, o, {}, stream);
      EXPECT_EQ(blocks, (o.samples + stream.block_size - 1) / stream.block_size);
      for (long long i = 0; i < kParts; ++i) EXPECT_EQ(calls[static_cast<size_t>(i)], blocks) << i;
      EXPECT_EQ(elsewhere, threads > 1);
      if (threads == 1) {
        EXPECT_TRUE(in_order);
      }
    }
  }
  SamplerOptions o = Options(lp, Design::kIid, 2);
  StreamOptions stream;
  stream.sink = [](const SampleBlock&) {
    ParallelForInSink(8, [](long long i) {
      if (i == 5) throw std::runtime_error("part 5");
    });
  };
  try {
    RunSampler(lp.problem, o, {}, stream);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "part 5");
  }
}

TEST(TerminatedColumns, KeepsTerminatedSamplesInOrder) {
  MatrixXd points(2, 4);
  points << 1, 2, 3, 4, 5, 6, 7, 8;
  const auto t = impact::SampleStatus::kTerminated;
  const auto cap = impact::SampleStatus::kStepCap;
  const auto fail = impact::SampleStatus::kLcpFailure;
  const MatrixXd kept = TerminatedColumns(points, {cap, t, fail, t});
  MatrixXd expected(2, 2);
  expected << 2, 4, 6, 8;
  EXPECT_EQ(kept, expected);
  EXPECT_TRUE(impactset::testing::ThrowsNaming(
      [&] {
        TerminatedColumns(points, {t, t});
      },
      "status.size()"));
}

}  // namespace
}  // namespace impactset::sampling
