#pragma once
// MuJoCo's own time stepping with impacts taken out of its hands (docs/rollouts.md): a
// MujocoSimulation advances the model with the model's timestep, integrator and actuators, and
// between two halves of a step lets the caller see contacts that approach and replace the
// velocity by a post-impact one.
//
//   const robots::SimulationModel model = robots::LoadSimulationModel("humanoid.xml", options);
//   robots::MujocoSimulation sim(model);            // one per thread
//   sim.Reset(model.qpos, model.qvel, model.ctrl);
//   while (sim.time() < horizon) {
//     if (sim.Prepare() > impact_speed) {           // kinematics and collision at this state
//       robots::ImpactHere impact = sim.Impact();   // the impact problem LoadMujoco would build
//       sim.SetVelocity(v_plus);                    // one Algorithm-1 sample of it
//     }
//     if (!sim.Advance()) break;                    // the rest of MuJoCo's step; false: diverged
//   }
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <impactset/common/eigen_types.hpp>
#include <impactset/impact/impact_problem.hpp>
#include <impactset/robots/mujoco_model.hpp>

namespace impactset::robots {

class SimulationModelData;  // the loaded MuJoCo model (mujoco_simulation.cpp)

/// A MuJoCo model loaded once for simulation, and the state it starts from. Immutable and
/// shared: every MujocoSimulation made from it copies the model.
struct SimulationModel {
  std::shared_ptr<const SimulationModelData> data;
  std::string label;                        ///< the file (or the text's label)
  double timestep = 0;                      ///< the model's, seconds
  VectorXd qpos, qvel;                      ///< the start (keyframe, given entries, touchdown)
  VectorXd ctrl;                            ///< the keyframe's ctrl (nu; 0 without a keyframe)
  std::vector<std::string> qpos_names;      ///< as MujocoProblem::qpos_names
  std::vector<std::string> dof_names;       ///< as MujocoProblem::dof_names
  std::vector<std::string> actuator_names;  ///< nu names ("actuator<i>" when unnamed)
  /// The actuators a posture controller can drive (PostureControl): one per actuator, true for
  /// a joint transmission on a hinge or slide joint with a fixed gain and no bias (a motor) or an
  /// affine bias on the joint's position (a position servo).
  std::vector<bool> posture_actuators;
  std::vector<std::string> warnings;  ///< as MujocoProblem::warnings, about the start state
  /// The impact options events use (contact margin, friction directions, constraints).
  MujocoOptions options;
};

/// Loads the model as LoadMujoco would (the options' floor, floating base, state and touchdown);
/// unlike LoadMujoco, the start need not touch anything.
/// @throws std::invalid_argument as LoadMujoco, except that no contact is required.
SimulationModel LoadSimulationModel(const std::string& path, const MujocoOptions& options);
/// The same from MJCF text.
SimulationModel LoadSimulationModelXml(const std::string& xml,
                                       const std::string& label,
                                       const MujocoOptions& options);

/// The controls that hold `target` (qpos) by a joint-space PD law through the model's actuators:
/// a motor on joint j gets (kp (target_j - q_j) - kd qd_j) / (gear gain), a position servo gets
/// target_j; other actuators 0. Controls are clamped to an actuator's ctrlrange when limited.
VectorXd PostureControl(const SimulationModel& model,
                        const VectorXd& target,
                        const VectorXd& qpos,
                        const VectorXd& qvel,
                        double kp,
                        double kd);

/// A contact separating faster than this (m/s) after an impact is released from MuJoCo's
/// constraints (MujocoSimulation::ReleaseSeparatingContacts): far above the roundoff left on a
/// resting contact's post-impact velocity (~1e-9 m/s), far below any real lift-off.
inline constexpr double kReleaseSpeed = 1e-6;
/// How far (m) a released contact may move between steps and still be the same contact: above a
/// step's travel (1 m/s x 5 ms), below the spacing of a body's contacts on one geom pair.
inline constexpr double kReleaseTracking = 0.01;

/// The impact problem at the simulation's current state.
struct ImpactHere {
  impact::ImpactProblem problem;
  std::vector<ContactReport> contacts;  ///< one per contact of the problem, as LoadMujoco's
  int approaching = 0;                  ///< contacts with (Jn v)_i < -kRestingSpeed
  /// Joint limits or equality constraints active at this state: left out of the impact (only
  /// contacts carry impulse), as MujocoOptions::ignore_constraints does.
  bool constraints_left_out = false;
};

/// MuJoCo's stepping of one copy of the model (not thread-safe: one per thread; many may run
/// at once). While any MujocoSimulation exists, MuJoCo's warnings are not printed (they are read
/// from its counters: Advance) and its errors throw std::runtime_error.
class MujocoSimulation {
 public:
  explicit MujocoSimulation(const SimulationModel& model);
  ~MujocoSimulation();
  MujocoSimulation(const MujocoSimulation&) = delete;
  MujocoSimulation& operator=(const MujocoSimulation&) = delete;

  /// Time 0 at this state and these controls (the model's sizes; @throws std::invalid_argument
  /// otherwise).
  void Reset(const VectorXd& qpos, const VectorXd& qvel, const VectorXd& ctrl);
  double time() const;
  Eigen::Map<const VectorXd> qpos() const;
  Eigen::Map<const VectorXd> qvel() const;
  /// Centre of mass of the model's root subtree (the floating base's, as ComOutput), world, at
  /// the state of the last Prepare (Advance moves the state on, not the kinematics).
  Eigen::Vector3d com() const;
  /// The controls for the coming Advance (nu entries; @throws std::invalid_argument otherwise).
  void SetControl(const VectorXd& ctrl);

  /// The first half of a step: MuJoCo's checks of qpos and qvel, kinematics and collision at
  /// the current state. Returns the fastest approach speed (m/s, >= 0) among MuJoCo's contacts
  /// that are within the contact margin; 0 when none approaches.
  double Prepare();
  /// The impact problem LoadMujoco would build at the current state (after Prepare).
  ImpactHere Impact();
  /// Replaces qvel (nv entries) before Advance.
  void SetVelocity(const VectorXd& qvel);
  /// After an impact (SetVelocity to v+): MuJoCo's contacts that separate faster than
  /// kReleaseSpeed at the new qvel are released: left out of MuJoCo's constraints from this step
  /// on while they stay in contact and keep separating, then MuJoCo's again. The impact has
  /// already given them their impulse; a soft contact still sunk into its surface would otherwise
  /// push and rub on the leaving body for a few more steps (a foot lifting off while sliding
  /// loses much of its speed to it). Returns how many were released. Euler integration only: RK4
  /// and implicit models step with mj_step, which collides again.
  int ReleaseSeparatingContacts();
  /// The rest of MuJoCo's step (its mj_step from the position stage on: the model's integrator).
  /// Returns false when the state diverged: MuJoCo's bad-qpos, bad-qvel or bad-qacc warning
  /// fired, or qpos or qvel is not finite; Divergence() then says which.
  bool Advance();
  const std::string& Divergence() const { return divergence_; }

 private:
  void ExcludeReleased();  // marks the released contacts still separating, rebuilds constraints
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string divergence_;
};

}  // namespace impactset::robots
