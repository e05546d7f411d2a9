#include <impactset/robots/mujoco_simulation.hpp>

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <impactset/common/error_policy.hpp>
#include <impactset/robots/internal/mujoco_internal.hpp>

namespace impactset::robots {

using internal::DataPtr;
using internal::ModelPtr;

// The loaded model (pristine: the model's own options) and what a posture controller needs.
class SimulationModelData {
 public:
  ModelPtr model;
  int root_body = -1;
  struct Actuator {
    enum class Kind { kOther, kMotor, kServo } kind = Kind::kOther;
    int qpos_adr = 0, dof_adr = 0;
    double gear_gain = 1;  // motor: generalized force per unit of ctrl
  };
  std::vector<Actuator> actuators;
};

namespace {

std::vector<SimulationModelData::Actuator> Actuators(const mjModel* m) {
  std::vector<SimulationModelData::Actuator> out(static_cast<size_t>(m->nu));
  for (int a = 0; a < m->nu; ++a) {
    SimulationModelData::Actuator& act = out[static_cast<size_t>(a)];
    const int j = m->actuator_trnid[2 * a];
    if (m->actuator_trntype[a] != mjTRN_JOINT || j < 0 ||
        (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE) ||
        m->actuator_dyntype[a] != mjDYN_NONE || m->actuator_gaintype[a] != mjGAIN_FIXED) {
      continue;
    }
    act.qpos_adr = m->jnt_qposadr[j];
    act.dof_adr = m->jnt_dofadr[j];
    const double gain = m->actuator_gainprm[a * mjNGAIN];
    const double* bias = m->actuator_biasprm + a * mjNBIAS;
    if (m->actuator_biastype[a] == mjBIAS_NONE) {
      act.gear_gain = m->actuator_gear[6 * a] * gain;
      if (act.gear_gain != 0) act.kind = SimulationModelData::Actuator::Kind::kMotor;
    } else if (m->actuator_biastype[a] == mjBIAS_AFFINE && bias[0] == 0 && bias[1] == -gain &&
               gain != 0) {
      act.kind = SimulationModelData::Actuator::Kind::kServo;  // force = kp (ctrl - q) - kv qd
    }
  }
  return out;
}

// @throws std::invalid_argument naming `field` when v does not have the model's size n.
void CheckSize(const VectorXd& v, int n, const char* field, const char* size_name) {
  if (v.size() != n) {
    InvalidArgument(field, v.size(),
                    std::string("the model has ") + size_name + " = " + std::to_string(n));
  }
}

// A vector into MuJoCo's array of its size (an empty one has no data pointer to copy from).
void CopyInto(double* to, const VectorXd& from) {
  if (from.size() > 0) {
    std::memcpy(to, from.data(), sizeof(double) * static_cast<size_t>(from.size()));
  }
}

SimulationModel Load(const std::string& path,
                     const std::string* xml,
                     const MujocoOptions& options,
                     const std::string& label) {
  options.Validate();
  SimulationModel out;
  internal::WithMujocoLock(label, [&] {
    ModelPtr m = internal::LoadModelLocked(path, xml, options, label);
    internal::State state = internal::ChooseState(m.get(), options.state, label);
    if (options.touchdown > 0) {
      const mjOption own = m->opt;
      m->opt.enableflags |= mjENBL_OVERRIDE;
      internal::Touchdown(m.get(), options, label, &state);
      m->opt = own;
    }
    auto data = std::make_shared<SimulationModelData>();
    data->root_body = internal::RootBody(m.get());
    data->actuators = Actuators(m.get());
    out.timestep = m->opt.timestep;
    out.qpos = state.qpos;
    out.qvel = state.qvel;
    out.ctrl =
        state.keyframe >= 0
            ? VectorXd(Eigen::Map<const VectorXd>(m->key_ctrl + state.keyframe * m->nu, m->nu))
            : VectorXd::Zero(m->nu);
    out.qpos_names = internal::QposNames(m.get());
    out.dof_names = internal::DofNames(m.get());
    for (int a = 0; a < m->nu; ++a) {
      out.actuator_names.push_back(internal::Name(m.get(), mjOBJ_ACTUATOR, a, "actuator"));
      out.posture_actuators.push_back(data->actuators[static_cast<size_t>(a)].kind !=
                                      SimulationModelData::Actuator::Kind::kOther);
    }
    out.warnings = std::move(state.warnings);
    data->model = std::move(m);
    out.data = std::move(data);
  });
  out.label = label;
  out.options = options;
  return out;
}

}  // namespace

SimulationModel LoadSimulationModel(const std::string& path, const MujocoOptions& options) {
  return Load(path, nullptr, options, path);
}

SimulationModel LoadSimulationModelXml(const std::string& xml,
                                       const std::string& label,
                                       const MujocoOptions& options) {
  return Load("", &xml, options, label);
}

VectorXd PostureControl(const SimulationModel& model,
                        const VectorXd& target,
                        const VectorXd& qpos,
                        const VectorXd& qvel,
                        double kp,
                        double kd) {
  const mjModel* m = model.data->model.get();
  VectorXd ctrl = VectorXd::Zero(m->nu);
  for (int a = 0; a < m->nu; ++a) {
    const SimulationModelData::Actuator& act = model.data->actuators[static_cast<size_t>(a)];
    using Kind = SimulationModelData::Actuator::Kind;
    if (act.kind == Kind::kMotor) {
      const double tau = kp * (target(act.qpos_adr) - qpos(act.qpos_adr)) - kd * qvel(act.dof_adr);
      ctrl(a) = tau / act.gear_gain;
    } else if (act.kind == Kind::kServo) {
      ctrl(a) = target(act.qpos_adr);
    }
    if (m->actuator_ctrllimited[a]) {
      ctrl(a) = std::clamp(ctrl(a), m->actuator_ctrlrange[2 * a], m->actuator_ctrlrange[2 * a + 1]);
    }
  }
  return ctrl;
}

// A contact released after an impact: its geom pair and where it was last seen (world), so
// that it is found again among the pair's contacts at the next step.
struct ReleasedContact {
  int geom1 = 0, geom2 = 0;
  Eigen::Vector3d pos;
};

struct MujocoSimulation::Impl {
  explicit Impl(const SimulationModel& model)
      : source(model), m(mj_copyModel(nullptr, model.data->model.get())) {}

