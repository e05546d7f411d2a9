#include "apps/problem_source.hpp"

#include <stdexcept>

#include <impactset/catalog/problem_file.hpp>
#include <impactset/catalog/system_catalog.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/systems/builtin.hpp>
#include <impactset/systems/parametric.hpp>
#include <impactset/systems/scene.hpp>

namespace impactset::app {

void ProblemSource::AddOptions(CLI::App* cmd) {
  auto* sys = cmd->add_option("--system", system, "built-in system (see `impactset systems`)");
  auto* file = cmd->add_option("--problem", problem_file,
                               "matrix input: JSON (M, Jn, D or Jf, mu, v_minus) or HDF5 (.h5: "
                               "/problem group); docs/problem-format.md");
  auto* scene = cmd->add_option(
      "--scene", scene_file,
      "scene JSON file: bodies, joints, shapes, walls, q, v- (docs/scene-format.md)");
  auto* model = cmd->add_option("--mujoco", mujoco_file,
                                "MuJoCo model (MJCF .xml or URDF) at --keyframe or --qpos/--qvel "
                                "(docs/mujoco.md)");
  auto* param = cmd->add_option("--param", parameters,
                                "KEY=VALUE parameter of a parametrised --system (repeatable; "
                                "`impactset systems` lists them and their defaults)");
  param->excludes(file);
  param->excludes(scene);
  param->excludes(model);
  sys->excludes(file);
  sys->excludes(scene);
  sys->excludes(model);
  scene->excludes(file);
  scene->excludes(model);
  file->excludes(model);
  mujoco.AddOptions(cmd);
}

void MujocoArgs::AddOptions(CLI::App* cmd) {
  cmd->add_option("--keyframe", keyframe, "MuJoCo: the keyframe (by name) holding qpos and qvel");
  cmd->add_option("--qpos", qpos,
                  "MuJoCo: qpos as a comma list, a JSON file or an HDF5 file's /qpos "
                  "(replaces the keyframe's)");
  cmd->add_option("--qvel", qvel,
                  "MuJoCo: qvel (the velocity before impact), comma list, JSON file or an "
                  "HDF5 file's /qvel (replaces the keyframe's)");
  cmd->add_option("--contact-margin", contact_margin,
                  "MuJoCo: contacts are geom pairs closer than this (m)")
      ->capture_default_str();
  cmd->add_option("--friction-directions", friction_directions,
                  "MuJoCo: friction directions k per contact (4, 8 or 16)")
      ->capture_default_str();
  cmd->add_flag("--ignore-constraints", ignore_constraints,
                "MuJoCo: leave active equality constraints and joint/tendon limits out instead of "
                "refusing the state");
}

bool MujocoArgs::Given() const {
  return !keyframe.empty() || !qpos.empty() || !qvel.empty() || ignore_constraints ||
         contact_margin != robots::kDefaultContactMargin || friction_directions != 4;
}

void MujocoOptionsWithoutModel() {
  throw std::invalid_argument(
      "--keyframe, --qpos, --qvel, --contact-margin, --friction-directions and "
      "--ignore-constraints apply only to --mujoco FILE or a MuJoCo scene's --system NAME");
}

robots::MujocoOptions MujocoArgs::Options() const {
  robots::MujocoOptions o;
  o.state.keyframe = keyframe;
  if (!qpos.empty()) o.state.qpos = catalog::ReadStateVector(qpos, "qpos");
  if (!qvel.empty()) o.state.qvel = catalog::ReadStateVector(qvel, "qvel");
  o.contact_margin = contact_margin;
  o.friction_directions = friction_directions;
  o.ignore_constraints = ignore_constraints;
  return o;
}

systems::LoadedProblem ProblemSource::Load(std::string* name,
                                           std::optional<robots::MujocoProblem>* model) const {
  const bool is_mujoco = !mujoco_file.empty() || robots::IsMujocoScene(system);
  if (!is_mujoco && mujoco.Given()) MujocoOptionsWithoutModel();
  if (is_mujoco) {
    if (!parameters.empty()) {
      throw std::invalid_argument("--param " + parameters.front() +
                                  ": MuJoCo models take no parameters");
    }
    *name = mujoco_file.empty() ? system : mujoco_file;
    robots::MujocoProblem r = mujoco_file.empty()
                                  ? robots::LoadMujocoScene(system, mujoco.Options())
                                  : robots::LoadMujoco(mujoco_file, mujoco.Options());
    systems::LoadedProblem lp = r.loaded;
    if (model) *model = std::move(r);
    return lp;
  }
  if (!scene_file.empty()) {
    *name = scene_file;
    return systems::LoadSceneJson(scene_file);
  }
  if (!problem_file.empty()) {
    *name = problem_file;
    return catalog::LoadProblemFile(problem_file);
  }
  *name = system.empty() ? systems::kDefaultSystem : system;
  return catalog::LoadSystem(*name, systems::ParseParameterAssignments(parameters));
}

}  // namespace impactset::app
