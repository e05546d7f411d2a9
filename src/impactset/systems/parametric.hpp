#pragma once
// Parametrised built-in systems: generators that write a scene (docs/scene-format.md) from a few
// named parameters and load it, so M(q), Jn and Jf come from the same kinematics as the scene
// files. The CLI passes parameters as `--system NAME --param KEY=VALUE ...`; list-valued
// parameters take comma-separated numbers ("masses=1,2,1"). docs/parametric-systems.md documents
// them; [S-J] = Seghete & Murphey, IEEE T-ASE 2014, [S-C] = Seghete & Murphey, ICRA 2012.
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/systems/scene.hpp>

namespace impactset::systems {

/// N collinear frictionless discs ([S-J] Fig. 2, Example 1): disc i has one prismatic-x
/// joint, x_1 = 0 and x_{i+1} = x_i + r_i + r_{i+1} (all touching); contact i joins discs i and
/// i+1, Jn row i = e_{i+1} - e_i. k = 0 (no friction basis).
struct CradleParams {
  VectorXd masses = VectorXd::Ones(3);                        ///< > 0, N >= 2 entries
  VectorXd radii = VectorXd::Constant(3, 0.5);                ///< > 0, N entries
  VectorXd velocities = (VectorXd(3) << 1, 0, 0).finished();  ///< N entries; some v_i > v_{i+1}
  /// @throws std::invalid_argument naming masses, radii or velocities.
  void Validate() const;
};
LoadedScene MakeCradle(const CradleParams& params);

/// Three-ball planar billiard break ([S-J] §VII-A, Figs. 4-5): c at the origin moving at
/// (speed, 0) along the bisector; a at angle +theta/2, b at -theta/2, both at rest and touching
/// c. q = (x_a, y_a, x_b, y_b, x_c, y_c); masses density * 4/3 pi r^3 (no spin). Contacts: a-c
/// (row 0), b-c (row 1), and a-b (row 2) only when theta is at its minimum and a, b touch.
struct BilliardParams {
  double theta = 2 * std::numbers::pi / 3;      ///< angle at c between the lines to a and b [rad]
  double ra = 1, rb = 1, rc = 1;                ///< radii > 0
  double density = 3 / (4 * std::numbers::pi);  ///< > 0; the default gives unit mass to a unit ball
  double speed = 1;                             ///< > 0, speed of c
  double mu = 0;                                ///< >= 0, friction at every contact (k = 2)
  /// @throws std::invalid_argument naming the field (theta below BilliardMinAngle or above pi).
  void Validate() const;
};
/// Smallest theta at which a and b do not overlap (they touch there).
double BilliardMinAngle(double ra, double rb, double rc);
LoadedScene MakeBilliard(const BilliardParams& params);

/// Two-legged sagittal RHex at double contact ([S-C] §V, Figs. 1-3; the paper states no
/// parameter, every number here is ours). q = (x, y, theta, phi_l, phi_r, gamma_l,
/// gamma_r): floating body (a box), revolute hips at (+hip_offset, 0) (right, front) and
/// (-hip_offset, 0) (left, rear) in the body frame, hip angle from the body's -y axis
/// (counter-clockwise), knee angle relative to the thigh; thigh and shank are massive rods and
/// each foot is a point at the shank's end. The paper's reduction: x = theta = 0, gamma_l =
/// gamma_r = gamma, phi_l from "feet at equal height", y from "feet on the floor". Contacts:
/// right foot (row 0, u), left foot (row 1, v). v- = the body falling at `speed`.
struct RhexParams {
  double phi_r = 0.5;         ///< right hip angle [rad]
  double gamma = 0.3;         ///< common knee angle [rad]
  int branch = 0;             ///< phi_l root: 0 = the other root -phi_r - 2 delta, 1 = phi_r
  double hip_offset = 0.25;   ///< > 0, half the hip separation [m]
  double thigh_length = 0.1;  ///< > 0 [m]
  double shank_length = 0.1;  ///< > 0 [m]
  double body_mass = 1;       ///< > 0 [kg]
  double body_height = 0.1;   ///< > 0; the body box is 2 hip_offset x body_height
  double thigh_mass = 0.1;    ///< > 0 [kg]
  double shank_mass = 0.1;    ///< > 0 [kg]
  double speed = 1;           ///< > 0, falling speed of the body
  double mu = 0;              ///< >= 0
  /// @throws std::invalid_argument naming the field; "phi_r/gamma" when the feet would not be
  ///         below the hips (y <= 0).
  void Validate() const;
};
/// The reduced configuration q (7 entries) of the parameters.
VectorXd RhexConfiguration(const RhexParams& params);
LoadedScene MakeRhex(const RhexParams& params);

/// One parameter of a parametrised system, for `impactset systems`.
struct ParameterInfo {
  std::string name;
  std::string default_value;
  std::string meaning;
};
struct ParametricInfo {
  std::string name;
  std::string description;
  std::vector<ParameterInfo> parameters;
};
/// The parametrised systems, in a stable order ("cradle", "billiard", "rhex").
const std::vector<ParametricInfo>& ParametricSystems();
bool IsParametric(const std::string& name);
/// Whether `info` has a parameter called `name`.
bool HasParameter(const ParametricInfo& info, const std::string& name);
/// Its parameter names joined by ", " (the "known: ..." of error messages).
std::string ParameterNames(const ParametricInfo& info);

using ParameterValues = std::map<std::string, std::string>;
/// "KEY=VALUE" strings to a map. @throws std::invalid_argument ("--param 'x': ...") for a
/// missing '=', an empty key or a key given twice.
ParameterValues ParseParameterAssignments(const std::vector<std::string>& assignments);

/// Builds a parametrised system; parameters not given keep their defaults.
/// @throws std::invalid_argument naming the system and the parameter: unknown parameter (listing
///         the known ones), unparsable number, or a value the system's Validate() rejects.
LoadedScene LoadParametric(const std::string& name, const ParameterValues& values);

/// Any built-in system: a scene file (no parameters allowed) or a parametrised one.
/// @throws std::invalid_argument for an unknown name, or parameters given to a system without.
LoadedProblem LoadSystem(const std::string& name, const ParameterValues& values);

}  // namespace impactset::systems
