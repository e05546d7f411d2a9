#include "apps/dataset_io.hpp"

#include <ctime>

#include "apps/git_revision.hpp"

namespace impactset::app {

std::string UtcNow() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

data::SummaryArrays FromSummary(const sampling::SampleSummary& s) {
  data::SummaryArrays a;
  a.terminated = s.terminated;
  a.step_capped = s.step_capped;
  a.lcp_failures = s.lcp_failures;
  a.lcp_solves = s.lcp_solves;
  a.lcp_fallbacks = s.lcp_fallbacks;
  a.non_unique = s.non_unique;
  a.worst_residual = s.worst_residual;
  a.energy_ratio_max = s.energy_ratio_max;
  a.contact_velocity_min = s.contact_velocity_min;
  a.contact_velocity_max = s.contact_velocity_max;
  a.solves_histogram.assign(s.solves_histogram.begin(), s.solves_histogram.end());
  return a;
}

data::ProblemArrays ToProblemArrays(const impact::ImpactProblem& problem) {
  data::ProblemArrays a;
  a.M = problem.M();
  a.Jn = problem.Jn();
  a.D = problem.D();
  a.contact_jacobian = problem.ContactJacobian();
  a.mu = problem.mu();
  a.v_minus = problem.v_minus();
  a.k = problem.k();
  return a;
}

sampling::SampleSummary ToSummary(const data::SummaryArrays& a) {
  sampling::SampleSummary s(static_cast<int>(a.contact_velocity_min.size()));
  s.terminated = a.terminated;
  s.step_capped = a.step_capped;
  s.lcp_failures = a.lcp_failures;
  s.lcp_solves = a.lcp_solves;
  s.lcp_fallbacks = a.lcp_fallbacks;
  s.non_unique = a.non_unique;
  s.worst_residual = a.worst_residual;
  s.energy_ratio_max = a.energy_ratio_max;
  s.contact_velocity_min = a.contact_velocity_min;
  s.contact_velocity_max = a.contact_velocity_max;
  s.solves_histogram.assign(a.solves_histogram.begin(), a.solves_histogram.end());
  s.samples = a.terminated + a.step_capped + a.lcp_failures;
  return s;
}

data::Dataset ToDataset(const std::string& system,
                        const impact::ImpactProblem& problem,
                        const sampling::SamplerOptions& o,
                        const sampling::SamplerResult& r) {
  data::Dataset d;
  d.run.system = system;
  d.run.seed = o.seed;
  d.run.design = sampling::ToString(o.design);
  d.run.h = o.algorithm.step;
  d.run.max_steps = o.algorithm.max_steps;
  d.run.samples = o.samples;
  d.run.threads = r.threads_used;
  d.run.lcp = o.lcp;
  d.run.selection = impact::ToString(o.algorithm.selection);
  d.run.shard_index = o.shard_index;
  d.run.shard_count = o.shard_count;
  d.run.first_sample = r.first_sample;
  d.run.sample_count = r.count;
  d.run.version = IMPACTSET_VERSION;
  d.run.git_revision = IMPACTSET_GIT_REVISION;
  d.run.created = UtcNow();
  d.problem = ToProblemArrays(problem);
  d.summary = FromSummary(r.summary);
  if (o.keep_samples) {
    data::SampleArrays a;
    a.v_plus = r.records.v_plus;
    a.contact_velocity = r.records.contact_velocity;
    a.lcp_solves = r.records.lcp_solves;
    a.status = r.records.status;
    a.energy_ratio = r.records.energy_ratio;
    a.non_unique = r.records.non_unique;
    d.samples = std::move(a);
  }
  if (o.keep_trajectories) {
    d.reachable = data::ReachableArrays{r.records.reachable, r.records.reachable_offsets};
  }
  return d;
}

}  // namespace impactset::app
