#include <impactset/sampling/sampler.hpp>

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

#include <impactset/common/error_policy.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/sampling/basis_pilot.hpp>
#include <impactset/sampling/sobol_source.hpp>
#include <impactset/sampling/streams.hpp>

namespace impactset::sampling {

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
  if (design == Design::kDirected) {
    directed.Validate();
    // Each round of the directed design depends on every earlier sample: no shard can run alone.
    if (shard_count != 1) {
      InvalidArgument("shard count", shard_count, "must be 1 with the directed design");
    }
  }
  if (std::string_view(lcp::ToString(solver)) == "unknown") {
    InvalidArgument("lcp solver", static_cast<int>(solver), "is not a SolverKind");
  }
}

void SampleArrays::Resize(int n, int c, long long count, int p_dimension) {
  v_plus.resize(n, count);
  contact_velocity.resize(c, count);
  const auto k = static_cast<size_t>(count);
  status.resize(k);
  lcp_solves.resize(k);
  energy_ratio.resize(k);
  non_unique.resize(k);
  trajectories.resize(n, 0);
  trajectory_offsets.clear();
  p_sequences.resize(p_dimension, p_dimension > 0 ? count : 0);
  choice_keys.assign(p_dimension > 0 ? k : 0, 0);
}

namespace {
template <typename T>
void AppendVector(std::vector<T>* a, const std::vector<T>& b) {
  a->insert(a->end(), b.begin(), b.end());
}
void AppendColumns(MatrixXd* a, const MatrixXd& b) {
  if (a->cols() == 0) a->resize(b.rows(), 0);
  IMPACTSET_ASSERT(a->rows() == b.rows() || b.cols() == 0);
  const Eigen::Index old = a->cols();
  a->conservativeResize(a->rows(), old + b.cols());
  a->rightCols(b.cols()) = b;
}
}  // namespace

void SampleArrays::Append(const SampleArrays& other) {
  const bool with_trajectories = !other.trajectory_offsets.empty();
  IMPACTSET_ASSERT(count() == 0 || with_trajectories == !trajectory_offsets.empty());
  AppendColumns(&v_plus, other.v_plus);
  AppendColumns(&contact_velocity, other.contact_velocity);
  AppendVector(&status, other.status);
  AppendVector(&lcp_solves, other.lcp_solves);
  AppendVector(&energy_ratio, other.energy_ratio);
  AppendVector(&non_unique, other.non_unique);
  if (other.p_sequences.cols() > 0 || p_sequences.cols() > 0) {
    IMPACTSET_ASSERT(p_sequences.cols() + other.count() == count());
    AppendColumns(&p_sequences, other.p_sequences);
    AppendVector(&choice_keys, other.choice_keys);
  }
  if (!with_trajectories) return;
  if (trajectory_offsets.empty()) trajectory_offsets.push_back(0);
  const std::int64_t base = trajectory_offsets.back();
  AppendColumns(&trajectories, other.trajectories);
  for (size_t k = 1; k < other.trajectory_offsets.size(); ++k) {
    trajectory_offsets.push_back(base + other.trajectory_offsets[k]);
  }
}

