#include <impactset/systems/planar_tree.hpp>

#include <cmath>
#include <string>
#include <utility>

#include <impactset/common/error_policy.hpp>

namespace impactset::systems {

namespace {

// World poses of every frame and of its joint frame (parent pose * parent_to_joint), computed in
// one pass: parents precede children.
struct Kinematics {
  std::vector<Pose2> joint;
  std::vector<Pose2> frame;
};

Pose2 WorldPose(const Kinematics& k, int frame) {
  return frame == PlanarTree::kWorld ? Pose2{} : k.frame[frame];
}

Kinematics Forward(const std::vector<Frame>& frames, const VectorRef& q) {
  Kinematics k;
  k.joint.resize(frames.size());
  k.frame.resize(frames.size());
  for (size_t f = 0; f < frames.size(); ++f) {
    const Frame& fr = frames[f];
    k.joint[f] = WorldPose(k, fr.parent) * fr.parent_to_joint;
    Pose2 motion;
    const int c = fr.first_coordinate;
    switch (fr.joint) {
      case JointType::kFixed:
        break;
      case JointType::kPrismaticX:
        motion.translation.x() = q(c);
        break;
      case JointType::kPrismaticY:
        motion.translation.y() = q(c);
        break;
      case JointType::kRevolute:
        motion.angle = q(c);
        break;
      case JointType::kFloating:  // Tx(x) * Ty(y) * R(theta)
        motion.translation = Eigen::Vector2d(q(c), q(c + 1));
        motion.angle = q(c + 2);
        break;
    }
    k.frame[f] = k.joint[f] * motion;
  }
  return k;
}

// Column of a revolute joint at world point o for a point at world p: omega x (p - o), omega.
Eigen::Vector3d RevoluteColumn(const Eigen::Vector2d& r) { return {-r.y(), r.x(), 1.0}; }

Eigen::Matrix3Xd Jacobian(const std::vector<Frame>& frames,
                          const Kinematics& k,
                          int n,
                          int frame,
                          const Eigen::Vector2d& p) {
  Eigen::Matrix3Xd J = Eigen::Matrix3Xd::Zero(3, n);
  for (int g = frame; g != PlanarTree::kWorld; g = frames[g].parent) {
    const Frame& fr = frames[g];
    const int c = fr.first_coordinate;
    const Eigen::Matrix2d R = k.joint[g].Rotation();  // prismatic axes live in the joint frame
    const Eigen::Vector2d r = p - k.frame[g].translation;
    switch (fr.joint) {
      case JointType::kFixed:
        break;
      case JointType::kPrismaticX:
        J.col(c) << R.col(0), 0.0;
        break;
      case JointType::kPrismaticY:
        J.col(c) << R.col(1), 0.0;
        break;
      case JointType::kRevolute:
        J.col(c) = RevoluteColumn(r);
        break;
      case JointType::kFloating:
        J.col(c) << R.col(0), 0.0;
        J.col(c + 1) << R.col(1), 0.0;
        J.col(c + 2) = RevoluteColumn(r);  // the revolute part sits at the frame origin
        break;
    }
  }
  return J;
}

int NumCoordinates(JointType joint) {
  switch (joint) {
    case JointType::kFixed:
      return 0;
    case JointType::kFloating:
      return 3;
    default:
      return 1;
  }
}

void RequireFinite(const std::string& field, double x) {
  if (!std::isfinite(x)) InvalidArgument(field, x, "must be finite");
}

void RequireFinitePose(const std::string& field, const Pose2& p) {
  RequireFinite(field + ".translation.x", p.translation.x());
  RequireFinite(field + ".translation.y", p.translation.y());
  RequireFinite(field + ".angle", p.angle);
}

void RequirePositive(const std::string& field, double x) {
  RequireFinite(field, x);
  if (!(x > 0)) InvalidArgument(field, x, "must be > 0");
}

void RequireNonNegative(const std::string& field, double x) {
  RequireFinite(field, x);
  if (x < 0) InvalidArgument(field, x, "must be >= 0");
}

// Vertices in the shape's own frame (docs/examples.md §2.2): box bl, br, tr, tl; rod ends; point
// origin.
std::vector<Eigen::Vector2d> Vertices(const Shape& s) {
  switch (s.type) {
    case ShapeType::kBox: {
      const double w = s.width / 2, h = s.height / 2;
      return {{-w, -h}, {w, -h}, {w, h}, {-w, h}};
    }
    case ShapeType::kRod:
      return {{-s.length / 2, 0.0}, {s.length / 2, 0.0}};
    case ShapeType::kPoint:
      return {Eigen::Vector2d::Zero()};
    default:
      return {};
  }
}

}  // namespace

Eigen::Matrix2d Pose2::Rotation() const {
  const double c = std::cos(angle), s = std::sin(angle);
  Eigen::Matrix2d R;
  R << c, -s, s, c;
  return R;
}

Eigen::Vector2d Pose2::Apply(const Eigen::Vector2d& local) const {
  return translation + Rotation() * local;
}

Eigen::Vector2d Pose2::ApplyInverse(const Eigen::Vector2d& parent) const {
  return Rotation().transpose() * (parent - translation);
}

Pose2 Pose2::operator*(const Pose2& other) const {
  return Pose2{Apply(other.translation), angle + other.angle};
}

Eigen::Vector2d Tangent(const Eigen::Vector2d& n, TangentConvention convention) {
  return convention == TangentConvention::kAuthors ? Eigen::Vector2d(n.y(), n.x())
                                                   : Eigen::Vector2d(n.y(), -n.x());
}

int PlanarTree::AddFrame(const std::string& name,
                         int parent,
                         JointType joint,
                         const Pose2& parent_to_joint) {
  if (name.empty() || name == "world")
    InvalidArgument("frame name", name, "must be non-empty and not 'world'");
  if (FindFrame(name)) InvalidArgument("frame name", name, "is already used");
  if (parent != kWorld && (parent < 0 || parent >= static_cast<int>(frames_.size()))) {
    InvalidArgument("parent of frame '" + name + "'", parent,
                    "must be kWorld or an existing frame index");
  }
  RequireFinitePose("parent_to_joint of frame '" + name + "'", parent_to_joint);
  Frame f{name, parent, joint, parent_to_joint, num_coordinates_, NumCoordinates(joint)};
  num_coordinates_ += f.num_coordinates;
  frames_.push_back(std::move(f));
  return static_cast<int>(frames_.size()) - 1;
}

void PlanarTree::CheckFrame(int frame, const char* what) const {
  if (frame != kWorld && (frame < 0 || frame >= static_cast<int>(frames_.size()))) {
    InvalidArgument(what, frame, "must be kWorld or an existing frame index");
  }
}

int PlanarTree::AddShape(Shape s) {
  if (s.name.empty()) InvalidArgument("shape name", "''", "must be non-empty");
  if (FindShape(s.name)) InvalidArgument("shape name", s.name, "is already used");
  CheckFrame(s.frame, ("frame of shape '" + s.name + "'").c_str());
  const std::string field = "shape '" + s.name + "' ";
  RequireFinitePose(field + "pose", s.pose);
  RequireNonNegative(field + "mass", s.mass);
  RequireNonNegative(field + "inertia", s.inertia);
  shapes_.push_back(std::move(s));
  return static_cast<int>(shapes_.size()) - 1;
}

int PlanarTree::AddPointMass(const std::string& name,
                             int frame,
                             const Pose2& pose,
                             double mass,
                             double inertia,
                             bool collision) {
  Shape s{name, ShapeType::kPoint, frame, pose};
  s.mass = mass;
  s.inertia = inertia;
  s.collision = collision;
  return AddShape(std::move(s));
}

int PlanarTree::AddRod(const std::string& name,
                       int frame,
                       const Pose2& pose,
                       double length,
                       double mass,
                       bool collision) {
  RequirePositive("rod '" + name + "' length", length);
  RequireNonNegative("rod '" + name + "' mass", mass);
  Shape s{name, ShapeType::kRod, frame, pose};
  s.mass = mass;
  s.inertia = mass * length * length / 12;
  s.length = length;
  s.collision = collision;
  return AddShape(std::move(s));
}

int PlanarTree::AddDisc(const std::string& name,
                        int frame,
                        const Pose2& pose,
                        double radius,
                        double mass,
                        bool collision) {
  RequirePositive("disc '" + name + "' radius", radius);
  RequireNonNegative("disc '" + name + "' mass", mass);
  Shape s{name, ShapeType::kDisc, frame, pose};
  s.mass = mass;
  s.inertia = mass * radius * radius / 2;
  s.radius = radius;
  s.collision = collision;
  return AddShape(std::move(s));
}

int PlanarTree::AddBox(const std::string& name,
                       int frame,
                       const Pose2& pose,
                       double width,
                       double height,
                       double mass,
                       bool collision) {
  RequirePositive("box '" + name + "' width", width);
  RequirePositive("box '" + name + "' height", height);
  RequireNonNegative("box '" + name + "' mass", mass);
  Shape s{name, ShapeType::kBox, frame, pose};
  s.mass = mass;
  s.inertia = mass * (width * width + height * height) / 12;
  s.width = width;
  s.height = height;
  s.collision = collision;
  return AddShape(std::move(s));
}

int PlanarTree::AddWall(const std::string& name, const Eigen::Vector2d& normal, double offset) {
  RequireFinite("wall '" + name + "' normal.x", normal.x());
  RequireFinite("wall '" + name + "' normal.y", normal.y());
  RequireFinite("wall '" + name + "' offset", offset);
  if (!(normal.norm() > 0))
    InvalidArgument("wall '" + name + "' normal", "(0, 0)", "must be non-zero");
  Shape s{name, ShapeType::kWall, kWorld, Pose2{}};
  s.normal = normal.normalized();
  s.offset = offset;
  return AddShape(std::move(s));
}

std::optional<int> PlanarTree::FindFrame(const std::string& name) const {
  if (name == "world") return kWorld;
  for (size_t i = 0; i < frames_.size(); ++i) {
    if (frames_[i].name == name) return static_cast<int>(i);
  }
  return std::nullopt;
}

std::optional<int> PlanarTree::FindShape(const std::string& name) const {
  for (size_t i = 0; i < shapes_.size(); ++i) {
    if (shapes_[i].name == name) return static_cast<int>(i);
  }
  return std::nullopt;
}

namespace {
void CheckQ(const VectorRef& q, int n) {
  if (q.size() != n)
    InvalidArgument("q.size()", q.size(), "must equal num_positions() = " + std::to_string(n));
}
}  // namespace

Pose2 PlanarTree::FramePose(const VectorRef& q, int frame) const {
  CheckQ(q, num_coordinates_);
  CheckFrame(frame, "frame");
  return WorldPose(Forward(frames_, q), frame);
}

Pose2 PlanarTree::ShapePose(const VectorRef& q, int shape) const {
  if (shape < 0 || shape >= static_cast<int>(shapes_.size())) {
    InvalidArgument("shape", shape, "must be an existing shape index");
  }
  return FramePose(q, shapes_[shape].frame) * shapes_[shape].pose;
}

Eigen::Matrix3Xd PlanarTree::PointJacobian(const VectorRef& q,
                                           int frame,
                                           const Eigen::Vector2d& point) const {
  CheckQ(q, num_coordinates_);
  CheckFrame(frame, "frame");
  return Jacobian(frames_, Forward(frames_, q), num_coordinates_, frame, point);
}

Eigen::Matrix2Xd PlanarTree::LinearPointJacobian(const VectorRef& q,
                                                 int frame,
                                                 const Eigen::Vector2d& point) const {
  return PointJacobian(q, frame, point).topRows<2>();
}

MatrixXd PlanarTree::MassMatrix(const VectorRef& q) const {
  CheckQ(q, num_coordinates_);
  const Kinematics k = Forward(frames_, q);
  const int n = num_coordinates_;
  MatrixXd M = MatrixXd::Zero(n, n);
  for (size_t f = 0; f < frames_.size(); ++f) {
    // Merge the frame's shapes into one body (InertialAdd): mass, COM in the frame, I about COM.
    double mass = 0;
    Eigen::Vector2d moment = Eigen::Vector2d::Zero();
    for (const Shape& s : shapes_) {
      if (s.frame != static_cast<int>(f)) continue;
      mass += s.mass;
      moment += s.mass * s.pose.translation;
    }
    const Eigen::Vector2d com = mass > 0 ? Eigen::Vector2d(moment / mass) : Eigen::Vector2d::Zero();
    double inertia = 0;
    for (const Shape& s : shapes_) {
      if (s.frame != static_cast<int>(f)) continue;
      inertia += s.inertia + s.mass * (s.pose.translation - com).squaredNorm();
    }
    if (mass == 0 && inertia == 0) continue;
    const Eigen::Matrix3Xd J = Jacobian(frames_, k, n, static_cast<int>(f), k.frame[f].Apply(com));
    M.noalias() += mass * J.topRows<2>().transpose() * J.topRows<2>();
    M.noalias() += inertia * J.row(2).transpose() * J.row(2);
  }
  return M;
}

std::vector<Contact> PlanarTree::ContactCandidates(const VectorRef& q,
                                                   TangentConvention tangent) const {
  CheckQ(q, num_coordinates_);
  const Kinematics k = Forward(frames_, q);
  const int n = num_coordinates_;
  std::vector<Pose2> pose(shapes_.size());
  for (size_t i = 0; i < shapes_.size(); ++i) {
    pose[i] = WorldPose(k, shapes_[i].frame) * shapes_[i].pose;
  }
  std::vector<Contact> out;
  // Points are world positions; the normal points from a to b (docs/examples.md §2.4: the authors
  // swap roles and negate n for (shape, wall) pairs, which is the same thing).
  auto emit = [&](int a, int b, int vertex, double phi, const Eigen::Vector2d& normal,
                  const Eigen::Vector2d& pa, const Eigen::Vector2d& pb) {
    Contact c;
    c.shape_a = a;
    c.shape_b = b;
    c.vertex = vertex;
    c.phi = phi;
    c.normal = normal;
    c.tangent = Tangent(normal, tangent);
    c.point_a = pa;
    c.point_b = pb;
    const Eigen::Matrix2Xd jrel = Jacobian(frames_, k, n, shapes_[b].frame, pb).topRows<2>() -
                                  Jacobian(frames_, k, n, shapes_[a].frame, pa).topRows<2>();
    c.jn = c.normal.transpose() * jrel;
    c.jf = c.tangent.transpose() * jrel;
    out.push_back(std::move(c));
  };
  for (size_t i = 0; i < shapes_.size(); ++i) {
    for (size_t j = i + 1; j < shapes_.size(); ++j) {
      const Shape& si = shapes_[i];
      const Shape& sj = shapes_[j];
      if (si.frame == sj.frame || !si.collision || !sj.collision) continue;
      const int a = static_cast<int>(i), b = static_cast<int>(j);
      const bool wall_i = si.type == ShapeType::kWall, wall_j = sj.type == ShapeType::kWall;
      if (wall_i != wall_j) {
        const Shape& wall = wall_i ? si : sj;
        const Shape& body = wall_i ? sj : si;
        const int body_index = wall_i ? b : a;
        // Normal from a to b: the wall normal if the wall is a, else its negative.
        const Eigen::Vector2d normal = wall_i ? wall.normal : Eigen::Vector2d(-wall.normal);
        if (body.type == ShapeType::kDisc) {
          const Eigen::Vector2d c = pose[body_index].translation;
          const Eigen::Vector2d p = c - body.radius * wall.normal;
          emit(a, b, -1, wall.normal.dot(c) - wall.offset - body.radius, normal, p, p);
        } else {
          const std::vector<Eigen::Vector2d> vertices = Vertices(body);
          for (size_t v = 0; v < vertices.size(); ++v) {
            const Eigen::Vector2d p = pose[body_index].Apply(vertices[v]);
            emit(a, b, static_cast<int>(v), wall.normal.dot(p) - wall.offset, normal, p, p);
          }
        }
      } else if (si.type == ShapeType::kDisc && sj.type == ShapeType::kDisc) {
        const Eigen::Vector2d ca = pose[i].translation, cb = pose[j].translation;
        const double dist = (cb - ca).norm();
        // Concentric discs have no normal; any unit vector keeps the output finite (and such a
        // deep penetration is rejected by the scene loader anyway).
        const Eigen::Vector2d normal =
            dist > 0 ? Eigen::Vector2d((cb - ca) / dist) : Eigen::Vector2d::UnitY();
        emit(a, b, -1, dist - si.radius - sj.radius, normal, ca + si.radius * normal,
             cb - sj.radius * normal);
      }
    }
  }
  return out;
}

ContactJacobians PlanarTree::ActiveContacts(const VectorRef& q,
                                            const ContactOptions& options) const {
  if (!(options.gap_tolerance >= 0) || !std::isfinite(options.gap_tolerance)) {
    InvalidArgument("gap_tolerance", options.gap_tolerance, "must be finite and >= 0");
  }
  ContactJacobians out;
  for (Contact& c : ContactCandidates(q, options.tangent)) {
    if (c.phi <= options.gap_tolerance) out.contacts.push_back(std::move(c));
  }
  const auto m = static_cast<Eigen::Index>(out.contacts.size());
  out.Jn.resize(m, num_coordinates_);
  out.Jf.resize(m, num_coordinates_);
  for (Eigen::Index i = 0; i < m; ++i) {
    out.Jn.row(i) = out.contacts[i].jn;
    out.Jf.row(i) = out.contacts[i].jf;
  }
  return out;
}

VectorXd GravityForce(const PlanarTree& tree, const VectorXd& q, double gravity) {
  VectorXd f = VectorXd::Zero(tree.num_velocities());
  for (int s = 0; s < static_cast<int>(tree.shapes().size()); ++s) {
    const Shape& shape = tree.shapes()[s];
    if (shape.frame == PlanarTree::kWorld || shape.type == ShapeType::kWall) continue;
    const Eigen::Vector2d centre = tree.ShapePose(q, s).translation;
    f += shape.mass * tree.LinearPointJacobian(q, shape.frame, centre).transpose() *
         Eigen::Vector2d(0, -gravity);
  }
  return f;
}

}  // namespace impactset::systems
