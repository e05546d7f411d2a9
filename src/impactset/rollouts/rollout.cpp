#include <impactset/rollouts/rollout.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>

#include <impactset/common/error_policy.hpp>
#include <impactset/common/parse_number.hpp>
#include <impactset/engine/step_scaling.hpp>
#include <impactset/impact/algorithm1.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/rollouts/metric.hpp>
#include <impactset/sampling/parallel.hpp>
#include <impactset/sampling/streams.hpp>
#include <impactset/setapprox/coverage.hpp>

namespace impactset::rollouts {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string Text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

// One event's post-impact velocity: Algorithm 1 from the event's own streams, h scaled to the
// impact (engine::ImpulseScale), N = kScaledStepCeiling; a capped sample is drawn again with h
// grown kStepPilotGrowth-fold, as the step rule's pilot grows it.
struct EventOutcome {
  bool ok = false;
  VectorXd v_plus;
  int solves = 0;
  std::string message;
};

// The event's own stream, with the entries a search sets (step s's p_i is first(s m + i) while
// that entry exists) in place of the stream's: the stream advances as without them.
class SetPSource final : public impact::PSource {
 public:
  SetPSource(std::uint64_t key, int event, const VectorXd* set)
      : stream_(key, static_cast<std::uint64_t>(event)), set_(set) {}
  void Next(int step, Eigen::Ref<VectorXd> p) override {
    stream_.Next(step, p);
    if (!set_) return;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
      const Eigen::Index at = static_cast<Eigen::Index>(step) * p.size() + i;
      if (at < set_->size()) p(i) = (*set_)(at);
    }
  }

 private:
  sampling::IidPSource stream_;
  const VectorXd* set_;
};

EventOutcome SampleEvent(const impact::ImpactProblem& problem,
                         std::uint64_t key,
                         int event,
                         const VectorXd* set) {
  EventOutcome out;
  const double impulse = engine::ImpulseScale(problem);
  impact::Algorithm1Options o;
  o.step = impulse > 0 ? 2 * impulse / engine::kScaledSteps : engine::kDefaultStep;
  o.max_steps = engine::kScaledStepCeiling;
  lcp::FallbackSolver solver;
  for (int round = 0; round <= engine::kStepPilotRounds; ++round) {
    impact::RouthSampler sampler(problem, o, &solver);
    SetPSource p(key, event, set);
    sampling::SampleChoices choices(key, static_cast<std::uint64_t>(event));
    const impact::SampleResult& r = sampler.Run(p, &choices);
    out.solves += r.lcp_solves;
    if (r.status == impact::SampleStatus::kTerminated) {
      out.ok = true;
      out.v_plus = r.v_plus;
      return out;
    }
    if (r.status == impact::SampleStatus::kLcpFailure) {
      out.message = "event " + std::to_string(event) + ": a step LCP had no accepted solution";
      return out;
    }
    if (r.status == impact::SampleStatus::kNonPhysical) {
      out.message = "event " + std::to_string(event) +
                    ": the impact ended in a non-physical state (" + r.outcome.Describe() + ")";
      return out;
    }
    o.step *= engine::kStepPilotGrowth;
  }
  out.message = "event " + std::to_string(event) + ": still colliding after " +
                std::to_string(o.max_steps) + " steps at every step size tried";
  return out;
}

// The values RolloutVariables names, at the simulation's current state.
void Frame(const robots::MujocoSimulation& sim, int events, VectorXd* frame) {
  const auto q = sim.qpos();
  const auto v = sim.qvel();
  const Eigen::Vector3d com = sim.com();
  frame->resize(2 + q.size() + v.size() + 3);
  (*frame)(0) = sim.time();
  (*frame)(1) = events;
  frame->segment(2, q.size()) = q;
  frame->segment(2 + q.size(), v.size()) = v;
  frame->tail<3>() = com;
}

VectorXd StartControls(const robots::SimulationModel& model, const RolloutOptions& o) {
  return o.controls == Controls::kConstant ? o.ctrl : model.ctrl;
}

// The controls for the coming step (kKeyframe and kConstant keep those set at the start).
void UpdateControls(const robots::SimulationModel& model,
                    const RolloutOptions& o,
                    robots::MujocoSimulation* sim) {
  if (o.controls == Controls::kPdPosture) {
    sim->SetControl(
        robots::PostureControl(model, model.qpos, sim->qpos(), sim->qvel(), o.pd_kp, o.pd_kd));
  } else if (o.controls == Controls::kPolicy) {
    const VectorXd u = o.policy(sim->time(), sim->qpos(), sim->qvel());
    if (u.size() != static_cast<Eigen::Index>(model.actuator_names.size()) || !u.allFinite()) {
      InvalidArgument(
          "policy",
          std::to_string(u.size()) + " values" + (u.allFinite() ? "" : " (not all finite)"),
          "must return nu = " + std::to_string(model.actuator_names.size()) + " finite controls");
    }
    sim->SetControl(u);
  }
}

