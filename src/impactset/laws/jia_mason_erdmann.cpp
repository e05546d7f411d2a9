#include <impactset/laws/jia_mason_erdmann.hpp>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <string>

#include <impactset/common/error_policy.hpp>

namespace impactset::laws {
namespace {

bool IsSpring(JmePhase p) { return p == JmePhase::kCompression || p == JmePhase::kRestitution; }
bool IsActive(JmePhase p) { return p != JmePhase::kInactive; }

void CheckVector(const char* field, const VectorXd& v, double lo, double hi, bool open_lo) {
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const double x = v[i];
    const bool ok = std::isfinite(x) && (open_lo ? x > lo : x >= lo) && x <= hi;
    if (!ok) {
      InvalidArgument(std::string(field) + "[" + std::to_string(i) + "]", x,
                      std::string("must be finite, ") + (open_lo ? "> " : ">= ") +
                          std::to_string(lo) +
                          (std::isfinite(hi) ? " and <= " + std::to_string(hi) : ""));
    }
  }
}

// The collision in fictitious time tau (dI_i = F_i dtau: the ODE in the forces F_i multiplied by
// F_p; docs/jia-mason-erdmann.md "How it is integrated"). State: spring deflections x (x_i <= 0
// compressed, F_i = -k_i x_i) and impulses I; xdot = xdot- + W I is a function of I (§3).
class Engine {
 public:
  Engine(const MatrixXd& W, const VectorXd& xdm, const JmeOptions& o)
      : W_(W), xdm_(xdm), o_(o), m_(static_cast<int>(xdm.size())) {
    kbar_ = o.stiffness.size() ? o.stiffness : VectorXd::Ones(m_);
    e_ = o.restitution.size() ? o.restitution : VectorXd::Constant(m_, o.default_restitution);
    k_ = o.start_stiffness.size() ? o.start_stiffness : kbar_;
    I_ = o.start_impulse.size() ? o.start_impulse : VectorXd::Zero(m_);
    x_ = VectorXd::Zero(m_);
    rigid_.assign(m_, false);
    if (!o.start_phase.empty()) {
      phase_ = o.start_phase;
      for (int i = 0; i < m_; ++i) {
        const double E = o.start_energy.size() ? o.start_energy[i] : 0.0;
        if (IsSpring(phase_[i])) x_[i] = -std::sqrt(2 * E / k_[i]);
        if (phase_[i] == JmePhase::kLocked) rigid_[i] = true;
      }
    } else {
      phase_.assign(m_, JmePhase::kInactive);
      for (int i = 0; i < m_; ++i) {
        if (xdm_[i] <= 0) phase_[i] = JmePhase::kCompression;  // touching or approaching
      }
    }
    for (int i = 0; i < m_; ++i) {
      if (e_[i] == 0 && phase_[i] == JmePhase::kLocked) rigid_[i] = true;
    }
    x_scale_ = x_.cwiseAbs().maxCoeff();
  }

