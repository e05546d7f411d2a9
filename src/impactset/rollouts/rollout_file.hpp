#pragma once
// The HDF5 file of a set of rollouts (docs/dataset-format.md "Rollout files"): root attributes
// (file_kind "rollouts", schema_version, the model, every option of the rollout option table,
// the counts), one row per rollout under /rollouts, the metrics' summaries under /metrics, the
// baseline under /baseline and, with record_every, the recorded states under /trajectory. Every
// array names its columns and dimensions (netCDF-4 dimension scales: xarray opens it).
#include <string>

#include <impactset/data/hdf5_tree.hpp>
#include <impactset/rollouts/rollout.hpp>

namespace impactset::rollouts {

/// The schema version rollout files are written with.
inline constexpr long long kRolloutSchemaVersion = 2;

/// A metric's summary as files store it (rollout files and batches of rollouts): a field that
/// does not apply is NaN (the bounds of a number metric; min, mean and max when no rollout
/// counted), -1 (argmin, argmax) or 0 (a number metric's true_count).
MetricSummary StoredSummary(const MetricSummary& summary);

/// The file's contents.
data::Tree RolloutTree(const robots::SimulationModel& model,
                       const RolloutOptions& options,
                       const RolloutReport& report);

/// Writes RolloutTree atomically (data::WriteTree). @throws as data::WriteTree.
void WriteRollouts(const std::string& path,
                   const robots::SimulationModel& model,
                   const RolloutOptions& options,
                   const RolloutReport& report);

}  // namespace impactset::rollouts
