#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>

#include "apps/commands.hpp"
#include "apps/dataset_io.hpp"
#include "apps/set_outputs.hpp"
#include "lcp/error_policy.hpp"

namespace impactset::app {

CLI::App* AddMergeCommand(CLI::App* app, MergeArgs* args) {
  auto* cmd = app->add_subcommand(
      "merge", "join the shard files of one run into the file a single run writes");
  cmd->add_option("inputs", args->inputs, "shard files (any order)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", args->out, "output HDF5 file")->required();
  cmd->add_flag("--json", args->json, "print one JSON object on stdout");
  return cmd;
}

namespace {
// Everything that must agree between the shards of one run.
void RequireSame(const data::Dataset& a, const data::Dataset& b, const std::string& file) {
  auto check = [&](bool same, const char* what) {
    if (!same) InvalidArgument(file, what, "differs from the first shard: not the same run");
  };
  check(a.run.system == b.run.system, "system");
  check(a.run.seed == b.run.seed, "seed");
  check(a.run.design == b.run.design, "design");
  check(a.run.h == b.run.h, "h");
  check(a.run.max_steps == b.run.max_steps, "max_steps");
  check(a.run.samples == b.run.samples, "samples");
  check(a.run.lcp == b.run.lcp, "lcp");
  check(a.run.selection == b.run.selection, "selection");
  check(a.run.shard_count == b.run.shard_count, "shard_count");
  check(a.problem.M == b.problem.M && a.problem.Jn == b.problem.Jn && a.problem.D == b.problem.D &&
            a.problem.mu == b.problem.mu && a.problem.v_minus == b.problem.v_minus,
        "problem");
  check(a.samples.has_value() == b.samples.has_value(), "presence of /samples");
  check(a.reachable.has_value() == b.reachable.has_value(), "presence of /reachable");
  check(a.sets.size() == b.sets.size(), "presence of /net");
  if (!a.sets.empty()) {
    const data::SetSettings &x = a.set_settings, &y = b.set_settings;
    check(x.epsilon == y.epsilon && x.delta == y.delta && x.lipschitz == y.lipschitz &&
              x.holdout == y.holdout && x.hull_max_dimension == y.hull_max_dimension &&
              x.reachable == y.reachable && x.flatness_tolerance == y.flatness_tolerance &&
              x.max_net_points == y.max_net_points,
          "set options (/net attributes)");
  }
}

// The sets of the merged run. A net is greedy in sample order, so it is rebuilt exactly from
// the kept samples (/samples for the post-impact sets, /reachable for the reachable sets): then
// the merged file has the nets a single run would have written. Without them, the net is the
// union of the shard nets: still within epsilon of every sample, but not the single run's net.
std::vector<data::PointSetArrays> MergeSets(
    const data::Dataset& out,
    const std::map<std::int64_t, std::pair<std::string, data::Dataset>>& shards) {
  const data::Dataset& first = shards.begin()->second.second;
  const data::ProblemArrays& pa = first.problem;
  const impact::ImpactProblem problem(pa.M, pa.Jn, pa.D, pa.mu, pa.v_minus, static_cast<int>(pa.k));
  const SetOptions options = FromSettings(first.set_settings);
  SetBuilder builder(problem, options);
  if (out.samples) builder.ConsumePostImpact(out.samples->v_plus, out.samples->status);
  if (out.reachable) builder.ConsumeReachable(out.reachable->velocities);
  std::vector<data::PointSetArrays> sets = builder.Sets();
  for (data::PointSetArrays& s : sets) {
    const bool exact = s.set == "post_impact" ? out.samples.has_value() : out.reachable.has_value();
    if (exact) continue;
    MatrixXd points(s.net.points.rows(), 0);
    std::int64_t offered = 0, coarsenings = 0;
    double epsilon = 0;
    for (const auto& [index, entry] : shards) {
      for (const data::PointSetArrays& t : entry.second.sets) {
        if (t.set != s.set || t.coords != s.coords) continue;
        points.conservativeResize(points.rows(), points.cols() + t.net.points.cols());
        points.rightCols(t.net.points.cols()) = t.net.points;
        offered += t.net.offered;
        epsilon = std::max(epsilon, t.net.epsilon);  // each shard covers its own points
        coarsenings = std::max(coarsenings, t.net.coarsenings);
      }
    }
    s.net.points = points;
    s.net.offered = offered;
    s.net.construction = "union of shard nets";
    s.net.epsilon = epsilon;
    s.net.separation = 0;  // points of different shards may be arbitrarily close
    s.net.coarsenings = coarsenings;
    s.hull = HullOfPoints(points, options);
  }
  sampling::SamplerOptions run;
  run.seed = first.run.seed;
  run.design = sampling::ParseDesign(first.run.design);
  run.algorithm.step = first.run.h;
  run.algorithm.max_steps = static_cast<int>(first.run.max_steps);
  run.algorithm.selection =
      first.run.selection == "first" ? impact::Selection::kFirst : impact::Selection::kRandom;
  run.samples = first.run.samples;
  run.lcp = first.run.lcp;
  run.threads = 0;
  AddCoverage(problem, run, options, first.set_settings.epsilon, &sets);
  return sets;
}
}  // namespace

int RunMerge(const MergeArgs& args) {
  std::map<std::int64_t, std::pair<std::string, data::Dataset>> shards;
  for (const std::string& f : args.inputs) {
    data::Dataset d = data::ReadDataset(f);
    if (!shards.empty()) RequireSame(shards.begin()->second.second, d, f);
    if (!shards.emplace(d.run.shard_index, std::make_pair(f, std::move(d))).second) {
      InvalidArgument(f, "shard_index", "appears twice");
    }
  }
  const data::Dataset& first = shards.begin()->second.second;
  const std::int64_t count = first.run.shard_count;
  if (static_cast<std::int64_t>(shards.size()) != count) {
    InvalidArgument("inputs", shards.size(),
                    "must be all " + std::to_string(count) + " shards of the run");
  }
  data::Dataset out = first;
  out.run.shard_index = 0;
  out.run.shard_count = 1;
  out.run.first_sample = 0;
  out.run.sample_count = first.run.samples;
  out.run.created = UtcNow();
  sampling::SampleSummary summary(static_cast<int>(first.summary.contact_velocity_min.size()));
  const int n = static_cast<int>(first.problem.M.rows());
  const int c = static_cast<int>(first.problem.contact_jacobian.rows());
  if (out.samples)
    *out.samples = data::SampleArrays{MatrixXd(n, 0), MatrixXd(c, 0), {}, {}, {}, {}};
  if (out.reachable) *out.reachable = data::ReachableArrays{MatrixXd(n, 0), {0}};
  std::int64_t next = 0;
  for (auto& [index, entry] : shards) {
    const data::Dataset& d = entry.second;
    if (d.run.first_sample != next) {
      InvalidArgument(entry.first, d.run.first_sample,
                      "first_sample does not follow the previous shard");
    }
    next += d.run.sample_count;
    out.run.threads = std::max(out.run.threads, d.run.threads);
    summary.Merge(ToSummary(d.summary));
    if (out.samples) {
      auto& a = *out.samples;
      const auto& b = *d.samples;
      a.v_plus.conservativeResize(n, a.v_plus.cols() + b.v_plus.cols());
      a.v_plus.rightCols(b.v_plus.cols()) = b.v_plus;
      a.contact_velocity.conservativeResize(c,
                                            a.contact_velocity.cols() + b.contact_velocity.cols());
      a.contact_velocity.rightCols(b.contact_velocity.cols()) = b.contact_velocity;
      a.lcp_solves.insert(a.lcp_solves.end(), b.lcp_solves.begin(), b.lcp_solves.end());
      a.status.insert(a.status.end(), b.status.begin(), b.status.end());
      a.energy_ratio.insert(a.energy_ratio.end(), b.energy_ratio.begin(), b.energy_ratio.end());
      a.non_unique.insert(a.non_unique.end(), b.non_unique.begin(), b.non_unique.end());
    }
    if (out.reachable) {
      auto& a = *out.reachable;
      const auto& b = *d.reachable;
      const std::int64_t base = a.offsets.back();
      a.velocities.conservativeResize(n, a.velocities.cols() + b.velocities.cols());
      a.velocities.rightCols(b.velocities.cols()) = b.velocities;
      for (size_t k = 1; k < b.offsets.size(); ++k) a.offsets.push_back(base + b.offsets[k]);
    }
  }
  out.summary = FromSummary(summary);
  if (!first.sets.empty()) out.sets = MergeSets(out, shards);
  data::WriteDataset(args.out, out);
  if (args.json) {
    std::cout << "{\"out\": \"" << args.out << "\", \"samples\": " << summary.samples
              << ", \"shards\": " << count << "}\n";
  } else {
    std::printf("merged %lld shards, %lld samples into %s\n", static_cast<long long>(count),
                summary.samples, args.out.c_str());
  }
  return 0;
}

}  // namespace impactset::app
