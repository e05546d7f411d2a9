#pragma once
// Internal to distributed/: the single-process batch and its bookkeeping.
#include <string>

#include "distributed/distributed.hpp"

namespace impactset::distributed {

BatchReport RunBatchLocally(const engine::BatchJob& job, const std::string& out, bool resume,
                            const engine::BatchProgressCallback& progress);
/// Adds a finished state to the report and the progress.
void Count(const engine::BatchJob& job, const data::StateRecord& r, BatchReport* report,
           engine::BatchProgress* p);

}  // namespace impactset::distributed
