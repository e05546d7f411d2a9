#include <iostream>

#include "apps/commands.hpp"
#include "apps/json_util.hpp"

namespace impactset::app {

CLI::App* AddInfoCommand(CLI::App* app, InfoArgs* args) {
  auto* cmd = app->add_subcommand("info", "print an impact problem: n, m, M, Jn, D, mu, v-");
  args->source.AddOptions(cmd);
  cmd->add_flag("--json", args->json, "print one JSON object (keys M, Jn, D, mu, v_minus, ...)");
  return cmd;
}

int RunInfo(const InfoArgs& args) {
  std::string name;
  const systems::LoadedProblem lp = args.source.Load(&name);
  const impact::ImpactProblem& p = lp.problem;
  if (args.json) {
    nlohmann::json j;
    j["system"] = name;
    j["n"] = p.n();
    j["m"] = p.m();
    j["k"] = p.k();
    j["M"] = ToJson(p.M());
    j["Jn"] = ToJson(p.Jn());
    j["D"] = ToJson(p.D());
    j["mu"] = ToJson(p.mu());
    j["v_minus"] = ToJson(p.v_minus());
    if (lp.settings.step) j["h"] = *lp.settings.step;
    if (lp.settings.max_steps) j["N"] = *lp.settings.max_steps;
    if (lp.settings.samples) j["samples"] = *lp.settings.samples;
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  const Eigen::IOFormat fmt(10, 0, " ", "\n", "    [", "]");
  std::cout << "system: " << name << "\n";
  if (!lp.provenance.empty()) std::cout << "source: " << lp.provenance << "\n";
  std::cout << "n = " << p.n() << " generalized velocities, m = " << p.m()
            << " contacts, k = " << p.k() << " friction directions per contact\n";
  std::cout << "M =\n"
            << p.M().format(fmt) << "\nJn =\n"
            << p.Jn().format(fmt) << "\nD =\n"
            << p.D().format(fmt) << "\nmu = " << p.mu().transpose().format(fmt)
            << "\nv_minus = " << p.v_minus().transpose().format(fmt)
            << "\nJn v_minus = " << (p.Jn() * p.v_minus()).transpose().format(fmt)
            << "\nKE- = " << p.KineticEnergy(p.v_minus()) << "\n";
  return 0;
}

}  // namespace impactset::app
