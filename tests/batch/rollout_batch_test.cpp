// Batches of rollouts (batch::MakeRolloutBatchJob): each state's record is the rollouts run from
// that state on their own, the file is the same at 1 and 2 threads and after a resume, and the
// options' rules hold at entry.
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/batch/batch.hpp>
#include <impactset/batch/batch_request.hpp>
#include <impactset/batch/batch_writer.hpp>
#include <impactset/rollouts/rollout.hpp>
#include "batch_test_util.hpp"
#include "test_util.hpp"

namespace impactset::batch {
namespace {

namespace fs = std::filesystem;
using testing::ExpectSameStates;

// The rollout tests' box (its comment says why its landing is set-valued).
const std::string kBoxFile = IMPACTSET_TEST_DATA_DIR "/rollouts/box-drop.xml";

std::string TempPath(const std::string& name) {
  return (fs::temp_directory_path() /
          ("impactset-rollout-batch-test-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

robots::MujocoOptions BoxOptions() {
  robots::MujocoOptions o;
  o.state.keyframe = "drop";
  return o;
}

// Three fall speeds of the box, 12 rollouts of 0.2 s each.
struct BoxBatch {
  StateSource source = MujocoSource{.model = kBoxFile, .options = BoxOptions()};
  StateDesign design;
  engine::BatchOptions options;
  rollouts::RolloutOptions rollout;
  BoxBatch() {
    design.ranges = {{"qvel:2", -2.0, -0.5, 3}};
    options.run.sampler.seed = 11;
    options.run.sampler.threads = 2;
    options.part_states = 1;
    rollout.horizon = 0.2;
    rollout.rollouts = 12;
    rollout.metrics = {"spin=max(abs(qvel:root:wx))", "tipped=max(abs(root:qx)) > 0.01"};
  }
  BatchJob Job() const { return MakeRolloutBatchJob(source, design, options, rollout); }
};

const data::Cell& Cell(const BatchJob& job, const data::StateRecord& r, const std::string& path) {
  for (size_t k = 0; k < job.columns.size(); ++k) {
    if (job.columns[k].path == path) return r.cells[k];
  }
  throw std::invalid_argument("no column " + path);
}

// State i is RunRollouts from the base state with qvel(2) replaced, seed StateSeed(seed, i).
TEST(RolloutBatch, EachStateIsItsRolloutsRunAlone) {
  const BoxBatch b;
  const BatchJob job = b.Job();
  ASSERT_EQ(job.Count(), 3);
  ASSERT_EQ(job.metric_names, (std::vector<std::string>{"spin", "tipped"}));
  bool spread = false;
  for (long long i = 0; i < job.Count(); ++i) {
    const data::StateRecord record = RunState(job, i);
    ASSERT_EQ(RecordStatus(record), StateStatus::kOk) << Cell(job, record, "/states/message").text;
    const robots::SimulationModel model = LoadSimulationState(
        std::get<MujocoSource>(job.source), job.design.Names(), job.points.col(i));
    EXPECT_EQ(model.qvel(2), job.points(0, i));
    rollouts::RolloutOptions o = b.rollout;
    o.seed = StateSeed(11, i);
    o.threads = 1;
    const rollouts::RolloutReport alone = rollouts::RunRollouts(model, o);
    std::vector<double> spin, tipped;
    std::vector<std::int64_t> events;
    for (const rollouts::RolloutResult& r : alone.rollouts) {
      spin.push_back(r.metrics[0]);
      tipped.push_back(r.metrics[1]);
      events.push_back(r.events);
    }
    EXPECT_EQ(Cell(job, record, "/rollouts/metrics/spin").values, spin);
    EXPECT_EQ(Cell(job, record, "/rollouts/metrics/tipped").values, tipped);
    EXPECT_EQ(Cell(job, record, "/rollouts/events").integers, events);
    EXPECT_EQ(Cell(job, record, "/states/summary/ok").integers[0], alone.ok);
    EXPECT_EQ(Cell(job, record, "/metrics/tipped/true_count").integers[0],
              alone.metrics[1].true_count);
    EXPECT_EQ(Cell(job, record, "/metrics/tipped/upper").values[0], alone.metrics[1].upper);
    EXPECT_EQ(Cell(job, record, "/metrics/spin/argmax").integers[0], alone.metrics[0].argmax);
    EXPECT_EQ(Cell(job, record, "/metrics/spin/baseline").values[0], alone.metrics[0].baseline);
    EXPECT_EQ(Cell(job, record, "/states/qvel").values[2], job.points(0, i));
    spread = spread || alone.metrics[0].max > alone.metrics[0].min;
  }
  EXPECT_TRUE(spread);  // the landings are set-valued: the rollouts differ
}

// One pass at 1 thread; at 2 threads stopped after one state and resumed: the same file. A job
// with another horizon is another batch: its resume is refused.
TEST(RolloutBatch, SameFileAtOneAndTwoThreadsAndAfterAResume) {
  BoxBatch b;
  b.options.run.sampler.threads = 1;
  const BatchJob one = b.Job();
  b.options.run.sampler.threads = 2;
  const BatchJob two = b.Job();
  const std::string whole = TempPath("whole.h5"), stopped = TempPath("stopped.h5");
  RunBatch(one, whole, false);
  EXPECT_THROW(RunBatch(two, stopped, false,
                        [](const BatchProgress& p) {
                          if (p.states_done == 1) throw std::runtime_error("stop");
                        }),
               std::runtime_error);
  b.rollout.horizon = 0.3;
  EXPECT_TRUE(testing::ThrowsNaming([&] { BatchWriter(b.Job(), stopped, true); }, "horizon"));
  EXPECT_EQ(BatchWriter(two, stopped, true).DoneCount(), 1);
  RunBatch(two, stopped, true);
  ExpectSameStates(data::ReadBatchStates(whole, one.columns),
                   data::ReadBatchStates(stopped, one.columns));
  fs::remove(whole);
  fs::remove(stopped);
}

TEST(RolloutBatch, BadInputFailsAtEntryNamingIt) {
  BoxBatch b;
  b.source = SystemSource{.system = "compass-touchdown", .fixed = {}};
  EXPECT_TRUE(testing::ThrowsNaming([&] { b.Job(); }, "needs a MuJoCo model"));
  b = BoxBatch();
  b.rollout.metrics = {"fell=min(root:z) <"};
  EXPECT_TRUE(testing::ThrowsNaming([&] { b.Job(); }, "fell=min(root:z) <"));
  b = BoxBatch();
  b.rollout.controls = rollouts::Controls::kConstant;
  b.rollout.ctrl = VectorXd::Ones(2);
  EXPECT_TRUE(testing::ThrowsNaming([&] { b.Job(); }, "no actuators"));
  b = BoxBatch();
  b.rollout.horizon = 0;
  EXPECT_TRUE(testing::ThrowsNaming([&] { b.Job(); }, "horizon"));
  b = BoxBatch();
  b.design.ranges = {{"qvel:9", 0, 1, 2}};
  EXPECT_TRUE(testing::ThrowsNaming([&] { b.Job(); }, "qvel:9"));

  GivenBatchOptions g;
  engine::BatchOptions options;
  EXPECT_FALSE(IsRolloutBatch(g, options));
  g.rollout = {{"rollouts", "4"}, {"horizon", "1"}};
  g.engine = {"seed", "threads", "delta", "part_states"};
  EXPECT_TRUE(IsRolloutBatch(g, options));
  g.engine.push_back("samples");
  EXPECT_TRUE(testing::ThrowsNaming([&] { IsRolloutBatch(g, options); }, "--samples"));
  g.surface = BatchSurface::kPython;
  EXPECT_TRUE(testing::ThrowsNaming([&] { IsRolloutBatch(g, options); }, "samples belongs"));
  g = GivenBatchOptions{};
  g.rollout = {{"rollouts", "4"}};
  options.outputs = {"com"};
  EXPECT_TRUE(testing::ThrowsNaming([&] { IsRolloutBatch(g, options); }, "--output"));
  options.outputs.clear();
  g = GivenBatchOptions{};
  g.rollout = {{"horizon", "1"}};
  EXPECT_TRUE(testing::ThrowsNaming([&] { IsRolloutBatch(g, options); }, "--horizon"));
}

}  // namespace
}  // namespace impactset::batch
