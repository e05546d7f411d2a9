#pragma once
// Helpers shared by the test programs: the paper examples' impact states and test names.
#include <stdexcept>
#include <string>
#include <vector>

#include "systems/matrix_input.hpp"

namespace impactset::testing {

/// The impact state of a paper example from tests/data/problems/<name>.json (examples.md §3).
inline systems::LoadedProblem Example(const std::string& name) {
  return systems::LoadProblemJson(std::string(IMPACTSET_TEST_DATA_DIR) + "/problems/" + name +
                                  ".json");
}

/// The paper's examples that every per-example test runs on (examples.md §3).
inline const std::vector<std::string> kPaperExamples = {
    "rocking-block", "compass-gait", "box-wall", "ramone", "zeno-block", "disk-stack"};

/// "compass-gait" -> "compass_gait": GoogleTest names allow only [A-Za-z0-9_].
inline std::string TestName(std::string s) {
  for (char& c : s) {
    if (c == '-') c = '_';
  }
  return s;
}

/// Whether call() throws std::invalid_argument whose message names `field` (the house rule for
/// bad options: the exception names the field, its value and the rule broken).
template <class Call>
bool ThrowsNaming(Call&& call, const std::string& field) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return std::string(e.what()).find(field) != std::string::npos;
  }
  return false;
}

}  // namespace impactset::testing
