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

#include "apps/commands.hpp"
#include "apps/set_report.hpp"
#include "engine/run.hpp"
#include "common/version.hpp"
#include "apps/json_util.hpp"
#include "impact/algorithm1.hpp"
#include "simulators/compliant.hpp"
#include "laws/jia_mason_erdmann.hpp"
#include "common/error_policy.hpp"
#include "systems/builtin.hpp"
#include "systems/scene.hpp"
#include "simulators/tilted_drop.hpp"

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
  cmd->add_option("--ratio-min", args->ratio_min, "smallest log10 stiffness ratio")
      ->capture_default_str();
  cmd->add_option("--ratio-max", args->ratio_max, "largest log10 stiffness ratio")
      ->capture_default_str();
  cmd->add_option("--ratios", args->ratios, "stiffness ratios, log-spaced (0: none)")
      ->capture_default_str();
  cmd->add_option("--tilt-max", args->tilt_max,
                  "compliant only: tilts evenly in [-DEG, DEG] degrees (a floating first body, "
                  "see simulators/tilted_drop.hpp)");
  cmd->add_option("--tilts", args->tilts, "number of tilts (with --tilt-max)")
      ->capture_default_str();
  cmd->add_option("--restitution", args->restitution,
                  "jia: energetic restitution e of every contact, [0, 1]")
      ->capture_default_str();
  cmd->add_option("--stiffness", args->stiffness, "compliant: softest contact's stiffness, N/m")
      ->capture_default_str();
  cmd->add_option("--gravity", args->gravity,
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

struct Run {
  double log10_ratio = 0, tilt = 0;  // tilt in rad
  int kind = 0;                      // 0: stiffness ratio run, 1: tilt run
  std::int32_t status = 0;           // 0 terminated, 1 a cap, 2 solver failure
  std::string detail;
  VectorXd v_plus, contact_velocity;
  double steps = 0;
};

void Validate(const SweepArgs& a, bool have_scene) {
  if (!std::isfinite(a.ratio_min) || !std::isfinite(a.ratio_max) || a.ratio_min > a.ratio_max) {
    InvalidArgument("--ratio-min, --ratio-max",
                    std::to_string(a.ratio_min) + ", " + std::to_string(a.ratio_max),
                    "must be finite with ratio-min <= ratio-max");
  }
  if (a.ratios < 0) InvalidArgument("--ratios", a.ratios, "must be >= 0");
  if (a.tilts < 0) InvalidArgument("--tilts", a.tilts, "must be >= 0");
  if (a.tilt_max) {
    if (a.model != "compliant") {
      InvalidArgument("--tilt-max", *a.tilt_max, "tilt sweeps need --model compliant");
    }
    if (!have_scene) {
      InvalidArgument("--tilt-max", *a.tilt_max, "needs a scene (--system or --scene)");
    }
    // simulators::TiltScene is a small-angle helper: |angle| < 0.1 rad.
    if (!(*a.tilt_max > 0 && *a.tilt_max < 0.1 * 180 / M_PI)) {
      InvalidArgument("--tilt-max", *a.tilt_max, "must be in (0, 5.7) degrees");
    }
    if (a.tilts < 1) InvalidArgument("--tilts", a.tilts, "must be >= 1 with --tilt-max");
  } else if (a.tilts > 0) {
    InvalidArgument("--tilts", a.tilts, "needs --tilt-max");
  }
  const int total = a.ratios + (a.tilt_max ? a.tilts : 0);
  if (total < 1) InvalidArgument("--ratios + --tilts", total, "must be >= 1 run");
  if (!(a.restitution >= 0 && a.restitution <= 1)) {
    InvalidArgument("--restitution", a.restitution, "must be in [0, 1]");
  }
  if (!(std::isfinite(a.stiffness) && a.stiffness > 0)) {
    InvalidArgument("--stiffness", a.stiffness, "must be finite and > 0");
  }
  if (!(std::isfinite(a.gravity) && a.gravity >= 0)) {
    InvalidArgument("--gravity", a.gravity, "must be finite and >= 0");
  }
}

double Log10Ratio(const SweepArgs& a, int j) {
  return a.ratios == 1 ? a.ratio_min
                       : a.ratio_min + (a.ratio_max - a.ratio_min) * j / (a.ratios - 1);
}

// The authors' compliant settings (docs/examples.md §3.7, as tests/simulators/compliant_test.cpp):
// zeta = 5 with damping mass 1, stop velocity 1e-3 m / k, a minimum impulse per contact of 1 % of
// the largest effective-mass momentum max_i |xdot_i-| / W_ii, gravity when the scene is known.
simulators::CompliantOptions CompliantBase(const SweepArgs& a, const impact::ImpactProblem& p) {
  simulators::CompliantOptions o;
  o.stiffness = a.stiffness;
  o.damping_ratio = 5;
  o.damping_mass = 1;
  o.stop_velocity = 1e-3 / a.stiffness;
  const VectorXd xdm = p.Jn() * p.v_minus();
  double momentum = 0;
  for (int i = 0; i < p.m(); ++i) {
    momentum = std::max(momentum, std::abs(xdm[i]) / p.Delassus()(i, i));
  }
  o.min_impulse = 1e-2 * momentum;
  return o;
}

Run FromCompliant(const simulators::CompliantResult& r) {
  Run run;
  run.status = r.terminated() ? 0 : (r.status == simulators::CompliantStatus::kSolverFailure ? 2 : 1);
  run.detail = std::string(simulators::ToString(r.status));
  run.v_plus = r.v_plus;
  run.contact_velocity = r.contact_velocity;
  run.steps = static_cast<double>(r.steps);
  return run;
}

}  // namespace

