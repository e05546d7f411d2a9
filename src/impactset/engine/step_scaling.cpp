#include <impactset/engine/step_scaling.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include <impactset/impact/algorithm1.hpp>
#include <impactset/impact/impact_lcps.hpp>
#include <impactset/impact/jam.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/sampling/streams.hpp>

namespace impactset::engine {

namespace {

// An LCP-free stand-in for the Anitescu-Potra impulse when that LCP is not solved: the largest
// normal component of the least-norm impulse that brings every approaching contact's velocity to
// zero (normal and, where mu > 0, tangential: the sticking impact), or of one contact stopped on
// its own, whichever is larger. Least squares: dependent contact rows leave the block singular.
double ImpulseEstimate(const impact::ImpactProblem& p) {
  const int m = p.m();
  const int per = static_cast<int>(p.ContactJacobian().rows() - m) / m;
  const VectorXd jnv = p.Jn() * p.v_minus();
  std::vector<int> rows;
  for (int i = 0; i < m; ++i) {
    if (!(jnv(i) < 0)) continue;
    rows.push_back(i);
    for (int t = 0; t < per && p.mu()(i) > 0; ++t) rows.push_back(m + i * per + t);
  }
  if (rows.empty()) return 0;  // no contact approaches: no impulse (an empty QR is not defined)
  MatrixXd C(rows.size(), p.n());
  for (size_t r = 0; r < rows.size(); ++r) C.row(r) = p.ContactJacobian().row(rows[r]);
  const MatrixXd A = C * p.MassFactor().solve(C.transpose());
  const VectorXd x = A.completeOrthogonalDecomposition().solve(-(C * p.v_minus()));
  double impulse = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r] >= m) continue;
    if (std::isfinite(x(r))) impulse = std::max(impulse, std::abs(x(r)));
    const double a = A(r, r);
    if (a > 0) impulse = std::max(impulse, -jnv(rows[r]) / a);
  }
  return impulse;
}

// Steps beyond which a pilot sample decides the outcome: N = kStepPilotMargin x most is then
// clamped to kScaledStepCeiling, and h grows (Pilot below).
constexpr int kPilotDecisive = kScaledStepCeiling / kStepPilotMargin;

// What one pilot at step h found.
struct PilotRun {
  int most = 0;      // the most steps a sample needed (kPilotDecisive + 1: one needed more)
  int finished = 0;  // samples that finished within kPilotDecisive steps before the pilot stopped
};

// kStepPilotSamples samples at step h: the most steps one needed and how many finished, from a
// fixed seed (the rule is a function of the problem). Stops at the first sample that needs more
// than kPilotDecisive steps, capped one step beyond it: what Pilot does next no longer depends on
// the others, and on hard problems (step LCPs that reach the chain's slow links) they would cost
// minutes. The whole chain runs: skipping the samples that need its last links left N far too
// small.
PilotRun RunPilot(const impact::ImpactProblem& problem, double step) {
  impact::Algorithm1Options o;
  o.step = step;
  o.max_steps = kPilotDecisive + 1;
  lcp::FallbackSolver solver;
  impact::RouthSampler sampler(problem, o, &solver);
  PilotRun run;
  for (int i = 0; i < kStepPilotSamples && run.most <= kPilotDecisive; ++i) {
    // The default (mixed) design's samples: iid and ordered alternately, so that N leaves room
    // for the ordered sequences too (a contact at a low rate may finish after the others).
    sampling::IidPSource iid(kStepPilotSeed, i);
    sampling::OrderedPSource ordered(kStepPilotSeed, i, problem.m(), o.max_steps);
    impact::PSource& src = i % 2 == 0 ? static_cast<impact::PSource&>(iid) : ordered;
    sampling::SampleChoices choices(kStepPilotSeed, i);
    const impact::SampleResult& r = sampler.Run(src, &choices);
    if (r.status == impact::SampleStatus::kLcpFailure) continue;
    run.most = std::max(run.most, r.lcp_solves);
    if (r.lcp_solves <= kPilotDecisive) ++run.finished;
  }
  return run;
}

// N from a pilot: kStepPilotMargin x the most steps, within [kScaledStepCapFactor x
// kScaledSteps, kScaledStepCeiling].
int PilotSteps(const PilotRun& run) {
  const long long n = static_cast<long long>(kStepPilotMargin) * run.most;
  return static_cast<int>(
      std::clamp<long long>(n, kScaledStepCapFactor * kScaledSteps, kScaledStepCeiling));
}

