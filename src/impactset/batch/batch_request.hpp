#pragma once
// What a user asked for as a batch's states, in one neutral form that the command line and
// Python fill, and the one function holding the rules of which fields go together.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <impactset/batch/batch.hpp>
#include <impactset/robots/mujoco_model.hpp>
#include <impactset/systems/parametric.hpp>

namespace impactset::batch {

/// Which surface a BatchRequest comes from: its messages name the fields as that surface spells
/// them ("--state-table" on the command line, "table=" in Python).
enum class BatchSurface { kCommandLine, kPython };

/// What a user gave for a batch's states, before the rules of ResolveBatchStates: the command
/// line (`impactset batch`) and Python (impactset.BatchJob) fill it from their flags and
/// keywords, converting types and checking that files exist; everything about which fields go
/// together is ResolveBatchStates'. Unset optional: not given.
struct BatchRequest {
  BatchSurface surface = BatchSurface::kCommandLine;
  // The source: exactly one of system, scene (a file or a document), problems, mujoco.
  std::optional<std::string> system;         ///< a parametrised built-in or a MuJoCo scene's name
  std::optional<std::string> scene_file;     ///< a scene document's file (read here)
  std::optional<std::string> scene_text;     ///< a scene document given inline, labelled "scene"
  std::optional<std::string> problems_file;  ///< an HDF5 stack of problems (opened here)
  std::optional<std::string> mujoco_file;    ///< a MuJoCo model: a file or a shipped scene's name
  systems::ParameterValues params;           ///< held fixed: only with a parametrised system
  /// The MuJoCo options the user set, by their neutral names ("keyframe", "qpos", "qvel",
  /// "contact_margin", "friction_directions", "ignore_constraints"): only with a MuJoCo model.
  std::vector<std::string> mujoco_given;
  robots::MujocoOptions mujoco;  ///< their values (the defaults for the ones not given)
  // The states: vary (with state_design, states, state_seed) or a table, not both; neither is
  // every problem of a problem stack.
  std::optional<std::vector<ParameterRange>> vary;
  std::optional<std::string> table_file;  ///< CSV or HDF5 (ReadStateTableFile, read here)
  std::optional<StateDesign> table;       ///< a table given in memory (kind kTable)
  std::string state_design = "grid";      ///< grid, iid or sobol (ParseEnum<StateDesignKind>)
  std::optional<long long> states;        ///< iid and sobol only
  std::uint64_t state_seed = 1;
};

/// The source and the design of a batch.
struct BatchStates {
  StateSource source;
  StateDesign design;
};

/// The one place of the rules the command line and Python share: exactly one source; params
/// only with a parametrised system (MuJoCo models take none: they vary qpos:I); MuJoCo options
/// only with a MuJoCo model; a table or vary, not both; no vary and no table: every problem of a
/// stack (any other source needs one of them); a grid takes no `states`; `state_design` table
/// is spelled as a table. Reads the scene and table files and opens the problem stack. The
/// design is not validated (MakeBatchJob does it, with the parameters against the source).
/// @throws std::invalid_argument naming the field as the request's surface spells it, its value
///         and the rule.
BatchStates ResolveBatchStates(const BatchRequest& request);

/// The options a user gave a batch: the engine's by name (engine/option_table.hpp) and the
/// rollout options (rollouts/rollout_options.hpp) as name and text, in the order given.
struct GivenBatchOptions {
  BatchSurface surface = BatchSurface::kCommandLine;
  std::vector<std::string> engine;
  std::vector<std::pair<std::string, std::string>> rollout;
};

/// Whether the batch is one of rollouts, and the rules that go with it: it is one when the
/// rollout option `rollouts` is given; then no engine option but kRolloutBatchOptions and no
/// options.outputs (they are Algorithm 2's); without it, no rollout option.
/// @throws std::invalid_argument naming the option as the surface spells it.
bool IsRolloutBatch(const GivenBatchOptions& given, const engine::BatchOptions& options);

/// The job the options ask for, for every surface: MakeRolloutBatchJob with the rollout options
/// read from given.rollout when IsRolloutBatch, else MakeBatchJob.
/// @throws std::invalid_argument as those.
BatchJob MakeJob(const BatchStates& states,
                 const engine::BatchOptions& options,
                 const GivenBatchOptions& given);

}  // namespace impactset::batch
