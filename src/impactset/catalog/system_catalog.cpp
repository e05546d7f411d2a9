#include <impactset/catalog/system_catalog.hpp>

#include <stdexcept>

#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/systems/builtin.hpp>

namespace impactset::catalog {

const std::vector<SystemInfo>& Systems() {
  static const std::vector<SystemInfo> all = [] {
    std::vector<SystemInfo> v;
    for (const auto& s : systems::BuiltinSystems()) v.push_back({s.name, s.description});
    for (const auto& s : robots::MujocoScenes()) v.push_back({s.name, s.description});
    return v;
  }();
  return all;
}

systems::LoadedProblem LoadSystem(const std::string& name,
                                  const systems::ParameterValues& values,
                                  const robots::MujocoOptions& mujoco) {
  if (!robots::IsMujocoScene(name)) {
    for (const auto& s : systems::BuiltinSystems()) {
      if (s.name == name) return systems::LoadSystem(name, values);
    }
    std::string known;
    for (const SystemInfo& s : Systems()) known += (known.empty() ? "" : ", ") + s.name;
    throw std::invalid_argument("system = " + name + ": unknown built-in system (known: " + known +
                                ")");
  }
  if (!values.empty()) {
    throw std::invalid_argument("system " + name + ": --param " + values.begin()->first +
                                ": MuJoCo scenes take no parameters (choose the state with "
                                "--keyframe or --qpos/--qvel)");
  }
  return robots::LoadMujocoScene(name, mujoco).loaded;
}

}  // namespace impactset::catalog
