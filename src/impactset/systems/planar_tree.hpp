#pragma once
// A planar kinematic tree with shapes and walls: the geometry layer of the paper's examples
// (docs/examples.md §2, the authors' FreeBodyDiagram), producing M(q), point Jacobians and the
// contact Jacobians Jn, Jf of an impact state.
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <impactset/common/eigen_types.hpp>

namespace impactset::systems {

/// A planar rigid transform: x_parent = translation + R(angle) x_child. Angles are accumulated
/// (never wrapped) along a chain, so they can be finite-differenced.
struct Pose2 {
  Eigen::Vector2d translation{Eigen::Vector2d::Zero()};
  double angle{0.0};

  Eigen::Matrix2d Rotation() const;
  /// Maps a point given in this frame to the parent frame.
  Eigen::Vector2d Apply(const Eigen::Vector2d& local) const;
  /// Composition (this * other): other is expressed in this frame.
  Pose2 operator*(const Pose2& other) const;
  /// Maps a parent-frame point into this frame.
  Eigen::Vector2d ApplyInverse(const Eigen::Vector2d& parent) const;
};

/// How a frame moves relative to its parent's joint frame (parent pose * fixed transform).
enum class JointType {
  kFixed,       ///< no coordinate
  kPrismaticX,  ///< one coordinate: translation along the joint frame's x axis
  kPrismaticY,  ///< one coordinate: translation along the joint frame's y axis
  kRevolute,    ///< one coordinate: rotation about the joint frame's origin
  kFloating,    ///< three coordinates x, y, theta: prismatic x, prismatic y, revolute, in this
                ///< order (the authors' 'floating' frame, docs/examples.md §2.1)
};

enum class ShapeType { kPoint, kRod, kDisc, kBox, kWall };

/// Which tangent the friction row of a contact with unit normal n uses (docs/examples.md §2.4).
enum class TangentConvention {
  kOrthogonal,  ///< t = (n_y, -n_x): n rotated by -90 degrees, always a genuine tangent
  kAuthors,     ///< t = (n_y, n_x) as in the authors' code: a tangent only for axis-aligned n,
                ///< and the opposite sign of kOrthogonal when n_x != 0 (e.g. a wall n = (-1, 0))
};

struct Frame {
  std::string name;
  int parent{-1};  ///< PlanarTree::kWorld or an earlier frame
  JointType joint{JointType::kFixed};
  Pose2 parent_to_joint;  ///< fixed transform applied before the joint motion
  int first_coordinate{0};
  int num_coordinates{0};
};

/// A shape attached to a frame (walls to the world). Mass properties are those of the shape
/// alone; inertia is about the shape's own centre (its pose origin).
struct Shape {
  std::string name;
  ShapeType type{ShapeType::kPoint};
  int frame{-1};
  Pose2 pose;  ///< in the frame; for walls unused (see normal, offset)
  double mass{0.0};
  double inertia{0.0};  ///< point: given; rod m l^2/12; disc m r^2/2; box m (w^2 + h^2)/12
  double length{0.0};   ///< rod
  double radius{0.0};   ///< disc
  double width{0.0}, height{0.0};                    ///< box
  Eigen::Vector2d normal{Eigen::Vector2d::UnitY()};  ///< wall, unit, points to the free side
  double offset{0.0};  ///< wall: the half-plane n . x < offset is solid
  bool collision{true};
};

struct ContactOptions {
  /// A candidate is active iff phi <= gap_tolerance (docs/examples.md §2.3: the authors'
  /// PhiTolerance, 1e-6; the Zeno block uses b/2 to keep a lifted corner active). Length units.
  double gap_tolerance{1e-6};
  /// Change to kAuthors only to reproduce the paper's skewed disk-stack tangents.
  TangentConvention tangent{TangentConvention::kOrthogonal};
};

/// One contact candidate between shapes a and b (a listed before b). The normal points from a
/// to b, and jn v = n . (v_b - v_a) at the contact points, so jn v < 0 means approaching
/// whichever order the pair has (docs/examples.md §2.4: for wall pairs jn = n_wall^T J_point).
struct Contact {
  int shape_a{-1}, shape_b{-1};
  int vertex{-1};   ///< vertex of the non-wall shape for wall-vertex pairs, else -1
  double phi{0.0};  ///< signed gap (negative: penetration)
  Eigen::Vector2d normal{Eigen::Vector2d::Zero()};   ///< unit, from a to b
  Eigen::Vector2d tangent{Eigen::Vector2d::Zero()};  ///< per ContactOptions::tangent
  Eigen::Vector2d point_a{Eigen::Vector2d::Zero()};  ///< world contact point on a
  Eigen::Vector2d point_b{Eigen::Vector2d::Zero()};  ///< world contact point on b
  Eigen::RowVectorXd jn;                             ///< n^T (J(point_b) - J(point_a)), 1 x n
  Eigen::RowVectorXd jf;                             ///< t^T (J(point_b) - J(point_a)), 1 x n
};

/// The active contacts (phi <= gap tolerance) in the authors' loop order and their Jacobians.
struct ContactJacobians {
  std::vector<Contact> contacts;
  MatrixXd Jn;  ///< m x n, row i = contacts[i].jn
  MatrixXd Jf;  ///< m x n, row i = contacts[i].jf
};

/// Frames joined by joints; generalized coordinates are the joint positions and generalized
/// velocities the joint rates, both in frame creation order (so q-dot = v). The world frame is
/// fixed. Every method taking q throws std::invalid_argument if q.size() != num_positions().
class PlanarTree {
 public:
  static constexpr int kWorld = -1;

