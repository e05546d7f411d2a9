// A batch job: its file layout, one state's run, and the single-process driver.
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include <impactset/batch/batch.hpp>
#include <impactset/batch/internal/batch_layout.hpp>
#include <impactset/common/enum_names.hpp>
#include <impactset/common/error_policy.hpp>
#include <impactset/engine/option_table.hpp>
#include <impactset/engine/step_scaling.hpp>
#include <impactset/sampling/streams.hpp>
#include <impactset/sets/features.hpp>
#include <impactset/sets/output_map.hpp>

namespace impactset::batch {

std::uint64_t StateSeed(std::uint64_t seed, long long index) {
  return sampling::Mix64(sampling::Mix64(seed) + static_cast<std::uint64_t>(index));
}

namespace {

using data::ColumnSpec;
using data::ColumnType;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
struct SetId {
  sets::SetKind set;
  std::string output;
  int dimension = 0;
};
// Every stored set: post-impact (and reachable) of each output.
std::vector<SetId> BatchSets(const BatchJob& job) {
  std::vector<SetId> s;
  const engine::BatchOptions& o = job.options;
  if (!o.run.sets) return s;
  for (sets::SetKind k : {sets::SetKind::kPostImpact, sets::SetKind::kReachable}) {
    if (k == sets::SetKind::kReachable && !o.run.set_options.reachable) continue;
    for (const auto& [name, d] : job.outputs) s.push_back({k, name, d});
  }
  return s;
}
bool HasCoverage(const engine::BatchOptions& o) {
  return o.run.sets && (o.run.set_options.holdout > 0 || o.run.set_options.lipschitz);
}
std::string SetPath(const SetId& s) {
  return std::string("/sets/") + ToString(s.set) + "/" + s.output;
}

std::vector<ColumnSpec> Columns(const BatchJob& job) {
  const auto p = static_cast<std::int64_t>(job.points.rows());
  const std::int64_t n = job.velocity_dimension;
  const std::int64_t extra = job.options.extra_directions, keep = job.options.keep;
  std::vector<ColumnSpec> cols = {{"/states/parameters", ColumnType::kFloat64, p},
                                  {"/states/status", ColumnType::kInt64, 1, true},
                                  {"/states/message", ColumnType::kString, 1, true},
                                  {"/states/seed", ColumnType::kUInt64, 1, true},
                                  {"/states/step", ColumnType::kFloat64, 1, true},
                                  {"/states/max_steps", ColumnType::kInt64, 1, true},
                                  {"/states/v_minus", ColumnType::kFloat64, n}};
  for (const char* s : {"terminated", "step_capped", "lcp_failures", "non_physical", "lcp_solves",
                        "lcp_fallbacks", "non_unique"}) {
    cols.push_back({std::string("/states/summary/") + s, ColumnType::kInt64, 1, true});
  }
  for (const char* s : {"worst_residual", "energy_ratio_max"}) {
    cols.push_back({std::string("/states/summary/") + s, ColumnType::kFloat64, 1, true});
  }
  for (const auto& [name, dim] : job.outputs) {
    const std::int64_t d = dim;
    const std::int64_t dirs = d > 0 ? 2 * d + extra : 0;
    const std::string g = "/features/" + name + "/";
    for (const char* s : {"box_min", "box_max", "mean"})
      cols.push_back({g + s, ColumnType::kFloat64, d});
    cols.push_back({g + "support", ColumnType::kFloat64, dirs});
    cols.push_back({g + "subsample", ColumnType::kFloat64, keep * d});
    cols.push_back({g + "count", ColumnType::kInt64, 1, true});
  }
  for (const SetId& s : BatchSets(job)) {
    const std::int64_t d = s.dimension;
    const std::string g = SetPath(s) + "/";
    cols.push_back({g + "net_points", ColumnType::kFloat64, d, false, true});
    for (const char* x : {"epsilon", "separation", "hull_volume", "hull_margin"}) {
      cols.push_back({g + x, ColumnType::kFloat64, 1, true});
    }
    if (s.set == sets::SetKind::kPostImpact) {  // the extent statement (sets::ExtentOf)
      cols.push_back({g + "extent_moved", ColumnType::kFloat64, 1, true});
      cols.push_back({g + "extent_converged", ColumnType::kInt64, 1, true});
    }
    for (const char* x : {"coarsenings", "offered", "hull_status", "hull_dimension"}) {
      cols.push_back({g + x, ColumnType::kInt64, 1, true});
    }
    cols.push_back({g + "hull_vertices", ColumnType::kFloat64, d, false, true});
    cols.push_back({g + "hull_facet_normals", ColumnType::kFloat64, d, false, true});
    cols.push_back({g + "hull_facet_bounds", ColumnType::kFloat64, 1, false, true});
    if (s.set == sets::SetKind::kPostImpact && HasCoverage(job.options)) {
      for (const char* x : {"holdout", "holdout_not_terminated", "missed"}) {
        cols.push_back({g + x, ColumnType::kInt64, 1, true});
      }
      for (const char* x : {"missed_mass_upper", "failure_bound"}) {
        cols.push_back({g + x, ColumnType::kFloat64, 1, true});
      }
    }
  }
  return cols;
}

// The per-state run's options: h and N from the batch, else the state's own (ProblemRunOptions:
// its scene's, or scaled to a stacked problem that gives none).
engine::RunOptions StateRunOptions(const BatchJob& job,
                                   const systems::LoadedProblem& lp,
                                   long long index) {
  engine::RunOptions r = job.options.run;
  const engine::RunOptions own =
      engine::ProblemRunOptions(lp, {.step = job.options.step, .max_steps = job.options.max_steps});
  r.sampler.algorithm.step = own.sampler.algorithm.step;
  r.sampler.algorithm.max_steps = own.sampler.algorithm.max_steps;
  r.step_rule = own.step_rule;
  r.sampler.seed = StateSeed(job.options.run.sampler.seed, index);
  r.sampler.keep_samples = true;  // the features read the samples; they are not stored
  r.sampler.keep_trajectories = false;
  return r;
}

std::vector<data::Attribute> ImpactAttributes(const BatchJob& job) {
  const engine::BatchOptions& o = job.options;
  std::vector<data::Attribute> a = engine::BatchOptionAttributes(o);
  a.push_back({"/", "per_state", data::AttributeValue{std::string("impact")}});
  std::string outputs;
  for (const std::string& spec : o.outputs) outputs += (outputs.empty() ? "" : ",") + spec;
  a.push_back({"/options", "outputs", data::AttributeValue{outputs}});  // empty: the defaults
  return a;
}

// netCDF-4 dimensions of /states and /features/<c> (docs/dataset-format.md): the state, the
// parameters, the velocity coordinates, each output's coordinates, support directions and
// subsample entries; every fixed column is attached to /state and its second dimension.
void AddDimensions(BatchJob* job) {
  data::BatchFile& h = job->header;
  const std::string state = data::kStateScale;
  h.scales.push_back({"/states/velocity", job->velocity_names});
  std::map<std::string, std::string> second = {{"/states/parameters", "/states/parameter"},
                                               {"/states/v_minus", "/states/velocity"}};
  for (size_t i = 0; i < job->outputs.size(); ++i) {
    const auto& [name, d] = job->outputs[i];
    const std::string g = "/features/" + name + "/";
    const long long dirs = d > 0 ? 2LL * d + job->options.extra_directions : 0;
    h.scales.push_back({g + "coordinate", job->output_names[i]});
    h.scales.push_back({g + "direction", {}, dirs});
    h.scales.push_back({g + "subsample_entry", {}, job->options.keep * d});
    for (const char* s : {"box_min", "box_max", "mean"}) second[g + s] = g + "coordinate";
    second[g + "support"] = g + "direction";
    second[g + "subsample"] = g + "subsample_entry";
    h.dimensions.push_back({g + "directions", {g + "direction", g + "coordinate"}});
    h.descriptions.push_back({g.substr(0, g.size() - 1),
                              "features of the terminated samples' post-impact values y = C v+ "
                              "in output " +
                                  name});
    h.descriptions.push_back({g + "support", "max over the samples of directions[j] . y"});
    h.descriptions.push_back(
        {g + "subsample", "the first keep terminated samples' y, row-major (keep, d)"});
  }
  for (const ColumnSpec& c : job->columns) {
    if (c.ragged) continue;
    std::vector<std::string> dims = {state};
    if (!c.scalar && c.type != ColumnType::kString) dims.push_back(second.at(c.path));
    if (c.path.rfind("/sets/", 0) == 0) continue;  // ragged groups: phony_dims (see docs)
    h.dimensions.push_back({c.path, dims});
  }
  h.descriptions.push_back(
      {"/states/summary", "per state: the run's summary (as a run's /summary)"});
  h.descriptions.push_back({"/states/step",
                            "h of the state's run: --step, else the state's own (its scene's "
                            "sampler settings, which may follow its parameters: "
                            "compass-touchdown's h is |rate|), else scaled to its impact"});
  h.descriptions.push_back({"/states/max_steps", "N of the state's run, chosen as /states/step"});
  h.descriptions.push_back({"/states/seed", "the state's run seed: Mix64(Mix64(seed) + index)"});
  h.descriptions.push_back({"/states/v_minus", "the state's pre-impact velocity"});
}

void AddConstants(BatchJob* job) {
  auto& h = job->header;
  internal::AddDesignConstants(job);
  for (const auto& [name, d] : job->outputs) {
    h.constants.push_back(
        {"/features/" + name + "/directions",
         sampling::SupportDirections(d, job->options.extra_directions).transpose()});
  }
  h.scales.push_back({"/sets/hull_status_names", EnumNameList<sets::HullStatus>()});
  AddDimensions(job);
}

// The state's outputs: the batch's specs parsed for this problem (a MuJoCo model's maps depend
// on its state), or contact and generalized.
std::vector<sets::OutputMap> StateOutputs(const std::vector<std::string>& specs,
                                          const systems::LoadedProblem& lp,
                                          const std::optional<robots::MujocoProblem>& model) {
  // A model names the coordinates of the defaults too (the file's column labels).
  if (specs.empty() && !model) return sets::DefaultOutputs(lp.problem);
  return sets::ParseOutputs(
      specs.empty() ? std::vector<std::string>{"contact", "generalized"} : specs, lp.problem,
      model ? &*model : nullptr);
}

// Why a state's problem or outputs do not fit the batch's layout; empty when they do.
std::string Mismatch(const BatchJob& job,
                     const impact::ImpactProblem& problem,
                     const std::vector<sets::OutputMap>& outputs) {
  const long long n = problem.n(), c = problem.ContactJacobian().rows();
  if (n != job.velocity_dimension || c != job.contact_dimension) {
    return "n = " + std::to_string(n) + ", contact dimension = " + std::to_string(c) +
           "; the batch's are " + std::to_string(job.velocity_dimension) + " and " +
           std::to_string(job.contact_dimension);
  }
  if (outputs.size() != job.outputs.size()) {
    return std::to_string(outputs.size()) + " outputs; the batch has " +
           std::to_string(job.outputs.size());
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].dimension() != job.outputs[i].second) {
      return "output " + outputs[i].name + " has dimension " +
             std::to_string(outputs[i].dimension()) + "; the batch's is " +
             std::to_string(job.outputs[i].second);
    }
  }
  return "";
}

}  // namespace

