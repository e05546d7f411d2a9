#pragma once
// The stored form (docs/dataset-format.md /sweep) of a point-valued impact model's runs, such as
// simulators::RunSweep's: each run is one /samples row, and the post-impact nets and hulls of
// `impactset run` are built over the outcomes of the runs that terminated.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <impactset/data/dataset.hpp>
#include <impactset/impact/impact_problem.hpp>
#include <impactset/sets/set_outputs.hpp>

namespace impactset::engine {

/// The runs of a point-valued model on one impact problem.
struct PointModelRuns {
  MatrixXd v_plus;                   ///< n x runs
  MatrixXd contact_velocity;         ///< ContactJacobian().rows() x runs
  std::vector<std::int32_t> status;  ///< per run: 0 terminated, else a cap or failure code
  /// /sweep: the model's name, per-run parameters (one entry per run each), their legend and
  /// the model's settings.
  data::SweepArrays sweep;
};

struct PointModelOutput {
  data::Dataset dataset;             ///< what data::WriteDataset stores
  std::vector<sets::PointSet> sets;  ///< the sets as built (dataset.sets holds their stored form)
};

/// The dataset of the runs: root attributes (design "sweep", lcp and selection "none", one
/// thread, this impactset's version), /problem, /summary (runs with status 0 count as
/// terminated, the others as step_capped; energy and contact-velocity ranges over terminated
/// runs; no LCP solves), /samples, /sweep and, when `sets` is given, the post-impact nets and
/// hulls of the terminated runs' v_plus. A point-valued model has no intermediate velocities and
/// no sampler to draw a hold-out from, so sets->reachable and sets->holdout are ignored (stored
/// as off) and no coverage is computed.
/// @param[in] system  the label stored as the root's `system`.
/// @throws std::invalid_argument for sizes that do not match the problem or the run count, or
///         invalid set options.
PointModelOutput PointModelDataset(const impact::ImpactProblem& problem,
                                   const std::string& system,
                                   PointModelRuns runs,
                                   const std::optional<sets::SetOptions>& sets);

}  // namespace impactset::engine
