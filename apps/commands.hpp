#pragma once
// The impactset subcommands.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <impactset/engine/run.hpp>
#include <impactset/rollouts/rollout.hpp>
#include <impactset/sets/set_outputs.hpp>
#include <impactset/simulators/sweep.hpp>
#include "apps/option_flags.hpp"
#include "apps/problem_source.hpp"

namespace impactset::app {

struct InfoArgs {
  ProblemSource source;
  bool json = false;
  bool matrices = false;  ///< text: print M, Jn, D after the summary
};
CLI::App* AddInfoCommand(CLI::App* app, InfoArgs* args);
int RunInfo(const InfoArgs& args);

struct RunArgs {
  ProblemSource source;
  GivenOptions options;  ///< every option of the table's run surface (apps/option_flags.hpp)
  std::string out;
  bool json = false;
  std::vector<std::string> outputs;  ///< --output specs (sets::ParseOutput)
};
CLI::App* AddRunCommand(CLI::App* app, RunArgs* args);
int RunRun(const RunArgs& args);
/// The engine's options of `run`: the problem's defaults, then the flags, the outputs resolved
/// against the problem (and its MuJoCo model, when it has one); validated.
engine::RunOptions ToRunOptions(const RunArgs& args,
                                const systems::LoadedProblem& problem,
                                const robots::MujocoProblem* model);

struct RolloutArgs {
  std::string mujoco_file;
  std::string system;  ///< a shipped MuJoCo scene
  MujocoArgs mujoco;   ///< the start state and the impacts' contact options
  /// Every rollout option given, by the row's name (rollouts::RolloutOptionFields()), in the
  /// order given; a repeatable one once per value.
  std::vector<std::pair<std::string, std::string>> given;
  std::string replay;   ///< SEED/INDEX
  std::string out;      ///< the HDF5 file (empty: none)
  std::string falsify;  ///< METRIC[:max|:min]: the directed search instead (rollouts/falsify.hpp)
  bool json = false;
};
CLI::App* AddRolloutCommand(CLI::App* app, RolloutArgs* args);
int RunRolloutCommand(const RolloutArgs& args);
/// The rollout options the flags give (not yet validated against the model).
rollouts::RolloutOptions ToRolloutOptions(const RolloutArgs& args);

struct CompareArgs {
  ProblemSource source;
  std::optional<long long> samples;
  std::optional<double> step;
  std::optional<int> max_steps;
  std::uint64_t seed = 1;
  int threads = 0;
  bool json = false;
};
CLI::App* AddCompareCommand(CLI::App* app, CompareArgs* args);
int RunCompare(const CompareArgs& args);

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string out;
  bool json = false;
};
CLI::App* AddMergeCommand(CLI::App* app, MergeArgs* args);
int RunMerge(const MergeArgs& args);

struct DistanceArgs {
  std::string a, b;
  std::string set = "post_impact";
  std::string coords = "contact";
  bool json = false;
};
CLI::App* AddDistanceCommand(CLI::App* app, DistanceArgs* args);
int RunDistance(const DistanceArgs& args);

struct PlanArgs {
  ProblemSource source;
  std::optional<double> epsilon;
  double delta = 0.05;
  std::optional<double> lipschitz;
  std::optional<int> max_steps;
  double missed_mass = 1e-3;
  bool json = false;
};
CLI::App* AddPlanCommand(CLI::App* app, PlanArgs* args);
int RunPlan(const PlanArgs& args);

struct UniquenessArgs {
  ProblemSource source;
  long long max_sequences = 100000;
  bool json = false;
};
CLI::App* AddUniquenessCommand(CLI::App* app, UniquenessArgs* args);
int RunUniqueness(const UniquenessArgs& args);
struct SweepArgs {
  ProblemSource source;
  std::string model;  ///< jia | compliant (options.model is set from it)
  simulators::SweepOptions options;
  std::string out;
  bool json = false;
  sets::SetOptions sets;
  bool no_sets = false;
};
CLI::App* AddSweepCommand(CLI::App* app, SweepArgs* args);  // apps/sweep_command.cpp
int RunSweep(const SweepArgs& args);

}  // namespace impactset::app
