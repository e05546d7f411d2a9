#pragma once
// Internal to distributed/: the single-process batch and its bookkeeping.
#include <string>

#include "distributed/distributed.hpp"

namespace impactset::distributed {

BatchReport RunBatchLocally(const engine::BatchJob& job,
                            const std::string& out,
                            bool resume,
                            const engine::BatchProgressCallback& progress);
/// What a batch did, from its final progress.
BatchReport ReportOf(const engine::BatchProgress& p);

}  // namespace impactset::distributed
