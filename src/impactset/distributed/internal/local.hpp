#pragma once
// Internal to distributed/: the single-process batch and its bookkeeping.
#include <string>

#include <impactset/distributed/distributed.hpp>

namespace impactset::distributed {

BatchReport RunBatchLocally(const batch::BatchJob& job,
                            const std::string& out,
                            bool resume,
                            const batch::BatchProgressCallback& progress);
/// What a batch did, from its final progress.
BatchReport ReportOf(const batch::BatchProgress& p);

}  // namespace impactset::distributed
