#include <impactset/simulators/tilted_drop.hpp>

#include <cmath>
#include <vector>

#include <impactset/common/error_policy.hpp>

namespace impactset::simulators {
namespace {

// The candidates at q that are the scene's impact contacts, in the scene's order.
std::vector<systems::Contact> SceneContactsAt(const systems::LoadedScene& scene,
                                              const VectorXd& q) {
  const auto candidates = scene.tree.ContactCandidates(q, scene.contact_options.tangent);
  std::vector<systems::Contact> out;
  for (const auto& c : scene.contacts) {
    for (const auto& cand : candidates) {
      if (cand.shape_a == c.shape_a && cand.shape_b == c.shape_b && cand.vertex == c.vertex) {
        out.push_back(cand);
        break;
      }
    }
  }
  IMPACTSET_ASSERT(out.size() == scene.contacts.size());  // the candidate list does not depend on q
  return out;
}

}  // namespace

TiltedDrop TiltScene(const systems::LoadedScene& scene, double angle, double gravity) {
  const auto& frames = scene.tree.frames();
  if (frames.empty() || frames[0].joint != systems::JointType::kFloating) {
    InvalidArgument("scene frame 0", frames.empty() ? "none" : frames[0].name,
                    "must have a floating joint to be tilted");
  }
  if (!(std::isfinite(angle) && std::abs(angle) < 0.1)) {
    InvalidArgument("angle", angle, "must be finite with |angle| < 0.1 rad (a small tilt)");
  }
  const int c = frames[0].first_coordinate;
  VectorXd q = scene.q;
  q[c + 2] += angle;
  double depth = 0;
  for (const auto& contact : SceneContactsAt(scene, q)) depth = std::max(depth, -contact.phi);
  q[c + 1] += depth;
  const auto contacts = SceneContactsAt(scene, q);
  const int m = static_cast<int>(contacts.size()), n = scene.tree.num_velocities();
  MatrixXd Jn(m, n), Jf(m, n);
  VectorXd gap(m);
  for (int i = 0; i < m; ++i) {
    Jn.row(i) = contacts[i].jn;
    Jf.row(i) = contacts[i].jf;
    gap[i] = contacts[i].phi;
  }
  const MatrixXd M = scene.tree.MassMatrix(q);
  const VectorXd& v = scene.problem.v_minus();
  const double ke = 0.5 * v.dot(scene.problem.M() * v);
  const double lift = M(c + 1, c + 1) * gravity * depth;  // total mass * g * depth
  if (!(ke > lift)) InvalidArgument("angle", angle, "lifting the body costs more than its KE");
  VectorXd v_minus = v * std::sqrt((ke - lift) / ke);
  return {impact::ImpactProblem::Planar(M, Jn, Jf, scene.problem.mu(), v_minus), gap, q};
}

}  // namespace impactset::simulators
