#pragma once
// A batch's output: finished states collected into part files (resumable) and assembled into one
// batch file, and RunBatch, the whole batch in this process.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <impactset/batch/batch.hpp>
#include <impactset/data/batch_file.hpp>

namespace impactset::batch {

/// Writes the batch file OUT (atomically) from every state's record, given in any order: the
/// header, a `created` time and the states in index order, as RunBatch writes it. Used where the
/// states were computed elsewhere (impactset.BatchJob.run_states on a cluster's workers).
/// @throws std::invalid_argument naming a state that is missing, given twice or out of range.
void WriteBatch(const BatchJob& job,
                std::vector<data::StateRecord> records,
                const std::string& out);

/// With resume: true when OUT is this job's finished file and no parts wait (the batch is done:
/// there is nothing to resume, and OUT is left as it is). False without resume, without OUT, or
/// while parts wait (BatchWriter resumes them).
/// @throws std::invalid_argument when OUT is a file of another batch (or no batch file), naming
///         the first setting that differs with both values.
bool FinishedBefore(const BatchJob& job, const std::string& out, bool resume);

/// Collects finished states (in any order) into part files and assembles the output file.
class BatchWriter {
 public:
  /// resume = false: fails if OUT.parts exists (a batch to resume); resume = true: reads the
  /// parts there (their `job` must equal this job's) and skips their states.
  /// @throws std::invalid_argument for a parts directory of another job, or without --resume.
  BatchWriter(const BatchJob& job, std::string out, bool resume);
  /// The states not done yet, in index order.
  std::vector<long long> Pending() const;
  long long DoneCount() const { return done_count_; }
  /// Stores a finished state; writes a part file every options.part_states states.
  void Add(data::StateRecord record);
  /// Writes the last part, then OUT (atomically) from every part in index order, and removes
  /// the parts. @throws std::logic_error if a state is missing.
  void Finish();
  std::string PartsDirectory() const { return out_ + ".parts"; }

 private:
  void Flush();
  const BatchJob& job_;
  std::string out_;
  std::vector<char> done_;
  long long done_count_ = 0;
  int next_part_ = 0;
  std::vector<data::StateRecord> buffer_;
};

/// Progress of a batch: states done (by this call and by the runs it resumes), samples run by
/// this call.
struct BatchProgress {
  long long states_done = 0, states_total = 0, resumed = 0;
  long long not_ok = 0;  ///< states computed by this call whose status is not kOk
  /// Of those, the lowest index's: "state I: STATUS: message" (empty: none), so that a batch
  /// where no state ran says why.
  std::string first_not_ok = {};
  long long samples = 0;
  double seconds = 0;
  bool finished_before = false;  ///< --resume found OUT complete (FinishedBefore): nothing ran
};
using BatchProgressCallback = std::function<void(const BatchProgress&)>;

/// What a batch driver (RunBatch here, the Open MPI manager in distributed/) does with each
/// finished state: counts it in the progress, hands it to the writer, reports the progress.
/// Not thread-safe: one Store at a time.
class BatchRecorder {
 public:
  BatchRecorder(const BatchJob& job, BatchWriter* writer, BatchProgressCallback progress);
  /// Counts the record, writer->Add(record), then calls the callback (whose exception passes).
  void Store(data::StateRecord record);
  const BatchProgress& progress() const { return p_; }
  /// States stored since the start (not the resumed ones).
  long long Computed() const { return p_.states_done - p_.resumed; }

 private:
  const BatchJob& job_;
  BatchWriter* writer_;
  BatchProgressCallback callback_;
  BatchProgress p_;
  long long first_not_ok_index_ = -1;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// The whole batch in this process, then Finish(); with resume and a finished OUT
/// (FinishedBefore) nothing: the progress says so (finished_before, every state resumed). Pending
/// states run up to options.run.sampler.threads at a time (each on up to that many threads), in any
/// order; the file is the same at any thread count. `progress` is called after every state, one
/// call at a time, from whichever thread finished it; an exception it throws stops the batch (the
/// parts written so far stay, for --resume) and is rethrown. Returns the final progress.
BatchProgress RunBatch(const BatchJob& job,
                       const std::string& out,
                       bool resume,
                       const BatchProgressCallback& progress = {});

}  // namespace impactset::batch
