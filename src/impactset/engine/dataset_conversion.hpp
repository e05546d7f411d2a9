#pragma once
// A run's stored form (docs/dataset-format.md): RunResult to and from data::Dataset, and the
// files that hold it.
#include <string>

#include <impactset/data/dataset.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/impact/impact_problem.hpp>
#include <impactset/sets/set_outputs.hpp>

namespace impactset::engine {

/// The stored form (docs/dataset-format.md) and back.
/// @throws std::invalid_argument from FromDataset when a stored name (design, selection, solver,
///         set, coordinates, hull status, sample status) is not one impactset writes, or the
///         stored options fail RunOptions validation (shard index, samples, set options, an
///         integer beyond int, samples past the run's end).
data::Dataset ToDataset(const RunResult& result);
RunResult FromDataset(const data::Dataset& dataset);

/// Lower-level conversions, for datasets that hold sets of other origins (`impactset sweep`).
data::PointSetArrays ToPointSetArrays(const sets::PointSet& set);
sets::PointSet FromPointSetArrays(const data::PointSetArrays& set);

/// /problem of a dataset: the impact state as stored (M, Jn, D, J_c, mu, v-, k).
data::ProblemArrays ToProblemArrays(const impact::ImpactProblem& problem);
/// The impact state of a stored /problem. @throws std::invalid_argument for invalid matrices.
impact::ImpactProblem FromProblemArrays(const data::ProblemArrays& problem);

/// Writes ToDataset(result) atomically (data::WriteDataset) and reads a file back.
void WriteRun(const std::string& path, const RunResult& result);
/// @throws what data::ReadDataset throws, and std::invalid_argument "path: field = value: rule"
///         when the file describes no run impactset could have made (FromDataset).
RunResult ReadRun(const std::string& path);

/// "YYYY-MM-DDTHH:MM:SSZ" now.
std::string UtcNow();

}  // namespace impactset::engine
