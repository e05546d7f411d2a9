#include <impactset/simulators/compliant.hpp>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>

#include <impactset/common/error_policy.hpp>

namespace impactset::simulators {
namespace {

void CheckPositive(const char* field, double value) {
  if (!(std::isfinite(value) && value > 0)) InvalidArgument(field, value, "must be finite and > 0");
}
void CheckNonNegative(const char* field, double value) {
  if (!(std::isfinite(value) && value >= 0)) {
    InvalidArgument(field, value, "must be finite and >= 0");
  }
}

// Everything the right-hand side needs. State layout (N = 2m + n + m d + 1):
//   [phi (m) | v (n) | Lambda_n (m) | Lambda_t (m d) | work of f_ext (1)].
struct Model {
  int m = 0, n = 0, d = 0;
  MatrixXd Jn, T;              // normal rows; tangential rows of ContactJacobian()
  MatrixXd minv_jnt, minv_tt;  // M^-1 Jn^T, M^-1 T^T
  VectorXd minv_f, f_ext;      // M^-1 f_ext, f_ext
  VectorXd k, c, mu;           // per contact
  double v_reg = 0;
  CompliantEnd end = CompliantEnd::kStoppedApproaching;
  double stop_velocity = 0, min_impulse = 0;
  VectorXd separation_scale;  // sqrt(k_i m_i): turns k phi + c vn into a velocity

  int phi0() const { return 0; }
  int v0() const { return m; }
  int ln0() const { return m + n; }
  int lt0() const { return 2 * m + n; }
  int w0() const { return 2 * m + n + m * d; }
  int size() const { return w0() + 1; }

  // Contact forces at a state: normal lambda (m) and tangential f_t (m d).
  void Forces(const double* y, VectorXd& vn, VectorXd& vt, VectorXd& ln, VectorXd& ft) const {
    Eigen::Map<const VectorXd> v(y + v0(), n);
    vn = Jn * v;
    vt = T * v;
    ln.resize(m);
    ft.resize(m * d);
    for (int i = 0; i < m; ++i) {
      const double phi = y[phi0() + i];
      ln[i] = phi <= 0 ? std::max(-(k[i] * phi + c[i] * vn[i]), 0.0) : 0.0;
      if (d == 0) continue;
      const double speed = vt.segment(i * d, d).norm();
      ft.segment(i * d, d) = -mu[i] * ln[i] / std::max(speed, v_reg) * vt.segment(i * d, d);
    }
  }

  void Rhs(const double* y, double* ydot) const {
    VectorXd vn, vt, ln, ft;
    Forces(y, vn, vt, ln, ft);
    Eigen::Map<const VectorXd> v(y + v0(), n);
    Eigen::Map<VectorXd> out(ydot, size());
    out.segment(phi0(), m) = vn;
    out.segment(v0(), n) = minv_jnt * ln + minv_f;
    if (d > 0) out.segment(v0(), n) += minv_tt * ft;
    out.segment(ln0(), m) = ln;
    out.segment(lt0(), m * d) = ft;
    out[w0()] = f_ext.size() > 0 ? f_ext.dot(v) : 0.0;
  }

