// The single-process paths, shared by the MPI and the non-MPI builds.
#include "distributed/local.hpp"

#include <chrono>

namespace impactset::distributed {

BatchReport RunBatchLocally(const engine::BatchJob& job, const std::string& out, bool resume,
                            const engine::BatchProgressCallback& progress) {
  engine::BatchWriter writer(job, out, resume);
  BatchReport report{.resumed = writer.DoneCount()};
  engine::BatchProgress p{.states_done = writer.DoneCount(), .states_total = job.Count(),
                          .resumed = writer.DoneCount()};
  const auto t0 = std::chrono::steady_clock::now();
  for (long long i : writer.Pending()) {
    data::StateRecord r = engine::RunState(job, i);
    Count(job, r, &report, &p);
    writer.Add(std::move(r));
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (progress) progress(p);
  }
  writer.Finish();
  return report;
}

void Count(const engine::BatchJob& job, const data::StateRecord& r, BatchReport* report,
           engine::BatchProgress* p) {
  const long long samples = engine::RecordSamples(job, r);
  ++report->computed;
  report->samples += samples;
  if (engine::RecordStatus(r) != engine::StateStatus::kOk) ++report->not_ok;
  ++p->states_done;
  p->samples += samples;
}

}  // namespace impactset::distributed
