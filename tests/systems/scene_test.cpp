// Scene files and the planar kinematics behind them: the paper examples' scenes reproduce the
// reference impact states of tests/data/problems (docs/examples.md §3), every Jacobian agrees with
// finite differences at random configurations, and every malformed scene is rejected with the
// JSON path of the offending value.
#include <cmath>
#include <iomanip>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/systems/scene.hpp>
#include "test_util.hpp"

namespace impactset::systems {
namespace {

using testing::CompareMatrices;
using testing::MaxAbsOrOne;

// The reference matrices carry 10 significant digits (relative rounding <= 5e-10 on O(1)
// entries) while the scenes' q are exact to double precision: 1e-8 leaves a 20x margin.
constexpr double kReferenceTolerance = 1e-8;
// Central differences with step kFdStep: truncation ~ kFdStep^2 |f'''| ~ 1e-12 and cancellation
// ~ 1e-16 / kFdStep ~ 1e-10 on O(1) geometry, so 1e-7 separates a wrong column from noise.
constexpr double kFdStep = 1e-6;
constexpr double kFdTolerance = 1e-7;
// Random configurations per example; each checks every candidate row, frame and M.
constexpr int kConfigurations = 20;

const std::vector<std::string> kPaperExamples = {
    "rocking-block", "compass-gait",       "box-wall",  "ramone",
    "disk-stack",    "disk-stack-authors", "zeno-block"};

LoadedScene Scene(const std::string& name) {
  return LoadSceneJson(std::string(IMPACTSET_SCENES_DIR) + "/" + name + ".json");
}

double MaxError(const MatrixXd& a, const MatrixXd& b) {
  return (a - b).cwiseAbs().cwiseQuotient(b.cwiseAbs().cwiseMax(1.0)).maxCoeff();
}

std::string ParamName(const ::testing::TestParamInfo<std::string>& info) {
  return testing::TestName(info.param);
}

// ---------------------------------------------------------------------------------------------
// (a) The scenes reproduce the reference impact states.

class ReferenceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceTest, MatchesReferenceMatrices) {
  const LoadedScene scene = Scene(GetParam());
  const LoadedProblem ref = testing::Example(GetParam());
  const impact::ImpactProblem& p = scene.problem;
  const impact::ImpactProblem& r = ref.problem;
  EXPECT_TRUE(CompareMatrices(p.M(), r.M(), kReferenceTolerance * MaxAbsOrOne(r.M()))) << "M";
  EXPECT_TRUE(CompareMatrices(p.Jn(), r.Jn(), kReferenceTolerance * MaxAbsOrOne(r.Jn()))) << "Jn";
  EXPECT_EQ(p.k(), r.k());
  EXPECT_TRUE(CompareMatrices(p.D(), r.D(), kReferenceTolerance * MaxAbsOrOne(r.D()))) << "D";
  EXPECT_TRUE(
      CompareMatrices(p.v_minus(), r.v_minus(), kReferenceTolerance * MaxAbsOrOne(r.v_minus())))
      << "v_minus";
  EXPECT_TRUE(CompareMatrices(p.mu(), r.mu(), kReferenceTolerance * MaxAbsOrOne(r.mu()))) << "mu";
  EXPECT_EQ(scene.settings.step, ref.settings.step);
  EXPECT_EQ(scene.settings.max_steps, ref.settings.max_steps);
  EXPECT_EQ(scene.settings.samples, ref.settings.samples);
  ASSERT_EQ(static_cast<int>(scene.contacts.size()), r.m());
  for (const Contact& c : scene.contacts) EXPECT_NEAR(c.phi, 0.0, 1e-12);
  std::ostringstream err;
  err << std::scientific << std::setprecision(2)
      << std::max({MaxError(p.M(), r.M()), MaxError(p.Jn(), r.Jn()), MaxError(p.D(), r.D()),
                   MaxError(p.v_minus(), r.v_minus())});
  RecordProperty("max_rel_error", err.str());
}

INSTANTIATE_TEST_SUITE_P(PaperExamples,
                         ReferenceTest,
                         ::testing::ValuesIn(kPaperExamples),
                         ParamName);

TEST(SceneTest, LoadedSceneSlicesToALoadedProblem) {
  const LoadedProblem p = Scene("rocking-block");
  EXPECT_EQ(p.problem.m(), 2);
  EXPECT_NE(p.provenance.find("Rocking block"), std::string::npos);
}

TEST(SceneTest, DiskStackContactPointsAndTangents) {
  // docs/examples.md §3.5: world contact points, and the orthogonal tangents really are tangents
  // while the authors' are not at the 60-degree disc-disc contacts.
  const LoadedScene orth = Scene("disk-stack");
  const LoadedScene authors = Scene("disk-stack-authors");
  const double s3 = std::sqrt(3.0);
  const std::vector<Eigen::Vector2d> points = {
      {0, 0}, {2, 0}, {0.5, 1 + s3 / 2}, {1.5, 1 + s3 / 2}, {1, 1}};
  ASSERT_EQ(orth.contacts.size(), points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    EXPECT_TRUE(
        CompareMatrices(orth.contacts[i].point_a, points[i], 1e-12 * MaxAbsOrOne(points[i])))
        << i;
    EXPECT_TRUE(
        CompareMatrices(orth.contacts[i].point_b, points[i], 1e-12 * MaxAbsOrOne(points[i])))
        << i;
    EXPECT_NEAR(orth.contacts[i].normal.dot(orth.contacts[i].tangent), 0.0, 1e-15) << i;
  }
  EXPECT_NEAR(std::abs(authors.contacts[2].normal.dot(authors.contacts[2].tangent)), s3 / 2, 1e-12);
}

TEST(SceneTest, BoxWallOrthogonalTangentOnlyFlipsTheWallRow) {
  // The box-wall scene uses the authors' convention to reproduce the reference's t = (0, -1) at
  // the wall n = (-1, 0); the orthogonal convention gives t = (0, 1): same D rows, swapped.
  const LoadedScene scene = Scene("box-wall");
  const ContactJacobians orth =
      scene.tree.ActiveContacts(scene.q, {1e-6, TangentConvention::kOrthogonal});
  const ContactJacobians authors =
      scene.tree.ActiveContacts(scene.q, {1e-6, TangentConvention::kAuthors});
  EXPECT_TRUE(CompareMatrices(orth.Jn, authors.Jn, 0));
  EXPECT_TRUE(CompareMatrices(orth.Jf.row(0), authors.Jf.row(0), 0));
  EXPECT_TRUE(CompareMatrices(orth.Jf.row(1), -authors.Jf.row(1), 0));
}

TEST(SceneTest, NewtonsCradleByHand) {
  // Discs at x = 0, 1, 2 with R = 0.5 on prismatic-x joints, m = 1: M = I; contact 1 is
  // (disc_1, disc_2) with n = +x, so Jn_1 v = v_2 - v_1; contact 2 is (disc_2, disc_3).
  // disc_1 and disc_3 are 1 apart: not active. No friction basis.
  const LoadedScene scene = Scene("newtons-cradle");
  const impact::ImpactProblem& p = scene.problem;
  MatrixXd Jn(2, 3);
  Jn << -1, 1, 0, 0, -1, 1;
  EXPECT_TRUE(CompareMatrices(p.M(), MatrixXd::Identity(3, 3), 1e-15));
  EXPECT_TRUE(CompareMatrices(p.Jn(), Jn, 1e-15));
  EXPECT_EQ(p.k(), 0);
  EXPECT_EQ(p.D().rows(), 0);
  EXPECT_TRUE(CompareMatrices(p.mu(), VectorXd::Zero(2), 0));
  EXPECT_TRUE(CompareMatrices(p.v_minus(), Eigen::Vector3d(1, 0, 0), 0));
  ASSERT_EQ(scene.contacts.size(), 2u);
  EXPECT_EQ(scene.tree.shapes()[scene.contacts[0].shape_a].name, "disc_1");
  EXPECT_EQ(scene.tree.shapes()[scene.contacts[0].shape_b].name, "disc_2");
  EXPECT_EQ(scene.tree.shapes()[scene.contacts[1].shape_a].name, "disc_2");
  EXPECT_EQ(scene.tree.shapes()[scene.contacts[1].shape_b].name, "disc_3");
  EXPECT_TRUE(CompareMatrices(scene.contacts[0].point_a, Eigen::Vector2d(0.5, 0), 1e-15));
  EXPECT_TRUE(CompareMatrices(p.Jn() * p.v_minus(), Eigen::Vector2d(-1, 0), 0));
  EXPECT_EQ(scene.settings.step, 0.5);
}

TEST(SceneTest, FrictionOverrideAndGapTolerance) {
  const std::string doc = R"({
    "frames": [{"name": "block", "joint": "floating"}],
    "shapes": [{"name": "block", "type": "box", "frame": "block", "width": 1, "height": 2, "mass": 1},
               {"name": "floor", "type": "wall", "normal": [0, 2], "offset": 0.5},
               {"name": "left", "type": "wall", "normal": [1, 0], "offset": -0.5}],
    "q": [0, 1.5, 0], "v_minus": [-1, -1, 0],
    "friction": {"mu": 0.5, "overrides": [{"shapes": ["left", "block"], "mu": 0.25}]},
    "contacts": {"gap_tolerance": 0.01}
  })";
  const LoadedScene scene = ParseSceneJson(doc);
  // Box first, so its pairs are (block, floor) x 2 then (block, left) x 2 (bl, then tl).
  ASSERT_EQ(scene.problem.m(), 4);
  EXPECT_TRUE(CompareMatrices(scene.problem.mu(), Eigen::Vector4d(0.5, 0.5, 0.25, 0.25), 0));
  EXPECT_EQ(scene.contacts[2].vertex, 0);
  EXPECT_EQ(scene.contacts[3].vertex, 3);
  EXPECT_EQ(scene.settings.step, std::nullopt);
  // Lifting the block by 0.005 keeps the floor contacts only with the larger tolerance.
  const VectorXd lifted = Eigen::Vector3d(0, 1.505, 0);
  EXPECT_EQ(scene.tree.ActiveContacts(lifted, {0.01}).contacts.size(), 4u);
  EXPECT_EQ(scene.tree.ActiveContacts(lifted, {1e-6}).contacts.size(), 2u);
}

