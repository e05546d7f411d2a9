#include <impactset/engine/plan.hpp>

#include <cmath>

#include <impactset/common/error_policy.hpp>
#include <impactset/engine/run.hpp>
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

PlanResult Plan(const impact::ImpactProblem& problem,
                const systems::ProblemSettings& settings,
                const PlanOptions& options) {
  options.Validate();
  PlanResult r;
  r.epsilon = options.epsilon.value_or(sets::DefaultEpsilon(problem));
  r.delta = options.delta;
  r.max_steps = options.max_steps.value_or(settings.max_steps.value_or(kDefaultMaxSteps));
  const setapprox::HoldoutBound h = setapprox::PlanHoldoutSize(options.missed_mass, options.delta);
  r.holdout = {h.holdout, h.missed_mass_upper, h.assumptions};
  if (options.lipschitz) {
    setapprox::Lemma1Setting s;
    s.lipschitz = *options.lipschitz;
    s.dimension = problem.m() * r.max_steps;
    s.epsilon = r.epsilon;
    const setapprox::Lemma1Bound l = setapprox::PlanLemma1Samples(s, options.delta);
    r.lemma1 = Lemma1Plan{s.lipschitz, s.dimension, l.samples, l.log_cells, l.assumptions};
  }
  return r;
}

}  // namespace impactset::engine
