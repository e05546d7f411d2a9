#include <impactset/compare/internal/runners.hpp>

#include <cstdio>

#include <impactset/engine/run.hpp>
#include <impactset/engine/step_scaling.hpp>
#include <impactset/lcp/fallback.hpp>

namespace impactset::compare::internal {

std::string ContrastLabel(double contrast) {
  char text[32];
  std::snprintf(text, sizeof text, "x%g", contrast);
  return text;
}

// Every distinct outcome by enumeration when the LCP is small enough, else the fallback chain's
// one solution (flagged as incomplete).
AnitescuPotraComparison RunAnitescuPotra(const impact::ImpactProblem& p) {
  const laws::AnitescuPotraSet all = laws::AllAnitescuPotraOutcomes(p, p.v_minus());
  AnitescuPotraComparison c;
  c.complete = all.status == lcp::Status::kSolved;
  c.outcomes = all.outcomes;
  if (all.status == lcp::Status::kTooLarge) {
    lcp::FallbackSolver chain;
    laws::AnitescuPotraOutcome one = laws::SolveAnitescuPotra(p, p.v_minus(), &chain);
    if (one.info.ok()) c.outcomes.push_back(std::move(one));
  }
  return c;
}

// Equal stiffness, then each contact in turn `contrast` times stiffer than the others; the
// simulator's defaults otherwise (k = 1e6 N/m, zeta = 5, until every contact stopped approaching).
CompliantComparison RunCompliant(const impact::ImpactProblem& p, const CompareOptions& o) {
  CompliantComparison c;
  const double contrast = o.compliant_stiffness_contrast;
  for (int stiff = -1; stiff < p.m(); ++stiff) {
    simulators::CompliantOptions run = c.options;
    run.stiffness_ratio = VectorXd::Ones(p.m());
    if (stiff >= 0) run.stiffness_ratio[stiff] = contrast;
    c.runs.push_back({stiff < 0
                          ? std::string("equal stiffness")
                          : "contact " + std::to_string(stiff) + " " + ContrastLabel(contrast),
                      stiff, simulators::SimulateCompliantImpact(p, run)});
  }
  return c;
}

// One run per global restitution coefficient; frictionless (D and mu ignored).
AghiliComparison RunAghili(const impact::ImpactProblem& p, const CompareOptions& o) {
  AghiliComparison c;
  for (double e : o.aghili_restitution) {
    laws::AghiliRestitution rest;
    rest.e = e;
    AghiliRun run{e, laws::AghiliImpact(p, rest, c.options), {}};
    run.contact_velocity = p.ContactJacobian() * run.result.v_plus;
    c.runs.push_back(std::move(run));
  }
  return c;
}

// Equal stiffness, then each contact in turn `contrast` times stiffer and as many times softer;
// the model's defaults otherwise (e = 0 at every contact, RK4 at 1 % of the fastest period).
JiaMasonErdmannComparison RunJiaMasonErdmann(const impact::ImpactProblem& p,
                                             const CompareOptions& o) {
  JiaMasonErdmannComparison c;
  const double contrast = o.jia_mason_erdmann_stiffness_contrast;
  const auto add = [&](const std::string& label, VectorXd stiffness) {
    laws::JmeOptions run = c.options;
    run.stiffness = std::move(stiffness);
    c.runs.push_back({label, run.stiffness, laws::SolveJiaMasonErdmann(p, run)});
  };
  add("equal stiffness", VectorXd::Ones(p.m()));
  for (int i = 0; i < p.m(); ++i) {
    const std::string contact = "contact " + std::to_string(i) + " " + ContrastLabel(contrast);
    VectorXd stiffness = VectorXd::Ones(p.m());
    stiffness[i] = contrast;
    add(contact + " stiffer", stiffness);
    stiffness[i] = 1 / contrast;
    add(contact + " softer", stiffness);
  }
  return c;
}

RouthComparison RunRouth(const impact::ImpactProblem& p,
                         const CompareOptions& o,
                         const systems::ProblemSettings& settings,
                         const sampling::ProgressCallback& progress) {
  // h, N and K exactly as `impactset run` resolves them (engine::ProblemRunOptions): the given
  // ones, then the problem's, then scaled to the impact where the source asks for it.
  systems::ProblemSettings given = settings;
  if (o.step) given.step = o.step;
  if (o.max_steps) given.max_steps = o.max_steps;
  if (o.samples) given.samples = o.samples;
  const engine::RunOptions run = given.scale_missing_steps ? engine::ScaledRunOptions(p, given)
                                                           : engine::DefaultRunOptions(given);
  sampling::SamplerOptions s = run.sampler;
  s.seed = o.seed;
  s.threads = o.threads;
  const sampling::SamplerResult r = sampling::RunSampler(p, s, progress);
  return {r.summary,   s.samples,      s.algorithm.step, s.algorithm.max_steps,
          s.seed,      r.threads_used, run.step_rule};
}

}  // namespace impactset::compare::internal
