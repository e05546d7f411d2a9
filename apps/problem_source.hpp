#pragma once
// Where a command's impact problem comes from: --system NAME | --scene FILE | --problem FILE |
// --mujoco FILE (with the MuJoCo state and contact options).
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "robots/mujoco_model.hpp"
#include "systems/matrix_input.hpp"

namespace impactset::app {

struct ProblemSource {
  std::string system;
  std::string scene_file;
  std::string problem_file;
  std::string mujoco_file;
  std::vector<std::string> parameters;  ///< --param KEY=VALUE of a parametrised --system
  // MuJoCo models (--mujoco FILE or a MuJoCo scene's --system NAME).
  std::string keyframe;
  std::string qpos, qvel;  ///< comma lists, JSON or HDF5 files (engine::ReadStateVector)
  double contact_margin = robots::kDefaultContactMargin;
  int friction_directions = 4;
  bool ignore_constraints = false;
  /// Adds --system, --scene, --problem, --mujoco (mutually exclusive) and the MuJoCo options.
  void AddOptions(CLI::App* cmd);
  /// The chosen problem (the default system when none is given), and its display name; `model`
  /// (optional) receives the MuJoCo contact report and names when the source is a MuJoCo model.
  systems::LoadedProblem Load(std::string* name,
                              std::optional<robots::MujocoProblem>* model = nullptr) const;

 private:
  bool MujocoOptionsGiven() const;
  robots::MujocoOptions Mujoco() const;
};

}  // namespace impactset::app
