// The Open MPI build. Rank 0 manages and writes; every rank computes. Only this file includes
// <mpi.h>. MPI is called from each process's main thread only (MPI_THREAD_FUNNELED): rank 0's
// own states run on a second thread that never calls MPI.
#include <mpi.h>

#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <impactset/common/error_policy.hpp>
#include <impactset/distributed/internal/local.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/merge.hpp>

namespace impactset::distributed {

namespace {

const Session* current = nullptr;

enum Tag : int { kAssign = 1, kDone = 2, kResult = 3, kShard = 4, kRollouts = 5 };
// How long an idle MPI loop sleeps between polls: kAhead queued states (each milliseconds or more)
// hide the latency, and every wake-up takes CPU from the computing threads (200 us: strong-scaling
// efficiency 0.77 at 2 ranks x 1 thread; 2 ms: 0.83, bench in docs/cluster.md).
constexpr auto kPollInterval = std::chrono::milliseconds(2);
// States handed to a worker ahead of its current one, so it never waits for the manager.
constexpr int kAhead = 2;

bool LaunchedByMpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
    if (std::getenv(v)) return true;
  }
  return false;
}

void SendBytes(const std::string& bytes, int to, int tag) {
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, to, tag, MPI_COMM_WORLD);
}

std::string ReceiveBytes(int from, int tag, MPI_Status* status) {
  MPI_Status probe;
  MPI_Probe(from, tag, MPI_COMM_WORLD, &probe);
  int count = 0;
  MPI_Get_count(&probe, MPI_BYTE, &count);
  std::string bytes(static_cast<size_t>(count), '\0');
  MPI_Recv(bytes.data(), count, MPI_BYTE, probe.MPI_SOURCE, probe.MPI_TAG, MPI_COMM_WORLD,
           status ? status : MPI_STATUS_IGNORE);
  return bytes;
}

// Rank 0 tells every rank whether the batch can start: "" or the error message, and whether
// it was finished before (nothing to do). Returns that flag; throws the error on every rank.
bool ShareOutcome(const std::string& error, bool finished = false) {
  std::string message = error;
  int header[2] = {static_cast<int>(message.size()), finished ? 1 : 0};
  MPI_Bcast(header, 2, MPI_INT, 0, MPI_COMM_WORLD);
  message.resize(static_cast<size_t>(header[0]));
  MPI_Bcast(message.data(), header[0], MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!message.empty()) throw std::invalid_argument(message);
  return header[1] != 0;
}

// The states not yet handed out, shared by the manager loop and rank 0's own computing thread.
class Scheduler {
 public:
  explicit Scheduler(std::vector<long long> pending) : pending_(std::move(pending)) {}
  bool Next(long long* index) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (next_ == pending_.size()) return false;
    *index = pending_[next_++];
    return true;
  }
  size_t size() const { return pending_.size(); }

 private:
  std::mutex mutex_;
  std::vector<long long> pending_;
  size_t next_ = 0;
};

// Sends worker w its next state, or once kDone when none is left (told[w]).
void Assign(Scheduler* s, int w, std::vector<char>* told) {
  long long i = 0;
  if (s->Next(&i)) {
    MPI_Send(&i, 1, MPI_LONG_LONG, w, kAssign, MPI_COMM_WORLD);
  } else if (!(*told)[w]) {
    (*told)[w] = 1;
    MPI_Send(nullptr, 0, MPI_LONG_LONG, w, kDone, MPI_COMM_WORLD);
  }
}

BatchReport Manager(const batch::BatchJob& job,
                    batch::BatchWriter* writer,
                    int size,
                    const batch::BatchProgressCallback& progress) {
  Scheduler scheduler(writer->Pending());
  batch::BatchRecorder recorder(job, writer, progress);
  std::mutex local_mutex;
  std::deque<data::StateRecord> local;
  std::thread own([&] {
    long long i = 0;
    while (scheduler.Next(&i)) {
      data::StateRecord r = batch::RunState(job, i);
      std::lock_guard<std::mutex> lock(local_mutex);
      local.push_back(std::move(r));
    }
  });
  std::vector<char> told(static_cast<size_t>(size), 0);
  for (int w = 1; w < size; ++w) {
    for (int k = 0; k < kAhead; ++k) Assign(&scheduler, w, &told);
  }
  const auto total = static_cast<long long>(scheduler.size());
  while (recorder.Computed() < total) {
    bool idle = true;
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, kResult, MPI_COMM_WORLD, &flag, &st);
    if (flag) {
      idle = false;
      MPI_Status from;
      const std::string bytes = ReceiveBytes(st.MPI_SOURCE, kResult, &from);
      recorder.Store(data::DecodeState(bytes));
      Assign(&scheduler, from.MPI_SOURCE, &told);
    }
    std::deque<data::StateRecord> mine;
    {
      std::lock_guard<std::mutex> lock(local_mutex);
      mine.swap(local);
    }
    for (data::StateRecord& r : mine) recorder.Store(std::move(r)), idle = false;
    if (idle) std::this_thread::sleep_for(kPollInterval);
  }
  own.join();
  return ReportOf(recorder.progress());
}

