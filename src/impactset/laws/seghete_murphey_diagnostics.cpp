#include <impactset/laws/seghete_murphey_diagnostics.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include <impactset/common/error_policy.hpp>
#include <impactset/laws/seghete_murphey_maps.hpp>

namespace impactset::laws {

void UniquenessOptions::Validate() const {
  if (!(cosine_tolerance >= 0 && cosine_tolerance < 1)) {
    InvalidArgument("UniquenessOptions.cosine_tolerance", cosine_tolerance, "must lie in [0, 1)");
  }
  if (max_k < 2 || max_k > 1000) {
    InvalidArgument("UniquenessOptions.max_k", max_k, "must lie in [2, 1000]");
  }
  enumeration.Validate();
}

namespace {

PairMeasure MeasurePair(int i, int j, double s, double a, double b) {
  PairMeasure p;
  p.i = i;
  p.j = j;
  p.s = s;
  p.a = a;
  p.b = b;
  // ||a u_perp ...||: with G = [[1, s], [s, 1]], ||P_N p||^2 = (a, b) G^-1 (a, b)^T.
  const double q = std::max(0.0, a * a + b * b - 2 * s * a * b);
  const double one_minus_s2 = 1 - s * s;
  p.normal_plane_norm =
      one_minus_s2 > 0 ? std::sqrt(q / one_minus_s2) : std::max(std::abs(a), std::abs(b));
  p.first_order = 4 * std::abs(s) * p.normal_plane_norm;  // [S-C] §IV, check F2
  p.two_step = 4 * std::abs(s) * std::sqrt(q);            // derived, check C6
  p.three_step = 2 * std::abs(1 - 4 * s * s) * std::sqrt(q);
  p.commutator = 4 * std::abs(s) * std::sqrt(std::max(0.0, one_minus_s2));
  return p;
}

}  // namespace

Unpredictability MeasureUnpredictability(const impact::ImpactProblem& problem,
                                         const VectorRef& v_minus,
                                         const PropagativeOutcomeSet& set,
                                         const PropagativeOptions& resolver) {
  resolver.Validate(problem.m());
  const Cometric cometric(problem);
  const double p_norm = CometricNorm(problem, v_minus);
  Unpredictability u;
  if (p_norm > 0) {
    double diameter = 0;
    for (size_t a = 0; a < set.outcomes.size(); ++a) {
      for (size_t b = a + 1; b < set.outcomes.size(); ++b) {
        diameter = std::max(diameter,
                            CometricNorm(problem, set.outcomes[a].v_plus - set.outcomes[b].v_plus));
      }
    }
    u.xi = diameter / p_norm;
    PropagativeOptions o = resolver;
    o.policy = OrderingPolicy::kMostViolated;
    const PropagativeResult argmin = ResolvePropagative(problem, v_minus, o);
    o.policy = OrderingPolicy::kLeastViolated;
    const PropagativeResult argmax = ResolvePropagative(problem, v_minus, o);
    u.argmin_argmax_ok = argmin.status == PropagativeStatus::kFeasible &&
                         argmax.status == PropagativeStatus::kFeasible;
    if (u.argmin_argmax_ok) {
      u.xi_argmin_argmax = CometricNorm(problem, argmin.v_plus - argmax.v_plus) / p_norm;
    }
  }
  const VectorXd c = cometric.UnitComponents(problem, v_minus);
  for (int i = 0; i < problem.m(); ++i) {
    for (int j = i + 1; j < problem.m(); ++j) {
      u.pairs.push_back(MeasurePair(i, j, cometric.cosines(i, j), c[i], c[j]));
      u.max_abs_cosine = std::max(u.max_abs_cosine, std::abs(cometric.cosines(i, j)));
    }
  }
  return u;
}

double OrderingDiscrepancy(const impact::ImpactProblem& problem,
                           const VectorRef& v_minus,
                           int a,
                           int b,
                           const PropagativeOptions& resolver,
                           bool* ok) {
  const std::string range = "must lie in [0, " + std::to_string(problem.m()) + ")";
  if (a < 0 || a >= problem.m()) InvalidArgument("a", a, range);
  if (b < 0 || b >= problem.m()) InvalidArgument("b", b, range);
  PropagativeOptions o = resolver;
  if (o.policy == OrderingPolicy::kUserSequence) o.policy = OrderingPolicy::kMostViolated;
  o.first_contact = a;
  const PropagativeResult ra = ResolvePropagative(problem, v_minus, o);
  o.first_contact = b;
  const PropagativeResult rb = ResolvePropagative(problem, v_minus, o);
  if (ok != nullptr) {
    *ok = ra.status == PropagativeStatus::kFeasible && rb.status == PropagativeStatus::kFeasible;
  }
  const double p_norm = CometricNorm(problem, v_minus);
  return p_norm > 0 ? CometricNorm(problem, ra.v_plus - rb.v_plus) / p_norm : 0.0;
}

UniquenessDiagnostics DiagnoseUniqueness(const impact::ImpactProblem& problem,
                                         const UniquenessOptions& options) {
  options.Validate();
  const Cometric cometric(problem);
  const int m = problem.m();
  const double tol = options.cosine_tolerance;
  UniquenessDiagnostics d;
  d.gram = cometric.gram;
  d.cosines = cometric.cosines;
  d.initial_components = cometric.UnitComponents(problem, problem.v_minus());
  const double p_norm = CometricNorm(problem, problem.v_minus());
  for (int i = 0; i < m; ++i) {
    if (d.initial_components[i] < -options.enumeration.violation_tolerance * p_norm) {
      d.initially_colliding.push_back(i);
    }
  }
  d.orthogonal = true;
  for (int i = 0; i < m; ++i) {
    for (int j = i + 1; j < m; ++j) {
      const double s = cometric.cosines(i, j);
      if (std::abs(s) > tol) d.orthogonal = false;
      for (int k = 2; k <= options.max_k; ++k) {
        if (std::abs(s + std::cos(std::numbers::pi / k)) <= tol) {
          d.pi_over_k.push_back({i, j, k, s});
        }
      }
    }
  }
  d.theorem2 = m >= 2 && d.orthogonal;
  d.theorem3 = m == 2 && std::abs(cometric.cosines(0, 1) + 0.5) <= tol;
  d.pi_over_k_pair = m == 2 && !d.pi_over_k.empty();

  PropagativeEnumerationOptions eo = options.enumeration;
  eo.e = 1;  // the uniqueness question is about the elastic [S-J] model
  d.outcome_set = EnumeratePropagative(problem, problem.v_minus(), eo);
  d.forced_choice = d.outcome_set.forced_choice;
  d.distinct_outcomes = static_cast<int>(d.outcome_set.outcomes.size());
  d.all_orderings_agree =
      d.distinct_outcomes == 1 && d.outcome_set.status == EnumerationStatus::kComplete;
  PropagativeOptions ro;
  ro.violation_tolerance = eo.violation_tolerance;
  ro.max_reflections = eo.max_reflections;
  d.unpredictability = MeasureUnpredictability(problem, problem.v_minus(), d.outcome_set, ro);
  return d;
}

}  // namespace impactset::laws
