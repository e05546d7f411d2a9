#pragma once
// Conversions between the sampler's results and the HDF5 dataset structs (data/ knows nothing of
// sampling/, so the command joins them).
#include <string>

#include "data/dataset.hpp"
#include "impact/impact_problem.hpp"
#include "sampling/sampler.hpp"

namespace impactset::app {

data::Dataset ToDataset(const std::string& system,
                        const impact::ImpactProblem& problem,
                        const sampling::SamplerOptions& options,
                        const sampling::SamplerResult& result);

/// /problem of a dataset: the impact state as stored (M, Jn, D, J_c, mu, v-, k).
data::ProblemArrays ToProblemArrays(const impact::ImpactProblem& problem);

sampling::SampleSummary ToSummary(const data::SummaryArrays& s);
data::SummaryArrays FromSummary(const sampling::SampleSummary& s);

/// "YYYY-MM-DDTHH:MM:SSZ" now.
std::string UtcNow();

}  // namespace impactset::app
