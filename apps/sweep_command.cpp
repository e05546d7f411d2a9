// `impactset sweep`: a point-valued impact model run over a range of its free parameters
// (log-spaced stiffness ratios; for the compliant model also small initial tilts), stored like a
// set of samples: /samples holds one row per run, /sweep the per-run parameters (docs
// dataset-format.md), and the nets and hulls of `run` are built over the runs' outcomes.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <impactset/data/dataset.hpp>
#include <impactset/data/output_path.hpp>
#include <impactset/engine/point_model.hpp>
#include <impactset/simulators/sweep.hpp>
#include <impactset/systems/builtin.hpp>
#include <impactset/systems/scene.hpp>
#include "apps/commands.hpp"
#include "apps/json_util.hpp"
#include "apps/set_report.hpp"

namespace impactset::app {

CLI::App* AddSweepCommand(CLI::App* app, SweepArgs* args) {
  auto* cmd = app->add_subcommand(
      "sweep",
      "a point-valued impact model over its parameters: jia (Jia-Mason-Erdmann) or compliant "
      "(Kelvin-Voigt, CVODE); stiffness ratios k_0/k_rest = 10^r and, compliant only, tilts");
  args->source.AddOptions(cmd);
  cmd->add_option("--model", args->model, "jia | compliant")
      ->required()
      ->check(CLI::IsMember({"jia", "compliant"}));
  cmd->add_option("--ratio-min", args->options.ratio_min, "smallest log10 stiffness ratio")
      ->capture_default_str();
  cmd->add_option("--ratio-max", args->options.ratio_max, "largest log10 stiffness ratio")
      ->capture_default_str();
  cmd->add_option("--ratios", args->options.ratios, "stiffness ratios, log-spaced (0: none)")
      ->capture_default_str();
  cmd->add_option("--tilt-max", args->options.tilt_max,
                  "compliant only: tilts evenly in [-DEG, DEG] degrees (a floating first body, "
                  "see simulators/tilted_drop.hpp)");
  cmd->add_option("--tilts", args->options.tilts, "number of tilts (with --tilt-max)")
      ->capture_default_str();
  cmd->add_option("--restitution", args->options.restitution,
                  "jia: energetic restitution e of every contact, [0, 1]")
      ->capture_default_str();
  cmd->add_option("--stiffness", args->options.stiffness,
                  "compliant: softest contact's stiffness, N/m")
      ->capture_default_str();
  cmd->add_option("--gravity", args->options.gravity,
                  "compliant with --system/--scene: gravity along -y during contact, m/s^2")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "output HDF5 file")->required();
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  auto* sets = cmd->add_option_group("sets", "eps-nets and hulls of the outcomes");
  sets->add_option("--epsilon", args->sets.epsilon, "net covering radius (default: 1 % of v-)");
  sets->add_flag("--no-sets", args->no_sets, "no nets or hulls");
  return cmd;
}

namespace {

using simulators::SweepRun;
using simulators::SweepRunKind;

void PrintJson(const std::string& name,
               const SweepArgs& args,
               const simulators::SweepResult& sweep,
               const engine::PointModelOutput& out) {
  nlohmann::json j;
  j["model"] = out.dataset.sweep->model;
  j["system"] = name;
  j["runs"] = sweep.runs.size();
  j["terminated"] = out.dataset.summary.terminated;
  nlohmann::json list = nlohmann::json::array();
  for (const SweepRun& r : sweep.runs) {
    list.push_back({{"kind", r.kind == SweepRunKind::kStiffnessRatio ? "stiffness_ratio" : "tilt"},
                    {"log10_stiffness_ratio", r.log10_ratio},
                    {"tilt", r.tilt},
                    {"status", r.detail},
                    {"v_plus", ToJson(r.v_plus)},
                    {"contact_velocity", ToJson(r.contact_velocity)}});
  }
  j["outcomes"] = list;
  nlohmann::json set_list = nlohmann::json::array();
  for (const auto& st : out.sets) set_list.push_back(SetJson(st));
  j["sets"] = set_list;
  j["out"] = args.out;
  std::cout << j.dump(1) << "\n";
}

void PrintText(const std::string& name,
               const SweepArgs& args,
               const simulators::SweepResult& sweep,
               const engine::PointModelOutput& out) {
  std::printf("impactset sweep: %s on %s, %lld runs (%lld terminated)\n",
              out.dataset.sweep->model.c_str(), name.c_str(),
              static_cast<long long>(sweep.runs.size()),
              static_cast<long long>(out.dataset.summary.terminated));
  for (const SweepRun& r : sweep.runs) {
    const bool ratio = r.kind == SweepRunKind::kStiffnessRatio;
    std::printf("  %s %+8.4f  %-12s contact velocity", ratio ? "log10 k0/k" : "tilt deg  ",
                ratio ? r.log10_ratio : r.tilt * 180 / M_PI, r.detail.c_str());
    for (Eigen::Index i = 0; i < r.contact_velocity.size(); ++i) {
      std::printf(" %+.6f", r.contact_velocity[i]);
    }
    std::printf("\n");
  }
  std::printf("wrote %s\n", args.out.c_str());
}

}  // namespace

int RunSweep(const SweepArgs& args) {
  data::PrepareOutputPath(args.out);  // before the work (docs/robustness.md)
  std::string name;
  const systems::LoadedProblem lp = args.source.Load(&name);
  const impact::ImpactProblem& p = lp.problem;
  simulators::SweepOptions options = args.options;
  options.model = args.model == "jia" ? simulators::SweepModel::kJiaMasonErdmann
                                      : simulators::SweepModel::kCompliant;
  // --system and --scene have a scene: checked before the scene is loaded.
  const bool have_scene = args.source.problem_file.empty();
  simulators::ValidateSweep(p, options, have_scene);
  std::optional<systems::LoadedScene> scene;
  if (have_scene && options.model == simulators::SweepModel::kCompliant) {
    scene = args.source.scene_file.empty() ? systems::LoadBuiltinScene(name)
                                           : systems::LoadSceneJson(args.source.scene_file);
  }
  const simulators::SweepResult sweep = simulators::RunSweep(p, options, scene ? &*scene : nullptr);

  engine::PointModelRuns runs{sweep.VPlus(),
                              sweep.ContactVelocities(),
                              sweep.StatusCodes(),
                              {std::string(simulators::ToString(options.model)), sweep.Parameters(),
                               simulators::SweepResult::Legend(), sweep.settings}};
  const engine::PointModelOutput out = engine::PointModelDataset(
      p, name, std::move(runs), args.no_sets ? std::nullopt : std::optional(args.sets));
  data::WriteDataset(args.out, out.dataset);

  if (args.json) {
    PrintJson(name, args, sweep, out);
  } else {
    PrintText(name, args, sweep, out);
  }
  const auto failed = static_cast<long long>(sweep.runs.size()) - out.dataset.summary.terminated;
  return failed > 0 ? 3 : 0;
}

}  // namespace impactset::app