  // d ydot / d y, dense, column-major N x N.
  void Jacobian(const double* y, Eigen::Map<MatrixXd>& J) const {
    VectorXd vn, vt, ln, ft;
    Forces(y, vn, vt, ln, ft);
    // L = d[lambda_n; f_t] / d[phi; v].
    MatrixXd L = MatrixXd::Zero(m + m * d, m + n);
    for (int i = 0; i < m; ++i) {
      const double phi = y[phi0() + i];
      const bool pushing = phi <= 0 && k[i] * phi + c[i] * vn[i] < 0;
      const double a = pushing ? -k[i] : 0.0;  // d lambda_n / d phi
      const double b = pushing ? -c[i] : 0.0;  // d lambda_n / d vn
      L(i, i) = a;
      L.block(i, m, 1, n) = b * Jn.row(i);
      if (d == 0) continue;
      const VectorXd u = vt.segment(i * d, d);
      const double speed = u.norm();
      const double denom = std::max(speed, v_reg);
      const VectorXd g = u / denom;
      // dg/du: (I - u u^T / |u|^2) / |u| outside the regularised ball, I / v_reg inside.
      MatrixXd G = MatrixXd::Identity(d, d) / denom;
      if (speed > v_reg) G -= u * u.transpose() / (speed * speed * speed);
      const int r = m + i * d;
      L.block(r, i, d, 1) = -mu[i] * g * a;
      L.block(r, m, d, n) = -mu[i] * (g * (b * Jn.row(i)) + ln[i] * G * T.middleRows(i * d, d));
    }
    J.setZero();
    J.block(phi0(), v0(), m, n) = Jn;
    MatrixXd minv_j(n, m + m * d);
    minv_j << minv_jnt, minv_tt;
    const MatrixXd dv = minv_j * L;  // n x (m + n)
    J.block(v0(), phi0(), n, m) = dv.leftCols(m);
    J.block(v0(), v0(), n, n) = dv.rightCols(n);
    J.block(ln0(), phi0(), m + m * d, m) = L.leftCols(m);
    J.block(ln0(), v0(), m + m * d, n) = L.rightCols(n);
    if (f_ext.size() > 0) J.block(w0(), v0(), 1, n) = f_ext.transpose();
  }

  // The end condition as one function that turns positive when it holds (docs/examples.md §3.7).
  double EndValue(const double* y) const {
    Eigen::Map<const VectorXd> v(y + v0(), n);
    const VectorXd vn = Jn * v;
    double g = 1.0;  // authors: min(vn of touching contacts, 1) + vtol
    if (end == CompliantEnd::kStoppedApproaching) {
      for (int i = 0; i < m; ++i) {
        if (y[phi0() + i] <= 0) g = std::min(g, vn[i]);
      }
      g += stop_velocity;
      if (min_impulse > 0) {
        for (int i = 0; i < m; ++i) g = std::min(g, y[ln0() + i] - min_impulse);
      }
    } else {
      for (int i = 0; i < m; ++i) {
        g = std::min(g, vn[i] + stop_velocity);
        const double phi = y[phi0() + i];
        if (phi <= 0) g = std::min(g, (k[i] * phi + c[i] * vn[i]) / separation_scale[i]);
      }
    }
    return g;
  }

  // Where the right-hand side is not smooth, per contact: phi = 0 (touch), k phi + c vn = 0
  // (the one-sided force switches), |v_t| = v_reg (regularised Coulomb's kink). Integration
  // restarts there, so that BDF never steps across a kink (3 m functions).
  int num_switches() const { return 3 * m; }
  void Switches(const double* y, double* g) const {
    Eigen::Map<const VectorXd> v(y + v0(), n);
    const VectorXd vn = Jn * v;
    const VectorXd vt = T * v;
    for (int i = 0; i < m; ++i) {
      const double phi = y[phi0() + i];
      g[3 * i] = phi;
      g[3 * i + 1] = (k[i] * phi + c[i] * vn[i]) / separation_scale[i];
      g[3 * i + 2] = d > 0 ? vt.segment(i * d, d).norm() - v_reg : 1.0;
    }
    for (int j = 0; j < num_switches(); ++j) {
      if (masked[j]) g[j] = 1.0;
    }
  }
  // Switches that chatter (fire again right after their own restart: a sliding mode along
  // |v_t| = v_reg, say) are masked; BDF then steps over that kink.
  std::vector<char> masked;

