#pragma once
// Impact states of MuJoCo models (MJCF, or URDF through MuJoCo's compiler): the configuration and
// velocity just before touchdown become an impact::ImpactProblem (docs/mujoco.md).
//
//   robots::MujocoOptions o;
//   o.state.keyframe = "touchdown";
//   const robots::MujocoProblem r = robots::LoadMujoco("quadruped.xml", o);
//   engine::Run(r.loaded.problem, engine::DefaultRunOptions(r.loaded.settings), "quadruped");
//
// At the chosen state (qpos, qvel) MuJoCo computes the kinematics and its collision detection;
// every contact it reports within `contact_margin` becomes a contact of the impact problem:
//
//   M   = mj_fullM(qM) at qpos (armature included), n = nv,
//   Jn  row i = n_i^T (J_b2(p_i) - J_b1(p_i)),
//   D   rows i k + j = (cos(2 pi j / k) t1_i + sin(2 pi j / k) t2_i)^T (J_b2(p_i) - J_b1(p_i)),
//   mu_i = friction[0] of contact i (0 when its condim is 1),   v- = qvel,
//
// where p_i is the contact point (midway between the two geoms), (n_i, t1_i, t2_i) the rows of
// MuJoCo's contact frame (n_i points from geom 1 into geom 2), b1, b2 the bodies of geom 1 and 2
// and J_b(p) the 3 x nv translational Jacobian (mj_jac) of the material point of body b at p (the
// world body has none: J = 0). So (Jn v)_i is the speed at which the two geoms separate at p_i.
// qvel follows MuJoCo's convention: a free joint's six velocities are the linear velocity of the
// body origin in the world frame, then the angular velocity in the body frame; a ball joint's
// three are the angular velocity in the child body's frame.
//
// A limited hinge or slide joint within contact_margin of a stop is one more row: Jn = +e_j at the
// joint's dof for the lower stop, -e_j for the upper, D rows 0, mu 0 (ContactReport::joint_limit).
#include <impactset/common/enum_names.hpp>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <impactset/common/eigen_types.hpp>
#include <impactset/systems/matrix_input.hpp>