// ---------------------------------------------------------------------------------------------
// (b) Finite-difference checks of every Jacobian and of M at random configurations.

// Inertia of a shape about its own centre, written out here independently of the library.
double OwnInertia(const Shape& s) {
  switch (s.type) {
    case ShapeType::kRod:
      return s.mass * s.length * s.length / 12;
    case ShapeType::kDisc:
      return s.mass * s.radius * s.radius / 2;
    case ShapeType::kBox:
      return s.mass * (s.width * s.width + s.height * s.height) / 12;
    default:
      return s.inertia;
  }
}

// Checks every frame's point Jacobian, every contact candidate's rows (both tangent conventions)
// and M at kConfigurations random configurations q0 + U(-1/2, 1/2)^n.
void ExpectDerivativesMatchFiniteDifferences(const PlanarTree& tree, const VectorXd& q0) {
  const int n = tree.num_positions();
  std::mt19937_64 rng(20240611);
  std::uniform_real_distribution<double> perturb(-0.5, 0.5);
  for (int trial = 0; trial < kConfigurations; ++trial) {
    SCOPED_TRACE("configuration " + std::to_string(trial));
    VectorXd q = q0, v(n);
    for (int i = 0; i < n; ++i) {
      q(i) += perturb(rng);
      v(i) = 2 * perturb(rng);
    }
    // Frame point Jacobians against the motion of a point fixed in each frame.
    ASSERT_FALSE(tree.frames().empty());
    for (int f = 0; f < static_cast<int>(tree.frames().size()); ++f) {
      const Eigen::Vector2d local(perturb(rng), perturb(rng));
      const Eigen::Vector2d p = tree.FramePose(q, f).Apply(local);
      const Eigen::Matrix3Xd J = tree.PointJacobian(q, f, p);
      Eigen::Matrix3Xd fd(3, n);
      for (int i = 0; i < n; ++i) {
        VectorXd qp = q, qm = q;
        qp(i) += kFdStep;
        qm(i) -= kFdStep;
        const Pose2 a = tree.FramePose(qp, f), b = tree.FramePose(qm, f);
        fd.col(i) << (a.Apply(local) - b.Apply(local)) / (2 * kFdStep),
            (a.angle - b.angle) / (2 * kFdStep);
      }
      EXPECT_TRUE(CompareMatrices(J, fd, kFdTolerance * MaxAbsOrOne(fd)))
          << "frame " << tree.frames()[f].name;
    }
    // Contact rows: jn against the gap function, jf against the tangential motion of the two
    // contact points held fixed in their bodies.
    for (const TangentConvention convention :
         {TangentConvention::kOrthogonal, TangentConvention::kAuthors}) {
      const std::vector<Contact> cs = tree.ContactCandidates(q, convention);
      ASSERT_FALSE(cs.empty()) << "no contact candidate to check";
      MatrixXd fd_phi(cs.size(), n), fd_t(cs.size(), n), jn(cs.size(), n), jf(cs.size(), n);
      for (int i = 0; i < n; ++i) {
        VectorXd qp = q, qm = q;
        qp(i) += kFdStep;
        qm(i) -= kFdStep;
        const std::vector<Contact> cp = tree.ContactCandidates(qp, convention);
        const std::vector<Contact> cm = tree.ContactCandidates(qm, convention);
        ASSERT_EQ(cp.size(), cs.size());
        for (size_t c = 0; c < cs.size(); ++c) {
          ASSERT_EQ(cp[c].shape_a, cs[c].shape_a);
          ASSERT_EQ(cp[c].vertex, cs[c].vertex);
          fd_phi(c, i) = (cp[c].phi - cm[c].phi) / (2 * kFdStep);
          auto moved = [&](const VectorXd& qq, int shape, const Eigen::Vector2d& world) {
            const int frame = tree.shapes()[shape].frame;
            const Eigen::Vector2d local = tree.FramePose(q, frame).ApplyInverse(world);
            return tree.FramePose(qq, frame).Apply(local);
          };
          const Eigen::Vector2d rel_p =
              moved(qp, cs[c].shape_b, cs[c].point_b) - moved(qp, cs[c].shape_a, cs[c].point_a);
          const Eigen::Vector2d rel_m =
              moved(qm, cs[c].shape_b, cs[c].point_b) - moved(qm, cs[c].shape_a, cs[c].point_a);
          fd_t(c, i) = cs[c].tangent.dot(rel_p - rel_m) / (2 * kFdStep);
        }
      }
      for (size_t c = 0; c < cs.size(); ++c) {
        jn.row(c) = cs[c].jn;
        jf.row(c) = cs[c].jf;
      }
      EXPECT_TRUE(CompareMatrices(jn, fd_phi, kFdTolerance * MaxAbsOrOne(fd_phi))) << "Jn";
      EXPECT_TRUE(CompareMatrices(jf, fd_t, kFdTolerance * MaxAbsOrOne(fd_t))) << "Jf";
    }
    // Kinetic energy: 1/2 v^T M v = sum over shapes of 1/2 m |c-dot|^2 + 1/2 I theta-dot^2,
    // with c-dot and theta-dot differenced along q + s v (v = q-dot).
    const MatrixXd M = tree.MassMatrix(q);
    EXPECT_TRUE(CompareMatrices(M, M.transpose(), 1e-14 * MaxAbsOrOne(M)));
    double energy = 0;
    for (int s = 0; s < static_cast<int>(tree.shapes().size()); ++s) {
      const Shape& shape = tree.shapes()[s];
      const Pose2 a = tree.ShapePose(q + kFdStep * v, s), b = tree.ShapePose(q - kFdStep * v, s);
      const Eigen::Vector2d cdot = (a.translation - b.translation) / (2 * kFdStep);
      const double wdot = (a.angle - b.angle) / (2 * kFdStep);
      energy += 0.5 * shape.mass * cdot.squaredNorm() + 0.5 * OwnInertia(shape) * wdot * wdot;
    }
    EXPECT_NEAR(0.5 * v.dot(M * v), energy, kFdTolerance * std::max(1.0, energy));
  }
}

class FiniteDifferenceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FiniteDifferenceTest, JacobiansAndMassMatrix) {
  const LoadedScene scene = Scene(GetParam());
  ExpectDerivativesMatchFiniteDifferences(scene.tree, scene.q);
}

INSTANTIATE_TEST_SUITE_P(AllScenes,
                         FiniteDifferenceTest,
                         ::testing::Values("rocking-block",
                                           "compass-gait",
                                           "box-wall",
                                           "ramone",
                                           "disk-stack",
                                           "zeno-block",
                                           "newtons-cradle"),
                         ParamName);

// A tree exercising what the examples do not: rotated joint frames for prismatic joints, a fixed
// joint, a floating frame below a chain, several massive shapes per frame (inertia merging), a
// disc fixed to the world, a slanted wall, every pair type.
TEST(FiniteDifferenceTest, EveryJointAndShapeKind) {
  PlanarTree tree;
  const int cart =
      tree.AddFrame("cart", PlanarTree::kWorld, JointType::kPrismaticX, Pose2{{0.3, 0.2}, 0.4});
  const int arm = tree.AddFrame("arm", cart, JointType::kRevolute, Pose2{{0.5, -0.1}, 0.7});
  const int slider = tree.AddFrame("slider", arm, JointType::kPrismaticY, Pose2{{0.2, 0.3}, -0.5});
  const int welded = tree.AddFrame("welded", slider, JointType::kFixed, Pose2{{0.1, 0.1}, 1.0});
  const int free = tree.AddFrame("free", welded, JointType::kFloating, Pose2{{0.2, -0.3}, 0.3});
  const int ball = tree.AddFrame("ball", PlanarTree::kWorld, JointType::kFloating);
  tree.AddBox("cart_box", cart, Pose2{{0.1, 0.2}, 0.3}, 0.8, 0.4, 2.0);
  tree.AddPointMass("cart_point", cart, Pose2{{-0.4, 0.1}, 0}, 1.0, 0.05);
  tree.AddRod("arm_rod", arm, Pose2{{0.3, 0}, 0.2}, 0.6, 1.0);
  tree.AddDisc("arm_disc", arm, Pose2{{0.6, 0.1}, 0}, 0.15, 0.5);
  tree.AddBox("slider_box", slider, Pose2{{0, 0}, 0.1}, 0.3, 0.2, 0.7);
  tree.AddPointMass("welded_point", welded, Pose2{{0.2, 0.2}, 0}, 0.3, 0.01);
  tree.AddDisc("free_disc", free, Pose2{{0.05, 0.05}, 0.4}, 0.2, 1.0);
  tree.AddRod("free_rod", free, Pose2{{-0.1, 0.2}, 1.1}, 0.5, 0.4);
  tree.AddDisc("ball_disc", ball, Pose2{}, 0.3, 1.0);
  tree.AddDisc("post", PlanarTree::kWorld, Pose2{{3, 3}, 0}, 0.5, 0.0);
  tree.AddWall("floor", Eigen::Vector2d(0, 1), -2);
  tree.AddWall("slant", Eigen::Vector2d(1, 1), -3);
  ASSERT_EQ(tree.num_positions(), 9);
  VectorXd q0(9);
  q0 << 0.2, -0.4, 0.3, 0.5, -0.2, 0.8, 1.0, 0.5, -0.3;
  // Every pair kind appears (shapes are listed before the walls, so discs come first).
  const std::vector<Contact> cs = tree.ContactCandidates(q0);
  int disc_disc = 0, wall_disc = 0, wall_vertex = 0;
  for (const Contact& c : cs) {
    const ShapeType a = tree.shapes()[c.shape_a].type, b = tree.shapes()[c.shape_b].type;
    if (a == ShapeType::kDisc && b == ShapeType::kDisc) ++disc_disc;
    if (a == ShapeType::kDisc && b == ShapeType::kWall) ++wall_disc;
    if (c.vertex >= 0) ++wall_vertex;
  }
  EXPECT_EQ(disc_disc, 6);      // the four discs are on four frames: every pair
  EXPECT_EQ(wall_disc, 2 * 3);  // arm, free, ball discs (the post is on the world frame)
  EXPECT_EQ(wall_vertex, 2 * (4 + 1 + 2 + 4 + 1 + 2));
  ExpectDerivativesMatchFiniteDifferences(tree, q0);
}