namespace {

// Everything one thread needs: its own solver, sampler, design generator and partial summary.
// Cache-line aligned: the per-sample counters of two threads never share a line.
struct alignas(64) Worker {
  Worker(const impact::ImpactProblem& p,
         const SamplerOptions& o,
         const std::optional<SobolDesign>& sobol,
         const impact::StepBasisTable* bases)
      : solver(lcp::MakeSolver(o.solver, o.algorithm.lemke)),
        sampler(p, o.algorithm, solver.get()),
        summary(static_cast<int>(p.ContactJacobian().rows())) {
    if (sobol) generator = std::make_unique<SobolGenerator>(*sobol);
    sampler.SetBasisTable(bases);
  }
  std::unique_ptr<lcp::Solver> solver;
  impact::RouthSampler sampler;
  SampleSummary summary;
  std::unique_ptr<SobolGenerator> generator;
  VectorXd point;
  VectorXd p_sequence;  // the sample's whole P when it is kept, or with the directed design
};

// The read-only plan of one run, shared by every thread.
struct RunPlan {
  const impact::ImpactProblem& problem;
  SamplerOptions options;
  std::optional<SobolDesign> sobol;
  // The warm start's table, learned from the run's pilot (the same in every shard); null: none.
  std::shared_ptr<const impact::StepBasisTable> bases;
  long long first = 0, count = 0;  // this shard's samples
  int n = 0, c = 0;
  int p_dimension = 0;  // m N
  bool keep_p = false;  // keep_p_sequences
  long long block_size = 0, blocks = 0;
  bool stream_trajectories = false;
};

std::optional<SobolDesign> MakeSobolDesign(const impact::ImpactProblem& problem,
                                           const SamplerOptions& o) {
  if (o.design != Design::kSobol && o.design != Design::kSobolPlain) return std::nullopt;
  SobolDesign d;
  d.contacts = problem.m();
  d.max_steps = o.algorithm.max_steps;
  std::tie(d.skip, d.leap) = SobolDesign::AuthorsSkipLeap(d.max_steps);
  d.digital_shift = o.design == Design::kSobol;
  d.seed = o.seed;
  d.Validate();
  return d;
}

RunPlan MakePlan(const impact::ImpactProblem& problem,
                 const SamplerOptions& options,
                 const StreamOptions& stream) {
  RunPlan plan{problem, options, MakeSobolDesign(problem, options),
               LearnRunStepBases(problem, options)};
  plan.options.algorithm.keep_trajectory =
      options.keep_trajectories || (stream.sink && stream.trajectories);
  const long long K = options.samples;
  plan.first = K * options.shard_index / options.shard_count;
  plan.count = K * (options.shard_index + 1) / options.shard_count - plan.first;
  plan.n = problem.n();
  plan.c = static_cast<int>(problem.ContactJacobian().rows());
  plan.p_dimension = problem.m() * options.algorithm.max_steps;
  plan.keep_p = options.keep_p_sequences;
  plan.block_size = stream.block_size;
  plan.blocks = (plan.count + plan.block_size - 1) / plan.block_size;
  plan.stream_trajectories = stream.trajectories;
  return plan;
}

// Sample i's whole P under the iid or Sobol design, into w.p_sequence: the values its p-source
// hands Algorithm 1 step by step.
void DesignPSequence(Worker& w, const RunPlan& plan, std::uint64_t i) {
  w.p_sequence.resize(plan.p_dimension);
  if (plan.sobol) {
    w.generator->Point(i, w.p_sequence);
    return;
  }
  const int m = plan.problem.m();
  IidPSource src(plan.options.seed, i);
  for (int s = 0; s * m < plan.p_dimension; ++s) src.Next(s, w.p_sequence.segment(s * m, m));
}

// A sample with the p-sequence p and the choices of stream (seed, 2 key + 1): sample key's own.
const impact::SampleResult& RunWithP(Worker& w,
                                     const RunPlan& plan,
                                     long long key,
                                     const VectorXd& p) {
  SampleChoices choices(plan.options.seed, static_cast<std::uint64_t>(key));
  PSequenceSource src(p);
  return w.sampler.Run(src, &choices);
}

// Writes the p of every step it hands out into a whole p-sequence (m N entries, 0 where no step
// ran), for a source that chooses p from the state: replaying that sequence reproduces the sample.
class RecordingPSource final : public impact::PSource {
 public:
  RecordingPSource(impact::PSource* inner, VectorXd* sequence) : inner_(inner), seq_(sequence) {
    seq_->setZero();
  }
  void Next(int step, Eigen::Ref<VectorXd> p) override {
    inner_->Next(step, p);
    Store(step, p);
  }
  void NextInState(int step, const impact::StepState& state, Eigen::Ref<VectorXd> p) override {
    inner_->NextInState(step, state, p);
    Store(step, p);
  }

