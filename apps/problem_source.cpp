#include "apps/problem_source.hpp"

#include "systems/builtin.hpp"
#include "systems/scene.hpp"

namespace impactset::app {

void ProblemSource::AddOptions(CLI::App* cmd) {
  auto* sys = cmd->add_option("--system", system, "built-in system (see `impactset systems`)");
  auto* file = cmd->add_option(
      "--problem", problem_file,
      "matrix-input JSON file: M, Jn, D or Jf, mu, v_minus (docs/problem-format.md)");
  auto* scene = cmd->add_option(
      "--scene", scene_file,
      "scene JSON file: bodies, joints, shapes, walls, q, v- (docs/scene-format.md)");
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
    return systems::LoadProblemJson(problem_file);
  }
  *name = system.empty() ? systems::kDefaultSystem : system;
  return systems::LoadBuiltin(*name);
}

}  // namespace impactset::app
