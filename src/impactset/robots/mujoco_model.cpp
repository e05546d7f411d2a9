#include <impactset/robots/mujoco_model.hpp>

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <numbers>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

#include <Eigen/Geometry>

#include <impactset/common/error_policy.hpp>
#include <impactset/robots/internal/model_cache.hpp>
#include <impactset/robots/internal/model_text.hpp>
#include <impactset/robots/internal/mujoco_internal.hpp>

namespace impactset::robots {
namespace internal {

void ModelDeleter::operator()(mjModel* m) const { mj_deleteModel(m); }
void DataDeleter::operator()(mjData* d) const { mj_deleteData(d); }

std::mutex& MujocoMutex() {
  static std::mutex m;
  return m;
}

}  // namespace internal

using namespace internal;  // NOLINT: the helpers shared with mujoco_simulation.cpp

namespace {

struct MujocoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// While alive: MuJoCo's fatal errors throw (its default handler exits the process) and its
// warnings are dropped (the default writes MUJOCO_LOG.TXT into the working directory).
void ThrowMujocoError(const char* msg) { throw MujocoError(msg); }
void IgnoreMujocoWarning(const char*) {}

class ErrorHooks {
 public:
  ErrorHooks() : error_(mju_user_error), warning_(mju_user_warning) {
    mju_user_error = ThrowMujocoError;
    mju_user_warning = IgnoreMujocoWarning;
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

ModelPtr LoadOrThrow(const char* filename, const mjVFS* vfs, const std::string& label) {
  char error[1024] = "";
  ModelPtr model(mj_loadXML(filename, vfs, error, sizeof error));
  if (!model) {
    throw std::invalid_argument(label + ": MuJoCo cannot load the model: " +
                                (error[0] ? std::string(error) : "no message"));
  }
  return model;
}

}  // namespace
namespace internal {
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

std::vector<std::string> QposNames(const mjModel* m) {
  static const char* const kFree[] = {"x", "y", "z", "qw", "qx", "qy", "qz"};
  static const char* const kBall[] = {"qw", "qx", "qy", "qz"};
  std::vector<std::string> names(m->nq);
  for (int j = 0; j < m->njnt; ++j) {
    const std::string joint = Name(m, mjOBJ_JOINT, j, "joint");
    const int adr = m->jnt_qposadr[j];
    if (m->jnt_type[j] == mjJNT_FREE) {
      for (int i = 0; i < 7; ++i) names[adr + i] = joint + ":" + kFree[i];
    } else if (m->jnt_type[j] == mjJNT_BALL) {
      for (int i = 0; i < 4; ++i) names[adr + i] = joint + ":" + kBall[i];
    } else {
      names[adr] = joint;
    }
  }
  return names;
}
}  // namespace internal
namespace {

std::string Numbers(const VectorXd& v) {
  std::string out;
  char buf[32];
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%.6g", i ? ", " : "", v(i));
    out += buf;
  }
  return out;
}

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

void CheckEntries(const VectorXd& v,
                  const std::vector<std::string>& names,
                  const std::string& field,
                  const std::string& label) {
  const auto size = static_cast<Eigen::Index>(names.size());
  if (v.size() != size) {
    InvalidArgument(
        label + ": " + field, std::to_string(v.size()) + " numbers",
        "the model needs " + std::to_string(size) + " (" + (field == "qpos" ? "nq" : "nv") + ")");
  }
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v(i))) {
      InvalidArgument(label + ": " + field + "[" + std::to_string(i) + "] (" +
                          names[static_cast<std::size_t>(i)] + ")",
                      v(i), "must be finite");
    }
  }
}

