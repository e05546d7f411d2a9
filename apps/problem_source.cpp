#include "apps/problem_source.hpp"

#include "engine/problem_file.hpp"
#include "systems/builtin.hpp"
#include "systems/parametric.hpp"
#include "systems/scene.hpp"

namespace impactset::app {

void ProblemSource::AddOptions(CLI::App* cmd) {
  auto* sys = cmd->add_option("--system", system, "built-in system (see `impactset systems`)");
  auto* file = cmd->add_option("--problem", problem_file,
                               "matrix input: JSON (M, Jn, D or Jf, mu, v_minus) or HDF5 (.h5: "
                               "/problem group); docs/problem-format.md");
  auto* scene = cmd->add_option(
      "--scene", scene_file,
      "scene JSON file: bodies, joints, shapes, walls, q, v- (docs/scene-format.md)");
  auto* param = cmd->add_option("--param", parameters,
                                "KEY=VALUE parameter of a parametrised --system (repeatable; "
                                "`impactset systems` lists them and their defaults)");
  param->excludes(file);
  param->excludes(scene);
  sys->excludes(file);
  sys->excludes(scene);
  scene->excludes(file);
}

systems::LoadedProblem ProblemSource::Load(std::string* name) const {
  if (!scene_file.empty()) {
    *name = scene_file;
    return systems::LoadSceneJson(scene_file);
  }
  if (!problem_file.empty()) {
    *name = problem_file;
    return engine::LoadProblemFile(problem_file);
  }
  *name = system.empty() ? systems::kDefaultSystem : system;
  return systems::LoadSystem(*name, systems::ParseParameterAssignments(parameters));
}

}  // namespace impactset::app
