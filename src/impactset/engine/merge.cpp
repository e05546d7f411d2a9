// Merge: the shards of one run joined into the result of a single run.
#include <algorithm>
#include <string>

#include <impactset/common/error_policy.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/option_table.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/sets/set_builder.hpp>

namespace impactset::engine {
namespace {

bool SameOutputs(const std::vector<sets::OutputMap>& a, const std::vector<sets::OutputMap>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || a[i].kind != b[i].kind || a[i].C != b[i].C) return false;
  }
  return true;
}

// Everything that must agree between the shards of one run.
void RequireSameRun(const RunResult& a, const RunResult& b) {
  const std::string which = "shard " + std::to_string(b.options.sampler.shard_index);
  auto check = [&](bool same, const char* what) {
    if (!same) InvalidArgument(which, what, "differs from the first shard: not the same run");
  };
  check(a.system == b.system, "system");
  if (const OptionField* f = FirstDifference(a.options, b.options)) check(false, f->name.data());
  check(a.options.sampler.shard_count == b.options.sampler.shard_count, "shard_count");
  const impact::ImpactProblem &p = a.problem, &q = b.problem;
  check(p.M() == q.M() && p.Jn() == q.Jn() && p.D() == q.D() && p.mu() == q.mu() &&
            p.v_minus() == q.v_minus(),
        "problem");
  check(a.sets.size() == b.sets.size(), "presence of /net");
  if (!a.sets.empty()) {
    check(SameOutputs(a.options.set_options.outputs, b.options.set_options.outputs),
          "outputs (/outputs)");
  }
}

// Sorts by shard index and checks that the shards are exactly 0 .. n-1, without gaps.
void RequireAllShards(std::vector<RunResult>* shards) {
  if (shards->empty()) InvalidArgument("shards", 0, "must hold at least one shard");
  std::sort(shards->begin(), shards->end(), [](const RunResult& a, const RunResult& b) {
    return a.options.sampler.shard_index < b.options.sampler.shard_index;
  });
  for (size_t i = 1; i < shards->size(); ++i) {
    RequireSameRun((*shards)[0], (*shards)[i]);
    if ((*shards)[i].options.sampler.shard_index == (*shards)[i - 1].options.sampler.shard_index) {
      InvalidArgument("shard_index", (*shards)[i].options.sampler.shard_index, "appears twice");
    }
  }
  const int count = (*shards)[0].options.sampler.shard_count;
  if (static_cast<int>(shards->size()) != count) {
    InvalidArgument("shards", shards->size(),
                    "must be all " + std::to_string(count) + " shards of the run");
  }
  long long next = 0;
  for (const RunResult& s : *shards) {
    if (s.first_sample != next) {
      InvalidArgument("shard " + std::to_string(s.options.sampler.shard_index) + " first_sample",
                      s.first_sample, "does not follow the previous shard");
    }
    next += s.count;
  }
}

// The union of the shards' nets of one set: within the largest shard epsilon of every point.
// `polish`: the polish's set of this output (nullptr: none), joined like one more shard.
sets::NetResult UnionOfShardNets(const std::vector<RunResult>& shards,
                                 sets::SetKind set,
                                 const std::string& output,
                                 const sets::PointSet* polish = nullptr) {
  sets::NetResult net;
  net.construction = sets::NetConstruction::kUnionOfShardNets;
  std::vector<const sets::PointSet*> parts;
  for (const RunResult& shard : shards) parts.push_back(shard.Find(set, output));
  parts.push_back(polish);
  for (const sets::PointSet* s : parts) {
    if (!s) continue;
    if (net.points.cols() == 0) net.points.resize(s->net.points.rows(), 0);
    net.points.conservativeResize(net.points.rows(), net.points.cols() + s->net.points.cols());
    net.points.rightCols(s->net.points.cols()) = s->net.points;
    net.offered += s->net.offered;
    net.epsilon = std::max(net.epsilon, s->net.epsilon);  // each shard covers its own points
    net.coarsenings = std::max(net.coarsenings, s->net.coarsenings);
  }
  net.separation = 0;  // points of different shards may be arbitrarily close
  return net;
}

// The shards' support polytopes of one set, merged exactly (empty when a shard has none).
sets::SupportResult MergedSupport(const std::vector<RunResult>& shards,
                                  sets::SetKind set,
                                  const std::string& output) {
  sets::SupportResult out;
  for (const RunResult& shard : shards) {
    const sets::PointSet* s = shard.Find(set, output);
    if (!s || s->support.directions.size() == 0) return sets::SupportResult{};
    out = out.directions.size() == 0 ? s->support : sets::MergeSupport(out, s->support);
  }
  return out;
}