 private:
  void Store(int step, const Eigen::Ref<VectorXd>& p) {
    seq_->segment(static_cast<Eigen::Index>(step) * p.size(), p.size()) = p;
  }
  impact::PSource* inner_;
  VectorXd* seq_;
};

// Whether sample i of the mixed design is an ordered one (the odd samples); the even ones are
// the iid design's samples bit for bit.
bool IsOrderedSample(const RunPlan& plan, std::uint64_t i) {
  return plan.options.design == Design::kMixed && (i & 1U) != 0;
}

// Sample `global` of the run: its p-vectors and choices depend only on (seed, global).
const impact::SampleResult& RunOne(Worker& w, const RunPlan& plan, long long global) {
  const auto i = static_cast<std::uint64_t>(global);
  SampleChoices choices(plan.options.seed, i);
  const impact::SampleResult* r;
  if (IsOrderedSample(plan, i)) {
    OrderedPSource ordered(plan.options.seed, i, plan.problem.m(),
                           plan.options.algorithm.max_steps);
    if (plan.keep_p) {
      w.p_sequence.resize(plan.p_dimension);
      RecordingPSource src(&ordered, &w.p_sequence);
      r = &w.sampler.Run(src, &choices);
    } else {
      r = &w.sampler.Run(ordered, &choices);
    }
  } else if (plan.keep_p) {
    DesignPSequence(w, plan, i);
    r = &RunWithP(w, plan, global, w.p_sequence);
  } else if (plan.sobol) {
    SobolPSource src(w.generator.get(), i, &w.point);
    r = &w.sampler.Run(src, &choices);
  } else {
    IidPSource src(plan.options.seed, i);
    r = &w.sampler.Run(src, &choices);
  }
  w.summary.Add(*r);
  return *r;
}

// Stores sample r at position k; p and its choice key only when the arrays keep p-sequences.
void StoreSample(
    const impact::SampleResult& r, const VectorXd* p, long long key, long long k, SampleArrays* a) {
  if (a->p_sequences.cols() > 0) {
    IMPACTSET_ASSERT(p != nullptr && key >= 0);
    a->p_sequences.col(k) = *p;
    a->choice_keys[static_cast<size_t>(k)] = key;
  }
  a->v_plus.col(k) = r.v_plus;
  a->contact_velocity.col(k) = r.contact_velocity;
  const auto s = static_cast<size_t>(k);
  a->status[s] = r.status;
  a->lcp_solves[s] = r.lcp_solves;
  a->energy_ratio[s] = r.energy_ratio;
  a->non_unique[s] = r.non_unique_step ? 1 : 0;
}

// Packs per-sample trajectories into one n x total matrix with offsets.
void PackTrajectories(const std::vector<std::vector<VectorXd>>& per_sample,
                      int n,
                      SampleArrays* a) {
  a->trajectory_offsets.assign(per_sample.size() + 1, 0);
  for (size_t k = 0; k < per_sample.size(); ++k) {
    a->trajectory_offsets[k + 1] =
        a->trajectory_offsets[k] + static_cast<std::int64_t>(per_sample[k].size());
  }
  a->trajectories.resize(n, a->trajectory_offsets.back());
  for (size_t k = 0; k < per_sample.size(); ++k) {
    for (size_t s = 0; s < per_sample[k].size(); ++s) {
      a->trajectories.col(a->trajectory_offsets[k] + static_cast<std::int64_t>(s)) =
          per_sample[k][s];
    }
  }
}

// What the kept records need: the arrays, and every sample's trajectory until packed.
struct Keeper {
  SampleArrays* records = nullptr;                             // keep_samples or keep_trajectories
  std::vector<std::vector<VectorXd>>* trajectories = nullptr;  // keep_trajectories
  // key: the sample whose choice stream it ran with (its global index but for directed proposals).
  void Keep(const impact::SampleResult& r,
            const VectorXd* p,
            long long key,
            long long local) const {
    if (records) StoreSample(r, p, key, local, records);
    if (trajectories) (*trajectories)[static_cast<size_t>(local)] = r.trajectory;
  }
};

// Fills streamed block b, which holds local samples [b B, min((b + 1) B, count)), one sample at
// a time.
class BlockFiller {
 public:
  BlockFiller(const RunPlan& plan, long long b)
      : plan_(plan), blk_(std::make_shared<SampleBlock>()) {
    const long long begin = b * plan.block_size;
    blk_->first = plan.first + begin;
    blk_->samples.Resize(plan.n, plan.c, std::min(plan.block_size, plan.count - begin),
                         plan.keep_p ? plan.p_dimension : 0);
  }
  // key: the sample whose choice stream it ran with (its global index but for directed proposals).
  void Add(const impact::SampleResult& r, const VectorXd* p, long long key) {
    StoreSample(r, p, key, filled_++, &blk_->samples);
    if (plan_.stream_trajectories) {
      for (const VectorXd& v : r.trajectory) {
        IMPACTSET_ASSERT(v.size() == plan_.n);
        steps_.insert(steps_.end(), v.data(), v.data() + v.size());
      }
      offsets_.push_back(offsets_.back() + static_cast<std::int64_t>(r.trajectory.size()));
    }
  }
  bool Full() const { return filled_ == blk_->samples.count(); }
  std::shared_ptr<SampleBlock> Finish() {
    IMPACTSET_ASSERT(Full());
    if (plan_.stream_trajectories) {
      blk_->samples.trajectory_offsets = std::move(offsets_);
      blk_->samples.trajectories = Eigen::Map<const MatrixXd>(
          steps_.data(), plan_.n, static_cast<Eigen::Index>(steps_.size()) / plan_.n);
    }
    return std::move(blk_);
  }

