#pragma once
// Batches of impact states (`impactset batch`, docs/dataset-format.md "Batch files"): a design
// over named parameters of a parametrised source gives S states; each state runs Algorithm 2
// (engine::Run) and yields its summary, sets and fixed-size features, stored by state in one
// HDF5 file. The batch is resumable: finished states go to part files (OUT.parts/part-*.h5, each
// written atomically) in chunks; when every state is done the parts are assembled into OUT.
//
// Determinism: state i runs with seed StateSeed(seed, i), so its samples depend only on
// (seed, i, sample index): never on the process, rank or schedule that computed it.
#include <chrono>
#include <cstdint>
#include <functional>
#include <impactset/common/enum_names.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/data/batch_file.hpp>
#include <impactset/data/problem_stack.hpp>
#include <impactset/engine/batch_options.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/robots/mujoco_model.hpp>
#include <impactset/systems/parametric.hpp>

namespace impactset::batch {

/// How the states are laid out over the parameter ranges.
enum class StateDesignKind {
  kGrid,   ///< the tensor grid of ParameterRange::points values each, first parameter slowest
  kIid,    ///< `states` iid uniform points in the box (stream (state_seed, i))
  kSobol,  ///< `states` points of a digitally shifted Sobol sequence (shift from state_seed)
  kTable   ///< the rows of an explicit table
};
IMPACTSET_ENUM_NAMES(StateDesignKind,
                     "state design",
                     {E::kGrid, "grid"},
                     {E::kIid, "iid"},
                     {E::kSobol, "sobol"},
                     {E::kTable, "table"})
inline const char* ToString(StateDesignKind k) { return EnumName(k).data(); }

/// One varied parameter: values in [low, high].
struct ParameterRange {
  std::string name;
  double low = 0, high = 0;
  long long points = 1;  ///< grid only: >= 1 values, low and high included (1: low only)
};

/// Most states in one batch (docs/robustness.md): the design's points (P x S doubles) and the
/// resume bitmap are held in memory, 128 MB per parameter at the bound. StateDesign::Validate
/// refuses Count() > kMaxStates (a grid of 10^12 states once passed and aborted on bad_alloc).
inline constexpr long long kMaxStates = 1LL << 24;

struct StateDesign {
  StateDesignKind kind = StateDesignKind::kGrid;
  std::vector<ParameterRange> ranges;    ///< grid, iid, sobol: one per parameter
  long long states = 0;                  ///< iid, sobol: S >= 1
  std::uint64_t state_seed = 1;          ///< iid, sobol
  std::vector<std::string> table_names;  ///< table: the parameter names (columns)
  MatrixXd table;                        ///< table: S x P values
  /// @throws std::invalid_argument: no parameter, a name given twice, an empty range
  ///         (high < low, or low == high with more than one grid point), non-finite bounds,
  ///         states < 1, a table without rows or with non-finite values, more than kMaxStates
  ///         states (field "states").
  void Validate() const;
  std::vector<std::string> Names() const;
  long long Count() const;
  /// P x S: state i's parameter values in column i.
  MatrixXd Points() const;
};

/// "NAME=LOW:HIGH" or "NAME=LOW:HIGH:POINTS" (grid). @throws std::invalid_argument.
ParameterRange ParseParameterRange(const std::string& text);
/// A CSV table: a header line of parameter names, then one line of numbers per state; blank
/// lines and lines starting with '#' are skipped. @throws std::invalid_argument "PATH:LINE: ...".
StateDesign ParseStateTable(const std::string& csv_text, const std::string& path);

/// A parametrised built-in system as the source of a batch's states; the parameters are its
/// `--param` keys.
struct SystemSource {
  static constexpr const char* kKind = "system";
  std::string system;              ///< the built-in's name (systems::ParametricSystems)
  systems::ParameterValues fixed;  ///< parameters held fixed (never varied)
};

/// A scene document as the source; the parameters are JSON pointers to its numbers ("/q/2").
struct SceneSource {
  static constexpr const char* kKind = "scene";
  std::string text;             ///< the document
  std::string label = "scene";  ///< its file, or "scene" for a document given inline
};

/// An HDF5 stack of matrix problems as the source; the one parameter `problem` is an index.
struct ProblemStackSource {
  static constexpr const char* kKind = "problems";
  data::ProblemStack problems;  ///< the file (data::OpenProblemStack)
};

/// A MuJoCo model at a base state as the source; the parameters `qpos:I` and `qvel:I` (0-based)
/// replace those entries of the base qpos and qvel.
struct MujocoSource {
  static constexpr const char* kKind = "mujoco";
  /// A shipped MuJoCo scene's name (robots::IsMujocoScene) or an MJCF / URDF file.
  std::string model;
  /// The base state (its keyframe, or qpos and qvel) and the contact options.
  robots::MujocoOptions options;
};

/// Where the states' impact problems come from: one kind of source, with only its own fields.
/// The alternatives' order is part of the batch file's `job` checksum (StateSourceChecksum):
/// append new kinds, never reorder.
using StateSource = std::variant<SystemSource, SceneSource, ProblemStackSource, MujocoSource>;

/// "system", "scene", "problems" or "mujoco" (the batch file's `source` attribute).
const char* KindName(const StateSource& source);
/// The name stored with the batch: the system's or MuJoCo model's name, the scene's or stack's
/// file ("scene" for a document given inline).
std::string Label(const StateSource& source);
/// @throws std::invalid_argument for a parameter the source does not have (listing the known
///         ones), or a varied parameter also held fixed.
void CheckParameters(const StateSource& source, const std::vector<std::string>& names);
/// The problem at these parameter values; a MujocoSource also fills `model` when given (its
/// names and output maps). @throws std::invalid_argument if it is invalid.
systems::LoadedProblem LoadState(const StateSource& source,
                                 const std::vector<std::string>& names,
                                 const VectorXd& values,
                                 std::optional<robots::MujocoProblem>* model = nullptr);
/// A checksum of what the source reads (the scene text, the stack file's bytes, the MuJoCo model
/// and its base state), so that --resume refuses parts computed from another version of the
/// input.
std::uint64_t StateSourceChecksum(const StateSource& source);

/// A MujocoSource with its base state written out (robots::ResolveMujocoState: the keyframe's
/// qpos and qvel, or the given ones), so that its parameters can replace entries; other sources
/// unchanged. MakeBatchJob calls it. @throws std::invalid_argument as robots::LoadMujoco.
StateSource ResolveMujocoSource(StateSource source);

/// The name of the one parameter of a problem stack.
inline constexpr const char* kProblemParameter = "problem";
/// Every problem of a stack, in file order: a table design over `problem` = 0 ... S-1.
StateDesign EveryProblem(const data::ProblemStack& stack);
/// A state table from a file: HDF5 (".h5", ".hdf5": data::ReadStateTable) or CSV
/// (ParseStateTable). @throws std::invalid_argument naming the file.
StateDesign ReadStateTableFile(const std::string& path);

/// What became of a state.
enum class StateStatus {
  kOk = 0,                 ///< ran; every sample solved its LCPs
  kLcpFailures = 1,        ///< ran; some samples hit an LCP no solver solved (the count is in
                           ///< /states/summary/lcp_failures, the message says how many)
  kInvalidProblem = 2,     ///< the source rejected the state (no contact, penetration, ...)
  kDimensionMismatch = 3,  ///< n or the contact dimension differs from the batch's
  kFailed = 4              ///< the run threw (message)
};
IMPACTSET_ENUM_NAMES(StateStatus,
                     "state status",
                     {E::kOk, "ok"},
                     {E::kLcpFailures, "lcp_failures"},
                     {E::kInvalidProblem, "invalid_problem"},
                     {E::kDimensionMismatch, "dimension_mismatch"},
                     {E::kFailed, "failed"})
inline const char* ToString(StateStatus s) { return EnumName(s).data(); }

/// state i's run seed: Mix64(Mix64(seed) + i) (sampling::Mix64, a bijection: distinct states get
/// distinct seeds, and the stream of sample k of state i is (StateSeed(seed, i), k)).
std::uint64_t StateSeed(std::uint64_t seed, long long index);

/// A validated batch: the states, the layout of the file, and what each state computes.
struct BatchJob {
  StateSource source;
  StateDesign design;
  engine::BatchOptions options;
  MatrixXd points;             ///< P x S
  int velocity_dimension = 0;  ///< n of every state (from the first valid state)
  int contact_dimension = 0;   ///< rows of J_c of every state
  /// The outputs' names and dimensions (from the first valid state), in the options' order.
  std::vector<std::pair<std::string, int>> outputs;
  /// Names of the velocity coordinates and of each output's coordinates (the first valid
  /// state's: a MuJoCo model's, else v0, ... and c0:n, ...): the files' column labels.
  std::vector<std::string> velocity_names;
  std::vector<std::vector<std::string>> output_names;
  std::vector<data::ColumnSpec> columns;
  /// The file without states: attributes (design, every option, a canonical `job` text that
  /// resume compares), support directions, parameter and status names.
  data::BatchFile header;
  long long Count() const { return points.cols(); }
};

/// Validates everything and fixes the layout: loads states in index order until one is valid
/// (its n and contact dimension are the batch's; none valid: 0).
/// @throws std::invalid_argument for bad options, design or parameters, before any work starts.
BatchJob MakeBatchJob(const StateSource& source,
                      const StateDesign& design,
                      const engine::BatchOptions& options);

/// Runs state `index` (threads: options.run.sampler.threads). Never throws for a bad state: the
/// record carries its status and message.
data::StateRecord RunState(const BatchJob& job, long long index);
/// Samples run for a state record (0 when it did not run): for progress reports.
long long RecordSamples(const BatchJob& job, const data::StateRecord& record);
/// The status stored in a record.
StateStatus RecordStatus(const data::StateRecord& record);

/// Writes the batch file OUT (atomically) from every state's record, given in any order: the
/// header, a `created` time and the states in index order, as RunBatch writes it. Used where the
/// states were computed elsewhere (impactset.BatchJob.run_states on a cluster's workers).
/// @throws std::invalid_argument naming a state that is missing, given twice or out of range.
void WriteBatch(const BatchJob& job,
                std::vector<data::StateRecord> records,
                const std::string& out);

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
  long long samples = 0;
  double seconds = 0;
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
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// The whole batch in this process, then Finish(). Pending states run up to
/// options.run.sampler.threads at a time (each on up to that many threads), in any order; the
/// file is the same at any thread count. `progress` is called after every state, one call at a
/// time, from whichever thread finished it; an exception it throws stops the batch (the parts
/// written so far stay, for --resume) and is rethrown. Returns the final progress.
BatchProgress RunBatch(const BatchJob& job,
                       const std::string& out,
                       bool resume,
                       const BatchProgressCallback& progress = {});

}  // namespace impactset::batch
