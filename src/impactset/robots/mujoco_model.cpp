#include <impactset/robots/mujoco_model.hpp>

#include <mujoco/mujoco.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <numbers>
#include <stdexcept>

#include <impactset/common/error_policy.hpp>

namespace impactset::robots {
namespace {

// MuJoCo's error and warning hooks are process-wide function pointers, and its XML parser is not
// re-entrant: one load at a time.
std::mutex& MujocoMutex() {
  static std::mutex m;
  return m;
}

struct MujocoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// While alive: MuJoCo's fatal errors throw (its default handler exits the process) and its
// warnings are dropped (the default writes MUJOCO_LOG.TXT into the working directory).
class ErrorHooks {
 public:
  ErrorHooks() : error_(mju_user_error), warning_(mju_user_warning) {
    mju_user_error = [](const char* msg) { throw MujocoError(msg); };
    mju_user_warning = [](const char*) {};
  }
  ~ErrorHooks() {
    mju_user_error = error_;
    mju_user_warning = warning_;
  }
  ErrorHooks(const ErrorHooks&) = delete;
  ErrorHooks& operator=(const ErrorHooks&) = delete;

 private:
  void (*error_)(const char*);
  void (*warning_)(const char*);
};

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

ModelPtr LoadOrThrow(const char* filename, const mjVFS* vfs, const std::string& label) {
  char error[1024] = "";
  ModelPtr model(mj_loadXML(filename, vfs, error, sizeof error));
  if (!model) {
    throw std::invalid_argument(label + ": MuJoCo cannot load the model: " +
                                (error[0] ? std::string(error) : "no message"));
  }
  return model;
}

std::string Name(const mjModel* m, int type, int id, const char* fallback) {
  const char* name = id >= 0 ? mj_id2name(m, type, id) : nullptr;
  if (name && name[0]) return name;
  return std::string(fallback) + std::to_string(id);
}

std::vector<std::string> DofNames(const mjModel* m) {
  static const char* const kFree[] = {"vx", "vy", "vz", "wx", "wy", "wz"};
  static const char* const kBall[] = {"wx", "wy", "wz"};
  std::vector<std::string> names(m->nv);
  for (int i = 0; i < m->nv; ++i) {
    const int j = m->dof_jntid[i];
    const std::string joint = Name(m, mjOBJ_JOINT, j, "joint");
    const int local = i - m->jnt_dofadr[j];
    if (m->jnt_type[j] == mjJNT_FREE) {
      names[i] = joint + ":" + kFree[local];
    } else if (m->jnt_type[j] == mjJNT_BALL) {
      names[i] = joint + ":" + kBall[local];
    } else {
      names[i] = joint;
    }
  }
  return names;
}

struct State {
  VectorXd qpos, qvel;
  std::string description;  ///< "keyframe 'x'", "qpos/qvel given", ... (messages, provenance)
};

VectorXd Row(const double* data, int row, int size) {
  return Eigen::Map<const VectorXd>(data + static_cast<std::ptrdiff_t>(row) * size, size);
}

int Keyframe(const mjModel* m, const std::string& name, const std::string& label) {
  const int key = mj_name2id(m, mjOBJ_KEY, name.c_str());
  if (key >= 0) return key;
  std::string known;
  for (int i = 0; i < m->nkey; ++i) known += (i ? ", " : "") + Name(m, mjOBJ_KEY, i, "key");
  InvalidArgument(
      label + ": keyframe", name,
      "no such keyframe in the model (known: " + (known.empty() ? "none" : known) + ")");
}

void CheckLength(const VectorXd& v, int size, const std::string& field, const std::string& label) {
  if (v.size() != size) {
    InvalidArgument(
        label + ": " + field, std::to_string(v.size()) + " numbers",
        "the model needs " + std::to_string(size) + " (" + (field == "qpos" ? "nq" : "nv") + ")");
  }
  if (!v.allFinite()) InvalidArgument(label + ": " + field, "non-finite entry", "must be finite");
}

// The keyframe's state (or qpos0 and rest), then the user's qpos / qvel in its place.
State ChooseState(const mjModel* m, const MujocoState& s, const std::string& label) {
  State out{Row(m->qpos0, 0, m->nq), VectorXd::Zero(m->nv), "qpos0"};
  int key = s.keyframe.empty() ? -1 : Keyframe(m, s.keyframe, label);
  if (key < 0 && !s.qpos && !s.qvel) {
    if (m->nkey == 0) {
      throw std::invalid_argument(label +
                                  ": the model has no keyframe: give a keyframe or "
                                  "qpos and qvel (the state just before the impact)");
    }
    key = 0;
  }
  if (key >= 0) {
    out = {Row(m->key_qpos, key, m->nq), Row(m->key_qvel, key, m->nv),
           "keyframe '" + Name(m, mjOBJ_KEY, key, "key") + "'"};
  }
  if (s.qpos) {
    CheckLength(*s.qpos, m->nq, "qpos", label);
    out.qpos = *s.qpos;
  }
  if (s.qvel) {
    CheckLength(*s.qvel, m->nv, "qvel", label);
    out.qvel = *s.qvel;
  }
  if (s.qpos || s.qvel) {
    out.description +=
        std::string(s.qpos ? " with qpos" : "") + (s.qvel ? " with qvel" : "") + " given";
  }
  return out;
}

// Active equality constraints, joint limits and tendon limits at the current state, named.
std::string ActiveConstraints(const mjModel* m, const mjData* d) {
  std::string out;
  auto add = [&out](const std::string& s) { out += (out.empty() ? "" : ", ") + s; };
  for (int i = 0; i < m->neq; ++i) {
    if (m->eq_active[i]) add("equality " + Name(m, mjOBJ_EQUALITY, i, "equality"));
  }
  for (int r = 0; r < d->nefc; ++r) {
    if (d->efc_type[r] == mjCNSTR_LIMIT_JOINT) {
      add("joint limit " + Name(m, mjOBJ_JOINT, d->efc_id[r], "joint"));
    } else if (d->efc_type[r] == mjCNSTR_LIMIT_TENDON) {
      add("tendon limit " + Name(m, mjOBJ_TENDON, d->efc_id[r], "tendon"));
    }
  }
  return out;
}

// 3 x nv translational Jacobian of body b's material point at p (zero for the world).
MatrixXd PointJacobian(const mjModel* m, const mjData* d, const double* p, int body) {
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> jac =
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>::Zero(3, m->nv);
  if (body > 0 && m->nv > 0) mj_jac(m, d, jac.data(), nullptr, p, body);
  return jac;
}

struct ContactRows {
  std::vector<ContactReport> reports;
  MatrixXd Jn, D;
  VectorXd mu;
};

ContactReport Report(const mjModel* m, const mjContact& c, int index) {
  ContactReport r;
  r.geom1 = Name(m, mjOBJ_GEOM, c.geom1, "geom");
  r.geom2 = Name(m, mjOBJ_GEOM, c.geom2, "geom");
  r.body1 = Name(m, mjOBJ_BODY, m->geom_bodyid[c.geom1], "body");
  r.body2 = Name(m, mjOBJ_BODY, m->geom_bodyid[c.geom2], "body");
  // Appended piecewise: GCC 12's -Wrestrict misreads `"c" + std::string` (a false positive).
  r.name = std::to_string(index);
  r.name.insert(0, 1, 'c').append(":").append(r.geom1).append("/").append(r.geom2);
  r.point = Eigen::Vector3d(c.pos[0], c.pos[1], c.pos[2]);
  r.normal = Eigen::Vector3d(c.frame[0], c.frame[1], c.frame[2]);
  r.tangent1 = Eigen::Vector3d(c.frame[3], c.frame[4], c.frame[5]);
  r.tangent2 = Eigen::Vector3d(c.frame[6], c.frame[7], c.frame[8]);
  r.distance = c.dist;
  r.mu = c.dim == 1 ? 0.0 : c.friction[0];
  return r;
}

// cos(2 pi j/k) t1 + sin(2 pi j/k) t2, with the cosine and sine of multiples of pi/4 exact (no
// 6e-17 where a 0 belongs).
Eigen::Vector3d Direction(int j, int k, const Eigen::Vector3d& t1, const Eigen::Vector3d& t2) {
  const double a = 2 * std::numbers::pi * j / k;
  auto snap = [](double x) { return std::abs(x) < 1e-15 ? 0.0 : x; };
  return snap(std::cos(a)) * t1 + snap(std::sin(a)) * t2;
}

// Contacts MuJoCo includes (exclude 0) or finds within the margin but beyond margin - gap
// (exclude 1); fused, equality-excluded and dof-less pairs are not contacts of the impact.
ContactRows Contacts(const mjModel* m, const mjData* d, int k) {
  std::vector<const mjContact*> kept;
  for (int i = 0; i < d->ncon; ++i) {
    if (d->contact[i].exclude <= 1) kept.push_back(&d->contact[i]);
  }
  const int count = static_cast<int>(kept.size()), nv = m->nv;
  ContactRows rows{{}, MatrixXd(count, nv), MatrixXd(count * k, nv), VectorXd(count)};
  for (int i = 0; i < count; ++i) {
    const mjContact& c = *kept[i];
    ContactReport r = Report(m, c, i);
    const MatrixXd rel = PointJacobian(m, d, c.pos, m->geom_bodyid[c.geom2]) -
                         PointJacobian(m, d, c.pos, m->geom_bodyid[c.geom1]);
    rows.Jn.row(i) = r.normal.transpose() * rel;
    for (int j = 0; j < k / 2; ++j) {  // rows j + k/2 = -rows j exactly (ImpactProblem's rule)
      const Eigen::Vector3d dir = Direction(j, k, r.tangent1, r.tangent2);
      rows.D.row(i * k + j) = dir.transpose() * rel;
      rows.D.row(i * k + j + k / 2) = -rows.D.row(i * k + j);
    }
    rows.mu(i) = r.mu;
    rows.reports.push_back(std::move(r));
  }
  return rows;
}

MatrixXd FullMass(const mjModel* m, const mjData* d) {
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> M(m->nv, m->nv);
  mj_fullM(m, M.data(), d->qM);
  return 0.5 * (M + M.transpose());  // exactly symmetric (it is, up to the copy of each half)
}

int FirstFreeJoint(const mjModel* m) {
  for (int j = 0; j < m->njnt; ++j) {
    if (m->jnt_type[j] == mjJNT_FREE) return j;
  }
  return -1;
}

// The floating base's body, else the world's first child with degrees of freedom (-1: none).
int RootBody(const mjModel* m) {
  const int free = FirstFreeJoint(m);
  if (free >= 0) return m->jnt_bodyid[free];
  for (int b = 1; b < m->nbody; ++b) {
    if (m->body_parentid[b] == 0 && m->body_dofnum[b] + m->body_jntnum[b] > 0) return b;
  }
  for (int b = 1; b < m->nbody; ++b) {
    if (m->body_parentid[b] == 0) return b;
  }
  return -1;
}

void FillOutputs(const mjModel* m, mjData* d, MujocoProblem* out) {
  const int nv = m->nv, root = RootBody(m);
  out->com_jacobian = MatrixXd::Zero(3, nv);
  if (root > 0 && nv > 0) {
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> jac(3, nv);
    mj_jacSubtreeCom(m, d, jac.data(), root);
    out->com_jacobian = jac;
  }
  const int free = FirstFreeJoint(m);
  out->base_map = MatrixXd::Zero(free >= 0 ? 6 : 0, nv);
  if (free >= 0) {
    out->base_body = Name(m, mjOBJ_BODY, m->jnt_bodyid[free], "body");
    for (int i = 0; i < 6; ++i) out->base_map(i, m->jnt_dofadr[free] + i) = 1.0;
  }
}

std::vector<std::string> ContactCoordinateNames(const std::vector<ContactReport>& contacts, int k) {
  std::vector<std::string> names;
  for (const ContactReport& c : contacts) names.push_back(c.name + ":n");
  if (k == 0) return names;
  for (const ContactReport& c : contacts) {
    names.push_back(c.name + ":t1");
    names.push_back(c.name + ":t2");
  }
  return names;
}

// Sampler settings a model may carry: <custom><numeric name="impactset_h" data="0.3"/> and
// likewise impactset_N and impactset_samples (docs/mujoco.md).
systems::ProblemSettings Settings(const mjModel* m) {
  auto numeric = [m](const char* name) -> std::optional<double> {
    const int id = mj_name2id(m, mjOBJ_NUMERIC, name);
    if (id < 0 || m->numeric_size[id] < 1) return std::nullopt;
    return m->numeric_data[m->numeric_adr[id]];
  };
  systems::ProblemSettings s;
  s.scale_missing_steps = true;
  s.step = numeric("impactset_h");
  if (const auto n = numeric("impactset_N")) s.max_steps = static_cast<int>(*n);
  if (const auto k = numeric("impactset_samples")) s.samples = static_cast<long long>(*k);
  return s;
}

MujocoProblem Build(mjModel* m, const MujocoOptions& options, const std::string& label) {
  const State state = ChooseState(m, options.state, label);
  // Every geom's margin becomes contact_margin; the other overridden contact parameters
  // (solref, solimp) play no part in the impact problem.
  m->opt.enableflags |= mjENBL_OVERRIDE;
  m->opt.o_margin = options.contact_margin;
  DataPtr data(mj_makeData(m));
  if (!data) throw std::runtime_error(label + ": MuJoCo could not allocate its data");
  mjData* d = data.get();
  std::memcpy(d->qpos, state.qpos.data(), sizeof(double) * m->nq);
  std::memcpy(d->qvel, state.qvel.data(), sizeof(double) * m->nv);
  mj_forward(m, d);
  const std::string active = ActiveConstraints(m, d);
  if (!active.empty() && !options.ignore_constraints) {
    throw std::invalid_argument(label + " (" + state.description +
                                "): constraints active at qpos: " + active +
                                "; the impact problem models contacts only "
                                "(--ignore-constraints leaves these out)");
  }
  const int k = options.friction_directions;
  ContactRows rows = Contacts(m, d, k);
  if (rows.reports.empty()) {
    InvalidArgument(label + " (" + state.description + "): contact_margin", options.contact_margin,
                    "MuJoCo finds no contact within this distance at this qpos");
  }
  MujocoProblem out{{impact::ImpactProblem(FullMass(m, d), rows.Jn, rows.D, rows.mu, state.qvel, k),
                     Settings(m), "MuJoCo " + label + " at " + state.description},
                    std::move(rows.reports),
                    DofNames(m),
                    {},
                    {},
                    {},
                    {}};
  const VectorXd jv = out.loaded.problem.Jn() * state.qvel;
  for (size_t i = 0; i < out.contacts.size(); ++i) {
    ContactReport& c = out.contacts[i];
    c.normal_velocity = jv(static_cast<Eigen::Index>(i));
    c.motion = c.normal_velocity < -kRestingSpeed  ? ContactMotion::kApproaching
               : c.normal_velocity > kRestingSpeed ? ContactMotion::kSeparating
                                                   : ContactMotion::kResting;
  }
  out.contact_coordinate_names = ContactCoordinateNames(out.contacts, k);
  FillOutputs(m, d, &out);
  return out;
}

// Runs use(model) on the model `load` gives, one load at a time, with MuJoCo's errors as
// exceptions naming `label`.
template <class Use>
auto WithModel(const std::string& label, const std::function<ModelPtr()>& load, Use use) {
  const std::lock_guard<std::mutex> lock(MujocoMutex());
  const ErrorHooks hooks;
  try {
    ModelPtr model = load();
    return use(model.get());
  } catch (const MujocoError& e) {
    throw std::invalid_argument(label + ": MuJoCo error: " + e.what());
  }
}

// The text as a file of MuJoCo's virtual file system (a large struct: on the heap).
ModelPtr LoadXmlText(const std::string& xml, const std::string& label) {
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const char* name = "model.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), name, static_cast<int>(xml.size())) != 0) {
    throw std::runtime_error(label + ": MuJoCo's virtual file system refused the model");
  }
  std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), name)], xml.data(), xml.size());
  try {
    ModelPtr model = LoadOrThrow(name, vfs.get(), label);
    mj_deleteVFS(vfs.get());
    return model;
  } catch (...) {
    mj_deleteVFS(vfs.get());
    throw;
  }
}

