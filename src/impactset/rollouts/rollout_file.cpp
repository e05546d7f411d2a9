#include <impactset/rollouts/rollout_file.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <impactset/common/version.hpp>
#include <impactset/rollouts/rollout_options.hpp>

namespace impactset::rollouts {

namespace {

using data::Tree;
using data::TreeArray;

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();  // NaN: no value

// Builds arrays of one group whose first dimension is that group's scale.
class GroupWriter {
 public:
  GroupWriter(Tree* tree, std::string group) : tree_(tree), group_(std::move(group)) {
    tree_->groups.push_back(group_);
  }
  std::string Path(const std::string& name) const { return group_ + "/" + name; }

  // A dimension scale of strings or integers (its own dimension).
  void Scale(const std::string& name, const std::vector<std::string>& labels) {
    TreeArray a{Path(name), TreeArray::Type::kString, {labels.size()}, {}, {}, labels, name, {}};
    tree_->arrays.push_back(std::move(a));
  }
  void Scale(const std::string& name, const std::vector<std::int64_t>& values) {
    TreeArray a{Path(name), TreeArray::Type::kInt64, {values.size()}, {}, values, {}, name, {}};
    tree_->arrays.push_back(std::move(a));
  }
  void Reals(const std::string& name,
             std::vector<std::uint64_t> shape,
             std::vector<double> values,
             std::vector<std::string> dims) {
    tree_->arrays.push_back({Path(name),
                             TreeArray::Type::kFloat64,
                             std::move(shape),
                             std::move(values),
                             {},
                             {},
                             "",
                             Paths(dims)});
  }
  void Integers(const std::string& name,
                const std::vector<std::int64_t>& values,
                const std::string& dim) {
    tree_->arrays.push_back(
        {Path(name), TreeArray::Type::kInt64, {values.size()}, {}, values, {}, "", Paths({dim})});
  }
  void Text(const std::string& name,
            const std::vector<std::string>& values,
            const std::string& dim) {
    tree_->arrays.push_back(
        {Path(name), TreeArray::Type::kString, {values.size()}, {}, {}, values, "", Paths({dim})});
  }
  void Columns(const std::string& name, const std::vector<std::string>& columns) {
    tree_->lists.push_back({Path(name), "columns", columns});
  }