long long StepCount(const robots::SimulationModel& model, double horizon) {
  return std::max(1LL, std::llround(horizon / model.timestep));
}

// One impact event at the simulation's state: the problem there, one Algorithm-1 sample from the
// rollout's stream (with the entries a search sets for this event, if any), v+ set; a failure is
// r's status.
void ResolveEvent(robots::MujocoSimulation& sim,
                  std::uint64_t key,
                  const std::vector<VectorXd>* draws,
                  RolloutResult* r) {
  try {
    const robots::ImpactHere here = sim.Impact();
    const auto event = static_cast<size_t>(r->events);
    const VectorXd* set = draws && event < draws->size() ? &(*draws)[event] : nullptr;
    const EventOutcome e = SampleEvent(here.problem, key, r->events, set);
    r->lcp_solves += e.solves;
    if (!e.ok) {
      r->status = RolloutStatus::kImpactFailed;
      r->message = e.message;
      return;
    }
    if (r->events == 0) r->first_event_contacts = here.problem.m();
    sim.SetVelocity(e.v_plus);
    sim.ReleaseSeparatingContacts();
    r->constrained_events += here.constraints_left_out ? 1 : 0;
    ++r->events;
  } catch (const std::invalid_argument& e) {  // a state MuJoCo gives no valid problem at
    r->status = RolloutStatus::kImpactFailed;
    r->message = "event " + std::to_string(r->events) + ": " + e.what();
  }
}

void Record(const robots::MujocoSimulation& sim, RolloutResult* r) {
  r->record_time.push_back(sim.time());
  r->record_qpos.emplace_back(sim.qpos());
  r->record_qvel.emplace_back(sim.qvel());
}

// Rollout `index` on `sim` (Reset here): the loop of docs/rollouts.md.
RolloutResult Simulate(robots::MujocoSimulation& sim,
                       const robots::SimulationModel& model,
                       const RolloutOptions& o,
                       const std::vector<Metric>& metrics,
                       long long index,
                       ImpactModel impact,
                       const std::vector<VectorXd>* draws = nullptr) {
  RolloutResult r;
  r.index = index;
  sim.Reset(model.qpos, model.qvel, StartControls(model, o));
  const std::uint64_t key =
      sampling::Mix64(o.seed ^ sampling::Mix64(static_cast<std::uint64_t>(index)));
  std::vector<MetricState> states;
  for (const Metric& m : metrics) states.push_back(m.Start());
  VectorXd frame;
  const long long steps = StepCount(model, o.horizon);
  try {
    for (long long s = 0; s < steps && r.status == RolloutStatus::kOk; ++s) {
      const double speed = sim.Prepare();
      r.fastest_approach = std::max(r.fastest_approach, speed);
      if (impact == ImpactModel::kRouth && speed > o.impact_speed) {
        ResolveEvent(sim, key, draws, &r);
        if (r.status != RolloutStatus::kOk) break;
      }
      Frame(sim, r.events, &frame);
      for (MetricState& m : states) m.Observe(frame);
      if (o.record_every > 0 && s % o.record_every == 0) Record(sim, &r);
      UpdateControls(model, o, &sim);
      if (!sim.Advance()) {
        r.status = RolloutStatus::kDiverged;
        r.message = sim.Divergence();
      }
    }
    if (r.status == RolloutStatus::kOk) sim.Prepare();  // the final state's kinematics (com)
  } catch (const std::runtime_error& e) {  // MuJoCo's own errors (robots::MujocoSimulation)
    r.status = RolloutStatus::kDiverged;
    r.message = "MuJoCo error before t = " + Text(sim.time()) + ": " + e.what();
  }
  r.time = sim.time();
  r.qpos = sim.qpos();
  r.qvel = sim.qvel();
  if (r.status != RolloutStatus::kOk) {
    r.metrics.assign(metrics.size(), kNaN);
    return r;
  }
  Frame(sim, r.events, &frame);
  for (size_t i = 0; i < metrics.size(); ++i) {
    states[i].Observe(frame);
    r.metrics.push_back(states[i].Value(frame));
  }
  if (o.record_every > 0) Record(sim, &r);
  return r;
}

std::vector<Metric> ParseMetrics(const robots::SimulationModel& model, const RolloutOptions& o) {
  const std::vector<std::string> variables = RolloutVariables(model);
  std::vector<Metric> out;
  for (const std::string& spec : o.metrics) {
    out.push_back(ParseMetric(spec, variables));
    for (size_t j = 0; j + 1 < out.size(); ++j) {
      if (out[j].name() == out.back().name()) {
        InvalidArgument("metrics", spec, "the name '" + out.back().name() + "' is given twice");
      }
    }
  }
  return out;
}

