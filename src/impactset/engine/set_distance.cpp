#include <impactset/engine/set_distance.hpp>

#include <cmath>
#include <stdexcept>

#include <impactset/common/error_policy.hpp>
#include <impactset/sampling/sampler.hpp>
#include <impactset/setapprox/convex_hull.hpp>
#include <impactset/setapprox/distances.hpp>
#include <impactset/setapprox/support_polytope.hpp>
#include <impactset/sets/features.hpp>

namespace impactset::engine {
namespace {

[[noreturn]] void NoPoints(const std::string& label,
                           sets::SetKind set,
                           const std::string& output,
                           const std::string& rule) {
  InvalidArgument(label, std::string(ToString(set)) + "/" + output, rule);
}

// The output of that name, or an error naming the run and the outputs it has.
const sets::OutputMap& OutputOf(const std::vector<sets::OutputMap>& outputs,
                                const std::string& name,
                                const std::string& label) {
  std::string known;
  for (const sets::OutputMap& o : outputs) {
    if (o.name == name) return o;
    known += (known.empty() ? "" : ", ") + o.name;
  }
  InvalidArgument(label + " output", name, "the run's outputs are " + known);
}

// A dataset's outputs: /outputs, else the built-in contact and generalized.
std::vector<sets::OutputMap> DatasetOutputs(const data::Dataset& d) {
  const MatrixXd& jc = d.problem.contact_jacobian;
  if (d.outputs.empty()) {
    const Eigen::Index n = d.problem.M.rows();
    return {sets::OutputMap{"contact", sets::Coordinates::kContact, "contact", jc, {}},
            sets::OutputMap{"generalized",
                            sets::Coordinates::kGeneralized,
                            "generalized",
                            MatrixXd::Identity(n, n),
                            {}}};
  }
  std::vector<sets::OutputMap> out;
  for (const data::OutputArrays& o : d.outputs) {
    const sets::Coordinates kind =
        o.kind == "map" ? sets::Coordinates::kMap : sets::ParseCoordinates(o.kind);
    out.push_back(sets::OutputMap{o.name, kind, o.spec, o.C, o.coordinate_names});
  }
  return out;
}

// What to rerun with when a file holds neither the points nor a net of the set.
const char* NoSetAdvice(sets::SetKind set) {
  return set == sets::SetKind::kReachable
             ? "has neither kept trajectories nor a net of this set (rerun with "
               "--keep-trajectories or --reachable)"
             : "has neither kept samples nor a net of this set (rerun with --keep-samples or "
               "without --no-sets)";
}

SetPoints Checked(SetPoints p, sets::SetKind set, const std::string& output) {
  if (p.points.cols() == 0) NoPoints(p.label, set, output, "has no points");
  return p;
}

// Distances from the points of `from` to the convex hull of the points of `to`.
HullDistanceSummary ToHull(const SetPoints& from, const SetPoints& to) {
  HullDistanceSummary h;
  try {
    setapprox::ConvexHullOptions o;
    o.affine.relative_tolerance = kHullFlatness;
    o.max_qhull_points = kDistanceHullMaxPoints;
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
setapprox::ConvexHull AsConvexHull(const sets::HullResult& h, const MatrixXd& points) {
  if (h.status != sets::HullStatus::kComputed) {
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

// The set's support polytope: the stored one, else one over `points`.
setapprox::SupportPolytope SupportOf(const SetPoints& p) {
  const sets::SupportResult& h = p.support;
  if (h.directions.size() > 0) {
    return setapprox::SupportPolytope(h.directions, h.values, h.attaining_samples,
                                      h.attaining_points, h.count);
  }
  setapprox::SupportPolytope out(sampling::SupportDirections(static_cast<int>(p.points.rows()),
                                                             sets::kSetSupportExtraDirections));
  for (Eigen::Index k = 0; k < p.points.cols(); ++k) out.Add(p.points.col(k), k);
  return out;
}

}  // namespace

VectorXd DistancesToHull(const sets::HullResult& hull, const MatrixXd& points) {
  return setapprox::DistanceToHull(AsConvexHull(hull, points), points).distance;
}

std::vector<bool> HullContains(const sets::HullResult& hull,
                               const MatrixXd& points,
                               double tolerance) {
  if (!(tolerance >= 0) || !std::isfinite(tolerance)) {
    InvalidArgument("tolerance", tolerance, "must be >= 0 and finite");
  }
  if (hull.margin == 0) return AsConvexHull(hull, points).ContainsAll(points, tolerance);
  AsConvexHull(hull, points);  // the same checks of status and dimension
  // The hull grown by its margin: every facet moved out by margin, and off the affine hull by at
  // most flatness + margin (HullResult::margin).
  const double off_limit = hull.flatness + hull.margin + tolerance;
  std::vector<bool> out(static_cast<std::size_t>(points.cols()));
  for (Eigen::Index j = 0; j < points.cols(); ++j) {
    const VectorXd centred = points.col(j) - hull.center;
    const VectorXd y = hull.basis.transpose() * centred;
    bool in = (centred - hull.basis * y).norm() <= off_limit;
    if (in && hull.facet_offsets.size() > 0) {
      in = (hull.facet_normals.transpose() * y + hull.facet_offsets).maxCoeff() <=
           hull.margin + tolerance;
    }
    out[static_cast<std::size_t>(j)] = in;
  }
  return out;
}

SetPoints PointsOf(const RunResult& run,
                   sets::SetKind set,
                   const std::string& output,
                   const std::string& label) {
  const std::vector<sets::OutputMap> outputs = run.Outputs();
  const sets::OutputMap& map = OutputOf(outputs, output, label);
  const bool contact = map.kind == sets::Coordinates::kContact;
  SetPoints p;
  p.label = label;
  const auto& s = run.samples;
  if (set == sets::SetKind::kPostImpact && s && s->count() > 0) {
    p.points = sampling::TerminatedColumns(contact ? s->contact_velocity : map.Apply(s->v_plus),
                                           s->status);
    p.source = "terminated samples";
  } else if (set == sets::SetKind::kReachable && s && !s->trajectory_offsets.empty()) {
    p.points = map.Apply(s->trajectories);
    p.source = "trajectories";
  } else if (const sets::PointSet* net = run.Find(set, output)) {
    p.points = net->net.points;
    p.epsilon = net->net.epsilon;
    p.source = "net";
  } else {
    NoPoints(label, set, output, NoSetAdvice(set));
  }
  if (const sets::PointSet* stored = run.Find(set, output)) p.support = stored->support;
  return Checked(std::move(p), set, output);
}

SetPoints PointsOf(const data::Dataset& d,
                   sets::SetKind set,
                   const std::string& output,
                   const std::string& label) {
  const std::vector<sets::OutputMap> outputs = DatasetOutputs(d);
  const sets::OutputMap& map = OutputOf(outputs, output, label);
  const bool contact = map.kind == sets::Coordinates::kContact;
  SetPoints p;
  p.label = label;
  if (set == sets::SetKind::kPostImpact && d.samples) {
    std::vector<impact::SampleStatus> status;
    try {
      for (std::int32_t code : d.samples->status)
        status.push_back(impact::SampleStatusFromCode(code));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(label + ":/samples/status: " + e.what());
    }
    p.points = sampling::TerminatedColumns(
        contact ? d.samples->contact_velocity : map.Apply(d.samples->v_plus), status);
    p.source = "terminated samples";
  } else if (set == sets::SetKind::kReachable && d.reachable) {
    p.points = map.Apply(d.reachable->velocities);
    p.source = "trajectories";
  } else {
    for (const auto& s : d.sets) {
      if (s.set != ToString(set) || s.coords != output) continue;
      p.points = s.net.points;
      p.epsilon = s.net.epsilon;
      p.source = "net";
    }
    if (p.source.empty()) NoPoints(label, set, output, NoSetAdvice(set));
  }
  for (const auto& s : d.sets) {
    if (s.set != ToString(set) || s.coords != output || !s.support) continue;
    p.support = sets::SupportResult{
        s.support->directions,       s.support->values, s.support->attaining_samples,
        s.support->attaining_points, s.support->count,  s.support->first_half_values,
        s.support->first_half_end};
  }
  return Checked(std::move(p), set, output);
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
  const bool stored = a.support.directions.size() > 0 && b.support.directions.size() > 0 &&
                      a.support.directions == b.support.directions;
  SetPoints a_points = a, b_points = b;
  if (!stored) a_points.support = b_points.support = sets::SupportResult{};
  const VectorXd gap = SupportOf(a_points).values() - SupportOf(b_points).values();
  d.support_gap = gap.cwiseAbs().maxCoeff();
  d.support_source = stored ? "stored support polytopes" : "computed from the points";
  return d;
}

}  // namespace impactset::engine