  double Energy(const double* y) const {
    Eigen::Map<const VectorXd> v(y + v0(), n);
    double e = 0.5 * v.dot(M * v) - y[w0()];
    for (int i = 0; i < m; ++i) {
      const double phi = y[phi0() + i];
      if (phi < 0) e += 0.5 * k[i] * phi * phi;
    }
    return e;
  }
  MatrixXd M;
};

int RhsFn(sunrealtype /*t*/, N_Vector y, N_Vector ydot, void* user_data) {
  static_cast<const Model*>(user_data)->Rhs(N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
  return 0;
}

int JacFn(sunrealtype /*t*/,
          N_Vector y,
          N_Vector /*fy*/,
          SUNMatrix J,
          void* user_data,
          N_Vector /*tmp1*/,
          N_Vector /*tmp2*/,
          N_Vector /*tmp3*/) {
  const auto* model = static_cast<const Model*>(user_data);
  Eigen::Map<MatrixXd> jac(SUNDenseMatrix_Data(J), SUNDenseMatrix_Rows(J),
                           SUNDenseMatrix_Columns(J));
  model->Jacobian(N_VGetArrayPointer(y), jac);
  return 0;
}

int RootFn(sunrealtype /*t*/, N_Vector y, sunrealtype* gout, void* user_data) {
  const auto* model = static_cast<const Model*>(user_data);
  gout[0] = model->EndValue(N_VGetArrayPointer(y));
  model->Switches(N_VGetArrayPointer(y), gout + 1);
  return 0;
}

// CVODE reports through the handler instead of printing to stderr.
void ErrorFn(int /*code*/, const char* /*module*/, const char* function, char* msg, void* data) {
  *static_cast<std::string*>(data) = std::string(function) + ": " + msg;
}

// RAII for the C handles.
struct CvodeHandles {
  SUNContext ctx = nullptr;
  N_Vector y = nullptr;
  SUNMatrix A = nullptr;
  SUNLinearSolver ls = nullptr;
  void* mem = nullptr;
  ~CvodeHandles() {
    if (mem) CVodeFree(&mem);
    if (ls) SUNLinSolFree(ls);
    if (A) SUNMatDestroy(A);
    if (y) N_VDestroy(y);
    if (ctx) SUNContext_Free(&ctx);
  }
};

std::string FlagName(int flag) {
  char* name = CVodeGetReturnFlagName(flag);
  std::string s = name ? name : "unknown";
  std::free(name);
  return s;
}

}  // namespace

void CompliantOptions::Validate() const {
  CheckPositive("stiffness", stiffness);
  for (Eigen::Index i = 0; i < stiffness_ratio.size(); ++i) {
    CheckPositive(("stiffness_ratio[" + std::to_string(i) + "]").c_str(), stiffness_ratio[i]);
  }
  CheckNonNegative("damping_ratio", damping_ratio);
  CheckNonNegative("damping_mass", damping_mass);
  CheckPositive("friction_regularisation", friction_regularisation);
  if (!external_force.allFinite())
    InvalidArgument("external_force", "non-finite", "must be finite");
  if (!initial_gap.allFinite()) InvalidArgument("initial_gap", "non-finite", "must be finite");
  CheckNonNegative("stop_velocity", stop_velocity);
  CheckNonNegative("min_impulse", min_impulse);
  CheckPositive("relative_tolerance", relative_tolerance);
  CheckPositive("absolute_tolerance", absolute_tolerance);
  CheckPositive("max_time", max_time);
  if (max_steps < 1) InvalidArgument("max_steps", max_steps, "must be >= 1");
}

namespace {

void CheckSizes(const impact::ImpactProblem& problem, const CompliantOptions& options) {
  const int m = problem.m();
  auto check_size = [m](const char* field, const VectorXd& x, Eigen::Index want) {
    if (x.size() != 0 && x.size() != want) {
      InvalidArgument(std::string(field) + ".size()", x.size(),
                      "must be 0 or " + std::to_string(want) + " (m = " + std::to_string(m) + ")");
    }
  };
  check_size("stiffness_ratio", options.stiffness_ratio, m);
  check_size("external_force", options.external_force, problem.n());
  check_size("initial_gap", options.initial_gap, m);
}

// The contacts' stiffness k_i, damping c_i and separation scale sqrt(k_i m_i).
void SetContactParameters(const CompliantOptions& options, Model* model) {
  const int m = model->m;
  model->k.resize(m);
  model->c.resize(m);
  model->separation_scale.resize(m);
  const double min_ratio = options.stiffness_ratio.size() ? options.stiffness_ratio.minCoeff() : 1;
  for (int i = 0; i < m; ++i) {
    const double ratio = options.stiffness_ratio.size() ? options.stiffness_ratio[i] : 1.0;
    model->k[i] = options.stiffness * ratio / min_ratio;
    const double mass = options.damping_mass > 0
                            ? options.damping_mass
                            : 1.0 / model->Jn.row(i).dot(model->minv_jnt.col(i));
    model->c[i] = 2 * options.damping_ratio * std::sqrt(model->k[i] * mass);
    model->separation_scale[i] = std::sqrt(model->k[i] * mass);
  }
}

Model BuildModel(const impact::ImpactProblem& problem, const CompliantOptions& options) {
  const int m = problem.m(), n = problem.n();
  Model model;
  model.m = m;
  model.n = n;
  const MatrixXd& cj = problem.ContactJacobian();
  model.d = static_cast<int>((cj.rows() - m) / m);
  IMPACTSET_ASSERT(cj.rows() == m + m * model.d);
  model.Jn = problem.Jn();
  model.T = cj.bottomRows(m * model.d);
  model.M = problem.M();
  const auto& llt = problem.MassFactor();
  model.minv_jnt = llt.solve(model.Jn.transpose());
  // No tangential rows (1-D problems): Eigen's triangular solve binds a reference to element
  // (0, 0) of an empty right-hand side, which UBSan rightly flags.
  model.minv_tt = model.T.rows() > 0 ? MatrixXd(llt.solve(model.T.transpose())) : MatrixXd(n, 0);
  model.f_ext = options.external_force;
  model.minv_f = options.external_force.size() ? VectorXd(llt.solve(options.external_force))
                                               : VectorXd(VectorXd::Zero(n));
  model.mu = problem.mu();
  model.v_reg = options.friction_regularisation;
  model.end = options.end;
  model.stop_velocity = options.stop_velocity;
  model.min_impulse = options.min_impulse;
  model.masked.assign(model.num_switches(), 0);
  SetContactParameters(options, &model);
  return model;
}

// The outcome fields of the result from the final state y at time t.
void Finish(const impact::ImpactProblem& problem,
            const Model& model,
            const VectorXd& y,
            double t,
            CompliantResult* result) {
  result->duration = t;
  result->gap = y.segment(model.phi0(), model.m);
  result->v_plus = y.segment(model.v0(), model.n);
  result->contact_velocity = problem.ContactJacobian() * result->v_plus;
  result->impulse = y.segment(model.ln0(), model.m + model.m * model.d);
  const double ke = problem.KineticEnergy(problem.v_minus());
  result->energy_ratio = ke > 0 ? problem.KineticEnergy(result->v_plus) / ke : 1.0;
}

// A switch that fires again within this fraction of the elapsed time chatters.
constexpr double kChatterTime = 1e-6;

// One CVODE integration of the model, reporting into the result.
class CvodeRun {
 public:
  CvodeRun(Model* model, const CompliantOptions& options, CompliantResult* result)
      : model_(*model), o_(options), result_(*result) {}

