#include "apps/batch_command.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include <impactset/batch/batch.hpp>
#include <impactset/batch/batch_writer.hpp>
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
  AddRolloutFlags(cmd, RolloutFlagSet::kBatch, &args->rollout_given);
  cmd->add_option("--out", args->out, "output HDF5 file")->required();
  cmd->add_flag("--resume", args->resume, "finish an interrupted batch (same command line)");
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  return cmd;
}

namespace {

// "samples", or "rollouts" for a batch of rollouts: what BatchProgress::samples counts.
const char* Unit(const batch::BatchJob& job) { return job.rollouts ? "rollouts" : "samples"; }

void PrintProgress(const batch::BatchProgress& p, const char* unit) {
  const long long session = p.states_done - p.resumed;
  const double per_state = session > 0 ? p.seconds / session : 0;
  const double eta = per_state * static_cast<double>(p.states_total - p.states_done);
  std::fprintf(stderr, "\rstates %lld/%lld  %.0f %s/s  ETA %.0f s   ", p.states_done,
               p.states_total, p.seconds > 0 ? p.samples / p.seconds : 0.0, unit, eta);
  if (p.states_done == p.states_total) std::fprintf(stderr, "\n");
}

batch::BatchJob MakeJob(const BatchArgs& args) {
  const batch::BatchStates states = batch::ResolveBatchStates(ToBatchRequest(args));  // first
  batch::GivenBatchOptions given;
  for (const auto& [name, text] : args.options.texts) given.engine.push_back(name);
  given.rollout = args.rollout_given;
  return batch::MakeJob(states, ToBatchOptions(args), given);
}

}  // namespace

batch::BatchRequest ToBatchRequest(const BatchArgs& a) {
  batch::BatchRequest r;
  r.surface = batch::BatchSurface::kCommandLine;
  auto given = [](const std::string& flag) {  // CLI11 leaves an option not given empty
    return flag.empty() ? std::nullopt : std::optional<std::string>(flag);
  };
  r.system = given(a.system);
  r.scene_file = given(a.scene_file);
  r.problems_file = given(a.problems_file);
  r.mujoco_file = given(a.mujoco_file);
  r.params = systems::ParseParameterAssignments(a.parameters);
  const MujocoArgs& m = a.mujoco;
  if (m.Given()) {
    for (const auto& [name, text] : m.given) r.mujoco_given.push_back(name);
    const bool is_mujoco = !a.mujoco_file.empty() || robots::IsMujocoScene(a.system);
    if (is_mujoco) r.mujoco = m.Options();  // reads --qpos/--qvel files
  }
  if (!a.vary.empty()) {
    r.vary.emplace();
    for (const std::string& v : a.vary) r.vary->push_back(batch::ParseParameterRange(v));
  }
  r.table_file = given(a.state_table);
  r.state_design = a.state_design;
  if (a.states != 0) r.states = a.states;
  r.state_seed = a.state_seed;
  return r;
}

engine::BatchOptions ToBatchOptions(const BatchArgs& a) {
  engine::BatchOptions o = engine::ResolveBatchOptions(a.options.Values());
  o.outputs = a.outputs;
  return o;
}

int RunBatchCommand(const BatchArgs& args) {
  const batch::BatchJob job = MakeJob(args);
  const char* unit = Unit(job);
  const distributed::Session& mpi = distributed::Current();
  const bool show = mpi.rank() == 0 && !args.json && isatty(fileno(stderr));
  batch::BatchProgressCallback progress;
  if (show) progress = [unit](const batch::BatchProgress& p) { PrintProgress(p, unit); };
  const auto t0 = std::chrono::steady_clock::now();
  const distributed::BatchReport report =
      distributed::RunBatch(job, args.out, args.resume, progress);
  if (mpi.rank() != 0) return 0;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double rate = seconds > 0 ? report.samples / seconds : 0;
  if (report.finished_before && !args.json) {
    std::printf(
        "impactset batch: %s is complete (%lld states, the same command line): nothing "
        "to resume; the file is left as it is\n",
        args.out.c_str(), job.Count());
    return 0;
  }
  if (report.computed > 0 && report.not_ok == report.computed) {
    std::fprintf(stderr, "impactset batch: warning: no state ran (%lld of %lld not ok); %s\n",
                 report.not_ok, report.computed, report.first_not_ok.c_str());
  }
  if (args.json) {
    nlohmann::json j;
    j["out"] = args.out;
    j["finished_before"] = report.finished_before;
    j["states"] = job.Count();
    j["resumed"] = report.resumed;
    j["computed"] = report.computed;
    j["not_ok"] = report.not_ok;
    j["first_not_ok"] = report.first_not_ok;
    j["ranks"] = mpi.size();
    j[unit] = report.samples;
    j["seconds"] = seconds;
    j[std::string(unit) + "_per_second"] = rate;
    std::cout << j.dump(1) << "\n";
  } else {
    std::printf(
        "impactset batch: %s, %lld states (%lld resumed, %lld not ok) on %d rank%s\n"
        "%.3f s, %.0f %s/s\nwrote %s\n",
        batch::Label(job.source).c_str(), job.Count(), report.resumed, report.not_ok, mpi.size(),
        mpi.size() == 1 ? "" : "s", seconds, rate, unit, args.out.c_str());
    if (report.not_ok > 0) std::printf("first not ok: %s\n", report.first_not_ok.c_str());
  }
  return 0;
}

}  // namespace impactset::app
