#pragma once
// The states of a batch: where their impact problems come from (a StateSource: a parametrised
// system, a scene document, a problem stack or a MuJoCo model) and how they are laid out over the
// varied parameters (a StateDesign: a grid, iid or Sobol points, or a table).
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/common/enum_names.hpp>
#include <impactset/data/problem_stack.hpp>
#include <impactset/robots/mujoco_model.hpp>
#include <impactset/robots/mujoco_simulation.hpp>
#include <impactset/systems/matrix_input.hpp>
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
/// The model ready to simulate from these parameter values (the base state with those entries
/// replaced): the start of a state's rollouts. @throws std::invalid_argument for an unknown
/// parameter or as robots::LoadSimulationModel.
robots::SimulationModel LoadSimulationState(const MujocoSource& source,
                                            const std::vector<std::string>& names,
                                            const VectorXd& values);
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

}  // namespace impactset::batch
