// The build without MPI: one process, the engine's own paths.
#include <impactset/distributed/internal/local.hpp>

namespace impactset::distributed {

namespace {
const Session* current = nullptr;
}

bool Built() { return false; }

Session::Session(int* argc, char*** /*argv*/) {
  if (argc) current = this;  // main's session; Current()'s fallback must not replace it
}
Session::~Session() {
  if (current == this) current = nullptr;
}

const Session& Current() {
  static Session single(nullptr, nullptr);
  return current ? *current : single;
}

void CheckOnRankZero(const std::function<void()>& check) { check(); }

BatchReport RunBatch(const batch::BatchJob& job,
                     const std::string& out,
                     bool resume,
                     const batch::BatchProgressCallback& progress) {
  return RunBatchLocally(job, out, resume, progress);
}

std::optional<engine::RunResult> Run(const impact::ImpactProblem& problem,
                                     const engine::RunOptions& options,
                                     const std::string& system,
                                     const engine::ProgressCallback& progress,
                                     RunReport* report) {
  engine::RunResult r = engine::Run(problem, options, system, progress);
  if (report) *report = {.ranks = 1, .seconds = r.seconds + r.sets_seconds};
  return r;
}

std::optional<rollouts::RolloutReport> RunRollouts(const robots::SimulationModel& model,
                                                   const rollouts::RolloutOptions& options) {
  return rollouts::RunRollouts(model, options);
}

}  // namespace impactset::distributed
