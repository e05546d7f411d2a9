// The single-process paths, shared by the MPI and the non-MPI builds.
#include "distributed/local.hpp"

namespace impactset::distributed {

BatchReport RunBatchLocally(const engine::BatchJob& job,
                            const std::string& out,
                            bool resume,
                            const engine::BatchProgressCallback& progress) {
  return ReportOf(engine::RunBatch(job, out, resume, progress));
}

BatchReport ReportOf(const engine::BatchProgress& p) {
  return {.resumed = p.resumed,
          .computed = p.states_done - p.resumed,
          .not_ok = p.not_ok,
          .samples = p.samples};
}

}  // namespace impactset::distributed
