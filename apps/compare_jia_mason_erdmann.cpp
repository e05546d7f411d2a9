// `impactset compare` key "jia_mason_erdmann": the Jia-Mason-Erdmann multiple-impact model
// (laws/jia_mason_erdmann.hpp; frictionless, plastic e = 0 like the set-valued model) at equal
// stiffness and with each contact in turn stiffer and softer than the others
// (compare/compare.hpp).
#include <cstdio>
#include <string>

#include <impactset/laws/jia_mason_erdmann.hpp>
#include "apps/compare_models.hpp"
#include "apps/json_util.hpp"

namespace impactset::app {
namespace {

nlohmann::json ToJsonOf(const compare::CompareResult& result) {
  if (!result.jia_mason_erdmann) return nullptr;
  const compare::JiaMasonErdmannComparison& c = *result.jia_mason_erdmann;
  nlohmann::json runs = nlohmann::json::array();
  for (const compare::JiaMasonErdmannRun& run : c.runs) {
    const laws::JmeResult& r = run.result;
    nlohmann::json states = nlohmann::json::array();
    for (const auto& s : r.states) states.push_back(s);
    runs.push_back({{"label", run.label},
                    {"status", std::string(laws::ToString(r.status))},
                    {"stiffness", ToJson(run.stiffness)},
                    {"v_plus", ToJson(r.v_plus)},
                    {"contact_velocity", ToJson(r.contact_velocity)},
                    {"impulse", ToJson(r.impulse)},
                    {"states", states},
                    {"events", r.events.size()},
                    {"steps", r.steps},
                    {"energy_lost", r.energy_lost},
                    {"energy_residual", r.residual}});
  }
  return {{"options",
           {{"restitution", c.options.default_restitution},
            {"step_fraction", c.options.step_fraction},
            {"lock_ratio", c.options.lock_ratio},
            {"friction", "ignored (frictionless model)"}}},
          {"outcomes", runs}};
}

void Print(const nlohmann::json& j) {
  std::printf("jia_mason_erdmann (frictionless, e = %g, state-transition diagram): %zu runs\n",
              j["options"]["restitution"].get<double>(), j["outcomes"].size());
  for (const auto& r : j["outcomes"]) {
    std::printf("  %-24s %s, %zu states, %ld steps, energy lost %.4g\n    contact velocity ",
                r["label"].get<std::string>().c_str(), r["status"].get<std::string>().c_str(),
                r["states"].size(), r["steps"].get<long>(), r["energy_lost"].get<double>());
    for (const auto& x : r["contact_velocity"]) {
      std::printf(" %+.6f", x.is_null() ? 0.0 : x.get<double>());
    }
    std::printf("\n");
  }
}

}  // namespace

CompareModel JiaMasonErdmannCompareModel() {
  return {compare::Law::kJiaMasonErdmann, ToJsonOf, Print};
}

}  // namespace impactset::app
