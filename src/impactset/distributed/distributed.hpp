#pragma once
// Running on many processes with Open MPI (docs/cluster.md). The only module that talks to MPI:
// <mpi.h> appears in its .cpp files only, and a build without MPI compiles the single-process
// versions of the same functions (Built() is false there).
//
// `mpirun -n R impactset batch ...`: rank 0 is the manager and the only writer (one file, no
// parallel HDF5); it hands out states one at a time as ranks finish them (dynamic load balancing:
// states differ a lot in cost), and computes states itself on a second thread. Every rank runs
// its states with its own TBB threads. Since a state's samples depend only on (seed, state), the
// file is identical for any R.
// `mpirun -n R impactset run ...`: rank r computes shard r of R with its samples kept; rank 0
// joins the shards with engine::Merge, which rebuilds the nets exactly: the same result as one
// process.
#include <functional>
#include <optional>
#include <string>

#include <impactset/batch/batch.hpp>
#include <impactset/batch/batch_writer.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/rollouts/rollout.hpp>

namespace impactset::distributed {

/// True when this binary was built with MPI.
bool Built();

/// MPI for the life of the object, when the process was started by an MPI launcher (mpirun,
/// srun: detected from their environment variables) and MPI was built in; otherwise a single
/// process (rank 0 of 1). Construct one, in main, before any other call of this module.
class Session {
 public:
  Session(int* argc, char*** argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0, size_ = 1;
  [[maybe_unused]] bool initialized_ = false;  // the MPI build's; the serial one never sets it
};

/// The live Session, or a single-process one when none was constructed.
const Session& Current();

/// Runs check() on rank 0 only (what only rank 0 may see: its output path) and throws what it
/// threw, as std::invalid_argument with the same message, on every rank; one process: check().
void CheckOnRankZero(const std::function<void()>& check);

/// What a batch did (rank 0's view; other ranks see their own share).
struct BatchReport {
  long long resumed = 0;          ///< states found done in the parts
  long long computed = 0;         ///< states computed now
  long long not_ok = 0;           ///< computed states whose status is not ok
  std::string first_not_ok = {};  ///< the lowest of those: "state I: STATUS: message"
  long long samples = 0;          ///< samples run now
  /// --resume found OUT complete (batch::FinishedBefore): nothing ran, OUT is untouched.
  bool finished_before = false;
};

/// The batch over every rank of Current() (batch::RunBatch on one process).
/// @throws std::invalid_argument on every rank, before anything is written: more ranks than
///         states, or what BatchWriter rejects (parts of another job, parts without resume).
BatchReport RunBatch(const batch::BatchJob& job,
                     const std::string& out,
                     bool resume,
                     const batch::BatchProgressCallback& progress = {});

/// How a run was split (rank 0's view).
struct RunReport {
  int ranks = 1;
  double seconds = 0;        ///< wall time of the whole run: sampling, sending, merging
  double merge_seconds = 0;  ///< receiving the shards and merging them (nets rebuilt) on rank 0
};

/// engine::Run split over the ranks of Current(): the merged result on rank 0, nothing on the
/// others. One rank: engine::Run itself. `report` (optional) says how it was split.
/// @throws std::invalid_argument for bad options (on every rank), and under mpirun for more
///         ranks than samples, the directed design or a --shard of its own.
std::optional<engine::RunResult> Run(const impact::ImpactProblem& problem,
                                     const engine::RunOptions& options,
                                     const std::string& system,
                                     const engine::ProgressCallback& progress = {},
                                     RunReport* report = nullptr);

/// rollouts::RunRollouts over the ranks of Current(): rank r runs the rollouts i with
/// i mod R = r (each on its own TBB threads) and sends them to rank 0, which also runs the
/// baseline and returns the report, equal to one process's (a rollout depends only on the seed
/// and its index); the other ranks return nothing. seconds: the whole wall time on rank 0.
/// @throws std::invalid_argument from RolloutOptions::Validate, on every rank.
std::optional<rollouts::RolloutReport> RunRollouts(const robots::SimulationModel& model,
                                                   const rollouts::RolloutOptions& options);

}  // namespace impactset::distributed
