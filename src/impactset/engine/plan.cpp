#include <impactset/engine/plan.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

#include <impactset/common/error_policy.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/engine/step_scaling.hpp>
#include <impactset/setapprox/coverage.hpp>
#include <impactset/sets/set_outputs.hpp>

namespace impactset::engine {

void PlanOptions::Validate() const {
  if (epsilon && !(std::isfinite(*epsilon) && *epsilon > 0)) {
    InvalidArgument("epsilon", *epsilon, "must be > 0 and finite");
  }
  if (!(delta > 0 && delta < 1)) InvalidArgument("delta", delta, "must lie in (0, 1)");
  if (lipschitz && !(std::isfinite(*lipschitz) && *lipschitz > 0)) {
    InvalidArgument("lipschitz", *lipschitz, "must be > 0 and finite");
  }
  if (max_steps && *max_steps < 1) InvalidArgument("max_steps", *max_steps, "must be >= 1");
  if (!(missed_mass > 0 && missed_mass < 1)) {
    InvalidArgument("missed_mass", missed_mass, "must lie in (0, 1)");
  }
}

PlanResult Plan(const systems::LoadedProblem& loaded, const PlanOptions& options) {
  options.Validate();
  const impact::ImpactProblem& problem = loaded.problem;
  // The step rule of a run of this problem (its own h and N, or the scaled ones), so that the
  // cube dimension d = m N is the one a run samples.
  systems::ProblemSettings caller;
  caller.max_steps = options.max_steps;
  const RunOptions run = ProblemRunOptions(loaded, caller);
  PlanResult r;
  r.epsilon = options.epsilon
                  ? *options.epsilon
                  : sets::PilotEpsilons(problem, {sets::ContactOutput(problem)}, run.sampler)[0];
  r.delta = options.delta;
  r.max_steps = run.sampler.algorithm.max_steps;
  const setapprox::HoldoutBound h = setapprox::PlanHoldoutSize(options.missed_mass, options.delta);
  r.holdout = {h.holdout, h.missed_mass_upper, h.assumptions};
  if (options.lipschitz) {
    setapprox::Lemma1Setting s;
    s.lipschitz = *options.lipschitz;
    s.dimension = problem.m() * r.max_steps;
    s.epsilon = r.epsilon;
    Lemma1Plan plan{s.lipschitz, s.dimension, 0, 0, ""};
    try {
      const setapprox::Lemma1Bound l = setapprox::PlanLemma1Samples(s, options.delta);
      plan.samples = l.samples;
      plan.log_cells = l.log_cells;
      plan.assumptions = l.assumptions;
    } catch (const std::invalid_argument& e) {  // K beyond a double: say so, plan the rest
      plan.samples = std::numeric_limits<double>::infinity();
      plan.log_cells =
          s.dimension * std::log(std::ceil(s.lipschitz * std::sqrt(s.dimension) / s.epsilon));
      plan.assumptions = std::string("not available: ") + e.what();
    }
    r.lemma1 = plan;
  }
  return r;
}

}  // namespace impactset::engine
