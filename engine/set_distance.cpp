#include "engine/set_distance.hpp"

#include <stdexcept>

#include "common/error_policy.hpp"
#include "sampling/sampler.hpp"
#include "setapprox/convex_hull.hpp"
#include "setapprox/distances.hpp"

namespace impactset::engine {
namespace {

[[noreturn]] void NoPoints(const std::string& label,
                           SetKind set,
                           Coordinates coords,
                           const std::string& rule) {
  InvalidArgument(label, std::string(ToString(set)) + "/" + ToString(coords), rule);
}

constexpr const char* kNoSet =
    "has neither kept samples nor a net of this set (rerun with --keep-samples or without "
    "--no-sets)";

SetPoints Checked(SetPoints p, SetKind set, Coordinates coords) {
  if (p.points.cols() == 0) NoPoints(p.label, set, coords, "has no points");
  return p;
}

// Distances from the points of `from` to the convex hull of the points of `to`.
HullDistanceSummary ToHull(const SetPoints& from, const SetPoints& to) {
  HullDistanceSummary h;
  try {
    setapprox::ConvexHullOptions o;
    o.affine.relative_tolerance = kHullFlatness;
    const setapprox::ConvexHull hull = setapprox::ComputeConvexHull(to.points, o);
    const setapprox::HullDistanceResult r = setapprox::DistanceToHull(hull, from.points);
    const double scale = 1 + to.points.cwiseAbs().maxCoeff();
    const double tolerance =
        hull.affine.max_residual + hull.distance_roundoff + kHullTolerance * scale;
    h.computed = true;
    h.status = "computed";
    h.max = r.distance.maxCoeff();
    for (Eigen::Index k = 0; k < r.distance.size(); ++k) h.outside += r.distance(k) > tolerance;
  } catch (const std::runtime_error& e) {
    h.status = std::string("not computed: ") + e.what();
  }
  return h;
}

// The setapprox form of a run's hull, for its distance and containment queries.
setapprox::ConvexHull AsConvexHull(const HullResult& h, const MatrixXd& points) {
  if (h.status != HullStatus::kComputed) {
    InvalidArgument("hull status", ToString(h.status), "must be computed to query the hull");
  }
  if (points.rows() != h.center.size()) {
    InvalidArgument("points dimension", points.rows(),
                    "must equal the hull's ambient dimension " + std::to_string(h.center.size()));
  }
  setapprox::ConvexHull c;
  c.affine.ambient_dimension = h.center.size();
  c.affine.dimension = h.dimension;
  c.affine.origin = h.center;
  c.affine.basis = h.basis;
  c.affine.max_residual = h.flatness;
  c.vertices = h.vertices;
  c.vertex_coordinates = h.basis.transpose() * (h.vertices.colwise() - h.center);
  c.facet_normals = h.facet_normals;
  c.facet_offsets = h.facet_offsets;
  c.volume = h.volume;
  c.distance_roundoff = h.distance_roundoff;
  return c;
}

}  // namespace

VectorXd DistancesToHull(const HullResult& hull, const MatrixXd& points) {
  return setapprox::DistanceToHull(AsConvexHull(hull, points), points).distance;
}

std::vector<bool> HullContains(const HullResult& hull, const MatrixXd& points, double tolerance) {
  return AsConvexHull(hull, points).ContainsAll(points, tolerance);
}

SetPoints PointsOf(const RunResult& run,
                   SetKind set,
                   Coordinates coords,
                   const std::string& label) {
  const bool contact = coords == Coordinates::kContact;
  SetPoints p;
  p.label = label;
  const auto& s = run.samples;
  if (set == SetKind::kPostImpact && s && s->count() > 0) {
    p.points = sampling::TerminatedColumns(contact ? s->contact_velocity : s->v_plus, s->status);
    p.source = "terminated samples";
  } else if (set == SetKind::kReachable && s && !s->trajectory_offsets.empty()) {
    p.points =
        contact ? MatrixXd(run.problem.ContactJacobian() * s->trajectories) : s->trajectories;
    p.source = "trajectories";
  } else if (const PointSet* net = run.Find(set, coords)) {
    p.points = net->net.points;
    p.epsilon = net->net.epsilon;
    p.source = "net";
  } else {
    NoPoints(label, set, coords, kNoSet);
  }
  return Checked(std::move(p), set, coords);
}

SetPoints PointsOf(const data::Dataset& d,
                   SetKind set,
                   Coordinates coords,
                   const std::string& label) {
  const bool contact = coords == Coordinates::kContact;
  SetPoints p;
  p.label = label;
  if (set == SetKind::kPostImpact && d.samples) {
    std::vector<impact::SampleStatus> status;
    for (std::int32_t code : d.samples->status)
      status.push_back(impact::SampleStatusFromCode(code));
    p.points = sampling::TerminatedColumns(
        contact ? d.samples->contact_velocity : d.samples->v_plus, status);
    p.source = "terminated samples";
  } else if (set == SetKind::kReachable && d.reachable) {
    p.points = contact ? MatrixXd(d.problem.contact_jacobian * d.reachable->velocities)
                       : d.reachable->velocities;
    p.source = "trajectories";
  } else {
    for (const auto& s : d.sets) {
      if (s.set != ToString(set) || s.coords != ToString(coords)) continue;
      p.points = s.net.points;
      p.epsilon = s.net.epsilon;
      p.source = "net";
    }
    if (p.source.empty()) NoPoints(label, set, coords, kNoSet);
  }
  return Checked(std::move(p), set, coords);
}

SetDistance DistanceBetween(const SetPoints& a, const SetPoints& b) {
  if (a.points.rows() != b.points.rows()) {
    InvalidArgument(b.label, b.points.rows(),
                    "has points of dimension other than " + std::to_string(a.points.rows()) + " (" +
                        a.label + "): not the same system");
  }
  const setapprox::HausdorffDistanceResult h = setapprox::HausdorffDistance(a.points, b.points);
  SetDistance d;
  d.hausdorff = h.distance;
  d.a_to_b = h.a_to_b.distance;
  d.b_to_a = h.b_to_a.distance;
  d.net_slack = a.epsilon + b.epsilon;
  d.a_to_hull_b = ToHull(a, b);
  d.b_to_hull_a = ToHull(b, a);
  return d;
}

}  // namespace impactset::engine