 private:
  const RunPlan& plan_;
  std::shared_ptr<SampleBlock> blk_;
  long long filled_ = 0;
  std::vector<double> steps_;  // the block's trajectory points, one after another (column-major)
  std::vector<std::int64_t> offsets_{0};
};

std::shared_ptr<SampleBlock> ComputeBlock(Worker& w,
                                          const RunPlan& plan,
                                          const Keeper& keeper,
                                          long long b) {
  BlockFiller filler(plan, b);
  const long long begin = b * plan.block_size;
  for (long long k = begin; !filler.Full(); ++k) {
    const impact::SampleResult& r = RunOne(w, plan, plan.first + k);
    keeper.Keep(r, &w.p_sequence, plan.first + k, k);
    filler.Add(r, &w.p_sequence, plan.first + k);
  }
  return filler.Finish();
}

// threads == 1: everything on the calling thread, in sample order.
SampleSummary RunInline(const RunPlan& plan,
                        const Keeper& keeper,
                        const ProgressCallback& progress,
                        const StreamOptions& stream) {
  Worker w(plan.problem, plan.options, plan.sobol, plan.bases.get());
  if (stream.sink) {
    for (long long b = 0; b < plan.blocks; ++b) {
      auto blk = ComputeBlock(w, plan, keeper, b);
      if (stream.prepare) stream.prepare(*blk);
      stream.sink(*blk);
      if (progress) progress(blk->first - plan.first + blk->samples.count(), plan.count);
    }
  } else {
    for (long long k = 0; k < plan.count; ++k) {
      keeper.Keep(RunOne(w, plan, plan.first + k), &w.p_sequence, plan.first + k, k);
      if (progress && (k & 4095) == 4095) progress(k + 1, plan.count);
    }
  }
  return w.summary;
}

using Workers = oneapi::tbb::enumerable_thread_specific<std::unique_ptr<Worker>>;

Worker& LocalWorker(Workers& workers, const RunPlan& plan) {
  auto& slot = workers.local();
  if (!slot) {
    slot = std::make_unique<Worker>(plan.problem, plan.options, plan.sobol, plan.bases.get());
  }
  return *slot;
}

// Shared between the thread that reports progress and the workers.
struct RunState {
  std::atomic<long long> done{0};
  std::atomic<bool> stop{false};  // the progress callback threw: workers skip what is left
  bool Stopped() const { return stop.load(std::memory_order_relaxed); }
};

// The arena ParallelForInSink runs on while this thread is in a sink (null: inline).
thread_local oneapi::tbb::task_arena* t_sink_arena = nullptr;

// Hands the block to the sink, whose ParallelForInSink then runs on `arena` (null: inline).
void CallSink(const StreamOptions& stream,
              const SampleBlock& block,
              oneapi::tbb::task_arena* arena) {
  struct Restore {
    oneapi::tbb::task_arena* previous = t_sink_arena;
    ~Restore() { t_sink_arena = previous; }
  } restore;
  t_sink_arena = arena;
  stream.sink(block);
}

// Streaming: blocks computed in parallel, handed to the sink serially in sample order. After a
// stop, no new block starts and blocks in flight are dropped before the sink.
void RunPipeline(const RunPlan& plan,
                 const Keeper& keeper,
                 int threads,
                 oneapi::tbb::task_arena* arena,
                 Workers& workers,
                 RunState& state,
                 const StreamOptions& stream) {
  namespace tbb = oneapi::tbb;
  using BlockPtr = std::shared_ptr<SampleBlock>;
  long long next = 0;
  tbb::parallel_pipeline(
      static_cast<size_t>(2 * threads),
      tbb::make_filter<void, long long>(tbb::filter_mode::serial_in_order,
                                        [&](tbb::flow_control& fc) -> long long {
                                          if (next >= plan.blocks || state.Stopped()) fc.stop();
                                          return next++;
                                        }) &
          tbb::make_filter<long long, BlockPtr>(
              tbb::filter_mode::parallel,
              [&](long long b) -> BlockPtr {
                if (state.Stopped()) return nullptr;
                BlockPtr blk = ComputeBlock(LocalWorker(workers, plan), plan, keeper, b);
                if (stream.prepare) stream.prepare(*blk);
                state.done.fetch_add(blk->samples.count(), std::memory_order_relaxed);
                return blk;
              }) &
          tbb::make_filter<BlockPtr, void>(tbb::filter_mode::serial_in_order, [&](BlockPtr blk) {
            if (blk && !state.Stopped()) CallSink(stream, *blk, arena);
          }));
}

// Runs `work` on a helper thread while the caller reports progress about every 1/8 s. When the
// callback throws, the workers are told to stop and the exception is rethrown once they have.
void WithProgress(const std::function<void()>& work,
                  const ProgressCallback& progress,
                  RunState& state,
                  long long total) {
  if (!progress) {
    work();
    return;
  }
  std::mutex mu;
  std::condition_variable cv;
  bool finished = false;
  std::exception_ptr error, cancel;
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
      if (cancel) continue;  // stopping: wait for the workers
      lock.unlock();
      try {
        progress(state.done.load(std::memory_order_relaxed), total);
      } catch (...) {
        cancel = std::current_exception();
        state.stop.store(true, std::memory_order_relaxed);
      }
      lock.lock();
    }
  }
  runner.join();
  if (cancel) std::rethrow_exception(cancel);
  if (error) std::rethrow_exception(error);
}

