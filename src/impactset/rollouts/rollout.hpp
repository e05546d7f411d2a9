#pragma once
// Set-valued rollouts (docs/rollouts.md): a MuJoCo model simulated by MuJoCo's own stepping up to
// a horizon, with every impact event resolved by one Algorithm-1 sample of the impact problem at
// that state instead of MuJoCo's soft contact. Many rollouts sample what the robot, under its
// controller, may do after its impacts; user metrics count outcomes with confidence bounds.
//
//   const robots::SimulationModel model = robots::LoadSimulationModel("humanoid.xml", {});
//   rollouts::RolloutOptions o;
//   o.horizon = 1.0;
//   o.controls = rollouts::Controls::kPdPosture;  // hold the start's joint angles
//   o.pd_kp = 100;
//   o.pd_kd = 10;
//   o.metrics = {"fell=min(com:z) < 0.6"};
//   const rollouts::RolloutReport r = rollouts::RunRollouts(model, o);
//   // r.metrics[0]: how many of r.rollouts.size() fell, and P(fell) <= upper at 1 - delta
//
// Rollout i's draws come from (seed, i, event index) alone: the results are the same at any
// thread count, and rollout i is replayed by RunRollout(model, options, i).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/common/enum_names.hpp>
#include <impactset/robots/mujoco_simulation.hpp>

