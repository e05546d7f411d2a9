#pragma once
// The MuJoCo scenes shipped with impactset (src/impactset/robots/scenes/*.xml, compiled in):
// runnable by name like the planar built-in systems (`impactset systems`, --system NAME;
// docs/mujoco.md).
#include <string>
#include <vector>

#include <impactset/robots/mujoco_model.hpp>

namespace impactset::robots {

struct SceneInfo {
  std::string name;         ///< the file's stem: "cube-flat", "quadruped", ...
  std::string description;  ///< the scene's <text name="impactset_description">
};

/// The shipped scenes, sorted by name.
const std::vector<SceneInfo>& MujocoScenes();
bool IsMujocoScene(const std::string& name);

/// The scene's MJCF text. @throws std::invalid_argument for an unknown name, listing the known.
const std::string& MujocoSceneXml(const std::string& name);

/// The scene's impact state; with options.state empty, its keyframe (each scene has one).
/// @throws std::invalid_argument as MujocoSceneXml and LoadMujocoXml.
MujocoProblem LoadMujocoScene(const std::string& name, const MujocoOptions& options = {});

}  // namespace impactset::robots
