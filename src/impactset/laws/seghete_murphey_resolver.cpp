#include <impactset/laws/seghete_murphey_resolver.hpp>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>

#include <impactset/common/error_policy.hpp>
#include <impactset/laws/seghete_murphey_maps.hpp>

namespace impactset::laws {

namespace {

std::string ListString(const std::vector<int>& list) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < list.size(); ++i) os << (i ? " " : "") << list[i];
  os << ']';
  return os.str();
}

}  // namespace

void PropagativeOptions::Validate(int m) const {
  if (!(e >= 0 && e <= 1)) InvalidArgument("PropagativeOptions.e", e, "must lie in [0, 1]");
  if (!(violation_tolerance >= 0)) {
    InvalidArgument("PropagativeOptions.violation_tolerance", violation_tolerance, "must be >= 0");
  }
  if (max_reflections < 1) {
    InvalidArgument("PropagativeOptions.max_reflections", max_reflections, "must be >= 1");
  }
  const std::string range = "[0, " + std::to_string(m) + ")";
  if (!fixed_order.empty()) {
    std::vector<int> sorted = fixed_order;
    std::sort(sorted.begin(), sorted.end());
    bool ok = static_cast<int>(sorted.size()) == m;
    for (int i = 0; ok && i < m; ++i) ok = sorted[i] == i;
    if (!ok) {
      InvalidArgument("PropagativeOptions.fixed_order", ListString(fixed_order),
                      "must be empty or a permutation of 0.." + std::to_string(m - 1));
    }
  }
  for (int i : user_sequence) {
    if (i < 0 || i >= m) {
      InvalidArgument("PropagativeOptions.user_sequence", ListString(user_sequence),
                      "every entry must lie in " + range);
    }
  }
  if (first_contact < -1 || first_contact >= m) {
    InvalidArgument("PropagativeOptions.first_contact", first_contact,
                    "must be -1 or lie in " + range);
  }
}

PropagativeResult ResolvePropagative(const impact::ImpactProblem& problem,
                                     const VectorRef& v_minus,
                                     const PropagativeOptions& options) {
  options.Validate(problem.m());
  if (v_minus.size() != problem.n()) {
    InvalidArgument("v_minus size", v_minus.size(), "must be n = " + std::to_string(problem.n()));
  }
  const int m = problem.m();
  const Cometric cometric(problem);
  const double p_norm = CometricNorm(problem, v_minus);
  const double tol = options.violation_tolerance * p_norm;
  std::vector<int> priority = options.fixed_order;
  if (priority.empty()) {
    for (int i = 0; i < m; ++i) priority.push_back(i);
  }
  std::mt19937_64 rng(options.seed);

  PropagativeResult r;
  r.v_plus = v_minus;
  r.lambda = VectorXd::Zero(m);
  std::vector<int> colliding;
  VectorXd c = cometric.UnitComponents(problem, r.v_plus);
  auto update_colliding = [&] {
    colliding.clear();
    for (int i = 0; i < m; ++i) {
      if (c[i] < -tol) colliding.push_back(i);
    }
  };
  update_colliding();
  const bool user = options.policy == OrderingPolicy::kUserSequence;
  size_t user_next = 0;
  for (;;) {
    if (user ? user_next == options.user_sequence.size() : colliding.empty()) break;
    if (r.reflections == options.max_reflections) break;
    int pick = -1;
    if (user) {
      pick = options.user_sequence[user_next++];
      if (c[pick] >= -tol) r.admissible = false;  // not colliding (or already feasible)
    } else if (r.reflections == 0 && options.first_contact >= 0 &&
               c[options.first_contact] < -tol) {
      pick = options.first_contact;
      r.first_contact_used = true;
    } else {
      switch (options.policy) {
        case OrderingPolicy::kMostViolated:  // argmin c_i, lowest index on ties
          pick = *std::min_element(colliding.begin(), colliding.end(),
                                   [&](int a, int b) { return c[a] < c[b]; });
          break;
        case OrderingPolicy::kLeastViolated:  // argmax c_i over colliding, lowest on ties
          pick = *std::max_element(colliding.begin(), colliding.end(),
                                   [&](int a, int b) { return c[a] < c[b]; });
          break;
        case OrderingPolicy::kFixedOrder:
          for (int i : priority) {
            if (c[i] < -tol) {
              pick = i;
              break;
            }
          }
          break;
        case OrderingPolicy::kRandom:
          // rng() % size rather than uniform_int_distribution: the same picks on every library.
          pick = colliding[rng() % colliding.size()];
          break;
        case OrderingPolicy::kUserSequence:
          break;
      }
    }
    IMPACTSET_ASSERT(pick >= 0 && pick < m);
    double lambda = 0;
    r.v_plus = ReflectOverContact(problem, cometric, r.v_plus, pick, options.e, &lambda);
    r.sequence.push_back(pick);
    r.step_multipliers.push_back(lambda);
    r.lambda[pick] += lambda;
    ++r.reflections;
    c = cometric.UnitComponents(problem, r.v_plus);
    update_colliding();
  }
  if (colliding.empty()) {
    r.status = PropagativeStatus::kFeasible;
  } else if (user && user_next == options.user_sequence.size()) {
    r.status = PropagativeStatus::kSequenceExhausted;
  } else {
    r.status = PropagativeStatus::kReflectionCap;
  }
  r.contact_velocity = problem.ContactJacobian() * r.v_plus;
  r.residual = p_norm > 0 && m > 0 ? std::max(0.0, -c.minCoeff()) / p_norm : 0.0;
  const double ke = problem.KineticEnergy(v_minus);
  r.energy_ratio = ke > 0 ? problem.KineticEnergy(r.v_plus) / ke : 1.0;
  return r;
}

PropagativeResult ResolvePropagative(const impact::ImpactProblem& problem,
                                     const PropagativeOptions& options) {
  return ResolvePropagative(problem, problem.v_minus(), options);
}

}  // namespace impactset::laws