// Results sent but not yet received by the manager. A blocking send of a result larger than
// Open MPI's eager limit would wait (spinning) until the manager's next poll; with a non-blocking
// one the worker goes on with its next state. deque: pushing keeps earlier elements in place, so
// each buffer stays valid until its send completes.
class Outbox {
 public:
  void Send(std::string bytes) {
    sends_.push_back({std::move(bytes), MPI_REQUEST_NULL});
    Pending& p = sends_.back();
    MPI_Isend(p.bytes.data(), static_cast<int>(p.bytes.size()), MPI_BYTE, 0, kResult,
              MPI_COMM_WORLD, &p.request);
    Reap();
  }
  void Reap() {  // frees the buffers of completed sends (they complete in order)
    while (!sends_.empty()) {
      int flag = 0;
      MPI_Test(&sends_.front().request, &flag, MPI_STATUS_IGNORE);
      if (!flag) return;
      sends_.pop_front();
    }
  }
  ~Outbox() {
    for (Pending& p : sends_) MPI_Wait(&p.request, MPI_STATUS_IGNORE);
  }

 private:
  struct Pending {
    std::string bytes;
    MPI_Request request;
  };
  std::deque<Pending> sends_;
};

void Worker(const batch::BatchJob& job) {
  std::deque<long long> mine;
  Outbox outbox;
  bool done = false;
  for (;;) {
    while (mine.empty() && !done) {
      outbox.Reap();
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
      if (!flag) {
        std::this_thread::sleep_for(kPollInterval);
        continue;
      }
      long long i = 0;
      MPI_Recv(&i, st.MPI_TAG == kAssign ? 1 : 0, MPI_LONG_LONG, 0, st.MPI_TAG, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      if (st.MPI_TAG == kAssign)
        mine.push_back(i);
      else
        done = true;
    }
    if (mine.empty()) return;  // the outbox waits for the last sends
    const long long i = mine.front();
    mine.pop_front();
    outbox.Send(data::EncodeState(batch::RunState(job, i)));
  }
}

}  // namespace

bool Built() { return true; }