// Each free or ball joint's quaternion: 0 refused, a non-unit one normalised with a warning.
void CheckQuaternions(const mjModel* m, const std::string& label, State* s) {
  for (int j = 0; j < m->njnt; ++j) {
    if (m->jnt_type[j] != mjJNT_FREE && m->jnt_type[j] != mjJNT_BALL) continue;
    const int adr = m->jnt_qposadr[j] + (m->jnt_type[j] == mjJNT_FREE ? 3 : 0);
    auto q = s->qpos.segment(adr, 4);
    const double norm = q.norm();
    const std::string where = "qpos[" + std::to_string(adr) + ".." + std::to_string(adr + 3) +
                              "] (joint " + Name(m, mjOBJ_JOINT, j, "joint") + ": qw, qx, qy, qz)";
    if (!(norm > 0)) {
      throw std::invalid_argument(label + ": " + where + " = (" + Numbers(q) +
                                  "): a zero quaternion is no orientation");
    }
    if (std::abs(norm - 1) > kUnitQuaternionTolerance) {
      const VectorXd given = q;
      q /= norm;
      char n[32];
      std::snprintf(n, sizeof n, "%.6g", norm);
      s->warnings.push_back(where + " = (" + Numbers(given) + ") has norm " + n +
                            ", not 1: normalised to (" + Numbers(q) + ")");
    }
  }
}

}  // namespace
namespace internal {
// The keyframe's state (or qpos0 and rest), then the user's qpos / qvel in its place.
State ChooseState(const mjModel* m, const MujocoState& s, const std::string& label) {
  State out{Row(m->qpos0, 0, m->nq), VectorXd::Zero(m->nv), "qpos0", {}};
  int key = s.keyframe.empty() ? -1 : Keyframe(m, s.keyframe, label);
  if (key < 0 && !s.qpos && !s.qvel && m->nq + m->nv > 0) {
    if (m->nkey == 0) {
      throw std::invalid_argument(label +
                                  ": the model has no keyframe: give a keyframe or "
                                  "qpos and qvel (the state just before the impact)");
    }
    key = 0;
  }
  if (key >= 0) {
    out = {Row(m->key_qpos, key, m->nq),
           Row(m->key_qvel, key, m->nv),
           "keyframe '" + Name(m, mjOBJ_KEY, key, "key") + "'",
           {}};
  }
  out.keyframe = key;
  if (s.qpos) out.qpos = *s.qpos;
  if (s.qvel) out.qvel = *s.qvel;
  if (s.qpos || s.qvel) {  // "keyframe 'k' with qvel given", "qpos and qvel given", ...
    const std::string given = s.qpos && s.qvel ? "qpos and qvel given"
                              : s.qpos         ? "qpos given"
                                               : "qvel given";
    out.description = key >= 0 || !s.qpos ? out.description + " with " + given : given;
  }
  CheckEntries(out.qpos, QposNames(m), "qpos", label);
  CheckEntries(out.qvel, DofNames(m), "qvel", label);
  CheckQuaternions(m, label, &out);
  if (key < 0 && !s.qpos && m->nq > 0) {
    out.warnings.push_back("qpos not given (no keyframe): the model's reference qpos0");
  }
  if (key < 0 && !s.qvel && m->nv > 0) {
    out.warnings.push_back(
        "qvel not given (no keyframe): v- = 0, no motion before the impact; give qvel");
  }
  return out;
}

// Whether a joint's limit takes part in the impact (AddJointLimits): hinge and slide joints.
bool LimitModelled(const mjModel* m, int joint) {
  return m->jnt_type[joint] == mjJNT_HINGE || m->jnt_type[joint] == mjJNT_SLIDE;
}

// Active equality constraints, joint limits and tendon limits at the current state, named.
std::string ActiveConstraints(const mjModel* m, const mjData* d, bool hinge_slide_limits_modelled) {
  std::string out;
  auto add = [&out](const std::string& s) { out += (out.empty() ? "" : ", ") + s; };
  for (int i = 0; i < m->neq; ++i) {
    if (m->eq_active[i]) add("equality " + Name(m, mjOBJ_EQUALITY, i, "equality"));
  }
  for (int r = 0; r < d->nefc; ++r) {
    if (d->efc_type[r] == mjCNSTR_LIMIT_JOINT) {
      if (hinge_slide_limits_modelled && LimitModelled(m, d->efc_id[r])) continue;  // modelled
      add("joint limit " + Name(m, mjOBJ_JOINT, d->efc_id[r], "joint"));
    } else if (d->efc_type[r] == mjCNSTR_LIMIT_TENDON) {
      add("tendon limit " + Name(m, mjOBJ_TENDON, d->efc_id[r], "tendon"));
    }
  }
  return out;
}

// The report of joint j at its lower (or upper) stop, as contact `index`.
ContactReport LimitReport(
    const mjModel* m, const mjData* d, int j, bool lower, double distance, Eigen::Index index) {
  ContactReport c;
  c.geom1 = Name(m, mjOBJ_JOINT, j, "joint");
  c.geom2 = lower ? "lower" : "upper";
  c.body1 = Name(m, mjOBJ_BODY, m->body_parentid[m->jnt_bodyid[j]], "body");
  c.body2 = Name(m, mjOBJ_BODY, m->jnt_bodyid[j], "body");
  c.name = "c" + std::to_string(index);
  c.name.append(":limit/").append(c.geom1).append("/").append(c.geom2);
  c.point = Eigen::Map<const Eigen::Vector3d>(d->xanchor + 3 * j);
  c.normal = (lower ? 1.0 : -1.0) * Eigen::Map<const Eigen::Vector3d>(d->xaxis + 3 * j);
  c.tangent1 = c.tangent2 = Eigen::Vector3d::Zero();
  c.distance = distance;
  c.mu = 0;
  c.joint_limit = true;
  return c;
}

// One row per limited hinge or slide joint within `margin` (or its own jnt_margin) of a stop:
// the stop q >= lo (or q <= hi) as a frictionless unilateral constraint on the joint's
// coordinate, Jn = +e (or -e) at its dof, so (Jn v) < 0 closes onto the stop. Its k friction
// rows are 0 and mu = 0: a stop carries a normal impulse only.
void AddJointLimits(const mjModel* m, const mjData* d, int k, double margin, ContactRows* rows) {
  for (int j = 0; j < m->njnt; ++j) {
    if (!m->jnt_limited[j] || !LimitModelled(m, j)) continue;
    const double q = d->qpos[m->jnt_qposadr[j]];
    const double below = q - m->jnt_range[2 * j], above = m->jnt_range[2 * j + 1] - q;
    const bool lower = below <= above;
    const double distance = lower ? below : above;
    if (!(distance < std::max(margin, m->jnt_margin[j]))) continue;
    const double sign = lower ? 1.0 : -1.0;
    const Eigen::Index i = rows->Jn.rows();
    rows->Jn.conservativeResize(i + 1, Eigen::NoChange);
    rows->Jn.row(i).setZero();
    rows->Jn(i, m->jnt_dofadr[j]) = sign;
    rows->D.conservativeResize(rows->D.rows() + k, Eigen::NoChange);
    rows->D.bottomRows(k).setZero();
    rows->mu.conservativeResize(i + 1);
    rows->mu(i) = 0;
    rows->reports.push_back(LimitReport(m, d, j, lower, distance, i));
  }
}

// 3 x nv translational Jacobian of body b's material point at p (zero for the world).
MatrixXd PointJacobian(const mjModel* m, const mjData* d, const double* p, int body) {
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> jac =
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>::Zero(3, m->nv);
  if (body > 0 && m->nv > 0) mj_jac(m, d, jac.data(), nullptr, p, body);
  return jac;
}

MatrixXd RelativeJacobian(const mjModel* m, const mjData* d, int i) {
  const mjContact& c = d->contact[i];
  return PointJacobian(m, d, c.pos, m->geom_bodyid[c.geom2]) -
         PointJacobian(m, d, c.pos, m->geom_bodyid[c.geom1]);
}
}  // namespace internal
namespace {

// World x projected onto the plane normal to n (world y when x is nearly along n): a frame that
// does not depend on MuJoCo's arbitrary choice of tangents.
Eigen::Vector3d TangentOf(const Eigen::Vector3d& n) {
  Eigen::Vector3d t = Eigen::Vector3d::UnitX() - n.x() * n;
  if (t.norm() < kTangentProjectionFloor) t = Eigen::Vector3d::UnitY() - n.y() * n;
  return t.normalized();
}

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
  r.tangent1 = TangentOf(r.normal);
  r.tangent2 = r.normal.cross(r.tangent1);
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

}  // namespace
namespace internal {
// Contacts MuJoCo includes (exclude 0) or finds within the margin but beyond margin - gap
// (exclude 1); fused, equality-excluded and dof-less pairs are not contacts of the impact.
ContactRows Contacts(const mjModel* m, const mjData* d, int k) {
  std::vector<int> kept;
  for (int i = 0; i < d->ncon; ++i) {
    if (d->contact[i].exclude <= 1) kept.push_back(i);
  }
  const int count = static_cast<int>(kept.size()), nv = m->nv;
  ContactRows rows{{}, MatrixXd(count, nv), MatrixXd(count * k, nv), VectorXd(count)};
  for (int i = 0; i < count; ++i) {
    ContactReport r = Report(m, d->contact[kept[i]], i);
    const MatrixXd rel = RelativeJacobian(m, d, kept[i]);
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

void SetMotions(const VectorXd& jn_v, std::vector<ContactReport>* reports) {
  for (size_t i = 0; i < reports->size(); ++i) {
    ContactReport& c = (*reports)[i];
    c.normal_velocity = jn_v(static_cast<Eigen::Index>(i));
    c.motion = c.normal_velocity < -kRestingSpeed  ? ContactMotion::kApproaching
               : c.normal_velocity > kRestingSpeed ? ContactMotion::kSeparating
                                                   : ContactMotion::kResting;
  }
}

MatrixXd FullMass(const mjModel* m, const mjData* d) {
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> M(m->nv, m->nv);
  mj_fullM(m, M.data(), d->qM);
  return 0.5 * (M + M.transpose());  // exactly symmetric (it is, up to the copy of each half)
}
}  // namespace internal
namespace {

int FirstFreeJoint(const mjModel* m) {
  for (int j = 0; j < m->njnt; ++j) {
    if (m->jnt_type[j] == mjJNT_FREE) return j;
  }
  return -1;
}

}  // namespace
namespace internal {
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
}  // namespace internal
namespace {

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

// A geom pair MuJoCo reports within the search distance, at its nearest contact.
struct Gap {
  double distance;
  int geom1, geom2;
};

// The largest contact buffer the search grows to: a model with more geom pairs than this within
// its search distance is refused rather than searched with contacts missing.
constexpr int kMaxSearchContacts = 1 << 20;

// Contacts MuJoCo finds at qpos with every margin set to `margin`, in a buffer grown until none
// is dropped (MuJoCo drops contacts past nconmax with a warning only).
DataPtr SearchData(mjModel* m, const VectorXd& qpos, double margin, const std::string& label) {
  m->opt.o_margin = margin;  // the caller sets contact_margin back before building
  // mj_makeData sizes the buffer by m->nconmax and mj_collision stops there: both see `size`.
  struct Restore {
    mjModel* m;
    int nconmax;
    ~Restore() { m->nconmax = nconmax; }
  } restore{m, m->nconmax};
  for (int size = std::max(restore.nconmax, 1000); size <= kMaxSearchContacts; size *= 4) {
    m->nconmax = size;
    DataPtr d(mj_makeData(m));
    if (!d) throw std::runtime_error(label + ": MuJoCo could not allocate its data");
    std::copy_n(qpos.data(), m->nq, d->qpos);  // nq may be 0 (qpos then null)
    mj_kinematics(m, d.get());
    mj_collision(m, d.get());
    if (d->warning[mjWARN_CONTACTFULL].number == 0) return d;
  }
  throw std::invalid_argument(label + ": more than " + std::to_string(kMaxSearchContacts) +
                              " contacts within the search distance; touchdown cannot rank them");
}

// Every geom pair MuJoCo finds within `margin` at qpos (exclude 0 or 1), at its nearest contact,
// nearest first; `moving_root` >= 0 keeps only pairs with exactly one geom in that top-level
// body's tree.
std::vector<Gap> Gaps(
    mjModel* m, const VectorXd& qpos, double margin, int moving_root, const std::string& label) {
  const DataPtr data = SearchData(m, qpos, margin, label);
  const mjData* d = data.get();
  std::map<std::pair<int, int>, double> nearest;
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& c = d->contact[i];
    if (c.exclude > 1) continue;
    if (moving_root >= 0) {
      const bool a = m->body_rootid[m->geom_bodyid[c.geom1]] == moving_root;
      const bool b = m->body_rootid[m->geom_bodyid[c.geom2]] == moving_root;
      if (a == b) continue;
    }
    const auto key = std::minmax(c.geom1, c.geom2);
    const auto [it, fresh] = nearest.emplace(key, c.dist);
    if (!fresh) it->second = std::min(it->second, c.dist);
  }
  std::vector<Gap> gaps;
  for (const auto& [pair, distance] : nearest) gaps.push_back({distance, pair.first, pair.second});
  std::stable_sort(gaps.begin(), gaps.end(),
                   [](const Gap& x, const Gap& y) { return x.distance < y.distance; });
  return gaps;
}

double SearchDistance(const mjModel* m) { return 2 * m->stat.extent + kSearchDistance; }

std::string PairName(const mjModel* m, const Gap& g) {
  return Name(m, mjOBJ_GEOM, g.geom1, "geom") + "/" + Name(m, mjOBJ_GEOM, g.geom2, "geom");
}

// What touchdown moves: a free joint's position, or slide joints of a top-level body.
struct Base {
  int root = -1;             // the top-level body whose tree moves
  std::vector<int> qposadr;  // one per coordinate moved
  MatrixXd axes;             // 3 x qposadr.size(): world displacement per unit of each
};

Base FloatingBase(const mjModel* m, const VectorXd& qpos) {
  Base base;
  if (const int free = FirstFreeJoint(m); free >= 0) {
    base.root = m->body_rootid[m->jnt_bodyid[free]];
    for (int i = 0; i < 3; ++i) base.qposadr.push_back(m->jnt_qposadr[free] + i);
    base.axes = MatrixXd::Identity(3, 3);
    return base;
  }
  DataPtr data(mj_makeData(m));
  std::copy_n(qpos.data(), m->nq, data->qpos);  // nq may be 0 (qpos then null)
  mj_kinematics(m, data.get());
  for (int j = 0; j < m->njnt; ++j) {
    const int body = m->jnt_bodyid[j];
    if (m->jnt_type[j] != mjJNT_SLIDE || m->body_parentid[body] != 0) continue;
    if (base.root >= 0 && body != base.root) continue;  // the first such body's slides only
    base.root = body;
    base.qposadr.push_back(m->jnt_qposadr[j]);
    base.axes.conservativeResize(3, base.axes.cols() + 1);
    base.axes.col(base.axes.cols() - 1) = Eigen::Map<const Eigen::Vector3d>(data->xaxis + 3 * j);
  }
  return base;
}

// Slides of the base that move it by `along` (world), least squares; empty when they cannot
// (the residual above kSlideTolerance of |along|).
std::optional<VectorXd> SlideFor(const Base& base, const Eigen::Vector3d& along) {
  constexpr double kSlideTolerance = 1e-9;  // slide axes are unit vectors: roundoff only
  const VectorXd x = base.axes.completeOrthogonalDecomposition().solve(along);
  if ((base.axes * x - along).norm() > kSlideTolerance * along.norm()) return std::nullopt;
  return x;
}

// Words for pairs that touchdown leaves inside each other: translation along gravity lands the
// c-th nearest pair, and nearer ones penetrate.
std::string Penetrating(const mjModel* m,
                        const std::vector<Gap>& gaps,
                        std::size_t c,
                        double margin) {
  std::size_t deep = 0;
  while (deep < gaps.size() && gaps[deep].distance < -margin) ++deep;
  char text[300];
  std::snprintf(text, sizeof text,
                "touchdown = %zu: %zu geom pair%s penetrate by more than the contact margin "
                "(deepest %s at %.4g m): a translation along gravity lands one gap at a time; "
                "pose the model so that the %zu pairs touch together, or use touchdown = 1",
                c, deep, deep == 1 ? "" : "s", PairName(m, gaps.front()).c_str(),
                gaps.front().distance, c);
  return text;
}

// The base's coordinates per unit of displacement along gravity, if it has a base that moves so.
std::optional<VectorXd> AlongGravity(const mjModel* m, const Base& base) {
  const Eigen::Vector3d g(m->opt.gravity[0], m->opt.gravity[1], m->opt.gravity[2]);
  if (base.root < 0 || !(g.norm() > 0)) return std::nullopt;
  return SlideFor(base, g.normalized());
}

bool Movable(const mjModel* m, const VectorXd& qpos) {
  return AlongGravity(m, FloatingBase(m, qpos)).has_value();
}

}  // namespace
namespace internal {
// Translates the floating base along gravity until the c-th nearest geom pair of its tree with
// the rest is within margin / 2 (Newton steps on that gap: exact for a plane normal to gravity).
double Touchdown(mjModel* m, const MujocoOptions& o, const std::string& label, State* state) {
  const std::string field = label + ": touchdown";
  const Base base = FloatingBase(m, state->qpos);
  if (!(Eigen::Map<const Eigen::Vector3d>(m->opt.gravity).norm() > 0)) {
    InvalidArgument(field, o.touchdown, "the model's gravity is 0");
  }
  const std::optional<VectorXd> unit = AlongGravity(m, base);
  if (!unit) {
    InvalidArgument(field, o.touchdown,
                    "needs a floating base: a free joint (a URDF gets one with floating_base), or "
                    "slide joints on a top-level body that can move it along gravity");
  }
  const auto c = static_cast<std::size_t>(o.touchdown);
  double shift = 0;
  for (int it = 0; it < kTouchdownIterations; ++it) {
    const std::vector<Gap> gaps = Gaps(m, state->qpos, SearchDistance(m), base.root, field);
    if (gaps.size() < c) {
      InvalidArgument(field, o.touchdown,
                      "the floating base's bodies make " + std::to_string(gaps.size()) +
                          (gaps.size() == 1 ? " geom pair" : " geom pairs") +
                          " with the rest within " + std::to_string(SearchDistance(m)) +
                          " m (a floorless model: add_floor)");
    }
    const double gap = gaps[c - 1].distance;
    if (std::abs(gap) <= o.contact_margin / 2) {
      state->description += ", touched down";
      if (gaps.front().distance < -o.contact_margin) {
        state->warnings.push_back(Penetrating(m, gaps, c, o.contact_margin));
      }
      return shift;
    }
    for (std::size_t i = 0; i < base.qposadr.size(); ++i) {
      state->qpos(base.qposadr[i]) += gap * (*unit)(static_cast<Eigen::Index>(i));
    }
    shift += gap;
  }
  InvalidArgument(field, o.touchdown,
                  "the gap did not close within " + std::to_string(kTouchdownIterations) +
                      " translations along gravity");
}
}  // namespace internal
namespace {

[[noreturn]] void NoContact(mjModel* m,
                            const MujocoOptions& o,
                            const State& state,
                            const std::string& label) {
  const std::vector<Gap> gaps = Gaps(m, state.qpos, SearchDistance(m), -1, label);
  char near[400];
  if (gaps.empty()) {
    std::snprintf(near, sizeof near, "no geom pair within %g m (a floorless model: add_floor)",
                  SearchDistance(m));
  } else {
    std::snprintf(near, sizeof near, "the nearest pair, %s, is %.6g m apart%s",
                  PairName(m, gaps.front()).c_str(), gaps.front().distance,
                  Movable(m, state.qpos) ? " (touchdown moves the floating base onto it)" : "");
  }
  InvalidArgument(
      label + " (" + state.description + "): contact_margin", o.contact_margin,
      std::string("MuJoCo finds no contact within this distance at this qpos; ") + near);
}

// Words when no contact approaches: the impact then changes nothing (v+ = v-, 0 LCP solves).
std::string NoApproachWarning(const std::vector<ContactReport>& contacts) {
  int resting = 0, separating = 0;
  for (const ContactReport& c : contacts) {
    if (c.motion == ContactMotion::kApproaching) return {};
    (c.motion == ContactMotion::kResting ? resting : separating) += 1;
  }
  return "no contact is approaching (" + std::to_string(resting) + " resting, " +
         std::to_string(separating) +
         " separating): there is no impact, every sample ends at v+ = v- without an LCP solve";
}

MujocoProblem Build(mjModel* m, const MujocoOptions& options, const std::string& label) {
  State state = ChooseState(m, options.state, label);
  // Every geom's margin becomes contact_margin; the other overridden contact parameters
  // (solref, solimp) play no part in the impact problem.
  m->opt.enableflags |= mjENBL_OVERRIDE;
  DataPtr data(mj_makeData(m));
  if (!data) throw std::runtime_error(label + ": MuJoCo could not allocate its data");
  mjData* d = data.get();
  const double shift = options.touchdown > 0 ? Touchdown(m, options, label, &state) : 0.0;
  m->opt.o_margin = options.contact_margin;
  std::memcpy(d->qpos, state.qpos.data(), sizeof(double) * m->nq);
  std::memcpy(d->qvel, state.qvel.data(), sizeof(double) * m->nv);
  mj_forward(m, d);
  if (d->warning[mjWARN_CONTACTFULL].number > 0) {
    throw std::invalid_argument(label + " (" + state.description + "): MuJoCo's contact buffer (" +
                                std::to_string(m->nconmax) +
                                ") overflowed at qpos: contacts were dropped (raise <size "
                                "nconmax=...> in the model, or lower contact_margin)");
  }
  const std::string active = ActiveConstraints(m, d, !options.ignore_constraints);
  if (!active.empty() && !options.ignore_constraints) {
    throw std::invalid_argument(label + " (" + state.description +
                                "): constraints active at qpos: " + active +
                                "; the impact problem models contacts and hinge/slide joint "
                                "limits only (--ignore-constraints leaves these out)");
  }
  const int k = options.friction_directions;
  ContactRows rows = Contacts(m, d, k);
  if (!options.ignore_constraints) AddJointLimits(m, d, k, options.contact_margin, &rows);
  if (rows.reports.empty()) NoContact(m, options, state, label);
  MujocoProblem out{{impact::ImpactProblem(FullMass(m, d), rows.Jn, rows.D, rows.mu, state.qvel, k),
                     Settings(m), "MuJoCo " + label + " at " + state.description},
                    std::move(rows.reports),
                    DofNames(m),
                    {},
                    {},
                    {},
                    {},
                    {},
                    {},
                    {},
                    0.0,
                    {}};
  SetMotions(out.loaded.problem.Jn() * state.qvel, &out.contacts);
  out.contact_coordinate_names = ContactCoordinateNames(out.contacts, k);
  FillOutputs(m, d, &out);
  out.qpos = state.qpos;
  out.qvel = state.qvel;
  out.qpos_names = QposNames(m);
  out.touchdown_shift = shift;
  out.warnings = std::move(state.warnings);
  if (const std::string w = NoApproachWarning(out.contacts); !w.empty()) out.warnings.push_back(w);
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

// The text as the file `filename` of MuJoCo's virtual file system (a large struct: on the heap),
// loaded as if from that path: MuJoCo finds the text by the file's name, and meshes and textures
// the model names relative to the path's folder as usual.
ModelPtr LoadXmlText(const std::string& xml,
                     const std::string& label,
                     const std::string& filename = "model.xml") {
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const std::string name = std::filesystem::path(filename).filename().string();
  if (mj_makeEmptyFileVFS(vfs.get(), name.c_str(), static_cast<int>(xml.size())) != 0) {
    throw std::runtime_error(label + ": MuJoCo's virtual file system refused the model");
  }
  std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), name.c_str())], xml.data(), xml.size());
  try {
    ModelPtr model = LoadOrThrow(filename.c_str(), vfs.get(), label);
    mj_deleteVFS(vfs.get());
    return model;
  } catch (...) {
    mj_deleteVFS(vfs.get());
    throw;
  }
}

