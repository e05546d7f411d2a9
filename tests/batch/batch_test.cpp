// Batches of impact states (batch/batch.hpp, sets/features.hpp, data/batch_file.hpp): state
// designs, features, per-state records against a direct run, resume equal to one pass, bad input.
#include <impactset/batch/batch.hpp>
#include <impactset/batch/batch_request.hpp>
#include <impactset/batch/batch_writer.hpp>
#include <impactset/engine/step_scaling.hpp>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/sampling/streams.hpp>
#include <impactset/sets/features.hpp>
#include <impactset/systems/builtin.hpp>
#include <impactset/systems/compass_gait.hpp>
#include <impactset/systems/scene_values.hpp>
#include "batch_test_util.hpp"
#include "test_util.hpp"

namespace impactset::engine {
namespace {

namespace fs = std::filesystem;
using impact::SampleStatus;

std::string TempPath(const std::string& name) {
  return (fs::temp_directory_path() /
          ("impactset-batch-test-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

using testing::ExpectSameStates;
using testing::SameValues;

TEST(SupportDirections, AxesFirstThenFixedUnitDirections) {
  const MatrixXd d = sampling::SupportDirections(3, 5);
  ASSERT_EQ(d.rows(), 3);
  ASSERT_EQ(d.cols(), 11);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(d.col(2 * i), VectorXd::Unit(3, i));
    EXPECT_EQ(d.col(2 * i + 1), -VectorXd::Unit(3, i));
  }
  constexpr double kUnitNorm = 1e-14;  // a normalised double vector, a few roundings off
  for (int j = 0; j < 11; ++j) EXPECT_NEAR(d.col(j).norm(), 1.0, kUnitNorm);
  EXPECT_EQ(sampling::SupportDirections(3, 5), d);               // a pure function of (d, extra)
  EXPECT_EQ(sampling::SupportDirections(3, 8).leftCols(11), d);  // more directions extend the set
  EXPECT_NE(d.col(6), d.col(7));
  EXPECT_THROW(sampling::SupportDirections(-1, 0), std::invalid_argument);
}

TEST(ComputeFeatures, ExactOnKnownPointsSkippingUnterminated) {
  MatrixXd y(2, 4);
  y << 1, 5, -2, 3,  //
      4, 9, 0, -1;
  const std::vector<SampleStatus> status = {SampleStatus::kTerminated, SampleStatus::kStepCap,
                                            SampleStatus::kTerminated, SampleStatus::kTerminated};
  const MatrixXd dirs = sampling::SupportDirections(2, 1);
  const sets::Features f = sets::ComputeFeatures(y, status, dirs, 4);
  EXPECT_EQ(f.count, 3);
  EXPECT_EQ(f.box_min, (VectorXd(2) << -2, -1).finished());
  EXPECT_EQ(f.box_max, (VectorXd(2) << 3, 4).finished());
  EXPECT_EQ(f.mean, (VectorXd(2) << 2.0 / 3, 1).finished());
  EXPECT_EQ(f.support.head(4), (VectorXd(4) << 3, 2, 4, 1).finished());  // +-e1, +-e2
  const double h =
      std::max({dirs.col(4).dot(y.col(0)), dirs.col(4).dot(y.col(2)), dirs.col(4).dot(y.col(3))});
  EXPECT_EQ(f.support(4), h);
  EXPECT_EQ(f.subsample.col(0), y.col(0));  // the first terminated samples, in order
  EXPECT_EQ(f.subsample.col(1), y.col(2));
  EXPECT_EQ(f.subsample.col(2), y.col(3));
  EXPECT_TRUE(f.subsample.col(3).array().isNaN().all());
  const sets::Features none =
      sets::ComputeFeatures(y, std::vector<SampleStatus>(4, SampleStatus::kStepCap), dirs, 2);
  EXPECT_EQ(none.count, 0);
  EXPECT_TRUE(none.mean.array().isNaN().all());
  EXPECT_TRUE(none.support.array().isNaN().all());
  EXPECT_THROW(sets::ComputeFeatures(y, {SampleStatus::kTerminated}, dirs, 1),
               std::invalid_argument);
}

TEST(StateDesign, GridOrderFirstParameterSlowest) {
  batch::StateDesign d;
  d.ranges = {{"a", 0, 1, 2}, {"b", 10, 20, 3}};
  const MatrixXd x = d.Points();
  ASSERT_EQ(x.cols(), 6);
  const MatrixXd expected = (MatrixXd(2, 6) << 0, 0, 0, 1, 1, 1, 10, 15, 20, 10, 15, 20).finished();
  EXPECT_EQ(x, expected);
}

TEST(StateDesign, IidAndSobolInTheBoxAndReproducible) {
  for (batch::StateDesignKind k : {batch::StateDesignKind::kIid, batch::StateDesignKind::kSobol}) {
    batch::StateDesign d;
    d.kind = k;
    d.ranges = {{"a", -1, 1}, {"b", 2, 3}};
    d.states = 64;
    d.state_seed = 5;
    const MatrixXd x = d.Points();
    ASSERT_EQ(x.cols(), 64);
    EXPECT_TRUE((x.row(0).array() >= -1).all() && (x.row(0).array() < 1).all());
    EXPECT_TRUE((x.row(1).array() >= 2).all() && (x.row(1).array() < 3).all());
    EXPECT_EQ(d.Points(), x);
    d.state_seed = 6;
    EXPECT_NE(d.Points(), x);
  }
}

TEST(StateDesign, BadInputNamesTheProblem) {
  auto message = [](const batch::StateDesign& d) {
    try {
      d.Validate();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  batch::StateDesign d;
  d.ranges = {{"a", 1, 0, 3}};
  EXPECT_NE(message(d).find("empty range"), std::string::npos) << message(d);
  d.ranges = {{"a", 1, 1, 3}};
  EXPECT_NE(message(d).find("empty range"), std::string::npos) << message(d);
  d.ranges = {{"a", 0, 1, 2}, {"a", 0, 1, 2}};
  EXPECT_NE(message(d).find("twice"), std::string::npos) << message(d);
  d.ranges = {};
  EXPECT_NE(message(d).find("at least one parameter"), std::string::npos) << message(d);
  d.kind = batch::StateDesignKind::kIid;
  d.ranges = {{"a", 0, 1}};
  d.states = 0;
  EXPECT_NE(message(d).find("states"), std::string::npos) << message(d);
  EXPECT_THROW(batch::ParseParameterRange("a=1"), std::invalid_argument);
  EXPECT_THROW(batch::ParseParameterRange("a=x:2"), std::invalid_argument);
  EXPECT_THROW(batch::ParseParameterRange("a=0:1:0"), std::invalid_argument);
  const batch::ParameterRange r = batch::ParseParameterRange("rate=0.1:0.5:9");
  EXPECT_EQ(r.name, "rate");
  EXPECT_EQ(r.low, 0.1);
  EXPECT_EQ(r.high, 0.5);
  EXPECT_EQ(r.points, 9);
}

TEST(StateTable, ParsesAndRejectsMalformedLinesWithTheirNumber) {
  const batch::StateDesign d =
      batch::ParseStateTable("# states\nangle, rate\n2.0,0.25\n\n2.5, -0.5\n", "t.csv");
  EXPECT_EQ(d.Names(), (std::vector<std::string>{"angle", "rate"}));
  EXPECT_EQ(d.table, (MatrixXd(2, 2) << 2.0, 0.25, 2.5, -0.5).finished());
  auto message = [](const std::string& text) {
    try {
      batch::ParseStateTable(text, "t.csv");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("a,b\n1,2\n3\n").rfind("t.csv:3: 1 values for 2 parameters", 0), 0u)
      << message("a,b\n1,2\n3\n");
  EXPECT_EQ(message("a,b\n1,x\n").rfind("t.csv:2: b = 'x': not a number", 0), 0u)
      << message("a,b\n1,x\n");
  EXPECT_EQ(message("a,b\n").rfind("t.csv: no state", 0), 0u) << message("a,b\n");
  EXPECT_EQ(message("a,,b\n1,2,3\n").rfind("t.csv:1: empty parameter name", 0), 0u);
}

TEST(StateSeed, MixingFunctionAsDocumented) {
  EXPECT_EQ(batch::StateSeed(7, 3), sampling::Mix64(sampling::Mix64(7) + 3));
  EXPECT_NE(batch::StateSeed(7, 3), batch::StateSeed(7, 4));
  EXPECT_NE(batch::StateSeed(7, 3), batch::StateSeed(8, 3));
}

TEST(CompassTouchdown, DefaultsAreTheCompassGaitScene) {
  const systems::LoadedProblem scene = systems::LoadBuiltin("compass-gait");
  const systems::LoadedProblem made =
      systems::LoadSystem("compass-touchdown", systems::ParameterValues{});
  // The scene file stores q with 16-17 digits; sin/cos of 78 degrees here agree to roundoff.
  constexpr double kDigits = 1e-12;
  EXPECT_TRUE(made.problem.M().isApprox(scene.problem.M(), kDigits));
  EXPECT_TRUE(made.problem.Jn().isApprox(scene.problem.Jn(), kDigits));
  EXPECT_TRUE(made.problem.D().isApprox(scene.problem.D(), kDigits));
  EXPECT_TRUE(made.problem.v_minus().isApprox(scene.problem.v_minus(), kDigits));
  EXPECT_EQ(made.problem.mu(), scene.problem.mu());
  EXPECT_EQ(made.settings.step, scene.settings.step);
  EXPECT_EQ(made.settings.max_steps, scene.settings.max_steps);
  EXPECT_THROW(systems::LoadSystem("compass-touchdown", {{"angle", "3.2"}}), std::invalid_argument);
  EXPECT_THROW(systems::LoadSystem("compass-touchdown", {{"rate", "-0.25"}}),
               std::invalid_argument);  // the leading foot leaves the floor: no impact
}

TEST(SceneValues, CompassGaitSceneRateEqualsTheParametrisedSystem) {
  std::ifstream in(std::string(IMPACTSET_SCENES_DIR) + "/compass-gait.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(text.empty());
  const systems::LoadedScene scene =
      systems::LoadSceneWithValues(text, {{"/v_minus/rigid_rotation/rate", 0.4}});
  const systems::LoadedProblem made =
      systems::LoadSystem("compass-touchdown", systems::ParameterValues{{"rate", "0.4"}});
  constexpr double kDigits = 1e-12;  // the scene's q has 16-17 digits (see above)
  EXPECT_TRUE(scene.problem.v_minus().isApprox(made.problem.v_minus(), kDigits));
  EXPECT_TRUE(scene.problem.M().isApprox(made.problem.M(), kDigits));
  EXPECT_THROW(systems::LoadSceneWithValues(text, {{"/description", 1.0}}), std::invalid_argument);
  EXPECT_THROW(systems::LoadSceneWithValues(text, {{"/v_minus/rigid_rotation/rate", -0.4}}),
               std::invalid_argument);  // the leading foot leaves the floor
}

// A small compass-gait batch: 3 x 2 grid of (angle, rate), one rate negative (invalid states).
struct SmallBatch {
  batch::StateSource source = batch::SystemSource{.system = "compass-touchdown", .fixed = {}};
  batch::StateDesign design;
  BatchOptions options;
  SmallBatch() {
    design.ranges = {{"angle", 2.4, 2.8, 3}, {"rate", -0.25, 0.25, 2}};
    options.run.sampler.samples = 256;
    options.run.sampler.seed = 11;
    options.run.sampler.threads = 2;
    options.run.set_options.holdout = 64;
    options.keep = 5;
    options.extra_directions = 3;
    options.part_states = 2;
  }
  batch::BatchJob Job() const { return batch::MakeBatchJob(source, design, options); }
};

size_t Column(const batch::BatchJob& job, const std::string& path) {
  for (size_t k = 0; k < job.columns.size(); ++k) {
    if (job.columns[k].path == path) return k;
  }
  ADD_FAILURE() << "no column " << path;
  return 0;
}

// A state's polish follows its samples like its hold-out (a quarter, within [64, 4096], at most
// K), unless given; every state runs the resolved value.
TEST(BatchOptions, PolishFollowsTheStatesSamples) {
  BatchOptions o;
  EXPECT_EQ(o.run.set_options.polish, kPolishFromSamples);
  const std::vector<std::pair<long long, long long>> expected = {
      {16, 16}, {256, 64}, {4096, 1024}, {65536, 4096}};
  for (const auto& [samples, polish] : expected) {
    o.run.sampler.samples = samples;
    EXPECT_EQ(o.Polish(), polish) << samples;
  }
  o.run.set_options.polish = 0;
  EXPECT_EQ(o.Polish(), 0);
  EXPECT_EQ(SmallBatch().Job().options.run.set_options.polish, 64);
}

TEST(Batch, StatesMatchDirectRunsAndInvalidStatesAreRecorded) {
  const batch::BatchJob job = SmallBatch().Job();
  EXPECT_EQ(job.velocity_dimension, 4);
  EXPECT_EQ(job.contact_dimension, 4);  // two normals, two tangents
  const std::string out = TempPath("direct.h5");
  batch::RunBatch(job, out, false);
  const auto states = data::ReadBatchStates(out, job.columns);
  ASSERT_EQ(states.size(), 6u);
  const size_t status = Column(job, "/states/status"),
               box = Column(job, "/features/contact/box_min");
  const size_t terminated = Column(job, "/states/summary/terminated");
  for (const data::StateRecord& r : states) {
    const double rate = job.points(1, r.index);
    if (rate < 0) {
      EXPECT_EQ(r.cells[status].integers[0], static_cast<int>(batch::StateStatus::kInvalidProblem));
      EXPECT_NE(r.cells[Column(job, "/states/message")].text.find("/v_minus"), std::string::npos)
          << r.cells[Column(job, "/states/message")].text;
      continue;
    }
    ASSERT_EQ(r.cells[status].integers[0], static_cast<int>(batch::StateStatus::kOk));
    // The state alone, with its documented seed, gives the same samples: its contact-velocity
    // extremes are the features' bounding box.
    systems::CompassTouchdownParams p;
    p.angle = job.points(0, r.index);
    p.rate = rate;
    const systems::LoadedScene lp = systems::MakeCompassTouchdown(p);
    RunOptions o = job.options.run;
    o.sampler.seed = batch::StateSeed(11, r.index);
    o.sampler.algorithm.step = *lp.settings.step;
    o.sampler.algorithm.max_steps = *lp.settings.max_steps;
    o.sets = false;
    const RunResult direct = engine::Run(lp.problem, o, "direct");
    EXPECT_EQ(r.cells[terminated].integers[0], direct.summary.terminated);
    const VectorXd& lo = direct.summary.contact_velocity_min;
    EXPECT_EQ(r.cells[box].values, std::vector<double>(lo.data(), lo.data() + lo.size()));
  }
  fs::remove(out);
}

TEST(Batch, ResumeAfterAnInterruptionEqualsOnePass) {
  const batch::BatchJob job = SmallBatch().Job();
  const std::string whole = TempPath("whole.h5"), resumed = TempPath("resumed.h5");
  batch::RunBatch(job, whole, false);
  {
    batch::BatchWriter interrupted(job, resumed, false);  // 3 states, one part file, then "killed"
    for (long long i : {4, 0, 2}) interrupted.Add(batch::RunState(job, i));
    std::ofstream(interrupted.PartsDirectory() + "/part-000009.h5.tmp-1") << "torn write";
  }
  EXPECT_THROW(batch::BatchWriter(job, resumed, false), std::invalid_argument);  // needs --resume
  batch::BatchWriter check(job, resumed, true);
  EXPECT_EQ(check.DoneCount(), 2);  // the third state was in the unwritten buffer
  batch::RunBatch(job, resumed, true);
  ExpectSameStates(data::ReadBatchStates(whole, job.columns),
                   data::ReadBatchStates(resumed, job.columns));
  EXPECT_FALSE(fs::exists(resumed + ".parts"));
  SmallBatch other;
  other.options.run.sampler.seed = 12;
  const batch::BatchJob other_job = other.Job();
  {
    batch::BatchWriter w(job, resumed + "2", false);
    for (long long i : {0, 1}) w.Add(batch::RunState(job, i));
  }
  EXPECT_THROW(batch::BatchWriter(other_job, resumed + "2", true),
               std::invalid_argument);  // other job
  fs::remove_all(resumed + "2.parts");
  fs::remove(whole);
  fs::remove(resumed);
}

// States computed anywhere (impactset.BatchJob.run_states on a cluster) and written by WriteBatch
// in any order make the file RunBatch writes; a missing, repeated or foreign state is refused.
TEST(Batch, StatesComputedApartMakeTheSameFile) {
  const batch::BatchJob job = SmallBatch().Job();
  const std::string whole = TempPath("apart-whole.h5"), apart = TempPath("apart.h5");
  batch::RunBatch(job, whole, false);
  std::vector<data::StateRecord> records;
  for (long long i : {3, 5, 0, 1, 4, 2}) records.push_back(batch::RunState(job, i));
  auto without_last = records;
  without_last.pop_back();
  try {
    batch::WriteBatch(job, without_last, apart);
    ADD_FAILURE() << "a missing state was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("state = 2: missing (1 of 6"), std::string::npos)
        << e.what();
  }
  auto twice = records;
  twice.push_back(records[0]);
  EXPECT_THROW(batch::WriteBatch(job, twice, apart), std::invalid_argument);
  auto foreign = records;
  foreign[0].index = 6;
  EXPECT_THROW(batch::WriteBatch(job, foreign, apart), std::invalid_argument);
  EXPECT_FALSE(fs::exists(apart));
  batch::WriteBatch(job, records, apart);
  ExpectSameStates(data::ReadBatchStates(whole, job.columns),
                   data::ReadBatchStates(apart, job.columns));
  fs::remove(whole);
  fs::remove(apart);
}

// No valid state at all: the batch's dimensions are 0 and the file still records every state's
// status and message (its feature columns have width 0; reading them once failed on the sizes).
TEST(Batch, ABatchWithoutAValidStateRecordsEveryStatus) {
  SmallBatch b;
  b.design.ranges = {{"angle", 2.4, 2.8, 3}, {"rate", -0.25, -0.25, 1}};  // all separating
  const batch::BatchJob job = b.Job();
  EXPECT_EQ(job.velocity_dimension, 0);
  const std::string out = TempPath("none-valid.h5");
  EXPECT_EQ(batch::RunBatch(job, out, false).not_ok, 3);
  const auto states = data::ReadBatchStates(out, job.columns);
  ASSERT_EQ(states.size(), 3u);
  for (const data::StateRecord& r : states) {
    EXPECT_EQ(r.cells[Column(job, "/states/status")].integers[0],
              static_cast<int>(batch::StateStatus::kInvalidProblem));
  }
  fs::remove(out);
}

// The progress names the lowest state that is not ok, in whatever order the states finish.
TEST(Batch, ProgressNamesTheFirstStateNotOk) {
  SmallBatch b;
  b.design.ranges = {{"angle", 2.4, 2.8, 3}, {"rate", -0.25, -0.25, 1}};  // all separating
  const batch::BatchJob job = b.Job();
  const std::string out = TempPath("first-not-ok.h5");
  batch::BatchWriter writer(job, out, false);
  batch::BatchRecorder recorder(job, &writer, {});
  for (long long i : {2, 0, 1}) recorder.Store(batch::RunState(job, i));
  EXPECT_EQ(recorder.progress().not_ok, 3);
  EXPECT_EQ(recorder.progress().first_not_ok.rfind("state 0: invalid_problem: ", 0), 0u)
      << recorder.progress().first_not_ok;
  writer.Finish();
  fs::remove(out);
}

// States run side by side (up to `threads` at once), in any order: the file must not depend on
// it. Four threads on six states also exercises nested arenas (each state samples on 4 threads).
TEST(Batch, FileIsTheSameAtOneTwoAndFourThreads) {
  std::vector<std::vector<data::StateRecord>> files;
  for (int threads : {1, 2, 4}) {
    SmallBatch b;
    b.options.run.sampler.threads = threads;
    const batch::BatchJob job = b.Job();
    const std::string out = TempPath("threads" + std::to_string(threads) + ".h5");
    const batch::BatchProgress p = batch::RunBatch(job, out, false);
    EXPECT_EQ(p.states_done, 6);
    EXPECT_EQ(p.not_ok, 3);  // the three negative rates
    files.push_back(data::ReadBatchStates(out, job.columns));
    fs::remove(out);
  }
  ExpectSameStates(files[0], files[1]);
  ExpectSameStates(files[0], files[2]);
}

// A progress callback that throws (Ctrl-C in a caller) stops the batch; the parts written so far
// stay, and --resume finishes a file equal to one pass.
TEST(Batch, ThrowingProgressStopsTheBatchAndItResumes) {
  SmallBatch b;
  b.options.part_states = 1;
  const batch::BatchJob job = b.Job();
  const std::string whole = TempPath("stop_whole.h5"), stopped = TempPath("stopped.h5");
  batch::RunBatch(job, whole, false);
  long long calls = 0;
  EXPECT_THROW(batch::RunBatch(job, stopped, false,
                               [&](const batch::BatchProgress& p) {
                                 ++calls;
                                 if (p.states_done == 2) throw std::runtime_error("stop");
                               }),
               std::runtime_error);
  EXPECT_EQ(calls, 2);  // one call at a time: none after the throw
  EXPECT_FALSE(fs::exists(stopped));
  EXPECT_EQ(batch::BatchWriter(job, stopped, true).DoneCount(), 2);
  batch::RunBatch(job, stopped, true);
  ExpectSameStates(data::ReadBatchStates(whole, job.columns),
                   data::ReadBatchStates(stopped, job.columns));
  fs::remove(whole);
  fs::remove(stopped);
}

// A MuJoCo scene as the source: entries of its keyframe's qvel and qpos varied. Each state is the
// scene loaded at that state (the same v-), a lifted cube is recorded as invalid (no contact), and
// names outside qpos:0..nq-1 / qvel:0..nv-1 fail before any work.
TEST(Batch, MujocoStatesAreTheSceneAtTheVariedEntries) {
  const batch::StateSource source = batch::MujocoSource{.model = "cube-flat", .options = {}};
  batch::StateDesign design;
  design.ranges = {{"qvel:2", -1.5, -0.5, 2}, {"qpos:2", 0.5, 0.7, 2}};  // fall speed, height
  BatchOptions options;
  options.run.sampler.samples = 128;
  options.run.sampler.threads = 2;
  options.run.set_options.holdout = 0;
  const batch::BatchJob job = batch::MakeBatchJob(source, design, options);
  EXPECT_EQ(job.velocity_dimension, 6);
  const std::string out = TempPath("mujoco.h5");
  EXPECT_EQ(batch::RunBatch(job, out, false).not_ok, 2);  // the two states at height 0.7
  const auto states = data::ReadBatchStates(out, job.columns);
  ASSERT_EQ(states.size(), 4u);
  const robots::MujocoState base =
      robots::ResolveMujocoStateXml(robots::MujocoSceneXml("cube-flat"), "cube-flat", {});
  for (const data::StateRecord& r : states) {
    const double fall = job.points(0, r.index), height = job.points(1, r.index);
    const auto status = r.cells[Column(job, "/states/status")].integers[0];
    if (height > 0.6) {
      EXPECT_EQ(status, static_cast<int>(batch::StateStatus::kInvalidProblem));
      EXPECT_NE(r.cells[Column(job, "/states/message")].text.find("no contact"), std::string::npos);
      continue;
    }
    ASSERT_EQ(status, static_cast<int>(batch::StateStatus::kOk));
    VectorXd qpos = *base.qpos, qvel = *base.qvel;
    qpos(2) = height;
    qvel(2) = fall;
    robots::MujocoOptions o;
    o.state.qpos = std::move(qpos);
    o.state.qvel = std::move(qvel);
    const VectorXd v = robots::LoadMujocoScene("cube-flat", o).loaded.problem.v_minus();
    EXPECT_EQ(r.cells[Column(job, "/states/v_minus")].values,
              std::vector<double>(v.data(), v.data() + v.size()));
  }
  fs::remove(out);
  design.ranges = {{"qvel:6", -1.5, -0.5, 2}};
  EXPECT_TRUE(testing::ThrowsNaming([&] { batch::MakeBatchJob(source, design, options); },
                                    "unknown parameter 'qvel:6' (known: qpos:0 ... qpos:6, qvel:0 "
                                    "... qvel:5)"));
  design.ranges = {{"q:1", -1.5, -0.5, 2}};
  EXPECT_THROW(batch::MakeBatchJob(source, design, options), std::invalid_argument);
}

// --output com --output base: features and sets in the MuJoCo maps of each state, equal to a
// direct run of that state with those outputs; a MuJoCo output of a planar system fails early.
TEST(Batch, OutputsGiveFeaturesAndSetsInTheirCoordinates) {
  const batch::StateSource source = batch::MujocoSource{.model = "cube-flat", .options = {}};
  batch::StateDesign design;
  design.ranges = {{"qvel:0", -0.3, 0.3, 2}};
  BatchOptions options;
  options.run.sampler.samples = 200;
  options.run.sampler.threads = 2;
  options.run.set_options.holdout = 0;
  options.outputs = {"com", "base"};
  const batch::BatchJob job = batch::MakeBatchJob(source, design, options);
  ASSERT_EQ(job.outputs.size(), 2u);
  EXPECT_EQ(job.outputs[0], (std::pair<std::string, int>{"com", 3}));
  EXPECT_EQ(job.outputs[1], (std::pair<std::string, int>{"base", 6}));
  const std::string out = TempPath("outputs.h5");
  EXPECT_EQ(batch::RunBatch(job, out, false).not_ok, 0);
  const auto states = data::ReadBatchStates(out, job.columns);
  ASSERT_EQ(states.size(), 2u);
  const robots::MujocoState base =
      robots::ResolveMujocoStateXml(robots::MujocoSceneXml("cube-flat"), "cube-flat", {});
  for (const data::StateRecord& r : states) {
    VectorXd qvel = *base.qvel;
    qvel(0) = job.points(0, r.index);
    robots::MujocoOptions o;  // filled member by member: GCC 12 misreads a copied optional state
    o.state.qpos = *base.qpos;
    o.state.qvel = std::move(qvel);
    const robots::MujocoProblem q = robots::LoadMujocoScene("cube-flat", o);
    RunOptions ro = ProblemRunOptions(q.loaded);
    ro.sampler.samples = 200;
    ro.sampler.seed = batch::StateSeed(job.options.run.sampler.seed, r.index);
    ro.sampler.keep_samples = true;
    ro.set_options.holdout = 0;
    ro.set_options.polish = job.options.run.set_options.polish;  // the state's: BatchPolish(200)
    ro.set_options.outputs = sets::ParseOutputs({"com", "base"}, q.loaded.problem, &q);
    const RunResult direct = engine::Run(q.loaded.problem, ro, "direct");
    const MatrixXd com = q.com_jacobian * direct.samples->v_plus;  // every sample terminates
    ASSERT_EQ(direct.summary.terminated, 200);
    const VectorXd lo = com.rowwise().minCoeff();
    EXPECT_EQ(r.cells[Column(job, "/features/com/box_min")].values,
              std::vector<double>(lo.data(), lo.data() + lo.size()));
    const MatrixXd& net = direct.Find(sets::SetKind::kPostImpact, "base")->net.points;
    EXPECT_EQ(r.cells[Column(job, "/sets/post_impact/base/net_points")].values,
              std::vector<double>(net.data(), net.data() + net.size()));
  }
  fs::remove(out);
  SmallBatch planar;
  planar.options.outputs = {"com"};
  EXPECT_TRUE(testing::ThrowsNaming([&] { planar.Job(); }, "com"));
}

TEST(Batch, UnknownParameterAndBadOptionsFailBeforeAnyWork) {
  SmallBatch b;
  b.design.ranges[0].name = "angel";
  try {
    b.Job();
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown parameter 'angel' (known: angle, rate"),
              std::string::npos)
        << e.what();
  }
  SmallBatch fixed;
  std::get<batch::SystemSource>(fixed.source).fixed = {{"angle", "2"}};
  EXPECT_THROW(fixed.Job(), std::invalid_argument);  // varied and fixed
  SmallBatch keep;
  keep.options.keep = -1;
  EXPECT_THROW(keep.Job(), std::invalid_argument);
  SmallBatch scene;
  scene.source = batch::SceneSource{.text = R"({"q": [1, 2], "v_minus": "x"})"};
  scene.design.ranges = {{"/q/1", 0, 1, 2}};
  EXPECT_NO_THROW(batch::CheckParameters(scene.source, {"/q/1"}));
  EXPECT_THROW(batch::CheckParameters(scene.source, {"/q/5"}), std::invalid_argument);
  EXPECT_THROW(batch::CheckParameters(scene.source, {"/v_minus"}), std::invalid_argument);
}

// Three rocking-block states at different speeds and one with a mass matrix that is not positive
// definite, as a stack of problems.
std::vector<data::ProblemArrays> RockingStack() {
  const systems::LoadedProblem rb = systems::LoadBuiltin("rocking-block");
  std::vector<data::ProblemArrays> stack;
  for (double scale : {1.0, 0.5, 2.0, 1.0}) {
    data::ProblemArrays a = ToProblemArrays(rb.problem);
    a.v_minus *= scale;
    stack.push_back(a);
  }
  stack.back().M = -stack.back().M;
  return stack;
}

TEST(ProblemStack, ReadsBackWhatWasWrittenAndRejectsBadShapes) {
  const auto problems = RockingStack();
  const std::string path = TempPath("stack.h5");
  data::WriteProblemStack(path, problems);
  const data::ProblemStack stack = data::OpenProblemStack(path);
  EXPECT_EQ(stack.count, 4);
  for (std::int64_t i = 0; i < stack.count; ++i) {
    const data::ProblemArrays back = data::ReadStackedProblem(stack, i);
    const data::ProblemArrays& want = problems[static_cast<size_t>(i)];
    EXPECT_EQ(back.M, want.M);
    EXPECT_EQ(back.Jn, want.Jn);
    EXPECT_EQ(back.D, want.D);
    EXPECT_EQ(back.mu, want.mu);
    EXPECT_EQ(back.v_minus, want.v_minus);
    EXPECT_EQ(back.k, want.k);
  }
  EXPECT_THROW(data::ReadStackedProblem(stack, 4), std::invalid_argument);
  auto ragged = problems;
  ragged[2].Jn.conservativeResize(1, Eigen::NoChange);
  ragged[2].mu.conservativeResize(1);
  const std::string other = TempPath("ragged.h5");
  EXPECT_THROW(data::WriteProblemStack(other, ragged), std::invalid_argument);
  EXPECT_FALSE(fs::exists(other));
  try {
    data::OpenProblemStack(TempPath("missing.h5"));
    ADD_FAILURE() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("missing.h5"), std::string::npos) << e.what();
  }
  fs::remove(path);
}

TEST(ProblemStack, StatesEqualDirectRunsAndAnInvalidProblemIsRecorded) {
  const auto problems = RockingStack();
  const std::string path = TempPath("stack-run.h5"), out = TempPath("stack-out.h5");
  data::WriteProblemStack(path, problems);
  SmallBatch b;
  batch::BatchRequest request;  // a stack without vary or a table: every problem
  request.problems_file = path;
  batch::BatchStates every = batch::ResolveBatchStates(request);
  ASSERT_TRUE(std::holds_alternative<batch::ProblemStackSource>(every.source));
  EXPECT_EQ(batch::Label(every.source), path);
  b.source = std::move(every.source);
  b.design = std::move(every.design);
  EXPECT_EQ(b.design.Names(), std::vector<std::string>{batch::kProblemParameter});
  EXPECT_THROW(batch::CheckParameters(b.source, {"angle"}), std::invalid_argument);
  const batch::BatchJob job = b.Job();
  ASSERT_EQ(job.Count(), 4);
  batch::RunBatch(job, out, false);
  const auto states = data::ReadBatchStates(out, job.columns);
  ASSERT_EQ(states.size(), 4u);
  const size_t status = Column(job, "/states/status"),
               box = Column(job, "/features/contact/box_max");
  for (const data::StateRecord& r : states) {
    if (r.index == 3) {
      EXPECT_EQ(r.cells[status].integers[0], static_cast<int>(batch::StateStatus::kInvalidProblem));
      EXPECT_NE(r.cells[Column(job, "/states/message")].text.find("problem 3"), std::string::npos)
          << r.cells[Column(job, "/states/message")].text;
      continue;
    }
    ASSERT_EQ(r.cells[status].integers[0], static_cast<int>(batch::StateStatus::kOk)) << r.index;
    RunOptions o = job.options.run;
    o.sampler.seed = batch::StateSeed(11, r.index);
    // The stack has no h or N attributes: each problem's are scaled to its impact.
    const impact::ImpactProblem problem = FromProblemArrays(problems[static_cast<size_t>(r.index)]);
    const ScaledStep scaled = ScaleStepToProblem(problem);
    EXPECT_NE(scaled.step, kDefaultStep);
    o.sampler.algorithm.step = scaled.step;
    o.sampler.algorithm.max_steps = scaled.max_steps;
    EXPECT_EQ(r.cells[Column(job, "/states/step")].values, std::vector<double>{scaled.step});
    o.sets = false;
    const RunResult direct = engine::Run(problem, o, "direct");
    const VectorXd& hi = direct.summary.contact_velocity_max;
    EXPECT_EQ(r.cells[box].values, std::vector<double>(hi.data(), hi.data() + hi.size()));
  }
  // The batch file is itself a state table: its states, names and values.
  const batch::StateDesign again = batch::ReadStateTableFile(out);
  EXPECT_EQ(again.table_names, std::vector<std::string>{batch::kProblemParameter});
  EXPECT_EQ(MatrixXd(again.table.transpose()), job.points);
  fs::remove(path);
  fs::remove(out);
}

// A batch file streamed from part files (BatchWriter::Finish) holds what the file written at once
// from the same states holds: fixed columns over several 1024-state chunks, ragged columns over
// several 4096-row chunks, strings, a width-0 column, with the states scattered over the parts.
TEST(BatchFile, StreamedFromPartsEqualsTheFileWrittenAtOnce) {
  using data::ColumnSpec;
  using data::ColumnType;
  constexpr int kStates = 2500, kPartStates = 64;  // 3 state chunks, 40 parts
  data::BatchFile header;
  header.attributes = {{"/", "format", std::string("streaming test")}};
  header.columns = {ColumnSpec{"/states/a", ColumnType::kFloat64, 3},
                    ColumnSpec{"/states/s", ColumnType::kInt64, 1, true},
                    ColumnSpec{"/states/u", ColumnType::kUInt64, 1, true},
                    ColumnSpec{"/states/message", ColumnType::kString, 1, true},
                    ColumnSpec{"/r/points", ColumnType::kFloat64, 2, false, true},
                    ColumnSpec{"/r/none", ColumnType::kFloat64, 0},
                    ColumnSpec{"/r/counts", ColumnType::kInt64, 1, false, true}};
  std::vector<data::StateRecord> states(kStates);
  for (int i = 0; i < kStates; ++i) {
    data::StateRecord& r = states[i];
    r.index = i;
    r.cells.resize(header.columns.size());
    r.cells[0].values = {i + 0.25, -i * 1e-3, i % 5 == 0 ? std::nan("") : 1.0 / (i + 1)};
    r.cells[1].integers = {i * 3 - 7};
    r.cells[2].integers = {-1 - i};
    r.cells[3].text = i % 3 == 0 ? "" : "state " + std::to_string(i);
    for (int k = 0; k < i % 7; ++k)
      r.cells[4].values.insert(r.cells[4].values.end(), {i + k * 0.5, -k * 1.0});
    for (int k = 0; k < (i % 4 == 0 ? 2 : 0); ++k) r.cells[6].integers.push_back(i * 10 + k);
  }
  const std::string at_once = TempPath("at-once.h5"), streamed = TempPath("streamed.h5");
  data::BatchFile whole = header;
  whole.states = states;
  data::WriteBatchFile(at_once, whole);
  // Parts as a run leaves them: states in a scrambled order, kPartStates per part.
  std::vector<std::string> parts;
  std::vector<data::PartRow> rows(kStates);
  data::BatchFile part = header;
  for (int k = 0; k < kStates; ++k) {
    const int i = static_cast<int>((k * 7919LL) % kStates);  // 7919 is prime: a permutation
    rows[i] = {static_cast<std::int32_t>(parts.size()),
               static_cast<std::int32_t>(part.states.size())};
    part.states.push_back(states[i]);
    if (static_cast<int>(part.states.size()) == kPartStates || k == kStates - 1) {
      parts.push_back(TempPath("part-" + std::to_string(parts.size()) + ".h5"));
      data::WriteBatchFile(parts.back(), part);
      part.states.clear();
    }
  }
  data::WriteBatchFileFromParts(streamed, header, parts, rows);
  ExpectSameStates(data::ReadBatchStates(at_once, header.columns),
                   data::ReadBatchStates(streamed, header.columns));
  EXPECT_EQ(data::ReadBatchIndex(streamed), data::ReadBatchIndex(at_once));
  for (const std::string& p : parts) fs::remove(p);
  fs::remove(at_once);
  fs::remove(streamed);
}

TEST(StateRecord, EncodeDecodeRoundTrip) {
  data::StateRecord r;
  r.index = 42;
  r.cells.resize(3);
  r.cells[0].values = {1.5, std::nan(""), -0.0};
  r.cells[1].integers = {7, -3};
  r.cells[2].text = "no contact";
  const data::StateRecord back = data::DecodeState(data::EncodeState(r));
  ExpectSameStates({r}, {back});
  std::string bytes = data::EncodeState(r);
  bytes.pop_back();
  EXPECT_THROW(data::DecodeState(bytes), std::invalid_argument);
}

}  // namespace
}  // namespace impactset::engine