  JmeResult Run() {
    JmeResult r;
    r.states.push_back(ActiveSet());
    Segment();
    if (o_.record_trace) Record();
    while (true) {
      LeaveIfIdle(r);
      if (springs_.empty()) {
        if (!r.states.back().empty()) r.states.push_back({});
        r.status = JmeStatus::kTerminated;
        break;
      }
      if (r.steps >= o_.max_steps) {
        r.status = JmeStatus::kStepLimit;
        break;
      }
      const double h = o_.step_fraction / std::sqrt(spring_rate_);
      VectorXd x1, I1;
      Step(x_, I_, h, x1, I1);
      ++r.steps;
      std::vector<std::pair<int, JmeEventType>> ev = Detect(x_, I_, x1, I1);
      if (ev.empty()) {
        Accept(x1, I1);
        continue;
      }
      // Locate the first event on this step by bisection (RK4 re-run from the step's start).
      double lo = 0, hi = h;
      for (int it = 0; it < 60 && hi - lo > 1e-16 * h; ++it) {
        const double mid = 0.5 * (lo + hi);
        VectorXd xm, Im;
        Step(x_, I_, mid, xm, Im);
        if (Detect(x_, I_, xm, Im).empty()) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      VectorXd xh, Ih;
      Step(x_, I_, hi, xh, Ih);
      ev = Detect(x_, I_, xh, Ih);
      Accept(xh, Ih);
      AddNearSimultaneousEnds(ev);
      const std::vector<int> before = ActiveSet();
      for (const auto& [i, type] : ev) Apply(i, type, r);
      const std::vector<int> after = ActiveSet();
      Segment();
      if (after != before) {
        if (static_cast<int>(r.states.size()) >= o_.max_states) {
          r.status = JmeStatus::kStateLimit;
          break;
        }
        if (!after.empty()) r.states.push_back(after);
      }
    }
    r.impulse = I_;
    r.normal_velocity = xdm_ + W_ * I_;
    r.stiffness = k_;
    r.energy_lost = lost_;
    r.kinetic_energy_change = xdm_.dot(I_) + 0.5 * I_.dot(W_ * I_);
    r.residual = std::abs(r.kinetic_energy_change + lost_ + StrainEnergy().sum());
    if (o_.record_trace) {
      const auto T = static_cast<Eigen::Index>(trace_I_.size());
      r.trace_impulse.resize(m_, T);
      r.trace_energy.resize(m_, T);
      for (Eigen::Index t = 0; t < T; ++t) {
        r.trace_impulse.col(t) = trace_I_[t];
        r.trace_energy.col(t) = trace_E_[t];
      }
    }
    return r;
  }

 private:
  std::vector<int> ActiveSet() const {
    std::vector<int> s;
    for (int i = 0; i < m_; ++i) {
      if (IsActive(phase_[i])) s.push_back(i);
    }
    return s;
  }

  // With every spring relaxed (x = 0) and none approaching, no force can arise (all F = 0, the
  // velocities stay put): the touching contacts leave without impulse.
  void LeaveIfIdle(JmeResult& r) {
    for (int i : springs_) {
      if (x_[i] != 0) return;
    }
    const VectorXd xd = xdm_ + W_ * I_;
    for (int i : springs_) {
      if (xd[i] < 0) return;
    }
    if (springs_.empty()) return;
    for (int i : std::vector<int>(springs_)) Apply(i, JmeEventType::kRestitutionEnd, r);
    Segment();
  }

  VectorXd StrainEnergy() const {
    VectorXd E = VectorXd::Zero(m_);
    for (int i : springs_) E[i] = 0.5 * k_[i] * x_[i] * x_[i];
    return E;
  }

  // Index lists and the locked block's factor for the current active set.
  void Segment() {
    springs_.clear();
    locked_.clear();
    spring_rate_ = 0;
    for (int i = 0; i < m_; ++i) {
      if (IsSpring(phase_[i])) {
        springs_.push_back(i);
        spring_rate_ += k_[i] * W_(i, i);
      } else if (phase_[i] == JmePhase::kLocked) {
        locked_.push_back(i);
      }
    }
    if (!locked_.empty()) {
      const auto L = static_cast<Eigen::Index>(locked_.size());
      MatrixXd WLL(L, L);
      for (Eigen::Index a = 0; a < L; ++a) {
        for (Eigen::Index b = 0; b < L; ++b) WLL(a, b) = W_(locked_[a], locked_[b]);
      }
      locked_factor_.compute(WLL);
    }
  }

  // Contact forces: springs F = -k x; locked contacts keep xddot_L = (W F)_L = 0 (for a single
  // locked contact: dI_i/dI_p = -sum_k W_ik dI_k/dI_p / W_ii).
  VectorXd Force(const VectorXd& x) const {
    VectorXd F = VectorXd::Zero(m_);
    for (int i : springs_) F[i] = -k_[i] * x[i];
    if (!locked_.empty()) {
      const auto L = static_cast<Eigen::Index>(locked_.size());
      VectorXd rhs(L);
      for (Eigen::Index a = 0; a < L; ++a) rhs[a] = -W_.row(locked_[a]).dot(F);
      const VectorXd FL = locked_factor_.solve(rhs);
      for (Eigen::Index a = 0; a < L; ++a) F[locked_[a]] = FL[a];
    }
    return F;
  }

  void Derivative(const VectorXd& x, const VectorXd& I, VectorXd& dx, VectorXd& dI) const {
    const VectorXd xd = xdm_ + W_ * I;
    dx = VectorXd::Zero(m_);
    for (int i : springs_) dx[i] = xd[i];
    dI = Force(x);
  }

  void Step(const VectorXd& x, const VectorXd& I, double h, VectorXd& x1, VectorXd& I1) const {
    VectorXd a1, b1, a2, b2, a3, b3, a4, b4;
    Derivative(x, I, a1, b1);
    Derivative(x + 0.5 * h * a1, I + 0.5 * h * b1, a2, b2);
    Derivative(x + 0.5 * h * a2, I + 0.5 * h * b2, a3, b3);
    Derivative(x + h * a3, I + h * b3, a4, b4);
    x1 = x + (h / 6) * (a1 + 2 * a2 + 2 * a3 + a4);
    I1 = I + (h / 6) * (b1 + 2 * b2 + 2 * b3 + b4);
  }

  // Events between (x0, I0) and (x1, I1), per contact (the transitions of Fig. 4, §3.5).
  std::vector<std::pair<int, JmeEventType>> Detect(const VectorXd& x0,
                                                   const VectorXd& I0,
                                                   const VectorXd& x1,
                                                   const VectorXd& I1) const {
    std::vector<std::pair<int, JmeEventType>> ev;
    const VectorXd xd0 = xdm_ + W_ * I0;
    const VectorXd xd1 = xdm_ + W_ * I1;
    VectorXd F1;
    if (!locked_.empty()) F1 = Force(x1);
    for (int i = 0; i < m_; ++i) {
      switch (phase_[i]) {
        case JmePhase::kCompression:
          if (x1[i] > 0) {
            ev.emplace_back(i, JmeEventType::kRestitutionEnd);  // pushed away while touching
          } else if (xd0[i] < 0 && xd1[i] >= 0) {
            ev.emplace_back(i, JmeEventType::kCompressionEnd);
          }
          break;
        case JmePhase::kRestitution:
          if (x1[i] > 0) {
            ev.emplace_back(i, JmeEventType::kRestitutionEnd);
          } else if (xd1[i] < 0) {
            ev.emplace_back(i, JmeEventType::kRestart);
          }
          break;
        case JmePhase::kLocked:
          if (F1[i] < 0) ev.emplace_back(i, JmeEventType::kRelease);
          break;
        case JmePhase::kInactive:
          if (xd1[i] < 0) ev.emplace_back(i, JmeEventType::kReactivation);
          break;
      }
    }
    (void)x0;
    return ev;
  }

  // A restitution end within event_tolerance of another one is the same transition (a
  // symmetric system's contacts end together and go to S4 directly).
  void AddNearSimultaneousEnds(std::vector<std::pair<int, JmeEventType>>& ev) const {
    bool any_end = false;
    for (const auto& [i, t] : ev) any_end |= t == JmeEventType::kRestitutionEnd;
    if (!any_end) return;
    const VectorXd xd = xdm_ + W_ * I_;
    for (int i : springs_) {
      const bool listed =
          std::any_of(ev.begin(), ev.end(), [i](const auto& p) { return p.first == i; });
      if (!listed && phase_[i] == JmePhase::kRestitution && xd[i] > 0 &&
          x_[i] > -o_.event_tolerance * x_scale_) {
        ev.emplace_back(i, JmeEventType::kRestitutionEnd);
      }
    }
  }

  void Accept(const VectorXd& x1, const VectorXd& I1) {
    x_ = x1;
    I_ = I1;
    for (int i : springs_) x_scale_ = std::max(x_scale_, std::abs(x_[i]));
    if (o_.record_trace) Record();
  }

  void Record() {
    trace_I_.push_back(I_);
    trace_E_.push_back(StrainEnergy());
  }

  void Apply(int i, JmeEventType type, JmeResult& r) {
    const double E = IsSpring(phase_[i]) ? 0.5 * k_[i] * x_[i] * x_[i] : 0.0;
    switch (type) {
      case JmeEventType::kCompressionEnd: {
        const double e2 = e_[i] * e_[i];
        if (e_[i] == 0 || k_[i] / e2 > o_.lock_ratio * kbar_[i]) {
          lost_ += E;  // all of it: the contact becomes rigid (bodies merge)
          x_[i] = 0;
          phase_[i] = JmePhase::kLocked;
          rigid_[i] = true;
          type = JmeEventType::kLock;
        } else {
          lost_ += (1 - e2) * E;  // Theorem 2
          x_[i] *= e2;            // force continuous: k x unchanged
          k_[i] /= e2;
          phase_[i] = JmePhase::kRestitution;
        }
        break;
      }
      case JmeEventType::kRestart:
        phase_[i] = JmePhase::kCompression;
        break;
      case JmeEventType::kRestitutionEnd:
        lost_ += E;  // ~0: the spring is (to the bisection's accuracy) relaxed
        x_[i] = 0;
        phase_[i] = JmePhase::kInactive;
        break;
      case JmeEventType::kReactivation:
        x_[i] = 0;
        phase_[i] = rigid_[i] ? JmePhase::kLocked : JmePhase::kCompression;
        break;
      case JmeEventType::kRelease:
        phase_[i] = JmePhase::kInactive;
        break;
      case JmeEventType::kLock:
        break;
    }
    r.events.push_back({type, i, I_, E});
  }

  const MatrixXd& W_;
  const VectorXd& xdm_;
  const JmeOptions& o_;
  const int m_;
  VectorXd kbar_, e_, k_, x_, I_;
  std::vector<JmePhase> phase_;
  std::vector<bool> rigid_;
  std::vector<int> springs_, locked_;
  Eigen::LDLT<MatrixXd> locked_factor_;
  double spring_rate_ = 0, lost_ = 0, x_scale_ = 0;
  std::vector<VectorXd> trace_I_, trace_E_;
};

}  // namespace

void JmeOptions::Validate() const {
  CheckVector("stiffness", stiffness, 0, INFINITY, true);
  CheckVector("restitution", restitution, 0, 1, false);
  if (!(default_restitution >= 0 && default_restitution <= 1)) {
    InvalidArgument("default_restitution", default_restitution, "must be in [0, 1]");
  }
  if (!(step_fraction > 0 && step_fraction <= 0.5)) {
    InvalidArgument("step_fraction", step_fraction, "must be in (0, 0.5]");
  }
  if (!(lock_ratio > 1) || !std::isfinite(lock_ratio)) {
    InvalidArgument("lock_ratio", lock_ratio, "must be finite and > 1");
  }
  if (!(event_tolerance >= 0 && event_tolerance <= 1e-3)) {
    InvalidArgument("event_tolerance", event_tolerance, "must be in [0, 1e-3]");
  }
  if (max_states < 1) InvalidArgument("max_states", max_states, "must be >= 1");
  if (max_steps < 1) InvalidArgument("max_steps", max_steps, "must be >= 1");
  CheckVector("start_impulse", start_impulse, 0, INFINITY, false);
  CheckVector("start_energy", start_energy, 0, INFINITY, false);
  CheckVector("start_stiffness", start_stiffness, 0, INFINITY, true);
}

JmeResult SolveJiaMasonErdmann(const MatrixXd& W,
                               const VectorXd& xdot_minus,
                               const JmeOptions& options) {
  options.Validate();
  const Eigen::Index m = xdot_minus.size();
  if (m < 1) InvalidArgument("xdot_minus.size()", m, "must be >= 1");
  if (W.rows() != m || W.cols() != m) {
    InvalidArgument("W.rows() x W.cols()",
                    std::to_string(W.rows()) + " x " + std::to_string(W.cols()),
                    "must be m x m with m = xdot_minus.size() = " + std::to_string(m));
  }
  if (!W.allFinite() || !xdot_minus.allFinite()) {
    InvalidArgument("W, xdot_minus", "non-finite", "must be finite");
  }
  if ((W - W.transpose()).cwiseAbs().maxCoeff() > 1e-9 * W.cwiseAbs().maxCoeff()) {
    InvalidArgument("W", "asymmetric", "must be symmetric (a Delassus matrix)");
  }
  if (W.diagonal().minCoeff() <= 0) {
    InvalidArgument("W.diagonal().minCoeff()", W.diagonal().minCoeff(), "must be > 0");
  }
  auto check_size = [m](const char* field, Eigen::Index size) {
    if (size != 0 && size != m) {
      InvalidArgument(std::string(field) + ".size()", size,
                      "must be 0 or the number of contacts " + std::to_string(m));
    }
  };
  check_size("stiffness", options.stiffness.size());
  check_size("restitution", options.restitution.size());
  check_size("start_impulse", options.start_impulse.size());
  check_size("start_energy", options.start_energy.size());
  check_size("start_stiffness", options.start_stiffness.size());
  check_size("start_phase", static_cast<Eigen::Index>(options.start_phase.size()));
  Engine engine(W, xdot_minus, options);
  return engine.Run();
}

JmeResult SolveJiaMasonErdmann(const impact::ImpactProblem& problem, const JmeOptions& options) {
  const int m = problem.m();
  const MatrixXd W = problem.Delassus().topLeftCorner(m, m);
  const VectorXd xdm = problem.Jn() * problem.v_minus();
  JmeResult r = SolveJiaMasonErdmann(W, xdm, options);
  r.v_plus = problem.v_minus() + problem.MinvJt().leftCols(m) * r.impulse;
  r.contact_velocity = problem.ContactJacobian() * r.v_plus;
  return r;
}

std::vector<JmeResult> JmeStiffnessRatioSweep(const impact::ImpactProblem& problem,
                                              const JmeOptions& options,
                                              double log10_min,
                                              double log10_max,
                                              int count,
                                              int swept_contact) {
  if (count < 1) InvalidArgument("count", count, "must be >= 1");
  if (!std::isfinite(log10_min) || !std::isfinite(log10_max) || log10_min > log10_max) {
    InvalidArgument("log10_min, log10_max",
                    std::to_string(log10_min) + ", " + std::to_string(log10_max),
                    "must be finite with log10_min <= log10_max");
  }
  if (swept_contact < 0 || swept_contact >= problem.m()) {
    InvalidArgument("swept_contact", swept_contact,
                    "must be in [0, " + std::to_string(problem.m()) + ")");
  }
  std::vector<JmeResult> out;
  out.reserve(static_cast<size_t>(count));
  for (int j = 0; j < count; ++j) {
    const double r = count == 1 ? log10_min : log10_min + (log10_max - log10_min) * j / (count - 1);
    JmeOptions o = options;
    if (o.stiffness.size() == 0) o.stiffness = VectorXd::Ones(problem.m());
    o.stiffness[swept_contact] *= std::pow(10.0, r);
    out.push_back(SolveJiaMasonErdmann(problem, o));
  }
  return out;
}

}  // namespace impactset::laws