 private:
  std::vector<std::string> Paths(const std::vector<std::string>& dims) const {
    std::vector<std::string> out;
    for (const std::string& d : dims) out.push_back(Path(d));
    return out;
  }
  Tree* tree_;
  std::string group_;
};

// Row-major (R, d) from one vector per row; rows shorter than d (none here) would be an error.
std::vector<double> Rows(const std::vector<const VectorXd*>& rows, Eigen::Index d) {
  std::vector<double> out;
  out.reserve(rows.size() * static_cast<size_t>(d));
  for (const VectorXd* r : rows) {
    for (Eigen::Index j = 0; j < d; ++j) out.push_back(j < r->size() ? (*r)(j) : kMissing);
  }
  return out;
}

// One row per rollout (the baseline's group holds one row, key "mujoco").
void WriteResults(Tree* tree,
                  const std::string& group,
                  const std::vector<const RolloutResult*>& results,
                  const std::vector<std::string>& keys,
                  const robots::SimulationModel& model,
                  const std::vector<std::string>& metric_names) {
  GroupWriter g(tree, group);
  std::vector<std::int64_t> index, events, constrained, solves;
  std::vector<std::string> status, message;
  std::vector<double> time, fastest, metrics;
  std::vector<const VectorXd*> qpos, qvel;
  for (const RolloutResult* r : results) {
    index.push_back(r->index);
    status.emplace_back(EnumName(r->status));
    message.push_back(r->message);
    events.push_back(r->events);
    constrained.push_back(r->constrained_events);
    solves.push_back(r->lcp_solves);
    time.push_back(r->time);
    fastest.push_back(r->fastest_approach);
    qpos.push_back(&r->qpos);
    qvel.push_back(&r->qvel);
    for (size_t j = 0; j < metric_names.size(); ++j) {
      metrics.push_back(j < r->metrics.size() ? r->metrics[j] : kMissing);
    }
  }
  const auto R = static_cast<std::uint64_t>(results.size());
  g.Scale("rollout", index);
  g.Scale("qpos_coordinate", model.qpos_names);
  g.Scale("qvel_coordinate", model.dof_names);
  if (!metric_names.empty()) g.Scale("metric", metric_names);
  g.Text("key", keys, "rollout");
  g.Text("status", status, "rollout");
  g.Text("message", message, "rollout");
  g.Integers("events", events, "rollout");
  g.Integers("constrained_events", constrained, "rollout");
  g.Integers("lcp_solves", solves, "rollout");
  g.Reals("time", {R}, time, {"rollout"});
  g.Reals("fastest_approach", {R}, fastest, {"rollout"});
  const auto nq = static_cast<Eigen::Index>(model.qpos_names.size());
  const auto nv = static_cast<Eigen::Index>(model.dof_names.size());
  g.Reals("qpos", {R, static_cast<std::uint64_t>(nq)}, Rows(qpos, nq),
          {"rollout", "qpos_coordinate"});
  g.Columns("qpos", model.qpos_names);
  g.Reals("qvel", {R, static_cast<std::uint64_t>(nv)}, Rows(qvel, nv),
          {"rollout", "qvel_coordinate"});
  g.Columns("qvel", model.dof_names);
  if (metric_names.empty()) return;  // no zero-width arrays (HDF5 cannot chunk them)
  g.Reals("metrics", {R, metric_names.size()}, metrics, {"rollout", "metric"});
  g.Columns("metrics", metric_names);
}

void WriteMetrics(Tree* tree, const RolloutReport& report, std::uint64_t seed) {
  GroupWriter g(tree, "/metrics");
  std::vector<std::string> names, expressions, argmin, argmax;
  std::vector<std::int64_t> event, counted, true_count;
  std::vector<double> lower, upper, min, mean, max, baseline;
  for (const MetricSummary& given : report.metrics) {
    const MetricSummary s = StoredSummary(given);
    names.push_back(s.name);
    expressions.push_back(s.expression);
    event.push_back(s.is_event ? 1 : 0);
    counted.push_back(s.counted);
    true_count.push_back(s.true_count);
    lower.push_back(s.lower);
    upper.push_back(s.upper);
    min.push_back(s.min);
    mean.push_back(s.mean);
    max.push_back(s.max);
    argmin.push_back(s.argmin >= 0 ? RolloutKey(seed, s.argmin) : "");
    argmax.push_back(s.argmax >= 0 ? RolloutKey(seed, s.argmax) : "");
    baseline.push_back(s.baseline);
  }
  const std::uint64_t K = names.size();
  g.Scale("metric", names);
  g.Text("expression", expressions, "metric");
  g.Integers("is_event", event, "metric");
  g.Integers("counted", counted, "metric");
  g.Integers("true_count", true_count, "metric");
  g.Reals("lower", {K}, lower, {"metric"});
  g.Reals("upper", {K}, upper, {"metric"});
  g.Reals("min", {K}, min, {"metric"});
  g.Reals("mean", {K}, mean, {"metric"});
  g.Reals("max", {K}, max, {"metric"});
  g.Text("argmin", argmin, "metric");
  g.Text("argmax", argmax, "metric");
  g.Reals("baseline", {K}, baseline, {"metric"});
}

// (R, T, nq) and (R, T, nv) with NaN after a rollout's last record; time (R, T) likewise.
void WriteTrajectory(Tree* tree,
                     const RolloutReport& report,
                     const robots::SimulationModel& model) {
  size_t T = 0;
  for (const RolloutResult& r : report.rollouts) T = std::max(T, r.record_time.size());
  GroupWriter g(tree, "/trajectory");
  const auto R = static_cast<std::uint64_t>(report.rollouts.size());
  const size_t nq = model.qpos_names.size(), nv = model.dof_names.size();
  std::vector<std::int64_t> index, record(T);
  for (const RolloutResult& r : report.rollouts) index.push_back(r.index);
  for (size_t t = 0; t < T; ++t) record[t] = static_cast<std::int64_t>(t);
  std::vector<double> time(R * T, kMissing), qpos(R * T * nq, kMissing), qvel(R * T * nv, kMissing);
  for (size_t i = 0; i < report.rollouts.size(); ++i) {
    const RolloutResult& r = report.rollouts[i];
    for (size_t t = 0; t < r.record_time.size(); ++t) {
      time[i * T + t] = r.record_time[t];
      for (size_t j = 0; j < nq; ++j)
        qpos[(i * T + t) * nq + j] = r.record_qpos[t](static_cast<Eigen::Index>(j));
      for (size_t j = 0; j < nv; ++j)
        qvel[(i * T + t) * nv + j] = r.record_qvel[t](static_cast<Eigen::Index>(j));
    }
  }
  g.Scale("rollout", index);
  g.Scale("record", record);
  g.Scale("qpos_coordinate", model.qpos_names);
  g.Scale("qvel_coordinate", model.dof_names);
  g.Reals("time", {R, T}, time, {"rollout", "record"});
  g.Reals("qpos", {R, T, nq}, qpos, {"rollout", "record", "qpos_coordinate"});
  g.Columns("qpos", model.qpos_names);
  g.Reals("qvel", {R, T, nv}, qvel, {"rollout", "record", "qvel_coordinate"});
  g.Columns("qvel", model.dof_names);
}

}  // namespace

MetricSummary StoredSummary(const MetricSummary& summary) {
  MetricSummary s = summary;
  if (!s.is_event) {
    s.true_count = 0;
    s.lower = s.upper = kMissing;
  }
  if (s.counted == 0) {
    s.min = s.mean = s.max = kMissing;
    s.argmin = s.argmax = -1;
  }
  return s;
}

data::Tree RolloutTree(const robots::SimulationModel& model,
                       const RolloutOptions& options,
                       const RolloutReport& report) {
  Tree tree;
  auto attr = [&tree](const std::string& group, const std::string& name, data::AttributeValue v) {
    tree.attributes.push_back({group, name, std::move(v)});
  };
  attr("/", "file_kind", std::string("rollouts"));
  attr("/", "schema_version", static_cast<std::int64_t>(kRolloutSchemaVersion));
  attr("/", "impactset_version", std::string(IMPACTSET_VERSION));
  attr("/", "model", model.label);
  attr("/", "timestep", model.timestep);
  attr("/", "controls", std::string(EnumName(options.controls)));
  attr("/", "ok", static_cast<std::int64_t>(report.ok));
  attr("/", "diverged", static_cast<std::int64_t>(report.diverged));
  attr("/", "impact_failed", static_cast<std::int64_t>(report.impact_failed));
  attr("/", "events", static_cast<std::int64_t>(report.events));
  tree.groups.push_back("/options");
  for (const RolloutOptionField& f : RolloutOptionFields()) {
    if (!f.stored) continue;
    if (const std::string v = f.get(options); !v.empty()) attr("/options", std::string(f.name), v);
  }
  std::vector<std::string> metric_names;
  for (const MetricSummary& s : report.metrics) metric_names.push_back(s.name);
  std::vector<const RolloutResult*> all;
  std::vector<std::string> keys;
  for (const RolloutResult& r : report.rollouts) {
    all.push_back(&r);
    keys.push_back(RolloutKey(options.seed, r.index));
  }
  WriteResults(&tree, "/rollouts", all, keys, model, metric_names);
  if (report.baseline)
    WriteResults(&tree, "/baseline", {&*report.baseline}, {"mujoco"}, model, metric_names);
  if (!report.metrics.empty()) WriteMetrics(&tree, report, options.seed);
  if (options.record_every > 0) WriteTrajectory(&tree, report, model);
  return tree;
}

void WriteRollouts(const std::string& path,
                   const robots::SimulationModel& model,
                   const RolloutOptions& options,
                   const RolloutReport& report) {
  data::WriteTree(path, RolloutTree(model, options, report));
}

}  // namespace impactset::rollouts