BatchJob MakeBatchJob(const StateSource& given,
                      const StateDesign& design,
                      const engine::BatchOptions& options) {
  options.Validate();
  design.Validate();
  const StateSource source = ResolveMujocoSource(given);
  CheckParameters(source, design.Names());
  BatchJob job;
  job.source = source;
  job.design = design;
  job.options = options;
  // The hold-out every state runs, stored (and compared by --resume) as a given value.
  job.options.run.set_options.holdout = options.Holdout();
  job.options.run.set_options.polish = options.Polish();
  job.points = design.Points();
  const auto names = design.Names();
  std::optional<systems::LoadedProblem> first;  // the first valid state fixes the layout
  std::optional<robots::MujocoProblem> model;
  for (Eigen::Index i = 0; i < job.points.cols() && !first; ++i) {
    try {
      first.emplace(LoadState(source, names, job.points.col(i), &model));
    } catch (const std::invalid_argument&) {
      continue;  // recorded as invalid when the batch reaches it
    }
  }
  if (first) {
    job.velocity_dimension = static_cast<int>(first->problem.n());
    job.contact_dimension = static_cast<int>(first->problem.ContactJacobian().rows());
    // An output spec the first valid state cannot parse is a bad option: it fails here.
    for (const sets::OutputMap& o : StateOutputs(options.outputs, *first, model)) {
      job.outputs.emplace_back(o.name, static_cast<int>(o.dimension()));
      job.output_names.push_back(o.coordinate_names);
    }
    job.velocity_names = sets::GeneralizedOutput(
                             first->problem, model ? model->dof_names : std::vector<std::string>{})
                             .coordinate_names;
  }
  job.columns = Columns(job);
  job.header.columns = job.columns;
  internal::AddJobAttributes(&job, ImpactAttributes(job));
  AddConstants(&job);
  return job;
}

