#pragma once
// The impactset subcommands.
#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "apps/problem_source.hpp"

namespace impactset::app {

struct InfoArgs {
  ProblemSource source;
  bool json = false;
};
CLI::App* AddInfoCommand(CLI::App* app, InfoArgs* args);
int RunInfo(const InfoArgs& args);

struct RunArgs {
  ProblemSource source;
  std::optional<long long> samples;
  std::uint64_t seed = 1;
  std::optional<double> step;
  std::optional<int> max_steps;
  std::string lcp = "chain";
  std::string selection = "random";
  bool json = false;
};
CLI::App* AddRunCommand(CLI::App* app, RunArgs* args);
int RunRun(const RunArgs& args);

}  // namespace impactset::app
