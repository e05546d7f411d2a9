#include <cstdio>
#include <iostream>

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

}  // namespace

int RunCompare(const CompareArgs& args) {
  std::string name;
  const systems::LoadedProblem lp = args.source.Load(&name);
  const impact::ImpactProblem& p = lp.problem;

  // Anitescu-Potra: every distinct outcome by enumeration when the LCP is small enough, else the
  // fallback chain's one solution (flagged as such).
  nlohmann::json ap = nlohmann::json::array();
  const laws::AnitescuPotraSet all = laws::AllAnitescuPotraOutcomes(p, p.v_minus());
  bool ap_complete = all.status == lcp::Status::kSolved;
  std::vector<laws::AnitescuPotraOutcome> ap_outcomes = all.outcomes;
  if (all.status == lcp::Status::kTooLarge) {
    lcp::FallbackSolver chain;
    laws::AnitescuPotraOutcome one = laws::SolveAnitescuPotra(p, p.v_minus(), &chain);
    if (one.info.ok()) ap_outcomes.push_back(one);
  }
  for (const auto& o : ap_outcomes) ap.push_back(OutcomeJson(o));

  const std::vector<laws::SequentialOutcome> seq = laws::SequentialOutcomes(p);
  nlohmann::json sj = nlohmann::json::array();
  for (const auto& o : seq) sj.push_back(OutcomeJson(o));

  sampling::SamplerOptions o;
  o.algorithm.step = lp.settings.step.value_or(1.0);
  o.algorithm.max_steps = lp.settings.max_steps.value_or(10);
  o.samples = args.samples.value_or(lp.settings.samples.value_or(16384));
  o.seed = args.seed;
  o.threads = args.threads;
  const sampling::SamplerResult r = sampling::RunSampler(p, o);
  const sampling::SampleSummary& s = r.summary;

  if (args.json) {
    nlohmann::json j;
    j["system"] = name;
    j["contact_coordinates"] = "Jn v of each contact, then each contact's tangential velocity";
    j["anitescu_potra"] = ap;
    j["anitescu_potra_complete"] = ap_complete;
    j["sequential"] = sj;
    for (const CompareModel& m : CompareModels()) j[m.key] = m.evaluate(p);
    j["routh"] = {{"samples", s.samples},
                  {"terminated", s.terminated},
                  {"step_capped", s.step_capped},
                  {"lcp_failures", s.lcp_failures},
                  {"lcp_solves_mean", s.MeanSolves()},
                  {"energy_ratio_max", s.energy_ratio_max},
                  {"contact_velocity_min", ToJson(s.contact_velocity_min)},
                  {"contact_velocity_max", ToJson(s.contact_velocity_max)},
                  {"h", o.algorithm.step},
                  {"max_steps", o.algorithm.max_steps},
                  {"seed", o.seed}};
    std::cout << j.dump(1) << "\n";
    return s.lcp_failures > 0 ? 3 : 0;
  }
  std::printf(
      "impactset compare: %s (contact velocities: normal of each contact, then tangential)\n",
      name.c_str());
  std::printf("Anitescu-Potra: %zu distinct outcome%s%s\n", ap_outcomes.size(),
              ap_outcomes.size() == 1 ? "" : "s",
              ap_complete ? "" : " (LCP too large to enumerate: the chain's one solution)");
  for (const auto& a : ap_outcomes) PrintVector("contact velocity", a.contact_velocity);
  std::printf("sequential: %zu orderings\n", seq.size());
  for (const auto& q : seq) {
    std::printf("  order");
    for (int c : q.ordering) std::printf(" %d", c);
    std::printf(": %s after %d single impacts, KE+/KE- %.4f\n",
                std::string(laws::ToString(q.status)).c_str(), q.single_impacts, q.energy_ratio);
    PrintVector("contact velocity", q.contact_velocity);
  }
  for (const CompareModel& m : CompareModels()) m.print(m.evaluate(p));
  std::printf(
      "Routh set: %lld samples (h = %g, N = %d), %lld terminated; contact velocity range:\n",
      s.samples, o.algorithm.step, o.algorithm.max_steps, s.terminated);
  PrintVector("min", s.contact_velocity_min);
  PrintVector("max", s.contact_velocity_max);
  return s.lcp_failures > 0 ? 3 : 0;
}

}  // namespace impactset::app
