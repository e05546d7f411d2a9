// `impactset compare` key "compliant": Kelvin-Voigt contacts with regularised Coulomb friction
// integrated through the impact with CVODE (simulators/compliant.hpp; docs/examples.md §3.7), at
// equal stiffness and with each contact in turn stiffer than the others (compare/compare.hpp).
#include <cstdio>
#include <string>

#include <impactset/simulators/compliant.hpp>
#include "apps/compare_models.hpp"
#include "apps/json_util.hpp"

namespace impactset::app {
namespace {

nlohmann::json ToJsonOf(const compare::CompareResult& result) {
  if (!result.compliant) return nullptr;
  const compare::CompliantComparison& c = *result.compliant;
  nlohmann::json runs = nlohmann::json::array();
  for (const compare::CompliantRun& run : c.runs) {
    const simulators::CompliantResult& r = run.result;
    runs.push_back({{"label", run.label},
                    {"status", std::string(simulators::ToString(r.status))},
                    {"message", r.message},
                    {"stiffness", ToJson(r.stiffness)},
                    {"v_plus", ToJson(r.v_plus)},
                    {"contact_velocity", ToJson(r.contact_velocity)},
                    {"impulse", ToJson(r.impulse)},
                    {"duration", r.duration},
                    {"steps", r.steps},
                    {"energy_ratio", r.energy_ratio}});
  }
  return {{"options",
           {{"stiffness", c.options.stiffness},
            {"damping_ratio", c.options.damping_ratio},
            {"friction_regularisation", c.options.friction_regularisation},
            {"end", "every touching contact stopped approaching"}}},
          {"outcomes", runs}};
}

void Print(const nlohmann::json& j) {
  std::printf("compliant (Kelvin-Voigt, CVODE BDF, k = %g, zeta = %g): %zu runs\n",
              j["options"]["stiffness"].get<double>(), j["options"]["damping_ratio"].get<double>(),
              j["outcomes"].size());
  for (const auto& r : j["outcomes"]) {
    std::printf("  %-20s %s after %.3g s, %ld steps, KE+/KE- %.4f\n    contact velocity ",
                r["label"].get<std::string>().c_str(), r["status"].get<std::string>().c_str(),
                r["duration"].get<double>(), r["steps"].get<long>(),
                r["energy_ratio"].get<double>());
    for (const auto& x : r["contact_velocity"]) {
      std::printf(" %+.6f", x.is_null() ? 0.0 : x.get<double>());
    }
    std::printf("\n");
  }
}

}  // namespace

CompareModel CompliantCompareModel() { return {compare::Law::kCompliant, ToJsonOf, Print}; }

}  // namespace impactset::app