// Simulations reused across rollouts (a copy of the model and its data each): taken by a
// rollout, given back after it; which one a rollout gets does not change its result (Reset).
class SimulationPool {
 public:
  explicit SimulationPool(const robots::SimulationModel& model) : model_(model) {}
  std::unique_ptr<robots::MujocoSimulation> Take() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        std::unique_ptr<robots::MujocoSimulation> s = std::move(free_.back());
        free_.pop_back();
        return s;
      }
    }
    return std::make_unique<robots::MujocoSimulation>(model_);
  }
  void Give(std::unique_ptr<robots::MujocoSimulation> s) {
    const std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(s));
  }

 private:
  const robots::SimulationModel& model_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<robots::MujocoSimulation>> free_;
};

MetricSummary Summarise(const Metric& metric,
                        size_t column,
                        const std::vector<RolloutResult>& results,
                        const std::optional<RolloutResult>& baseline,
                        double delta) {
  MetricSummary s;
  s.name = metric.name();
  s.expression = metric.expression();
  s.is_event = metric.is_event();
  s.baseline =
      baseline && baseline->status == RolloutStatus::kOk ? baseline->metrics[column] : kNaN;
  double sum = 0;
  for (const RolloutResult& r : results) {
    if (r.status != RolloutStatus::kOk) continue;
    const double x = r.metrics[column];
    if (s.counted == 0 || x < s.min) s.min = x, s.argmin = r.index;
    if (s.counted == 0 || x > s.max) s.max = x, s.argmax = r.index;
    sum += x;
    s.true_count += x != 0 ? 1 : 0;
    ++s.counted;
  }
  s.mean = s.counted > 0 ? sum / static_cast<double>(s.counted) : kNaN;
  if (s.is_event && s.counted > 0) {
    s.upper = setapprox::ComputeHoldoutBound(s.counted, s.true_count, delta).missed_mass_upper;
    s.lower = 1 - setapprox::ComputeHoldoutBound(s.counted, s.counted - s.true_count, delta)
                      .missed_mass_upper;
  }
  return s;
}

}  // namespace

std::vector<std::string> MetricNames(const RolloutOptions& options) {
  std::vector<std::string> names;
  for (const std::string& spec : options.metrics) names.push_back(MetricName(spec));
  return names;
}

std::vector<std::string> RolloutVariables(const robots::SimulationModel& model) {
  std::vector<std::string> v{"t", "events"};
  v.insert(v.end(), model.qpos_names.begin(), model.qpos_names.end());
  for (const std::string& d : model.dof_names) v.push_back("qvel:" + d);
  for (const char* c : {"com:x", "com:y", "com:z"}) v.emplace_back(c);
  return v;
}

void RolloutOptions::Validate(const robots::SimulationModel& model) const {
  if (!(horizon > 0) || !std::isfinite(horizon)) {
    InvalidArgument("horizon", horizon, "must be > 0 and finite (seconds)");
  }
  if (!(impact_speed > 0)) InvalidArgument("impact_speed", impact_speed, "must be > 0 (m/s)");
  if (rollouts < 1) InvalidArgument("rollouts", rollouts, "must be >= 1");
  if (threads < 0) InvalidArgument("threads", threads, "must be >= 0 (0: every core)");
  if (record_every < 0) InvalidArgument("record_every", record_every, "must be >= 0 (0: none)");
  if (!(delta > 0 && delta < 1)) InvalidArgument("delta", delta, "must be in (0, 1)");
  const auto nu = static_cast<Eigen::Index>(model.actuator_names.size());
  const bool drives = controls != Controls::kKeyframe;
  if (drives && nu == 0) {
    InvalidArgument("controls", EnumName(controls),
                    "the model has no actuators (" + model.label + ": nu = 0)");
  }
  if (controls == Controls::kConstant && (ctrl.size() != nu || !ctrl.allFinite())) {
    InvalidArgument(
        "ctrl", std::to_string(ctrl.size()) + " values",
        "must be nu = " + std::to_string(nu) + " finite values (actuators of " + model.label + ")");
  }
  if (controls == Controls::kPdPosture) {
    if (!(pd_kp >= 0) || !std::isfinite(pd_kp))
      InvalidArgument("pd_kp", pd_kp, "must be >= 0 and finite");
    if (!(pd_kd >= 0) || !std::isfinite(pd_kd))
      InvalidArgument("pd_kd", pd_kd, "must be >= 0 and finite");
    if (std::none_of(model.posture_actuators.begin(), model.posture_actuators.end(),
                     [](bool b) { return b; })) {
      InvalidArgument("controls", EnumName(controls),
                      "no actuator of " + model.label +
                          " is a motor or position servo on a hinge or slide joint");
    }
  }
  if (controls == Controls::kPolicy && !policy) {
    InvalidArgument("policy", "none", "controls = policy needs a policy function");
  }
  ParseMetrics(model, *this);
}

