#include "apps/command_line.hpp"

#include <optional>
#include <ostream>

#include <impactset/batch/batch.hpp>
#include <impactset/batch/batch_request.hpp>
#include <impactset/catalog/system_catalog.hpp>
#include <impactset/common/error_policy.hpp>
#include <impactset/common/version.hpp>
#include <impactset/systems/builtin.hpp>

namespace impactset::app {

CommandLine::CommandLine() {
  app_.set_version_flag("--version", IMPACTSET_VERSION);
  app_.require_subcommand(0, 1);
  systems_cmd_ = app_.add_subcommand("systems", "list the built-in systems");
  info_cmd_ = AddInfoCommand(&app_, &info_args_);
  run_cmd_ = AddRunCommand(&app_, &run_args_);
  compare_cmd_ = AddCompareCommand(&app_, &compare_args_);
  merge_cmd_ = AddMergeCommand(&app_, &merge_args_);
  distance_cmd_ = AddDistanceCommand(&app_, &distance_args_);
  plan_cmd_ = AddPlanCommand(&app_, &plan_args_);
  uniqueness_cmd_ = AddUniquenessCommand(&app_, &uniqueness_args_);
  sweep_cmd_ = AddSweepCommand(&app_, &sweep_args_);
  batch_cmd_ = AddBatchCommand(&app_, &batch_args_);
  rollout_cmd_ = AddRolloutCommand(&app_, &rollout_args_);
}

std::optional<int> CommandLine::Parse(int argc,
                                      const char* const* argv,
                                      std::ostream& out,
                                      std::ostream& err) {
  // CLI11 2.1 (Debian 12) loops forever on an empty argument to a subcommand without
  // positionals (`batch --system S ""`, found by fuzz/cli_args); no option takes an empty value.
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '\0') {
      err << "impactset: argument " << i << " is empty (no option takes an empty value)\n";
      return 2;
    }
  }
  try {
    app_.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app_.exit(e, out, err);
    return code == 0 ? 0 : 2;
  }
  return std::nullopt;
}

namespace {

// A file source is checked when the command reads it; built-in systems load here (cheaply).
std::optional<systems::LoadedProblem> LoadCheaply(
    const ProblemSource& source, std::optional<robots::MujocoProblem>* model = nullptr) {
  if (!source.scene_file.empty() || !source.problem_file.empty() || !source.mujoco_file.empty()) {
    return std::nullopt;
  }
  std::string name;
  return source.Load(&name, model);
}

}  // namespace

void CommandLine::Check() const {
  if (*run_cmd_ || app_.get_subcommands().empty()) {
    std::optional<robots::MujocoProblem> model;
    if (const auto lp = LoadCheaply(run_args_.source, &model)) {
      ToRunOptions(run_args_, *lp, model ? &*model : nullptr);
    }
  } else if (*batch_cmd_) {
    const engine::BatchOptions options = ToBatchOptions(batch_args_);
    options.Validate();
    if (batch_args_.state_table.empty() && batch_args_.problems_file.empty()) {
      batch::BatchRequest request = ToBatchRequest(batch_args_);
      const bool scene = request.scene_file.has_value();
      if (scene) {  // a scene file is read when the command runs: its design is checked here
        request.scene_file.reset();
        request.scene_text = "{}";
      }
      const batch::BatchStates states = batch::ResolveBatchStates(request);
      states.design.Validate();
      if (!scene) batch::CheckParameters(states.source, states.design.Names());
    }
  } else if (*info_cmd_) {
    LoadCheaply(info_args_.source);
  } else if (*compare_cmd_) {
    LoadCheaply(compare_args_.source);
  } else if (*plan_cmd_) {
    LoadCheaply(plan_args_.source);
  } else if (*uniqueness_cmd_) {
    LoadCheaply(uniqueness_args_.source);
  } else if (*sweep_cmd_) {
    LoadCheaply(sweep_args_.source);
  } else if (*rollout_cmd_) {
    ToRolloutOptions(rollout_args_);
  }
}

int CommandLine::Execute() const {
  if (*systems_cmd_) {
    for (const auto& s : catalog::Systems()) {
      std::printf("%-20s %s\n", s.name.c_str(), s.description.c_str());
    }
    return 0;
  }
  if (*info_cmd_) return RunInfo(info_args_);
  if (*merge_cmd_) return RunMerge(merge_args_);
  if (*distance_cmd_) return RunDistance(distance_args_);
  if (*plan_cmd_) return RunPlan(plan_args_);
  if (*uniqueness_cmd_) return RunUniqueness(uniqueness_args_);
  if (*sweep_cmd_) return RunSweep(sweep_args_);
  if (*batch_cmd_) return RunBatchCommand(batch_args_);
  if (*rollout_cmd_) return RunRolloutCommand(rollout_args_);
  if (*compare_cmd_) return RunCompare(compare_args_);
  return RunRun(run_args_);
}

}  // namespace impactset::app
