// impactset: set-valued post-impact velocities (Halm & Posa) from the command line.
// Exit codes: 0 success, 2 usage or bad input, 3 numerical failure beyond the fallback chain.
#include <cstdio>
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "apps/batch_command.hpp"
#include "apps/commands.hpp"
#include "common/version.hpp"
#include "distributed/distributed.hpp"
#include "systems/builtin.hpp"

int main(int argc, char** argv) {
  using namespace impactset;
  const distributed::Session mpi(&argc, &argv);  // MPI only when started by mpirun or srun
  CLI::App app{"impactset: the set of possible post-impact velocities of simultaneous impacts"};
  app.set_version_flag("--version", IMPACTSET_VERSION);
  app.require_subcommand(0, 1);

  auto* systems_cmd = app.add_subcommand("systems", "list the built-in systems");
  app::InfoArgs info_args;
  auto* info_cmd = app::AddInfoCommand(&app, &info_args);
  app::RunArgs run_args;
  auto* run_cmd = app::AddRunCommand(&app, &run_args);
  app::CompareArgs compare_args;
  auto* compare_cmd = app::AddCompareCommand(&app, &compare_args);
  app::MergeArgs merge_args;
  auto* merge_cmd = app::AddMergeCommand(&app, &merge_args);
  app::DistanceArgs distance_args;
  auto* distance_cmd = app::AddDistanceCommand(&app, &distance_args);
  app::PlanArgs plan_args;
  auto* plan_cmd = app::AddPlanCommand(&app, &plan_args);
  app::UniquenessArgs uniqueness_args;
  auto* uniqueness_cmd = app::AddUniquenessCommand(&app, &uniqueness_args);
  app::SweepArgs sweep_args;
  auto* sweep_cmd = app::AddSweepCommand(&app, &sweep_args);
  app::BatchArgs batch_args;
  auto* batch_cmd = app::AddBatchCommand(&app, &batch_args);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    if (*systems_cmd) {
      for (const auto& s : systems::BuiltinSystems()) {
        std::printf("%-20s %s\n", s.name.c_str(), s.description.c_str());
      }
      return 0;
    }
    if (*info_cmd) return app::RunInfo(info_args);
    if (*merge_cmd) return app::RunMerge(merge_args);
    if (*distance_cmd) return app::RunDistance(distance_args);
    if (*plan_cmd) return app::RunPlan(plan_args);
    if (*uniqueness_cmd) return app::RunUniqueness(uniqueness_args);
    if (*sweep_cmd) return app::RunSweep(sweep_args);
    if (*batch_cmd) return app::RunBatchCommand(batch_args);
    if (*compare_cmd) return app::RunCompare(compare_args);
    if (*run_cmd || app.get_subcommands().empty()) return app::RunRun(run_args);
  } catch (const std::invalid_argument& e) {
    if (mpi.rank() == 0) std::cerr << "impactset: " << e.what() << "\n";
    return 2;
  } catch (const std::runtime_error& e) {  // I/O: the dataset could not be written or read
    if (mpi.rank() == 0) std::cerr << "impactset: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
