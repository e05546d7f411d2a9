#include <cstdio>
#include <iostream>
#include <optional>

#include "apps/commands.hpp"
#include "apps/json_util.hpp"

namespace impactset::app {

CLI::App* AddInfoCommand(CLI::App* app, InfoArgs* args) {
  auto* cmd = app->add_subcommand("info", "print an impact problem: n, m, M, Jn, D, mu, v-");
  args->source.AddOptions(cmd);
  cmd->add_flag("--json", args->json, "print one JSON object (keys M, Jn, D, mu, v_minus, ...)");
  cmd->add_flag("--matrices", args->matrices,
                "text: print M, Jn and D after the summary (--json always has them)");
  return cmd;
}

namespace {

nlohmann::json ContactsJson(const robots::MujocoProblem& r) {
  nlohmann::json contacts = nlohmann::json::array();
  for (const robots::ContactReport& c : r.contacts) {
    contacts.push_back(nlohmann::json{
        {"name", c.name},
        {"geoms", nlohmann::json::array({c.geom1, c.geom2})},
        {"bodies", nlohmann::json::array({c.body1, c.body2})},
        {"point", ToJson(VectorXd(c.point))},
        {"normal", ToJson(VectorXd(c.normal))},
        {"tangents",
         nlohmann::json::array({ToJson(VectorXd(c.tangent1)), ToJson(VectorXd(c.tangent2))})},
        {"distance", c.distance},
        {"mu", c.mu},
        {"normal_velocity", c.normal_velocity},
        {"motion", robots::ToString(c.motion)},
        {"joint_limit", c.joint_limit}});
  }
  return contacts;
}

void PrintContacts(const robots::MujocoProblem& r) {
  std::printf(
      "contacts (MuJoCo; gap: signed distance, < 0 penetrating; Jn v- < 0: approaching):\n");
  for (const robots::ContactReport& c : r.contacts) {
    if (c.joint_limit) {  // a stop: its gap is in the joint's units, its normal is the axis
      std::printf(
          "  %-28s bodies %s/%s  to the stop %+.3e (rad or m)  anchor (%+.4f, %+.4f, %+.4f)  "
          "axis (%+.3f, %+.3f, %+.3f)  frictionless  Jn v- %+.6f  %s\n",
          c.name.c_str(), c.body1.c_str(), c.body2.c_str(), c.distance, c.point.x(), c.point.y(),
          c.point.z(), c.normal.x(), c.normal.y(), c.normal.z(), c.normal_velocity,
          robots::ToString(c.motion));
      continue;
    }
    std::printf(
        "  %-28s bodies %s/%s  gap %+.3e m  point (%+.4f, %+.4f, %+.4f)  normal (%+.3f, %+.3f, "
        "%+.3f)  mu %.3g  Jn v- %+.6f  %s\n",
        c.name.c_str(), c.body1.c_str(), c.body2.c_str(), c.distance, c.point.x(), c.point.y(),
        c.point.z(), c.normal.x(), c.normal.y(), c.normal.z(), c.mu, c.normal_velocity,
        robots::ToString(c.motion));
  }
  std::printf("generalized velocities:");
  for (const std::string& n : r.dof_names) std::printf(" %s", n.c_str());
  std::printf("\n");
  if (r.touchdown_shift != 0) {
    std::printf("touchdown: the floating base moved %.6g m along gravity; qpos =",
                r.touchdown_shift);
    for (Eigen::Index i = 0; i < r.qpos.size(); ++i) {
      std::printf("%s%.17g", i ? "," : " ", r.qpos(i));
    }
    std::printf("\n");
  }
}

void PrintMatrices(const impact::ImpactProblem& p) {
  const Eigen::IOFormat fmt(10, 0, " ", "\n", "    [", "]");
  std::cout << "M =\n"
            << p.M().format(fmt) << "\nJn =\n"
            << p.Jn().format(fmt) << "\nD =\n"
            << p.D().format(fmt) << "\n";
}

}  // namespace

int RunInfo(const InfoArgs& args) {
  std::string name;
  std::optional<robots::MujocoProblem> model;
  const systems::LoadedProblem lp = args.source.Load(&name, &model);
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
    if (model) {
      j["qpos"] = ToJson(model->qpos);
      j["qvel"] = ToJson(model->qvel);
      j["qpos_names"] = model->qpos_names;
      j["touchdown_shift"] = model->touchdown_shift;
      j["warnings"] = model->warnings;
      j["contacts"] = ContactsJson(*model);
      j["dof_names"] = model->dof_names;
      j["contact_coordinates"] = model->contact_coordinate_names;
    }
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  const Eigen::IOFormat fmt(10, 0, " ", "\n", "    [", "]");
  std::cout << "system: " << name << "\n";
  if (!lp.provenance.empty()) std::cout << "source: " << lp.provenance << "\n";
  std::cout << "n = " << p.n() << " generalized velocities, m = " << p.m()
            << " contacts, k = " << p.k() << " friction directions per contact\n"
            << "mu = " << p.mu().transpose().format(fmt)
            << "\nv_minus = " << p.v_minus().transpose().format(fmt)
            << "\nJn v_minus = " << (p.Jn() * p.v_minus()).transpose().format(fmt)
            << "\nKE- = " << p.KineticEnergy(p.v_minus()) << "\n";
  std::cout.flush();
  if (model) PrintContacts(*model);
  if (args.matrices) {
    PrintMatrices(p);
  } else {
    std::printf("M, Jn, D: --matrices (or --json)\n");
  }
  return 0;
}

}  // namespace impactset::app