  const SimulationModel& source;
  ModelPtr m;
  DataPtr d;
  mjOption own{};        // the model's options (the impact's margin override is temporary)
  int bad_warnings = 0;  // MuJoCo's bad-state warnings counted before this step
  std::vector<ReleasedContact> released;
  // The state before the step Advance takes: MuJoCo resets its data when it finds a bad state,
  // so a diverged simulation is left at the last valid state instead.
  double last_time = 0;
  VectorXd last_qpos, last_qvel;

  int BadWarnings() const {
    return d->warning[mjWARN_BADQPOS].number + d->warning[mjWARN_BADQVEL].number +
           d->warning[mjWARN_BADQACC].number;
  }
};

MujocoSimulation::MujocoSimulation(const SimulationModel& model) {
  internal::AcquireSimulationHooks();
  try {
    impl_ = std::make_unique<Impl>(model);
    if (!impl_->m) throw std::runtime_error(model.label + ": MuJoCo could not copy the model");
    impl_->d.reset(mj_makeData(impl_->m.get()));
    if (!impl_->d) throw std::runtime_error(model.label + ": MuJoCo could not allocate its data");
    impl_->own = impl_->m->opt;
  } catch (...) {
    impl_.reset();
    internal::ReleaseSimulationHooks();
    throw;
  }
}

MujocoSimulation::~MujocoSimulation() {
  impl_.reset();
  internal::ReleaseSimulationHooks();
}

void MujocoSimulation::Reset(const VectorXd& qpos, const VectorXd& qvel, const VectorXd& ctrl) {
  mjModel* m = impl_->m.get();
  mjData* d = impl_->d.get();
  CheckSize(qpos, m->nq, "qpos", "nq");
  CheckSize(qvel, m->nv, "qvel", "nv");
  CheckSize(ctrl, m->nu, "ctrl", "nu");
  mj_resetData(m, d);
  CopyInto(d->qpos, qpos);
  CopyInto(d->qvel, qvel);
  CopyInto(d->ctrl, ctrl);
  divergence_.clear();
  impl_->released.clear();
}

double MujocoSimulation::time() const { return impl_->d->time; }

Eigen::Map<const VectorXd> MujocoSimulation::qpos() const { return {impl_->d->qpos, impl_->m->nq}; }

Eigen::Map<const VectorXd> MujocoSimulation::qvel() const { return {impl_->d->qvel, impl_->m->nv}; }

Eigen::Vector3d MujocoSimulation::com() const {
  const int root = impl_->source.data->root_body;
  if (root < 0) return Eigen::Vector3d::Zero();
  const double* c = impl_->d->subtree_com + 3 * root;
  return {c[0], c[1], c[2]};
}

void MujocoSimulation::SetControl(const VectorXd& ctrl) {
  CheckSize(ctrl, impl_->m->nu, "ctrl", "nu");
  CopyInto(impl_->d->ctrl, ctrl);
}

namespace {

// Contact i's normal velocity at the current qvel (m/s; > 0: separating).
double NormalSpeed(const mjModel* m, const mjData* d, int i) {
  const mjContact& c = d->contact[i];
  const Eigen::Vector3d n(c.frame[0], c.frame[1], c.frame[2]);
  return n.dot(internal::RelativeJacobian(m, d, i) * Eigen::Map<const VectorXd>(d->qvel, m->nv));
}

Eigen::Vector3d Position(const mjContact& c) { return {c.pos[0], c.pos[1], c.pos[2]}; }

// The contact of the released one's pair nearest to where it was, within kReleaseTracking; -1.
int FindReleased(const mjData* d, const ReleasedContact& r) {
  int best = -1;
  double nearest = kReleaseTracking;
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& c = d->contact[i];
    if (c.geom1 != r.geom1 || c.geom2 != r.geom2 || c.exclude > 1) continue;
    const double dist = (Position(c) - r.pos).norm();
    if (dist <= nearest) {
      nearest = dist;
      best = i;
    }
  }
  return best;
}

}  // namespace

