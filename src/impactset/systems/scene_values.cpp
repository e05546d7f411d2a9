#include <impactset/systems/scene_values.hpp>

#include <stdexcept>

#include <nlohmann/json.hpp>

namespace impactset::systems {

namespace {

nlohmann::json ParseText(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("scene: malformed JSON: ") + e.what());
  }
}

nlohmann::json* Find(nlohmann::json* doc, const std::string& pointer) {
  const std::string which = "scene parameter '" + pointer + "'";
  try {
    nlohmann::json::json_pointer p(pointer);
    if (pointer.empty()) throw std::invalid_argument(which + ": names the whole document");
    if (!doc->contains(p)) throw std::invalid_argument(which + ": no such value in the scene");
    nlohmann::json& v = (*doc)[p];
    if (!v.is_number()) {
      throw std::invalid_argument(which + ": is " + std::string(v.type_name()) + ", not a number");
    }
    return &v;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(which + ": not a JSON pointer (" + e.what() + ")");
  }
}

}  // namespace

void CheckSceneValue(const std::string& scene_text, const std::string& pointer) {
  nlohmann::json doc = ParseText(scene_text);
  Find(&doc, pointer);
}

LoadedScene LoadSceneWithValues(const std::string& scene_text,
                                const std::vector<std::pair<std::string, double>>& values) {
  nlohmann::json doc = ParseText(scene_text);
  for (const auto& [pointer, x] : values) *Find(&doc, pointer) = x;
  return ParseSceneJson(doc.dump());
}

}  // namespace impactset::systems
