#pragma once
// The other impact laws shown by `impactset compare`, each under its own JSON key.
// Each model lives in its own apps/compare_<model>.cpp; compare_models.cpp lists them in order.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <impactset/impact/impact_problem.hpp>

namespace impactset::app {

struct CompareModel {
  std::string key;  ///< JSON key in `compare --json`, e.g. "seghete_murphey"
  /// The model's outcomes on the problem as JSON; every outcome carries `v_plus` and
  /// `contact_velocity` (Jn v of each contact, then tangential), as the built-in keys do.
  std::function<nlohmann::json(const impact::ImpactProblem&)> evaluate;
  /// Human-readable block for `compare` without --json, from the JSON above.
  std::function<void(const nlohmann::json&)> print;
};

/// The registered models, in output order.
const std::vector<CompareModel>& CompareModels();

}  // namespace impactset::app
