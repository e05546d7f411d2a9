#include <cmath>
#include <cstdio>
#include <iostream>

#include <impactset/common/error_policy.hpp>
#include <impactset/distributed/distributed.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/rollouts/falsify.hpp>
#include <impactset/rollouts/rollout_file.hpp>
#include <impactset/rollouts/rollout_options.hpp>
#include "apps/commands.hpp"
#include "apps/json_util.hpp"
#include "apps/option_flags.hpp"

namespace impactset::app {

CLI::App* AddRolloutCommand(CLI::App* app, RolloutArgs* args) {
  auto* cmd = app->add_subcommand(
      "rollout",
      "simulate a MuJoCo model under its controls with every impact drawn from the Routh set "
      "(docs/rollouts.md)");
  auto* model = cmd->add_option("--mujoco", args->mujoco_file,
                                "MuJoCo model (MJCF .xml or URDF) starting at --keyframe or "
                                "--qpos/--qvel");
  auto* scene =
      cmd->add_option("--system", args->system, "a shipped MuJoCo scene (`impactset systems`)");
  model->excludes(scene);
  args->mujoco.AddOptions(cmd);
  AddRolloutFlags(cmd, RolloutFlagSet::kAll, &args->given);
  cmd->add_option("--replay", args->replay,
                  "SEED/INDEX: run that one rollout again (as the summary names it) and print "
                  "its outcome");
  cmd->add_option("--falsify", args->falsify,
                  "METRIC[:max|:min]: search the first impacts for the metric's worst value "
                  "(largest unless :min) with --rollouts rollouts, against as many iid ones");
  cmd->add_option(
      "--out", args->out,
      "write the rollouts to this HDF5 file (docs/dataset-format.md \"Rollout files\")");
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  return cmd;
}

namespace {

nlohmann::json Number(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

nlohmann::json ResultJson(const rollouts::RolloutResult& r,
                          const rollouts::RolloutOptions& o,
                          const std::vector<std::string>& metric_names) {
  nlohmann::json j{{"key", rollouts::RolloutKey(o.seed, r.index)},
                   {"status", std::string(EnumName(r.status))},
                   {"message", r.message},
                   {"time", r.time},
                   {"events", r.events},
                   {"constrained_events", r.constrained_events},
                   {"lcp_solves", r.lcp_solves},
                   {"fastest_approach", r.fastest_approach},
                   {"qpos", ToJson(r.qpos)},
                   {"qvel", ToJson(r.qvel)}};
  nlohmann::json m = nlohmann::json::object();
  for (size_t i = 0; i < metric_names.size() && i < r.metrics.size(); ++i) {
    m[metric_names[i]] = Number(r.metrics[i]);
  }
  j["metrics"] = m;
  if (!r.record_time.empty()) {
    nlohmann::json rec = nlohmann::json::array();
    for (size_t i = 0; i < r.record_time.size(); ++i) {
      rec.push_back({{"t", r.record_time[i]},
                     {"qpos", ToJson(r.record_qpos[i])},
                     {"qvel", ToJson(r.record_qvel[i])}});
    }
    j["trajectory"] = rec;
  }
  return j;
}

std::string ControlsText(const rollouts::RolloutOptions& o) {
  char buf[96];
  switch (o.controls) {
    case rollouts::Controls::kPdPosture:
      std::snprintf(buf, sizeof buf, "PD posture (kp %g, kd %g)", o.pd_kp, o.pd_kd);
      return buf;
    case rollouts::Controls::kConstant:
      return "constant ctrl";
    case rollouts::Controls::kPolicy:
      return "policy";
    case rollouts::Controls::kKeyframe:
      break;
  }
  return "the keyframe's ctrl held";
}

void PrintMetric(const rollouts::MetricSummary& s, const rollouts::RolloutOptions& o) {
  const int confidence = static_cast<int>(std::lround(100 * (1 - o.delta)));
  std::printf("  %s = %s:\n", s.name.c_str(), s.expression.c_str());
  if (s.counted == 0) {
    std::printf("    no rollout reached the horizon\n");
    return;
  }
  if (s.is_event) {
    std::printf("    true in %lld of %lld rollouts; P(%s) <= %.4g and >= %.4g, each at %d %%\n",
                s.true_count, s.counted, s.name.c_str(), s.upper, s.lower, confidence);
  } else {
    std::printf("    min %.6g (rollout %s), mean %.6g, max %.6g (rollout %s)\n", s.min,
                rollouts::RolloutKey(o.seed, s.argmin).c_str(), s.mean, s.max,
                rollouts::RolloutKey(o.seed, s.argmax).c_str());
  }
  if (!std::isnan(s.baseline)) std::printf("    MuJoCo's own impacts: %.6g\n", s.baseline);
}

void PrintReport(const std::string& label,
                 const robots::SimulationModel& model,
                 const rollouts::RolloutOptions& o,
                 const rollouts::RolloutReport& r) {
  const long long steps = std::max(1LL, std::llround(o.horizon / model.timestep));
  std::printf("rollout: %s, %lld rollouts of %g s (%lld steps of %g s), seed %llu, %s\n",
              label.c_str(), o.rollouts, o.horizon, steps, model.timestep,
              static_cast<unsigned long long>(o.seed), ControlsText(o).c_str());
  long long constrained = 0;
  for (const rollouts::RolloutResult& x : r.rollouts) constrained += x.constrained_events;
  std::printf(
      "  ok %lld, diverged %lld, impact failed %lld; %lld impact events (%.3g per "
      "rollout), %lld with joint limits or equalities left out\n",
      r.ok, r.diverged, r.impact_failed, r.events,
      static_cast<double>(r.events) / static_cast<double>(o.rollouts), constrained);
  std::printf("  %.3f s, %.4g rollouts/s\n", r.seconds,
              r.seconds > 0 ? static_cast<double>(o.rollouts) / r.seconds : 0.0);
  if (r.baseline) {
    std::printf("  MuJoCo's own impacts: %s, %s\n", EnumName(r.baseline->status).data(),
                r.baseline->message.empty() ? "reached the horizon" : r.baseline->message.c_str());
  }
  for (const rollouts::MetricSummary& s : r.metrics) PrintMetric(s, o);
  int listed = 0;
  for (const rollouts::RolloutResult& x : r.rollouts) {
    if (x.status == rollouts::RolloutStatus::kOk || listed++ >= 10) continue;
    std::printf("  %s %s: %s (--replay %s)\n", EnumName(x.status).data(),
                rollouts::RolloutKey(o.seed, x.index).c_str(), x.message.c_str(),
                rollouts::RolloutKey(o.seed, x.index).c_str());
  }
}

}  // namespace

rollouts::RolloutOptions ToRolloutOptions(const RolloutArgs& args) {
  return rollouts::ParseRolloutOptions(args.given);
}

robots::SimulationModel LoadRolloutModel(const RolloutArgs& args) {
  if (args.mujoco_file.empty() && args.system.empty()) {
    throw std::invalid_argument("rollout needs a MuJoCo model: --mujoco FILE or --system SCENE");
  }
  const robots::MujocoOptions mo = args.mujoco.Options();
  if (!args.mujoco_file.empty()) return robots::LoadSimulationModel(args.mujoco_file, mo);
  if (!robots::IsMujocoScene(args.system)) {
    throw std::invalid_argument("--system " + args.system +
                                ": rollouts need a MuJoCo scene (`impactset systems` marks them)");
  }
  return robots::LoadSimulationModelXml(robots::MujocoSceneXml(args.system), args.system, mo);
}

namespace {

// --falsify METRIC[:max|:min] with --rollouts as the budget.
int RunFalsify(const RolloutArgs& args,
               const robots::SimulationModel& model,
               const rollouts::RolloutOptions& o) {
  rollouts::FalsifyOptions f;
  const size_t colon = args.falsify.rfind(':');
  const std::string side = colon == std::string::npos ? "" : args.falsify.substr(colon + 1);
  if (side == "min" || side == "max") {
    f.metric = args.falsify.substr(0, colon);
    f.maximize = side == "max";
  } else {
    f.metric = args.falsify;
  }
  f.budget = o.rollouts;
  if (f.budget < f.population) {
    InvalidArgument(
        "--rollouts", f.budget,
        "with --falsify must be >= " + std::to_string(f.population) + " (one round of the search)");
  }
  const rollouts::FalsifyResult r = rollouts::FalsifyRollouts(model, o, f);
  const std::string iid_key =
      r.iid_worst_index >= 0 ? rollouts::RolloutKey(o.seed, r.iid_worst_index) : "none";
  if (args.json) {
    nlohmann::json j{{"metric", f.metric},
                     {"worst", f.maximize ? "largest" : "smallest"},
                     {"rollouts", r.rollouts},
                     {"directed", Number(r.worst_directed)},
                     {"iid", Number(r.worst_iid)},
                     {"iid_worst_key", iid_key},
                     {"directed_trace", r.directed_trace},
                     {"iid_trace", r.iid_trace},
                     {"not_ok_directed", r.not_ok_directed},
                     {"not_ok_iid", r.not_ok_iid}};
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::printf("falsification of %s (worst: the %s value), %lld rollouts each, seed %llu:\n",
              f.metric.c_str(), f.maximize ? "largest" : "smallest", r.rollouts,
              static_cast<unsigned long long>(o.seed));
  std::printf("  directed search of the first %d impacts: %.6g\n", f.set_events, r.worst_directed);
  std::printf("  iid rollouts:                           %.6g (rollout %s)\n", r.worst_iid,
              iid_key.c_str());
  std::printf("  worst after each round of %d: search", f.population);
  for (double x : r.directed_trace) std::printf(" %.4g", x);
  std::printf("; iid");
  for (double x : r.iid_trace) std::printf(" %.4g", x);
  std::printf("\n");
  return 0;
}

}  // namespace

int RunRolloutCommand(const RolloutArgs& args) {
  const robots::SimulationModel model = LoadRolloutModel(args);
  rollouts::RolloutOptions o = ToRolloutOptions(args);
  for (const std::string& w : model.warnings) {
    if (distributed::Current().rank() != 0) break;  // said once, not once per rank
    std::fprintf(stderr, "impactset: warning: %s: %s\n", model.label.c_str(), w.c_str());
  }
  const std::vector<std::string> names = rollouts::MetricNames(o);
  if (!args.falsify.empty()) return RunFalsify(args, model, o);
  if (!args.replay.empty()) {
    const auto [seed, index] = rollouts::ParseRolloutKey(args.replay);
    o.seed = seed;
    const rollouts::RolloutResult r = rollouts::RunRollout(model, o, index);
    const nlohmann::json j = ResultJson(r, o, names);
    if (args.json) {
      std::cout << j.dump(2) << "\n";
    } else {
      std::printf("rollout %s: %s after %g s, %d impact events%s%s\n", args.replay.c_str(),
                  EnumName(r.status).data(), r.time, r.events, r.message.empty() ? "" : ": ",
                  r.message.c_str());
      for (size_t i = 0; i < names.size(); ++i) {
        std::printf("  %s = %.17g\n", names[i].c_str(), r.metrics[i]);
      }
    }
    return r.status == rollouts::RolloutStatus::kOk ? 0 : 1;
  }
  // Under mpirun the ranks share the rollouts; rank 0 writes and prints.
  const std::optional<rollouts::RolloutReport> gathered = distributed::RunRollouts(model, o);
  if (!gathered) return 0;
  const rollouts::RolloutReport& r = *gathered;
  if (!args.out.empty()) rollouts::WriteRollouts(args.out, model, o, r);
  for (const std::string& w : r.warnings) {
    std::fprintf(stderr, "impactset: warning: %s: %s\n", model.label.c_str(), w.c_str());
  }
  if (args.json) {
    nlohmann::json j{{"model", model.label},
                     {"timestep", model.timestep},
                     {"ok", r.ok},
                     {"diverged", r.diverged},
                     {"impact_failed", r.impact_failed},
                     {"events", r.events},
                     {"seconds", r.seconds},
                     {"warnings", r.warnings}};
    nlohmann::json options = nlohmann::json::object();
    for (const auto& [name, text] : args.given) options[name] = text;
    j["given_options"] = options;
    nlohmann::json metrics = nlohmann::json::array();
    for (const rollouts::MetricSummary& s : r.metrics) {
      metrics.push_back({{"name", s.name},
                         {"expression", s.expression},
                         {"event", s.is_event},
                         {"counted", s.counted},
                         {"true", s.true_count},
                         {"lower", s.lower},
                         {"upper", s.upper},
                         {"min", Number(s.min)},
                         {"mean", Number(s.mean)},
                         {"max", Number(s.max)},
                         {"argmin", s.argmin >= 0 ? rollouts::RolloutKey(o.seed, s.argmin) : ""},
                         {"argmax", s.argmax >= 0 ? rollouts::RolloutKey(o.seed, s.argmax) : ""},
                         {"baseline", Number(s.baseline)}});
    }
    j["metrics"] = metrics;
    nlohmann::json all = nlohmann::json::array();
    for (const rollouts::RolloutResult& x : r.rollouts) all.push_back(ResultJson(x, o, names));
    j["rollouts"] = all;
    if (r.baseline) j["baseline"] = ResultJson(*r.baseline, o, names);
    std::cout << j.dump(2) << "\n";
  } else {
    PrintReport(model.label, model, o, r);
  }
  return r.ok == o.rollouts ? 0 : 1;
}

}  // namespace impactset::app