// The pilot behind h and N (the header's formulas): while the most steps a pilot sample needed
// leave no room for kStepPilotMargin under kScaledStepCeiling, the impulse scale was too small
// (the sequence of steps needs far more impulse than the simultaneous impact), so h grows by
// kStepPilotGrowth, at most kStepPilotRounds times (kStepPilotRoundsWhileNoneFinish while no
// pilot sample has finished); then N is kStepPilotMargin x the most steps,
// within [kScaledStepCapFactor x kScaledSteps, kScaledStepCeiling]. When no h lets every pilot
// sample finish, the h that let the most finish (the smallest of equals) is kept: growth that
// helps no sample only inflates the impulse caps, and with them the scale the step LCPs'
// residual check is measured against.
void Pilot(const impact::ImpactProblem& problem, ScaledStep* s) {
  PilotRun run = RunPilot(problem, s->step);
  PilotRun best = run;
  double best_growth = 1, growth = 1;
  for (int round = 0; run.most > kPilotDecisive; ++round) {
    const int rounds = best.finished > 0 ? kStepPilotRounds : kStepPilotRoundsWhileNoneFinish;
    if (round >= rounds) break;
    growth *= kStepPilotGrowth;
    run = RunPilot(problem, s->step * growth);
    const bool better = run.most <= kPilotDecisive || run.finished > best.finished;
    if (better) best = run, best_growth = growth;
  }
  s->step *= best_growth;
  s->impulse *= best_growth;
  s->growth = best_growth;
  s->max_steps = PilotSteps(best);
}

// Lambda and the words for where it came from.
double Impulse(const impact::ImpactProblem& problem, const char** source) {
  double impulse = 0;
  if (const auto z = impact::SolveAnitescuPotraAtVMinus(problem)) {
    impulse = z->segment(impact::AnitescuPotraLayout(problem).lambda_n(), problem.m()).maxCoeff();
  }
  *source = "the largest Anitescu-Potra normal impulse";
  if (!(impulse > 0)) {
    impulse = ImpulseEstimate(problem);
    *source =
        "the least-norm impulse stopping the approaching contacts (Anitescu-Potra LCP not "
        "solved), largest normal part";
  }
  return impulse;
}

}  // namespace

double ImpulseScale(const impact::ImpactProblem& problem) {
  const char* source = nullptr;
  return Impulse(problem, &source);
}

ScaledStep ScaleStepToProblem(const impact::ImpactProblem& problem,
                              std::optional<double> given_step) {
  ScaledStep s;
  const char* source = nullptr;
  s.impulse = Impulse(problem, &source);
  char line[512];
  if (!(s.impulse > 0)) {
    if (given_step) s.step = *given_step;
    std::snprintf(line, sizeof line,
                  "h = %g, N = %d: %s (no Anitescu-Potra impulse to scale them to)", s.step,
                  s.max_steps, given_step ? "h given, N the default" : "defaults");
  } else if (given_step) {
    s.step = *given_step;
    s.max_steps = PilotSteps(RunPilot(problem, s.step));
    std::snprintf(line, sizeof line,
                  "h = %g given, N = %d: %d x the most steps of %d pilot samples at that h, within "
                  "[%d, %d] (%s: %.6g)",
                  s.step, s.max_steps, kStepPilotMargin, kStepPilotSamples,
                  kScaledStepCapFactor * kScaledSteps, kScaledStepCeiling, source, s.impulse);
  } else {
    s.step = 2 * s.impulse / kScaledSteps;
    const double first = s.impulse;
    Pilot(problem, &s);
    char grown[160] = "";
    if (s.growth != 1) {
      std::snprintf(grown, sizeof grown,
                    ", raised %gx to %.6g by the pilot (pilot samples did not finish within %d "
                    "steps)",
                    s.growth, s.impulse, kPilotDecisive);
    }
    std::snprintf(line, sizeof line,
                  "h = %.6g, N = %d: scaled to %s %.6g%s (h = 2 x impulse / %d; N = %d x the most "
                  "steps of %d pilot samples, within [%d, %d])",
                  s.step, s.max_steps, source, first, grown, kScaledSteps, kStepPilotMargin,
                  kStepPilotSamples, kScaledStepCapFactor * kScaledSteps, kScaledStepCeiling);
  }
  s.rule = line;
  return s;
}

RunOptions ScaledRunOptions(const impact::ImpactProblem& problem,
                            const systems::ProblemSettings& settings) {
  RunOptions o = DefaultRunOptions(settings);
  if (settings.step && settings.max_steps) return o;
  const ScaledStep s = ScaleStepToProblem(problem, settings.step);
  o.sampler.algorithm.step = s.step;
  if (!settings.max_steps) o.sampler.algorithm.max_steps = s.max_steps;
  o.step_growth = s.growth;
  if (!settings.max_steps) {
    o.step_rule = s.rule;
    return o;
  }
  char line[640];
  std::snprintf(line, sizeof line, "h = %g (scaled), N = %d (given); %s", o.sampler.algorithm.step,
                o.sampler.algorithm.max_steps, s.rule.c_str());
  o.step_rule = line;
  return o;
}

std::optional<std::string> StepGrowthWarning(const RunOptions& options) {
  if (!(options.step_growth > kStepGrowthWarningFactor)) return std::nullopt;
  char line[400];
  std::snprintf(line, sizeof line,
                "the step pilot raised h %gx above 2 x the impulse scale / %d (h = %g): the "
                "impulse sequences are sampled at that coarser step. Give --step to choose h "
                "yourself.",
                options.step_growth, kScaledSteps, options.sampler.algorithm.step);
  return std::string(line);
}

