#include "apps/problem_source.hpp"

#include <cstdio>
#include <stdexcept>

#include <impactset/engine/option_table.hpp>

#include <impactset/catalog/problem_file.hpp>
#include <impactset/catalog/system_catalog.hpp>
#include <impactset/distributed/distributed.hpp>
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
  for (const engine::MujocoOptionField& f : engine::MujocoOptionFields()) {
    const std::string name(f.name), flag(f.flag);
    if (f.type == engine::OptionType::kFlag) {
      cmd->add_flag_callback(
          flag, [this, name] { given[name] = "true"; }, std::string(f.doc));
      continue;
    }
    auto* o = cmd->add_option_function<std::string>(
        flag, [this, name](const std::string& v) { given[name] = v; }, std::string(f.doc));
    if (const std::string d = f.default_text(); !d.empty()) o->default_str(d);
  }
}

void MujocoOptionsWithoutModel() {
  std::string all;
  const auto& fields = engine::MujocoOptionFields();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    all += (i == 0 ? "" : i + 1 == fields.size() ? " and " : ", ") + std::string(fields[i].flag);
  }
  throw std::invalid_argument(all +
                              " apply only to --mujoco FILE or a MuJoCo scene's --system NAME");
}

robots::MujocoOptions MujocoArgs::Options() const {
  robots::MujocoOptions o;
  for (const engine::MujocoOptionField& f : engine::MujocoOptionFields()) {
    const auto it = given.find(std::string(f.name));
    if (it == given.end()) continue;
    if (f.set) {
      f.set(&o, it->second);
    } else if (f.name == "qpos") {
      o.state.qpos = catalog::ReadStateVector(it->second, "qpos");
    } else {
      o.state.qvel = catalog::ReadStateVector(it->second, "qvel");
    }
  }
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
    for (const std::string& w : r.warnings) {
      if (distributed::Current().rank() != 0) break;  // said once, not once per rank
      std::fprintf(stderr, "impactset: warning: %s: %s\n", name->c_str(), w.c_str());
    }
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
