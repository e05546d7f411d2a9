#pragma once
// Where a command's impact problem comes from: --system NAME | --scene FILE | --problem FILE |
// --mujoco FILE (with the MuJoCo state and contact options).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <impactset/robots/mujoco_model.hpp>
#include <impactset/systems/matrix_input.hpp>

namespace impactset::app {

/// The MuJoCo state and contact options of a command: one flag per row of
/// engine::MujocoOptionFields() (--keyframe, --qpos, --qvel, --contact-margin, ...).
struct MujocoArgs {
  /// The text given for each option, by the row's name (flags: "true"); absent: not given.
  std::map<std::string, std::string> given;
  void AddOptions(CLI::App* cmd);
  /// Whether any of them was given (they apply only to MuJoCo models).
  bool Given() const { return !given.empty(); }
  bool Given(const std::string& name) const { return given.contains(name); }
  /// The library's options (reads --qpos / --qvel files).
  robots::MujocoOptions Options() const;
};

struct ProblemSource {
  std::string system;
  std::string scene_file;
  std::string problem_file;
  std::string mujoco_file;
  std::vector<std::string> parameters;  ///< --param KEY=VALUE of a parametrised --system
  MujocoArgs mujoco;                    ///< for --mujoco FILE or a MuJoCo scene's --system NAME
  /// Adds --system, --scene, --problem, --mujoco (mutually exclusive) and the MuJoCo options.
  void AddOptions(CLI::App* cmd);
  /// The chosen problem (the default system when none is given), and its display name; `model`
  /// (optional) receives the MuJoCo contact report and names when the source is a MuJoCo model.
  systems::LoadedProblem Load(std::string* name,
                              std::optional<robots::MujocoProblem>* model = nullptr) const;
};

/// The refusal of MuJoCo options given without a MuJoCo model.
[[noreturn]] void MujocoOptionsWithoutModel();

}  // namespace impactset::app
