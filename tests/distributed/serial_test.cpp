// The build without MPI (distributed/serial.cpp): compiled into this test in every build, so the
// single-process versions of distributed/'s functions stay built and equal to the engine's own.
#include <impactset/distributed/distributed.hpp>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/catalog/system_catalog.hpp>
#include "batch_test_util.hpp"

namespace impactset::distributed {
namespace {

namespace fs = std::filesystem;

std::string TempPath(const std::string& name) {
  return (fs::temp_directory_path() /
          ("impactset-serial-test-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

batch::BatchJob SmallJob() {
  const batch::StateSource source = batch::SystemSource{.system = "compass-touchdown", .fixed = {}};
  batch::StateDesign design;
  design.ranges = {{"angle", 2.4, 2.8, 2}, {"rate", -0.25, 0.25, 2}};
  engine::BatchOptions options;
  options.run.sampler.samples = 200;
  options.run.sampler.seed = 5;
  options.run.sampler.threads = 2;
  options.run.set_options.holdout = 32;
  options.part_states = 3;
  return batch::MakeBatchJob(source, design, options);
}

TEST(SerialBuild, IsOneProcess) {
  EXPECT_FALSE(Built());
  int argc = 1;
  const Session s(&argc, nullptr);
  EXPECT_EQ(&Current(), &s);
  EXPECT_EQ(s.rank(), 0);
  EXPECT_EQ(s.size(), 1);
}

TEST(SerialBuild, BatchWritesTheEngineFile) {
  const batch::BatchJob job = SmallJob();
  const std::string mine = TempPath("serial.h5"), direct = TempPath("engine.h5");
  const BatchReport report = distributed::RunBatch(job, mine, false);
  batch::RunBatch(job, direct, false);
  EXPECT_EQ(report.computed, job.Count());
  EXPECT_EQ(report.resumed, 0);
  const auto a = data::ReadBatchStates(mine, job.columns);
  const auto b = data::ReadBatchStates(direct, job.columns);
  long long samples = 0;
  for (const data::StateRecord& r : b) samples += batch::RecordSamples(job, r);
  EXPECT_GT(samples, 0);
  EXPECT_EQ(report.samples, samples);
  ASSERT_EQ(a.size(), static_cast<size_t>(job.Count()));
  testing::ExpectSameStates(a, b);
  fs::remove(mine);
  fs::remove(direct);
}

TEST(SerialBuild, RunIsTheEngineRun) {
  const systems::LoadedProblem lp = catalog::LoadSystem("rocking-block");
  engine::RunOptions o = engine::DefaultRunOptions(lp.settings);
  o.sampler.samples = 500;
  o.sampler.threads = 2;
  const std::optional<engine::RunResult> mine = distributed::Run(lp.problem, o, "rocking-block");
  ASSERT_TRUE(mine.has_value());
  const engine::RunResult direct = engine::Run(lp.problem, o, "rocking-block");
  EXPECT_EQ(mine->summary.contact_velocity_max, direct.summary.contact_velocity_max);
  ASSERT_EQ(mine->sets.size(), direct.sets.size());
  ASSERT_FALSE(direct.sets.empty());
  for (size_t i = 0; i < direct.sets.size(); ++i) {
    EXPECT_EQ(mine->sets[i].net.points, direct.sets[i].net.points) << i;
  }
}

}  // namespace
}  // namespace impactset::distributed
