#pragma once
// Batches of impact states (`impactset batch`, docs/dataset-format.md "Batch files"): a design
// over named parameters of a parametrised source gives S states; each state runs Algorithm 2
// (engine::Run) and yields its summary, sets and fixed-size features, stored by state in one
// HDF5 file. The batch is resumable: finished states go to part files (OUT.parts/part-*.h5, each
// written atomically) in chunks; when every state is done the parts are assembled into OUT.
//
// Determinism: state i runs with seed StateSeed(seed, i), so its samples depend only on
// (seed, i, sample index): never on the process, rank or schedule that computed it.
//
// A batch of rollouts (MakeRolloutBatchJob) runs, instead, rollouts::RunRollouts from each state
// of a MuJoCo model and stores its counts, metric summaries and per-rollout values, in the same
// resumable layout (docs/rollouts.md "Batches over start states").
//
// batch_design.hpp: the states (sources and designs); batch_writer.hpp: part files, the output
// file and RunBatch.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <impactset/batch/batch_design.hpp>
#include <impactset/common/enum_names.hpp>
#include <impactset/data/batch_file.hpp>
#include <impactset/engine/batch_options.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/robots/mujoco_model.hpp>
#include <impactset/rollouts/rollout.hpp>

namespace impactset::batch {

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
  /// A batch of rollouts: what each state runs from its start (its seed StateSeed(seed, i), the
  /// batch's threads and delta); unset: Algorithm 2 at each state's impact.
  std::optional<rollouts::RolloutOptions> rollouts;
  /// A batch of rollouts: the model's qpos names (its dof names are velocity_names) and the
  /// metrics' names.
  std::vector<std::string> qpos_names, metric_names;
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

/// The engine options a batch of rollouts takes besides the rollout options (the rows' names);
/// the others (samples, sets, h, ...) belong to Algorithm 2 and are refused there.
inline constexpr std::array<std::string_view, 4> kRolloutBatchOptions = {"seed", "threads", "delta",
                                                                         "part_states"};

/// A batch of rollouts over the states of a MuJoCo source: validates everything (the rollout
/// options against the first state that loads, whose qpos and qvel sizes are the batch's) and
/// fixes the file's layout (docs/dataset-format.md "Batches of rollouts").
/// @throws std::invalid_argument for a source that is not a MuJoCo model, bad options (naming
///         them), a bad design or parameters, before any work starts.
BatchJob MakeRolloutBatchJob(const StateSource& source,
                             const StateDesign& design,
                             const engine::BatchOptions& options,
                             const rollouts::RolloutOptions& rollout_options);

/// Runs state `index` (threads: options.run.sampler.threads). Never throws for a bad state: the
/// record carries its status and message.
data::StateRecord RunState(const BatchJob& job, long long index);
/// Samples (a batch of rollouts: rollouts) run for a state record (0 when it did not run): for
/// progress reports.
long long RecordSamples(const BatchJob& job, const data::StateRecord& record);
/// The status and the message stored in a record.
StateStatus RecordStatus(const data::StateRecord& record);
std::string RecordMessage(const data::StateRecord& record);

}  // namespace impactset::batch
