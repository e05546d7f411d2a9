// `impactset compare` key "seghete_murphey": Seghete & Murphey's propagative law
// (laws/seghete_murphey.hpp; docs/seghete-murphey.md). Frictionless: only M and Jn
// are used (D and mu ignored). Settings: elastic propagation (e = 1, every admissible ordering),
// plastic propagation (e = 0 per single impact, every ordering), and the simultaneous plastic
// law as the cone projection (default) and as the paper's equality projection; and the [S-J]
// energetic blend at R = 0.7 (the Fig. 2 value).
#include <cstdio>
#include <string>

#include <impactset/laws/seghete_murphey.hpp>
#include "apps/compare_models.hpp"
#include "apps/json_util.hpp"

namespace impactset::app {
namespace {

// The outcome tree grows exponentially with the contact count: cap it so that `compare` stays
// interactive (a capped setting says "sequence_cap").
constexpr long long kMaxSequences = 20000;

nlohmann::json Sequences(const std::vector<std::vector<int>>& seqs) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& s : seqs) j.push_back(s);
  return j;
}

void AddPropagative(const impact::ImpactProblem& p,
                    double e,
                    const std::string& label,
                    nlohmann::json* settings,
                    nlohmann::json* outcomes) {
  laws::PropagativeEnumerationOptions o;
  o.e = e;
  o.max_sequences = kMaxSequences;
  const laws::PropagativeOutcomeSet set = laws::EnumeratePropagative(p, o);
  settings->push_back({{"label", label},
                       {"law", "propagative"},
                       {"e", e},
                       {"status", std::string(laws::ToString(set.status))},
                       {"distinct_outcomes", set.outcomes.size()},
                       {"feasible_sequences", set.feasible_sequences},
                       {"capped_sequences", set.capped_sequences},
                       {"forced_choice", set.forced_choice},
                       {"single_impacts", set.nodes}});
  for (const laws::PropagativeOutcome& r : set.outcomes) {
    outcomes->push_back({{"setting", label},
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

void AddPlastic(const impact::ImpactProblem& p,
                laws::PlasticMode mode,
                const std::string& label,
                nlohmann::json* settings,
                nlohmann::json* outcomes) {
  const laws::PlasticResult r = laws::ResolvePlastic(p, p.v_minus(), mode);
  settings->push_back({{"label", label},
                       {"law", std::string("simultaneous plastic, ") +
                                   std::string(laws::ToString(mode)) + " projection"},
                       {"e", 0.0},
                       {"status", std::string(laws::ToString(r.status))},
                       {"distinct_outcomes", 1}});
  outcomes->push_back({{"setting", label},
                       {"status", std::string(laws::ToString(r.status))},
                       {"v_plus", ToJson(r.v_plus)},
                       {"contact_velocity", ToJson(r.contact_velocity)},
                       {"lambda", ToJson(r.lambda)},
                       {"adhesive", r.adhesive},
                       {"residual", r.residual},
                       {"energy_ratio", r.energy_ratio}});
}

// [S-J] eq. (17) blend R v_e + (1 - R) v_p per elastic outcome (alpha = R, corrected), with
// the cone plastic outcome as v_p.
void AddBlend(const impact::ImpactProblem& p,
              double R,
              const std::string& label,
              nlohmann::json* settings,
              nlohmann::json* outcomes) {
  laws::PropagativeEnumerationOptions o;
  o.max_sequences = kMaxSequences;
  const laws::PropagativeOutcomeSet set = laws::EnumeratePropagative(p, o);
  const laws::PlasticResult plastic = laws::ResolvePlastic(p, p.v_minus());
  const bool ok = plastic.status == laws::PlasticStatus::kSolved;
  settings->push_back({{"label", label},
                       {"law", "blend of elastic propagative and cone plastic, alpha = R"},
                       {"R", R},
                       {"status", ok ? std::string(laws::ToString(set.status))
                                     : std::string(laws::ToString(plastic.status))},
                       {"distinct_outcomes", ok ? set.outcomes.size() : 0}});
  if (!ok) return;
  const double ke = p.KineticEnergy(p.v_minus());
  for (const laws::PropagativeOutcome& r : set.outcomes) {
    const VectorXd v = laws::BlendOutcome(r.v_plus, plastic.v_plus, R);
    outcomes->push_back({{"setting", label},
                         {"status", "feasible"},
                         {"v_plus", ToJson(v)},
                         {"contact_velocity", ToJson(VectorXd(p.ContactJacobian() * v))},
                         {"orderings", Sequences(r.sequences)},
                         {"ordering_count", r.sequence_count},
                         {"energy_ratio", ke > 0 ? p.KineticEnergy(v) / ke : 1.0}});
  }
}

nlohmann::json Evaluate(const impact::ImpactProblem& p) {
  nlohmann::json settings = nlohmann::json::array(), outcomes = nlohmann::json::array();
  AddPropagative(p, 1.0, "elastic e=1", &settings, &outcomes);
  AddPropagative(p, 0.0, "plastic e=0 propagative", &settings, &outcomes);
  AddPlastic(p, laws::PlasticMode::kCone, "plastic e=0 cone", &settings, &outcomes);
  AddPlastic(p, laws::PlasticMode::kEquality, "plastic e=0 equality (paper-literal)", &settings,
             &outcomes);
  AddBlend(p, 0.7, "blend R=0.7", &settings, &outcomes);
  const laws::PropagativeEnumerationOptions defaults;
  return {{"options",
           {{"frictionless", "only M and Jn are used; D and mu are ignored"},
            {"violation_tolerance", defaults.violation_tolerance},
            {"max_reflections", defaults.max_reflections},
            {"max_sequences", kMaxSequences},
            {"distinct_tolerance", defaults.distinct_tolerance}}},
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

CompareModel SegheteMurpheyCompareModel() { return {"seghete_murphey", Evaluate, Print}; }

}  // namespace impactset::app
