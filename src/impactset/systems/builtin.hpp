#pragma once
// The built-in systems: the scene files of src/impactset/systems/scenes/, compiled into the binary
// (no data files to find at run time).
#include <string>
#include <vector>

#include <impactset/systems/matrix_input.hpp>
#include <impactset/systems/scene.hpp>

namespace impactset::systems {

struct BuiltinInfo {
  std::string name;
  std::string description;
};

/// Names and one-line descriptions of the built-in systems, in a stable order.
const std::vector<BuiltinInfo>& BuiltinSystems();

/// The built-in system's impact state and sampler settings.
/// @throws std::invalid_argument naming the unknown system and listing the known ones.
LoadedProblem LoadBuiltin(const std::string& name);

/// The system `impactset run` uses when none is given.
inline constexpr const char* kDefaultSystem = "rocking-block";

/// The built-in system's scene with its geometry (LoadBuiltin slices it to the problem).
/// @throws std::invalid_argument for an unknown name.
LoadedScene LoadBuiltinScene(const std::string& name);

}  // namespace impactset::systems
