// A batch of rollouts: every state of a MuJoCo source is the start of rollouts::RunRollouts; its
// counts, metric summaries and per-rollout values are stored by state in a batch file.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <impactset/batch/batch.hpp>
#include <impactset/batch/internal/batch_layout.hpp>
#include <impactset/common/enum_names.hpp>
#include <impactset/common/error_policy.hpp>
#include <impactset/engine/option_table.hpp>
#include <impactset/rollouts/metric.hpp>
#include <impactset/rollouts/rollout_file.hpp>
#include <impactset/rollouts/rollout_options.hpp>

namespace impactset::batch {

namespace {

using data::ColumnSpec;
using data::ColumnType;
using V = data::AttributeValue;

// Per state: the counts over its rollouts (a run's /states/summary in rollout terms).
constexpr const char* kSummary[] = {"ok",     "diverged",           "impact_failed",
                                    "events", "constrained_events", "lcp_solves"};
// Per state and metric: the summary (rollouts::MetricSummary); integers, then reals.
constexpr const char* kMetricIntegers[] = {"counted", "true_count", "argmin", "argmax"};
constexpr const char* kMetricReals[] = {"lower", "upper", "min", "mean", "max", "baseline"};

std::string MetricGroup(const std::string& name) { return "/metrics/" + name + "/"; }
std::string MetricValues(const std::string& name) { return "/rollouts/metrics/" + name; }

std::vector<ColumnSpec> RolloutColumns(const BatchJob& job) {
  const auto p = static_cast<std::int64_t>(job.points.rows());
  const auto nq = static_cast<std::int64_t>(job.qpos_names.size());
  const auto nv = static_cast<std::int64_t>(job.velocity_names.size());
  const std::int64_t R = job.rollouts->rollouts;
  std::vector<ColumnSpec> cols = {{"/states/parameters", ColumnType::kFloat64, p},
                                  {"/states/status", ColumnType::kInt64, 1, true},
                                  {"/states/message", ColumnType::kString, 1, true},
                                  {"/states/seed", ColumnType::kUInt64, 1, true},
                                  {"/states/qpos", ColumnType::kFloat64, nq},
                                  {"/states/qvel", ColumnType::kFloat64, nv}};
  for (const char* s : kSummary) {
    cols.push_back({std::string("/states/summary/") + s, ColumnType::kInt64, 1, true});
  }
  cols.push_back({"/rollouts/status", ColumnType::kInt64, R});
  cols.push_back({"/rollouts/events", ColumnType::kInt64, R});
  for (const std::string& m : job.metric_names) {
    cols.push_back({MetricValues(m), ColumnType::kFloat64, R});
  }
  for (const std::string& m : job.metric_names) {
    for (const char* s : kMetricIntegers) {
      cols.push_back({MetricGroup(m) + s, ColumnType::kInt64, 1, true});
    }
    for (const char* s : kMetricReals) {
      cols.push_back({MetricGroup(m) + s, ColumnType::kFloat64, 1, true});
    }
  }
  return cols;
}

// The options a batch of rollouts stores (and resume compares): the batch's own that apply, the
// rollout options' stored rows, and each metric's expression and kind.
std::vector<data::Attribute> RolloutAttributes(const BatchJob& job,
                                               const std::vector<rollouts::Metric>& metrics,
                                               double timestep) {
  std::vector<data::Attribute> a;
  for (data::Attribute& x : engine::BatchOptionAttributes(job.options)) {
    if (std::find(kRolloutBatchOptions.begin(), kRolloutBatchOptions.end(), x.name) !=
        kRolloutBatchOptions.end()) {
      a.push_back(std::move(x));
    }
  }
  a.push_back({"/", "per_state", V{std::string("rollouts")}});
  a.push_back({"/", "timestep", V{timestep}});
  a.push_back({"/", "controls", V{std::string(EnumName(job.rollouts->controls))}});
  for (const rollouts::RolloutOptionField& f : rollouts::RolloutOptionFields()) {
    if (!f.stored || !f.in_batch) continue;
    if (const std::string v = f.get(*job.rollouts); !v.empty()) {
      a.push_back({"/options", std::string(f.name), V{v}});
    }
  }
  for (const rollouts::Metric& m : metrics) {
    a.push_back({"/metrics/" + m.name(), "expression", V{m.expression()}});
    a.push_back(
        {"/metrics/" + m.name(), "is_event", V{static_cast<std::int64_t>(m.is_event() ? 1 : 0)}});
  }
  return a;
}

void AddRolloutLayout(BatchJob* job) {
  data::BatchFile& h = job->header;
  internal::AddDesignConstants(job);
  h.scales.push_back({"/states/qpos_coordinate", job->qpos_names});
  h.scales.push_back({"/states/qvel_coordinate", job->velocity_names});
  h.scales.push_back({"/rollouts/rollout", {}, job->rollouts->rollouts});
  h.scales.push_back({"/rollouts/status_names", EnumNameList<rollouts::RolloutStatus>()});
  // The metrics' names in the order given (the groups /metrics/NAME list alphabetically).
  if (!job->metric_names.empty()) h.names.push_back({"/rollouts/metric_names", job->metric_names});
  const std::string state = data::kStateScale;
  for (const ColumnSpec& c : job->columns) {
    if (c.scalar || c.type == ColumnType::kString) {
      h.dimensions.push_back({c.path, {state}});
    } else if (c.path == "/states/parameters") {
      h.dimensions.push_back({c.path, {state, "/states/parameter"}});
    } else if (c.path == "/states/qpos" || c.path == "/states/qvel") {
      h.dimensions.push_back({c.path, {state, c.path + "_coordinate"}});
    } else {
      h.dimensions.push_back({c.path, {state, "/rollouts/rollout"}});
    }
  }
  h.descriptions.push_back(
      {"/states/qpos", "the state's start: the base qpos with its parameters"});
  h.descriptions.push_back(
      {"/states/qvel", "the state's start: the base qvel with its parameters"});
  h.descriptions.push_back({"/states/seed",
                            "the state's rollout seed: Mix64(Mix64(seed) + index); rollout r "
                            "of the state replays as `impactset rollout ... --seed SEED "
                            "--replay SEED/r` from /states/qpos and /states/qvel"});
  h.descriptions.push_back({"/states/summary", "per state: its rollouts' statuses and events"});
  h.descriptions.push_back(
      {"/rollouts", "per state and rollout (in index order): status code, events, metrics"});
  h.descriptions.push_back(
      {"/metrics", "per state and metric: counts, bounds and extremes over its ok rollouts"});
}

// The first state whose model loads: it fixes the sizes and validates the options.
robots::SimulationModel FirstModel(const MujocoSource& source, const BatchJob& job) {
  std::string first_error;
  const std::vector<std::string> names = job.design.Names();
  for (Eigen::Index i = 0; i < job.points.cols(); ++i) {
    try {
      return LoadSimulationState(source, names, job.points.col(i));
    } catch (const std::invalid_argument& e) {
      if (first_error.empty()) first_error = e.what();
    }
  }
  throw std::invalid_argument("rollouts: no state of the design loads (state 0: " + first_error +
                              ")");
}

void FillSummary(const rollouts::RolloutReport& r, internal::RecordBuilder* b) {
  std::int64_t constrained = 0, solves = 0;
  for (const rollouts::RolloutResult& x : r.rollouts) {
    constrained += x.constrained_events;
    solves += x.lcp_solves;
  }
  const std::int64_t values[] = {r.ok, r.diverged, r.impact_failed, r.events, constrained, solves};
  for (size_t k = 0; k < std::size(kSummary); ++k) {
    b->SetInt(std::string("/states/summary/") + kSummary[k], values[k]);
  }
}

void FillRollouts(const BatchJob& job,
                  const rollouts::RolloutReport& r,
                  internal::RecordBuilder* b) {
  std::vector<std::int64_t> status, events;
  for (const rollouts::RolloutResult& x : r.rollouts) {
    status.push_back(static_cast<std::int64_t>(x.status));
    events.push_back(x.events);
  }
  (*b)["/rollouts/status"].integers = status;
  (*b)["/rollouts/events"].integers = events;
  for (size_t m = 0; m < job.metric_names.size(); ++m) {
    std::vector<double>& v = (*b)[MetricValues(job.metric_names[m])].values;
    for (size_t i = 0; i < r.rollouts.size(); ++i) v[i] = r.rollouts[i].metrics.at(m);
  }
  for (size_t m = 0; m < r.metrics.size(); ++m) {
    const rollouts::MetricSummary s = rollouts::StoredSummary(r.metrics[m]);
    const std::string g = MetricGroup(job.metric_names[m]);
    const std::int64_t ints[] = {s.counted, s.true_count, s.argmin, s.argmax};
    const double reals[] = {s.lower, s.upper, s.min, s.mean, s.max, s.baseline};
    for (size_t k = 0; k < std::size(kMetricIntegers); ++k)
      b->SetInt(g + kMetricIntegers[k], ints[k]);
    for (size_t k = 0; k < std::size(kMetricReals); ++k) b->Set(g + kMetricReals[k], reals[k]);
  }
}

// What the state said besides its counts: the report's warnings (no impact event at all, ...).
std::string Warnings(const rollouts::RolloutReport& r) {
  std::string text;
  for (const std::string& w : r.warnings) text += (text.empty() ? "" : "; ") + w;
  return text;
}

}  // namespace

BatchJob MakeRolloutBatchJob(const StateSource& given,
                             const StateDesign& design,
                             const engine::BatchOptions& options,
                             const rollouts::RolloutOptions& rollout_options) {
  if (!std::holds_alternative<MujocoSource>(given)) {
    InvalidArgument("source", KindName(given),
                    "a batch of rollouts needs a MuJoCo model (--mujoco, or a MuJoCo scene)");
  }
  options.Validate();
  design.Validate();
  BatchJob job;
  job.source = ResolveMujocoSource(given);
  CheckParameters(job.source, design.Names());
  job.design = design;
  job.options = options;
  job.points = design.Points();
  rollouts::RolloutOptions& o = job.rollouts.emplace(rollout_options);
  o.seed = options.run.sampler.seed;  // each state's is StateSeed(seed, i)
  o.threads = options.run.sampler.threads;
  o.delta = options.run.set_options.delta;
  o.record_every = 0;
  const robots::SimulationModel model = FirstModel(std::get<MujocoSource>(job.source), job);
  o.Validate(model);
  std::vector<rollouts::Metric> metrics;
  for (const std::string& spec : o.metrics) {
    metrics.push_back(rollouts::ParseMetric(spec, rollouts::RolloutVariables(model)));
    job.metric_names.push_back(metrics.back().name());
  }
  job.qpos_names = model.qpos_names;
  job.velocity_names = model.dof_names;
  job.velocity_dimension = static_cast<int>(model.dof_names.size());
  job.columns = RolloutColumns(job);
  job.header.columns = job.columns;
  internal::AddJobAttributes(&job, RolloutAttributes(job, metrics, model.timestep));
  AddRolloutLayout(&job);
  return job;
}

namespace internal {

data::StateRecord RunRolloutState(const BatchJob& job, long long index) {
  RecordBuilder b(job, index);
  const VectorXd values = job.points.col(index);
  const std::uint64_t seed = StateSeed(job.options.run.sampler.seed, index);
  b.Set("/states/parameters", values);
  b["/states/seed"].integers = {static_cast<std::int64_t>(seed)};
  for (const std::string& m : job.metric_names) {
    b.SetInt(MetricGroup(m) + "argmin", -1);
    b.SetInt(MetricGroup(m) + "argmax", -1);
  }
  auto done = [&](StateStatus s, const std::string& message) {
    b.SetInt("/states/status", static_cast<std::int64_t>(s));
    b["/states/message"].text = message;
    return b.Take();
  };
  std::optional<robots::SimulationModel> model;
  try {
    model.emplace(
        LoadSimulationState(std::get<MujocoSource>(job.source), job.design.Names(), values));
  } catch (const std::invalid_argument& e) {
    return done(StateStatus::kInvalidProblem, e.what());
  }
  if (model->qpos.size() != static_cast<Eigen::Index>(job.qpos_names.size()) ||
      model->qvel.size() != job.velocity_dimension) {
    return done(StateStatus::kDimensionMismatch, "nq or nv differs from the batch's");
  }
  b.Set("/states/qpos", model->qpos);
  b.Set("/states/qvel", model->qvel);
  rollouts::RolloutOptions o = *job.rollouts;
  o.seed = seed;
  try {
    const rollouts::RolloutReport r = rollouts::RunRollouts(*model, o);
    FillSummary(r, &b);
    FillRollouts(job, r, &b);
    return done(StateStatus::kOk, Warnings(r));
  } catch (const std::exception& e) {
    return done(StateStatus::kFailed, e.what());
  }
}

}  // namespace internal

}  // namespace impactset::batch