  // Creates and configures CVODE at y0. false: a call failed (the result says which).
  bool SetUp(const VectorXd& y0) {
    const int size = model_.size();
    int flag = SUNContext_Create(nullptr, &h_.ctx);
    if (flag != 0) return Fail(flag, "SUNContext_Create");
    h_.y = N_VNew_Serial(size, h_.ctx);
    h_.A = SUNDenseMatrix(size, size, h_.ctx);
    h_.mem = CVodeCreate(CV_BDF, h_.ctx);
    if (!h_.y || !h_.A || !h_.mem) return Fail(CV_MEM_FAIL, "allocation");
    std::copy(y0.data(), y0.data() + size, N_VGetArrayPointer(h_.y));
    h_.ls = SUNLinSol_Dense(h_.y, h_.A, h_.ctx);
    // The end condition turns true (the authors' event direction +1); switches either way.
    std::vector<int> direction(1 + model_.num_switches(), 0);
    direction[0] = 1;
    if ((flag = CVodeSetErrHandlerFn(h_.mem, ErrorFn, &error_)) != CV_SUCCESS ||
        (flag = CVodeInit(h_.mem, RhsFn, 0.0, h_.y)) != CV_SUCCESS ||
        (flag = CVodeSStolerances(h_.mem, o_.relative_tolerance, o_.absolute_tolerance)) !=
            CV_SUCCESS ||
        (flag = CVodeSetUserData(h_.mem, &model_)) != CV_SUCCESS ||
        (flag = CVodeSetLinearSolver(h_.mem, h_.ls, h_.A)) != CV_SUCCESS ||
        (o_.jacobian == CompliantJacobian::kAnalytic &&
         (flag = CVodeSetJacFn(h_.mem, JacFn)) != CV_SUCCESS) ||
        (flag = CVodeRootInit(h_.mem, 1 + model_.num_switches(), RootFn)) != CV_SUCCESS ||
        (flag = CVodeSetRootDirection(h_.mem, direction.data())) != CV_SUCCESS ||
        (flag = CVodeSetNoInactiveRootWarn(h_.mem)) != CV_SUCCESS ||
        (flag = CVodeSetStopTime(h_.mem, o_.max_time)) != CV_SUCCESS ||
        (flag = CVodeSetMaxHnilWarns(h_.mem, -1)) != CV_SUCCESS) {
      return Fail(flag, "CVODE set-up");
    }
    return true;
  }

