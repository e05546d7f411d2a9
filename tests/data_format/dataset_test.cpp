// HDF5 round trip of the dataset format, and no file left behind on failure.
#include <impactset/data/dataset.hpp>
#include <impactset/data/read_isolation.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace impactset::data {
namespace {

// Distinct, reproducible entries (no Eigen::Random: its stream is not fixed across platforms).
Eigen::MatrixXd Filled(int rows, int cols, double offset) {
  Eigen::MatrixXd a(rows, cols);
  for (int j = 0; j < cols; ++j) {
    for (int i = 0; i < rows; ++i) a(i, j) = offset + std::sin(1.0 + i + 7.0 * j);
  }
  return a;
}

Dataset Make(bool samples, bool reachable) {
  Dataset d;
  d.run.system = "unit";
  d.run.options = {{"/", "seed", std::uint64_t{0xFFFFFFFFFFFFFFFFULL}},  // full uint64 range
                   {"/", "design", std::string("sobol")},
                   {"/", "h", 0.25},
                   {"/", "max_steps", std::int64_t{5}},
                   {"/", "samples", std::int64_t{7}}};
  d.run.sample_count = 7;
  d.run.version = "0.1.0";
  d.run.git_revision = "abc";
  d.run.created = "2026-11-22T00:00:00Z";
  d.problem.M = Eigen::MatrixXd::Identity(3, 3);
  d.problem.M(0, 2) = d.problem.M(2, 0) = 0.5;
  d.problem.Jn = Filled(2, 3, 0.0);
  d.problem.D = Eigen::MatrixXd(0, 3);  // k = 0: an empty friction basis is legal
  d.problem.contact_jacobian = d.problem.Jn;
  d.problem.mu = Eigen::VectorXd::Zero(2);
  d.problem.v_minus = Eigen::VectorXd::LinSpaced(3, -1, 1);
  d.summary.terminated = 6;
  d.summary.step_capped = 1;
  d.summary.contact_velocity_min = Eigen::VectorXd::Constant(2, -0.5);
  d.summary.contact_velocity_max = Eigen::VectorXd::Constant(2, 0.5);
  d.summary.solves_histogram = {0, 3, 4};
  if (samples) {
    SampleArrays a;
    a.v_plus = Filled(3, 7, 1.0);
    a.contact_velocity = Filled(2, 7, 2.0);
    a.lcp_solves = {1, 2, 2, 1, 2, 1, 2};
    a.status = {0, 0, 0, 0, 0, 0, 1};
    a.energy_ratio = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7};
    a.non_unique = {0, 1, 0, 0, 0, 0, 0};
    d.samples = a;
  }
  if (reachable) d.reachable = ReachableArrays{Filled(3, 10, 3.0), {0, 1, 3, 4, 5, 6, 8, 10}};
  return d;
}

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("impactset_test_" + name)).string();
}

TEST(Dataset, RoundTripIsExact) {
  for (bool with : {false, true}) {
    const Dataset d = Make(with, with);
    const std::string path = TempPath(with ? "full.h5" : "summary.h5");
    WriteDataset(path, d);
    const Dataset r = ReadDataset(path);
    EXPECT_EQ(r.run.system, d.run.system);
    // Every option attribute comes back with its value and type (HDF5 lists them by name).
    ASSERT_EQ(r.run.options.size(), d.run.options.size());
    for (const auto& a : d.run.options) {
      const auto* b = FindAttribute(r.run.options, a.group, a.name);
      ASSERT_NE(b, nullptr) << a.name;
      EXPECT_EQ(b->value, a.value) << a.name;
    }
    EXPECT_EQ(r.problem.M, d.problem.M);
    EXPECT_EQ(r.problem.Jn, d.problem.Jn);
    EXPECT_EQ(r.problem.D.rows(), 0);
    EXPECT_EQ(r.problem.v_minus, d.problem.v_minus);
    EXPECT_EQ(r.summary.solves_histogram, d.summary.solves_histogram);
    EXPECT_EQ(r.summary.contact_velocity_max, d.summary.contact_velocity_max);
    ASSERT_EQ(r.samples.has_value(), with);
    ASSERT_EQ(r.reachable.has_value(), with);
    if (with) {
      EXPECT_EQ(r.samples->v_plus, d.samples->v_plus);
      EXPECT_EQ(r.samples->contact_velocity, d.samples->contact_velocity);
      EXPECT_EQ(r.samples->status, d.samples->status);
      EXPECT_EQ(r.samples->non_unique, d.samples->non_unique);
      EXPECT_EQ(r.reachable->velocities, d.reachable->velocities);
      EXPECT_EQ(r.reachable->offsets, d.reachable->offsets);
    }
    std::filesystem::remove(path);
  }
}

TEST(Dataset, FailedWriteLeavesNoFile) {
  // A missing folder is created (the output-path policy); a regular file in the way is an error.
  const std::string plain = TempPath("plain_file");
  std::ofstream(plain) << "not a folder";
  const std::string path = plain + "/sub/out.h5";
  EXPECT_THROW(WriteDataset(path, Make(true, false)), std::invalid_argument);  // the user's path
  EXPECT_FALSE(std::filesystem::exists(path));
  std::filesystem::remove(plain);
}

TEST(Dataset, ReadingGarbageThrowsNamingThePath) {
  const std::string path = TempPath("garbage.h5");
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("not hdf5", f);
    std::fclose(f);
  }
  try {
    ReadDataset(path);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
  }
  std::filesystem::remove(path);
}

// Files on which libhdf5 itself crashes or loops (found by fuzzing, tests/fuzz/libhdf5-*): the
// read runs first in a child process, so the caller gets a runtime_error naming the file.
const std::string kFuzzDir = std::string(IMPACTSET_TEST_DATA_DIR) + "/../fuzz/";

TEST(ReadIsolation, AHangingReadIsStoppedAtTheLimit) {
  ASSERT_TRUE(ReadIsolation());  // the default
  SetReadIsolation(true, std::chrono::milliseconds(1000));
  const std::string path = kFuzzDir + "libhdf5-hang/dataset_hdf5-vlen-string-attribute.h5";
  const auto t0 = std::chrono::steady_clock::now();
  try {
    ReadDataset(path);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": reading it did not finish in"),
              std::string::npos)
        << e.what();
  }
  // 1 s plus the file's share; the bound leaves room for a loaded machine.
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 20.0);
  SetReadIsolation(true);
}

TEST(ReadIsolation, ACrashingReadIsAnError) {
  const std::string path = kFuzzDir + "libhdf5-crash/dataset_hdf5-vlen-string-overlap.h5";
  try {
    ReadDataset(path);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).find(path + ": "), 0u) << e.what();
  }
}

TEST(ReadIsolation, GoodFilesReadTheSameWithAndWithout) {
  const std::string path = TempPath("isolated.h5");
  WriteDataset(path, Make(true, true));
  const Dataset isolated = ReadDataset(path);
  SetReadIsolation(false);
  const Dataset direct = ReadDataset(path);
  SetReadIsolation(true);
  EXPECT_EQ(isolated.problem.M, direct.problem.M);
  ASSERT_TRUE(isolated.samples && direct.samples);
  EXPECT_EQ(isolated.samples->v_plus, direct.samples->v_plus);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace impactset::data