TEST(PlanarTreeTest, PrismaticAxisLivesInTheJointFrame) {
  // docs/examples.md §2: child = parent * transform * motion, so a prismatic-x joint behind a
  // quarter-turn transform slides along the parent's y axis.
  PlanarTree tree;
  const int f = tree.AddFrame("f", PlanarTree::kWorld, JointType::kPrismaticX,
                              Pose2{{1, 0}, std::numbers::pi / 2});
  const Pose2 p = tree.FramePose(Eigen::Matrix<double, 1, 1>(2.0), f);
  EXPECT_TRUE(CompareMatrices(p.translation, Eigen::Vector2d(1, 2), 2e-15));
  EXPECT_DOUBLE_EQ(p.angle, std::numbers::pi / 2);
  EXPECT_FALSE(tree.FindFrame("g").has_value());
  EXPECT_EQ(tree.FindFrame("world"), PlanarTree::kWorld);
  EXPECT_THROW(tree.AddFrame("f", PlanarTree::kWorld, JointType::kRevolute), std::invalid_argument);
  EXPECT_THROW(tree.AddDisc("d", 5, Pose2{}, 1.0, 1.0), std::invalid_argument);
  EXPECT_THROW(tree.FramePose(VectorXd(2), f), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// (c) Every error names the offending JSON path.

const std::string kBase = R"({
  "frames": [{"name": "block", "joint": "floating"}],
  "shapes": [{"name": "block", "type": "box", "frame": "block", "width": 1, "height": 2, "mass": 1},
             {"name": "floor", "type": "wall", "normal": [0, 1]}],
  "q": [0, 1, 0],
  "v_minus": [0, -1, 0],
  "friction": {"mu": 1}
})";