RunOptions ProblemRunOptions(const systems::LoadedProblem& loaded,
                             const systems::ProblemSettings& caller) {
  systems::ProblemSettings s = loaded.settings;
  if (caller.step) s.step = caller.step;
  if (caller.max_steps) s.max_steps = caller.max_steps;
  if (caller.samples) s.samples = caller.samples;
  return s.scale_missing_steps ? ScaledRunOptions(loaded.problem, s) : DefaultRunOptions(s);
}

namespace {

// The N that gives the run's own h the room the scaled N gives the scaled h: the most loaded
// contact needs about 2 Lambda / h steps on average (the formula in the header), and N is
// kScaledStepCapFactor times that. Twice the run's N when there is no impulse to go by, and never
// less than that.
int SuggestedMaxSteps(double impulse, double h, int max_steps) {
  const double doubled = 2.0 * max_steps;
  if (!(impulse > 0)) return static_cast<int>(doubled);
  const double needed = kScaledStepCapFactor * std::ceil(2 * impulse / h);
  return static_cast<int>(std::min(std::max(needed, doubled), 1e9));
}

}  // namespace

std::optional<std::string> StepCapAdvice(const RunResult& run) {
  const sampling::SampleSummary& s = run.summary;
  const long long bad = s.step_capped + s.lcp_failures;
  if (s.samples == 0 || bad <= kStepCapWarningFraction * s.samples) return std::nullopt;
  const auto& a = run.options.sampler.algorithm;
  char line[600];
  if (s.lcp_failures > s.step_capped) {
    // Failed LCPs are numerics, not room: name the likely cause instead of a step.
    const double cond = MassConditionNumber(run.problem);
    std::snprintf(line, sizeof line,
                  "%lld of %lld samples (%.1f %%) did not finish: %lld had an LCP failure, %lld "
                  "hit the step cap N = %d. M's condition number is %.1e%s",
                  bad, s.samples, 100.0 * bad / s.samples, s.lcp_failures, s.step_capped,
                  a.max_steps, cond,
                  cond > kIllConditionedMass
                      ? ": the step LCPs are too ill-conditioned for double precision; check M "
                        "or rescale the coordinates."
                      : "; the LCP solvers gave up: try another solver (--lcp siconos).");
    return std::string(line);
  }
  // The scaled h when it is larger than the current one (the impulse needs it), else twice h.
  const ScaledStep scaled = ScaleStepToProblem(run.problem);
  const double h = scaled.impulse > 0 && scaled.step > a.step ? scaled.step : 2 * a.step;
  std::snprintf(line, sizeof line,
                "%lld of %lld samples (%.1f %%) did not finish: %lld hit the step cap N = %d, %lld "
                "had an LCP failure. The impulse needs more room: try --step %g (largest "
                "Anitescu-Potra normal impulse: %g) or --max-steps %d.",
                bad, s.samples, 100.0 * bad / s.samples, s.step_capped, a.max_steps, s.lcp_failures,
                h, scaled.impulse, SuggestedMaxSteps(scaled.impulse, a.step, a.max_steps));
  return std::string(line);
}

std::optional<std::string> FailureWarning(const RunResult& run) {
  const sampling::SampleSummary& s = run.summary;
  if (s.samples == 0 || s.step_capped + s.lcp_failures <= kFailureWarningFraction * s.samples) {
    return std::nullopt;
  }
  return StepCapAdvice(run);
}

std::optional<std::string> PhysicsWarning(const RunResult& run) {
  const sampling::SampleSummary& s = run.summary;
  if (s.non_physical == 0) return std::nullopt;
  char line[400];
  std::snprintf(line, sizeof line,
                "%lld of %lld samples stopped colliding with a non-physical end state (kinetic "
                "energy gained, largest KE+/KE- %.6g, or total impulse outside the friction "
                "cone): status non_physical, left out of every set. The step LCPs lose precision "
                "here; try a smaller --step.",
                s.non_physical, s.samples, s.non_physical_energy_ratio_max);
  return std::string(line);
}

std::optional<std::string> JamNote(const impact::ImpactProblem& problem) {
  const impact::JamReport jam = impact::DetectJam(problem);
  if (!jam.jammed) return std::nullopt;
  char line[400];
  std::snprintf(line, sizeof line,
                "jammed: the %d contact normals positively span all %d velocities (balance "
                "%.1e), so the only velocity with no contact approaching is 0 and every "
                "colliding sample ends at v+ = 0: the post-impact set is that one point.",
                problem.m(), problem.n(), jam.balance);
  return std::string(line);
}

double MassConditionNumber(const impact::ImpactProblem& problem) {
  const Eigen::SelfAdjointEigenSolver<MatrixXd> eig(problem.M(), Eigen::EigenvaluesOnly);
  const VectorXd& l = eig.eigenvalues();  // ascending
  return l(0) > 0 ? l(l.size() - 1) / l(0) : std::numeric_limits<double>::infinity();
}

}  // namespace impactset::engine