MujocoProblem Guarded(const std::string& label,
                      const MujocoOptions& options,
                      const std::function<ModelPtr()>& load) {
  options.Validate();
  return WithModel(label, load, [&](mjModel* m) { return Build(m, options, label); });
}

MujocoState Resolved(const std::string& label,
                     const MujocoState& state,
                     const std::function<ModelPtr()>& load) {
  return WithModel(label, load, [&](mjModel* m) {
    State s = ChooseState(m, state, label);
    return MujocoState{.keyframe = "", .qpos = std::move(s.qpos), .qvel = std::move(s.qvel)};
  });
}

}  // namespace

void MujocoOptions::Validate() const {
  if (!(contact_margin >= 0) || !std::isfinite(contact_margin)) {
    InvalidArgument("contact_margin", contact_margin, "must be >= 0 and finite (metres)");
  }
  if (friction_directions != 4 && friction_directions != 8 && friction_directions != 16) {
    InvalidArgument("friction_directions", friction_directions, "must be 4, 8 or 16");
  }
}

MujocoProblem LoadMujoco(const std::string& path, const MujocoOptions& options) {
  return Guarded(path, options, [&] { return LoadOrThrow(path.c_str(), nullptr, path); });
}

MujocoProblem LoadMujocoXml(const std::string& xml,
                            const std::string& label,
                            const MujocoOptions& options) {
  return Guarded(label, options, [&] { return LoadXmlText(xml, label); });
}

MujocoState ResolveMujocoState(const std::string& path, const MujocoState& state) {
  return Resolved(path, state, [&] { return LoadOrThrow(path.c_str(), nullptr, path); });
}

MujocoState ResolveMujocoStateXml(const std::string& xml,
                                  const std::string& label,
                                  const MujocoState& state) {
  return Resolved(label, state, [&] { return LoadXmlText(xml, label); });
}

}  // namespace impactset::robots