// threads > 1: a TBB arena of that many threads.
SampleSummary RunParallel(const RunPlan& plan,
                          const Keeper& keeper,
                          int threads,
                          const ProgressCallback& progress,
                          const StreamOptions& stream) {
  Workers workers;
  oneapi::tbb::task_arena arena(threads);
  RunState state;
  auto work = [&] {
    arena.execute([&] {
      if (stream.sink) {
        RunPipeline(plan, keeper, threads, &arena, workers, state, stream);
        return;
      }
      // The partitioner may hand a worker a range far above the grain size: it counts and
      // checks for a stop every kChunk samples.
      constexpr long long kChunk = 256;
      oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<long long>(0, plan.count, kChunk),
                                [&](const oneapi::tbb::blocked_range<long long>& range) {
                                  Worker& w = LocalWorker(workers, plan);
                                  for (long long k = range.begin(); k < range.end(); k += kChunk) {
                                    if (state.Stopped()) return;
                                    const long long end = std::min(k + kChunk, range.end());
                                    for (long long j = k; j < end; ++j)
                                      keeper.Keep(RunOne(w, plan, plan.first + j), &w.p_sequence,
                                                  plan.first + j, j);
                                    state.done.fetch_add(end - k, std::memory_order_relaxed);
                                  }
                                });
    });
  };
  WithProgress(work, progress, state, plan.count);
  SampleSummary summary(plan.c);
  for (auto& w : workers) {
    if (w) summary.Merge(w->summary);  // counts and extremes: order-independent
  }
  return summary;
}

