#include <impactset/engine/point_model.hpp>

#include <algorithm>
#include <cmath>

#include <impactset/common/error_policy.hpp>
#include <impactset/common/version.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/option_table.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/impact/algorithm1.hpp>
#include <impactset/sets/set_builder.hpp>

namespace impactset::engine {
namespace {

void CheckSizes(const impact::ImpactProblem& problem, const PointModelRuns& runs) {
  const Eigen::Index count = runs.v_plus.cols();
  if (runs.v_plus.rows() != problem.n()) {
    InvalidArgument("runs.v_plus.rows()", runs.v_plus.rows(),
                    "must equal n = " + std::to_string(problem.n()));
  }
  const auto c = problem.ContactJacobian().rows();
  if (runs.contact_velocity.rows() != c || runs.contact_velocity.cols() != count) {
    InvalidArgument("runs.contact_velocity",
                    "a " + std::to_string(runs.contact_velocity.rows()) + " x " +
                        std::to_string(runs.contact_velocity.cols()) + " matrix",
                    "must be " + std::to_string(c) + " x " + std::to_string(count));
  }
  if (static_cast<Eigen::Index>(runs.status.size()) != count) {
    InvalidArgument("runs.status.size()", runs.status.size(),
                    "must equal the runs, " + std::to_string(count));
  }
  for (std::int32_t code : runs.status) {
    if (code < 0 || code > 2) InvalidArgument("runs.status", code, "must be 0, 1 or 2");
  }
  for (const auto& [name, values] : runs.sweep.parameters) {
    if (values.size() != count) {
      InvalidArgument("runs.sweep." + name + ".size()", values.size(),
                      "must equal the runs, " + std::to_string(count));
    }
  }
}

data::RunAttributes RunAttributes(const std::string& system, Eigen::Index count) {
  data::RunAttributes r;
  r.system = system;
  r.sample_count = count;
  r.threads = 1;
  // No sampler ran: the sampler's attributes say so, so readers of run files see a sweep.
  r.options = {{"/", "design", std::string("sweep")},  {"/", "samples", std::int64_t{count}},
               {"/", "seed", std::int64_t{0}},         {"/", "h", 0.0},
               {"/", "max_steps", std::int64_t{0}},    {"/", "lcp", std::string("none")},
               {"/", "selection", std::string("none")}};
  r.version = kVersion;
  r.git_revision = GitRevision();
  r.created = UtcNow();
  return r;
}

// /samples and /summary: no LCP solves, energy ratio KE(v+) / KE(v-).
void SamplesAndSummary(const impact::ImpactProblem& p, PointModelRuns* runs, data::Dataset* d) {
  const Eigen::Index count = runs->v_plus.cols();
  const double ke_minus = p.KineticEnergy(p.v_minus());
  data::SampleArrays s;
  data::SummaryArrays& sum = d->summary;
  const auto c = p.ContactJacobian().rows();
  sum.contact_velocity_min = VectorXd::Constant(c, INFINITY);
  sum.contact_velocity_max = VectorXd::Constant(c, -INFINITY);
  for (Eigen::Index j = 0; j < count; ++j) {
    const std::int32_t status = runs->status[static_cast<size_t>(j)];
    s.status.push_back(status);
    s.lcp_solves.push_back(0);
    // A contiguous copy: reductions over a column view may sum in another order (alignment).
    const VectorXd v_plus = runs->v_plus.col(j);
    const double ratio = ke_minus > 0 ? p.KineticEnergy(v_plus) / ke_minus : 1.0;
    s.energy_ratio.push_back(ratio);
    s.non_unique.push_back(0);
    if (status == 0) {
      ++sum.terminated;
      sum.energy_ratio_max = std::max(sum.energy_ratio_max, ratio);
      sum.contact_velocity_min = sum.contact_velocity_min.cwiseMin(runs->contact_velocity.col(j));
      sum.contact_velocity_max = sum.contact_velocity_max.cwiseMax(runs->contact_velocity.col(j));
    } else {
      ++sum.step_capped;
    }
  }
  sum.solves_histogram = {static_cast<std::int64_t>(count)};  // every run: 0 LCP solves
  s.v_plus = std::move(runs->v_plus);
  s.contact_velocity = std::move(runs->contact_velocity);
  d->samples = std::move(s);
}

// The post-impact nets and hulls of the terminated runs.
std::vector<sets::PointSet> Sets(const impact::ImpactProblem& p,
                                 sets::SetOptions so,
                                 data::Dataset* d) {
  so.reachable = false;
  so.holdout = 0;
  sets::SetBuilder builder(p, so);
  std::vector<impact::SampleStatus> status;
  for (std::int32_t code : d->samples->status) status.push_back(impact::SampleStatusFromCode(code));
  builder.ConsumePostImpact(d->samples->v_plus, status);
  std::vector<sets::PointSet> sets = builder.Sets();
  for (const sets::PointSet& set : sets) d->sets.push_back(ToPointSetArrays(set));
  RunOptions as_run;
  as_run.set_options = so;
  for (data::Attribute& a : OptionAttributes(as_run)) {
    if (a.group == "/net") d->run.options.push_back(std::move(a));
  }
  return sets;
}

}  // namespace

PointModelOutput PointModelDataset(const impact::ImpactProblem& problem,
                                   const std::string& system,
                                   PointModelRuns runs,
                                   const std::optional<sets::SetOptions>& sets) {
  CheckSizes(problem, runs);
  PointModelOutput out;
  data::Dataset& d = out.dataset;
  d.run = RunAttributes(system, runs.v_plus.cols());
  d.problem = ToProblemArrays(problem);
  d.sweep = std::move(runs.sweep);
  SamplesAndSummary(problem, &runs, &d);
  if (sets) out.sets = Sets(problem, *sets, &d);
  return out;
}

}  // namespace impactset::engine
