#include "sampling/sampler.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>

#include "lcp/error_policy.hpp"
#include "lcp/fallback.hpp"
#include "sampling/sobol_source.hpp"
#include "sampling/streams.hpp"

namespace impactset::sampling {

const char* ToString(Design d) {
  switch (d) {
    case Design::kIid:
      return "iid";
    case Design::kSobol:
      return "sobol";
    case Design::kSobolPlain:
      return "sobol-plain";
  }
  return "unknown";
}

Design ParseDesign(const std::string& name) {
  if (name == "iid") return Design::kIid;
  if (name == "sobol") return Design::kSobol;
  if (name == "sobol-plain") return Design::kSobolPlain;
  InvalidArgument("design", name, "must be one of iid, sobol, sobol-plain");
}

void SamplerOptions::Validate() const {
  algorithm.Validate();
  if (samples < 1) InvalidArgument("samples", samples, "must be >= 1");
  if (threads < 0) InvalidArgument("threads", threads, "must be >= 0 (0 = all hardware threads)");
  if (shard_count < 1) InvalidArgument("shard count", shard_count, "must be >= 1");
  if (shard_index < 0 || shard_index >= shard_count) {
    InvalidArgument("shard index", shard_index,
                    "must lie in [0, " + std::to_string(shard_count) + ")");
  }
  if (shard_count > samples) {
    InvalidArgument("shard count", shard_count,
                    "must not exceed the number of samples (" + std::to_string(samples) + ")");
  }
  lcp::MakeSolver(lcp);  // throws for an unknown solver name
}

namespace {

// Everything one thread needs: its own solver, sampler, design generator and partial summary.
// Cache-line aligned: the per-sample counters of two threads never share a line.
struct alignas(64) Worker {
  Worker(const impact::ImpactProblem& p,
         const SamplerOptions& o,
         const std::optional<SobolDesign>& sobol)
      : solver(lcp::MakeSolver(o.lcp)),
        sampler(p, o.algorithm, solver.get()),
        summary(static_cast<int>(p.ContactJacobian().rows())) {
    if (sobol) generator = std::make_unique<SobolGenerator>(*sobol);
  }
  std::unique_ptr<lcp::Solver> solver;
  impact::RouthSampler sampler;
  SampleSummary summary;
  std::unique_ptr<SobolGenerator> generator;
  VectorXd point;
};

}  // namespace

SamplerResult RunSampler(const impact::ImpactProblem& problem,
                         const SamplerOptions& options,
                         const ProgressCallback& progress,
                         const StreamOptions& stream) {
  options.Validate();
  if (stream.block_size < 1) InvalidArgument("block_size", stream.block_size, "must be >= 1");
  SamplerOptions o = options;
  o.algorithm.keep_trajectory = o.keep_trajectories || (stream.sink && stream.trajectories);
  const int n = problem.n();
  const int c = static_cast<int>(problem.ContactJacobian().rows());

  SamplerResult result;
  const long long K = o.samples;
  result.first_sample = K * o.shard_index / o.shard_count;
  const long long last = K * (o.shard_index + 1) / o.shard_count;
  result.count = last - result.first_sample;

  std::optional<SobolDesign> sobol;
  if (o.design != Design::kIid) {
    SobolDesign d;
    d.contacts = problem.m();
    d.max_steps = o.algorithm.max_steps;
    std::tie(d.skip, d.leap) = SobolDesign::AuthorsSkipLeap(d.max_steps);
    d.digital_shift = o.design == Design::kSobol;
    d.seed = o.seed;
    d.Validate();
    sobol = d;
  }

  SampleRecords& rec = result.records;
  std::vector<std::vector<VectorXd>> trajectories;
  if (o.keep_samples) {
    rec.v_plus.resize(n, result.count);
    rec.contact_velocity.resize(c, result.count);
    rec.lcp_solves.resize(result.count);
    rec.status.resize(result.count);
    rec.energy_ratio.resize(result.count);
    rec.non_unique.resize(result.count);
  }
  if (o.keep_trajectories) trajectories.resize(result.count);

  auto run_one = [&](Worker& w, long long local) -> const impact::SampleResult& {
    const auto i = static_cast<std::uint64_t>(result.first_sample + local);
    SampleChoices choices(o.seed, i);
    const impact::SampleResult* r;
    if (sobol) {
      SobolPSource src(w.generator.get(), i, &w.point);
      r = &w.sampler.Run(src, &choices);
    } else {
      IidPSource src(o.seed, i);
      r = &w.sampler.Run(src, &choices);
    }
    w.summary.Add(*r);
    if (o.keep_samples) {
      rec.v_plus.col(local) = r->v_plus;
      rec.contact_velocity.col(local) = r->contact_velocity;
      rec.lcp_solves[local] = r->lcp_solves;
      rec.status[local] = static_cast<std::int32_t>(r->status);
      rec.energy_ratio[local] = r->energy_ratio;
      rec.non_unique[local] = r->non_unique_step ? 1 : 0;
    }
    if (o.keep_trajectories) trajectories[local] = r->trajectory;
    return *r;
  };

  // Streaming: block b holds local samples [b B, min((b + 1) B, count)).
  const long long B = stream.block_size;
  const long long blocks = (result.count + B - 1) / B;
  auto compute_block = [&](Worker& w, SampleBlock* blk) {
    const long long begin = blk->first - result.first_sample;
    blk->v_plus.resize(n, blk->count);
    blk->contact_velocity.resize(c, blk->count);
    blk->status.resize(static_cast<size_t>(blk->count));
    blk->trajectory_offsets.assign(1, 0);
    std::vector<VectorXd> steps;
    for (long long k = 0; k < blk->count; ++k) {
      const impact::SampleResult& r = run_one(w, begin + k);
      blk->v_plus.col(k) = r.v_plus;
      blk->contact_velocity.col(k) = r.contact_velocity;
      blk->status[static_cast<size_t>(k)] = static_cast<std::int32_t>(r.status);
      if (stream.trajectories) {
        steps.insert(steps.end(), r.trajectory.begin(), r.trajectory.end());
        blk->trajectory_offsets.push_back(static_cast<std::int64_t>(steps.size()));
      }
    }
    blk->trajectories.resize(n, static_cast<Eigen::Index>(steps.size()));
    for (size_t s = 0; s < steps.size(); ++s)
      blk->trajectories.col(static_cast<Eigen::Index>(s)) = steps[s];
  };
  auto make_block = [&](long long b) {
    auto blk = std::make_shared<SampleBlock>();
    blk->first = result.first_sample + b * B;
    blk->count = std::min(B, result.count - b * B);
    return blk;
  };

  const auto t0 = std::chrono::steady_clock::now();
  const int threads = o.threads == 0 ? oneapi::tbb::info::default_concurrency() : o.threads;
  result.threads_used = threads;
  // Progress: reported from the calling thread about every 1/8 s through an atomic counter.
  std::atomic<long long> done{0};
  if (threads == 1) {
    Worker w(problem, o, sobol);
    if (stream.sink) {
      for (long long b = 0; b < blocks; ++b) {
        auto blk = make_block(b);
        compute_block(w, blk.get());
        stream.sink(*blk);
        if (progress) progress(blk->first - result.first_sample + blk->count, result.count);
      }
    } else {
      for (long long k = 0; k < result.count; ++k) {
        run_one(w, k);
        if (progress && (k & 4095) == 4095) progress(k + 1, result.count);
      }
    }
    result.summary = w.summary;
  } else {
    oneapi::tbb::enumerable_thread_specific<std::unique_ptr<Worker>> workers;
    oneapi::tbb::task_arena arena(threads);
    using BlockPtr = std::shared_ptr<SampleBlock>;
    auto pipeline = [&] {
      long long next = 0;
      namespace tbb = oneapi::tbb;
      tbb::parallel_pipeline(
          static_cast<size_t>(2 * threads),
          tbb::make_filter<void, BlockPtr>(tbb::filter_mode::serial_in_order,
                                           [&](tbb::flow_control& fc) -> BlockPtr {
                                             if (next >= blocks) {
                                               fc.stop();
                                               return nullptr;
                                             }
                                             return make_block(next++);
                                           }) &
              tbb::make_filter<BlockPtr, BlockPtr>(
                  tbb::filter_mode::parallel,
                  [&](BlockPtr blk) {
                    auto& slot = workers.local();
                    if (!slot) {
                      slot = std::make_unique<Worker>(problem, o, sobol);
                    }
                    compute_block(*slot, blk.get());
                    done.fetch_add(blk->count, std::memory_order_relaxed);
                    return blk;
                  }) &
              tbb::make_filter<BlockPtr, void>(tbb::filter_mode::serial_in_order,
                                               [&](BlockPtr blk) { stream.sink(*blk); }));
    };
    auto work = [&] {
      arena.execute([&] {
        if (stream.sink) {
          pipeline();
          return;
        }
        oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<long long>(0, result.count, 256),
                                  [&](const oneapi::tbb::blocked_range<long long>& range) {
                                    auto& slot = workers.local();
                                    if (!slot) slot = std::make_unique<Worker>(problem, o, sobol);
                                    for (long long k = range.begin(); k != range.end(); ++k)
                                      run_one(*slot, k);
                                    done.fetch_add(static_cast<long long>(range.size()),
                                                   std::memory_order_relaxed);
                                  });
      });
    };
    if (!progress) {
      work();
    } else {  // the caller's thread reports progress while a helper thread drives the arena
      std::mutex mu;
      std::condition_variable cv;
      bool finished = false;
      std::exception_ptr error;
      std::thread runner([&] {
        try {
          work();
        } catch (...) {
          error = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(mu);
        finished = true;
        cv.notify_all();
      });
      {
        std::unique_lock<std::mutex> lock(mu);
        while (!cv.wait_for(lock, std::chrono::milliseconds(125), [&] { return finished; })) {
          progress(done.load(std::memory_order_relaxed), result.count);
        }
      }
      runner.join();
      if (error) std::rethrow_exception(error);
    }
    result.summary = SampleSummary(c);
    for (auto& w : workers) {
      if (w) result.summary.Merge(w->summary);  // counts and extremes: order-independent
    }
  }
  if (progress) progress(result.count, result.count);
  if (o.keep_trajectories) {
    rec.reachable_offsets.resize(result.count + 1);
    rec.reachable_offsets[0] = 0;
    for (long long k = 0; k < result.count; ++k) {
      rec.reachable_offsets[k + 1] =
          rec.reachable_offsets[k] + static_cast<std::int64_t>(trajectories[k].size());
    }
    rec.reachable.resize(n, rec.reachable_offsets.back());
    for (long long k = 0; k < result.count; ++k) {
      for (size_t s = 0; s < trajectories[k].size(); ++s) {
        rec.reachable.col(rec.reachable_offsets[k] + static_cast<long long>(s)) =
            trajectories[k][s];
      }
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

MatrixXd TerminatedColumns(const MatrixXd& points, const std::vector<std::int32_t>& status) {
  if (static_cast<size_t>(points.cols()) != status.size()) {
    InvalidArgument("status.size()", status.size(),
                    "must equal the number of point columns " + std::to_string(points.cols()));
  }
  const auto terminated = static_cast<std::int32_t>(impact::SampleStatus::kTerminated);
  const auto count = std::count(status.begin(), status.end(), terminated);
  MatrixXd out(points.rows(), static_cast<Eigen::Index>(count));
  Eigen::Index j = 0;
  for (Eigen::Index k = 0; k < points.cols(); ++k) {
    if (status[static_cast<size_t>(k)] == terminated) out.col(j++) = points.col(k);
  }
  return out;
}

}  // namespace impactset::sampling
