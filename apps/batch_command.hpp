#pragma once
// `impactset batch`: Algorithm 2 over a design of impact states, into one resumable HDF5 file.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <impactset/batch/batch.hpp>
#include <impactset/batch/batch_request.hpp>
#include <impactset/sets/set_outputs.hpp>
#include "apps/option_flags.hpp"
#include "apps/problem_source.hpp"

namespace impactset::app {

struct BatchArgs {
  std::string system;
  std::string scene_file;
  std::string problems_file;
  std::string mujoco_file;
  MujocoArgs mujoco;                    ///< base state and contact options of a MuJoCo model
  std::vector<std::string> parameters;  ///< --param KEY=VALUE held fixed
  std::vector<std::string> vary;        ///< --vary NAME=LOW:HIGH[:POINTS]
  std::string state_design = "grid";
  long long states = 0;
  std::uint64_t state_seed = 1;
  std::string state_table;
  GivenOptions options;  ///< every option of the table's batch surface (apps/option_flags.hpp)
  std::vector<std::string> outputs;  ///< --output SPEC (features and sets)
  /// The rollout options given (a batch of rollouts: --rollouts), by row name, in order.
  std::vector<std::pair<std::string, std::string>> rollout_given;
  std::string out;
  bool resume = false;
  bool json = false;
};
CLI::App* AddBatchCommand(CLI::App* app, BatchArgs* args);
int RunBatchCommand(const BatchArgs& args);
/// What the flags give for the batch's states (batch::ResolveBatchStates applies the rules and
/// reads the files; this reads --qpos/--qvel files of a MuJoCo source).
batch::BatchRequest ToBatchRequest(const BatchArgs& args);
engine::BatchOptions ToBatchOptions(const BatchArgs& args);

}  // namespace impactset::app
