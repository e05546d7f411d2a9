#pragma once
// The whole command line of `impactset`: every subcommand's options, parsed in one step that runs
// nothing (so a fuzz target or a test can parse hostile argument vectors), then executed.
#include <iosfwd>
#include <optional>

#include <CLI/CLI.hpp>

#include "apps/batch_command.hpp"
#include "apps/commands.hpp"

namespace impactset::app {

class CommandLine {
 public:
  CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  /// Parses argv. Returns the exit code when the process should stop here (--help, --version:
  /// 0; a usage error: 2, its message written to err), nullopt when a command is to run.
  std::optional<int> Parse(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
  /// Turns the chosen command's arguments into the library's typed options (loading --system
  /// and built-in sources; files are not read) without running anything.
  /// @throws std::invalid_argument as the command itself would.
  void Check() const;
  /// Runs the chosen command (the default is `run`). Returns the exit code; throws what the
  /// command throws (main turns std::invalid_argument and std::runtime_error into exit 2).
  int Execute() const;

 private:
  CLI::App app_{"impactset: the set of possible post-impact velocities of simultaneous impacts"};
  CLI::App *systems_cmd_, *info_cmd_, *run_cmd_, *compare_cmd_, *merge_cmd_, *distance_cmd_,
      *plan_cmd_, *uniqueness_cmd_, *sweep_cmd_, *batch_cmd_, *rollout_cmd_;
  InfoArgs info_args_;
  RunArgs run_args_;
  CompareArgs compare_args_;
  MergeArgs merge_args_;
  DistanceArgs distance_args_;
  PlanArgs plan_args_;
  UniquenessArgs uniqueness_args_;
  SweepArgs sweep_args_;
  BatchArgs batch_args_;
  RolloutArgs rollout_args_;
};

}  // namespace impactset::app
