#pragma once
// Output maps a MuJoCo model offers (`--output com | base | joints:NAME,...`, docs/mujoco.md):
// linear maps y = C v of the generalized velocity v to quantities a controller reads. The engine
// turns them into sets::OutputMap and builds the sets in their coordinates.
#include <string>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/robots/mujoco_model.hpp>

namespace impactset::robots {

/// A linear map y = C v (C: d x n) and a name per row of y.
struct LinearOutput {
  MatrixXd C;
  std::vector<std::string> coordinate_names;  ///< d names
};

/// y = velocity of the centre of mass of the floating base's subtree (the whole robot when the
/// free joint is its root), world frame: C = MujocoProblem::com_jacobian (3 x n), rows "com:vx",
/// "com:vy", "com:vz".
LinearOutput ComOutput(const MujocoProblem& model);

/// y = the free joint's six velocities (MuJoCo's convention: linear velocity of the base body's
/// origin in the world frame, then angular velocity in the base body's frame): C =
/// MujocoProblem::base_map (6 x n), rows named as dof_names.
/// @throws std::invalid_argument when the model has no free joint.
LinearOutput BaseOutput(const MujocoProblem& model, const std::string& label);

/// y = the named generalized velocities, in the order given: rows of the identity picked by
/// MujocoProblem::dof_names (a hinge or slide joint's name, "<joint>:vx" ... for a free joint's
/// six, "<joint>:wx" ... for a ball joint's three). A name that is a free or ball joint's own name
/// picks all of its velocities.
/// @throws std::invalid_argument for an empty list, an unknown name (listing the known ones) or a
///         name given twice.
LinearOutput JointsOutput(const MujocoProblem& model, const std::vector<std::string>& joints);

}  // namespace impactset::robots