namespace impactset::robots {

/// Which state of the model the impact happens at. The keyframe (if named) gives qpos and qvel;
/// qpos / qvel given here replace the keyframe's. Nothing given at all: the model's first
/// keyframe; a model without keyframes then needs qpos and qvel.
struct MujocoState {
  std::string keyframe;  ///< a keyframe's name (<key name="..."> in MJCF); empty: none
  /// nq numbers, finite. A free or ball joint's quaternion must not be 0; one whose norm is
  /// not 1 (within kUnitQuaternionTolerance) is normalised with a warning.
  std::optional<VectorXd> qpos;
  /// nv numbers, finite: the pre-impact velocity v-. Not given: the keyframe's, else 0 (with a
  /// warning: no motion before the impact).
  std::optional<VectorXd> qvel;
};

/// Default contact margin: contacts up to 0.1 mm apart count (MuJoCo's own default margin is 0,
/// which loses a resting foot to round-off in a hand-written qpos).
inline constexpr double kDefaultContactMargin = 1e-4;
/// A contact whose normal speed |(Jn v-)_i| is at most this (m/s) is reported as resting.
inline constexpr double kRestingSpeed = 1e-9;
/// A quaternion in qpos whose norm differs from 1 by more than this is normalised with a
/// warning (a hand-written quaternion to 6 digits is within it).
inline constexpr double kUnitQuaternionTolerance = 1e-6;
/// A tangent t1 is world x projected onto the contact plane; when that projection is shorter
/// than this (the normal within about 5.7 degrees of +-x), world y projected instead.
inline constexpr double kTangentProjectionFloor = 0.1;
/// How far (metres, beyond the model's extent) touchdown and the no-contact message look for
/// geom pairs.
inline constexpr double kSearchDistance = 10.0;
/// Touchdown stops when the chosen contact's gap is within contact_margin / 2, after at most
/// this many translations (one suffices for a body onto a plane normal to gravity).
inline constexpr int kTouchdownIterations = 100;

struct MujocoOptions {
  MujocoState state;
  /// Contacts are the pairs MuJoCo's collision detection finds closer than this (metres, overrides
  /// every geom's margin). >= 0 and finite.
  double contact_margin = kDefaultContactMargin;
  /// k, friction directions per contact spanning the tangent plane evenly (the pyramid's sides).
  /// 4, 8 or 16.
  int friction_directions = 4;
  /// Contacts only: leave the hinge and slide joints at a stop out of the impact (by default each
  /// is a frictionless unilateral constraint, ContactReport::joint_limit), and build the problem
  /// even when equality constraints, ball-joint limits or tendon limits are active at qpos (they
  /// are never modelled: without this option such a state is refused).
  bool ignore_constraints = false;
  /// 0: the state as given. c >= 1: first translate the floating base along gravity, up or
  /// down, until c geom pairs of its bodies with the rest are within the margin (the c-th
  /// closest pair at gap 0; with c > 1 closer ones penetrate, and a warning names the deepest
  /// when they do by more than the margin). The base is the first free joint, else the slide
  /// joints of the first top-level body that has some (a planar base: rootx, rootz), which must
  /// be able to move it along gravity. The search ranks every pair within 2 x the model's extent
  /// + kSearchDistance, its contact buffer grown as needed. >= 0.
  int touchdown = 0;
  /// Add a floor: the plane z = 0, normal +z, condim 3, friction 1, named "floor" (MJCF and
  /// URDF alike).
  bool add_floor = false;
  /// A URDF's root link gets a free joint named "floating_base" (MuJoCo loads a URDF with its
  /// base fixed to the world). Refused for MJCF (which writes <freejoint/> in its base body).
  bool floating_base = false;
  /// @throws std::invalid_argument naming the field, its value and the rule.
  void Validate() const;
};

/// How a contact's two geoms move along its normal before the impact.
enum class ContactMotion {
  kApproaching,  ///< (Jn v-)_i < -kRestingSpeed
  kResting,      ///< |(Jn v-)_i| <= kRestingSpeed
  kSeparating    ///< (Jn v-)_i > kRestingSpeed
};
IMPACTSET_ENUM_NAMES(ContactMotion,
                     "contact motion",
                     {E::kApproaching, "approaching"},
                     {E::kResting, "resting"},
                     {E::kSeparating, "separating"})

inline const char* ToString(ContactMotion motion) { return EnumName(motion).data(); }

/// One contact as MuJoCo found it. Separating and resting contacts stay contacts of the impact
/// problem: Routh's model lets them carry impulse.
struct ContactReport {
  std::string name;  ///< "c<i>:<geom 1>/<geom 2>" (geoms without a name: "geom<id>")
  std::string geom1, geom2, body1, body2;
  Eigen::Vector3d point;   ///< p_i, world frame
  Eigen::Vector3d normal;  ///< n_i, from geom 1 into geom 2
  /// t1_i: world x projected onto the contact plane and normalised (world y when that
  /// projection is shorter than kTangentProjectionFloor), not MuJoCo's own frame.
  Eigen::Vector3d tangent1;
  Eigen::Vector3d tangent2;  ///< t2_i = n_i x t1_i
  double distance = 0;       ///< signed gap (negative: penetration)
  double mu = 0;
  double normal_velocity = 0;  ///< (Jn v-)_i
  ContactMotion motion = ContactMotion::kResting;
  /// A hinge or slide joint at its stop rather than a geom pair: name "c<i>:limit/<joint>/lower"
  /// (or "/upper"), geom1 the joint, geom2 "lower" or "upper", body1 / body2 the joint's parent
  /// and child bodies, point the joint's anchor, normal its axis (negated at an upper stop:
  /// Jn = +e at a lower stop, -e at an upper one), tangents 0, distance the angle or length to
  /// the stop, mu 0.
  bool joint_limit = false;
};

/// A MuJoCo model's impact state and what names it.
struct MujocoProblem {
  /// The impact problem; settings from the model's custom numerics impactset_h, impactset_N,
  /// impactset_samples when it has them (else empty: the engine chooses); provenance names the
  /// file and the state.
  systems::LoadedProblem loaded;
  std::vector<ContactReport> contacts;  ///< one per row of Jn
  /// One per generalized velocity: a hinge or slide joint's name; "<joint>:vx", ..., ":wz" for
  /// the six of a free joint and "<joint>:wx", ... for a ball joint's three.
  std::vector<std::string> dof_names;
  /// One per row of ImpactProblem::ContactJacobian(): "<contact>:n" for the m normals, then
  /// "<contact>:t1", "<contact>:t2" per contact.
  std::vector<std::string> contact_coordinate_names;
  /// The body whose free joint is the floating base (the first free joint's body), or empty.
  std::string base_body;
  /// 3 x n: v -> velocity of the centre of mass of base_body's subtree (mj_jacSubtreeCom); of the
  /// world's first child with degrees of freedom when there is no free joint.
  MatrixXd com_jacobian;
  /// 6 x n: v -> the free joint's six velocities (linear world frame, angular body frame);
  /// 0 x n without a free joint.
  MatrixXd base_map;
  /// The state the problem was built at (after normalising quaternions and any touchdown).
  VectorXd qpos, qvel;
  /// One per qpos entry: a hinge or slide joint's name; "<joint>:x", ":y", ":z", ":qw", ... ":qz"
  /// for a free joint, "<joint>:qw", ... for a ball joint.
  std::vector<std::string> qpos_names;
  /// How far touchdown moved the floating base along gravity (metres; 0 without touchdown).
  double touchdown_shift = 0;
  /// What was accepted but should not pass unremarked: qvel defaulted to 0, a quaternion
  /// normalised, no contact approaching (no impact happens: v+ = v-). The command line prints
  /// them on stderr, Python warns.
  std::vector<std::string> warnings;
};

/// Loads an MJCF or URDF file and builds the impact state.
/// Includes are inlined first, relative ones against the model's own folder (MuJoCo 2.2 would
/// put that folder in front of an absolute one too).
/// @throws std::invalid_argument whose message starts with the path: a file MuJoCo cannot load
///         (MuJoCo's message passed on), an unknown keyframe (listing the known ones), qpos or
///         qvel of the wrong length or with a non-finite entry (its index and name), a zero
///         quaternion, no contact within the margin (naming the nearest pair and its gap),
///         touchdown without a floating base, active constraints that are not modelled
///         (equalities, ball-joint and tendon limits; named) without ignore_constraints, a
///         contact buffer overflow, or bad options.
MujocoProblem LoadMujoco(const std::string& path, const MujocoOptions& options);

/// The same from MJCF text (label: what messages and the provenance call it; no includes of
/// other files are possible).
MujocoProblem LoadMujocoXml(const std::string& xml,
                            const std::string& label,
                            const MujocoOptions& options);

/// The state LoadMujoco would build the problem at, written out: the keyframe's (or the model's
/// first keyframe's) qpos and qvel with the given ones in their place, keyframe empty. No contact
/// is looked for. For callers that vary entries of the state (`impactset batch --mujoco`).
/// @throws std::invalid_argument as LoadMujoco (the model, the keyframe, the lengths).
MujocoState ResolveMujocoState(const std::string& path, const MujocoState& state);
/// The same from MJCF text.
MujocoState ResolveMujocoStateXml(const std::string& xml,
                                  const std::string& label,
                                  const MujocoState& state);
/// The same for the model as `options` edit it (add_floor, floating_base: a URDF's floating base
/// adds 7 qpos and 6 qvel entries); options.state is the state to resolve. No touchdown.
MujocoState ResolveMujocoStateWith(const std::string& path, const MujocoOptions& options);
MujocoState ResolveMujocoStateXmlWith(const std::string& xml,
                                      const std::string& label,
                                      const MujocoOptions& options);

}  // namespace impactset::robots