int RunSweep(const SweepArgs& args) {
  std::string name;
  const systems::LoadedProblem lp = args.source.Load(&name);
  const impact::ImpactProblem& p = lp.problem;
  const bool have_scene = args.source.problem_file.empty();
  Validate(args, have_scene);
  if (args.model == "compliant" && args.ratios > 0 && p.m() != 2) {
    InvalidArgument(
        "--ratios", args.ratios,
        "the compliant stiffness-ratio sweep needs exactly 2 contacts, the system has " +
            std::to_string(p.m()));
  }
  std::optional<systems::LoadedScene> scene;
  if (have_scene && args.model == "compliant") {
    scene = args.source.scene_file.empty() ? systems::LoadBuiltinScene(name)
                                           : systems::LoadSceneJson(args.source.scene_file);
  }
  std::vector<Run> runs;
  if (args.model == "jia") {
    laws::JmeOptions o;
    o.default_restitution = args.restitution;
    if (args.ratios > 0) {
      const auto results =
          laws::JmeStiffnessRatioSweep(p, o, args.ratio_min, args.ratio_max, args.ratios);
      for (int j = 0; j < args.ratios; ++j) {
        const auto& r = results[static_cast<size_t>(j)];
        Run run;
        run.log10_ratio = Log10Ratio(args, j);
        run.status = r.terminated() ? 0 : 1;
        run.detail = std::string(laws::ToString(r.status));
        run.v_plus = r.v_plus;
        run.contact_velocity = r.contact_velocity;
        run.steps = static_cast<double>(r.steps);
        runs.push_back(run);
      }
    }
  } else {
    simulators::CompliantOptions base = CompliantBase(args, p);
    if (scene && args.gravity > 0) {
      base.external_force = systems::GravityForce(scene->tree, scene->q, args.gravity);
    }
    if (args.ratios > 0) {
      const auto results =
          simulators::StiffnessRatioSweep(p, base, args.ratio_min, args.ratio_max, args.ratios);
      for (int j = 0; j < args.ratios; ++j) {
        Run run = FromCompliant(results[static_cast<size_t>(j)]);
        run.log10_ratio = Log10Ratio(args, j);
        runs.push_back(run);
      }
    }
    if (args.tilt_max) {
      const double limit = *args.tilt_max * M_PI / 180;
      for (int j = 0; j < args.tilts; ++j) {
        const double angle = args.tilts == 1 ? 0.0 : -limit + 2 * limit * j / (args.tilts - 1);
        const auto tilt = simulators::TiltScene(*scene, angle, args.gravity);
        simulators::CompliantOptions o = base;
        o.initial_gap = tilt.gap;
        if (args.gravity > 0) {
          o.external_force = systems::GravityForce(scene->tree, tilt.q, args.gravity);
        }
        Run run = FromCompliant(simulators::SimulateCompliantImpact(tilt.problem, o));
        run.kind = 1;
        run.tilt = angle;
        // contact_velocity uses the tilted Jacobians (as the authors' Fig. 12); /problem and
        // the nets use the untilted ones, O(angle) away (docs/dataset-format.md /sweep).
        runs.push_back(run);
      }
    }
  }

  const auto count = static_cast<Eigen::Index>(runs.size());
  data::Dataset d;
  d.run.system = name;
  d.run.design = "sweep";
  d.run.samples = count;
  d.run.sample_count = count;
  d.run.threads = 1;
  d.run.lcp = "none";
  d.run.selection = "none";
  d.run.version = kVersion;
  d.run.git_revision = GitRevision();
  d.run.created = engine::UtcNow();
  d.problem = engine::ToProblemArrays(p);
  data::SampleArrays s;
  s.v_plus.resize(p.n(), count);
  s.contact_velocity.resize(p.ContactJacobian().rows(), count);
  VectorXd log10_ratio(count), tilt(count), kind(count), steps(count);
  const double ke_minus = p.KineticEnergy(p.v_minus());
  data::SummaryArrays& sum = d.summary;
  const auto c = p.ContactJacobian().rows();
  sum.contact_velocity_min = VectorXd::Constant(c, INFINITY);
  sum.contact_velocity_max = VectorXd::Constant(c, -INFINITY);
  for (Eigen::Index j = 0; j < count; ++j) {
    const Run& r = runs[static_cast<size_t>(j)];
    s.v_plus.col(j) = r.v_plus;
    s.contact_velocity.col(j) = r.contact_velocity;
    s.status.push_back(r.status);
    s.lcp_solves.push_back(0);  // no LCP: a point-valued model
    const double ratio = ke_minus > 0 ? p.KineticEnergy(r.v_plus) / ke_minus : 1.0;
    s.energy_ratio.push_back(ratio);
    s.non_unique.push_back(0);
    log10_ratio[j] = r.log10_ratio;
    tilt[j] = r.tilt;
    kind[j] = r.kind;
    steps[j] = r.steps;
    if (r.status == 0) {
      ++sum.terminated;
      sum.energy_ratio_max = std::max(sum.energy_ratio_max, ratio);
      sum.contact_velocity_min = sum.contact_velocity_min.cwiseMin(r.contact_velocity);
      sum.contact_velocity_max = sum.contact_velocity_max.cwiseMax(r.contact_velocity);
    } else {
      ++sum.step_capped;
    }
  }
  sum.solves_histogram = {static_cast<std::int64_t>(count)};  // every run: 0 LCP solves
  data::SweepArrays sw;
  sw.model = args.model == "jia" ? "jia_mason_erdmann" : "compliant";
  sw.parameters = {
      {"log10_stiffness_ratio", log10_ratio}, {"tilt", tilt}, {"kind", kind}, {"steps", steps}};
  sw.attributes = {{"kind_values", "0 stiffness ratio run, 1 tilt run"},
                   {"status_values", "0 terminated, 1 cap reached, 2 solver failure"},
                   {"swept_contact", "contact 0: k_0 = 10^r k, the others k"}};
  if (args.model == "jia") {
    sw.settings = {{"restitution", args.restitution}};
  } else {
    sw.settings = {{"stiffness", args.stiffness},
                   {"damping_ratio", 5},
                   {"gravity", scene ? args.gravity : 0.0}};
  }
  d.sweep = std::move(sw);
  std::vector<engine::PointSet> sets;
  if (!args.no_sets) {
    engine::SetOptions so = args.sets;
    so.reachable = false;  // a point-valued model has no intermediate velocities here
    so.holdout = 0;
    engine::SetBuilder builder(p, so);
    std::vector<impact::SampleStatus> status;
    for (std::int32_t code : s.status) status.push_back(impact::SampleStatusFromCode(code));
    builder.ConsumePostImpact(s.v_plus, status);
    sets = builder.Sets();
    for (const engine::PointSet& set : sets) d.sets.push_back(engine::ToPointSetArrays(set));
    so.epsilon = builder.epsilon();
    d.set_settings = engine::ToSettings(so);
  }
  d.samples = std::move(s);
  data::WriteDataset(args.out, d);

  const long long failed = count - d.summary.terminated;
  if (args.json) {
    nlohmann::json j;
    j["model"] = d.sweep->model;
    j["system"] = name;
    j["runs"] = count;
    j["terminated"] = d.summary.terminated;
    nlohmann::json list = nlohmann::json::array();
    for (const Run& r : runs) {
      list.push_back({{"kind", r.kind == 0 ? "stiffness_ratio" : "tilt"},
                      {"log10_stiffness_ratio", r.log10_ratio},
                      {"tilt", r.tilt},
                      {"status", r.detail},
                      {"v_plus", ToJson(r.v_plus)},
                      {"contact_velocity", ToJson(r.contact_velocity)}});
    }
    j["outcomes"] = list;
    nlohmann::json set_list = nlohmann::json::array();
    for (const auto& st : sets) set_list.push_back(SetJson(st));
    j["sets"] = set_list;
    j["out"] = args.out;
    std::cout << j.dump(1) << "\n";
  } else {
    std::printf("impactset sweep: %s on %s, %lld runs (%lld terminated)\n", d.sweep->model.c_str(),
                name.c_str(), static_cast<long long>(count),
                static_cast<long long>(d.summary.terminated));
    for (const Run& r : runs) {
      std::printf("  %s %+8.4f  %-12s contact velocity", r.kind == 0 ? "log10 k0/k" : "tilt deg  ",
                  r.kind == 0 ? r.log10_ratio : r.tilt * 180 / M_PI, r.detail.c_str());
      for (Eigen::Index i = 0; i < r.contact_velocity.size(); ++i) {
        std::printf(" %+.6f", r.contact_velocity[i]);
      }
      std::printf("\n");
    }
    std::printf("wrote %s\n", args.out.c_str());
  }
  return failed > 0 ? 3 : 0;
}

}  // namespace impactset::app
