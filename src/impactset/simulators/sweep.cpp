#include <impactset/simulators/sweep.hpp>

#include <algorithm>
#include <cmath>

#include <impactset/common/error_policy.hpp>
#include <impactset/laws/jia_mason_erdmann.hpp>
#include <impactset/simulators/tilted_drop.hpp>
#include <impactset/systems/planar_tree.hpp>

namespace impactset::simulators {

std::string_view ToString(SweepModel m) {
  return m == SweepModel::kJiaMasonErdmann ? "jia_mason_erdmann" : "compliant";
}

namespace {

void ValidateTilts(const SweepOptions& o, bool have_scene) {
  if (o.tilt_max) {
    if (o.model != SweepModel::kCompliant) {
      InvalidArgument("--tilt-max", *o.tilt_max, "tilt sweeps need --model compliant");
    }
    if (!have_scene) {
      InvalidArgument("--tilt-max", *o.tilt_max, "needs a scene (--system or --scene)");
    }
    // TiltScene is a small-angle helper: |angle| < 0.1 rad.
    if (!(*o.tilt_max > 0 && *o.tilt_max < 0.1 * 180 / M_PI)) {
      InvalidArgument("--tilt-max", *o.tilt_max, "must be in (0, 5.7) degrees");
    }
    if (o.tilts < 1) InvalidArgument("--tilts", o.tilts, "must be >= 1 with --tilt-max");
  } else if (o.tilts > 0) {
    InvalidArgument("--tilts", o.tilts, "needs --tilt-max");
  }
}

SweepRun FromJme(const laws::JmeResult& r) {
  SweepRun run;
  run.status = r.terminated() ? SweepRunStatus::kTerminated : SweepRunStatus::kCapReached;
  run.detail = std::string(laws::ToString(r.status));
  run.v_plus = r.v_plus;
  run.contact_velocity = r.contact_velocity;
  run.steps = r.steps;
  return run;
}

SweepRun FromCompliant(const CompliantResult& r) {
  SweepRun run;
  run.status = r.terminated()                                ? SweepRunStatus::kTerminated
               : r.status == CompliantStatus::kSolverFailure ? SweepRunStatus::kSolverFailure
                                                             : SweepRunStatus::kCapReached;
  run.detail = std::string(ToString(r.status));
  run.v_plus = r.v_plus;
  run.contact_velocity = r.contact_velocity;
  run.steps = r.steps;
  return run;
}

void RunJme(const impact::ImpactProblem& p, SweepResult* result) {
  const SweepOptions& o = result->options;
  laws::JmeOptions jme;
  jme.default_restitution = o.restitution;
  result->settings = {{"restitution", o.restitution}};
  if (o.ratios == 0) return;
  const auto runs = laws::JmeStiffnessRatioSweep(p, jme, o.ratio_min, o.ratio_max, o.ratios);
  for (int j = 0; j < o.ratios; ++j) {
    SweepRun run = FromJme(runs[static_cast<size_t>(j)]);
    run.log10_ratio = SweepLog10Ratio(o, j);
    result->runs.push_back(std::move(run));
  }
}

// The tilt runs (docs/examples.md §3.7 sweep 2): contact_velocity uses the tilted Jacobians (as
// the authors' Fig. 12); the untilted /problem is O(angle) away.
void RunTilts(const systems::LoadedScene& scene,
              const CompliantOptions& base,
              SweepResult* result) {
  const SweepOptions& o = result->options;
  for (int j = 0; j < o.tilts; ++j) {
    const double angle = SweepTiltAngle(o, j);
    const TiltedDrop tilt = TiltScene(scene, angle, o.gravity);
    CompliantOptions c = base;
    c.initial_gap = tilt.gap;
    if (o.gravity > 0) c.external_force = systems::GravityForce(scene.tree, tilt.q, o.gravity);
    SweepRun run = FromCompliant(SimulateCompliantImpact(tilt.problem, c));
    run.kind = SweepRunKind::kTilt;
    run.tilt = angle;
    result->runs.push_back(std::move(run));
  }
}

void RunCompliant(const impact::ImpactProblem& p,
                  const systems::LoadedScene* scene,
                  SweepResult* result) {
  const SweepOptions& o = result->options;
  CompliantOptions base = SweepCompliantOptions(p, o.stiffness);
  if (scene && o.gravity > 0) {
    base.external_force = systems::GravityForce(scene->tree, scene->q, o.gravity);
  }
  result->settings = {{"stiffness", o.stiffness},
                      {"damping_ratio", base.damping_ratio},
                      {"gravity", scene ? o.gravity : 0.0}};
  if (o.ratios > 0) {
    const auto runs = StiffnessRatioSweep(p, base, o.ratio_min, o.ratio_max, o.ratios);
    for (int j = 0; j < o.ratios; ++j) {
      SweepRun run = FromCompliant(runs[static_cast<size_t>(j)]);
      run.log10_ratio = SweepLog10Ratio(o, j);
      result->runs.push_back(std::move(run));
    }
  }
  if (o.tilt_max) RunTilts(*scene, base, result);
}

}  // namespace

void ValidateSweep(const impact::ImpactProblem& problem, const SweepOptions& o, bool have_scene) {
  if (!std::isfinite(o.ratio_min) || !std::isfinite(o.ratio_max) || o.ratio_min > o.ratio_max) {
    InvalidArgument("--ratio-min, --ratio-max",
                    std::to_string(o.ratio_min) + ", " + std::to_string(o.ratio_max),
                    "must be finite with ratio-min <= ratio-max");
  }
  if (o.ratios < 0) InvalidArgument("--ratios", o.ratios, "must be >= 0");
  if (o.tilts < 0) InvalidArgument("--tilts", o.tilts, "must be >= 0");
  ValidateTilts(o, have_scene);
  const int total = o.ratios + (o.tilt_max ? o.tilts : 0);
  if (total < 1) InvalidArgument("--ratios + --tilts", total, "must be >= 1 run");
  if (!(o.restitution >= 0 && o.restitution <= 1)) {
    InvalidArgument("--restitution", o.restitution, "must be in [0, 1]");
  }
  if (!(std::isfinite(o.stiffness) && o.stiffness > 0)) {
    InvalidArgument("--stiffness", o.stiffness, "must be finite and > 0");
  }
  if (!(std::isfinite(o.gravity) && o.gravity >= 0)) {
    InvalidArgument("--gravity", o.gravity, "must be finite and >= 0");
  }
  if (o.model == SweepModel::kCompliant && o.ratios > 0 && problem.m() != 2) {
    InvalidArgument(
        "--ratios", o.ratios,
        "the compliant stiffness-ratio sweep needs exactly 2 contacts, the system has " +
            std::to_string(problem.m()));
  }
}

SweepResult RunSweep(const impact::ImpactProblem& problem,
                     const SweepOptions& options,
                     const systems::LoadedScene* scene) {
  ValidateSweep(problem, options, scene != nullptr);
  SweepResult result;
  result.options = options;
  if (options.model == SweepModel::kJiaMasonErdmann) {
    RunJme(problem, &result);
  } else {
    RunCompliant(problem, scene, &result);
  }
  return result;
}

double SweepLog10Ratio(const SweepOptions& o, int j) {
  return o.ratios == 1 ? o.ratio_min
                       : o.ratio_min + (o.ratio_max - o.ratio_min) * j / (o.ratios - 1);
}

double SweepTiltAngle(const SweepOptions& o, int j) {
  const double limit = o.tilt_max.value_or(0.0) * M_PI / 180;
  return o.tilts == 1 ? 0.0 : -limit + 2 * limit * j / (o.tilts - 1);
}

CompliantOptions SweepCompliantOptions(const impact::ImpactProblem& p, double stiffness) {
  CompliantOptions o;
  o.stiffness = stiffness;
  o.damping_ratio = 5;
  o.damping_mass = 1;
  o.stop_velocity = 1e-3 / stiffness;
  const VectorXd xdm = p.Jn() * p.v_minus();
  double momentum = 0;
  for (int i = 0; i < p.m(); ++i) {
    momentum = std::max(momentum, std::abs(xdm[i]) / p.Delassus()(i, i));
  }
  o.min_impulse = 1e-2 * momentum;
  return o;
}

MatrixXd SweepResult::VPlus() const {
  MatrixXd v(runs.empty() ? 0 : runs.front().v_plus.size(), static_cast<Eigen::Index>(runs.size()));
  for (size_t j = 0; j < runs.size(); ++j) v.col(static_cast<Eigen::Index>(j)) = runs[j].v_plus;
  return v;
}

MatrixXd SweepResult::ContactVelocities() const {
  MatrixXd y(runs.empty() ? 0 : runs.front().contact_velocity.size(),
             static_cast<Eigen::Index>(runs.size()));
  for (size_t j = 0; j < runs.size(); ++j) {
    y.col(static_cast<Eigen::Index>(j)) = runs[j].contact_velocity;
  }
  return y;
}

std::vector<std::int32_t> SweepResult::StatusCodes() const {
  std::vector<std::int32_t> codes;
  for (const SweepRun& r : runs) codes.push_back(static_cast<std::int32_t>(r.status));
  return codes;
}

std::vector<std::pair<std::string, VectorXd>> SweepResult::Parameters() const {
  const auto count = static_cast<Eigen::Index>(runs.size());
  VectorXd log10_ratio(count), tilt(count), kind(count), steps(count);
  for (Eigen::Index j = 0; j < count; ++j) {
    const SweepRun& r = runs[static_cast<size_t>(j)];
    log10_ratio[j] = r.log10_ratio;
    tilt[j] = r.tilt;
    kind[j] = static_cast<double>(r.kind);
    steps[j] = static_cast<double>(r.steps);
  }
  return {{"log10_stiffness_ratio", log10_ratio}, {"tilt", tilt}, {"kind", kind}, {"steps", steps}};
}

std::vector<std::pair<std::string, std::string>> SweepResult::Legend() {
  return {{"kind_values", "0 stiffness ratio run, 1 tilt run"},
          {"status_values", "0 terminated, 1 cap reached, 2 solver failure"},
          {"swept_contact", "contact 0: k_0 = 10^r k, the others k"}};
}

}  // namespace impactset::simulators