namespace {

// The samples in an output's coordinates: the sampler's own contact velocities and v+ for the
// built-in outputs (their bits), C v+ for the others.
MatrixXd OutputPoints(const sets::OutputMap& o, const sampling::SampleArrays& s) {
  if (o.kind == sets::Coordinates::kContact) return s.contact_velocity;
  if (o.kind == sets::Coordinates::kGeneralized) return s.v_plus;
  return o.Apply(s.v_plus);
}

void FillFeatures(const BatchJob& job,
                  const std::vector<sets::OutputMap>& outputs,
                  const engine::RunResult& r,
                  internal::RecordBuilder* b) {
  const sampling::SampleArrays& s = *r.samples;
  for (const sets::OutputMap& o : outputs) {
    const MatrixXd points = OutputPoints(o, s);
    const sets::Features f = sets::ComputeFeatures(
        points, s.status,
        sampling::SupportDirections(static_cast<int>(points.rows()), job.options.extra_directions),
        job.options.keep);
    const std::string g = "/features/" + o.name + "/";
    b->Set(g + "box_min", f.box_min);
    b->Set(g + "box_max", f.box_max);
    b->Set(g + "mean", f.mean);
    b->Set(g + "support", f.support);
    b->Set(g + "subsample", f.subsample);
    b->SetInt(g + "count", f.count);
  }
}

void FillSets(const BatchJob& job, const engine::RunResult& r, internal::RecordBuilder* b) {
  for (const SetId& id : BatchSets(job)) {
    const sets::PointSet* s = r.Find(id.set, id.output);
    if (!s) continue;
    const std::string g = SetPath(id) + "/";
    b->Set(g + "net_points", s->net.points);
    b->Set(g + "epsilon", s->net.epsilon);
    b->Set(g + "separation", s->net.separation);
    b->SetInt(g + "coarsenings", s->net.coarsenings);
    b->SetInt(g + "offered", s->net.offered);
    const sets::HullResult& h = s->hull;
    b->SetInt(g + "hull_status", static_cast<std::int64_t>(h.status));
    b->SetInt(g + "hull_dimension", h.dimension);
    b->Set(g + "hull_volume", h.volume);
    b->Set(g + "hull_margin", h.margin);
    b->Set(g + "hull_vertices", h.vertices);
    if (h.status == sets::HullStatus::kComputed) {
      const sets::AmbientFacets facets = sets::ToAmbientFacets(h);
      b->Set(g + "hull_facet_normals", facets.normals);
      b->Set(g + "hull_facet_bounds", facets.bounds);
    }
    if (id.set == sets::SetKind::kPostImpact) {
      const bool known = s->coverage && s->coverage->extent;
      b->Set(g + "extent_moved", known ? s->coverage->extent_moved : kNaN);
      b->SetInt(g + "extent_converged", known && s->coverage->extent_converged ? 1 : 0);
    }
    if (id.set == sets::SetKind::kPostImpact && HasCoverage(job.options) && s->coverage) {
      const sets::CoverageResult& c = *s->coverage;
      b->SetInt(g + "holdout", c.holdout);
      b->SetInt(g + "holdout_not_terminated", c.holdout_not_terminated);
      b->SetInt(g + "missed", c.missed);
      b->Set(g + "missed_mass_upper", c.holdout > 0 ? c.missed_mass_upper : kNaN);
      b->Set(g + "failure_bound", c.lemma1 ? c.failure_bound : kNaN);
    }
  }
}

void FillSummary(const engine::RunResult& r, internal::RecordBuilder* b) {
  const sampling::SampleSummary& s = r.summary;
  const std::string g = "/states/summary/";
  b->SetInt(g + "terminated", s.terminated);
  b->SetInt(g + "step_capped", s.step_capped);
  b->SetInt(g + "lcp_failures", s.lcp_failures);
  b->SetInt(g + "non_physical", s.non_physical);
  b->SetInt(g + "lcp_solves", s.lcp_solves);
  b->SetInt(g + "lcp_fallbacks", s.lcp_fallbacks);
  b->SetInt(g + "non_unique", s.non_unique);
  b->Set(g + "worst_residual", s.worst_residual);
  b->Set(g + "energy_ratio_max", s.energy_ratio_max);
}

}  // namespace

