#pragma once
// Every option of a run and a batch, declared once. Each row names the option, its type, its
// documentation, where it appears and where files store it; the command line (`run` and `batch`),
// the Python keywords, their help and stubs, the dataset attributes, merge's and resume's
// equality checks all iterate over RunOptionFields(). The defaults are not repeated here: they
// are the member initialisers of RunOptions (for `run` and Python) and of BatchOptions (for
// `batch`), read back through each row's accessor.
//
//   OptionValues given = {{"samples", 4096LL}, {"design", std::string("sobol")}};
//   RunOptions o = ResolveRunOptions(loaded_problem, given);  // validated
//
// Adding an option: a member with its default and rule (Validate) in its options struct, one row
// in option_table.cpp, and the test that the surfaces agree picks it up.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <impactset/data/attributes.hpp>
#include <impactset/engine/batch_options.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/robots/mujoco_model.hpp>
#include <impactset/systems/matrix_input.hpp>

namespace impactset::engine {

/// The kind of value an option takes.
enum class OptionType {
  kFlag,     ///< true or false; the command line takes --NAME and --no-NAME
  kInteger,  ///< a whole number
  kReal,     ///< a finite or infinite double
  kChoice,   ///< one of OptionField::choices (an enum's EnumNames)
  kShard     ///< "i/n" on the command line, (i, n) in Python
};

/// A value as the surfaces carry it: kFlag bool, kInteger long long, kReal double, kChoice and
/// kShard text.
using OptionValue = std::variant<bool, long long, double, std::string>;

/// Where an option appears (a bit set).
enum OptionSurface : unsigned {
  kRunCommand = 1u << 0,    ///< `impactset run`
  kBatchCommand = 1u << 1,  ///< `impactset batch`
  kPythonSample = 1u << 2,  ///< impactset.sample()
  kPythonRun = 1u << 3,     ///< impactset.run()
  kPythonSets = 1u << 4,    ///< impactset.sets() (sets built afterwards from kept samples)
  kPythonBatch = 1u << 5,   ///< impactset.batch() and impactset.BatchJob
};

/// One option.
struct OptionField {
  std::string_view name;  ///< Python keyword, --json key, batch file /options attribute
  std::string_view flag;  ///< command-line flag; a kFlag also takes "--no-" + flag.substr(2)
  /// Run files: "/NAME" (root) or "/net/NAME" (stored with the sets); empty: not stored in run
  /// files (doc says why).
  std::string_view attribute;
  OptionType type;
  unsigned surfaces;  ///< OptionSurface bits
  /// The option may be left unset; `unset` says what applies then (the problem's value, a
  /// derived default, or nothing).
  bool may_be_unset;
  std::string_view unset;
  /// Unset in RunOptions{} terms means "the problem's" (samples, h, N): run and Python show no
  /// default, ResolveRunOptions asks the problem (batch: each state's, or BatchOptions{}).
  bool from_problem;
  std::string_view doc;  ///< one line
  /// Part of a run's identity: shards that differ in it are not one run (merge), parts that
  /// differ in it are not one batch (resume).
  bool identity;
  /// Files of schema version 1 may lack the attribute; a missing one then reads as this text
  /// (ParseOptionText), empty: required.
  std::string_view absent_in_old_files;
  std::vector<std::string> (*choices)();  ///< kChoice: the accepted names
  /// The value in these options (nullopt: unset).
  std::optional<OptionValue> (*get)(const RunOptions&);
  /// Sets it (nullopt: unset). The value has the row's type; ranges are Validate's.
  void (*set)(RunOptions*, const std::optional<OptionValue>&);
  /// For options that a batch keeps outside BatchOptions::run (h, N, features, parts): the
  /// accessors on BatchOptions; nullptr: the run accessors on BatchOptions::run.
  std::optional<OptionValue> (*get_batch)(const BatchOptions&) = nullptr;
  void (*set_batch)(BatchOptions*, const std::optional<OptionValue>&) = nullptr;
};

/// Every option, in the order surfaces list them.
const std::vector<OptionField>& RunOptionFields();
/// The row of that name. @throws std::invalid_argument listing the known names.
const OptionField& FindOption(std::string_view name);

/// What a user gave, by option name.
using OptionValues = std::vector<std::pair<std::string, OptionValue>>;

/// A value from its command-line text ("4096", "1e-13", "true", "sobol", "0/4").
/// @throws std::invalid_argument "FLAG = TEXT: rule".
OptionValue ParseOptionText(const OptionField& field, const std::string& text);
/// The text ParseOptionText reads back; "none" for an unset value.
std::string FormatOptionValue(const std::optional<OptionValue>& value);
/// The row's value in run options or batch options.
std::optional<OptionValue> GetOption(const OptionField& field, const RunOptions& options);
std::optional<OptionValue> GetOption(const OptionField& field, const BatchOptions& options);
/// Sets a value of the row's type. @throws std::invalid_argument naming the option when the
/// value has another type, or is unset where the option must be set.
void SetOption(const OptionField& field, const std::optional<OptionValue>& value, RunOptions* o);
void SetOption(const OptionField& field, const std::optional<OptionValue>& value, BatchOptions* o);

/// The defaults every surface shows: RunOptions{} for run and Python (samples, step and
/// max_steps unset: the problem's), BatchOptions{} for batch.
std::optional<OptionValue> RunDefault(const OptionField& field);
std::optional<OptionValue> BatchDefault(const OptionField& field);

/// A run's options: the problem's h, N and K (engine::ProblemRunOptions, given ones first), then
/// every given value. @throws std::invalid_argument naming the option (unknown name, wrong
/// type, broken rule: RunOptions::Validate).
RunOptions ResolveRunOptions(const systems::LoadedProblem& problem, const OptionValues& given);
/// BatchOptions{} with the given values. @throws std::invalid_argument as ResolveRunOptions.
BatchOptions ResolveBatchOptions(const OptionValues& given);

/// The outputs of a run from their specs (ParseOutputs), and with a model (MuJoCo sources) the
/// model's coordinate names for the built-in outputs and the files' columns.
/// @throws std::invalid_argument as ParseOutputs.
void ResolveOutputs(const std::vector<std::string>& specs,
                    const impact::ImpactProblem& problem,
                    const robots::MujocoProblem* model,
                    RunOptions* options);

/// The run files' attributes of these options ("/" and "/net"; the /net ones only when sets
/// were built) and back: every row with an attribute, plus step_rule when set.
std::vector<data::Attribute> OptionAttributes(const RunOptions& options);
/// @throws std::invalid_argument "/NAME: missing" for a required attribute that is absent, or
///         "/NAME = value: rule" for a value of the wrong type or an unknown name.
void ReadOptionAttributes(const std::vector<data::Attribute>& attributes, RunOptions* options);

/// The batch file's /options attributes: every batch row that is set.
std::vector<data::Attribute> BatchOptionAttributes(const BatchOptions& options);

/// The first identity option in which two runs' options differ, or nullptr.
const OptionField* FirstDifference(const RunOptions& a, const RunOptions& b);

/// One option of a MuJoCo source (robots::MujocoOptions and its state), for every command that
/// takes --mujoco FILE or a MuJoCo scene's --system NAME: the command line's flags and the
/// keywords of Python's Problem.from_mujoco are the rows' `flag` and `name` (a test checks both).
struct MujocoOptionField {
  std::string_view name;  ///< Python keyword
  std::string_view flag;  ///< command-line flag
  /// kFlag, kInteger, kReal; kChoice stands for text (a keyframe's name, a list or a file).
  OptionType type;
  std::string_view doc;  ///< one line
  /// The default as text (from robots::MujocoOptions{}); empty: none.
  std::string (*default_text)();
  /// Sets the option from its command-line text; nullptr for qpos and qvel (lists or files,
  /// read by the caller: catalog::ReadStateVector). @throws std::invalid_argument naming it.
  void (*set)(robots::MujocoOptions*, const std::string&);
};
const std::vector<MujocoOptionField>& MujocoOptionFields();

}  // namespace impactset::engine