std::optional<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A URDF as MJCF: compiled, then written back by MuJoCo (mj_saveLastXML writes only to a file:
// a scratch file, removed at once).
std::string UrdfAsMjcf(const std::string& urdf, const std::string& path, const std::string& label) {
  const ModelPtr model = LoadXmlText(urdf, label, path);
  static int counter = 0;  // under MujocoMutex
  const std::filesystem::path scratch =
      std::filesystem::temp_directory_path() /
      ("impactset-urdf-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) + ".xml");
  char error[1024] = "";
  const int ok = mj_saveLastXML(scratch.c_str(), model.get(), error, sizeof error);
  const std::optional<std::string> text = ok ? ReadFile(scratch.string()) : std::nullopt;
  std::error_code ec;
  std::filesystem::remove(scratch, ec);
  if (!text)
    throw std::invalid_argument(label + ": MuJoCo could not write the URDF as MJCF: " + error);
  return *text;
}

// The model as the options want it: the file itself when nothing is to change, else its text
// with includes inlined (against the model's folder), a floating base, a floor.
ModelPtr LoadModel(const std::optional<std::string>& text,
                   const std::string& path,
                   const std::filesystem::path& folder,
                   const MujocoOptions& o,
                   const std::string& label) {
  if (!text) return LoadOrThrow(path.c_str(), nullptr, label);  // MuJoCo's own message
  const std::optional<ModelCacheOptions> cache = ModelCacheFromEnvironment();
  if (!internal::HasInclude(*text) && !o.add_floor && !o.floating_base) {
    return CachedCompile(*text, path.empty() ? "model.xml" : path, cache, [&] {
      return path.empty() ? LoadXmlText(*text, label) : LoadOrThrow(path.c_str(), nullptr, label);
    });
  }
  std::string edited = internal::ExpandIncludes(*text, folder, label);
  const bool urdf = internal::IsUrdf(edited);
  if (o.floating_base && !urdf) {
    InvalidArgument(label + ": floating_base", "true",
                    "applies to URDF files; an MJCF model gets a <freejoint/> in its base body");
  }
  if (o.floating_base) edited = internal::AddFloatingBase(edited, label);
  if (o.add_floor) {
    if (urdf) edited = UrdfAsMjcf(edited, path.empty() ? "model.urdf" : path, label);
    edited = internal::AddFloor(edited, label);
  }
  const std::string at = path.empty() ? "model.xml" : path;
  return CachedCompile(edited, at, cache, [&] { return LoadXmlText(edited, label, at); });
}

MujocoProblem Guarded(const std::string& label,
                      const MujocoOptions& options,
                      const std::function<ModelPtr()>& load) {
  options.Validate();
  return WithModel(label, load, [&](mjModel* m) { return Build(m, options, label); });
}

// Loads the file at `path` (or the text `xml` when path is empty) as the options want it.
std::function<ModelPtr()> Loader(const std::string& path,
                                 const std::string* xml,
                                 const MujocoOptions& o,
                                 const std::string& label) {
  return [=, &o] {
    const std::optional<std::string> text = xml ? std::optional(*xml) : ReadFile(path);
    const std::filesystem::path folder =
        path.empty() ? std::filesystem::path(".") : std::filesystem::path(path).parent_path();
    return LoadModel(text, path, folder.empty() ? std::filesystem::path(".") : folder, o, label);
  };
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

namespace internal {

ModelPtr LoadModelLocked(const std::string& path,
                         const std::string* xml,
                         const MujocoOptions& options,
                         const std::string& label) {
  return Loader(path, xml, options, label)();
}

void WithMujocoLock(const std::string& label, const std::function<void()>& use) {
  WithModel(
      label, [] { return ModelPtr(); }, [&](mjModel*) { use(); });
}

namespace {
// The hooks the live simulations share: installed by the first, restored by the last. A load
// in between saves and restores the same two functions.
struct SimulationHookState {
  int count = 0;
  void (*error)(const char*) = nullptr;
  void (*warning)(const char*) = nullptr;
};
SimulationHookState& SimulationHooks() {
  static SimulationHookState s;
  return s;
}
}  // namespace

void AcquireSimulationHooks() {
  const std::lock_guard<std::mutex> lock(MujocoMutex());
  SimulationHookState& s = SimulationHooks();
  if (s.count++ > 0) return;
  s.error = mju_user_error;
  s.warning = mju_user_warning;
  mju_user_error = ThrowMujocoError;
  mju_user_warning = IgnoreMujocoWarning;
}

void ReleaseSimulationHooks() {
  const std::lock_guard<std::mutex> lock(MujocoMutex());
  SimulationHookState& s = SimulationHooks();
  if (--s.count > 0) return;
  mju_user_error = s.error;
  mju_user_warning = s.warning;
}

}  // namespace internal

void MujocoOptions::Validate() const {
  if (!(contact_margin >= 0) || !std::isfinite(contact_margin)) {
    InvalidArgument("contact_margin", contact_margin, "must be >= 0 and finite (metres)");
  }
  if (friction_directions != 4 && friction_directions != 8 && friction_directions != 16) {
    InvalidArgument("friction_directions", friction_directions, "must be 4, 8 or 16");
  }
  if (touchdown < 0) {
    InvalidArgument("touchdown", touchdown, "must be >= 0 (0: off; c: until c geom pairs touch)");
  }
}

MujocoProblem LoadMujoco(const std::string& path, const MujocoOptions& options) {
  return Guarded(path, options, Loader(path, nullptr, options, path));
}

MujocoProblem LoadMujocoXml(const std::string& xml,
                            const std::string& label,
                            const MujocoOptions& options) {
  return Guarded(label, options, Loader("", &xml, options, label));
}

MujocoState ResolveMujocoStateWith(const std::string& path, const MujocoOptions& options) {
  return Resolved(path, options.state, Loader(path, nullptr, options, path));
}

MujocoState ResolveMujocoStateXmlWith(const std::string& xml,
                                      const std::string& label,
                                      const MujocoOptions& options) {
  return Resolved(label, options.state, Loader("", &xml, options, label));
}

MujocoState ResolveMujocoState(const std::string& path, const MujocoState& state) {
  MujocoOptions o;
  o.state = state;
  return ResolveMujocoStateWith(path, o);
}

MujocoState ResolveMujocoStateXml(const std::string& xml,
                                  const std::string& label,
                                  const MujocoState& state) {
  MujocoOptions o;
  o.state = state;
  return ResolveMujocoStateXmlWith(xml, label, o);
}

}  // namespace impactset::robots
