#pragma once
// Scene values as parameters: a number inside a scene document named by its JSON pointer
// ("/q/3", "/v_minus/rigid_rotation/rate", "/shapes/2/mass"), so a batch can range over it.
#include <string>
#include <utility>
#include <vector>

#include <impactset/systems/scene.hpp>

namespace impactset::systems {

/// @throws std::invalid_argument "scene parameter '/x': ..." when the pointer is malformed,
///         names nothing in the document, or names something that is not a number.
void CheckSceneValue(const std::string& scene_text, const std::string& pointer);

/// The scene with the named values replaced, parsed (ParseSceneJson).
/// @throws std::invalid_argument from CheckSceneValue or from the scene parser.
LoadedScene LoadSceneWithValues(const std::string& scene_text,
                                const std::vector<std::pair<std::string, double>>& values);

}  // namespace impactset::systems
