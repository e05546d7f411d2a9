#include <impactset/systems/builtin.hpp>

#include <stdexcept>

#include <impactset/common/error_policy.hpp>
#include <impactset/systems/builtin_data.hpp>  // generated: kBuiltinJson[] = {name, json text}
#include <impactset/systems/parametric.hpp>
#include <impactset/systems/scene.hpp>

namespace impactset::systems {

const std::vector<BuiltinInfo>& BuiltinSystems() {
  static const std::vector<BuiltinInfo> kSystems = [] {
    std::vector<BuiltinInfo> v;
    for (const auto& e : internal::kBuiltinJson) {
      v.push_back({e.name, ParseSceneJson(e.json).provenance});
    }
    for (const ParametricInfo& p : ParametricSystems()) {  // systems/parametric.hpp
      std::string d = p.description + " Parameters (--param KEY=VALUE, defaults):";
      for (const ParameterInfo& a : p.parameters) d += " " + a.name + "=" + a.default_value;
      v.push_back({p.name, d});
    }
    return v;
  }();
  return kSystems;
}

LoadedProblem LoadBuiltin(const std::string& name) {
  for (const auto& e : internal::kBuiltinJson) {
    if (name == e.name) return ParseSceneJson(e.json);  // sliced to the problem and settings
  }
  if (IsParametric(name)) return LoadParametric(name, {});  // default parameters
  std::string known;
  for (const auto& e : internal::kBuiltinJson)
    known += (known.empty() ? "" : ", ") + std::string(e.name);
  for (const ParametricInfo& p : ParametricSystems()) known += ", " + p.name;
  throw std::invalid_argument("system = " + name + ": unknown built-in system (known: " + known +
                              ")");
}

LoadedScene LoadBuiltinScene(const std::string& name) {
  for (const auto& e : internal::kBuiltinJson) {
    if (name == e.name) return ParseSceneJson(e.json);
  }
  LoadBuiltin(name);  // throws the message that lists the known systems
  InvalidArgument("system", name, "unknown built-in system");
}

}  // namespace impactset::systems
