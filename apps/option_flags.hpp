#pragma once
// The option table (engine/option_table.hpp) on a command line: one flag per row of the surface,
// its help and default from the table, its text parsed by the table after CLI11 has run.
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include <impactset/engine/option_table.hpp>

namespace impactset::app {

/// The options a user gave on the command line, as text, in the order given.
struct GivenOptions {
  std::vector<std::pair<std::string, std::string>> texts;
  /// Parsed by the table. @throws std::invalid_argument "--flag = text: rule".
  engine::OptionValues Values() const;
};

/// Adds a flag for every row that appears on `surface` (kRunCommand or kBatchCommand); the set
/// options go into an option group "sets". A kFlag row takes --NAME and --no-NAME.
void AddOptionFlags(CLI::App* command, engine::OptionSurface surface, GivenOptions* given);

/// Which rows of the rollout option table (rollouts/rollout_options.hpp) a command takes.
enum class RolloutFlagSet {
  kAll,   ///< `impactset rollout`
  kBatch  ///< `impactset batch`: the rows in_batch, in an option group "rollouts"
};

/// Adds a flag for each of those rows; what the user gives lands in `given` (the row's name and
/// the text, in the order given; a repeatable option once per value).
void AddRolloutFlags(CLI::App* command,
                     RolloutFlagSet rows,
                     std::vector<std::pair<std::string, std::string>>* given);

}  // namespace impactset::app
