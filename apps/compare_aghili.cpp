// `impactset compare` key "aghili": Aghili's projection-operator law (laws/aghili.hpp;
// docs/aghili.md) with one global restitution coefficient e = 0, 0.5 and 1. Frictionless: D and
// mu are ignored, every touching contact that is not separating is an equality during the
// impact, and negative (adhesive) normal impulses are listed, not removed.
#include <cstdio>
#include <string>

#include <impactset/laws/aghili.hpp>
#include "apps/compare_models.hpp"
#include "apps/json_util.hpp"

namespace impactset::app {
namespace {

nlohmann::json Evaluate(const impact::ImpactProblem& p) {
  const laws::AghiliOptions options;
  nlohmann::json runs = nlohmann::json::array();
  for (double e : {0.0, 0.5, 1.0}) {
    laws::AghiliRestitution rest;
    rest.e = e;
    const laws::AghiliResult r = laws::AghiliImpact(p, rest, options);
    runs.push_back({{"e", e},
                    {"status", std::string(laws::ToString(r.status))},
                    {"v_plus", ToJson(r.v_plus)},
                    {"contact_velocity", ToJson(VectorXd(p.ContactJacobian() * r.v_plus))},
                    {"normal_impulse", ToJson(r.impulse)},
                    {"generalized_impulse", ToJson(r.generalized_impulse)},
                    {"energy_before", r.energy_before},
                    {"energy_after", r.energy_after},
                    {"energy_ratio", r.energy_ratio},
                    {"energy_gain", r.energy_gain},
                    {"adhesive", r.adhesive},
                    {"restitution_residual", r.residual},
                    {"rank", r.rank},
                    {"cond_Mc", r.cond_Mc}});
  }
  return {{"options",
           {{"friction", "ignored (frictionless law)"},
            {"rank_tolerance", options.rank_tolerance},
            {"impulse_tolerance", options.impulse_tolerance}}},
          {"outcomes", runs}};
}

void Print(const nlohmann::json& j) {
  std::printf("aghili (frictionless projection law, global e): %zu runs\n", j["outcomes"].size());
  for (const auto& r : j["outcomes"]) {
    std::printf("  e = %.2f  %s, rank %d, KE+/KE- %.4f%s, adhesive contacts:", r["e"].get<double>(),
                r["status"].get<std::string>().c_str(), r["rank"].get<int>(),
                r["energy_ratio"].get<double>(),
                r["energy_gain"].get<bool>() ? " (ENERGY GAIN)" : "");
    if (r["adhesive"].empty()) std::printf(" none");
    for (const auto& a : r["adhesive"]) std::printf(" %d", a.get<int>());
    std::printf("\n    contact velocity  ");
    for (const auto& x : r["contact_velocity"]) {
      std::printf(" %+.6f", x.is_null() ? 0.0 : x.get<double>());
    }
    std::printf("\n    normal impulse    ");
    for (const auto& x : r["normal_impulse"]) {
      std::printf(" %+.6f", x.is_null() ? 0.0 : x.get<double>());
    }
    std::printf("\n");
  }
}

}  // namespace

CompareModel AghiliCompareModel() { return {"aghili", Evaluate, Print}; }

}  // namespace impactset::app
