#pragma once
// Every system runnable by name (`impactset systems`, --system NAME): the planar built-ins and
// parametrised systems of systems/, then the MuJoCo scenes of robots/
// (src/impactset/robots/scenes/*.xml).
#include <string>
#include <vector>

#include <impactset/robots/mujoco_model.hpp>
#include <impactset/systems/matrix_input.hpp>
#include <impactset/systems/parametric.hpp>

namespace impactset::catalog {

struct SystemInfo {
  std::string name;
  std::string description;
};

/// Planar built-ins and parametrised systems (systems::BuiltinSystems order), then the MuJoCo
/// scenes (sorted by name).
const std::vector<SystemInfo>& Systems();

/// The named system's impact state and settings. A MuJoCo scene takes `mujoco` (state, margin,
/// friction directions; its keyframe when the state is empty) and no parameters; a planar system
/// takes `values` and ignores `mujoco`.
/// @throws std::invalid_argument for an unknown name (listing the known ones) or bad parameters.
systems::LoadedProblem LoadSystem(const std::string& name,
                                  const systems::ParameterValues& values = {},
                                  const robots::MujocoOptions& mujoco = {});

}  // namespace impactset::catalog
