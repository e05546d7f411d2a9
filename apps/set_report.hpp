#pragma once
// How every command reports sets (run, sweep, merge): one JSON vocabulary and one text layout.
#include <vector>

#include <nlohmann/json.hpp>

#include <impactset/sets/set_outputs.hpp>

namespace impactset::app {

/// {"set", "coords", "net_points", "epsilon", "separation", "coarsenings", "offered",
///  "hull_status", "hull_detail", "hull_dimension", "hull_volume"[, "coverage"]}.
nlohmann::json SetJson(const sets::PointSet& s);
/// Adds "sets" (every set) and, at top level, the post-impact contact set's keys.
void AddSetsJson(const std::vector<sets::PointSet>& sets, nlohmann::json* j);
/// One line per set, plus the coverage statements. `not_terminated`: the run's samples that did
/// not terminate; when there are any, Lemma 1's line says it gives no bound (docs/coverage.md).
void PrintSets(const std::vector<sets::PointSet>& sets, long long not_terminated = 0);

}  // namespace impactset::app
