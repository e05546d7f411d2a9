#pragma once
// A point-valued impact model run over a range of its free parameters (`impactset sweep`,
// docs/examples.md §3.7, docs/dataset-format.md /sweep): Jia-Mason-Erdmann or the compliant
// model over log-spaced stiffness ratios k_0 / k_rest = 10^r, and the compliant model over small
// initial tilts of a scene's first body.
//
//   const systems::LoadedScene scene = systems::LoadBuiltinScene("rocking-block");
//   simulators::SweepOptions o;
//   o.model = simulators::SweepModel::kCompliant;
//   o.ratios = 11;
//   const simulators::SweepResult r = simulators::RunSweep(scene.problem, o, &scene);
//
// engine::PointModelDataset turns the runs into the stored form.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <impactset/impact/impact_problem.hpp>
#include <impactset/simulators/compliant.hpp>
#include <impactset/systems/scene.hpp>

namespace impactset::simulators {

enum class SweepModel {
  kJiaMasonErdmann,  ///< laws::JmeStiffnessRatioSweep (stiffness ratios only)
  kCompliant         ///< StiffnessRatioSweep and tilted drops (SimulateCompliantImpact)
};
/// "jia_mason_erdmann" or "compliant": the names datasets store.
std::string_view ToString(SweepModel m);

/// Options of RunSweep. Invalid options are reported under the names of the `impactset sweep`
/// options ("--ratios = -1: must be >= 0").
struct SweepOptions {
  SweepModel model = SweepModel::kJiaMasonErdmann;
  /// Stiffness-ratio runs: `ratios` values r = log10(k_0 / k_rest) evenly spaced in
  /// [ratio_min, ratio_max] (ratio_min alone when ratios = 1). Finite, ratio_min <= ratio_max;
  /// ratios >= 0 (0: no stiffness-ratio run). Defaults: the authors' 51 ratios over ±5 decades.
  double ratio_min = -5, ratio_max = 5;
  int ratios = 51;
  /// Compliant only, with a scene: `tilts` tilt runs with angles evenly spaced in
  /// [-tilt_max, tilt_max] degrees (0 when tilts = 1). In (0, 5.7) degrees (TiltScene is a
  /// small-angle helper: |angle| < 0.1 rad); tilts >= 1 with tilt_max, 0 without.
  std::optional<double> tilt_max;
  int tilts = 0;
  /// Jia-Mason-Erdmann: energetic restitution e of every contact, in [0, 1].
  double restitution = 0;
  /// Compliant: the softest contact's stiffness, N/m, finite and > 0 (authors: 1e6).
  double stiffness = 1e6;
  /// Compliant with a scene: gravity along -y during contact, m/s^2, finite and >= 0.
  double gravity = 9.81;
};

/// How a run ended; the codes are what datasets store in /samples/status.
enum class SweepRunStatus : std::int32_t {
  kTerminated = 0,    ///< the model's end condition: v_plus is the outcome
  kCapReached = 1,    ///< a step, state or time cap first
  kSolverFailure = 2  ///< CVODE failed (compliant)
};

enum class SweepRunKind : std::int32_t {
  kStiffnessRatio = 0,  ///< k_0 = 10^log10_ratio k, the other contacts k
  kTilt = 1             ///< equal stiffnesses, the scene tilted by `tilt`
};

struct SweepRun {
  SweepRunKind kind = SweepRunKind::kStiffnessRatio;
  double log10_ratio = 0;  ///< stiffness-ratio runs (0 for tilt runs)
  double tilt = 0;         ///< tilt runs, rad (0 for stiffness-ratio runs)
  SweepRunStatus status = SweepRunStatus::kTerminated;
  /// The model's own status name (laws::ToString(JmeStatus) or ToString(CompliantStatus)).
  std::string detail;
  VectorXd v_plus;  ///< in the scene's generalized coordinates
  /// ContactJacobian() v_plus; tilt runs use the tilted configuration's Jacobian.
  VectorXd contact_velocity;
  long steps = 0;  ///< RK4 steps (JME) or CVODE internal steps (compliant)
};

struct SweepResult {
  SweepOptions options;
  /// The stiffness-ratio runs in increasing r, then the tilt runs in increasing angle.
  std::vector<SweepRun> runs;
  /// The model settings the runs used: restitution (JME); stiffness, damping_ratio and gravity
  /// (compliant; gravity 0 without a scene).
  std::vector<std::pair<std::string, double>> settings;

  /// Per-run columns: v_plus (n x runs), contact_velocity, status codes.
  MatrixXd VPlus() const;
  MatrixXd ContactVelocities() const;
  std::vector<std::int32_t> StatusCodes() const;
  /// The per-run parameters as named columns: log10_stiffness_ratio, tilt, kind, steps.
  std::vector<std::pair<std::string, VectorXd>> Parameters() const;
  /// What the parameter and status codes mean, and which contact is swept.
  static std::vector<std::pair<std::string, std::string>> Legend();
};

/// Checks the options and their fit to the problem: the compliant stiffness-ratio sweep needs
/// exactly 2 contacts, tilts need a scene. RunSweep calls it first; callers that load a scene
/// only for the sweep can call it before loading.
/// @throws std::invalid_argument naming the option, its value and the rule.
void ValidateSweep(const impact::ImpactProblem& problem,
                   const SweepOptions& options,
                   bool have_scene);

/// Runs the sweep on `problem`. `scene` is the scene the problem was built from, or null: the
/// compliant model then gets its gravity (GravityForce at the scene's q) and the tilt runs
/// their tilted drops (TiltScene).
/// @throws std::invalid_argument from ValidateSweep, and from TiltScene when the scene's first
///         frame is not floating or a tilt costs more energy than the drop has.
SweepResult RunSweep(const impact::ImpactProblem& problem,
                     const SweepOptions& options,
                     const systems::LoadedScene* scene = nullptr);

/// r of stiffness-ratio run j (0 <= j < options.ratios).
double SweepLog10Ratio(const SweepOptions& options, int j);
/// The angle of tilt run j, rad (0 <= j < options.tilts, tilt_max set).
double SweepTiltAngle(const SweepOptions& options, int j);

/// The compliant settings of the sweep (docs/examples.md §3.7): zeta = 5 with damping mass 1,
/// stop velocity 1e-3 m / stiffness, a minimum impulse per contact of 1 % of the largest
/// effective-mass momentum max_i |(Jn v-)_i| / W_ii; no gravity.
CompliantOptions SweepCompliantOptions(const impact::ImpactProblem& problem, double stiffness);

}  // namespace impactset::simulators
