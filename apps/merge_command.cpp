#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>

#include <impactset/common/error_policy.hpp>
#include <impactset/data/output_path.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/merge.hpp>
#include <impactset/engine/run.hpp>
#include "apps/commands.hpp"

namespace impactset::app {

CLI::App* AddMergeCommand(CLI::App* app, MergeArgs* args) {
  auto* cmd = app->add_subcommand(
      "merge", "join the shard files of one run into the file a single run writes");
  cmd->add_option("inputs", args->inputs, "shard files (any order)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", args->out, "output HDF5 file")->required();
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  return cmd;
}

int RunMerge(const MergeArgs& args) {
  data::PrepareOutputPath(args.out);  // before the work (docs/robustness.md)
  std::vector<engine::RunResult> shards;
  for (const std::string& f : args.inputs) shards.push_back(engine::ReadRun(f));  // names f
  const int count = shards.front().options.sampler.shard_count;
  std::string files;  // "shard i: file" for messages
  for (size_t i = 0; i < shards.size(); ++i) {
    files += (i ? ", shard " : "shard ") + std::to_string(shards[i].options.sampler.shard_index) +
             ": " + args.inputs[i];
  }
  std::optional<engine::RunResult> merged_or;
  try {
    merged_or = engine::Merge(std::move(shards));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(e.what()) + " (" + files + ")");
  }
  const engine::RunResult& merged = *merged_or;
  engine::WriteRun(args.out, merged);
  if (args.json) {
    std::cout << "{\"out\": \"" << args.out << "\", \"samples\": " << merged.summary.samples
              << ", \"shards\": " << count << "}\n";
  } else {
    std::printf("merged %d shards, %lld samples into %s\n", count, merged.summary.samples,
                args.out.c_str());
  }
  return 0;
}

}  // namespace impactset::app
