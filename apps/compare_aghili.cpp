// `impactset compare` key "aghili": Aghili's projection-operator law (laws/aghili.hpp;
// docs/aghili.md) with one global restitution coefficient per run (compare/compare.hpp; default
// e = 0, 0.5 and 1). Frictionless: D and mu are ignored, every touching contact that is not
// separating is an equality during the impact, and negative (adhesive) normal impulses are
// listed, not removed.
#include <cstdio>
#include <string>

#include <impactset/laws/aghili.hpp>
#include "apps/compare_models.hpp"
#include "apps/json_util.hpp"

namespace impactset::app {
namespace {

nlohmann::json ToJsonOf(const compare::CompareResult& result) {
  if (!result.aghili) return nullptr;
  const compare::AghiliComparison& c = *result.aghili;
  nlohmann::json runs = nlohmann::json::array();
  for (const compare::AghiliRun& run : c.runs) {
    const laws::AghiliResult& r = run.result;
    runs.push_back({{"e", run.e},
                    {"status", std::string(laws::ToString(r.status))},
                    {"v_plus", ToJson(r.v_plus)},
                    {"contact_velocity", ToJson(run.contact_velocity)},
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
            {"rank_tolerance", c.options.rank_tolerance},
            {"impulse_tolerance", c.options.impulse_tolerance}}},
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

CompareModel AghiliCompareModel() { return {compare::Law::kAghili, ToJsonOf, Print}; }

}  // namespace impactset::app
