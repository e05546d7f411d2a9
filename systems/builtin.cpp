#include "systems/builtin.hpp"

#include <stdexcept>

#include "systems/builtin_data.hpp"  // generated: kBuiltinJson[] = {name, json text}
#include "systems/scene.hpp"

namespace impactset::systems {

const std::vector<BuiltinInfo>& BuiltinSystems() {
  static const std::vector<BuiltinInfo> kSystems = [] {
    std::vector<BuiltinInfo> v;
    for (const auto& e : internal::kBuiltinJson) {
      v.push_back({e.name, ParseSceneJson(e.json).provenance});
    }
    return v;
  }();
  return kSystems;
}

LoadedProblem LoadBuiltin(const std::string& name) {
  for (const auto& e : internal::kBuiltinJson) {
    if (name == e.name) return ParseSceneJson(e.json);  // sliced to the problem and settings
  }
  std::string known;
  for (const auto& e : internal::kBuiltinJson)
    known += (known.empty() ? "" : ", ") + std::string(e.name);
  throw std::invalid_argument("system = " + name + ": unknown built-in system (known: " + known +
                              ")");
}

}  // namespace impactset::systems