// One round of the directed design: samples [begin, end) with the proposals of the search as it
// stood when the round began, in parallel (any thread runs any sample: each one is a function of
// its index and the frozen search state).
void ComputeDirectedRound(const RunPlan& plan,
                          const DirectedSearch& search,
                          long long begin,
                          long long end,
                          std::optional<oneapi::tbb::task_arena>& arena,
                          Workers& workers,
                          std::vector<impact::SampleResult>* results,
                          MatrixXd* p,
                          std::vector<long long>* keys) {
  const long long n = end - begin;
  results->resize(static_cast<size_t>(n));
  keys->resize(static_cast<size_t>(n));
  p->resize(search.dimension(), n);
  auto run = [&](Worker& w, long long k) {
    long long& key = (*keys)[static_cast<size_t>(k)];
    if (search.Ordered(begin + k)) {
      key = begin + k;
      const auto i = static_cast<std::uint64_t>(key);
      OrderedPSource ordered(plan.options.seed, i, plan.problem.m(),
                             plan.options.algorithm.max_steps);
      w.p_sequence.resize(plan.p_dimension);
      RecordingPSource src(&ordered, &w.p_sequence);
      SampleChoices choices(plan.options.seed, i);
      (*results)[static_cast<size_t>(k)] = w.sampler.Run(src, &choices);
      p->col(k) = w.p_sequence;
      return;
    }
    search.Proposal(begin + k, p->col(k), &key);
    w.p_sequence = p->col(k);
    (*results)[static_cast<size_t>(k)] = RunWithP(w, plan, key, w.p_sequence);
  };
  if (!arena) {
    Worker& w = LocalWorker(workers, plan);
    for (long long k = 0; k < n; ++k) run(w, k);
    return;
  }
  arena->execute([&] {
    oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<long long>(0, n, 8),
                              [&](const oneapi::tbb::blocked_range<long long>& range) {
                                Worker& w = LocalWorker(workers, plan);
                                for (long long k = range.begin(); k < range.end(); ++k) run(w, k);
                              });
  });
}

// Runs the search's remaining rounds: each computed in parallel (ComputeDirectedRound), then on
// the calling thread, in sample order, offered to the search at y(result) and handed to
// take(index, result, P, key); after(end) follows each round once the search has closed it.
template <typename Y, typename Take, typename After>
void RunRounds(const RunPlan& plan,
               DirectedSearch& search,
               std::optional<oneapi::tbb::task_arena>& arena,
               Workers& workers,
               const Y& y,
               const Take& take,
               const After& after) {
  std::vector<impact::SampleResult> results;
  MatrixXd p;
  std::vector<long long> keys;
  for (auto round = search.NextRound(); round.first < round.second; round = search.NextRound()) {
    const auto [begin, end] = round;
    ComputeDirectedRound(plan, search, begin, end, arena, workers, &results, &p, &keys);
    for (long long k = 0; k < end - begin; ++k) {
      const impact::SampleResult& r = results[static_cast<size_t>(k)];
      const VectorXd pk = p.col(k);
      const long long key = keys[static_cast<size_t>(k)];
      search.Observe(begin + k, y(r), r.status == impact::SampleStatus::kTerminated, pk, key);
      take(begin + k, r, pk, key);
    }
    search.EndRound();
    after(end);
  }
}

// The directed design: rounds computed in parallel; after each, on the calling thread and in
// sample order, the summary, the search, the kept records and the streamed blocks. Progress is
// reported (and a cancelling exception thrown) between rounds.
SampleSummary RunDirected(const RunPlan& plan,
                          const Keeper& keeper,
                          int threads,
                          const ProgressCallback& progress,
                          const StreamOptions& stream) {
  IMPACTSET_ASSERT(plan.first == 0 && plan.count == plan.options.samples);
  DirectedSearch search(plan.options.directed, plan.problem.m(), plan.options.algorithm.max_steps,
                        plan.c, plan.options.seed, plan.count);
  Workers workers;
  std::optional<oneapi::tbb::task_arena> arena;
  if (threads > 1) arena.emplace(threads);
  SampleSummary summary(plan.c);
  std::unique_ptr<BlockFiller> filler;  // unique_ptr: GCC 12 misreads an optional here
  auto take = [&](long long i, const impact::SampleResult& r, const VectorXd& pk, long long key) {
    summary.Add(r);
    keeper.Keep(r, &pk, key, i);
    if (!stream.sink) return;
    if (!filler) filler = std::make_unique<BlockFiller>(plan, i / plan.block_size);
    filler->Add(r, &pk, key);
    if (filler->Full()) {
      auto blk = filler->Finish();
      if (stream.prepare) stream.prepare(*blk);
      CallSink(stream, *blk, arena ? &*arena : nullptr);
      filler.reset();
    }
  };
  RunRounds(
      plan, search, arena, workers,
      [](const impact::SampleResult& r) -> const VectorXd& { return r.contact_velocity; }, take,
      [&](long long end) {
        if (progress) progress(end, plan.count);
      });
  return summary;
}

}  // namespace

