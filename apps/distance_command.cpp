// `impactset distance A.h5 B.h5`: how far apart two outcome sets are (model comparison,
// convergence studies): Hausdorff and one-sided distances between the point sets, and distances
// from each set's points to the other's convex hull.
#include <cstdio>
#include <iostream>

#include <impactset/data/dataset.hpp>
#include <impactset/engine/set_distance.hpp>
#include "apps/commands.hpp"
#include "apps/json_util.hpp"

namespace impactset::app {

CLI::App* AddDistanceCommand(CLI::App* app, DistanceArgs* args) {
  auto* cmd = app->add_subcommand(
      "distance", "Hausdorff and one-sided distances between the sets of two dataset files");
  cmd->add_option("a", args->a, "first dataset (.h5)")->required()->check(CLI::ExistingFile);
  cmd->add_option("b", args->b, "second dataset (.h5)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--set", args->set, "post_impact or reachable")
      ->check(CLI::IsMember({"post_impact", "reachable"}))
      ->capture_default_str();
  cmd->add_option("--coords", args->coords,
                  "the output whose coordinates to compare in: contact, generalized, or the "
                  "name of an output the files hold (run --output)")
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  return cmd;
}

int RunDistance(const DistanceArgs& args) {
  const sets::SetKind set = sets::ParseSetKind(args.set);
  const engine::SetPoints a = engine::PointsOf(data::ReadDataset(args.a), set, args.coords, args.a);
  const engine::SetPoints b = engine::PointsOf(data::ReadDataset(args.b), set, args.coords, args.b);
  const engine::SetDistance d = engine::DistanceBetween(a, b);
  if (args.json) {
    auto hull_json = [](const engine::HullDistanceSummary& h) {
      return nlohmann::json{{"status", h.status}, {"max", h.max}, {"outside", h.outside}};
    };
    nlohmann::json j;
    j["a"] = {
        {"file", args.a}, {"points", a.points.cols()}, {"from", a.source}, {"epsilon", a.epsilon}};
    j["b"] = {
        {"file", args.b}, {"points", b.points.cols()}, {"from", b.source}, {"epsilon", b.epsilon}};
    j["set"] = args.set;
    j["coords"] = args.coords;
    j["hausdorff"] = d.hausdorff;
    j["a_to_b"] = d.a_to_b;
    j["b_to_a"] = d.b_to_a;
    j["net_slack"] = d.net_slack;
    j["support_gap"] = d.support_gap;
    j["support_source"] = d.support_source;
    j["a_to_hull_b"] = hull_json(d.a_to_hull_b);
    j["b_to_hull_a"] = hull_json(d.b_to_hull_a);
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  std::printf("%s set in %s coordinates\n", args.set.c_str(), args.coords.c_str());
  std::printf("A: %s, %lld %s\nB: %s, %lld %s\n", args.a.c_str(),
              static_cast<long long>(a.points.cols()), a.source.c_str(), args.b.c_str(),
              static_cast<long long>(b.points.cols()), b.source.c_str());
  std::printf("Hausdorff distance  %.6g\n", d.hausdorff);
  std::printf("  h(A, B) = max over A of the distance to B  %.6g\n", d.a_to_b);
  std::printf("  h(B, A) = max over B of the distance to A  %.6g\n", d.b_to_a);
  if (d.net_slack > 0) {
    std::printf("(nets stand in for samples: the sets' distances may differ by up to %.3g)\n",
                d.net_slack);
  }
  std::printf(
      "support-function gap %.6g (a lower bound on the distance between the convex "
      "hulls; %s)\n",
      d.support_gap, d.support_source.c_str());
  auto print_hull = [](const char* label, const engine::HullDistanceSummary& d) {
    if (!d.computed) {
      std::printf("%s: %s\n", label, d.status.c_str());
      return;
    }
    std::printf("%s: max %.6g, %lld points outside\n", label, d.max, d.outside);
  };
  print_hull("A to the hull of B", d.a_to_hull_b);
  print_hull("B to the hull of A", d.b_to_hull_a);
  return 0;
}

}  // namespace impactset::app
