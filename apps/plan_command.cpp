// `impactset plan`: how many samples a coverage target needs (docs/coverage.md), before running.
#include <cstdio>
#include <iostream>

#include "apps/commands.hpp"
#include "apps/json_util.hpp"
#include "common/error_policy.hpp"
#include "setapprox/coverage.hpp"

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
  const double epsilon = args.epsilon.value_or(engine::DefaultEpsilon(lp.problem));
  const int N = args.max_steps.value_or(lp.settings.max_steps.value_or(10));
  nlohmann::json j;
  j["system"] = name;
  j["epsilon"] = epsilon;
  j["delta"] = args.delta;
  const setapprox::HoldoutBound h = setapprox::PlanHoldoutSize(args.missed_mass, args.delta);
  j["holdout"] = {
      {"missed_mass", args.missed_mass}, {"samples", h.holdout}, {"assumptions", h.assumptions}};
  std::optional<setapprox::Lemma1Bound> l;
  if (args.lipschitz) {
    setapprox::Lemma1Setting s;
    s.lipschitz = *args.lipschitz;
    s.dimension = lp.problem.m() * N;
    s.epsilon = epsilon;
    l = setapprox::PlanLemma1Samples(s, args.delta);
    j["lemma1"] = {{"lipschitz", s.lipschitz},
                   {"cube_dimension", s.dimension},
                   {"samples", l->samples},
                   {"log_cells", l->log_cells},
                   {"assumptions", l->assumptions}};
  } else {
    j["lemma1"] = nullptr;
  }
  if (args.json) {
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  std::printf("impactset plan: %s, epsilon %.4g, confidence %.4g\n", name.c_str(), epsilon,
              1 - args.delta);
  std::printf("hold-out: %lld fresh samples with no miss bound the missed mass by %.4g\n",
              static_cast<long long>(h.holdout), args.missed_mass);
  if (l) {
    std::printf("Lemma 1 (L = %g, d = m N = %d): %.4g samples (log G = %.4g)\n", *args.lipschitz,
                lp.problem.m() * N, l->samples, l->log_cells);
  } else {
    std::printf("Lemma 1: give --lipschitz L\n");
  }
  return 0;
}

}  // namespace impactset::app
