#include "apps/batch_command.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include <impactset/batch/batch.hpp>
#include <impactset/common/error_policy.hpp>
#include <impactset/distributed/distributed.hpp>
#include <impactset/robots/mujoco_scenes.hpp>

namespace impactset::app {

CLI::App* AddBatchCommand(CLI::App* app, BatchArgs* args) {
  auto* cmd = app->add_subcommand(
      "batch",
      "Algorithm 2 over a design of impact states into one HDF5 file (resumable; "
      "runs under mpirun)");
  auto* sys = cmd->add_option("--system", args->system,
                              "parametrised built-in system (`impactset systems`)");
  auto* scene = cmd->add_option("--scene", args->scene_file,
                                "scene JSON file; parameters are JSON pointers (/q/2)");
  auto* problems = cmd->add_option("--problems", args->problems_file,
                                   "HDF5 stack of matrix problems (/problems/M ...); parameter "
                                   "`problem` is the index (default: every problem)");
  auto* model = cmd->add_option("--mujoco", args->mujoco_file,
                                "MuJoCo model (MJCF or URDF) at a base state (--keyframe or "
                                "--qpos/--qvel); parameters qpos:I and qvel:I (docs/mujoco.md)");
  sys->excludes(scene);
  sys->excludes(problems);
  sys->excludes(model);
  scene->excludes(problems);
  scene->excludes(model);
  problems->excludes(model);
  args->mujoco.AddOptions(cmd);
  cmd->add_option("--param", args->parameters, "KEY=VALUE held fixed (repeatable)");
  cmd->add_option("--vary", args->vary,
                  "NAME=LOW:HIGH (iid, sobol) or NAME=LOW:HIGH:POINTS (grid), repeatable");
  cmd->add_option("--state-design", args->state_design, "grid, iid or sobol over the --vary ranges")
      ->check(CLI::IsMember({"grid", "iid", "sobol"}))
      ->capture_default_str();
  cmd->add_option("--states", args->states, "number of states (iid, sobol)");
  cmd->add_option("--state-seed", args->state_seed, "seed of the iid/sobol state design")
      ->capture_default_str();
  cmd->add_option("--state-table", args->state_table,
                  "CSV (a header of parameter names, one row per state) or HDF5 "
                  "(/states/parameters, names in /design/parameters: a batch file)");
  AddOptionFlags(cmd, engine::kBatchCommand, &args->options);
  cmd->add_option("--output", args->outputs,
                  "coordinates of the features and sets: contact | generalized | com | base | "
                  "joints:A,B | matrix:C.csv | NAME=SPEC (repeatable; default contact and "
                  "generalized; docs/mujoco.md)");
  cmd->add_option("--out", args->out, "output HDF5 file")->required();
  cmd->add_flag("--resume", args->resume, "finish an interrupted batch (same command line)");
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  return cmd;
}

namespace {

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void PrintProgress(const batch::BatchProgress& p) {
  const long long session = p.states_done - p.resumed;
  const double per_state = session > 0 ? p.seconds / session : 0;
  const double eta = per_state * static_cast<double>(p.states_total - p.states_done);
  std::fprintf(stderr, "\rstates %lld/%lld  %.0f samples/s  ETA %.0f s   ", p.states_done,
               p.states_total, p.seconds > 0 ? p.samples / p.seconds : 0.0, eta);
  if (p.states_done == p.states_total) std::fprintf(stderr, "\n");
}

}  // namespace

batch::StateDesign ToStateDesign(const BatchArgs& a, const batch::StateSource& source) {
  if (!a.state_table.empty()) {
    if (!a.vary.empty()) InvalidArgument("--vary", a.vary[0], "not with --state-table");
    return batch::ReadStateTableFile(a.state_table);
  }
  if (source.kind == batch::StateSource::Kind::kProblemStack && a.vary.empty()) {
    return batch::EveryProblem(source.problems);
  }
  batch::StateDesign d;
  d.kind = batch::ParseStateDesignKind(a.state_design);
  for (const std::string& v : a.vary) d.ranges.push_back(batch::ParseParameterRange(v));
  d.states = a.states;
  d.state_seed = a.state_seed;
  if (d.kind == batch::StateDesignKind::kGrid && a.states != 0) {
    InvalidArgument("--states", a.states, "the grid's size is the product of its POINTS");
  }
  return d;
}

batch::StateSource ToStateSource(const BatchArgs& a) {
  batch::StateSource s;
  const bool is_mujoco = !a.mujoco_file.empty() || robots::IsMujocoScene(a.system);
  if (!is_mujoco && a.mujoco.Given()) MujocoOptionsWithoutModel();
  if (!a.scene_file.empty()) {
    if (!a.parameters.empty()) InvalidArgument("--param", a.parameters[0], "not with --scene");
    s.kind = batch::StateSource::Kind::kScene;
    s.scene_text = ReadText(a.scene_file);
    s.label = a.scene_file;
    return s;
  }
  if (!a.problems_file.empty()) {
    if (!a.parameters.empty()) InvalidArgument("--param", a.parameters[0], "not with --problems");
    s.kind = batch::StateSource::Kind::kProblemStack;
    s.problems = data::OpenProblemStack(a.problems_file);
    s.label = a.problems_file;
    return s;
  }
  if (is_mujoco) {
    if (!a.parameters.empty()) {
      InvalidArgument("--param", a.parameters[0],
                      "MuJoCo models take no parameters: --vary qpos:I");
    }
    s.kind = batch::StateSource::Kind::kMujoco;
    s.mujoco_model = a.mujoco_file.empty() ? a.system : a.mujoco_file;
    s.mujoco = a.mujoco.Options();
    s.label = s.mujoco_model;
    return s;
  }
  if (a.system.empty()) {
    throw std::invalid_argument(
        "batch: give --system NAME, --scene FILE, --problems FILE or --mujoco FILE");
  }
  s.system = a.system;
  s.label = a.system;
  s.fixed = systems::ParseParameterAssignments(a.parameters);
  return s;
}

engine::BatchOptions ToBatchOptions(const BatchArgs& a) {
  engine::BatchOptions o = engine::ResolveBatchOptions(a.options.Values());
  o.outputs = a.outputs;
  return o;
}

int RunBatchCommand(const BatchArgs& args) {
  const batch::StateSource source = ToStateSource(args);
  const batch::BatchJob job =
      batch::MakeBatchJob(source, ToStateDesign(args, source), ToBatchOptions(args));
  const distributed::Session& mpi = distributed::Current();
  const bool show = mpi.rank() == 0 && !args.json && isatty(fileno(stderr));
  batch::BatchProgressCallback progress;
  if (show) progress = PrintProgress;
  const auto t0 = std::chrono::steady_clock::now();
  const distributed::BatchReport report =
      distributed::RunBatch(job, args.out, args.resume, progress);
  if (mpi.rank() != 0) return 0;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double rate = seconds > 0 ? report.samples / seconds : 0;
  if (args.json) {
    nlohmann::json j;
    j["out"] = args.out;
    j["states"] = job.Count();
    j["resumed"] = report.resumed;
    j["computed"] = report.computed;
    j["not_ok"] = report.not_ok;
    j["ranks"] = mpi.size();
    j["samples"] = report.samples;
    j["seconds"] = seconds;
    j["samples_per_second"] = rate;
    std::cout << j.dump(1) << "\n";
  } else {
    std::printf(
        "impactset batch: %s, %lld states (%lld resumed, %lld not ok) on %d rank%s\n"
        "%.3f s, %.0f samples/s\nwrote %s\n",
        job.source.label.c_str(), job.Count(), report.resumed, report.not_ok, mpi.size(),
        mpi.size() == 1 ? "" : "s", seconds, rate, args.out.c_str());
  }
  return 0;
}

}  // namespace impactset::app