  // One internal step per call, so that the step cap and the energy trace see every step, until
  // the end condition, a cap or a failure. y and t: the last state.
  void Integrate(VectorXd* y, double* t) {
    const int size = model_.size();
    std::vector<double> last_fired(model_.num_switches(), -1.0);
    int flag = 0;
    for (;;) {
      flag = CVode(h_.mem, o_.max_time, h_.y, t, CV_ONE_STEP);
      std::copy(N_VGetArrayPointer(h_.y), N_VGetArrayPointer(h_.y) + size, y->data());
      if (flag < 0) {
        Fail(flag, "CVode");
        break;
      }
      if (o_.record_energy) {
        result_.energy_time.push_back(*t);
        result_.energy.push_back(model_.Energy(y->data()));
      }
      if (flag == CV_ROOT_RETURN) {
        if (!Restart(*t, &last_fired, &flag)) break;
        continue;
      }
      if (flag == CV_TSTOP_RETURN) {
        result_.status = CompliantStatus::kTimeLimit;
        result_.message = "max_time reached before the end condition";
        break;
      }
      long steps = 0, rhs = 0, jac = 0;
      Counters(steps, rhs, jac);
      if (steps >= o_.max_steps) {
        result_.status = CompliantStatus::kStepLimit;
        result_.message = "max_steps internal steps before the end condition";
        break;
      }
    }
    result_.solver_flag = flag;
    Counters(result_.steps, result_.rhs_evaluations, result_.jacobian_evaluations);
  }

 private:
  bool Fail(int flag, const char* what) {
    result_.status = CompliantStatus::kSolverFailure;
    result_.solver_flag = flag;
    result_.message = std::string(what) + " failed: " + FlagName(flag) +
                      (error_.empty() ? "" : " (" + error_ + ")");
    return false;
  }

