// `impactset uniqueness`: Seghete & Murphey's uniqueness diagnostics of an impact problem
// (laws/seghete_murphey_diagnostics.hpp; docs/seghete-murphey.md). Frictionless:
// only M and Jn are used.
#include <cstdio>
#include <iostream>

#include <impactset/laws/seghete_murphey.hpp>
#include "apps/commands.hpp"
#include "apps/json_util.hpp"

namespace impactset::app {

CLI::App* AddUniquenessCommand(CLI::App* app, UniquenessArgs* args) {
  auto* cmd = app->add_subcommand(
      "uniqueness",
      "Seghete-Murphey uniqueness diagnostics: normal cosines in the M^-1 metric, "
      "orthogonality, s = -cos(pi/k) pairs, all elastic orderings' outcomes, unpredictability xi "
      "(frictionless: D and mu ignored)");
  args->source.AddOptions(cmd);
  cmd->add_option("--max-sequences", args->max_sequences,
                  "most orderings enumerated before stopping (status sequence_cap)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  return cmd;
}

namespace {

nlohmann::json Json(const std::string& name,
                    const laws::UniquenessDiagnostics& d,
                    const laws::UniquenessOptions& o) {
  nlohmann::json j;
  j["system"] = name;
  j["frictionless"] = "only M and Jn are used; D and mu are ignored";
  j["gram"] = ToJson(d.gram);
  j["cosines"] = ToJson(d.cosines);
  j["initial_components"] = ToJson(d.initial_components);
  j["initially_colliding"] = d.initially_colliding;
  j["cosine_tolerance"] = o.cosine_tolerance;
  j["orthogonal"] = d.orthogonal;
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : d.pi_over_k)
    cases.push_back({{"i", c.i}, {"j", c.j}, {"k", c.k}, {"s", c.s}});
  j["pi_over_k"] = cases;
  j["theorem2"] = d.theorem2;
  j["theorem3"] = d.theorem3;
  j["pi_over_k_pair"] = d.pi_over_k_pair;
  j["forced_choice"] = d.forced_choice;
  j["enumeration_status"] = std::string(laws::ToString(d.outcome_set.status));
  j["feasible_sequences"] = d.outcome_set.feasible_sequences;
  j["capped_sequences"] = d.outcome_set.capped_sequences;
  j["distinct_outcomes"] = d.distinct_outcomes;
  j["all_orderings_agree"] = d.all_orderings_agree;
  nlohmann::json outs = nlohmann::json::array();
  for (const auto& r : d.outcome_set.outcomes) {
    nlohmann::json seqs = nlohmann::json::array();
    for (const auto& s : r.sequences) seqs.push_back(s);
    outs.push_back({{"v_plus", ToJson(r.v_plus)},
                    {"contact_velocity", ToJson(r.contact_velocity)},
                    {"orderings", seqs},
                    {"ordering_count", r.sequence_count},
                    {"reflections_min", r.min_reflections},
                    {"reflections_max", r.max_reflections}});
  }
  j["outcomes"] = outs;
  const laws::Unpredictability& u = d.unpredictability;
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& p : u.pairs) {
    pairs.push_back({{"i", p.i},
                     {"j", p.j},
                     {"s", p.s},
                     {"a", p.a},
                     {"b", p.b},
                     {"normal_plane_norm", p.normal_plane_norm},
                     {"first_order", p.first_order},
                     {"two_step", p.two_step},
                     {"three_step", p.three_step},
                     {"commutator", p.commutator}});
  }
  j["unpredictability"] = {{"xi", u.xi},
                           {"xi_argmin_argmax", u.xi_argmin_argmax},
                           {"argmin_argmax_ok", u.argmin_argmax_ok},
                           {"max_abs_cosine", u.max_abs_cosine},
                           {"pairs", pairs}};
  return j;
}

const char* YesNo(bool b) { return b ? "yes" : "no"; }

}  // namespace

int RunUniqueness(const UniquenessArgs& args) {
  std::string name;
  const systems::LoadedProblem lp = args.source.Load(&name);
  laws::UniquenessOptions o;
  o.enumeration.max_sequences = args.max_sequences;
  const laws::UniquenessDiagnostics d = laws::DiagnoseUniqueness(lp.problem, o);
  if (args.json) {
    std::cout << Json(name, d, o).dump(1) << "\n";
    return 0;
  }
  const Eigen::IOFormat fmt(6, 0, " ", "\n", "    [", "]");
  std::cout << "system: " << name << " (frictionless: D and mu ignored)\n"
            << "normal cosines s_ij = <u_i, u_j> in the M^-1 metric:\n"
            << d.cosines.format(fmt) << "\n";
  std::printf("orthogonal normals (|s_ij| <= %g): %s\n", o.cosine_tolerance, YesNo(d.orthogonal));
  if (d.pi_over_k.empty()) std::printf("no pair with s = -cos(pi/k), k <= %d\n", o.max_k);
  for (const auto& c : d.pi_over_k) {
    std::printf("pair (%d, %d): s = %.9f = -cos(pi/%d)\n", c.i, c.j, c.s, c.k);
  }
  std::printf(
      "Theorem 2 (orthogonal): %s; Theorem 3 (two contacts, s = -1/2): %s; "
      "two contacts at pi/k: %s; forced choice: %s\n",
      YesNo(d.theorem2), YesNo(d.theorem3), YesNo(d.pi_over_k_pair), YesNo(d.forced_choice));
  std::printf("elastic orderings: %lld (%s), %d distinct outcome%s; all orderings agree: %s\n",
              d.outcome_set.feasible_sequences,
              std::string(laws::ToString(d.outcome_set.status)).c_str(), d.distinct_outcomes,
              d.distinct_outcomes == 1 ? "" : "s", YesNo(d.all_orderings_agree));
  for (const auto& r : d.outcome_set.outcomes) {
    std::printf("  %lld ordering%s, e.g.", r.sequence_count, r.sequence_count == 1 ? "" : "s");
    if (!r.sequences.empty()) {
      for (int c : r.sequences[0]) std::printf(" %d", c);
    }
    std::printf(": normal contact velocity");
    for (Eigen::Index i = 0; i < lp.problem.m(); ++i) {
      std::printf(" %+.6f", r.contact_velocity[i]);
    }
    std::printf("\n");
  }
  const laws::Unpredictability& u = d.unpredictability;
  std::printf("unpredictability xi (outcome-set diameter / ||p-||): %.6g\n", u.xi);
  std::printf("argmin vs argmax ordering discrepancy: %.6g%s; max |s_ij|: %.6g\n",
              u.xi_argmin_argmax, u.argmin_argmax_ok ? "" : " (a run did not terminate)",
              u.max_abs_cosine);
  return 0;
}

}  // namespace impactset::app
