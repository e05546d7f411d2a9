// `impactset plan`: how many samples a coverage target needs (docs/coverage.md), before running.
#include <cstdio>
#include <iostream>

#include <impactset/engine/plan.hpp>
#include "apps/commands.hpp"
#include "apps/json_util.hpp"

namespace impactset::app {

CLI::App* AddPlanCommand(CLI::App* app, PlanArgs* args) {
  auto* cmd = app->add_subcommand(
      "plan", "samples needed for a coverage target: Lemma 1 (K) and the hold-out (K')");
  args->source.AddOptions(cmd);
  cmd->add_option("--epsilon", args->epsilon, "net radius (default: run's default for the system)");
  cmd->add_option("--delta", args->delta, "confidence 1 - delta")->capture_default_str();
  cmd->add_option("--lipschitz", args->lipschitz, "Lipschitz constant L for Lemma 1");
  cmd->add_option("--max-steps", args->max_steps, "step cap N (default: the system's)");
  cmd->add_option("--missed-mass", args->missed_mass,
                  "hold-out target: bound on the probability mass the net may miss")
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  return cmd;
}

int RunPlan(const PlanArgs& args) {
  std::string name;
  const systems::LoadedProblem lp = args.source.Load(&name);
  engine::PlanOptions o;
  o.epsilon = args.epsilon;
  o.delta = args.delta;
  o.lipschitz = args.lipschitz;
  o.max_steps = args.max_steps;
  o.missed_mass = args.missed_mass;
  const engine::PlanResult r = engine::Plan(lp, o);
  nlohmann::json j;
  j["system"] = name;
  j["epsilon"] = r.epsilon;
  j["delta"] = r.delta;
  j["holdout"] = {{"missed_mass", args.missed_mass},
                  {"samples", r.holdout.samples},
                  {"assumptions", r.holdout.assumptions}};
  if (r.lemma1) {
    j["lemma1"] = {{"lipschitz", r.lemma1->lipschitz},
                   {"cube_dimension", r.lemma1->cube_dimension},
                   {"samples", r.lemma1->samples},
                   {"log_cells", r.lemma1->log_cells},
                   {"assumptions", r.lemma1->assumptions}};
  } else {
    j["lemma1"] = nullptr;
  }
  if (args.json) {
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  std::printf("impactset plan: %s, epsilon %.4g, confidence %.4g\n", name.c_str(), r.epsilon,
              1 - r.delta);
  std::printf("hold-out: %lld fresh samples with no miss bound the missed mass by %.4g\n",
              r.holdout.samples, args.missed_mass);
  if (r.lemma1) {
    std::printf(
        "Lemma 1 (L = %g, d = m N = %d, N = %d): %.4g iid samples make the net a 2 eps-net with "
        "probability %.4g when every sample terminates (log G = %.4g)\n",
        r.lemma1->lipschitz, r.lemma1->cube_dimension, r.max_steps, r.lemma1->samples, 1 - r.delta,
        r.lemma1->log_cells);
  } else {
    std::printf("Lemma 1: give --lipschitz L\n");
  }
  return 0;
}

}  // namespace impactset::app
