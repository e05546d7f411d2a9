// h and N scaled to the impact (engine/step_scaling.hpp) and the step-cap advice of the summary.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include <impactset/catalog/system_catalog.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/engine/step_scaling.hpp>
#include <impactset/systems/matrix_input.hpp>

namespace impactset::engine {
namespace {

// The cube dropped flat: the four corner impulses of the (inelastic) Anitescu-Potra outcome sum
// to the momentum m v0 = 0.442944691807002, but four corners on three constrained velocities
// (vz, wx, wy) leave them non-unique: the largest lies between a quarter (all equal) and a half
// (two diagonal corners alone). The AP LCP is solved to ~1e-12.
TEST(StepScaling, CubeStepFollowsTheLargestCornerImpulse) {
  const double momentum = 0.442944691807002;
  const systems::LoadedProblem lp = catalog::LoadSystem("cube-flat");
  const ScaledStep s = ScaleStepToProblem(lp.problem);
  EXPECT_GE(s.impulse, momentum / 4 - 1e-9);
  EXPECT_LE(s.impulse, momentum / 2 + 1e-9);
  EXPECT_NEAR(s.step, 2 * s.impulse / kScaledSteps, 1e-15);
  EXPECT_EQ(s.max_steps, kScaledStepCapFactor * kScaledSteps);
  EXPECT_NE(s.rule.find("Anitescu-Potra"), std::string::npos);
  const RunOptions o = ScaledRunOptions(lp.problem, lp.settings);
  EXPECT_EQ(o.sampler.algorithm.step, s.step);
  EXPECT_EQ(o.step_rule, s.rule);
}

// No contact approaching (the cube moving up, or standing still): no impulse, the default h and
// N and a rule that says so; a whole run then ends every sample at v- without a signal (it once
// crashed in the least-norm estimate's empty factorisation).
TEST(StepScaling, NoApproachingContactGivesNoImpulseAndARun) {
  const systems::LoadedProblem lp = catalog::LoadSystem("cube-flat");
  for (const double vz : {0.5, 0.0}) {
    SCOPED_TRACE("vz = " + std::to_string(vz));
    VectorXd v = VectorXd::Zero(lp.problem.n());
    v(2) = vz;
    const impact::ImpactProblem& p = lp.problem;
    const impact::ImpactProblem up(p.M(), p.Jn(), p.D(), p.mu(), v, p.k());
    const ScaledStep s = ScaleStepToProblem(up);
    EXPECT_EQ(s.impulse, 0);
    EXPECT_EQ(s.step, kDefaultStep);
    EXPECT_EQ(s.max_steps, kDefaultMaxSteps);
    RunOptions o = ScaledRunOptions(up, lp.settings);
    o.sampler.samples = 256;
    o.set_options.holdout = 16;
    const RunResult r = engine::Run(up, o, "cube-flat");
    EXPECT_EQ(r.summary.terminated, 256);
    EXPECT_EQ(r.summary.lcp_solves, 0);
  }
}

TEST(StepScaling, SettingsGivenByTheSourceAreKept) {
  const systems::LoadedProblem lp =
      catalog::LoadSystem("rocking-block-3d");  // h = 0.3, N = 10 in its MJCF
  const RunOptions o = ScaledRunOptions(lp.problem, lp.settings);
  EXPECT_EQ(o.sampler.algorithm.step, 0.3);
  EXPECT_EQ(o.sampler.algorithm.max_steps, 10);
  EXPECT_TRUE(o.step_rule.empty());
  systems::ProblemSettings only_h;
  only_h.step = 0.25;
  const RunOptions p = ScaledRunOptions(lp.problem, only_h);
  EXPECT_EQ(p.sampler.algorithm.step, 0.25);
  EXPECT_EQ(p.sampler.algorithm.max_steps, kScaledStepCapFactor * kScaledSteps);
  EXPECT_NE(p.step_rule.find("h = 0.25 given, N = 40"), std::string::npos) << p.step_rule;
  // N comes from a pilot at the given h, not at the scaled one: a tenth of the impulse per step
  // needs more than the least N.
  systems::ProblemSettings small_h;
  small_h.step = 0.02;
  const RunOptions q = ScaledRunOptions(lp.problem, small_h);
  EXPECT_EQ(q.sampler.algorithm.step, 0.02);
  EXPECT_GT(q.sampler.algorithm.max_steps, kScaledStepCapFactor * kScaledSteps) << q.step_rule;
  EXPECT_EQ(q.step_growth, 1);
}

// The one resolution behind the CLI, batch states and Python: the caller's h and N first, then
// the source's own, then scaled (matrix input, MuJoCo) or the fixed defaults (built-in systems).
TEST(ProblemRunOptions, CallerThenSourceThenScaledOrDefault) {
  const systems::LoadedProblem builtin = catalog::LoadSystem("compass-gait");
  const RunOptions b = ProblemRunOptions(builtin);
  EXPECT_FALSE(builtin.settings.scale_missing_steps);
  EXPECT_EQ(b.sampler.algorithm.step, DefaultRunOptions(builtin.settings).sampler.algorithm.step);
  EXPECT_TRUE(b.step_rule.empty());

  const systems::LoadedProblem matrix = systems::ParseProblemJson(
      R"({"M": [[1, 0], [0, 1]], "Jn": [[0, 1]], "mu": [0], "v_minus": [0, -2]})");
  EXPECT_TRUE(matrix.settings.scale_missing_steps);
  const RunOptions m = ProblemRunOptions(matrix);
  // One frictionless contact of unit mass approaching at 2: the AP impulse is 2, h = 2 x 2 / 4.
  EXPECT_DOUBLE_EQ(m.sampler.algorithm.step, 2 * 2.0 / kScaledSteps);
  EXPECT_EQ(m.sampler.algorithm.max_steps, kScaledStepCapFactor * kScaledSteps);
  EXPECT_FALSE(m.step_rule.empty());

  const RunOptions given = ProblemRunOptions(matrix, {.step = 0.5, .max_steps = 7, .samples = 123});
  EXPECT_EQ(given.sampler.algorithm.step, 0.5);
  EXPECT_EQ(given.sampler.algorithm.max_steps, 7);
  EXPECT_EQ(given.sampler.samples, 123);
  EXPECT_TRUE(given.step_rule.empty());

  const systems::LoadedProblem cube = catalog::LoadSystem("cube-flat");  // a MuJoCo scene
  EXPECT_TRUE(cube.settings.scale_missing_steps);
  EXPECT_EQ(ProblemRunOptions(cube).sampler.algorithm.step, ScaleStepToProblem(cube.problem).step);
}

TEST(StepScaling, AdviceOnlyWhenSamplesHitTheCap) {
  const systems::LoadedProblem lp = catalog::LoadSystem("cube-flat");
  RunOptions o = ScaledRunOptions(lp.problem, lp.settings);
  o.sets = false;
  o.sampler.samples = 500;
  o.sampler.threads = 1;
  const RunResult good = engine::Run(lp.problem, o);
  EXPECT_EQ(good.summary.step_capped, 0);
  EXPECT_FALSE(StepCapAdvice(good).has_value());
  o.sampler.algorithm.step = 1e-3;  // far too small for an impulse of 0.11 per corner in N = 2
  o.sampler.algorithm.max_steps = 2;
  const RunResult capped = engine::Run(lp.problem, o);
  EXPECT_EQ(capped.summary.step_capped, 500);
  const std::optional<std::string> advice = StepCapAdvice(capped);
  ASSERT_TRUE(advice.has_value());
  EXPECT_NE(advice->find("500 of 500 samples"), std::string::npos) << *advice;
  char step[64];
  std::snprintf(step, sizeof step, "--step %g", ScaleStepToProblem(lp.problem).step);
  EXPECT_NE(advice->find(step), std::string::npos) << *advice;
  // N for h = 1e-3: ten times the 2 Lambda / h steps the most loaded corner needs on average.
  const double impulse = ScaleStepToProblem(lp.problem).impulse;
  const std::string n =
      "--max-steps " +
      std::to_string(static_cast<int>(kScaledStepCapFactor * std::ceil(2 * impulse / 1e-3)));
  EXPECT_NE(advice->find(n + "."), std::string::npos) << *advice;
  // That N finishes every sample at that h.
  o.sampler.algorithm.max_steps =
      static_cast<int>(kScaledStepCapFactor * std::ceil(2 * impulse / 1e-3));
  o.sampler.samples = 100;
  EXPECT_EQ(engine::Run(lp.problem, o).summary.step_capped, 0);
}

// When the LCP failures outnumber the caps the cause is numerics: the words name M's condition
// number, and FailureWarning speaks only when most samples did not finish.
TEST(StepScaling, AdviceForFailedLcpsNamesTheConditionNumber) {
  const systems::LoadedProblem block = catalog::LoadSystem("rocking-block");
  const impact::ImpactProblem& p = block.problem;
  MatrixXd M = p.M();
  M(2, 2) = 1e-14;  // a rotational inertia lost to roundoff
  const impact::ImpactProblem bad(M, p.Jn(), p.D(), p.mu(), p.v_minus(), p.k());
  EXPECT_NEAR(MassConditionNumber(bad), 1e14, 1e2);
  RunOptions o = ScaledRunOptions(bad, {});
  o.sets = false;
  o.sampler.samples = 200;
  o.sampler.threads = 1;
  // The native Lemke alone loses every step LCP to roundoff (the chain's later links save 118 of
  // the 200 samples, too many for a run where most fail).
  o.sampler.solver = lcp::SolverKind::kNative;
  const RunResult r = engine::Run(bad, o);
  ASSERT_GT(r.summary.lcp_failures, 100);
  const std::optional<std::string> warning = FailureWarning(r);
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find(std::to_string(r.summary.lcp_failures) + " had an LCP failure"),
            std::string::npos)
      << *warning;
  EXPECT_NE(warning->find("condition number is 1.0e+14: the step LCPs are too ill-conditioned"),
            std::string::npos)
      << *warning;
  RunOptions fine = ScaledRunOptions(p, block.settings);
  fine.sets = false;
  fine.sampler.samples = 100;
  EXPECT_FALSE(FailureWarning(engine::Run(p, fine)).has_value());
}

}  // namespace
}  // namespace impactset::engine
