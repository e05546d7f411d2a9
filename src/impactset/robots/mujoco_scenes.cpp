#include <impactset/robots/mujoco_scenes.hpp>

#include <stdexcept>

#include <impactset/robots/mujoco_scenes_data.hpp>  // generated: kSceneXml[] = {name, MJCF text}

namespace impactset::robots {
namespace {

// The data="..." of <text name="impactset_description">: read from the text, so that listing the
// scenes does not compile every model.
std::string Description(const std::string& xml) {
  const size_t at = xml.find("name=\"impactset_description\"");
  const size_t open = at == std::string::npos ? at : xml.find("data=\"", at);
  if (open == std::string::npos) return "";
  const size_t begin = open + 6, end = xml.find('"', begin);
  return xml.substr(begin, end - begin);
}

struct Scene {
  SceneInfo info;
  std::string xml;
};

const std::vector<Scene>& Scenes() {
  static const std::vector<Scene> scenes = [] {
    std::vector<Scene> v;
    for (const auto& e : internal::kSceneXml) v.push_back({{e.name, Description(e.xml)}, e.xml});
    return v;
  }();
  return scenes;
}

}  // namespace

const std::vector<SceneInfo>& MujocoScenes() {
  static const std::vector<SceneInfo> infos = [] {
    std::vector<SceneInfo> v;
    for (const Scene& s : Scenes()) v.push_back(s.info);
    return v;
  }();
  return infos;
}

bool IsMujocoScene(const std::string& name) {
  for (const Scene& s : Scenes()) {
    if (s.info.name == name) return true;
  }
  return false;
}

const std::string& MujocoSceneXml(const std::string& name) {
  std::string known;
  for (const Scene& s : Scenes()) {
    if (s.info.name == name) return s.xml;
    known += (known.empty() ? "" : ", ") + s.info.name;
  }
  throw std::invalid_argument("system = " + name + ": unknown MuJoCo scene (known: " + known + ")");
}

MujocoProblem LoadMujocoScene(const std::string& name, const MujocoOptions& options) {
  return LoadMujocoXml(MujocoSceneXml(name), name, options);
}

}  // namespace impactset::robots
