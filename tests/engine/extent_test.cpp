// What a run's sets claim (docs/coverage.md): the default design reaches farther than iid, the
// extent statement says when a run is too short, the stored hulls hold every terminated sample of
// every shipped system, and each output's default radius resolves its set.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/catalog/system_catalog.hpp>
#include <impactset/engine/merge.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/engine/set_distance.hpp>
#include <impactset/engine/step_scaling.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/sampling/sampler.hpp>
#include <impactset/sets/output_map.hpp>

namespace impactset::engine {
namespace {

// Points of a set lie in its stored hull up to roundoff of the hull's own arithmetic: Qhull's
// facets and the projections onto the affine hull carry relative errors near 1e-12 of the
// coordinates' scale; 1e-9 of it leaves room and is far below any net radius (1e-2 of the width).
constexpr double kContainsRelativeTolerance = 1e-9;

RunOptions Options(const systems::LoadedProblem& lp, long long samples) {
  RunOptions o = ProblemRunOptions(lp);
  o.sampler.samples = samples;
  o.set_options.holdout = 0;
  return o;
}

// The run of these options split into 3 shards, each run on its own.
std::vector<RunResult> ThreeShards(const systems::LoadedProblem& lp,
                                   const RunOptions& o,
                                   const std::string& name) {
  std::vector<RunResult> shards;
  for (int i = 0; i < 3; ++i) {
    RunOptions s = o;
    s.sampler.shard_index = i;
    s.sampler.shard_count = 3;
    shards.push_back(engine::Run(lp.problem, s, name));
  }
  return shards;
}

// The range (max - min) of each coordinate of the post-impact set in an output.
VectorXd Widths(const RunResult& r, const std::string& output) {
  const sets::PointSet* s = r.Find(sets::SetKind::kPostImpact, output);
  EXPECT_NE(s, nullptr);
  const VectorXd& h = s->support.values;
  const Eigen::Index d = s->support.directions.rows();
  VectorXd w(d);
  for (Eigen::Index i = 0; i < d; ++i) w(i) = h(2 * i) + h(2 * i + 1);  // axes come first
  return w;
}

// The default design reaches the extremes that iid caps miss: on a cube landing flat (four
// contacts) and the 3-D rocking block, a default-design run of K samples (without the polish)
// spans at least the range of an iid run of 4K in every coordinate. An iid default fails this (it
// spans about 30 % of the range the ordered samples reach on the cube).
TEST(Extent, TheDefaultDesignReachesFartherThanIid) {
  for (const char* name : {"cube-flat", "rocking-block-3d"}) {
    SCOPED_TRACE(name);
    const systems::LoadedProblem lp = catalog::LoadSystem(name);
    RunOptions def = Options(lp, 4096);
    RunOptions iid = Options(lp, 4 * 4096);
    iid.sampler.design = sampling::Design::kIid;
    def.set_options.polish = iid.set_options.polish = 0;  // the designs alone (Polish.* below)
    ASSERT_EQ(def.sampler.design, sampling::Design::kMixed);
    const RunResult a = engine::Run(lp.problem, def, name);
    const RunResult b = engine::Run(lp.problem, iid, name);
    for (const char* output : {"contact", "generalized"}) {
      SCOPED_TRACE(output);
      const VectorXd wa = Widths(a, output), wb = Widths(b, output);
      const double flat = 1e-6 * wb.maxCoeff();  // coordinates flat up to roundoff
      for (Eigen::Index i = 0; i < wa.size(); ++i) {
        if (wb(i) > flat) {
          EXPECT_GE(wa(i), wb(i)) << "coordinate " << i;
        }
      }
    }
  }
}

// A deliberately short iid run of the cube without a polish says its extent has not converged
// (the halves of its samples); a default run of the planar rocking block (two contacts, a set the
// ordered samples span at once) says it has, from its polish's second half.
TEST(Extent, AShortRunSaysNotConverged) {
  const systems::LoadedProblem cube = catalog::LoadSystem("cube-flat");
  RunOptions shortrun = Options(cube, 64);
  shortrun.sampler.design = sampling::Design::kIid;
  shortrun.set_options.polish = 0;
  const RunResult s = engine::Run(cube.problem, shortrun, "cube-flat");
  for (const sets::PointSet& set : s.sets) {
    if (set.set != sets::SetKind::kPostImpact) continue;
    ASSERT_TRUE(set.coverage && set.coverage->extent);
    EXPECT_FALSE(set.coverage->extent_converged) << set.output;
    EXPECT_GT(set.coverage->extent_moved, sets::kExtentConvergedFraction);
    EXPECT_EQ(set.coverage->extent_statement.rfind("extent not converged", 0), 0u);
    EXPECT_EQ(set.support.first_half_end, 32);
  }
  const systems::LoadedProblem block = catalog::LoadSystem("rocking-block");
  const RunResult l = engine::Run(block.problem, Options(block, 16384), "rocking-block");
  for (const sets::PointSet& set : l.sets) {
    if (set.set != sets::SetKind::kPostImpact) continue;
    ASSERT_TRUE(set.coverage && set.coverage->extent);
    EXPECT_TRUE(set.coverage->extent_converged) << set.coverage->extent_statement;
    EXPECT_EQ(set.coverage->extent_statement.rfind("extent converged", 0), 0u);
    EXPECT_NE(set.coverage->extent_statement.find("second half of the polish"), std::string::npos);
    EXPECT_EQ(set.support.first_half_end, 16384 + sets::kDefaultPolish / 2);  // first halves
  }
}

// The polish reaches the ends of a set that the run's own samples miss: on the 3-D rocking block
// (four contacts on an edge-free face) a default run of 4096 samples spans at least 99 % of each
// contact coordinate's range in a directed run of 4 x 4096, while the same run without the polish
// falls short of that on some coordinate (so disabling the polish fails this test).
TEST(Polish, ReachesTheEndsTheSamplesMiss) {
  const systems::LoadedProblem lp = catalog::LoadSystem("rocking-block-3d");
  const RunOptions def = Options(lp, 4096);
  RunOptions plain = def, directed = Options(lp, 4 * 4096);
  plain.set_options.polish = 0;
  directed.sampler.design = sampling::Design::kDirected;
  ASSERT_GT(def.set_options.polish, 0);
  const VectorXd wd = Widths(engine::Run(lp.problem, def, "rbd"), "contact");
  const VectorXd wp = Widths(engine::Run(lp.problem, plain, "rbd"), "contact");
  const VectorXd wr = Widths(engine::Run(lp.problem, directed, "rbd"), "contact");
  const double flat = 1e-6 * wr.maxCoeff();
  double plain_least = 1, polished_least = 1;  // the smallest reach over the coordinates
  for (Eigen::Index i = 0; i < wr.size(); ++i) {
    if (wr(i) <= flat) continue;
    polished_least = std::min(polished_least, wd(i) / wr(i));
    plain_least = std::min(plain_least, wp(i) / wr(i));
  }
  EXPECT_GE(polished_least, 0.99);
  EXPECT_LT(plain_least, 0.99);
}

// The polish is a function of the run: the same at any thread count, and a merge of shards
// (nets rebuilt from kept samples, or the union of the shards' nets) polishes exactly as the
// whole run does, so the support values and the extent statement agree bit for bit.
TEST(Polish, ShardsAndThreadsPolishAlike) {
  const systems::LoadedProblem lp = catalog::LoadSystem("cube-edge");
  for (const bool keep : {false, true}) {
    SCOPED_TRACE(keep ? "kept samples" : "union of shard nets");
    RunOptions o = Options(lp, 1500);
    o.set_options.polish = 600;
    o.sampler.keep_samples = keep;
    o.sampler.threads = 1;
    const RunResult whole = engine::Run(lp.problem, o, "cube-edge");
    RunOptions two = o;
    two.sampler.threads = 2;
    const RunResult threaded = engine::Run(lp.problem, two, "cube-edge");
    std::vector<RunResult> shards = ThreeShards(lp, o, "cube-edge");
    for (const RunResult& shard : shards) {
      for (const sets::PointSet& set : shard.sets) {  // a shard alone is not polished
        EXPECT_LE(set.support.first_half_end, 750);
      }
    }
    const RunResult merged = Merge(std::move(shards));
    for (const sets::PointSet& a : whole.sets) {
      if (a.set != sets::SetKind::kPostImpact) continue;
      SCOPED_TRACE(a.output);
      EXPECT_EQ(a.support.first_half_end, 1500 + 300 / 2 * 2);  // 300 per output, first halves
      for (const RunResult* other : {&threaded, &merged}) {
        const sets::PointSet* b = other->Find(a.set, a.output);
        ASSERT_NE(b, nullptr);
        EXPECT_EQ(a.support.values, b->support.values);
        EXPECT_EQ(a.support.first_half_values, b->support.first_half_values);
        ASSERT_TRUE(a.coverage && b->coverage);
        EXPECT_EQ(a.coverage->extent_statement, b->coverage->extent_statement);
      }
    }
  }
}

// The first half's support values merge exactly across shards: the merged run states the
// extent of the whole run.
TEST(Extent, ShardsMergeToTheWholeRunsStatement) {
  const systems::LoadedProblem lp = catalog::LoadSystem("compass-gait");
  RunOptions o = Options(lp, 3000);
  o.sampler.threads = 1;
  const RunResult whole = engine::Run(lp.problem, o, "compass-gait");
  const RunResult merged = Merge(ThreeShards(lp, o, "compass-gait"));
  for (const sets::PointSet& a : whole.sets) {
    if (a.set != sets::SetKind::kPostImpact) continue;
    const sets::PointSet* b = merged.Find(a.set, a.output);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(a.support.first_half_values, b->support.first_half_values);
    ASSERT_TRUE(a.coverage && b->coverage);
    EXPECT_EQ(a.coverage->extent_moved, b->coverage->extent_moved);
    EXPECT_EQ(a.coverage->extent_statement, b->coverage->extent_statement);
  }
}

// Every terminated sample lies in the stored hull of its set, on every shipped system and in
// every output (com for the MuJoCo scenes too). A hull of the net points alone fails this.
TEST(Hulls, HoldEveryTerminatedSampleOfEveryShippedSystem) {
  int checked = 0;  // hulls tested (a disk stack's sets exceed the hull dimension cap)
  for (const catalog::SystemInfo& info : catalog::Systems()) {
    SCOPED_TRACE(info.name);
    const systems::LoadedProblem lp = catalog::LoadSystem(info.name);
    RunOptions o = Options(lp, 2048);
    o.sampler.keep_samples = true;
    if (robots::IsMujocoScene(info.name)) {
      const robots::MujocoProblem q = robots::LoadMujocoScene(info.name);
      o.set_options.outputs =
          sets::ParseOutputs({"contact", "generalized", "com"}, q.loaded.problem, &q);
    }
    const RunResult r = engine::Run(lp.problem, o, info.name);
    ASSERT_TRUE(r.samples);
    for (const sets::OutputMap& output : r.Outputs()) {
      const sets::PointSet* s = r.Find(sets::SetKind::kPostImpact, output.name);
      ASSERT_NE(s, nullptr);
      if (s->hull.status != sets::HullStatus::kComputed) continue;
      const MatrixXd y =
          sampling::TerminatedColumns(output.Apply(r.samples->v_plus), r.samples->status);
      const double scale = 1 + y.cwiseAbs().maxCoeff();
      const std::vector<bool> in = HullContains(s->hull, y, kContainsRelativeTolerance * scale);
      long long outside = 0;
      for (bool b : in) outside += b ? 0 : 1;
      EXPECT_EQ(outside, 0) << output.name << ": " << outside << " of " << y.cols()
                            << " samples outside (margin " << s->hull.margin << ")";
      EXPECT_EQ(s->hull.margin, s->net.epsilon + s->hull.thinning_radius);
      ++checked;
    }
  }
  EXPECT_GE(checked, 2 * static_cast<int>(catalog::Systems().size()) - 4);
}

// Each output's default radius is 1 % of its set's width: a narrow com set gets a net that shows
// its shape (tens of points), not the one or three points a radius made for contact speeds gave.
TEST(Radius, EachNetResolvesItsOwnSet) {
  const robots::MujocoProblem q = robots::LoadMujocoScene("planar-hopper");
  RunOptions o = Options(q.loaded, 8192);
  o.set_options.outputs =
      sets::ParseOutputs({"contact", "generalized", "com"}, q.loaded.problem, &q);
  const RunResult r = engine::Run(q.loaded.problem, o, "planar-hopper");
  for (const sets::PointSet& s : r.sets) {
    if (s.set != sets::SetKind::kPostImpact) continue;
    SCOPED_TRACE(s.output);
    const double width = Widths(r, s.output).maxCoeff();
    ASSERT_GT(width, 0);
    EXPECT_LT(s.net.epsilon, 0.05 * width);
    EXPECT_GE(s.net.points.cols(), 10);
  }
}

}  // namespace
}  // namespace impactset::engine