Session::Session(int* argc, char*** argv) {
  if (argc && LaunchedByMpi()) {
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    initialized_ = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  if (argc) current = this;  // main's session; Current()'s fallback must not replace it
}

Session::~Session() {
  if (initialized_) MPI_Finalize();
  if (current == this) current = nullptr;
}

const Session& Current() {
  static Session single(nullptr, nullptr);
  return current ? *current : single;
}

void CheckOnRankZero(const std::function<void()>& check) {
  const Session& s = Current();
  if (s.size() == 1) return check();
  std::string error;
  if (s.rank() == 0) {
    try {
      check();
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  ShareOutcome(error);
}

BatchReport RunBatch(const batch::BatchJob& job,
                     const std::string& out,
                     bool resume,
                     const batch::BatchProgressCallback& progress) {
  const Session& s = Current();
  if (s.size() == 1) return RunBatchLocally(job, out, resume, progress);
  if (s.size() > job.Count()) {  // every rank knows the job: all throw the same message
    throw std::invalid_argument("mpirun -n " + std::to_string(s.size()) + " for " +
                                std::to_string(job.Count()) +
                                " states: use at most as many ranks as states");
  }
  if (s.rank() != 0) {
    if (ShareOutcome("")) return {};  // receives rank 0's verdict; throws its error
    Worker(job);
    return {};
  }
  std::optional<batch::BatchWriter> writer;
  bool finished = false;
  try {
    finished = batch::FinishedBefore(job, out, resume);
    if (!finished) writer.emplace(job, out, resume);
  } catch (const std::exception& e) {
    ShareOutcome(e.what());
  }
  ShareOutcome("", finished);
  if (finished) return {.resumed = job.Count(), .finished_before = true};
  BatchReport report = Manager(job, &*writer, s.size(), progress);
  writer->Finish();
  return report;
}

namespace {

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// What splitting a run over `ranks` ranks needs, in the user's words (the sampler's own rule
// would speak of a shard count nobody gave).
void CheckSplit(const engine::RunOptions& o, int ranks) {
  const std::string launch = "mpirun -n " + std::to_string(ranks);
  if (o.sampler.shard_count != 1) {
    throw std::invalid_argument(launch + " with --shard " + std::to_string(o.sampler.shard_index) +
                                "/" + std::to_string(o.sampler.shard_count) +
                                ": mpirun splits the samples itself; give one or the other");
  }
  if (o.sampler.design == sampling::Design::kDirected) {
    throw std::invalid_argument(launch +
                                " with --design directed: each round of the directed design "
                                "depends on every earlier sample; run it as one process");
  }
  if (o.sampler.samples < ranks) {
    throw std::invalid_argument(launch + " for " + std::to_string(o.sampler.samples) + " sample" +
                                (o.sampler.samples == 1 ? "" : "s") +
                                ": use at most as many ranks as samples");
  }
}

std::string TempPath(int rank) {
  return (std::filesystem::temp_directory_path() /
          ("impactset-shard-" + std::to_string(::getpid()) + "-" + std::to_string(rank) + ".h5"))
      .string();
}

}  // namespace

std::optional<engine::RunResult> Run(const impact::ImpactProblem& problem,
                                     const engine::RunOptions& options,
                                     const std::string& system,
                                     const engine::ProgressCallback& progress,
                                     RunReport* report) {
  const Session& s = Current();
  const auto t0 = std::chrono::steady_clock::now();
  auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  if (s.size() == 1) {
    engine::RunResult r = engine::Run(problem, options, system, progress);
    if (report) *report = {.ranks = 1, .seconds = since(t0)};
    return r;
  }
  CheckSplit(options, s.size());  // every rank knows the options: all throw the same message
  engine::RunOptions shard = options;
  shard.sampler.shard_index = s.rank();
  shard.sampler.shard_count = s.size();
  shard.sampler.keep_samples = true;  // Merge rebuilds the nets exactly from kept samples
  shard.sampler.keep_trajectories =
      options.sampler.keep_trajectories || (options.sets && options.set_options.reachable);
  engine::RunResult mine = engine::Run(problem, shard, system, s.rank() == 0 ? progress : nullptr);
  const std::string path = TempPath(s.rank());
  if (s.rank() != 0) {
    engine::WriteRun(path, mine);
    const std::string bytes = FileBytes(path);
    std::filesystem::remove(path);
    SendBytes(bytes, 0, kShard);
    return std::nullopt;
  }
  const auto merge_start = std::chrono::steady_clock::now();
  std::vector<engine::RunResult> shards;
  shards.push_back(std::move(mine));
  for (int r = 1; r < s.size(); ++r) {
    const std::string bytes = ReceiveBytes(r, kShard, nullptr);
    std::ofstream(path, std::ios::binary) << bytes;
    shards.push_back(engine::ReadRun(path));
    std::filesystem::remove(path);
  }
  engine::RunResult merged = engine::Merge(std::move(shards));
  if (report)
    *report = {.ranks = s.size(), .seconds = since(t0), .merge_seconds = since(merge_start)};
  // Back to what the user asked to keep: the file is then the single process's.
  merged.options.sampler.keep_samples = options.sampler.keep_samples;
  merged.options.sampler.keep_trajectories = options.sampler.keep_trajectories;
  if (!options.sampler.keep_samples && !options.sampler.keep_trajectories) {
    merged.samples.reset();
  } else if (!options.sampler.keep_trajectories) {
    merged.samples->trajectories.resize(merged.samples->trajectories.rows(), 0);
    merged.samples->trajectory_offsets.clear();
  }
  return merged;
}

std::optional<rollouts::RolloutReport> RunRollouts(const robots::SimulationModel& model,
                                                   const rollouts::RolloutOptions& options) {
  const Session& s = Current();
  if (s.size() == 1) return rollouts::RunRollouts(model, options);
  options.Validate(model);  // every rank has the options: all throw the same message
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<long long> mine;
  for (long long i = s.rank(); i < options.rollouts; i += s.size()) mine.push_back(i);
  std::vector<rollouts::RolloutResult> results = rollouts::RunRolloutIndices(model, options, mine);
  if (s.rank() != 0) {
    SendBytes(rollouts::EncodeResults(results), 0, kRollouts);
    return std::nullopt;
  }
  std::vector<rollouts::RolloutResult> all(static_cast<size_t>(options.rollouts));
  std::vector<char> placed(all.size(), 0);
  auto place = [&](std::vector<rollouts::RolloutResult>&& part) {
    for (rollouts::RolloutResult& r : part) {
      IMPACTSET_ASSERT(r.index >= 0 && r.index < options.rollouts && !placed[r.index]);
      placed[static_cast<size_t>(r.index)] = 1;
      all[static_cast<size_t>(r.index)] = std::move(r);
    }
  };
  place(std::move(results));
  for (int r = 1; r < s.size(); ++r)
    place(rollouts::DecodeResults(ReceiveBytes(r, kRollouts, nullptr)));
  IMPACTSET_ASSERT(std::find(placed.begin(), placed.end(), 0) == placed.end());  // every index
  rollouts::RolloutReport report = rollouts::CompleteRollouts(model, options, std::move(all));
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace impactset::distributed
