#include <cstdio>
#include <iostream>

#include <impactset/compare/compare.hpp>
#include <impactset/laws/anitescu_potra.hpp>
#include <impactset/laws/sequential.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/sampling/sampler.hpp>
#include "apps/commands.hpp"
#include "apps/compare_models.hpp"
#include "apps/json_util.hpp"

namespace impactset::app {

CLI::App* AddCompareCommand(CLI::App* app, CompareArgs* args) {
  auto* cmd = app->add_subcommand(
      "compare",
      "other impact laws next to the Routh set: Anitescu-Potra (all solutions), sequential");
  args->source.AddOptions(cmd);
  cmd->add_option("--samples", args->samples, "samples of the Routh set (default: the system's)");
  cmd->add_option("--step", args->step,
                  "step h of the Routh set (default: as `impactset run` resolves it)");
  cmd->add_option("--max-steps", args->max_steps,
                  "step cap N of the Routh set (default: as `impactset run` resolves it)");
  cmd->add_option("--seed", args->seed, "seed of the Routh samples")->capture_default_str();
  cmd->add_option("--threads", args->threads, "worker threads for the Routh set, 0 = all cores")
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  return cmd;
}

namespace {

nlohmann::json OutcomeJson(const laws::AnitescuPotraOutcome& o) {
  return {{"v_plus", ToJson(o.v_plus)},
          {"contact_velocity", ToJson(o.contact_velocity)},
          {"lambda_n", ToJson(o.lambda_n)},
          {"lambda_d", ToJson(o.lambda_d)}};
}

nlohmann::json OutcomeJson(const laws::SequentialOutcome& o) {
  return {{"ordering", o.ordering},
          {"status", std::string(laws::ToString(o.status))},
          {"v_plus", ToJson(o.v_plus)},
          {"contact_velocity", ToJson(o.contact_velocity)},
          {"single_impacts", o.single_impacts},
          {"energy_ratio", o.energy_ratio}};
}

void PrintVector(const char* label, const VectorXd& v) {
  std::printf("    %-18s", label);
  for (Eigen::Index i = 0; i < v.size(); ++i) std::printf(" %+.6f", v(i));
  std::printf("\n");
}

nlohmann::json Json(const std::string& name, const compare::CompareResult& r) {
  nlohmann::json j;
  j["system"] = name;
  j["contact_coordinates"] = "Jn v of each contact, then each contact's tangential velocity";
  if (r.anitescu_potra) {
    nlohmann::json ap = nlohmann::json::array();
    for (const auto& o : r.anitescu_potra->outcomes) ap.push_back(OutcomeJson(o));
    j["anitescu_potra"] = ap;
    j["anitescu_potra_complete"] = r.anitescu_potra->complete;
  }
  if (r.sequential) {
    nlohmann::json sj = nlohmann::json::array();
    for (const auto& o : *r.sequential) sj.push_back(OutcomeJson(o));
    j["sequential"] = sj;
  }
  for (const CompareModel& m : CompareModels()) {
    nlohmann::json law = m.to_json(r);
    if (!law.is_null()) j[std::string(compare::ToString(m.law))] = std::move(law);
  }
  if (r.routh) {
    const sampling::SampleSummary& s = r.routh->summary;
    j["routh"] = {{"samples", s.samples},
                  {"terminated", s.terminated},
                  {"step_capped", s.step_capped},
                  {"lcp_failures", s.lcp_failures},
                  {"lcp_solves_mean", s.MeanSolves()},
                  {"energy_ratio_max", s.energy_ratio_max},
                  {"non_physical", s.non_physical},
                  // No terminated sample: no range (the bounds would be +-inf).
                  {"contact_velocity_min",
                   s.terminated > 0 ? ToJson(s.contact_velocity_min) : nlohmann::json(nullptr)},
                  {"contact_velocity_max",
                   s.terminated > 0 ? ToJson(s.contact_velocity_max) : nlohmann::json(nullptr)},
                  {"h", r.routh->step},
                  {"step_rule", r.routh->step_rule.empty() ? nlohmann::json(nullptr)
                                                           : nlohmann::json(r.routh->step_rule)},
                  {"max_steps", r.routh->max_steps},
                  {"seed", r.routh->seed}};
  }
  return j;
}

void PrintAnitescuPotraAndSequential(const compare::CompareResult& r) {
  if (r.anitescu_potra) {
    const auto& ap = r.anitescu_potra->outcomes;
    std::printf("Anitescu-Potra: %zu distinct outcome%s%s\n", ap.size(), ap.size() == 1 ? "" : "s",
                r.anitescu_potra->complete
                    ? ""
                    : " (LCP too large to enumerate: the chain's one solution)");
    for (const auto& a : ap) PrintVector("contact velocity", a.contact_velocity);
  }
  if (r.sequential) {
    std::printf("sequential: %zu orderings\n", r.sequential->size());
    for (const auto& q : *r.sequential) {
      std::printf("  order");
      for (int c : q.ordering) std::printf(" %d", c);
      std::printf(": %s after %d single impacts, KE+/KE- %.4f\n",
                  std::string(laws::ToString(q.status)).c_str(), q.single_impacts, q.energy_ratio);
      PrintVector("contact velocity", q.contact_velocity);
    }
  }
}

void PrintText(const std::string& name, const compare::CompareResult& r) {
  std::printf(
      "impactset compare: %s (contact velocities: normal of each contact, then tangential)\n",
      name.c_str());
  PrintAnitescuPotraAndSequential(r);
  for (const CompareModel& m : CompareModels()) {
    const nlohmann::json law = m.to_json(r);
    if (!law.is_null()) m.print(law);
  }
  if (r.routh) {
    const sampling::SampleSummary& s = r.routh->summary;
    if (!r.routh->step_rule.empty()) std::printf("Routh set: %s\n", r.routh->step_rule.c_str());
    std::printf(
        "Routh set: %lld samples (h = %g, N = %d), %lld terminated, %lld step-capped, %lld "
        "LCP failures, %lld non-physical",
        s.samples, r.routh->step, r.routh->max_steps, s.terminated, s.step_capped, s.lcp_failures,
        s.non_physical);
    if (s.terminated == 0) {
      std::printf("; no range (no sample terminated)\n");
      return;
    }
    std::printf("; contact velocity range:\n");
    PrintVector("min", s.contact_velocity_min);
    PrintVector("max", s.contact_velocity_max);
  }
}

}  // namespace

int RunCompare(const CompareArgs& args) {
  std::string name;
  const systems::LoadedProblem lp = args.source.Load(&name);
  compare::CompareOptions options;
  options.samples = args.samples;
  options.step = args.step;
  options.max_steps = args.max_steps;
  options.seed = args.seed;
  options.threads = args.threads;
  const compare::CompareResult r = compare::Compare(lp, options);
  if (args.json) {
    std::cout << Json(name, r).dump(1) << "\n";
  } else {
    PrintText(name, r);
  }
  if (r.RouthEmpty()) {
    std::fprintf(stderr,
                 "impactset: no Routh sample terminated (%lld step-capped, %lld LCP failures, "
                 "%lld non-physical of %lld): the Routh set has no range; try a larger --step or "
                 "--max-steps\n",
                 r.routh->summary.step_capped, r.routh->summary.lcp_failures,
                 r.routh->summary.non_physical, r.routh->summary.samples);
    return 4;
  }
  return r.HasLcpFailures() ? 3 : 0;
}

}  // namespace impactset::app
