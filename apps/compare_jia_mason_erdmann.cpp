// `impactset compare` key "jia_mason_erdmann": the Jia-Mason-Erdmann multiple-impact model
// (laws/jia_mason_erdmann.hpp; frictionless, plastic e = 0 like the set-valued model) at equal
// stiffness and with each contact in turn 100 times stiffer and 100 times softer than the others.
#include <cstdio>
#include <string>

#include <impactset/laws/jia_mason_erdmann.hpp>
#include "apps/compare_models.hpp"
#include "apps/json_util.hpp"

namespace impactset::app {
namespace {

constexpr double kContrast = 100;  // a clear stiffness contrast, as the compliant key uses

nlohmann::json Evaluate(const impact::ImpactProblem& p) {
  const laws::JmeOptions base;  // e = 0 at every contact, RK4 at 1 % of the fastest period
  nlohmann::json runs = nlohmann::json::array();
  for (int c = -1; c < p.m(); ++c) {
    for (double factor : {kContrast, 1 / kContrast}) {
      if (c < 0 && factor != kContrast) continue;
      laws::JmeOptions o = base;
      o.stiffness = VectorXd::Ones(p.m());
      std::string label = "equal stiffness";
      if (c >= 0) {
        o.stiffness[c] = factor;
        label = "contact " + std::to_string(c) + (factor > 1 ? " x100 stiffer" : " x100 softer");
      }
      const laws::JmeResult r = laws::SolveJiaMasonErdmann(p, o);
      nlohmann::json states = nlohmann::json::array();
      for (const auto& s : r.states) states.push_back(s);
      runs.push_back({{"label", label},
                      {"status", std::string(laws::ToString(r.status))},
                      {"stiffness", ToJson(o.stiffness)},
                      {"v_plus", ToJson(r.v_plus)},
                      {"contact_velocity", ToJson(r.contact_velocity)},
                      {"impulse", ToJson(r.impulse)},
                      {"states", states},
                      {"events", r.events.size()},
                      {"steps", r.steps},
                      {"energy_lost", r.energy_lost},
                      {"energy_residual", r.residual}});
    }
  }
  return {{"options",
           {{"restitution", base.default_restitution},
            {"step_fraction", base.step_fraction},
            {"lock_ratio", base.lock_ratio},
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

CompareModel JiaMasonErdmannCompareModel() { return {"jia_mason_erdmann", Evaluate, Print}; }

}  // namespace impactset::app