void MujocoSimulation::ExcludeReleased() {
  const mjModel* m = impl_->m.get();
  mjData* d = impl_->d.get();
  std::vector<ReleasedContact> still;
  for (ReleasedContact r : impl_->released) {
    const int i = FindReleased(d, r);
    if (i < 0 || d->contact[i].exclude == 1 || NormalSpeed(m, d, i) <= kReleaseSpeed) continue;
    d->contact[i].exclude = 1;  // MuJoCo's own mark for a contact it leaves out (in the gap)
    r.pos = Position(d->contact[i]);
    still.push_back(r);
  }
  impl_->released = std::move(still);
  if (impl_->released.empty()) return;
  // The rest of mj_fwdPosition after its collision stage, without those contacts.
  mj_makeConstraint(m, d);
  mj_transmission(m, d);
  mj_projectConstraint(m, d);
}

int MujocoSimulation::ReleaseSeparatingContacts() {
  const mjModel* m = impl_->m.get();
  const mjData* d = impl_->d.get();
  impl_->released.clear();
  if (m->opt.integrator != mjINT_EULER) return 0;  // mj_step collides again (Advance)
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& c = d->contact[i];
    if (c.exclude > 1 || NormalSpeed(m, d, i) <= kReleaseSpeed) continue;
    impl_->released.push_back({c.geom1, c.geom2, Position(c)});
  }
  ExcludeReleased();
  return static_cast<int>(impl_->released.size());
}

