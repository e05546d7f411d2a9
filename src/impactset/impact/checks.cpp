#include <impactset/impact/checks.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include <impactset/common/error_policy.hpp>

namespace impactset::impact {

void CheckTolerances::Validate() const {
  if (!(energy > 0)) InvalidArgument("CheckTolerances.energy", energy, "must be > 0");
  if (!(velocity > 0)) InvalidArgument("CheckTolerances.velocity", velocity, "must be > 0");
  if (!(impulse > 0)) InvalidArgument("CheckTolerances.impulse", impulse, "must be > 0");
  if (!(momentum > 0)) InvalidArgument("CheckTolerances.momentum", momentum, "must be > 0");
}

std::string CheckReport::Describe() const {
  std::ostringstream os;
  os << "energy_gain=" << energy_gain << (energy_ok ? "" : "(FAIL)") << " inelastic=" << inelastic
     << " approaching=" << approaching << (inelastic_ok ? "" : "(FAIL)") << " cone=" << cone
     << (cone_ok ? "" : "(FAIL)") << " slip_direction=" << slip_direction
     << " slip_cone_slack=" << slip_cone_slack << (slip_ok ? "" : "(FAIL)")
     << " normal_cap=" << normal_cap << (normal_cap_ok ? "" : "(FAIL)") << " momentum=" << momentum
     << (momentum_ok ? "" : "(FAIL)");
  return os.str();
}

namespace {
void RequireSize(const char* name, Eigen::Index got, Eigen::Index want) {
  if (got != want) {
    InvalidArgument(std::string(name) + ".size()", got, "must be " + std::to_string(want));
  }
}
}  // namespace

CheckReport CheckImpulse(const ImpactProblem& problem,
                         const VectorRef& v_before,
                         const VectorRef& v_after,
                         const VectorRef& lambda_n,
                         const VectorRef& lambda_d,
                         const CheckTolerances& tol,
                         const VectorXd* lambda_max) {
  tol.Validate();
  const int n = problem.n(), m = problem.m(), k = problem.k();
  RequireSize("v_before", v_before.size(), n);
  RequireSize("v_after", v_after.size(), n);
  RequireSize("lambda_n", lambda_n.size(), m);
  RequireSize("lambda_d", lambda_d.size(), static_cast<Eigen::Index>(m) * k);
  if (lambda_max) RequireSize("lambda_max", lambda_max->size(), m);

  CheckReport r;
  const double vscale = std::max(1.0, (problem.ContactJacobian() * v_before).cwiseAbs().maxCoeff());
  double iscale = std::max(1.0, lambda_n.cwiseAbs().maxCoeff());
  if (k > 0) iscale = std::max(iscale, lambda_d.cwiseAbs().maxCoeff());
  const double vtol = tol.velocity * vscale, itol = tol.impulse * iscale;

  // Theorems 2 (AP) and 7 (Routh step): no impulse of these laws adds kinetic energy.
  const double ke0 = problem.KineticEnergy(v_before), ke1 = problem.KineticEnergy(v_after);
  r.energy_gain = ke1 - ke0;
  r.energy_ok = r.energy_gain <= tol.energy * std::max(ke0, std::numeric_limits<double>::min());

  // v_after = v_before + M^-1 J^T lambda, compared in momentum units (no solve needed).
  VectorXd lambda(m + m * k);
  lambda << lambda_n, lambda_d;
  const VectorXd jt_lambda = problem.J().transpose() * lambda;
  const VectorXd mv0 = problem.M() * v_before;
  const double mscale = std::max({1.0, mv0.cwiseAbs().maxCoeff(), jt_lambda.cwiseAbs().maxCoeff()});
  r.momentum = (problem.M() * v_after - mv0 - jt_lambda).cwiseAbs().maxCoeff() / mscale;
  r.momentum_ok = r.momentum <= tol.momentum;

  // Eqs. 31c / 72c: a normal impulse only where the contact does not end up separating.
  const VectorXd jn = problem.Jn() * v_after;
  r.approaching = std::max(0.0, -jn.minCoeff());
  r.inelastic = 0;
  for (int i = 0; i < m; ++i) {
    if (lambda_n(i) > itol) r.inelastic = std::max(r.inelastic, jn(i));
  }
  r.inelastic_ok = r.inelastic <= vtol && (!tol.require_non_approaching || r.approaching <= vtol);

  // Eqs. 31d / 72d: lambda_n, lambda_D >= 0 and sum_j lambda_ij <= mu_i lambda_n_i.
  r.cone = std::max(0.0, -lambda_n.minCoeff());
  // Maximal dissipation (31b/72b rows with gamma): friction only along the directions d that
  // minimise d v_after; a sliding contact (gamma_i = -min_j d_ij v_after > 0) is on the boundary.
  const VectorXd dv = k > 0 ? VectorXd(problem.D() * v_after) : VectorXd();
  for (int i = 0; i < m; ++i) {
    double sum = 0;
    for (int j = 0; j < k; ++j) {
      sum += lambda_d(i * k + j);
      r.cone = std::max(r.cone, -lambda_d(i * k + j));
    }
    r.cone = std::max(r.cone, sum - problem.mu()(i) * lambda_n(i));
    if (k == 0) continue;
    const double dmin = dv.segment(i * k, k).minCoeff();
    for (int j = 0; j < k; ++j) {
      if (lambda_d(i * k + j) > itol) {
        r.slip_direction = std::max(r.slip_direction, dv(i * k + j) - dmin);
      }
    }
    if (-dmin > vtol) {
      r.slip_cone_slack = std::max(r.slip_cone_slack, problem.mu()(i) * lambda_n(i) - sum);
    }
  }
  r.cone_ok = r.cone <= itol;
  r.slip_ok = r.slip_direction <= vtol && r.slip_cone_slack <= itol;

  // Eq. 73: a Routh step's normal impulse never exceeds its cap.
  if (lambda_max) {
    r.normal_cap = std::max(0.0, (lambda_n - *lambda_max).maxCoeff());
    r.normal_cap_ok = r.normal_cap <= itol;
  }
  r.ok =
      r.energy_ok && r.inelastic_ok && r.cone_ok && r.slip_ok && r.normal_cap_ok && r.momentum_ok;
  return r;
}

CheckReport CheckOutcome(const ImpactProblem& problem,
                         const VectorRef& v_plus,
                         const VectorRef& total,
                         const CheckTolerances& tol,
                         double accepted_scale) {
  const int m = problem.m(), k = problem.k();
  IMPACTSET_ASSERT(v_plus.size() == problem.n() && total.size() == m + m * k);
  CheckReport r;
  const VectorXd& v0 = problem.v_minus();
  // Same scales as CheckImpulse: the approach speed before, the largest impulse; floors of 1.
  double vscale = 1, iscale = std::max({1.0, total.cwiseAbs().maxCoeff(), accepted_scale});
  double approach = 0;
  for (int i = 0; i < m; ++i) {
    vscale = std::max(vscale, std::abs(problem.Jn().row(i).dot(v0)));
    approach = std::min(approach, problem.Jn().row(i).dot(v_plus));
  }
  const double ke0 = problem.KineticEnergy(v0), ke1 = problem.KineticEnergy(v_plus);
  r.energy_gain = ke1 - ke0;
  r.energy_ok = r.energy_gain <= tol.energy * std::max(ke0, std::numeric_limits<double>::min());
  r.approaching = -approach;
  r.inelastic_ok = r.approaching <= tol.velocity * vscale;
  r.cone = std::max(0.0, -total.head(m).minCoeff());
  for (int i = 0; i < m; ++i) {
    double sum = 0;
    for (int j = 0; j < k; ++j) {
      sum += total(m + i * k + j);
      r.cone = std::max(r.cone, -total(m + i * k + j));
    }
    r.cone = std::max(r.cone, sum - problem.mu()(i) * total(i));
  }
  r.cone_ok = r.cone <= tol.impulse * iscale;
  r.ok = r.energy_ok && r.inelastic_ok && r.cone_ok;
  return r;
}

}  // namespace impactset::impact
