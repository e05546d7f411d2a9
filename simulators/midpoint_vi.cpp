#include "simulators/midpoint_vi.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <boost/math/tools/toms748_solve.hpp>

#include "common/error_policy.hpp"
#include "simulators/tilted_drop.hpp"  // GravityForce

namespace impactset::simulators {

std::string_view ToString(ViRestitution r) {
  return r == ViRestitution::kBlend ? "blend" : "sequential";
}

std::string_view ToString(ForcingSplit s) {
  return s == ForcingSplit::kSymmetric ? "symmetric" : "left";
}

std::string_view ToString(ViStatus s) {
  switch (s) {
    case ViStatus::kOk:
      return "ok";
    case ViStatus::kNewtonFailure:
      return "newton_failure";
    case ViStatus::kImpactTimeFailure:
      return "impact_time_failure";
    case ViStatus::kImpactResolutionFailure:
      return "impact_resolution_failure";
    case ViStatus::kImpactCap:
      return "impact_cap";
    case ViStatus::kPersistentContact:
      return "persistent_contact";
  }
  return "unknown";
}

void MidpointViOptions::Validate() const {
  auto positive = [](const char* field, double x) {
    if (!(std::isfinite(x) && x > 0)) InvalidArgument(field, x, "must be finite and > 0");
  };
  auto unit = [](const char* field, double x) {
    if (!(x >= 0 && x <= 1)) InvalidArgument(field, x, "must be in [0, 1]");
  };
  positive("h", h);
  if (steps < 0) InvalidArgument("steps", steps, "must be >= 0");
  if (!std::isfinite(gravity)) InvalidArgument("gravity", gravity, "must be finite");
  unit("R", R);
  unit("e", e);
  if (!(std::isfinite(violation_tolerance) && violation_tolerance >= 0)) {
    InvalidArgument("violation_tolerance", violation_tolerance, "must be finite and >= 0");
  }
  positive("gap_tolerance", gap_tolerance);
  positive("newton_tolerance", newton_tolerance);
  positive("time_tolerance", time_tolerance);
  positive("dm_step", dm_step);
  if (max_newton_iterations < 1) {
    InvalidArgument("max_newton_iterations", max_newton_iterations, "must be >= 1");
  }
  if (max_impacts_per_step < 1) {
    InvalidArgument("max_impacts_per_step", max_impacts_per_step, "must be >= 1");
  }
}

std::vector<MatrixXd> MassMatrixDerivative(const systems::PlanarTree& tree, const VectorXd& q, double step) {
  if (!(std::isfinite(step) && step > 0)) InvalidArgument("step", step, "must be finite and > 0");
  std::vector<MatrixXd> dM;
  for (int i = 0; i < q.size(); ++i) {
    VectorXd qp = q, qm = q;
    const double d = step * std::max(1.0, std::abs(q[i]));
    qp[i] += d;
    qm[i] -= d;
    dM.push_back((tree.MassMatrix(qp) - tree.MassMatrix(qm)) / (qp[i] - qm[i]));
  }
  return dM;
}

double GravityPotential(const systems::PlanarTree& tree, const VectorXd& q, double gravity) {
  double V = 0;
  for (int s = 0; s < static_cast<int>(tree.shapes().size()); ++s) {
    const systems::Shape& shape = tree.shapes()[s];
    if (shape.frame == systems::PlanarTree::kWorld || shape.type == systems::ShapeType::kWall) continue;
    V += shape.mass * gravity * tree.ShapePose(q, s).translation.y();
  }
  return V;
}

namespace {

// Raised inside the impact-time root search when a DEL solve fails (turned into a status).
struct SolveFailed : std::exception {};

struct Substep {
  bool converged = false;
  VectorXd q_b, p_b, vbar;
  VectorXd lambda;  // persistent contacts' position impulses (> 0: pushing)
  int iterations = 0;
  double residual = 0;
};

class Integrator {
 public:
  Integrator(const systems::PlanarTree& tree, const MidpointViOptions& o) : tree_(tree), o_(o) {}

  std::vector<systems::Contact> Candidates(const VectorXd& q) const { return tree_.ContactCandidates(q); }

  // Rows jn of the listed candidates at q.
  MatrixXd Rows(const VectorXd& q, const std::vector<int>& which) const {
    MatrixXd J(static_cast<Eigen::Index>(which.size()), q.size());
    if (which.empty()) return J;
    const auto c = Candidates(q);
    for (size_t i = 0; i < which.size(); ++i) J.row(static_cast<Eigen::Index>(i)) = c[which[i]].jn;
    return J;
  }

