// RunResult <-> data::Dataset: the only place where the engine's enums meet the dataset's names.
#include <ctime>
#include <limits>
#include <string>

#include <impactset/common/error_policy.hpp>
#include <impactset/common/parse_number.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/option_table.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/engine/step_scaling.hpp>
#include <impactset/lcp/lemke.hpp>

namespace impactset::engine {

std::string UtcNow() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
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
  a.contact_names = sets::ContactOutput(problem).coordinate_names;
  a.velocity_names = sets::GeneralizedOutput(problem).coordinate_names;
  return a;
}

impact::ImpactProblem FromProblemArrays(const data::ProblemArrays& a) {
  return impact::ImpactProblem(a.M, a.Jn, a.D, a.mu, a.v_minus, NarrowToInt(a.k, "/problem/k"));
}

namespace {

data::SummaryArrays FromSummary(const sampling::SampleSummary& s) {
  data::SummaryArrays a;
  a.terminated = s.terminated;
  a.step_capped = s.step_capped;
  a.lcp_failures = s.lcp_failures;
  a.non_physical = s.non_physical;
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

sampling::SampleSummary ToSummary(const data::SummaryArrays& a) {
  sampling::SampleSummary s(static_cast<int>(a.contact_velocity_min.size()));
  s.terminated = a.terminated;
  s.step_capped = a.step_capped;
  s.lcp_failures = a.lcp_failures;
  s.non_physical = a.non_physical;
  s.lcp_solves = a.lcp_solves;
  s.lcp_fallbacks = a.lcp_fallbacks;
  s.non_unique = a.non_unique;
  s.worst_residual = a.worst_residual;
  s.energy_ratio_max = a.energy_ratio_max;
  s.contact_velocity_min = a.contact_velocity_min;
  s.contact_velocity_max = a.contact_velocity_max;
  s.solves_histogram.assign(a.solves_histogram.begin(), a.solves_histogram.end());
  s.samples = a.terminated + a.step_capped + a.lcp_failures + a.non_physical;
  return s;
}

data::SampleArrays ToSampleRows(const sampling::SampleArrays& s) {
  data::SampleArrays a;
  a.v_plus = s.v_plus;
  a.contact_velocity = s.contact_velocity;
  a.lcp_solves = s.lcp_solves;
  a.status.reserve(s.status.size());
  for (impact::SampleStatus st : s.status) a.status.push_back(static_cast<std::int32_t>(st));
  a.energy_ratio = s.energy_ratio;
  a.non_unique = s.non_unique;
  return a;
}

void FromSampleRows(const data::SampleArrays& a, sampling::SampleArrays* s) {
  s->v_plus = a.v_plus;
  s->contact_velocity = a.contact_velocity;
  s->lcp_solves = a.lcp_solves;
  s->status.clear();
  s->status.reserve(a.status.size());
  for (std::int32_t code : a.status) s->status.push_back(impact::SampleStatusFromCode(code));
  s->energy_ratio = a.energy_ratio;
  s->non_unique = a.non_unique;
}

data::HullArrays ToHullArrays(const sets::HullResult& h) {
  const sets::AmbientFacets facets = sets::ToAmbientFacets(h);
  return data::HullArrays{.status = std::string(EnumName(h.status)),
                          .detail = h.detail,
                          .dimension = h.dimension,
                          .center = h.center,
                          .basis = h.basis,
                          .vertices = h.vertices,
                          .facet_normals = facets.normals,
                          .facet_bounds = facets.bounds,
                          .volume = h.volume,
                          .flatness = h.flatness,
                          .distance_roundoff = h.distance_roundoff,
                          .margin = h.margin};
}

// Files of schema version 1 stored only the words; their first words name the status.
sets::HullStatus ParseHullDetail(const std::string& detail) {
  auto starts = [&](const char* prefix) { return detail.rfind(prefix, 0) == 0; };
  if (starts("computed")) return sets::HullStatus::kComputed;
  if (starts("skipped: the net is empty")) return sets::HullStatus::kEmptyNet;
  if (starts("skipped: dimension")) return sets::HullStatus::kDimensionTooHigh;
  if (starts("failed")) return sets::HullStatus::kFailed;
  InvalidArgument("hull status", detail,
                  "must be computed, skipped: ... or failed: ... (not written by impactset)");
}

sets::HullResult FromHullArrays(const data::HullArrays& a) {
  // facet_normals and facet_offsets: from the ambient facets below (named, as every member must
  // be under -Wextra).
  sets::HullResult h{.status = a.status.empty() ? ParseHullDetail(a.detail)
                                                : ParseEnum<sets::HullStatus>(a.status),
                     .detail = a.detail,
                     .dimension = NarrowToInt(a.dimension, "hull dimension"),
                     .center = a.center,
                     .basis = a.basis,
                     .vertices = a.vertices,
                     .facet_normals = MatrixXd(),
                     .facet_offsets = VectorXd(),
                     .volume = a.volume,
                     .flatness = a.flatness,
                     .distance_roundoff = a.distance_roundoff};
  h.margin = a.margin;
  sets::FromAmbientFacets({a.facet_normals, a.facet_bounds}, &h);
  return h;
}

// The same fields in the same order (sets::CoverageResult, data::CoverageArrays).
data::CoverageArrays ToCoverageArrays(const sets::CoverageResult& c) {
  return data::CoverageArrays{.extent = c.extent,
                              .extent_width = c.extent_width,
                              .extent_moved = c.extent_moved,
                              .extent_converged = c.extent_converged,
                              .extent_statement = c.extent_statement,
                              .holdout = c.holdout,
                              .holdout_not_terminated = c.holdout_not_terminated,
                              .missed = c.missed,
                              .delta = c.delta,
                              .missed_mass_upper = c.missed_mass_upper,
                              .holdout_assumptions = c.holdout_assumptions,
                              .lemma1 = c.lemma1,
                              .lipschitz = c.lipschitz,
                              .cube_dimension = c.cube_dimension,
                              .log_cells = c.log_cells,
                              .failure_bound = c.failure_bound,
                              .samples_needed = c.samples_needed,
                              .lemma1_assumptions = c.lemma1_assumptions};
}

sets::CoverageResult FromCoverageArrays(const data::CoverageArrays& a) {
  return sets::CoverageResult{.extent = a.extent,
                              .extent_width = a.extent_width,
                              .extent_moved = a.extent_moved,
                              .extent_converged = a.extent_converged,
                              .extent_statement = a.extent_statement,
                              .holdout = a.holdout,
                              .holdout_not_terminated = a.holdout_not_terminated,
                              .missed = a.missed,
                              .delta = a.delta,
                              .missed_mass_upper = a.missed_mass_upper,
                              .holdout_assumptions = a.holdout_assumptions,
                              .lemma1 = a.lemma1,
                              .lipschitz = a.lipschitz,
                              .cube_dimension = a.cube_dimension,
                              .log_cells = a.log_cells,
                              .failure_bound = a.failure_bound,
                              .samples_needed = a.samples_needed,
                              .lemma1_assumptions = a.lemma1_assumptions};
}

data::RunAttributes ToRunAttributes(const RunResult& r) {
  const sampling::SamplerOptions& o = r.options.sampler;
  data::RunAttributes a;
  a.system = r.system;
  a.threads = r.threads_used;
  a.shard_index = o.shard_index;
  a.shard_count = o.shard_count;
  a.first_sample = r.first_sample;
  a.sample_count = r.count;
  a.version = r.version;
  a.git_revision = r.git_revision;
  a.created = r.created;
  a.options = OptionAttributes(r.options);
  return a;
}

// The options as stored (option table), then what the file itself says: shard, threads used.
void FromRunAttributes(const data::RunAttributes& a, RunResult* r) {
  sampling::SamplerOptions& o = r->options.sampler;
  r->system = a.system;
  ReadOptionAttributes(a.options, &r->options);
  o.threads = NarrowToInt(a.threads, "threads");
  o.shard_index = NarrowToInt(a.shard_index, "shard_index");
  o.shard_count = NarrowToInt(a.shard_count, "shard_count");
  r->threads_used = o.threads;
  r->first_sample = a.first_sample;
  r->count = a.sample_count;
  r->version = a.version;
  r->git_revision = a.git_revision;
  r->created = a.created;
}

}  // namespace

data::PointSetArrays ToPointSetArrays(const sets::PointSet& s) {
  data::PointSetArrays a;
  a.set = ToString(s.set);
  a.coords = s.output;
  a.net = data::NetArrays{s.net.points,      s.net.epsilon, s.net.separation,
                          s.net.coarsenings, s.net.offered, ToString(s.net.construction)};
  a.hull = ToHullArrays(s.hull);
  if (s.support.directions.size() > 0) {
    a.support = data::SupportArrays{
        s.support.directions,       s.support.values, s.support.attaining_samples,
        s.support.attaining_points, s.support.count,  s.support.first_half_values,
        s.support.first_half_end};
  }
  if (s.coverage) a.coverage = ToCoverageArrays(*s.coverage);
  return a;
}

sets::PointSet FromPointSetArrays(const data::PointSetArrays& a) {
  sets::PointSet s;
  s.set = sets::ParseSetKind(a.set);
  s.output = a.coords;
  s.net = sets::NetResult{a.net.points,     a.net.epsilon,
                          a.net.separation, a.net.coarsenings,
                          a.net.offered,    sets::ParseNetConstruction(a.net.construction)};
  s.hull = FromHullArrays(a.hull);
  if (a.support) {
    s.support = sets::SupportResult{
        a.support->directions,       a.support->values, a.support->attaining_samples,
        a.support->attaining_points, a.support->count,  a.support->first_half_values,
        a.support->first_half_end};
  }
  if (a.coverage) s.coverage = FromCoverageArrays(*a.coverage);
  return s;
}

namespace {

data::OutputArrays ToOutputArrays(const sets::OutputMap& o) {
  return data::OutputArrays{o.name, ToString(o.kind), o.spec, o.C, o.coordinate_names};
}

sets::Coordinates ParseOutputKind(const std::string& kind, const std::string& name) {
  if (kind == "map") return sets::Coordinates::kMap;
  if (kind == "contact" || kind == "generalized") return sets::ParseCoordinates(kind);
  InvalidArgument("/outputs/" + name + " kind", kind, "must be contact, generalized or map");
}

sets::OutputMap FromOutputArrays(const data::OutputArrays& a,
                                 const impact::ImpactProblem& problem) {
  sets::OutputMap o{a.name, ParseOutputKind(a.kind, a.name), a.spec, a.C, a.coordinate_names};
  const bool built_in_ok =
      (o.kind != sets::Coordinates::kContact || o.C == problem.ContactJacobian()) &&
      (o.kind != sets::Coordinates::kGeneralized ||
       o.C == MatrixXd::Identity(problem.n(), problem.n()));
  if (!built_in_ok) {
    InvalidArgument("/outputs/" + a.name + "/C", a.kind,
                    "is not the built-in output's matrix (contact_jacobian or the identity)");
  }
  return o;
}

}  // namespace

data::Dataset ToDataset(const RunResult& r) {
  data::Dataset d;
  d.run = ToRunAttributes(r);
  d.problem = ToProblemArrays(r.problem);
  // The columns' names: the model's (RunOptions), else the defaults of ToProblemArrays.
  if (!r.options.velocity_names.empty()) d.problem.velocity_names = r.options.velocity_names;
  if (!r.options.contact_names.empty()) d.problem.contact_names = r.options.contact_names;
  d.summary = FromSummary(r.summary);
  d.summary.advice = StepCapAdvice(r).value_or("");
  const sampling::SamplerOptions& o = r.options.sampler;
  if (o.keep_samples && r.samples) d.samples = ToSampleRows(*r.samples);
  if (o.keep_trajectories && r.samples) {
    d.reachable = data::ReachableArrays{r.samples->trajectories, r.samples->trajectory_offsets};
  }
  if (!r.sets.empty()) {
    for (const sets::OutputMap& o : r.options.set_options.outputs)
      d.outputs.push_back(ToOutputArrays(o));
  }
  for (const sets::PointSet& s : r.sets) d.sets.push_back(ToPointSetArrays(s));
  return d;
}

RunResult FromDataset(const data::Dataset& d) {
  if (d.sweep) {
    InvalidArgument("dataset", "/sweep", "is a sweep of a point-valued model, not a sampling run");
  }
  RunResult r{.problem = FromProblemArrays(d.problem)};
  r.options.sets = !d.sets.empty();
  FromRunAttributes(d.run, &r);
  r.options.velocity_names = d.problem.velocity_names;
  r.options.contact_names = d.problem.contact_names;
  r.summary = ToSummary(d.summary);
  r.options.sampler.keep_samples = d.samples.has_value();
  r.options.sampler.keep_trajectories = d.reachable.has_value();
  if (d.samples || d.reachable) {
    sampling::SampleArrays s;
    if (d.samples) FromSampleRows(*d.samples, &s);
    if (d.reachable) {
      s.trajectories = d.reachable->velocities;
      s.trajectory_offsets = d.reachable->offsets;
    }
    r.samples = std::move(s);
  }
  for (const data::OutputArrays& o : d.outputs) {
    r.options.set_options.outputs.push_back(FromOutputArrays(o, r.problem));
  }
  for (const data::PointSetArrays& s : d.sets) r.sets.push_back(FromPointSetArrays(s));
  // What the file says about the run must be a run impactset could have made.
  r.options.sampler.Validate();
  if (r.options.sets) r.options.set_options.Validate();
  sets::ValidateOutputs(r.options.set_options.outputs, r.problem.n());
  if (r.first_sample > r.options.sampler.samples - r.count) {
    InvalidArgument("sample_count", r.count,
                    "samples past the run's " + std::to_string(r.options.sampler.samples));
  }
  return r;
}

void WriteRun(const std::string& path, const RunResult& result) {
  data::WriteDataset(path, ToDataset(result));
}

RunResult ReadRun(const std::string& path) {
  const data::Dataset d = data::ReadDataset(path);  // its errors name the file
  try {
    return FromDataset(d);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
}

}  // namespace impactset::engine