// kBase with the unique occurrence of `from` replaced by `to`.
std::string Edit(const std::string& from, const std::string& to, std::string doc = kBase) {
  const size_t at = doc.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(doc.find(from, at + 1), std::string::npos) << from;
  if (at != std::string::npos) doc.replace(at, from.size(), to);
  return doc;
}

struct ErrorCase {
  std::string name;
  std::string doc;
  std::string path;  // the message must start with "<path>: "
  std::string what;  // and contain this
};

class SceneErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(SceneErrorTest, NamesTheJsonPath) {
  const ErrorCase& c = GetParam();
  try {
    ParseSceneJson(c.doc);
    FAIL() << "accepted:\n" << c.doc;
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(c.path + ": ", 0), 0u) << msg;
    EXPECT_NE(msg.find(c.what), std::string::npos) << msg;
  }
}

const std::string kRotation = R"("v_minus": {"rigid_rotation": {"rate": 1, "about": [0, 0]}})";

INSTANTIATE_TEST_SUITE_P(
    Errors,
    SceneErrorTest,
    ::testing::Values(
        ErrorCase{"syntax", Edit("[0, 1, 0]", "[0, 1, 0,]"), "/q/3", "malformed JSON"},
        ErrorCase{"overflow", Edit("[0, 1, 0]", "[0, 1e999, 0]"), "/q/1", "overflow"},
        ErrorCase{"not_an_object", "[1, 2]", "/", "expected an object"},
        ErrorCase{"duplicate_key", Edit("\"mass\": 1", "\"mass\": 1, \"mass\": 2"),
                  "/shapes/0/mass", "duplicate key"},
        ErrorCase{"unknown_top_key", Edit("\"q\":", "\"gravity\": -9.81, \"q\":"), "/gravity",
                  "unknown key"},
        ErrorCase{"unknown_shape_key", Edit("\"height\": 2", "\"height\": 2, \"radius\": 1"),
                  "/shapes/0/radius", "unknown key"},
        ErrorCase{"missing_joint", Edit(", \"joint\": \"floating\"", ""), "/frames/0/joint",
                  "missing required field"},
        ErrorCase{"missing_friction", Edit(",\n  \"friction\": {\"mu\": 1}", ""), "/friction",
                  "missing required field"},
        ErrorCase{"missing_width", Edit("\"width\": 1, ", ""), "/shapes/0/width",
                  "missing required field"},
        ErrorCase{"wrong_type_number", Edit("\"width\": 1", "\"width\": \"1\""), "/shapes/0/width",
                  "expected a number, found string"},
        ErrorCase{"wrong_type_bool", Edit("\"mass\": 1", "\"mass\": 1, \"collision\": 1"),
                  "/shapes/0/collision", "expected true or false"},
        ErrorCase{"wrong_type_list", Edit("[0, 1, 0]", "3"), "/q", "expected a list"},
        ErrorCase{"non_positive_size", Edit("\"width\": 1", "\"width\": 0"), "/shapes/0/width",
                  "must be > 0"},
        ErrorCase{"negative_mass", Edit("\"mass\": 1", "\"mass\": -1"), "/shapes/0/mass",
                  "must be >= 0"},
        ErrorCase{"zero_wall_normal", Edit("[0, 1]", "[0, 0]"), "/shapes/1/normal", "non-zero"},
        ErrorCase{"unknown_joint", Edit("\"floating\"", "\"hinge\""), "/frames/0/joint",
                  "unknown joint 'hinge'"},
        ErrorCase{"unknown_shape_type", Edit("\"box\"", "\"cylinder\""), "/shapes/0/type",
                  "unknown shape type"},
        ErrorCase{"unknown_tangent",
                  Edit("\"friction\"",
                       "\"contacts\": {\"tangent_convention\": \"skewed\"}, \"friction\""),
                  "/contacts/tangent_convention", "unknown convention"},
        ErrorCase{"unknown_frame", Edit("\"frame\": \"block\"", "\"frame\": \"blok\""),
                  "/shapes/0/frame", "unknown frame 'blok'"},
        ErrorCase{"unknown_parent",
                  Edit("\"joint\": \"floating\"", "\"joint\": \"floating\", \"parent\": \"body\""),
                  "/frames/0/parent", "unknown frame 'body'"},
        ErrorCase{"world_frame_name",
                  Edit("{\"name\": \"block\", \"joint\"", "{\"name\": \"world\", \"joint\""),
                  "/frames/0/name", "not 'world'"},
        ErrorCase{"duplicate_shape", Edit("\"name\": \"floor\"", "\"name\": \"block\""),
                  "/shapes/1/name", "already defined"},
        ErrorCase{"bad_transform",
                  Edit("\"joint\": \"floating\"", "\"joint\": \"floating\", \"transform\": [0, 0]"),
                  "/frames/0/transform", "expected 3 numbers"},
        ErrorCase{"q_size", Edit("[0, 1, 0]", "[0, 1]"), "/q", "expected 3 numbers"},
        ErrorCase{"v_size", Edit("[0, -1, 0]", "[0, -1, 0, 0]"), "/v_minus", "expected 3 numbers"},
        ErrorCase{"penetration", Edit("[0, 1, 0]", "[0, 0.9, 0]"), "/q",
                  "'block' and 'floor' (vertex 0) penetrate"},
        ErrorCase{"no_active_contact", Edit("[0, 1, 0]", "[0, 1.5, 0]"), "/q",
                  "no contact is active"},
        ErrorCase{"not_colliding", Edit("[0, -1, 0]", "[0, 1, 0]"), "/v_minus",
                  "no active contact is approaching"},
        ErrorCase{"singular_mass", Edit("\"mass\": 1", "\"mass\": 0"), "/shapes",
                  "not positive definite"},
        ErrorCase{"negative_mu", Edit("{\"mu\": 1}", "{\"mu\": -1}"), "/friction/mu",
                  "must be >= 0"},
        ErrorCase{"override_unknown_shape",
                  Edit("{\"mu\": 1}",
                       "{\"mu\": 1, \"overrides\": [{\"shapes\": [\"block\", \"flor\"], "
                       "\"mu\": 2}]}"),
                  "/friction/overrides/0/shapes/1", "unknown shape 'flor'"},
        ErrorCase{"override_same_shape",
                  Edit("{\"mu\": 1}",
                       "{\"mu\": 1, \"overrides\": [{\"shapes\": [\"block\", \"block\"], "
                       "\"mu\": 2}]}"),
                  "/friction/overrides/0/shapes", "same shape twice"},
        ErrorCase{"k_zero_with_friction", Edit("{\"mu\": 1}", "{\"mu\": 1, \"k\": 0}"),
                  "/friction/k", "needs mu = 0"},
        ErrorCase{"k_invalid", Edit("{\"mu\": 1}", "{\"mu\": 1, \"k\": 4}"), "/friction/k",
                  "must be 2"},
        ErrorCase{
            "rotation_two_contacts",
            Edit(
                "\"v_minus\": [0, -1, 0]",
                R"("v_minus": {"rigid_rotation": {"rate": 1, "about": {"contact": ["block", "floor"]}}})"),
            "/v_minus/rigid_rotation/about/contact", "2 active contacts"},
        ErrorCase{"rotation_impossible",
                  Edit("\"v_minus\": [0, -1, 0]",
                       kRotation,
                       Edit("[{\"name\": \"block\", \"joint\": \"floating\"}]",
                            "[{\"name\": \"x\", \"joint\": \"prismatic_x\"}, {\"name\": \"block\", "
                            "\"parent\": \"x\", \"joint\": \"prismatic_y\"}]",
                            Edit("[0, 1, 0]", "[0, 1]"))),
                  "/v_minus/rigid_rotation", "cannot move every shape as one rigid body"},
        ErrorCase{"rotation_bad_about",
                  Edit("\"v_minus\": [0, -1, 0]",
                       R"("v_minus": {"rigid_rotation": {"rate": 1, "about": "corner"}})"),
                  "/v_minus/rigid_rotation/about", "expected [x, y]"},
        ErrorCase{"sampler_N", Edit("\"q\":", "\"sampler\": {\"N\": 0}, \"q\":"), "/sampler/N",
                  "integer >= 1"},
        ErrorCase{"sampler_h", Edit("\"q\":", "\"sampler\": {\"h\": -1}, \"q\":"), "/sampler/h",
                  "must be > 0"},
        ErrorCase{"notes_type", Edit("\"q\":", "\"notes\": [1], \"q\":"), "/notes/0",
                  "expected a string"}),
    [](const ::testing::TestParamInfo<ErrorCase>& info) { return info.param.name; });

TEST(SceneErrorTest, BaseDocumentIsValid) {
  const LoadedScene scene = ParseSceneJson(kBase);
  EXPECT_EQ(scene.problem.m(), 2);
}

TEST(SceneErrorTest, OverrideWithoutActiveContact) {
  const std::string doc = Edit(
      "{\"mu\": 1}", "{\"mu\": 1, \"overrides\": [{\"shapes\": [\"floor\", \"wall\"], \"mu\": 2}]}",
      Edit("{\"name\": \"floor\", \"type\": \"wall\", \"normal\": [0, 1]}",
           "{\"name\": \"floor\", \"type\": \"wall\", \"normal\": [0, 1]}, "
           "{\"name\": \"wall\", \"type\": \"wall\", \"normal\": [1, 0], \"offset\": -5}"));
  try {
    ParseSceneJson(doc);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/friction/overrides/0/shapes: no active contact", 0), 0u)
        << e.what();
  }
}

TEST(SceneErrorTest, FileErrorsArePrefixedWithThePath) {
  try {
    LoadSceneJson("/nonexistent/scene.json");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/scene.json: cannot open file");
  }
}

}  // namespace
}  // namespace impactset::systems
