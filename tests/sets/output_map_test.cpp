// Output maps (sets/output_map.hpp, robots/model_outputs.hpp): sets built in the coordinates of
// y = C v, checked against the kept samples mapped by hand; several outputs stored and read back;
// merge of shards equal to the single run; every refusal with its message.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/merge.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/engine/set_distance.hpp>
#include <impactset/engine/step_scaling.hpp>
#include <impactset/robots/model_outputs.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/sampling/sampler.hpp>
#include <impactset/sets/output_map.hpp>
#include <impactset/systems/builtin.hpp>
#include "test_util.hpp"

namespace impactset::engine {
namespace {

using testing::ThrowsNaming;

// The cube's subtree centre of mass is its body origin up to MuJoCo's round-off in placing the
// inertial frame: the com map differs from [I 0] by that little.
constexpr double kComOffsetTolerance = 1e-12;
// y = C v computed over a block of other width (the sampler's blocks against all samples at
// once) may round differently in the last bits.
constexpr double kProductRoundoff = 1e-14;

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("impactset-outputs-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string File(const std::string& name, const std::string& text) const {
    const std::string p = (path / name).string();
    std::ofstream(p) << text;
    return p;
  }
};

RunOptions SmallRun(const systems::LoadedProblem& lp, long long samples) {
  RunOptions o = ScaledRunOptions(lp.problem, lp.settings);
  o.sampler.samples = samples;
  o.sampler.threads = 2;
  o.sampler.keep_samples = true;
  o.set_options.holdout = 256;
  o.set_options.polish = 0;  // the sets of the mapped samples alone, compared below
  return o;
}

// Two sets bit for bit (nets, hulls, support polytopes, coverage).
void ExpectSameSet(const sets::PointSet& a, const sets::PointSet& b) {
  EXPECT_EQ(a.set, b.set);
  EXPECT_TRUE(a.net.points == b.net.points);  // bitwise (EXPECT_TRUE: no matrix dump)
  EXPECT_EQ(a.net.epsilon, b.net.epsilon);
  EXPECT_EQ(a.net.offered, b.net.offered);
  EXPECT_EQ(a.hull.status, b.hull.status);
  EXPECT_TRUE(a.hull.vertices == b.hull.vertices);
  EXPECT_EQ(a.hull.volume, b.hull.volume);
  EXPECT_TRUE(a.support.values == b.support.values);
  EXPECT_EQ(a.support.attaining_samples, b.support.attaining_samples);
  ASSERT_EQ(a.coverage.has_value(), b.coverage.has_value());
  if (a.coverage) {
    EXPECT_EQ(a.coverage->missed, b.coverage->missed);
  }
}

void ExpectSameSets(const RunResult& a, const RunResult& b) {
  ASSERT_EQ(a.sets.size(), b.sets.size());
  ASSERT_FALSE(a.sets.empty());
  for (size_t i = 0; i < a.sets.size(); ++i) {
    SCOPED_TRACE(std::string(ToString(a.sets[i].set)) + "/" + a.sets[i].output);
    EXPECT_EQ(a.sets[i].output, b.sets[i].output);
    ExpectSameSet(a.sets[i], b.sets[i]);
  }
}

TEST(OutputMaps, CubeComIsTheLinearVelocityOfEverySample) {
  const robots::MujocoProblem cube = robots::LoadMujocoScene("cube-flat");
  const systems::LoadedProblem& lp = cube.loaded;
  RunOptions o = SmallRun(lp, 1024);
  o.set_options.outputs = sets::ParseOutputs({"com", "base"}, lp.problem, &cube);
  const RunResult r = engine::Run(lp.problem, o, "cube-flat");
  ASSERT_GT(r.summary.terminated, 0);

  const sets::OutputMap& com = r.options.set_options.outputs[0];
  EXPECT_LE((com.C.leftCols(3) - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff(),
            kComOffsetTolerance);
  EXPECT_LE(com.C.rightCols(3).cwiseAbs().maxCoeff(), kComOffsetTolerance);
  const MatrixXd linear =
      sampling::TerminatedColumns(r.samples->v_plus, r.samples->status).topRows(3);
  const SetPoints points = PointsOf(r, sets::SetKind::kPostImpact, "com", "cube");
  ASSERT_EQ(points.points.cols(), linear.cols());
  EXPECT_LE((points.points - linear).cwiseAbs().maxCoeff(),
            kComOffsetTolerance * r.samples->v_plus.cwiseAbs().maxCoeff());
  // The base twist is the free joint's six velocities: v+ itself (the cube's only joint).
  const SetPoints base = PointsOf(r, sets::SetKind::kPostImpact, "base", "cube");
  EXPECT_EQ(base.points, sampling::TerminatedColumns(r.samples->v_plus, r.samples->status));

  // The sets are those of the mapped samples: the support box is their componentwise extremes,
  // and every net point is one of them.
  const sets::PointSet* set = r.Find(sets::SetKind::kPostImpact, "com");
  ASSERT_NE(set, nullptr);
  for (Eigen::Index i = 0; i < 3; ++i) {
    EXPECT_NEAR(set->support.values(2 * i), points.points.row(i).maxCoeff(), kProductRoundoff);
    EXPECT_NEAR(-set->support.values(2 * i + 1), points.points.row(i).minCoeff(), kProductRoundoff);
  }
  ASSERT_GT(set->net.points.cols(), 0);
  for (Eigen::Index k = 0; k < set->net.points.cols(); ++k) {
    EXPECT_LE((points.points.colwise() - set->net.points.col(k)).colwise().norm().minCoeff(),
              kProductRoundoff);
  }
  EXPECT_EQ(r.Find(sets::SetKind::kReachable, "base"), nullptr);      // reachable sets: on request
  EXPECT_EQ(r.Find(sets::SetKind::kPostImpact, "contact"), nullptr);  // only the outputs asked for
}

TEST(OutputMaps, IdentityMatrixFileGivesTheGeneralizedSetsBitForBit) {
  const TempDir dir;
  const systems::LoadedProblem lp = systems::LoadBuiltin("rocking-block");
  const std::string file = dir.File("identity.csv", "# C = I\n1, 0, 0\n0,1,0\n\n0, 0, 1\n");
  RunOptions o = SmallRun(lp, 2048);
  o.sampler.keep_trajectories = true;
  o.set_options.reachable = true;
  o.set_options.outputs = sets::ParseOutputs({"generalized", "matrix:" + file}, lp.problem);
  ASSERT_EQ(o.set_options.outputs[1].name, "matrix:identity");
  EXPECT_EQ(o.set_options.outputs[1].kind, sets::Coordinates::kMap);
  const RunResult r = engine::Run(lp.problem, o, "rocking-block");
  for (sets::SetKind kind : {sets::SetKind::kPostImpact, sets::SetKind::kReachable}) {
    SCOPED_TRACE(ToString(kind));
    const sets::PointSet* g = r.Find(kind, "generalized");
    const sets::PointSet* m = r.Find(kind, "matrix:identity");
    ASSERT_NE(g, nullptr);
    ASSERT_NE(m, nullptr);
    ASSERT_GT(g->net.points.cols(), 0);
    ExpectSameSet(*g, *m);
  }
  // And the default run's generalized sets are the same too (the default path is unchanged).
  RunOptions d = o;
  d.set_options.outputs.clear();
  const RunResult def = engine::Run(lp.problem, d, "rocking-block");
  ExpectSameSet(*def.Find(sets::SetKind::kPostImpact, "generalized"),
                *r.Find(sets::SetKind::kPostImpact, "matrix:identity"));
}

TEST(OutputMaps, JointsArePickedCoordinates) {
  const robots::MujocoProblem q = robots::LoadMujocoScene("quadruped");
  const std::vector<std::string>& dofs = q.dof_names;
  ASSERT_GE(dofs.size(), 8u);
  const std::string a = dofs[6], b = dofs[9];  // two leg joints after the six of the trunk
  RunOptions o = SmallRun(q.loaded, 256);
  o.set_options.holdout = 0;
  o.sampler.keep_trajectories = true;
  o.set_options.reachable = true;
  o.set_options.outputs = sets::ParseOutputs({"legs=joints:" + b + "," + a, "trunk=joints:trunk"},
                                             q.loaded.problem, &q);
  EXPECT_EQ(o.set_options.outputs[0].coordinate_names, (std::vector<std::string>{b, a}));
  EXPECT_EQ(o.set_options.outputs[1].dimension(), 6);  // a free joint's name picks its six
  const RunResult r = engine::Run(q.loaded.problem, o, "quadruped");
  const MatrixXd v = sampling::TerminatedColumns(r.samples->v_plus, r.samples->status);
  ASSERT_GT(v.cols(), 0);
  MatrixXd picked(2, v.cols());
  picked << v.row(9), v.row(6);
  EXPECT_EQ(PointsOf(r, sets::SetKind::kPostImpact, "legs", "q").points, picked);
  EXPECT_EQ(PointsOf(r, sets::SetKind::kPostImpact, "trunk", "q").points, v.topRows(6));
  MatrixXd reach(2, r.samples->trajectories.cols());
  reach << r.samples->trajectories.row(9), r.samples->trajectories.row(6);
  EXPECT_EQ(PointsOf(r, sets::SetKind::kReachable, "legs", "q").points, reach);
  EXPECT_EQ(r.Find(sets::SetKind::kReachable, "legs")->net.offered, reach.cols());
}

TEST(OutputMaps, SeveralOutputsAreStoredAndReadBack) {
  const TempDir dir;
  const robots::MujocoProblem cube = robots::LoadMujocoScene("cube-flat");
  const std::string file = dir.File("vz.csv", "0,0,1,0,0,0\n0,0,0,1,1,0\n");
  RunOptions o = SmallRun(cube.loaded, 512);
  o.set_options.outputs = sets::ParseOutputs({"contact", "com", "base", "up=matrix:" + file},
                                             cube.loaded.problem, &cube);
  const RunResult r = engine::Run(cube.loaded.problem, o, "cube-flat");
  const std::string path = (dir.path / "run.h5").string();
  WriteRun(path, r);
  const RunResult back = ReadRun(path);
  const std::vector<sets::OutputMap>& a = r.options.set_options.outputs;
  const std::vector<sets::OutputMap>& b = back.options.set_options.outputs;
  ASSERT_EQ(a.size(), 4u);
  ASSERT_EQ(b.size(), a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(a[i].name);
    EXPECT_EQ(b[i].name, a[i].name);
    EXPECT_EQ(b[i].kind, a[i].kind);
    EXPECT_EQ(b[i].spec, a[i].spec);
    EXPECT_EQ(b[i].C, a[i].C);
    EXPECT_EQ(b[i].coordinate_names, a[i].coordinate_names);
  }
  EXPECT_EQ(b[0].coordinate_names, cube.contact_coordinate_names);
  EXPECT_EQ(b[3].spec, "matrix:" + file);
  ExpectSameSets(r, back);
  // A reader recomputes any output from the kept samples and the stored C.
  const data::Dataset d = data::ReadDataset(path);
  const SetPoints up = PointsOf(d, sets::SetKind::kPostImpact, "up", path);
  EXPECT_EQ(up.points, sampling::TerminatedColumns(a[3].C * r.samples->v_plus, r.samples->status));
  EXPECT_TRUE(ThrowsNaming([&] { PointsOf(d, sets::SetKind::kPostImpact, "generalized", "f.h5"); },
                           "f.h5 output = generalized: the run's outputs are contact, com"));
}

TEST(OutputMaps, MergeOfShardsEqualsTheSingleRunForCustomOutputs) {
  const robots::MujocoProblem cube = robots::LoadMujocoScene("cube-edge");
  for (bool keep : {true, false}) {
    SCOPED_TRACE(keep ? "kept samples" : "union of shard nets");
    RunOptions o = SmallRun(cube.loaded, 600);
    o.sampler.keep_samples = keep;
    o.sampler.keep_trajectories = keep;  // with both, merge rebuilds every net exactly
    o.set_options.outputs =
        sets::ParseOutputs({"com", "w=joints:cube"}, cube.loaded.problem, &cube);
    const RunResult single = engine::Run(cube.loaded.problem, o, "cube-edge");
    std::vector<RunResult> shards;
    for (int i = 0; i < 3; ++i) {
      RunOptions s = o;
      s.sampler.shard_index = i;
      s.sampler.shard_count = 3;
      shards.push_back(FromDataset(ToDataset(engine::Run(cube.loaded.problem, s, "cube-edge"))));
    }
    const RunResult merged = Merge(shards);
    ASSERT_EQ(merged.sets.size(), single.sets.size());
    for (size_t i = 0; i < merged.sets.size(); ++i) {
      SCOPED_TRACE(merged.sets[i].output);
      EXPECT_EQ(merged.sets[i].output, single.sets[i].output);
      EXPECT_TRUE(merged.sets[i].support.values == single.sets[i].support.values);
      if (keep) ExpectSameSet(merged.sets[i], single.sets[i]);
    }
    // Shards of other outputs are not the same run.
    RunOptions other = o;
    other.sampler.shard_index = 2;
    other.sampler.shard_count = 3;
    other.set_options.outputs = sets::ParseOutputs({"com", "base"}, cube.loaded.problem, &cube);
    shards[2] = engine::Run(cube.loaded.problem, other, "cube-edge");
    EXPECT_TRUE(ThrowsNaming([&] { Merge(shards); }, "outputs (/outputs)"));
  }
}

TEST(OutputMaps, BadSpecsNameTheValueAndTheRule) {
  const TempDir dir;
  const robots::MujocoProblem cube = robots::LoadMujocoScene("cube-flat");
  const impact::ImpactProblem& p = cube.loaded.problem;
  EXPECT_TRUE(ThrowsNaming([&] { sets::ParseOutput("speed", p, &cube); },
                           "output = speed: must be contact, generalized, com, base"));
  EXPECT_TRUE(
      ThrowsNaming([&] { sets::ParseOutput("com", p); }, "output = com: needs a MuJoCo model"));
  EXPECT_TRUE(ThrowsNaming([&] { sets::ParseOutput("joints:cube,nope", p, &cube); },
                           "joint = nope: unknown; the model's are cube:vx"));
  EXPECT_TRUE(ThrowsNaming([&] { sets::ParseOutput("joints:cube:vx,cube", p, &cube); },
                           "joint = cube: its velocity cube:vx is named twice"));
  EXPECT_TRUE(ThrowsNaming(
      [&] {
        sets::ParseOutputs({"com", "com"}, p, &cube);
      },
      "output name = com: appears twice"));
  EXPECT_TRUE(ThrowsNaming([&] { sets::ParseOutput("a/b=com", p, &cube); },
                           "output name = a/b: must not contain '/'"));
  const std::string wide = dir.File("wide.csv", "1,2,3,4,5,6,7\n");
  EXPECT_TRUE(ThrowsNaming([&] { sets::ParseOutput("matrix:" + wide, p); },
                           wide + ": line 1: 7 numbers, but C needs n = 6"));
  const std::string text = dir.File("text.csv", "1,2,3\n# fine\n1,x,3,4,5,6\n");
  EXPECT_TRUE(ThrowsNaming([&] { sets::ParseOutput("matrix:" + text, p); }, "line 1: 3 numbers"));
  const std::string nan = dir.File("nan.csv", "1,nan,3,4,5,6\n");
  EXPECT_TRUE(ThrowsNaming([&] { sets::ParseOutput("matrix:" + nan, p); },
                           "line 1: field 2 = 'nan': not a finite number"));
  const std::string word = dir.File("word.csv", "1,2,3,4,5,6\n1, 2,x ,4,5,6\n");
  EXPECT_TRUE(ThrowsNaming([&] { sets::ParseOutput("matrix:" + word, p); },
                           "line 2: field 3 = 'x': not a number"));
  const std::string empty = dir.File("empty.csv", "# nothing\n");
  EXPECT_TRUE(ThrowsNaming([&] { sets::ParseOutput("matrix:" + empty, p); }, "no row of C"));
  EXPECT_TRUE(
      ThrowsNaming([&] { sets::ParseOutput("matrix:" + (dir.path / "no.csv").string(), p); },
                   "no.csv: cannot open"));

  // A model without a free joint has no base; its joints are listed by name.
  const std::string slider = R"(<mujoco><worldbody><geom type="plane" size="1 1 0.1"/>
    <body pos="0 0 0.1"><joint name="lift" type="slide" axis="0 0 1"/>
    <geom type="sphere" size="0.1" mass="1"/></body></worldbody>
    <keyframe><key name="down" qpos="0" qvel="-1"/></keyframe></mujoco>)";
  const robots::MujocoProblem s = robots::LoadMujocoXml(slider, "slider", {});
  EXPECT_TRUE(ThrowsNaming([&] { sets::ParseOutput("base", s.loaded.problem, &s); },
                           "output = base: the model has no free joint"));
  EXPECT_TRUE(ThrowsNaming([&] { sets::ParseOutput("joints:hip", s.loaded.problem, &s); },
                           "joint = hip: unknown; the model's are lift"));
  EXPECT_EQ(sets::ParseOutput("joints:lift", s.loaded.problem, &s).C, MatrixXd::Ones(1, 1));

  // An output whose C has the wrong width is refused before sampling.
  RunOptions o = SmallRun(cube.loaded, 16);
  o.set_options.outputs = {
      sets::OutputMap{"y", sets::Coordinates::kMap, "", MatrixXd::Ones(1, 5), {"y0"}}};
  EXPECT_TRUE(ThrowsNaming([&] { engine::Run(p, o); }, "output y columns = 5: C must have n = 6"));
}

}  // namespace
}  // namespace impactset::engine
