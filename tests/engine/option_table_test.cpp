// The option table (engine/option_table.hpp): one row per option, and every surface built from it
// agrees with it: the command line's help and parsing, the files' attributes and merge's check.
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <impactset/engine/option_table.hpp>
#include <impactset/systems/builtin.hpp>
#include "apps/command_line.hpp"

namespace impactset::engine {
namespace {

// A valid value other than the default, for each row (what a user might pass).
OptionValue Other(const OptionField& f, const std::optional<OptionValue>& d) {
  switch (f.type) {
    case OptionType::kFlag:
      return !(d && std::get<bool>(*d));
    case OptionType::kInteger:
      return (d ? std::get<long long>(*d) : 5) + 3;
    case OptionType::kReal:
      return d ? std::get<double>(*d) * 0.5 : 0.125;
    case OptionType::kChoice:
      for (const std::string& name : f.choices()) {
        if (!d || name != std::get<std::string>(*d)) return name;
      }
      break;
    case OptionType::kShard:
      return std::string("1/2");
  }
  ADD_FAILURE() << f.name << ": no other value";
  return false;
}

std::string Help(const char* command) {
  app::CommandLine cli;
  const char* argv[] = {"impactset", command, "--help"};
  std::ostringstream out, err;
  EXPECT_EQ(cli.Parse(3, argv, out, err), 0);
  return out.str();
}

TEST(OptionTable, NamesFlagsAndAttributesAreEachSpelledOnce) {
  std::set<std::string> names, flags, attributes;
  for (const OptionField& f : RunOptionFields()) {
    EXPECT_TRUE(names.insert(std::string(f.name)).second) << f.name;
    EXPECT_TRUE(flags.insert(std::string(f.flag)).second) << f.flag;
    if (!f.attribute.empty()) {
      EXPECT_TRUE(attributes.insert(std::string(f.attribute)).second) << f.attribute;
    }
    EXPECT_FALSE(f.doc.empty()) << f.name;
    EXPECT_NE(f.surfaces, 0u) << f.name;
    EXPECT_EQ(&FindOption(f.name), &f);
  }
  EXPECT_GE(names.size(), 25u);  // a table that lost its rows would pass the loops above
  EXPECT_THROW(FindOption("no_such_option"), std::invalid_argument);
}

// Every row's default prints and parses back to itself; a wrong type names the flag.
TEST(OptionTable, TextRoundTripsAndWrongTextNamesTheFlag) {
  for (const OptionField& f : RunOptionFields()) {
    for (const std::optional<OptionValue>& v : {RunDefault(f), BatchDefault(f)}) {
      if (!v) continue;
      EXPECT_EQ(ParseOptionText(f, FormatOptionValue(v)), *v) << f.name;
    }
    if (f.type == OptionType::kChoice || f.type == OptionType::kShard ||
        f.type == OptionType::kFlag || f.type == OptionType::kInteger ||
        f.type == OptionType::kReal) {
      try {
        ParseOptionText(f, "not-a-value");
        ADD_FAILURE() << f.name << " accepted not-a-value";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(f.type == OptionType::kChoice ? f.name : f.flag),
                  std::string::npos)
            << e.what();
      }
    }
  }
}

// Both commands show every row of their surface, with the default their options struct holds.
TEST(OptionTable, HelpOfRunAndBatchShowsEveryRowAndItsDefault) {
  const std::string run = Help("run"), batch = Help("batch");
  for (const OptionField& f : RunOptionFields()) {
    for (const auto& [surface, text] : {std::pair{kRunCommand, &run}, {kBatchCommand, &batch}}) {
      if (!(f.surfaces & surface)) continue;
      EXPECT_NE(text->find(std::string(f.flag)), std::string::npos) << f.flag;
      const std::optional<OptionValue> d = surface == kRunCommand ? RunDefault(f) : BatchDefault(f);
      if (d) {
        const std::string shown = "(default: " + FormatOptionValue(d) + ")";
        EXPECT_NE(text->find(std::string(f.doc) + " " + shown), std::string::npos)
            << f.name << " " << shown;
      }
    }
  }
}

// Every option given differently from its default reaches RunOptions, is written to the file's
// attributes when it has one, comes back equal, and merge's check names it when two runs differ.
TEST(OptionTable, EveryOptionReachesTheRunTheFileAndMergesCheck) {
  const systems::LoadedProblem lp = systems::LoadBuiltin("rocking-block");
  OptionValues given;
  for (const OptionField& f : RunOptionFields()) {
    // A shard of 2 and no sets would leave out what the rest of the test checks.
    if (!(f.surfaces & kRunCommand) || f.name == "shard" || f.name == "sets") continue;
    if (f.name == "design") {
      given.emplace_back(std::string(f.name), std::string("sobol"));  // directed: no shards
      continue;
    }
    given.emplace_back(std::string(f.name), Other(f, RunDefault(f)));
  }
  const RunOptions o = ResolveRunOptions(lp, given);
  for (const auto& [name, value] : given) {
    EXPECT_EQ(GetOption(FindOption(name), o), value) << name;
  }
  const std::vector<data::Attribute> stored = OptionAttributes(o);
  for (const OptionField& f : RunOptionFields()) {
    if (f.attribute.empty()) continue;
    const size_t slash = f.attribute.rfind('/');
    const std::string group = slash == 0 ? "/" : std::string(f.attribute.substr(0, slash));
    EXPECT_NE(data::FindAttribute(stored, group, std::string(f.attribute.substr(slash + 1))),
              nullptr)
        << f.attribute;
  }
  RunOptions back;
  back.sets = o.sets;
  back.sampler.keep_samples = o.sampler.keep_samples;  // stored as the presence of /samples
  back.sampler.keep_trajectories = o.sampler.keep_trajectories;
  ReadOptionAttributes(stored, &back);
  EXPECT_EQ(FirstDifference(o, back), nullptr);
  for (const OptionField& f : RunOptionFields()) {
    if (!f.identity || !(f.surfaces & kRunCommand) || f.name == "sets") continue;
    RunOptions changed = o;
    SetOption(f, Other(f, GetOption(f, o)), &changed);
    const OptionField* d = FirstDifference(o, changed);
    ASSERT_NE(d, nullptr) << f.name;
    EXPECT_EQ(d->name, f.name);
  }
}

TEST(OptionTable, WrongTypesAndRulesNameTheOption) {
  const systems::LoadedProblem lp = systems::LoadBuiltin("rocking-block");
  auto message = [&](const OptionValues& given) -> std::string {
    try {
      ResolveRunOptions(lp, given);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(message({{"samples", 2.5}}).find("samples = 2.5: must be an integer"),
            std::string::npos);
  EXPECT_NE(message({{"seed", -1LL}}).find("seed = -1: must be >= 0"), std::string::npos);
  EXPECT_NE(message({{"design", std::string("lhs")}}).find("design = lhs: must be one of"),
            std::string::npos);
  EXPECT_NE(message({{"samples", 0LL}}).find("samples = 0"), std::string::npos);
  EXPECT_NE(message({{"keep", 3LL}}).find("keep"), std::string::npos);  // a batch's only
  EXPECT_NE(message({{"nope", true}}).find("option = nope: unknown"), std::string::npos);
}

// Files of the first schema lack the newer attributes: they read as the values those versions
// used; a missing required attribute is named.
TEST(OptionTable, OldFilesReadWithTheDefaultsTheyUsed) {
  RunOptions o;
  // Detection was on by default when files lacked the attribute; it is off now. The re-solve
  // threshold was 1e-9 then; it is lcp::kRestoreAbove now.
  ASSERT_FALSE(o.sampler.algorithm.detect_non_unique);
  ASSERT_NE(o.sampler.algorithm.lemke.restore_above, 1e-9);
  o.sampler.algorithm.detect_non_unique = true;
  o.sampler.algorithm.lemke.restore_above = 1e-9;
  std::vector<data::Attribute> stored = OptionAttributes(o);
  std::erase_if(stored, [](const data::Attribute& a) {
    return a.name == "detect_non_unique" || a.name == "lemke_restore_above" ||
           a.name == "hull_max_points";
  });
  RunOptions back;
  ReadOptionAttributes(stored, &back);
  EXPECT_EQ(FirstDifference(o, back), nullptr);
  std::erase_if(stored, [](const data::Attribute& a) { return a.name == "seed"; });
  try {
    ReadOptionAttributes(stored, &back);
    ADD_FAILURE() << "a file without /seed was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("/seed"), std::string::npos) << e.what();
  }
}

// Every name of an enum's table parses back to its value, names are distinct, and an unknown
// name is refused with the field and every accepted name.
template <typename E>
void ExpectNamesRoundTrip(const char* field) {
  const std::vector<std::string> names = EnumNameList<E>();
  ASSERT_GE(names.size(), 2u) << field;
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size()) << field;
  for (const std::string& n : names) EXPECT_EQ(EnumName(ParseEnum<E>(n)), n) << field;
  try {
    ParseEnum<E>("no-such-name");
    ADD_FAILURE() << field;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(std::string(field) + " = no-such-name"), std::string::npos)
        << e.what();
    for (const std::string& n : names) EXPECT_NE(std::string(e.what()).find(n), std::string::npos);
  }
}

TEST(EnumNames, EveryTableRoundTrips) {
  ExpectNamesRoundTrip<sampling::Design>("design");
  ExpectNamesRoundTrip<impact::Selection>("selection");
  ExpectNamesRoundTrip<impact::SampleStatus>("sample status");
  ExpectNamesRoundTrip<lcp::SolverKind>("lcp");
  ExpectNamesRoundTrip<sets::SetKind>("set");
  ExpectNamesRoundTrip<sets::HullStatus>("hull status");
  ExpectNamesRoundTrip<sets::NetConstruction>("net construction");
  ExpectNamesRoundTrip<batch::StateDesignKind>("state design");
  ExpectNamesRoundTrip<batch::StateStatus>("state status");
  EXPECT_EQ(EnumName(static_cast<sampling::Design>(99)), "unknown");
}

}  // namespace
}  // namespace impactset::engine
