// The single-process paths, shared by the MPI and the non-MPI builds.
#include <impactset/distributed/internal/local.hpp>

namespace impactset::distributed {

BatchReport RunBatchLocally(const batch::BatchJob& job,
                            const std::string& out,
                            bool resume,
                            const batch::BatchProgressCallback& progress) {
  return ReportOf(batch::RunBatch(job, out, resume, progress));
}

BatchReport ReportOf(const batch::BatchProgress& p) {
  return {.resumed = p.resumed,
          .computed = p.states_done - p.resumed,
          .not_ok = p.not_ok,
          .first_not_ok = p.first_not_ok,
          .samples = p.samples,
          .finished_before = p.finished_before};
}

}  // namespace impactset::distributed