namespace impactset::rollouts {

/// The speed (m/s) above which a contact's approach is an impact event: well above what MuJoCo's
/// soft contacts leave on resting contacts (gravity x timestep is 0.05 m/s at 5 ms) and below
/// the speeds of a landing or a heel strike (0.3 - 1 m/s).
inline constexpr double kDefaultImpactSpeed = 0.1;
/// The confidence of the bounds on event metrics: 1 - kDefaultDelta.
inline constexpr double kDefaultDelta = 0.05;

/// What drives the actuators.
enum class Controls {
  kKeyframe,   ///< the start keyframe's ctrl, held (position servos then hold a posture)
  kConstant,   ///< RolloutOptions::ctrl, held
  kPdPosture,  ///< robots::PostureControl holding the start's joint angles (pd_kp, pd_kd)
  kPolicy      ///< RolloutOptions::policy (library and Python only)
};
IMPACTSET_ENUM_NAMES(Controls,
                     "controls",
                     {E::kKeyframe, "keyframe"},
                     {E::kConstant, "constant"},
                     {E::kPdPosture, "pd_posture"},
                     {E::kPolicy, "policy"})

/// How impacts are resolved.
enum class ImpactModel {
  kRouth,  ///< impact events replaced by one Algorithm-1 sample each (the set-valued rollout)
  kMujoco  ///< MuJoCo's own contact throughout (the baseline: one outcome)
};
IMPACTSET_ENUM_NAMES(ImpactModel, "impact model", {E::kRouth, "routh"}, {E::kMujoco, "mujoco"})

/// A controller: ctrl (nu) from the time and the state. Called from several threads at once.
using Policy = std::function<VectorXd(double t, const VectorXd& qpos, const VectorXd& qvel)>;

struct RolloutOptions {
  double horizon = 1.0;  ///< T, seconds simulated. > 0 and finite.
  /// A contact within the model's contact margin approaching faster than this (m/s) makes an
  /// impact event. > 0 (infinity: never, which is MuJoCo alone).
  double impact_speed = kDefaultImpactSpeed;
  long long rollouts = 100;  ///< >= 1
  std::uint64_t seed = 1;
  int threads = 0;  ///< 0: every core
  Controls controls = Controls::kKeyframe;
  VectorXd ctrl;     ///< kConstant: nu values, finite
  double pd_kp = 0;  ///< kPdPosture: >= 0, finite (N m / rad for a hinge)
  double pd_kd = 0;  ///< kPdPosture: >= 0, finite
  Policy policy;     ///< kPolicy: required
  /// "NAME=EXPR" (rollouts/metric.hpp) over RolloutVariables(model).
  std::vector<std::string> metrics;
  /// Also simulate the start with MuJoCo's own impacts (RolloutReport::baseline).
  bool baseline = true;
  /// Keep every k-th step's qpos and qvel (and the last) of each rollout; 0: none.
  int record_every = 0;
  double delta = kDefaultDelta;  ///< bounds hold with probability 1 - delta. In (0, 1).
  /// @throws std::invalid_argument naming the option, its value and the rule (ctrl's length
  ///         against the model's nu, controls on a model without actuators, a bad metric with
  ///         its position).
  void Validate(const robots::SimulationModel& model) const;
};

/// The names of options.metrics, in their order (MetricName: what summaries, files and the
/// surfaces call them).
std::vector<std::string> MetricNames(const RolloutOptions& options);

/// What a metric may name: "t", "events", every qpos name, "qvel:" + every dof name, "com:x",
/// "com:y", "com:z" (the root subtree's centre of mass).
std::vector<std::string> RolloutVariables(const robots::SimulationModel& model);

enum class RolloutStatus {
  kOk,           ///< reached the horizon
  kDiverged,     ///< MuJoCo's state became invalid or MuJoCo failed (RolloutResult::message)
  kImpactFailed  ///< an event's Algorithm-1 sample found no post-impact velocity
};
IMPACTSET_ENUM_NAMES(RolloutStatus,
                     "rollout status",
                     {E::kOk, "ok"},
                     {E::kDiverged, "diverged"},
                     {E::kImpactFailed, "impact_failed"})

struct RolloutResult {
  long long index = 0;  ///< the rollout's key with the seed: RolloutKey
  RolloutStatus status = RolloutStatus::kOk;
  std::string message;              ///< why it stopped early (empty when ok)
  double time = 0;                  ///< where it ended
  int events = 0;                   ///< impact events resolved
  int constrained_events = 0;       ///< of them, with joint limits or equalities left out
  int first_event_contacts = 0;     ///< contacts of the first event's impact problem (0: none)
  long long lcp_solves = 0;         ///< over all events
  double fastest_approach = 0;      ///< the fastest contact approach seen (m/s), events or not
  VectorXd qpos, qvel;              ///< the final state
  std::vector<double> metrics;      ///< one per RolloutOptions::metrics (NaN when it stopped early)
  std::vector<double> record_time;  ///< record_every > 0
  std::vector<VectorXd> record_qpos, record_qvel;
};

/// One metric over the rollouts that reached the horizon.
struct MetricSummary {
  std::string name, expression;
  bool is_event = false;
  long long counted = 0;  ///< rollouts with status ok
  /// Events: how many were true; Clopper-Pearson bounds on P(true): lower, upper, each one-sided
  /// at confidence 1 - delta.
  long long true_count = 0;
  double lower = 0, upper = 1;
  /// Numbers: over the counted rollouts; the indices of the extremes.
  double min = 0, mean = 0, max = 0;
  long long argmin = -1, argmax = -1;
  double baseline = 0;  ///< the baseline rollout's value (NaN without a baseline)
};

struct RolloutReport {
  std::vector<RolloutResult> rollouts;  ///< in index order
  std::optional<RolloutResult> baseline;
  std::vector<MetricSummary> metrics;
  long long ok = 0, diverged = 0, impact_failed = 0;
  long long events = 0;
  double seconds = 0;  ///< wall time of the rollouts
  /// Degenerate outcomes, said in words (no impact event at all, no rollout reaching T); the
  /// model's own warnings are SimulationModel::warnings.
  std::vector<std::string> warnings;
};

/// Runs options.rollouts rollouts (and the baseline). @throws std::invalid_argument from
/// Validate; a rollout that diverges or whose impact fails only gets that status.
RolloutReport RunRollouts(const robots::SimulationModel& model, const RolloutOptions& options);

/// The two pieces of RunRollouts, for callers that split the rollouts over processes
/// (distributed::RunRollouts). The rollouts of these indices (each as RunRollouts computes it),
/// on options.threads threads. @throws std::invalid_argument from Validate.
std::vector<RolloutResult> RunRolloutIndices(const robots::SimulationModel& model,
                                             const RolloutOptions& options,
                                             const std::vector<long long>& indices);
/// RunRolloutIndices with impact events' p-vectors set (a search over the impacts:
/// FalsifyRollouts): rollout indices[j]'s event e < draws[j].size() takes p_i at its step s from
/// draws[j][e](s m + i) while that entry exists (values in [0, 1]; m: the event's contacts) and
/// from its own stream after; later events as RunRolloutIndices. draws: one per index, or empty.
std::vector<RolloutResult> RunRolloutsWithDraws(const robots::SimulationModel& model,
                                                const RolloutOptions& options,
                                                const std::vector<long long>& indices,
                                                const std::vector<std::vector<VectorXd>>& draws);
/// The report of rollouts 0 ... R-1 (in index order): runs the baseline when options.baseline,
/// then the counts, metric summaries and warnings (seconds left 0).
RolloutReport CompleteRollouts(const robots::SimulationModel& model,
                               const RolloutOptions& options,
                               std::vector<RolloutResult> rollouts);

/// Results as bytes to send between processes of the same build, and back (every field, bit
/// for bit). @throws std::invalid_argument for bytes that are not such an encoding.
std::string EncodeResults(const std::vector<RolloutResult>& results);
std::vector<RolloutResult> DecodeResults(const std::string& bytes);

/// Rollout `index` alone, as RunRollouts computes it (bit for bit), with impacts by `impact`.
RolloutResult RunRollout(const robots::SimulationModel& model,
                         const RolloutOptions& options,
                         long long index,
                         ImpactModel impact = ImpactModel::kRouth);

/// "SEED/INDEX", the text --replay takes, and back. @throws std::invalid_argument.
std::string RolloutKey(std::uint64_t seed, long long index);
std::pair<std::uint64_t, long long> ParseRolloutKey(const std::string& key);

}  // namespace impactset::rollouts
