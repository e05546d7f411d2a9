#include "apps/option_flags.hpp"

#include <impactset/rollouts/rollout_options.hpp>

namespace impactset::app {
namespace {

bool InSetGroup(const engine::OptionField& f) {
  return f.name == "sets" || f.attribute.rfind("/net/", 0) == 0;
}

// "doc (default: X)": the default as the table's options struct holds it.
std::string Help(const engine::OptionField& f, engine::OptionSurface surface) {
  const std::optional<engine::OptionValue> d =
      surface == engine::kBatchCommand ? engine::BatchDefault(f) : engine::RunDefault(f);
  std::string shown;
  if (d) {
    shown = engine::FormatOptionValue(d);
  } else if (f.from_problem) {
    shown = surface == engine::kBatchCommand ? "each state's" : "the problem's";
  } else {
    shown = std::string(f.unset);
  }
  return std::string(f.doc) + " (default: " + shown + ")";
}

void Store(GivenOptions* given, const std::string& name, std::string text) {
  for (auto& [n, t] : given->texts) {
    if (n == name) {
      t = std::move(text);  // the last one given wins, as CLI11 does for repeated options
      return;
    }
  }
  given->texts.emplace_back(name, std::move(text));
}

}  // namespace

engine::OptionValues GivenOptions::Values() const {
  engine::OptionValues values;
  for (const auto& [name, text] : texts) {
    values.emplace_back(name, engine::ParseOptionText(engine::FindOption(name), text));
  }
  return values;
}

void AddOptionFlags(CLI::App* command, engine::OptionSurface surface, GivenOptions* given) {
  CLI::App* sets =
      command->add_option_group("sets", "eps-nets, hulls and coverage (docs/coverage.md)");
  for (const engine::OptionField& f : engine::RunOptionFields()) {
    if (!(f.surfaces & surface)) continue;
    CLI::App* to = InSetGroup(f) ? sets : command;
    const std::string name(f.name), flag(f.flag), help = Help(f, surface);
    if (f.type == engine::OptionType::kFlag) {
      to->add_flag_function(
          flag + ",!--no-" + flag.substr(2),
          [given, name](std::int64_t count) { Store(given, name, count > 0 ? "true" : "false"); },
          help);
      continue;
    }
    CLI::Option* o = to->add_option_function<std::string>(
        flag, [given, name](const std::string& text) { Store(given, name, text); }, help);
    o->type_name(f.type == engine::OptionType::kInteger ? "INT"
                 : f.type == engine::OptionType::kReal  ? "FLOAT"
                 : f.type == engine::OptionType::kShard ? "I/N"
                                                        : "NAME");
    if (f.type == engine::OptionType::kChoice) o->check(CLI::IsMember(f.choices()));
  }
}

void AddRolloutFlags(CLI::App* command,
                     RolloutFlagSet rows,
                     std::vector<std::pair<std::string, std::string>>* given) {
  CLI::App* cmd = command;
  if (rows == RolloutFlagSet::kBatch) {
    cmd = command->add_option_group(
        "rollouts",
        "with --rollouts, each state is the start of that many rollouts instead of an impact "
        "(a batch of rollouts of a MuJoCo model: docs/rollouts.md)");
  }
  for (const rollouts::RolloutOptionField& f : rollouts::RolloutOptionFields()) {
    if (rows == RolloutFlagSet::kBatch && !f.in_batch) continue;
    const std::string name(f.name), flag(f.flag);
    if (f.type == rollouts::RolloutOptionType::kFlag) {
      cmd->add_flag_function(
          flag + ",!--no-" + flag.substr(2),
          [given, name](std::int64_t n) { given->emplace_back(name, n > 0 ? "true" : "false"); },
          std::string(f.doc) + " (default " + rollouts::RolloutDefault(f) + ")");
      continue;
    }
    if (f.repeatable) {
      cmd->add_option_function<std::vector<std::string>>(
          flag,
          [given, name](const std::vector<std::string>& values) {
            for (const std::string& v : values) given->emplace_back(name, v);
          },
          std::string(f.doc));
      continue;
    }
    auto* o = cmd->add_option_function<std::string>(
        flag, [given, name](const std::string& v) { given->emplace_back(name, v); },
        std::string(f.doc));
    if (const std::string d = rollouts::RolloutDefault(f); !d.empty()) o->default_str(d);
  }
}

}  // namespace impactset::app