  // dL/dq at (q, v) = 1/2 v^T dM/dq v - grad V, dM/dq by central differences.
  VectorXd Ell(const VectorXd& q, const VectorXd& v) const {
    VectorXd l = systems::GravityForce(tree_, q, o_.gravity);
    for (int i = 0; i < q.size(); ++i) {
      VectorXd qp = q, qm = q;
      const double d = o_.dm_step * std::max(1.0, std::abs(q[i]));
      qp[i] += d;
      qm[i] -= d;
      l[i] += 0.5 * (v.dot(tree_.MassMatrix(qp) * v) - v.dot(tree_.MassMatrix(qm) * v)) /
              (qp[i] - qm[i]);
    }
    return l;
  }

  // Forcing terms f-, f+ of a substep (ForcingSplit).
  std::pair<VectorXd, VectorXd> Forcing(const VectorXd& qbar,
                                        const VectorXd& vbar,
                                        double t_mid,
                                        double T) const {
    const auto n = qbar.size();
    if (!o_.force) return {VectorXd::Zero(n), VectorXd::Zero(n)};
    const VectorXd f = o_.force(qbar, vbar, t_mid);
    IMPACTSET_ASSERT(f.size() == n);
    if (o_.forcing_split == ForcingSplit::kSymmetric) return {0.5 * T * f, 0.5 * T * f};
    return {T * f, VectorXd::Zero(n)};
  }

  // DEL residual in x = [vbar; Lambda]:  p_a + F-(q_a, q_b) + f- + Jc(q_a)^T Lambda  (momentum)
  // and phi_c(q_b) / T (persistent contacts), with q_b = q_a + T vbar.
  VectorXd Residual(const VectorXd& q_a,
                    const VectorXd& p_a,
                    double t_a,
                    double T,
                    const std::vector<int>& pers,
                    const MatrixXd& Jc_a,
                    const VectorXd& x) const {
    const auto n = q_a.size();
    const auto c = static_cast<Eigen::Index>(pers.size());
    const VectorXd vbar = x.head(n);
    const VectorXd qbar = q_a + 0.5 * T * vbar;
    VectorXd r(n + c);
    r.head(n) = p_a - tree_.MassMatrix(qbar) * vbar + 0.5 * T * Ell(qbar, vbar) +
                Forcing(qbar, vbar, t_a + 0.5 * T, T).first;
    if (c > 0) {
      r.head(n) += Jc_a.transpose() * x.tail(c);
      const VectorXd q_b = q_a + T * vbar;
      const auto cand = Candidates(q_b);
      for (Eigen::Index i = 0; i < c; ++i) r[n + i] = cand[pers[i]].phi / T;
    }
    return r;
  }

  // One substep of length T from (q_a, p_a): Newton on the DEL with a central-difference Jacobian.
  Substep Solve(const VectorXd& q_a,
                const VectorXd& p_a,
                double t_a,
                double T,
                const std::vector<int>& pers) const {
    const auto n = q_a.size();
    const auto c = static_cast<Eigen::Index>(pers.size());
    const MatrixXd Jc_a = Rows(q_a, pers);
    const MatrixXd M_a = tree_.MassMatrix(q_a);
    VectorXd x = VectorXd::Zero(n + c);
    x.head(n) = M_a.llt().solve(p_a);  // the explicit guess vbar = v_a
    const double tol = o_.newton_tolerance * (1 + p_a.lpNorm<Eigen::Infinity>());
    Substep s;
    VectorXd r = Residual(q_a, p_a, t_a, T, pers, Jc_a, x);
    s.residual = r.lpNorm<Eigen::Infinity>();
    for (; s.iterations < o_.max_newton_iterations && !(s.residual <= tol); ++s.iterations) {
      MatrixXd J(n + c, n + c);
      for (Eigen::Index j = 0; j < n + c; ++j) {
        VectorXd xp = x, xm = x;
        const double d = 6e-6 * std::max(1.0, std::abs(x[j]));  // cbrt(eps), relative
        xp[j] += d;
        xm[j] -= d;
        J.col(j) = (Residual(q_a, p_a, t_a, T, pers, Jc_a, xp) -
                    Residual(q_a, p_a, t_a, T, pers, Jc_a, xm)) /
                   (xp[j] - xm[j]);
      }
      x -= J.partialPivLu().solve(r);
      r = Residual(q_a, p_a, t_a, T, pers, Jc_a, x);
      s.residual = r.lpNorm<Eigen::Infinity>();
    }
    s.converged = s.residual <= tol;
    s.residual /= 1 + p_a.lpNorm<Eigen::Infinity>();
    s.vbar = x.head(n);
    s.lambda = x.tail(c);
    s.q_b = q_a + T * s.vbar;
    const VectorXd qbar = q_a + 0.5 * T * s.vbar;
    s.p_b = tree_.MassMatrix(qbar) * s.vbar + 0.5 * T * Ell(qbar, s.vbar) +
            Forcing(qbar, s.vbar, t_a + 0.5 * T, T).second;
    if (c > 0) {
      // RATTLE-type velocity projection: the persistent contacts' normal velocity is zero at q_b.
      const MatrixXd Jc_b = Rows(s.q_b, pers);
      const Eigen::LLT<MatrixXd> M_b(tree_.MassMatrix(s.q_b));
      const MatrixXd minv_jt = M_b.solve(Jc_b.transpose());
      const VectorXd lambda2 = (Jc_b * minv_jt).partialPivLu().solve(-(Jc_b * M_b.solve(s.p_b)));
      s.p_b += Jc_b.transpose() * lambda2;
    }
    return s;
  }