  /// Adds a frame whose pose is parent pose * parent_to_joint * joint motion (docs/examples.md
  /// §2.1).
  /// @throws std::invalid_argument for a duplicate or empty name, the reserved name "world",
  ///         an unknown parent or a non-finite transform.
  int AddFrame(const std::string& name,
               int parent,
               JointType joint,
               const Pose2& parent_to_joint = Pose2{});

  /// Shapes on a frame (kWorld allowed: a fixed obstacle). Mass and sizes must be finite,
  /// mass and inertia >= 0, sizes > 0; pose is the shape's pose in the frame.
  int AddPointMass(const std::string& name,
                   int frame,
                   const Pose2& pose,
                   double mass,
                   double inertia,
                   bool collision = true);
  int AddRod(const std::string& name,
             int frame,
             const Pose2& pose,
             double length,
             double mass,
             bool collision = true);
  int AddDisc(const std::string& name,
              int frame,
              const Pose2& pose,
              double radius,
              double mass,
              bool collision = true);
  int AddBox(const std::string& name,
             int frame,
             const Pose2& pose,
             double width,
             double height,
             double mass,
             bool collision = true);
  /// A fixed half-plane {x : n . x <= offset} (n is normalised); bodies live on n . x > offset.
  int AddWall(const std::string& name, const Eigen::Vector2d& normal, double offset);

  int num_positions() const { return num_coordinates_; }
  int num_velocities() const { return num_coordinates_; }
  const std::vector<Frame>& frames() const { return frames_; }
  const std::vector<Shape>& shapes() const { return shapes_; }
  /// Index of the named frame ("world" gives kWorld), if any.
  std::optional<int> FindFrame(const std::string& name) const;
  /// Index of the named shape, if any.
  std::optional<int> FindShape(const std::string& name) const;

  /// World pose of a frame (kWorld: identity).
  Pose2 FramePose(const VectorRef& q, int frame) const;
  /// World pose of a shape's own frame (walls: identity).
  Pose2 ShapePose(const VectorRef& q, int shape) const;

  /// 3 x n Jacobian of the point fixed to `frame` that is at world position `point` now:
  /// rows (v_x, v_y, omega) in world axes, so [v_point; omega] = J v.
  Eigen::Matrix3Xd PointJacobian(const VectorRef& q, int frame, const Eigen::Vector2d& point) const;
  /// The first two rows of PointJacobian.
  Eigen::Matrix2Xd LinearPointJacobian(const VectorRef& q,
                                       int frame,
                                       const Eigen::Vector2d& point) const;

  /// M(q) = sum over frames of m J_com^T J_com + I_com J_w^T J_w, where each frame's shapes are
  /// first merged into one body (mass sum, mass-weighted COM, parallel-axis inertia: the
  /// authors' InertialAdd, docs/examples.md §2.2). Shapes on the world frame do not move and add
  /// nothing. Kinetic energy is 1/2 v^T M v. Symmetric; positive definite iff every joint moves
  /// some mass or inertia.
  MatrixXd MassMatrix(const VectorRef& q) const;

  /// Every candidate of docs/examples.md §2.3 (wall-vertex for boxes, rods and points, wall-disc,
  /// disc-disc; pairs on one frame and pairs with a non-colliding shape skipped), active or not,
  /// in loop order: shape pairs (i, j > i) in shape order, vertices in vertex order. The list
  /// and its order do not depend on q.
  std::vector<Contact> ContactCandidates(
      const VectorRef& q, TangentConvention tangent = TangentConvention::kOrthogonal) const;
  /// The candidates with phi <= options.gap_tolerance, stacked into Jn and Jf.
  ContactJacobians ActiveContacts(const VectorRef& q, const ContactOptions& options = {}) const;

 private:
  int AddShape(Shape shape);
  void CheckFrame(int frame, const char* what) const;

  std::vector<Frame> frames_;
  std::vector<Shape> shapes_;
  int num_coordinates_{0};
};

/// The tangent of a unit normal under a convention (docs/examples.md §2.4).
Eigen::Vector2d Tangent(const Eigen::Vector2d& normal, TangentConvention convention);

/// Generalized gravity force sum_s m_s J_s(q)^T (0, -g) over the scene's shapes (J_s: the linear
/// Jacobian of shape s's centre), n entries: what the authors' compliant comparison adds.
VectorXd GravityForce(const PlanarTree& tree, const VectorXd& q, double gravity = 9.81);

}  // namespace impactset::systems