data::StateRecord RunState(const BatchJob& job, long long index) {
  if (job.rollouts) return internal::RunRolloutState(job, index);
  internal::RecordBuilder b(job, index);
  const VectorXd values = job.points.col(index);
  b.Set("/states/parameters", values);
  b["/states/seed"].integers = {
      static_cast<std::int64_t>(StateSeed(job.options.run.sampler.seed, index))};
  auto fail = [&](StateStatus s, const std::string& message) {
    b.SetInt("/states/status", static_cast<std::int64_t>(s));
    b["/states/message"].text = message;
    return b.Take();
  };
  std::optional<systems::LoadedProblem> loaded;
  std::optional<robots::MujocoProblem> model;
  std::vector<sets::OutputMap> outputs;
  try {
    loaded.emplace(LoadState(job.source, job.design.Names(), values, &model));
    outputs = StateOutputs(job.options.outputs, *loaded, model);
  } catch (const std::invalid_argument& e) {
    return fail(StateStatus::kInvalidProblem, e.what());
  }
  const systems::LoadedProblem& lp = *loaded;
  engine::RunOptions options = StateRunOptions(job, lp, index);
  options.set_options.outputs = outputs;
  b.Set("/states/step", options.sampler.algorithm.step);
  b.SetInt("/states/max_steps", options.sampler.algorithm.max_steps);
  const std::string mismatch = Mismatch(job, lp.problem, outputs);
  if (!mismatch.empty()) return fail(StateStatus::kDimensionMismatch, mismatch);
  b.Set("/states/v_minus", lp.problem.v_minus());
  try {
    const engine::RunResult r = engine::Run(lp.problem, options, Label(job.source));
    FillSummary(r, &b);
    FillFeatures(job, outputs, r, &b);
    FillSets(job, r, &b);
    if (r.HasLcpFailures()) {
      return fail(StateStatus::kLcpFailures,
                  std::to_string(r.summary.lcp_failures) + " of " + std::to_string(r.count) +
                      " samples hit an LCP that no solver of the chain solved");
    }
    if (const auto w = engine::PhysicsWarning(r)) return fail(StateStatus::kOk, *w);
  } catch (const std::exception& e) {
    return fail(StateStatus::kFailed, e.what());
  }
  return fail(StateStatus::kOk, "");
}

long long RecordSamples(const BatchJob& job, const data::StateRecord& record) {
  const StateStatus s = RecordStatus(record);
  if (job.rollouts) return s == StateStatus::kOk ? job.rollouts->rollouts : 0;
  return s == StateStatus::kOk || s == StateStatus::kLcpFailures ? job.options.run.sampler.samples
                                                                 : 0;
}

StateStatus RecordStatus(const data::StateRecord& record) {
  return static_cast<StateStatus>(record.cells.at(1).integers.at(0));  // "/states/status"
}

std::string RecordMessage(const data::StateRecord& record) {
  return record.cells.at(2).text;  // "/states/message", the third column of every layout
}

}  // namespace impactset::batch