  // At a root: the end condition ends the run (false); a switch restarts CVODE at the kink
  // (order 1, fresh step-size history), false only when that fails.
  bool Restart(double t, std::vector<double>* last_fired, int* flag) {
    std::vector<int> roots(1 + model_.num_switches());
    CVodeGetRootInfo(h_.mem, roots.data());
    if (roots[0] != 0) {
      result_.status = CompliantStatus::kTerminated;
      result_.message = "end condition reached";
      return false;
    }
    int fired = -1;
    for (int j = 1; j < static_cast<int>(roots.size()); ++j) {
      if (roots[j] != 0) fired = j - 1;
    }
    // A switch that fires again within kChatterTime * t of its own last restart chatters
    // (a sliding mode along the kink): masked for the rest of the run.
    if (fired >= 0) {
      if (t - (*last_fired)[fired] <= kChatterTime * t) model_.masked[fired] = 1;
      (*last_fired)[fired] = t;
    }
    AccumulateCounters();
    ++result_.restarts;
    if ((*flag = CVodeReInit(h_.mem, t, h_.y)) != CV_SUCCESS) return Fail(*flag, "CVodeReInit");
    return true;
  }

  // CVodeReInit resets CVODE's counters, so they are summed over restarts.
  void Counters(long& steps, long& rhs, long& jac) const {
    CVodeGetNumSteps(h_.mem, &steps);
    CVodeGetNumRhsEvals(h_.mem, &rhs);
    CVodeGetNumJacEvals(h_.mem, &jac);
    steps += steps_before_;
    rhs += rhs_before_;
    jac += jac_before_;
  }
  void AccumulateCounters() {
    long steps = 0, rhs = 0, jac = 0;
    Counters(steps, rhs, jac);
    steps_before_ = steps;
    rhs_before_ = rhs;
    jac_before_ = jac;
  }

  Model& model_;
  const CompliantOptions& o_;
  CompliantResult& result_;
  std::string error_;  // CVODE's last message (ErrorFn); outlives the handles
  CvodeHandles h_;
  long steps_before_ = 0, rhs_before_ = 0, jac_before_ = 0;
};

}  // namespace

CompliantResult SimulateCompliantImpact(const impact::ImpactProblem& problem,
                                        const CompliantOptions& options) {
  options.Validate();
  CheckSizes(problem, options);
  Model model = BuildModel(problem, options);
  CompliantResult result;
  result.stiffness = model.k;
  result.damping = model.c;
  VectorXd y0 = VectorXd::Zero(model.size());
  if (options.initial_gap.size()) y0.segment(model.phi0(), model.m) = options.initial_gap;
  y0.segment(model.v0(), model.n) = problem.v_minus();
  if (options.record_energy) {
    result.energy_time.push_back(0);
    result.energy.push_back(model.Energy(y0.data()));
  }
  VectorXd y = y0;
  double t = 0;
  if (model.EndValue(y0.data()) > 0) {  // nothing to do: CVODE only finds sign changes
    result.status = CompliantStatus::kTerminated;
    result.message = "end condition holds at t = 0";
  } else {
    CvodeRun run(&model, options, &result);
    if (run.SetUp(y0)) run.Integrate(&y, &t);
  }
  Finish(problem, model, y, t, &result);
  return result;
}

std::vector<CompliantResult> StiffnessRatioSweep(const impact::ImpactProblem& problem,
                                                 const CompliantOptions& options,
                                                 double log10_min,
                                                 double log10_max,
                                                 int count) {
  if (problem.m() != 2) InvalidArgument("problem.m()", problem.m(), "must be 2 (contacts A, B)");
  if (count < 1) InvalidArgument("count", count, "must be >= 1");
  if (!(std::isfinite(log10_min) && std::isfinite(log10_max) && log10_min <= log10_max)) {
    InvalidArgument("log10_min", log10_min, "must be finite and <= log10_max");
  }
  std::vector<CompliantResult> out;
  for (int j = 0; j < count; ++j) {
    const double r = count == 1 ? log10_min : log10_min + (log10_max - log10_min) * j / (count - 1);
    CompliantOptions o = options;
    o.stiffness_ratio = Eigen::Vector2d(std::pow(10.0, r), 1.0);
    out.push_back(SimulateCompliantImpact(problem, o));
  }
  return out;
}

}  // namespace impactset::simulators