void ParallelForInSink(long long count, const std::function<void(long long)>& body) {
  if (count < 0) InvalidArgument("count", count, "must be >= 0");
  oneapi::tbb::task_arena* arena = t_sink_arena;
  if (arena == nullptr || count <= 1) {
    for (long long i = 0; i < count; ++i) body(i);
    return;
  }
  // Isolated: while this thread waits for the parts, it takes no other task of the run (a block
  // to sample), which would hold up the sink and with it the blocks queued behind it.
  arena->execute([&] {
    oneapi::tbb::this_task_arena::isolate([&] {
      oneapi::tbb::parallel_for(
          oneapi::tbb::blocked_range<long long>(0, count, 1),
          [&](const oneapi::tbb::blocked_range<long long>& range) {
            for (long long i = range.begin(); i != range.end(); ++i) body(i);
          },
          oneapi::tbb::simple_partitioner());
    });
  });
}

SamplerResult RunSampler(const impact::ImpactProblem& problem,
                         const SamplerOptions& options,
                         const ProgressCallback& progress,
                         const StreamOptions& stream) {
  options.Validate();
  if (stream.block_size < 1) InvalidArgument("block_size", stream.block_size, "must be >= 1");
  const RunPlan plan = MakePlan(problem, options, stream);
  SamplerResult result;
  result.first_sample = plan.first;
  result.count = plan.count;

  std::vector<std::vector<VectorXd>> trajectories;
  Keeper keeper;
  if (options.keep_samples || options.keep_trajectories) {
    result.records.Resize(plan.n, plan.c, plan.count, plan.keep_p ? plan.p_dimension : 0);
    keeper.records = &result.records;
  }
  if (options.keep_trajectories) {
    trajectories.resize(static_cast<size_t>(plan.count));
    keeper.trajectories = &trajectories;
  }

  const auto t0 = std::chrono::steady_clock::now();
  const int threads = options.threads != 0              ? options.threads
                      : plan.count < kAutoInlineSamples ? 1
                                                        : oneapi::tbb::info::default_concurrency();
  result.threads_used = threads;
  if (options.design == Design::kDirected) {
    result.summary = RunDirected(plan, keeper, threads, progress, stream);
  } else {
    result.summary = threads == 1 ? RunInline(plan, keeper, progress, stream)
                                  : RunParallel(plan, keeper, threads, progress, stream);
  }
  if (progress) progress(plan.count, plan.count);
  if (options.keep_trajectories) PackTrajectories(trajectories, plan.n, &result.records);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

namespace {

// Reruns sample `index` of the plan's design, recording its whole P into w.p_sequence.
const impact::SampleResult& RerunRecorded(Worker& w, const RunPlan& plan, long long index) {
  const auto i = static_cast<std::uint64_t>(index);
  if (!IsOrderedSample(plan, i)) {
    DesignPSequence(w, plan, i);
    return RunWithP(w, plan, index, w.p_sequence);
  }
  OrderedPSource ordered(plan.options.seed, i, plan.problem.m(), plan.options.algorithm.max_steps);
  w.p_sequence.resize(plan.p_dimension);
  RecordingPSource src(&ordered, &w.p_sequence);
  SampleChoices choices(plan.options.seed, i);
  return w.sampler.Run(src, &choices);
}

void ValidatePolish(const SamplerOptions& run,
                    const std::vector<long long>& starts,
                    long long first,
                    long long budget) {
  run.Validate();
  if (run.design == Design::kDirected) {
    InvalidArgument("design", ToString(run.design),
                    "cannot be polished: its samples are not a function of (seed, index)");
  }
  if (starts.empty()) InvalidArgument("starts", 0, "must name at least one sample");
  for (const long long i : starts) {
    if (i < 0 || i >= run.samples) {
      InvalidArgument("start", i, "must lie in [0, samples = " + std::to_string(run.samples) + ")");
    }
  }
  if (first < run.samples) {
    InvalidArgument("first", first, "must be >= samples = " + std::to_string(run.samples));
  }
  if (budget < 1) InvalidArgument("budget", budget, "must be >= 1");
}

}  // namespace

PolishResult PolishExtremes(const impact::ImpactProblem& problem,
                            const SamplerOptions& run,
                            const MatrixXd& output,
                            std::vector<long long> starts,
                            long long first,
                            long long budget) {
  ValidatePolish(run, starts, first, budget);
  if (output.cols() != problem.n() || output.rows() < 1) {
    InvalidArgument("output columns", output.cols(),
                    "must equal n = " + std::to_string(problem.n()) + " (and rows >= 1)");
  }
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  SamplerOptions o = run;
  o.shard_index = 0;
  o.shard_count = 1;
  o.keep_samples = o.keep_trajectories = false;
  const RunPlan plan = MakePlan(problem, o, StreamOptions{});
  // A local search along the set's own support directions: no random round directions and no
  // fresh ordered draws (measured on the short systems of docs/coverage.md: both reached less
  // for the same budget).
  DirectedOptions local = run.directed;
  local.round_directions = 0;
  local.boundary_fraction = 0;
  DirectedSearch search(local, problem.m(), run.algorithm.max_steps,
                        static_cast<int>(output.rows()), run.seed, first + budget, first);
  Workers workers;
  std::optional<oneapi::tbb::task_arena> arena;
  if (run.threads != 1)
    arena.emplace(run.threads == 0 ? oneapi::tbb::info::default_concurrency() : run.threads);
  // The pilot: the starts, rerun (each as the run computed it).
  search.NextRound();
  {
    Worker& w = LocalWorker(workers, plan);
    for (const long long i : starts) {
      const impact::SampleResult& r = RerunRecorded(w, plan, i);
      search.Observe(i, output * r.v_plus, r.status == impact::SampleStatus::kTerminated,
                     w.p_sequence, i);
    }
  }
  search.EndRound();
  PolishResult out;
  out.directions = search.directions();
  out.start_values = search.best_values();
  out.samples.Resize(plan.n, plan.c, budget, run.keep_p_sequences ? plan.p_dimension : 0);
  RunRounds(
      plan, search, arena, workers,
      [&output](const impact::SampleResult& r) -> VectorXd { return output * r.v_plus; },
      [&](long long i, const impact::SampleResult& r, const VectorXd& pk, long long key) {
        StoreSample(r, &pk, key, i - first, &out.samples);
      },
      [](long long) {});
  out.values = search.best_values();
  out.rounds = search.rounds() - 1;
  return out;
}

impact::SampleResult RunSampleWithPSequence(const impact::ImpactProblem& problem,
                                            const SamplerOptions& options,
                                            long long choice_key,
                                            const VectorXd& p_sequence) {
  options.Validate();
  if (choice_key < 0) InvalidArgument("choice_key", choice_key, "must be >= 0");
  const int dim = problem.m() * options.algorithm.max_steps;
  if (p_sequence.size() != dim) {
    InvalidArgument("p_sequence size", p_sequence.size(), "must be m N = " + std::to_string(dim));
  }
  for (Eigen::Index k = 0; k < p_sequence.size(); ++k) {
    if (!(p_sequence(k) >= 0 && p_sequence(k) <= 1)) {
      InvalidArgument("p_sequence[" + std::to_string(k) + "]", p_sequence(k), "must lie in [0, 1]");
    }
  }
  const std::unique_ptr<lcp::Solver> solver =
      lcp::MakeSolver(options.solver, options.algorithm.lemke);
  impact::RouthSampler sampler(problem, options.algorithm, solver.get());
  const std::shared_ptr<const impact::StepBasisTable> bases = LearnRunStepBases(problem, options);
  sampler.SetBasisTable(bases.get());  // the run's own table: the sample replays bit for bit
  SampleChoices choices(options.seed, static_cast<std::uint64_t>(choice_key));
  PSequenceSource src(p_sequence);
  return sampler.Run(src, &choices);
}

MatrixXd TerminatedColumns(const MatrixXd& points,
                           const std::vector<impact::SampleStatus>& status) {
  if (static_cast<size_t>(points.cols()) != status.size()) {
    InvalidArgument("status.size()", status.size(),
                    "must equal the number of point columns " + std::to_string(points.cols()));
  }
  const auto terminated = impact::SampleStatus::kTerminated;
  const auto count = std::count(status.begin(), status.end(), terminated);
  MatrixXd out(points.rows(), static_cast<Eigen::Index>(count));
  Eigen::Index j = 0;
  for (Eigen::Index k = 0; k < points.cols(); ++k) {
    if (status[static_cast<size_t>(k)] == terminated) out.col(j++) = points.col(k);
  }
  return out;
}

}  // namespace impactset::sampling
