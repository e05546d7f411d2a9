// `impactset distance A.h5 B.h5`: how far apart two outcome sets are (model comparison,
// convergence studies): Hausdorff and one-sided distances between the point sets, and distances
// from each set's points to the other's convex hull.
#include <cstdio>
#include <iostream>

#include "apps/commands.hpp"
#include "apps/json_util.hpp"
#include "data/dataset.hpp"
#include "common/error_policy.hpp"
#include "sampling/sampler.hpp"
#include "setapprox/distances.hpp"

namespace impactset::app {

CLI::App* AddDistanceCommand(CLI::App* app, DistanceArgs* args) {
  auto* cmd = app->add_subcommand(
      "distance", "Hausdorff and one-sided distances between the sets of two dataset files");
  cmd->add_option("a", args->a, "first dataset (.h5)")->required()->check(CLI::ExistingFile);
  cmd->add_option("b", args->b, "second dataset (.h5)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--set", args->set, "post_impact or reachable")
      ->check(CLI::IsMember({"post_impact", "reachable"}))
      ->capture_default_str();
  cmd->add_option("--coords", args->coords, "contact or generalized")
      ->check(CLI::IsMember({"contact", "generalized"}))
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  return cmd;
}

namespace {

struct PointSource {
  MatrixXd points;     // d x N
  std::string what;    // "samples", "trajectories" or "net"
  double epsilon = 0;  // the points lie within epsilon of the set's samples (0 for samples)
};

// The file's best description of the set: every kept sample when there is one, else its net.
PointSource Points(const data::Dataset& d,
                   const std::string& file,
                   const std::string& set,
                   const std::string& coords) {
  const bool contact = coords == "contact";
  PointSource p;
  if (set == "post_impact" && d.samples) {
    std::vector<impact::SampleStatus> status;
    for (std::int32_t code : d.samples->status) status.push_back(impact::SampleStatusFromCode(code));
    p.points = sampling::TerminatedColumns(
        contact ? d.samples->contact_velocity : d.samples->v_plus, status);
    p.what = "terminated samples";
  } else if (set == "reachable" && d.reachable) {
    p.points = contact ? MatrixXd(d.problem.contact_jacobian * d.reachable->velocities)
                       : d.reachable->velocities;
    p.what = "trajectories";
  } else {
    for (const auto& s : d.sets) {
      if (s.set != set || s.coords != coords) continue;
      p.points = s.net.points;
      p.epsilon = s.net.epsilon;
      p.what = "net";
    }
    if (p.what.empty()) {
      InvalidArgument(file, set + "/" + coords,
                      "has neither kept samples nor a net of this set (rerun with --keep-samples "
                      "or without --no-sets)");
    }
  }
  if (p.points.cols() == 0) InvalidArgument(file, set + "/" + coords, "has no points");
  return p;
}

struct HullDistances {
  bool computed = false;
  std::string status;
  double max = 0;
  long long outside = 0;  // points farther than the tolerance from the hull
};

// Distances from the points of `from` to the convex hull of the points of `to`.
HullDistances ToHull(const PointSource& from, const PointSource& to) {
  HullDistances h;
  try {
    setapprox::ConvexHullOptions o;
    o.affine.relative_tolerance = 1e-6;  // as SetOptions::flatness_tolerance
    const setapprox::ConvexHull hull = setapprox::ComputeConvexHull(to.points, o);
    const setapprox::HullDistanceResult r = setapprox::DistanceToHull(hull, from.points);
    // Wolfe's projection stops at a relative 1e-9 or so: below that a point counts as inside.
    const double scale = 1 + to.points.cwiseAbs().maxCoeff();
    const double tolerance = hull.affine.max_residual + hull.distance_roundoff + 1e-9 * scale;
    h.computed = true;
    h.status = "computed";
    h.max = r.distance.maxCoeff();
    for (Eigen::Index k = 0; k < r.distance.size(); ++k) h.outside += r.distance(k) > tolerance;
  } catch (const std::runtime_error& e) {
    h.status = std::string("not computed: ") + e.what();
  }
  return h;
}

}  // namespace

int RunDistance(const DistanceArgs& args) {
  const data::Dataset da = data::ReadDataset(args.a);
  const data::Dataset db = data::ReadDataset(args.b);
  const PointSource a = Points(da, args.a, args.set, args.coords);
  const PointSource b = Points(db, args.b, args.set, args.coords);
  if (a.points.rows() != b.points.rows()) {
    InvalidArgument(args.b, b.points.rows(),
                    "has points of dimension other than " + std::to_string(a.points.rows()) + " (" +
                        args.a + "): not the same system");
  }
  const setapprox::HausdorffDistanceResult h = setapprox::HausdorffDistance(a.points, b.points);
  const HullDistances a_to_hull_b = ToHull(a, b);
  const HullDistances b_to_hull_a = ToHull(b, a);
  // Distances between the stored points; the sets' own distance differs by at most the radii of
  // the nets used in place of samples.
  const double slack = a.epsilon + b.epsilon;
  if (args.json) {
    auto hull_json = [](const HullDistances& d) {
      return nlohmann::json{{"status", d.status}, {"max", d.max}, {"outside", d.outside}};
    };
    nlohmann::json j;
    j["a"] = {
        {"file", args.a}, {"points", a.points.cols()}, {"from", a.what}, {"epsilon", a.epsilon}};
    j["b"] = {
        {"file", args.b}, {"points", b.points.cols()}, {"from", b.what}, {"epsilon", b.epsilon}};
    j["set"] = args.set;
    j["coords"] = args.coords;
    j["hausdorff"] = h.distance;
    j["a_to_b"] = h.a_to_b.distance;
    j["b_to_a"] = h.b_to_a.distance;
    j["net_slack"] = slack;
    j["a_to_hull_b"] = hull_json(a_to_hull_b);
    j["b_to_hull_a"] = hull_json(b_to_hull_a);
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  std::printf("%s set in %s coordinates\n", args.set.c_str(), args.coords.c_str());
  std::printf("A: %s, %lld %s\nB: %s, %lld %s\n", args.a.c_str(),
              static_cast<long long>(a.points.cols()), a.what.c_str(), args.b.c_str(),
              static_cast<long long>(b.points.cols()), b.what.c_str());
  std::printf("Hausdorff distance  %.6g\n", h.distance);
  std::printf("  h(A, B) = max over A of the distance to B  %.6g\n", h.a_to_b.distance);
  std::printf("  h(B, A) = max over B of the distance to A  %.6g\n", h.b_to_a.distance);
  if (slack > 0) {
    std::printf("(nets stand in for samples: the sets' distances may differ by up to %.3g)\n",
                slack);
  }
  auto print_hull = [](const char* label, const HullDistances& d) {
    if (!d.computed) {
      std::printf("%s: %s\n", label, d.status.c_str());
      return;
    }
    std::printf("%s: max %.6g, %lld points outside\n", label, d.max, d.outside);
  };
  print_hull("A to the hull of B", a_to_hull_b);
  print_hull("B to the hull of A", b_to_hull_a);
  return 0;
}

}  // namespace impactset::app
