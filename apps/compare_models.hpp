#pragma once
// How `impactset compare` shows the compared laws (compare/compare.hpp runs them): each law's
// JSON key and human-readable block. Each law lives in its own apps/compare_<law>.cpp;
// compare_models.cpp lists them in output order.
#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include <impactset/compare/compare.hpp>

namespace impactset::app {

struct CompareModel {
  compare::Law law;  ///< its name is the JSON key in `compare --json`, e.g. "seghete_murphey"
  /// The law's outcomes in the result as JSON (null when the law did not run); every outcome
  /// carries `v_plus` and `contact_velocity` (Jn v of each contact, then tangential), as the
  /// built-in keys do.
  std::function<nlohmann::json(const compare::CompareResult&)> to_json;
  /// Human-readable block for `compare` without --json, from the JSON above.
  std::function<void(const nlohmann::json&)> print;
};

/// The registered models, in output order.
const std::vector<CompareModel>& CompareModels();

}  // namespace impactset::app
