// The engine API (engine/run.hpp): Run, Merge of shards into exactly one run's result, the
// dataset round trip, defaults and option validation.
#include <impactset/engine/run.hpp>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/common/version.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/merge.hpp>
#include <impactset/systems/builtin.hpp>
#include "test_util.hpp"

namespace impactset::engine {
namespace {

using impactset::testing::Example;

RunOptions Options(const systems::LoadedProblem& lp, long long samples, bool keep) {
  RunOptions o = DefaultRunOptions(lp.settings);
  o.sampler.samples = samples;
  o.sampler.seed = 17;
  o.sampler.threads = 2;
  o.sampler.keep_samples = keep;
  o.sampler.keep_trajectories = keep;
  o.set_options.holdout = 200;
  return o;
}

std::vector<RunResult> Shards(const systems::LoadedProblem& lp, const RunOptions& base, int n) {
  std::vector<RunResult> shards;
  for (int i = n - 1; i >= 0; --i) {  // any order
    RunOptions o = base;
    o.sampler.shard_index = i;
    o.sampler.shard_count = n;
    shards.push_back(engine::Run(lp.problem, o, "example"));
  }
  return shards;
}

// Every field a dataset stores, compared bitwise.
void ExpectSameSets(const std::vector<sets::PointSet>& a, const std::vector<sets::PointSet>& b) {
  ASSERT_EQ(a.size(), b.size());
  ASSERT_FALSE(a.empty());
  for (size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(std::string(ToString(a[i].set)) + "/" + a[i].output);
    EXPECT_EQ(a[i].set, b[i].set);
    EXPECT_EQ(a[i].output, b[i].output);
    EXPECT_EQ(a[i].net.points, b[i].net.points);
    EXPECT_EQ(a[i].net.epsilon, b[i].net.epsilon);
    EXPECT_EQ(a[i].net.offered, b[i].net.offered);
    EXPECT_EQ(a[i].net.construction, b[i].net.construction);
    EXPECT_EQ(a[i].hull.status, b[i].hull.status);
    EXPECT_EQ(a[i].hull.vertices, b[i].hull.vertices);
    EXPECT_EQ(a[i].hull.volume, b[i].hull.volume);
    ASSERT_GT(a[i].support.directions.cols(), 0);
    EXPECT_EQ(a[i].support.directions, b[i].support.directions);
    EXPECT_EQ(a[i].support.values, b[i].support.values);  // bitwise
    EXPECT_EQ(a[i].support.attaining_samples, b[i].support.attaining_samples);
    EXPECT_EQ(a[i].support.attaining_points, b[i].support.attaining_points);
    EXPECT_EQ(a[i].support.count, b[i].support.count);
    ASSERT_EQ(a[i].coverage.has_value(), b[i].coverage.has_value());
    if (a[i].coverage) {
      EXPECT_EQ(a[i].coverage->missed, b[i].coverage->missed);
      EXPECT_EQ(a[i].coverage->missed_mass_upper, b[i].coverage->missed_mass_upper);
    }
  }
}

class MergeOnPaperExamples : public ::testing::TestWithParam<std::string> {};

TEST_P(MergeOnPaperExamples, ShardsWithKeptSamplesMergeIntoTheSingleRun) {
  const auto lp = Example(GetParam());
  const RunOptions o = Options(lp, GetParam() == "disk-stack" ? 300 : 2000, true);
  const RunResult one = engine::Run(lp.problem, o, "example");
  const RunResult merged = Merge(Shards(lp, o, 3));
  EXPECT_EQ(merged.count, one.count);
  EXPECT_EQ(merged.first_sample, 0);
  EXPECT_EQ(merged.options.sampler.shard_count, 1);
  ASSERT_TRUE(merged.samples.has_value());
  EXPECT_EQ(merged.samples->v_plus, one.samples->v_plus);
  EXPECT_EQ(merged.samples->status, one.samples->status);
  EXPECT_EQ(merged.samples->lcp_solves, one.samples->lcp_solves);
  EXPECT_EQ(merged.samples->trajectories, one.samples->trajectories);
  EXPECT_EQ(merged.samples->trajectory_offsets, one.samples->trajectory_offsets);
  EXPECT_EQ(merged.summary.samples, one.summary.samples);
  EXPECT_EQ(merged.summary.solves_histogram, one.summary.solves_histogram);
  EXPECT_EQ(merged.summary.contact_velocity_min, one.summary.contact_velocity_min);
  EXPECT_EQ(merged.summary.contact_velocity_max, one.summary.contact_velocity_max);
  ExpectSameSets(merged.sets, one.sets);
  // The stored form too: the merged file is the single run's file.
  const data::Dataset a = ToDataset(merged), b = ToDataset(one);
  EXPECT_EQ(a.run.sample_count, b.run.sample_count);
  EXPECT_EQ(a.samples->status, b.samples->status);
  EXPECT_EQ(a.reachable->offsets, b.reachable->offsets);
}

INSTANTIATE_TEST_SUITE_P(PaperExamples,
                         MergeOnPaperExamples,
                         ::testing::ValuesIn(impactset::testing::kPaperExamples),
                         [](const auto& info) { return impactset::testing::TestName(info.param); });

TEST(Merge, WithoutKeptSamplesTheNetIsTheUnionOfShardNetsAndStillCovers) {
  const auto lp = Example("compass-gait");
  RunOptions o = Options(lp, 3000, false);
  const RunResult merged = Merge(Shards(lp, o, 2));
  o.sampler.keep_samples = true;  // the same samples, kept, to check the covering property
  const RunResult one = engine::Run(lp.problem, o, "example");
  const sets::PointSet* s = merged.Find(sets::SetKind::kPostImpact, sets::Coordinates::kContact);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->net.construction, sets::NetConstruction::kUnionOfShardNets);
  // Every terminated sample, and the polish of the merged run, which is the whole run's.
  const sets::PointSet* whole = one.Find(sets::SetKind::kPostImpact, sets::Coordinates::kContact);
  ASSERT_NE(whole, nullptr);
  EXPECT_GT(s->net.offered, one.summary.terminated);
  EXPECT_EQ(s->net.offered, whole->net.offered);
  EXPECT_EQ(s->support.values, whole->support.values);
  const MatrixXd terminated =
      sampling::TerminatedColumns(one.samples->contact_velocity, one.samples->status);
  ASSERT_GT(terminated.cols(), 0);
  for (Eigen::Index k = 0; k < terminated.cols(); ++k) {
    const double d = (s->net.points.colwise() - terminated.col(k)).colwise().norm().minCoeff();
    ASSERT_LE(d, s->net.epsilon) << "sample " << k;
  }
  EXPECT_EQ(merged.summary.samples, 3000);
}

std::string MergeMessage(std::vector<RunResult> shards) {
  try {
    Merge(std::move(shards));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

TEST(Merge, RejectsShardsOfDifferentRunsMissingOrRepeatedShards) {
  const auto lp = Example("rocking-block");
  RunOptions o = Options(lp, 400, false);
  o.sets = false;
  std::vector<RunResult> shards = Shards(lp, o, 2);
  EXPECT_NE(MergeMessage({shards[0]}).find("must be all 2 shards"), std::string::npos);
  EXPECT_NE(MergeMessage({shards[0], shards[0]}).find("appears twice"), std::string::npos);
  RunOptions other = o;
  other.sampler.seed = 18;
  other.sampler.shard_count = 2;
  std::vector<RunResult> mixed = {shards[1], engine::Run(lp.problem, other, "example")};
  EXPECT_NE(MergeMessage(mixed).find("seed"), std::string::npos) << MergeMessage(mixed);
  // Options that change the samples' bits (the Lemke re-solve threshold) or their flags (the
  // detection solve) make another run too.
  RunOptions accurate = o;
  accurate.sampler.algorithm.lemke.restore_above = lcp::kRestoreForAccuracy;
  accurate.sampler.shard_count = 2;
  accurate.sampler.shard_index = 1;
  mixed = {shards[0], engine::Run(lp.problem, accurate, "example")};
  EXPECT_NE(MergeMessage(mixed).find("lemke_restore_above"), std::string::npos)
      << MergeMessage(mixed);
  RunOptions detected = o;
  detected.sampler.algorithm.detect_non_unique = !o.sampler.algorithm.detect_non_unique;
  detected.sampler.shard_count = 2;
  detected.sampler.shard_index = 1;
  mixed = {shards[0], engine::Run(lp.problem, detected, "example")};
  EXPECT_NE(MergeMessage(mixed).find("detect_non_unique"), std::string::npos)
      << MergeMessage(mixed);
  EXPECT_NE(MergeMessage({}).find("at least one shard"), std::string::npos);
}

TEST(RunResult, DatasetRoundTripKeepsOptionsSummaryAndSamples) {
  const auto lp = Example("box-wall");
  RunOptions o = Options(lp, 500, true);
  o.sampler.design = sampling::Design::kSobol;
  o.sampler.solver = lcp::SolverKind::kNative;
  o.sampler.algorithm.selection = impact::Selection::kFirst;
  o.sampler.algorithm.detect_non_unique = true;  // not the default: the file must keep it
  o.sampler.algorithm.lemke.restore_above = lcp::kRestoreForAccuracy;
  const RunResult r = engine::Run(lp.problem, o, "box-wall");
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("engine_roundtrip_" + std::to_string(::getpid()) + ".h5"))
                               .string();
  WriteRun(path, r);
  const RunResult back = ReadRun(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.system, "box-wall");
  EXPECT_EQ(back.options.sampler.design, sampling::Design::kSobol);
  EXPECT_EQ(back.options.sampler.solver, lcp::SolverKind::kNative);
  EXPECT_EQ(back.options.sampler.algorithm.selection, impact::Selection::kFirst);
  EXPECT_TRUE(back.options.sampler.algorithm.detect_non_unique);
  EXPECT_EQ(back.options.sampler.algorithm.lemke.restore_above, lcp::kRestoreForAccuracy);
  EXPECT_EQ(back.options.sampler.seed, 17u);
  EXPECT_EQ(back.options.sampler.algorithm.step, o.sampler.algorithm.step);
  EXPECT_EQ(back.problem.M(), lp.problem.M());
  EXPECT_EQ(back.summary.lcp_solves, r.summary.lcp_solves);
  EXPECT_EQ(back.summary.terminated, r.summary.terminated);
  ASSERT_TRUE(back.samples.has_value());
  EXPECT_EQ(back.samples->contact_velocity, r.samples->contact_velocity);
  EXPECT_EQ(back.samples->energy_ratio, r.samples->energy_ratio);
  EXPECT_EQ(back.samples->non_unique, r.samples->non_unique);
  ExpectSameSets(back.sets, r.sets);
}

// A directed run: its sets are built from its (non-iid) samples, its hold-out is the iid one of
// the same seed whatever the design, and the dataset keeps the design's name.
TEST(Run, DirectedDesignKeepsTheIidHoldoutAndRoundTrips) {
  const auto lp = Example("compass-gait");
  RunOptions o = Options(lp, 800, true);
  o.sampler.design = sampling::Design::kDirected;
  const RunResult r = engine::Run(lp.problem, o, "compass-gait");
  const sets::PointSet* set = r.Find(sets::SetKind::kPostImpact, sets::Coordinates::kContact);
  ASSERT_NE(set, nullptr);
  ASSERT_TRUE(set->coverage.has_value());
  EXPECT_EQ(set->coverage->holdout + set->coverage->holdout_not_terminated, 200);
  // The same hold-out as an iid run of the same seed: the counts agree.
  RunOptions same = o;
  same.sampler.design = sampling::Design::kIid;
  const RunResult iid = engine::Run(lp.problem, same, "compass-gait");
  EXPECT_EQ(set->coverage->holdout,
            iid.Find(sets::SetKind::kPostImpact, sets::Coordinates::kContact)->coverage->holdout);
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("engine_directed_" + std::to_string(::getpid()) + ".h5"))
                               .string();
  WriteRun(path, r);
  const RunResult back = ReadRun(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.options.sampler.design, sampling::Design::kDirected);
  EXPECT_EQ(back.samples->v_plus, r.samples->v_plus);
  o.sampler.shard_count = 2;
  EXPECT_THROW(engine::Run(lp.problem, o, "compass-gait"), std::invalid_argument);
}

TEST(RunOptions, DefaultsComeFromTheProblemThenTheLibrary) {
  const auto lp = Example("compass-gait");
  const RunOptions o = DefaultRunOptions(lp.settings);
  EXPECT_EQ(o.sampler.algorithm.step, *lp.settings.step);
  EXPECT_EQ(o.sampler.algorithm.max_steps, *lp.settings.max_steps);
  EXPECT_EQ(o.sampler.samples, *lp.settings.samples);
  const RunOptions none = DefaultRunOptions(systems::ProblemSettings{});
  EXPECT_EQ(none.sampler.algorithm.step, kDefaultStep);
  EXPECT_EQ(none.sampler.algorithm.max_steps, kDefaultMaxSteps);
  EXPECT_EQ(none.sampler.samples, kDefaultSamples);
}

TEST(Run, RejectsBadOptionsBeforeAnyWork) {
  const auto lp = Example("rocking-block");
  RunOptions o = Options(lp, 100, false);
  o.set_options.delta = 2;
  EXPECT_TRUE(impactset::testing::ThrowsNaming([&] { engine::Run(lp.problem, o); }, "delta = 2"));
  o.sets = false;  // set options are not used, hence not checked
  EXPECT_NO_THROW(engine::Run(lp.problem, o));
  o.sampler.samples = 0;
  EXPECT_TRUE(impactset::testing::ThrowsNaming([&] { engine::Run(lp.problem, o); }, "samples = 0"));
}

TEST(Run, FindsEachSetOnceAndRecordsTheRadiusUsed) {
  const auto lp = Example("rocking-block");
  RunOptions o = Options(lp, 300, false);
  o.set_options.reachable = false;
  const RunResult r = engine::Run(lp.problem, o);
  const sets::PointSet* contact = r.Find(sets::SetKind::kPostImpact, sets::Coordinates::kContact);
  const sets::PointSet* general =
      r.Find(sets::SetKind::kPostImpact, sets::Coordinates::kGeneralized);
  ASSERT_NE(contact, nullptr);
  ASSERT_NE(general, nullptr);
  EXPECT_EQ(r.Find(sets::SetKind::kReachable, sets::Coordinates::kContact), nullptr);
  // No radius given: none recorded in the options, each net holds its own output's default,
  // 1 % of the radius pilot's width in that output.
  EXPECT_FALSE(r.options.set_options.epsilon.has_value());
  const std::vector<double> eps = sets::PilotEpsilons(lp.problem, r.Outputs(), o.sampler);
  EXPECT_EQ(contact->net.epsilon, eps[0]);
  EXPECT_EQ(general->net.epsilon, eps[1]);
  EXPECT_LT(eps[0], sets::DefaultEpsilon(lp.problem));  // the set is narrower than the speeds
  EXPECT_EQ(r.version, kVersion);
}

// Each output's default radius follows its own scale: the same coordinates in millimetres per
// second get a radius 1000 times larger (and so the same net); a given radius applies to all.
TEST(Run, EachOutputsDefaultRadiusFollowsItsScale) {
  const auto lp = Example("rocking-block");
  const impact::ImpactProblem& p = lp.problem;
  sets::OutputMap v = sets::GeneralizedOutput(p);
  sets::OutputMap mm{.name = "mm",
                     .kind = sets::Coordinates::kMap,
                     .spec = "matrix:mm",
                     .C = 1000 * MatrixXd::Identity(p.n(), p.n()),
                     .coordinate_names = {}};
  for (int i = 0; i < p.n(); ++i) mm.coordinate_names.push_back("v" + std::to_string(i));
  const std::vector<sets::OutputMap> outputs = {sets::ContactOutput(p), v, mm};
  const std::vector<double> eps = sets::DefaultEpsilons(p, outputs);
  ASSERT_EQ(eps.size(), 3u);
  EXPECT_EQ(eps[0], sets::DefaultEpsilon(p));
  EXPECT_GT(eps[1], 0);
  EXPECT_NEAR(eps[2], 1000 * eps[1], 1e-12 * eps[2]);  // roundoff of the product only

  RunOptions o = Options(lp, 400, false);
  o.set_options.reachable = false;
  o.set_options.outputs = {v, mm};
  const RunResult r = engine::Run(p, o);
  const sets::PointSet* a = r.Find(sets::SetKind::kPostImpact, "generalized");
  const sets::PointSet* b = r.Find(sets::SetKind::kPostImpact, "mm");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_GT(a->net.points.cols(), 1);
  EXPECT_EQ(a->net.points.cols(), b->net.points.cols());
  o.set_options.epsilon = 0.05;
  const RunResult given = engine::Run(p, o);
  for (const sets::PointSet& s : given.sets) EXPECT_EQ(s.net.epsilon, 0.05) << s.output;
}

// A radius beyond a set's extent is said (the net is then a single point).
TEST(Run, WarnsWhenTheRadiusExceedsASetsExtent) {
  const auto lp = Example("rocking-block");
  RunOptions o = Options(lp, 200, false);
  o.set_options.reachable = false;
  EXPECT_TRUE(EpsilonWarnings(engine::Run(lp.problem, o)).empty());
  o.set_options.epsilon = 1e3;
  const std::vector<std::string> w = EpsilonWarnings(engine::Run(lp.problem, o));
  ASSERT_EQ(w.size(), 2u);  // contact and generalized
  EXPECT_NE(w[0].find("post_impact contact: net radius eps 1e+03 exceeds the set's extent"),
            std::string::npos)
      << w[0];
}

}  // namespace
}  // namespace impactset::engine