RolloutResult RunRollout(const robots::SimulationModel& model,
                         const RolloutOptions& options,
                         long long index,
                         ImpactModel impact) {
  options.Validate(model);
  if (index < 0) InvalidArgument("index", index, "must be >= 0");
  robots::MujocoSimulation sim(model);
  return Simulate(sim, model, options, ParseMetrics(model, options), index, impact);
}

std::vector<RolloutResult> RunRolloutIndices(const robots::SimulationModel& model,
                                             const RolloutOptions& options,
                                             const std::vector<long long>& indices) {
  return RunRolloutsWithDraws(model, options, indices, {});
}

std::vector<RolloutResult> RunRolloutsWithDraws(const robots::SimulationModel& model,
                                                const RolloutOptions& options,
                                                const std::vector<long long>& indices,
                                                const std::vector<std::vector<VectorXd>>& draws) {
  options.Validate(model);
  if (!draws.empty() && draws.size() != indices.size()) {
    InvalidArgument("draws", std::to_string(draws.size()) + " rollouts' entries",
                    "must be one per rollout (" + std::to_string(indices.size()) + ") or none");
  }
  const std::vector<Metric> metrics = ParseMetrics(model, options);
  std::vector<RolloutResult> out(indices.size());
  SimulationPool pool(model);
  sampling::ParallelFor(static_cast<long long>(indices.size()), options.threads, [&](long long j) {
    const auto k = static_cast<size_t>(j);
    std::unique_ptr<robots::MujocoSimulation> sim = pool.Take();
    out[k] = Simulate(*sim, model, options, metrics, indices[k], ImpactModel::kRouth,
                      draws.empty() ? nullptr : &draws[k]);
    pool.Give(std::move(sim));
  });
  return out;
}

RolloutReport CompleteRollouts(const robots::SimulationModel& model,
                               const RolloutOptions& options,
                               std::vector<RolloutResult> rollouts) {
  const std::vector<Metric> metrics = ParseMetrics(model, options);
  RolloutReport report;
  report.rollouts = std::move(rollouts);
  if (options.baseline) report.baseline = RunRollout(model, options, 0, ImpactModel::kMujoco);
  double fastest = 0;
  for (const RolloutResult& r : report.rollouts) {
    (r.status == RolloutStatus::kOk         ? report.ok
     : r.status == RolloutStatus::kDiverged ? report.diverged
                                            : report.impact_failed) += 1;
    report.events += r.events;
    fastest = std::max(fastest, r.fastest_approach);
  }
  for (size_t j = 0; j < metrics.size(); ++j) {
    report.metrics.push_back(
        Summarise(metrics[j], j, report.rollouts, report.baseline, options.delta));
  }
  if (report.events == 0) {
    report.warnings.push_back(
        "no impact event in any rollout: no contact approached faster than "
        "impact_speed = " +
        Text(options.impact_speed) + " m/s (the fastest approach seen: " + Text(fastest) +
        " m/s); every rollout is MuJoCo's own");
  }
  if (report.ok == 0) {
    report.warnings.push_back("no rollout reached the horizon: the metrics count none");
  }
  return report;
}

RolloutReport RunRollouts(const robots::SimulationModel& model, const RolloutOptions& options) {
  options.Validate(model);
  const auto start = std::chrono::steady_clock::now();
  std::vector<long long> all(static_cast<size_t>(options.rollouts));
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<long long>(i);
  RolloutReport report = CompleteRollouts(model, options, RunRolloutIndices(model, options, all));
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

std::string RolloutKey(std::uint64_t seed, long long index) {
  return std::to_string(seed) + "/" + std::to_string(index);
}

std::pair<std::uint64_t, long long> ParseRolloutKey(const std::string& key) {
  const size_t slash = key.find('/');
  const std::string rule = "must be SEED/INDEX (two whole numbers >= 0, as the summary prints)";
  if (slash == std::string::npos) InvalidArgument("replay", key, rule);
  long long seed = -1, index = -1;
  try {  // the one number reader (common/parse_number.hpp), as --seed reads the seed
    seed = ParseInteger(std::string_view(key).substr(0, slash), "seed");
    index = ParseInteger(std::string_view(key).substr(slash + 1), "index");
  } catch (const std::invalid_argument&) {
  }
  if (seed < 0 || index < 0) InvalidArgument("replay", key, rule);
  return {static_cast<std::uint64_t>(seed), index};
}

}  // namespace impactset::rollouts
