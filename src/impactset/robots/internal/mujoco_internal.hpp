#pragma once
// What mujoco_model.cpp and mujoco_simulation.cpp share: loading under MuJoCo's lock, the start
// state, and the contact rows of an impact problem. Private to robots/; MuJoCo's types are only
// named here (their definitions stay in the .cpp files).
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/robots/mujoco_model.hpp>

struct mjModel_;
struct mjData_;
typedef struct mjModel_ mjModel;  // NOLINT: MuJoCo's own spelling (mjmodel.h)
typedef struct mjData_ mjData;    // NOLINT

namespace impactset::robots::internal {

struct ModelDeleter {
  void operator()(mjModel* m) const;
};
struct DataDeleter {
  void operator()(mjData* d) const;
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

/// MuJoCo's error and warning hooks are process-wide and its XML parser is not re-entrant: loads
/// (and changes of the hooks) happen under this lock.
std::mutex& MujocoMutex();

/// Loads the model at `path` (or the text *xml when path is empty) as the options want it (floor,
/// floating base), under the caller's MujocoMutex and with MuJoCo's errors as exceptions naming
/// `label` (std::invalid_argument).
ModelPtr LoadModelLocked(const std::string& path,
                         const std::string* xml,
                         const MujocoOptions& options,
                         const std::string& label);

/// Runs `use` under MujocoMutex with MuJoCo's errors as std::invalid_argument naming `label`.
void WithMujocoLock(const std::string& label, const std::function<void()>& use);

/// While acquired (counted; each simulation holds one): MuJoCo's errors throw a
/// std::runtime_error and its warnings are not printed (simulations read its warning counters).
void AcquireSimulationHooks();
void ReleaseSimulationHooks();

struct State {
  VectorXd qpos, qvel;
  std::string description;  ///< "keyframe 'x'", "qpos/qvel given", ... (messages, provenance)
  std::vector<std::string> warnings;
  int keyframe = -1;  ///< the keyframe the state came from, -1: none
};

/// The keyframe's state (or qpos0 and rest), then the given qpos / qvel in its place.
State ChooseState(const mjModel* m, const MujocoState& s, const std::string& label);
/// Translates the floating base (a free joint, or slide joints of a top-level body) along gravity
/// until `options.touchdown` geom pairs touch; returns the shift. Leaves the model's margin
/// option changed (the caller restores or sets it).
double Touchdown(mjModel* m, const MujocoOptions& options, const std::string& label, State* state);

std::string Name(const mjModel* m, int type, int id, const char* fallback);
std::vector<std::string> DofNames(const mjModel* m);
std::vector<std::string> QposNames(const mjModel* m);
/// The floating base's body, else the world's first child with degrees of freedom (-1: none).
int RootBody(const mjModel* m);
/// Active equality constraints, joint limits and tendon limits at the current state, named;
/// hinge and slide joints' limits left out when the impact models them (AddJointLimits).
std::string ActiveConstraints(const mjModel* m, const mjData* d, bool hinge_slide_limits_modelled);

/// The impact problem's contact rows at d's current kinematics and collision.
struct ContactRows {
  std::vector<ContactReport> reports;
  MatrixXd Jn, D;
  VectorXd mu;
};
ContactRows Contacts(const mjModel* m, const mjData* d, int k);
/// Appends the limited hinge and slide joints within `margin` (or their own jnt_margin) of a
/// stop at d's state: a frictionless unilateral constraint each, Jn = +-e at the joint's dof,
/// D rows 0, mu 0.
void AddJointLimits(const mjModel* m, const mjData* d, int k, double margin, ContactRows* rows);
/// Each report's normal_velocity (Jn v) and motion (kRestingSpeed decides).
void SetMotions(const VectorXd& jn_v, std::vector<ContactReport>* reports);
/// mj_fullM, exactly symmetric.
MatrixXd FullMass(const mjModel* m, const mjData* d);
/// 3 x nv: v -> the velocity of d->contact[i]'s point on geom 2's body relative to the same
/// point on geom 1's body, J_b2(p_i) - J_b1(p_i) (docs: robots/mujoco_model.hpp).
MatrixXd RelativeJacobian(const mjModel* m, const mjData* d, int i);

}  // namespace impactset::robots::internal