double MujocoSimulation::Prepare() {
  const mjModel* m = impl_->m.get();
  mjData* d = impl_->d.get();
  impl_->bad_warnings = impl_->BadWarnings();
  // mj_step's first stage, split so that an impact can change qvel before the velocity stage.
  mj_checkPos(m, d);
  mj_checkVel(m, d);
  mj_fwdPosition(m, d);
  ExcludeReleased();
  mj_sensorPos(m, d);
  if (m->opt.enableflags & mjENBL_ENERGY) mj_energyPos(m, d);
  const double margin = impl_->source.options.contact_margin;
  double fastest = 0;
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& c = d->contact[i];
    if (c.exclude > 1 || c.dist > margin) continue;
    fastest = std::max(fastest, -NormalSpeed(m, d, i));
  }
  return fastest;
}

ImpactHere MujocoSimulation::Impact() {
  mjModel* m = impl_->m.get();
  mjData* d = impl_->d.get();
  const MujocoOptions& o = impl_->source.options;
  // The contacts LoadMujoco takes: every pair within contact_margin (every geom's margin
  // overridden), then MuJoCo's own contacts back for the rest of the step.
  m->opt.enableflags |= mjENBL_OVERRIDE;
  m->opt.o_margin = o.contact_margin;
  mj_fwdPosition(m, d);
  const bool constrained = !internal::ActiveConstraints(m, d, false).empty();
  internal::ContactRows rows = internal::Contacts(m, d, o.friction_directions);
  MatrixXd M = internal::FullMass(m, d);
  m->opt = impl_->own;
  mj_fwdPosition(m, d);
  mj_sensorPos(m, d);
  IMPACTSET_ASSERT(!rows.reports.empty());  // Prepare found one within the margin
  const VectorXd v = Eigen::Map<const VectorXd>(d->qvel, m->nv);
  const VectorXd jnv = rows.Jn * v;
  internal::SetMotions(jnv, &rows.reports);
  ImpactHere out{
      impact::ImpactProblem(std::move(M), rows.Jn, rows.D, rows.mu, v, o.friction_directions),
      std::move(rows.reports), static_cast<int>((jnv.array() < -kRestingSpeed).count()),
      constrained};
  return out;
}

void MujocoSimulation::SetVelocity(const VectorXd& qvel) {
  CheckSize(qvel, impl_->m->nv, "qvel", "nv");
  CopyInto(impl_->d->qvel, qvel);
}

bool MujocoSimulation::Advance() {
  const mjModel* m = impl_->m.get();
  mjData* d = impl_->d.get();
  impl_->last_time = d->time;
  impl_->last_qpos = Eigen::Map<const VectorXd>(d->qpos, m->nq);
  impl_->last_qvel = Eigen::Map<const VectorXd>(d->qvel, m->nv);
  if (m->opt.integrator == mjINT_EULER) {
    // mj_step after its position stage (done by Prepare): the same calls in the same order.
    mj_forwardSkip(m, d, mjSTAGE_POS, 0);
    mj_checkAcc(m, d);
    mj_Euler(m, d);
  } else {
    mj_step(m, d);  // RK4 and implicit: MuJoCo's own step, position stage again
  }
  const Eigen::Map<const VectorXd> q(d->qpos, m->nq), v(d->qvel, m->nv);
  if (impl_->BadWarnings() > impl_->bad_warnings) {
    const char* which = d->warning[mjWARN_BADQACC].number   ? "acceleration"
                        : d->warning[mjWARN_BADQVEL].number ? "velocity"
                                                            : "position";
    divergence_ = "MuJoCo found a bad " + std::string(which) +
                  " (its warning) in the step from t = " + std::to_string(impl_->last_time);
  } else if (!q.allFinite() || !v.allFinite()) {
    divergence_ =
        "qpos or qvel not finite after the step from t = " + std::to_string(impl_->last_time);
  } else {
    return true;
  }
  d->time = impl_->last_time;  // MuJoCo reset its data: back to the last valid state
  CopyInto(d->qpos, impl_->last_qpos);
  CopyInto(d->qvel, impl_->last_qvel);
  return false;
}

}  // namespace impactset::robots
