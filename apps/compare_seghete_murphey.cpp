// `impactset compare` key "seghete_murphey": Seghete & Murphey's propagative law
// (laws/seghete_murphey.hpp; docs/seghete-murphey.md). Frictionless: only M and Jn
// are used (D and mu ignored). Settings (compare/compare.hpp runs them): elastic propagation
// (e = 1, every admissible ordering), plastic propagation (e = 0 per single impact, every
// ordering), and the simultaneous plastic law as the cone projection (default) and as the
// paper's equality projection; and the [S-J] energetic blend (default R = 0.7, the Fig. 2 value).
#include <cstdio>
#include <string>

#include <impactset/laws/seghete_murphey.hpp>
#include "apps/compare_models.hpp"
#include "apps/json_util.hpp"

namespace impactset::app {
namespace {

nlohmann::json Sequences(const std::vector<std::vector<int>>& seqs) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& s : seqs) j.push_back(s);
  return j;
}

void AddPropagative(const compare::SegheteMurpheySetting& s,
                    nlohmann::json* settings,
                    nlohmann::json* outcomes) {
  const laws::PropagativeOutcomeSet& set = s.enumeration;
  settings->push_back({{"label", s.label},
                       {"law", "propagative"},
                       {"e", s.e},
                       {"status", std::string(laws::ToString(set.status))},
                       {"distinct_outcomes", set.outcomes.size()},
                       {"feasible_sequences", set.feasible_sequences},
                       {"capped_sequences", set.capped_sequences},
                       {"forced_choice", set.forced_choice},
                       {"single_impacts", set.nodes}});
  for (const laws::PropagativeOutcome& r : set.outcomes) {
    outcomes->push_back({{"setting", s.label},
                         {"status", "feasible"},
                         {"v_plus", ToJson(r.v_plus)},
                         {"contact_velocity", ToJson(r.contact_velocity)},
                         {"lambda", ToJson(r.lambda)},
                         {"orderings", Sequences(r.sequences)},
                         {"ordering_count", r.sequence_count},
                         {"reflections_min", r.min_reflections},
                         {"reflections_max", r.max_reflections},
                         {"residual", r.residual},
                         {"energy_ratio", r.energy_ratio}});
  }
}

void AddPlastic(const compare::SegheteMurpheySetting& s,
                nlohmann::json* settings,
                nlohmann::json* outcomes) {
  const laws::PlasticResult& r = s.plastic;
  settings->push_back({{"label", s.label},
                       {"law", std::string("simultaneous plastic, ") +
                                   std::string(laws::ToString(s.mode)) + " projection"},
                       {"e", 0.0},
                       {"status", std::string(laws::ToString(r.status))},
                       {"distinct_outcomes", 1}});
  outcomes->push_back({{"setting", s.label},
                       {"status", std::string(laws::ToString(r.status))},
                       {"v_plus", ToJson(r.v_plus)},
                       {"contact_velocity", ToJson(r.contact_velocity)},
                       {"lambda", ToJson(r.lambda)},
                       {"adhesive", r.adhesive},
                       {"residual", r.residual},
                       {"energy_ratio", r.energy_ratio}});
}

void AddBlend(const compare::SegheteMurpheySetting& s,
              nlohmann::json* settings,
              nlohmann::json* outcomes) {
  settings->push_back({{"label", s.label},
                       {"law", "blend of elastic propagative and cone plastic, alpha = R"},
                       {"R", s.blend_ratio},
                       {"status", std::string(s.Status())},
                       {"distinct_outcomes", s.DistinctOutcomes()}});
  for (const compare::BlendedOutcome& b : s.blended) {
    const laws::PropagativeOutcome& r = s.enumeration.outcomes[static_cast<size_t>(b.elastic)];
    outcomes->push_back({{"setting", s.label},
                         {"status", "feasible"},
                         {"v_plus", ToJson(b.v_plus)},
                         {"contact_velocity", ToJson(b.contact_velocity)},
                         {"orderings", Sequences(r.sequences)},
                         {"ordering_count", r.sequence_count},
                         {"energy_ratio", b.energy_ratio}});
  }
}

nlohmann::json ToJsonOf(const compare::CompareResult& result) {
  if (!result.seghete_murphey) return nullptr;
  const compare::SegheteMurpheyComparison& c = *result.seghete_murphey;
  nlohmann::json settings = nlohmann::json::array(), outcomes = nlohmann::json::array();
  for (const compare::SegheteMurpheySetting& s : c.settings) {
    switch (s.law) {
      case compare::SegheteMurpheyLaw::kPropagative:
        AddPropagative(s, &settings, &outcomes);
        break;
      case compare::SegheteMurpheyLaw::kPlastic:
        AddPlastic(s, &settings, &outcomes);
        break;
      case compare::SegheteMurpheyLaw::kBlend:
        AddBlend(s, &settings, &outcomes);
        break;
    }
  }
  return {{"options",
           {{"frictionless", "only M and Jn are used; D and mu are ignored"},
            {"violation_tolerance", c.options.violation_tolerance},
            {"max_reflections", c.options.max_reflections},
            {"max_sequences", c.options.max_sequences},
            {"distinct_tolerance", c.options.distinct_tolerance}}},
          {"settings", settings},
          {"outcomes", outcomes}};
}

void Print(const nlohmann::json& j) {
  constexpr int kShownOutcomes = 6;     // per setting; --json has them all
  constexpr size_t kShownImpacts = 16;  // of an ordering
  std::printf("seghete_murphey (propagative, frictionless: D and mu ignored)\n");
  for (const auto& s : j["settings"]) {
    const std::string label = s["label"].get<std::string>();
    std::printf("  %s: %s, %d distinct outcome%s\n", label.c_str(),
                s["status"].get<std::string>().c_str(), s["distinct_outcomes"].get<int>(),
                s["distinct_outcomes"].get<int>() == 1 ? "" : "s");
    int shown = 0;
    for (const auto& o : j["outcomes"]) {
      if (o["setting"].get<std::string>() != label) continue;
      if (++shown > kShownOutcomes) continue;
      std::printf("    KE+/KE- %.4f", o["energy_ratio"].get<double>());
      if (o.contains("ordering_count")) {
        const auto& first = o["orderings"][0];
        std::printf(", %lld ordering%s, e.g. (%zu impacts)", o["ordering_count"].get<long long>(),
                    o["ordering_count"].get<long long>() == 1 ? "" : "s", first.size());
        for (size_t k = 0; k < first.size() && k < kShownImpacts; ++k) {
          std::printf(" %d", first[k].get<int>());
        }
        if (first.size() > kShownImpacts) std::printf(" ...");
      }
      std::printf("\n      contact velocity");
      for (const auto& x : o["contact_velocity"]) {
        std::printf(" %+.6f", x.is_null() ? 0.0 : x.get<double>());
      }
      std::printf("\n");
    }
    if (shown > kShownOutcomes) {
      std::printf("    ... %d more (see --json)\n", shown - kShownOutcomes);
    }
  }
}

}  // namespace

CompareModel SegheteMurpheyCompareModel() {
  return {compare::Law::kSegheteMurphey, ToJsonOf, Print};
}

}  // namespace impactset::app
