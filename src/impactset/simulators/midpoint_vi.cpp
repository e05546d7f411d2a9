#include <impactset/simulators/midpoint_vi.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <boost/math/tools/toms748_solve.hpp>

#include <impactset/common/error_policy.hpp>
#include <impactset/simulators/tilted_drop.hpp>  // GravityForce

namespace impactset::simulators {

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

std::vector<MatrixXd> MassMatrixDerivative(const systems::PlanarTree& tree,
                                           const VectorXd& q,
                                           double step) {
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
    if (shape.frame == systems::PlanarTree::kWorld || shape.type == systems::ShapeType::kWall)
      continue;
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

  std::vector<systems::Contact> Candidates(const VectorXd& q) const {
    return tree_.ContactCandidates(q);
  }

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

// The earliest impact of a substep: its time tau after the substep's start and its contact.
struct ImpactTime {
  double tau = 0;
  int trigger = -1;
  bool resting = false;  // touching and pressed in from rest: made persistent, no impulse

  // Keeps (tj, j) when it is earlier than the best so far (the first one offered always).
  void Offer(double tj, int j, bool rest) {
    if (tj < tau || trigger < 0) {
      tau = tj;
      trigger = j;
      resting = rest;
    }
  }
};

// A sign change of contact j's gap over the substep times [lo, hi].
struct Bracket {
  double lo = 0, hi = 0, g_lo = 0, g_hi = 0;
};

// What a touching contact does at the start of a substep.
enum class TouchingStart {
  kColliding,  // approaching now: the impact is at tau = 0
  kResting,    // pressed into penetration from rest within 40 halvings: a persistent contact
  kReturning   // leaving, then crossing again: the bracket now starts where it is open
};

// The state at the start of a substep in the metric of M(q_a).
struct StartState {
  std::vector<systems::Contact> contacts;
  Eigen::LLT<MatrixXd> M_llt;
  VectorXd v;
  double p_norm = 0;  // sqrt(p^T M^-1 p)
};

// The impact at q*: its contacts and mass matrix.
struct ImpactState {
  std::vector<systems::Contact> contacts;
  MatrixXd M;
  Eigen::LLT<MatrixXd> M_llt;
};

// One simulation (steps 1-8 of [S-J] §VI): the state (q, p, t), the persistent contacts and the
// result so far. Each step returns false once the run has ended with a failure status.
class ViRun {
 public:
  ViRun(const systems::PlanarTree& tree,
        const VectorXd& q0,
        const VectorXd& v0,
        const MidpointViOptions& o)
      : tree_(tree),
        o_(o),
        vi_(tree, o),
        q_(q0),
        p_(tree.MassMatrix(q0) * v0),
        num_candidates_(static_cast<int>(vi_.Candidates(q0).size())),
        last_impact_(num_candidates_, -std::numeric_limits<double>::infinity()) {
    res_.records.reserve(static_cast<size_t>(o.steps) + 1);
    res_.records.push_back(vi_.Record(t_, q_, p_));
  }

  MidpointViResult Run() {
    for (int k = 0; k < o_.steps; ++k) {
      if (!Step(k)) break;
    }
    res_.persistent = pers_;
    return std::move(res_);
  }

 private:
  bool Fail(ViStatus s, std::string msg) {
    res_.status = s;
    res_.message = std::move(msg);
    return false;
  }

  // A DEL solve, counted in the result whether or not it converges.
  Substep SolveDel(const VectorXd& qa, const VectorXd& pa, double ta, double T) {
    Substep s = vi_.Solve(qa, pa, ta, T, pers_);
    res_.newton_iterations += s.iterations;
    if (s.converged) res_.residual = std::max(res_.residual, s.residual);
    return s;
  }

  // Step k: substeps from t to (k + 1) h, each ending at the next impact if there is one.
  bool Step(int k) {
    const double t_end = (k + 1) * o_.h;
    int impacts_this_step = 0;
    while (true) {
      const double T = t_end - t_;
      if (T <= 1e-12 * o_.h) break;  // an impact at the very end of the step: keep (q*, p+)
      Substep s = SolveDel(q_, p_, t_, T);
      if (!s.converged) {
        return Fail(ViStatus::kNewtonFailure,
                    "DEL solve at t = " + std::to_string(t_) + " did not converge");
      }
      if (ReleasePulling(s)) continue;
      // 2. impact detection: contacts (not persistent) penetrating at the end of the substep.
      const auto end_contacts = vi_.Candidates(s.q_b);
      const std::vector<int> crossing = Crossing(end_contacts);
      if (crossing.empty()) {
        q_ = s.q_b;
        p_ = s.p_b;
        t_ = t_end;
        break;
      }
      if (++impacts_this_step > o_.max_impacts_per_step) {
        return Fail(ViStatus::kImpactCap,
                    "more than max_impacts_per_step impacts in the step "
                    "ending at t = " +
                        std::to_string(t_end));
      }
      const std::optional<ImpactTime> when = FindImpactTime(T, crossing, end_contacts);
      if (!when) {
        return Fail(ViStatus::kImpactTimeFailure,
                    "impact-time solve failed in the step ending at t = " + std::to_string(t_end));
      }
      if (!Impact(*when)) return false;
      // 7-8: the loop finishes the step from (q*, p+) and re-checks [t*, t_end] for impacts.
    }
    t_ = t_end;
    res_.records.push_back(vi_.Record(t_, q_, p_));
    res_.steps = k + 1;
    return true;
  }

  // Releases the persistent contacts whose impulse would pull (unilateral contact).
  bool ReleasePulling(const Substep& s) {
    bool released = false;
    for (Eigen::Index i = static_cast<Eigen::Index>(pers_.size()) - 1; i >= 0; --i) {
      if (s.lambda[i] < 0) {
        pers_.erase(pers_.begin() + i);
        released = true;
      }
    }
    return released;
  }

  std::vector<int> Crossing(const std::vector<systems::Contact>& end_contacts) const {
    std::vector<int> crossing;
    for (int j = 0; j < num_candidates_; ++j) {
      if (!Contains(pers_, j) && end_contacts[j].phi < -o_.gap_tolerance) crossing.push_back(j);
    }
    return crossing;
  }

  // Contact j's gap at the end of a substep of length tau from the current state.
  double GapAt(int j, double tau) {
    const Substep st = SolveDel(q_, p_, t_, tau);
    if (!st.converged) throw SolveFailed{};
    return vi_.Candidates(st.q_b)[j].phi;
  }

  // 3. impact time: the smallest root tau in [0, T] of phi_j(q_b(tau)) over crossing j,
  // q_b(tau) from the DEL solve (our choice, the papers give none: bracketing on tau, TOMS
  // 748). Empty when a DEL solve or the root search failed.
  std::optional<ImpactTime> FindImpactTime(double T,
                                           const std::vector<int>& crossing,
                                           const std::vector<systems::Contact>& end_contacts) {
    StartState a{vi_.Candidates(q_), Eigen::LLT<MatrixXd>(tree_.MassMatrix(q_)), {}, 0};
    a.v = a.M_llt.solve(p_);
    a.p_norm = std::sqrt(std::max(0.0, p_.dot(a.v)));
    ImpactTime best{T, -1, false};
    try {
      for (int j : crossing) {
        Bracket b{0, T, a.contacts[j].phi, end_contacts[j].phi};
        if (b.g_lo <= o_.gap_tolerance) {
          const TouchingStart start = ClassifyTouching(j, T, a, &b);
          if (start != TouchingStart::kReturning) {
            best.Offer(0, j, start == TouchingStart::kResting);
            continue;
          }
        }
        if (b.lo >= best.tau) continue;  // cannot beat the earliest root found so far
        best.Offer(Root(j, b), j, false);
      }
    } catch (const std::exception&) {
      return std::nullopt;
    }
    IMPACTSET_ASSERT(best.trigger >= 0);
    return best;
  }

  // Touching at the start: colliding now (tau = 0), or leaving and maybe returning.
  TouchingStart ClassifyTouching(int j, double T, const StartState& a, Bracket* b) {
    const Eigen::RowVectorXd jn = a.contacts[j].jn;
    const double jn_norm = std::sqrt(std::max(0.0, jn.dot(a.M_llt.solve(jn.transpose()))));
    if (jn.dot(a.v) < -o_.violation_tolerance * jn_norm * a.p_norm) {
      return TouchingStart::kColliding;
    }
    for (int h2 = 1; h2 <= 40; ++h2) {
      const double ts = T * std::ldexp(1.0, -h2);
      const double g = GapAt(j, ts);
      if (g > o_.gap_tolerance) {
        b->lo = ts;
        b->g_lo = g;
        return TouchingStart::kReturning;
      }
      if (g < -o_.gap_tolerance) {
        b->hi = ts;
        b->g_hi = g;
      }
    }
    return TouchingStart::kResting;  // pressed into the ground from rest: a persistent contact
  }

  // Contact j's crossing time within the bracket (TOMS 748). @throws SolveFailed.
  double Root(int j, const Bracket& b) {
    std::uintmax_t iters = 200;
    const auto root = boost::math::tools::toms748_solve(
        [&](double x) { return GapAt(j, x); }, b.lo, b.hi, b.g_lo, b.g_hi,
        [&](double lo, double hi) { return hi - lo <= o_.time_tolerance * o_.h; }, iters);
    if (iters >= 200) throw SolveFailed{};
    return 0.5 * (root.first + root.second);
  }

  // 4-6: the state at the impact, then the impact (or the closure of a resting contact).
  bool Impact(const ImpactTime& when) {
    VectorXd q_star = q_, p_minus = p_;
    if (when.tau > 0) {
      Substep st = SolveDel(q_, p_, t_, when.tau);
      if (!st.converged) {
        return Fail(ViStatus::kNewtonFailure, "DEL solve to the impact did not converge");
      }
      q_star = st.q_b;
      p_minus = st.p_b;
    }
    ViImpact imp;
    imp.t = t_ + when.tau;
    imp.q = q_star;
    imp.trigger = when.trigger;
    imp.p_minus = p_minus;
    ImpactState at{vi_.Candidates(q_star), tree_.MassMatrix(q_star), {}};
    at.M_llt.compute(at.M);
    for (int i = 0; i < num_candidates_; ++i) {
      if (at.contacts[i].phi <= o_.gap_tolerance) imp.active.push_back(i);
    }
    if (!Contains(imp.active, when.trigger)) imp.active.push_back(when.trigger);
    std::sort(imp.active.begin(), imp.active.end());
    imp.kinetic_minus = 0.5 * p_minus.dot(at.M_llt.solve(p_minus));
    if (when.resting) return Close(std::move(imp));
    return Resolve(std::move(imp), at);
  }

  // A touching contact pressed in without colliding: no impulse, the contact persists.
  bool Close(ViImpact imp) {
    if (!o_.zeno_rule) {
      return Fail(ViStatus::kPersistentContact,
                  "contact " + std::to_string(imp.trigger) +
                      " would persist at t = " + std::to_string(imp.t) + " (zeno_rule is off)");
    }
    pers_.push_back(imp.trigger);
    imp.closure = true;
    imp.closed = {imp.trigger};
    imp.p_plus = imp.p_minus;
    imp.kinetic_plus = imp.kinetic_minus;
    q_ = imp.q;
    p_ = imp.p_minus;
    t_ = imp.t;
    res_.impacts.push_back(std::move(imp));
    return true;
  }

  // 5. resolve in the metric M(q*)^-1 ([S-J] eq. 30).
  bool Resolve(ViImpact imp, const ImpactState& at) {
    const auto n = static_cast<Eigen::Index>(q_.size());
    const auto m = static_cast<Eigen::Index>(imp.active.size());
    MatrixXd Jn(m, n);
    for (Eigen::Index i = 0; i < m; ++i) Jn.row(i) = at.contacts[imp.active[i]].jn;
    const VectorXd v_minus = at.M_llt.solve(imp.p_minus);
    const impact::ImpactProblem problem(at.M, Jn, MatrixXd(0, n), VectorXd::Zero(m), v_minus, 0);
    // 6. Zeno rule: the trigger contact had an impact less than one step ago.
    imp.zeno = o_.zeno_rule && imp.t - last_impact_[imp.trigger] < o_.h;
    VectorXd v_plus;
    if (!(imp.zeno ? ResolveZeno(problem, &imp, &v_plus)
                   : ResolveElastic(problem, &imp, &v_plus))) {
      return false;
    }
    imp.p_plus = at.M * v_plus;
    imp.kinetic_plus = 0.5 * v_plus.dot(imp.p_plus);
    q_ = imp.q;
    p_ = imp.p_plus;
    t_ = imp.t;
    res_.impacts.push_back(std::move(imp));
    return true;
  }

  // Plastic impact; the contacts that take an impulse become persistent.
  bool ResolveZeno(const impact::ImpactProblem& problem, ViImpact* imp, VectorXd* v_plus) {
    const laws::PlasticResult pl =
        laws::ResolvePlastic(problem, problem.v_minus(), o_.plastic_mode);
    if (pl.status != laws::PlasticStatus::kSolved) {
      return Fail(ViStatus::kImpactResolutionFailure, "plastic (Zeno) impact not solved");
    }
    *v_plus = pl.v_plus;
    for (Eigen::Index i = 0; i < problem.m(); ++i) {
      if (pl.lambda[i] > 0) {
        last_impact_[imp->active[i]] = imp->t;
        if (!Contains(pers_, imp->active[i])) {
          pers_.push_back(imp->active[i]);
          imp->closed.push_back(imp->active[i]);
        }
      }
    }
    return true;
  }

  // The elastic propagation, blended with the plastic outcome under ViRestitution::kBlend.
  bool ResolveElastic(const impact::ImpactProblem& problem, ViImpact* imp, VectorXd* v_plus) {
    laws::PropagativeOptions po;
    po.policy = o_.policy;
    po.violation_tolerance = o_.violation_tolerance;
    po.e = o_.restitution == ViRestitution::kSequential ? o_.e : 1.0;
    const laws::PropagativeResult el = laws::ResolvePropagative(problem, problem.v_minus(), po);
    if (el.status != laws::PropagativeStatus::kFeasible) {
      return Fail(ViStatus::kImpactResolutionFailure,
                  "propagation ended with status " + std::string(laws::ToString(el.status)));
    }
    for (int i : el.sequence) {
      imp->sequence.push_back(imp->active[i]);
      last_impact_[imp->active[i]] = imp->t;
    }
    last_impact_[imp->trigger] = imp->t;
    *v_plus = el.v_plus;
    if (o_.restitution == ViRestitution::kBlend && laws::BlendAlpha(o_.R, o_.alpha_rule) != 1) {
      const laws::PlasticResult pl =
          laws::ResolvePlastic(problem, problem.v_minus(), o_.plastic_mode);
      if (pl.status != laws::PlasticStatus::kSolved) {
        return Fail(ViStatus::kImpactResolutionFailure, "plastic part of the blend not solved");
      }
      *v_plus = laws::BlendOutcome(el.v_plus, pl.v_plus, o_.R, o_.alpha_rule);
    }
    return true;
  }

  const systems::PlanarTree& tree_;
  const MidpointViOptions& o_;
  const Integrator vi_;
  VectorXd q_, p_;
  double t_ = 0;
  std::vector<int> pers_;  // persistent contacts (closed by the Zeno rule, docs/midpoint-vi.md)
  const int num_candidates_;
  std::vector<double> last_impact_;  // per candidate: time of its last impact
  MidpointViResult res_;
};

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
  return ViRun(tree, q0, v0, o).Run();
}

}  // namespace impactset::simulators