  double Kinetic(const VectorXd& q, const VectorXd& p) const {
    return 0.5 * p.dot(tree_.MassMatrix(q).llt().solve(p));
  }

  ViRecord Record(double t, const VectorXd& q, const VectorXd& p) const {
    ViRecord r;
    r.t = t;
    r.q = q;
    r.p = p;
    r.kinetic = Kinetic(q, p);
    r.energy = r.kinetic + GravityPotential(tree_, q, o_.gravity);
    r.min_gap = std::numeric_limits<double>::infinity();
    for (const systems::Contact& c : Candidates(q)) r.min_gap = std::min(r.min_gap, c.phi);
    return r;
  }

 private:
  const systems::PlanarTree& tree_;
  const MidpointViOptions& o_;
};

bool Contains(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

MidpointViResult SimulateMidpointVi(const systems::PlanarTree& tree,
                                    const VectorXd& q0,
                                    const VectorXd& v0,
                                    const MidpointViOptions& o) {
  o.Validate();
  const int n = tree.num_positions();
  if (q0.size() != n) InvalidArgument("q0.size()", q0.size(), "must equal the tree's positions");
  if (v0.size() != n) InvalidArgument("v0.size()", v0.size(), "must equal the tree's velocities");
  if (!q0.allFinite() || !v0.allFinite()) InvalidArgument("q0, v0", "non-finite", "must be finite");

  const Integrator vi(tree, o);
  MidpointViResult res;
  VectorXd q = q0, p = tree.MassMatrix(q0) * v0;
  double t = 0;
  std::vector<int> pers;  // persistent contacts (closed by the Zeno rule, docs/midpoint-vi.md)
  const int num_candidates = static_cast<int>(vi.Candidates(q0).size());
  std::vector<double> last_impact(num_candidates, -std::numeric_limits<double>::infinity());
  res.records.reserve(static_cast<size_t>(o.steps) + 1);
  res.records.push_back(vi.Record(t, q, p));

  auto fail = [&](ViStatus s, std::string msg) {
    res.status = s;
    res.message = std::move(msg);
    res.persistent = pers;
    return res;
  };
  // A DEL solve; failure ends the run (or, inside the root search, raises SolveFailed).
  auto solve = [&](const VectorXd& qa, const VectorXd& pa, double ta, double T) {
    Substep s = vi.Solve(qa, pa, ta, T, pers);
    res.newton_iterations += s.iterations;
    if (s.converged) res.residual = std::max(res.residual, s.residual);
    return s;
  };

  for (int k = 0; k < o.steps; ++k) {
    const double t_end = (k + 1) * o.h;
    int impacts_this_step = 0;
    while (true) {
      const double T = t_end - t;
      if (T <= 1e-12 * o.h) break;  // an impact at the very end of the step: keep (q*, p+)
      Substep s = solve(q, p, t, T);
      if (!s.converged) {
        return fail(ViStatus::kNewtonFailure,
                    "DEL solve at t = " + std::to_string(t) + " did not converge");
      }
      // Release a persistent contact whose impulse would pull (unilateral contact).
      bool released = false;
      for (Eigen::Index i = static_cast<Eigen::Index>(pers.size()) - 1; i >= 0; --i) {
        if (s.lambda[i] < 0) {
          pers.erase(pers.begin() + i);
          released = true;
        }
      }
      if (released) continue;

      // 2. impact detection: contacts (not persistent) penetrating at the end of the substep.
      const auto end_contacts = vi.Candidates(s.q_b);
      std::vector<int> crossing;
      for (int j = 0; j < num_candidates; ++j) {
        if (!Contains(pers, j) && end_contacts[j].phi < -o.gap_tolerance) crossing.push_back(j);
      }
      if (crossing.empty()) {
        q = s.q_b;
        p = s.p_b;
        t = t_end;
        break;
      }
      if (++impacts_this_step > o.max_impacts_per_step) {
        return fail(ViStatus::kImpactCap,
                    "more than max_impacts_per_step impacts in the step "
                    "ending at t = " +
                        std::to_string(t_end));
      }

      // 3. impact time: the smallest root tau in [0, T] of phi_j(q_b(tau)) over crossing j,
      // q_b(tau) from the DEL solve (our choice, the papers give none: bracketing on tau, TOMS
      // 748).
      const auto start_contacts = vi.Candidates(q);
      const MatrixXd M_a = tree.MassMatrix(q);
      const Eigen::LLT<MatrixXd> M_a_llt(M_a);
      const VectorXd v_a = M_a_llt.solve(p);
      const double p_norm = std::sqrt(std::max(0.0, p.dot(v_a)));
      auto gap_at = [&](int j, double tau) {
        const Substep st = solve(q, p, t, tau);
        if (!st.converged) throw SolveFailed{};
        return vi.Candidates(st.q_b)[j].phi;
      };
      double tau = T;
      int trigger = -1;
      bool resting = false;
      try {
        for (int j : crossing) {
          double lo = 0, hi = T, g_lo = start_contacts[j].phi, g_hi = end_contacts[j].phi;
          if (g_lo <= o.gap_tolerance) {
            // Touching at the start: colliding now (tau = 0), or leaving and maybe returning.
            const Eigen::RowVectorXd jn = start_contacts[j].jn;
            const double jn_norm = std::sqrt(std::max(0.0, jn.dot(M_a_llt.solve(jn.transpose()))));
            if (jn.dot(v_a) < -o.violation_tolerance * jn_norm * p_norm) {
              if (trigger < 0 || tau > 0) {
                tau = 0;
                trigger = j;
                resting = false;
              }
              continue;
            }
            bool found = false;
            for (int h2 = 1; h2 <= 40 && !found; ++h2) {
              const double ts = T * std::ldexp(1.0, -h2);
              const double g = gap_at(j, ts);
              if (g > o.gap_tolerance) {
                lo = ts;
                g_lo = g;
                found = true;
              } else if (g < -o.gap_tolerance) {
                hi = ts;
                g_hi = g;
              }
            }
            if (!found) {  // pressed into the ground from rest: a persistent contact
              if (trigger < 0 || tau > 0) {
                tau = 0;
                trigger = j;
                resting = true;
              }
              continue;
            }
          }
          if (lo >= tau) continue;  // cannot beat the earliest root found so far
          std::uintmax_t iters = 200;
          const auto root = boost::math::tools::toms748_solve(
              [&](double x) { return gap_at(j, x); }, lo, hi, g_lo, g_hi,
              [&](double a, double b) { return b - a <= o.time_tolerance * o.h; }, iters);
          if (iters >= 200) {
            throw SolveFailed{};
          }
          const double tj = 0.5 * (root.first + root.second);
          if (tj < tau || trigger < 0) {
            tau = tj;
            trigger = j;
            resting = false;
          }
        }
      } catch (const std::exception&) {
        return fail(ViStatus::kImpactTimeFailure,
                    "impact-time solve failed in the step ending at t = " + std::to_string(t_end));
      }
      IMPACTSET_ASSERT(trigger >= 0);

      // 4. pre-impact state at the contact configuration.
      VectorXd q_star = q, p_minus = p;
      if (tau > 0) {
        Substep st = solve(q, p, t, tau);
        if (!st.converged) {
          return fail(ViStatus::kNewtonFailure, "DEL solve to the impact did not converge");
        }
        q_star = st.q_b;
        p_minus = st.p_b;
      }
      const double t_star = t + tau;

      ViImpact imp;
      imp.t = t_star;
      imp.q = q_star;
      imp.trigger = trigger;
      imp.p_minus = p_minus;
      const auto contacts = vi.Candidates(q_star);
      for (int i = 0; i < num_candidates; ++i) {
        if (contacts[i].phi <= o.gap_tolerance) imp.active.push_back(i);
      }
      if (!Contains(imp.active, trigger)) imp.active.push_back(trigger);
      std::sort(imp.active.begin(), imp.active.end());
      const MatrixXd M_star = tree.MassMatrix(q_star);
      const Eigen::LLT<MatrixXd> M_star_llt(M_star);
      imp.kinetic_minus = 0.5 * p_minus.dot(M_star_llt.solve(p_minus));

      if (resting) {
        // A touching contact pressed in without colliding: no impulse, the contact persists.
        if (!o.zeno_rule) {
          return fail(ViStatus::kPersistentContact,
                      "contact " + std::to_string(trigger) + " would persist at t = " +
                          std::to_string(t_star) + " (zeno_rule is off)");
        }
        pers.push_back(trigger);
        imp.closure = true;
        imp.closed = {trigger};
        imp.p_plus = p_minus;
        imp.kinetic_plus = imp.kinetic_minus;
        q = q_star;
        p = p_minus;
        t = t_star;
        res.impacts.push_back(std::move(imp));
        continue;
      }

      // 5. resolve in the metric M(q*)^-1 ([S-J] eq. 30).
      const auto m = static_cast<Eigen::Index>(imp.active.size());
      MatrixXd Jn(m, n);
      for (Eigen::Index i = 0; i < m; ++i) Jn.row(i) = contacts[imp.active[i]].jn;
      const VectorXd v_minus = M_star_llt.solve(p_minus);
      const impact::ImpactProblem problem(M_star, Jn, MatrixXd(0, n), VectorXd::Zero(m), v_minus,
                                          0);
      // 6. Zeno rule: the trigger contact had an impact less than one step ago.
      imp.zeno = o.zeno_rule && t_star - last_impact[trigger] < o.h;
      VectorXd v_plus;
      if (imp.zeno) {
        const laws::PlasticResult pl = laws::ResolvePlastic(problem, v_minus, o.plastic_mode);
        if (pl.status != laws::PlasticStatus::kSolved) {
          return fail(ViStatus::kImpactResolutionFailure, "plastic (Zeno) impact not solved");
        }
        v_plus = pl.v_plus;
        for (Eigen::Index i = 0; i < m; ++i) {
          if (pl.lambda[i] > 0) {
            last_impact[imp.active[i]] = t_star;
            if (!Contains(pers, imp.active[i])) {
              pers.push_back(imp.active[i]);
              imp.closed.push_back(imp.active[i]);
            }
          }
        }
      } else {
        laws::PropagativeOptions po;
        po.policy = o.policy;
        po.violation_tolerance = o.violation_tolerance;
        po.e = o.restitution == ViRestitution::kSequential ? o.e : 1.0;
        const laws::PropagativeResult el = laws::ResolvePropagative(problem, v_minus, po);
        if (el.status != laws::PropagativeStatus::kFeasible) {
          return fail(ViStatus::kImpactResolutionFailure,
                      "propagation ended with status " + std::string(laws::ToString(el.status)));
        }
        for (int i : el.sequence) {
          imp.sequence.push_back(imp.active[i]);
          last_impact[imp.active[i]] = t_star;
        }
        last_impact[trigger] = t_star;
        v_plus = el.v_plus;
        if (o.restitution == ViRestitution::kBlend && laws::BlendAlpha(o.R, o.alpha_rule) != 1) {
          const laws::PlasticResult pl = laws::ResolvePlastic(problem, v_minus, o.plastic_mode);
          if (pl.status != laws::PlasticStatus::kSolved) {
            return fail(ViStatus::kImpactResolutionFailure, "plastic part of the blend not solved");
          }
          v_plus = laws::BlendOutcome(el.v_plus, pl.v_plus, o.R, o.alpha_rule);
        }
      }
      imp.p_plus = M_star * v_plus;
      imp.kinetic_plus = 0.5 * v_plus.dot(imp.p_plus);
      q = q_star;
      p = imp.p_plus;
      t = t_star;
      res.impacts.push_back(std::move(imp));
      // 7-8: the loop finishes the step from (q*, p+) and re-checks [t*, t_end] for impacts.
    }
    t = t_end;
    res.records.push_back(vi.Record(t, q, p));
    res.steps = k + 1;
  }
  res.persistent = pers;
  return res;
}

}  // namespace impactset::simulators