// The starts of a polish of the merged run: the samples attaining each output's merged
// post-impact support values, in the order of the outputs.
std::vector<std::vector<long long>> PolishStarts(const std::vector<RunResult>& shards,
                                                 const std::vector<sets::OutputMap>& outputs,
                                                 long long samples) {
  std::vector<std::vector<long long>> starts;
  for (const sets::OutputMap& o : outputs) {
    starts.emplace_back();
    const sets::SupportResult s = MergedSupport(shards, sets::SetKind::kPostImpact, o.name);
    for (const std::int64_t k : s.attaining_samples) {
      if (k >= 0 && k < samples) starts.back().push_back(k);
    }
  }
  return starts;
}

// A union of shards polished as a whole run is: the polish's own set joins the union like one
// more shard, and the extent statement's first part is every run sample and the polish's first
// halves.
void JoinPolish(const sets::PointSet& polish, sets::SupportResult* support) {
  sets::SupportResult joined = sets::MergeSupport(*support, polish.support);
  if (polish.support.first_half_end > 0 && support->values.size() > 0) {
    joined.first_half_values = support->values.cwiseMax(polish.support.first_half_values);
    joined.first_half_end = polish.support.first_half_end;
  }
  *support = std::move(joined);
}

// Nets are greedy in sample order, so they are rebuilt exactly from kept samples; otherwise the
// union of the shard nets. Either way the merged run is polished as a whole run is (Run), and
// coverage is recomputed with the run's options.
std::vector<sets::PointSet> MergeSets(const RunResult& merged,
                                      const std::vector<RunResult>& shards) {
  const sets::SetOptions& options = merged.options.set_options;
  const sampling::SamplerOptions& run = merged.options.sampler;
  const bool polish = Polishes(merged.options);
  sets::SetBuilder builder(merged.problem, options, run);
  if (run.keep_samples) {
    builder.ConsumePostImpact(merged.samples->v_plus, merged.samples->status, merged.first_sample);
    if (polish) builder.Polish(run, options.polish);
  }
  if (run.keep_trajectories) {
    builder.ConsumeReachable(merged.samples->trajectories, merged.samples->trajectory_offsets,
                             merged.first_sample, &merged.samples->status);
  }
  std::vector<sets::PointSet> polished;  // the polish's sets, when the nets are a union
  if (polish && !run.keep_samples) {
    sets::SetBuilder alone(merged.problem, options, run);
    // No start (no terminated sample): nothing polished, and the shards' statement stands.
    if (alone.Polish(run, options.polish, PolishStarts(shards, merged.Outputs(), run.samples)) > 0)
      polished = alone.Sets(run.threads);
  }
  std::vector<sets::PointSet> sets = builder.Sets(run.threads);
  for (sets::PointSet& s : sets) {
    const bool exact =
        s.set == sets::SetKind::kPostImpact ? run.keep_samples : run.keep_trajectories;
    if (exact) continue;
    s.support = MergedSupport(shards, s.set, s.output);
    const sets::PointSet* p = nullptr;
    for (const sets::PointSet& q : polished) {
      if (q.set == s.set && q.output == s.output) p = &q;
    }
    if (p) JoinPolish(*p, &s.support);
    s.net = UnionOfShardNets(shards, s.set, s.output, p);
    s.hull = sets::HullOfNet(s.net, options);
  }
  sampling::SamplerOptions holdout_run = run;
  holdout_run.threads = 0;
  sets::AddCoverage(merged.problem, merged.Outputs(), builder.epsilons(), holdout_run, options,
                    merged.count, &sets);
  return sets;
}

}  // namespace

RunResult Merge(std::vector<RunResult> shards) {
  RequireAllShards(&shards);
  const RunResult& first = shards.front();
  RunResult merged{.system = first.system, .problem = first.problem, .options = first.options};
  merged.options.sampler.shard_index = 0;
  merged.options.sampler.shard_count = 1;
  merged.count = first.options.sampler.samples;
  merged.summary =
      sampling::SampleSummary(static_cast<int>(first.problem.ContactJacobian().rows()));
  if (first.samples) merged.samples = sampling::SampleArrays{};
  for (const RunResult& s : shards) {
    merged.threads_used = std::max(merged.threads_used, s.threads_used);
    merged.seconds += s.seconds;
    merged.summary.Merge(s.summary);
    if (merged.samples) merged.samples->Append(*s.samples);
  }
  merged.version = first.version;
  merged.git_revision = first.git_revision;
  merged.created = UtcNow();
  if (!first.sets.empty()) merged.sets = MergeSets(merged, shards);
  return merged;
}

}  // namespace impactset::engine
