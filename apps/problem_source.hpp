#pragma once
// Where a command's impact problem comes from: --system NAME | --scene FILE | --problem FILE.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "systems/matrix_input.hpp"

namespace impactset::app {

struct ProblemSource {
  std::string system;
  std::string scene_file;
  std::string problem_file;
  std::vector<std::string> parameters;  ///< --param KEY=VALUE of a parametrised --system
  /// Adds --system, --scene and --problem (mutually exclusive) to a subcommand.
  void AddOptions(CLI::App* cmd);
  /// The chosen problem (the default system when neither is given), and its display name.
  systems::LoadedProblem Load(std::string* name) const;
};

}  // namespace impactset::app
