// engine/run.hpp's cancellation, engine/plan.hpp and engine/set_distance.hpp.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <impactset/catalog/system_catalog.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/plan.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/engine/set_distance.hpp>
#include <impactset/engine/step_scaling.hpp>
#include <impactset/systems/builtin.hpp>
#include "test_util.hpp"

namespace impactset::engine {
namespace {

using impactset::testing::ThrowsNaming;

RunOptions Options(const systems::LoadedProblem& lp, long long samples, std::uint64_t seed) {
  RunOptions o = DefaultRunOptions(lp.settings);
  o.sampler.samples = samples;
  o.sampler.seed = seed;
  o.sampler.threads = 2;
  o.set_options.holdout = 256;
  return o;
}

TEST(RunCancellation, ProgressExceptionStopsTheRunWithoutAResult) {
  const auto lp = systems::LoadBuiltin("rocking-block");
  for (bool sets : {false, true}) {
    RunOptions o = Options(lp, 1000000000, 1);  // hours if the stop were ignored
    o.sets = sets;
    long long calls = 0;
    auto progress = [&](long long, long long) {
      ++calls;
      throw sampling::Cancelled();
    };
    EXPECT_THROW(engine::Run(lp.problem, o, "rocking-block", progress), sampling::Cancelled);
    EXPECT_EQ(calls, 1);
  }
}

TEST(Plan, HoldoutAndLemma1) {
  const auto lp = systems::LoadBuiltin("compass-gait");
  PlanOptions o;
  const PlanResult plain = Plan(lp, o);
  // The radius and N a run of the problem starts from.
  RunOptions ro = ProblemRunOptions(lp);
  ro.sampler.samples = 2048;
  ro.set_options.holdout = 0;
  const RunResult run = engine::Run(lp.problem, ro, "compass-gait");
  const sets::PointSet* contact = run.Find(sets::SetKind::kPostImpact, "contact");
  ASSERT_NE(contact, nullptr);
  ASSERT_EQ(contact->net.coarsenings, 0);
  EXPECT_EQ(plain.epsilon, contact->net.epsilon);
  EXPECT_EQ(plain.max_steps, *lp.settings.max_steps);
  // K' = ceil(log 0.05 / log(1 - 0.001)) = 2995 (docs/coverage.md).
  EXPECT_EQ(plain.holdout.samples, 2995);
  EXPECT_LE(plain.holdout.missed_mass, o.missed_mass);
  EXPECT_FALSE(plain.lemma1);

  o.lipschitz = 2;
  o.max_steps = 3;
  o.epsilon = 0.1;
  const PlanResult l = Plan(lp, o);
  ASSERT_TRUE(l.lemma1);
  EXPECT_EQ(l.lemma1->cube_dimension, lp.problem.m() * 3);
  // G = ceil(L sqrt(d) / eps)^d with d = 6: ceil(2 sqrt(6) / 0.1) = 49 cells per axis.
  EXPECT_DOUBLE_EQ(l.lemma1->log_cells, 6 * std::log(49.0));
  EXPECT_GT(l.lemma1->samples, 0);
}

// A problem with no h and N of its own: the plan's N is the step pilot's, as a run's; and a
// Lemma-1 count beyond a double is stated as infinite, not thrown.
TEST(Plan, UsesTheRunsStepRuleAndSaysWhenKOverflows) {
  const auto lp = catalog::LoadSystem("cube-flat");
  PlanOptions o;
  o.lipschitz = 1;
  const PlanResult r = Plan(lp, o);
  EXPECT_EQ(r.max_steps, ProblemRunOptions(lp).sampler.algorithm.max_steps);
  ASSERT_TRUE(r.lemma1);
  EXPECT_EQ(r.lemma1->cube_dimension, lp.problem.m() * r.max_steps);
  EXPECT_TRUE(std::isinf(r.lemma1->samples));
  EXPECT_NE(r.lemma1->assumptions.find("not available"), std::string::npos);
}

TEST(Plan, BadOptionsNameTheField) {
  const auto lp = systems::LoadBuiltin("rocking-block");
  auto plan = [&](PlanOptions o) { return [&lp, o] { Plan(lp, o); }; };
  PlanOptions o;
  o.delta = 0;
  EXPECT_TRUE(ThrowsNaming(plan(o), "delta = 0"));
  o = {};
  o.epsilon = -1;
  EXPECT_TRUE(ThrowsNaming(plan(o), "epsilon = -1"));
  o = {};
  o.missed_mass = 1;
  EXPECT_TRUE(ThrowsNaming(plan(o), "missed_mass = 1"));
  o = {};
  o.max_steps = 0;
  EXPECT_TRUE(ThrowsNaming(plan(o), "max_steps = 0"));
  o = {};
  o.lipschitz = 0;
  EXPECT_TRUE(ThrowsNaming(plan(o), "lipschitz = 0"));
}

TEST(SetDistance, SamplesNetsAndTheirDistances) {
  const auto lp = systems::LoadBuiltin("compass-gait");
  RunOptions o = Options(lp, 2000, 1);
  o.sampler.keep_samples = true;
  const RunResult a = engine::Run(lp.problem, o, "compass-gait");
  o.sampler.seed = 2;
  o.sampler.keep_samples = false;
  const RunResult b = engine::Run(lp.problem, o, "compass-gait");

  const auto post = sets::SetKind::kPostImpact;
  const std::string contact = "contact";
  const SetPoints pa = PointsOf(a, post, contact, "a");
  EXPECT_EQ(pa.source, "terminated samples");
  EXPECT_EQ(pa.points.cols(), a.summary.terminated);
  EXPECT_EQ(pa.epsilon, 0);
  const SetPoints pb = PointsOf(b, post, contact, "b");
  EXPECT_EQ(pb.source, "net");
  EXPECT_EQ(pb.epsilon, b.Find(post, contact)->net.epsilon);

  // The dataset form gives the same points.
  const SetPoints from_file = PointsOf(ToDataset(a), post, contact, "a.h5");
  EXPECT_EQ(from_file.points, pa.points);

  const SetDistance self = DistanceBetween(pa, pa);
  EXPECT_EQ(self.hausdorff, 0);
  EXPECT_TRUE(self.a_to_hull_b.computed);
  EXPECT_EQ(self.a_to_hull_b.outside, 0);

  const SetDistance d = DistanceBetween(pa, pb);
  EXPECT_EQ(d.hausdorff, std::max(d.a_to_b, d.b_to_a));
  EXPECT_EQ(d.net_slack, pb.epsilon);
  // Every sample of a lies within epsilon of b's net, up to the sampling of two seeds: the
  // one-sided distance from the net to a's samples is at most a few radii (net points are
  // samples of b, and both seeds sample the same set).
  EXPECT_GT(d.b_to_a, 0);
  const double width = (pa.points.rowwise().maxCoeff() - pa.points.rowwise().minCoeff()).maxCoeff();
  EXPECT_LT(d.hausdorff, 0.25 * width);
  EXPECT_EQ(d.b_to_hull_a.status, "computed");

  // Support-function gap: 0 against itself; against b, from both runs' stored polytopes (every
  // sample), and a lower bound on the hulls' Hausdorff distance, which is at most the point sets'
  // Hausdorff distance plus b's net radius (b's samples lie within it of its net).
  EXPECT_EQ(self.support_gap, 0);
  EXPECT_EQ(d.support_source, "stored support polytopes");
  EXPECT_GT(d.support_gap, 0);
  EXPECT_LE(d.support_gap, d.hausdorff + pb.epsilon);
  EXPECT_EQ(from_file.support.values, pa.support.values);
}

TEST(SetDistance, MissingSetsAndDimensionsNameTheRun) {
  const auto lp = systems::LoadBuiltin("compass-gait");
  RunOptions o = Options(lp, 500, 1);
  o.sets = false;
  const RunResult bare = engine::Run(lp.problem, o, "compass-gait");
  EXPECT_TRUE(
      ThrowsNaming([&] { PointsOf(bare, sets::SetKind::kPostImpact, "contact", "bare.h5"); },
                   "bare.h5 = post_impact/contact"));
  o.sets = true;
  const RunResult sets = engine::Run(lp.problem, o, "compass-gait");
  const SetPoints contact = PointsOf(sets, sets::SetKind::kPostImpact, "contact", "c");
  SetPoints generalized = PointsOf(sets, sets::SetKind::kPostImpact, "generalized", "g");
  generalized.points.conservativeResize(3, Eigen::NoChange);  // 4 contact coordinates, 3 rows
  EXPECT_TRUE(ThrowsNaming([&] { DistanceBetween(contact, generalized); }, "g = 3"));
}

TEST(SetsFromSamples, EqualTheSetsOfTheStreamingRun) {
  const auto lp = systems::LoadBuiltin("compass-gait");
  RunOptions o = Options(lp, 3000, 5);
  o.sampler.keep_samples = o.sampler.keep_trajectories = true;
  o.set_options.epsilon = 0.002;
  o.set_options.reachable = true;
  const RunResult streamed = engine::Run(lp.problem, o, "compass-gait");
  o.sets = false;
  const RunResult bare = engine::Run(lp.problem, o, "compass-gait");
  const std::vector<sets::PointSet> later = SetsFromSamples(bare, streamed.options.set_options);
  ASSERT_EQ(later.size(), streamed.sets.size());
  ASSERT_EQ(later.size(), 4u);
  for (size_t i = 0; i < later.size(); ++i) {
    EXPECT_EQ(later[i].set, streamed.sets[i].set);
    EXPECT_EQ(later[i].output, streamed.sets[i].output);
    EXPECT_EQ(later[i].net.points, streamed.sets[i].net.points);
    EXPECT_EQ(later[i].hull.volume, streamed.sets[i].hull.volume);
    EXPECT_EQ(later[i].support.values, streamed.sets[i].support.values);
    EXPECT_EQ(later[i].support.attaining_samples, streamed.sets[i].support.attaining_samples);
    EXPECT_EQ(later[i].coverage.has_value(), streamed.sets[i].coverage.has_value());
    if (later[i].coverage) {
      EXPECT_EQ(later[i].coverage->missed, streamed.sets[i].coverage->missed);
    }
  }
  o.sampler.keep_samples = o.sampler.keep_trajectories = false;
  const RunResult nothing_kept = engine::Run(lp.problem, o, "compass-gait");
  EXPECT_TRUE(
      ThrowsNaming([&] { SetsFromSamples(nothing_kept, sets::SetOptions{}); }, "samples = 0"));
}

TEST(HullQueries, ContainmentAndDistanceOfARunsHull) {
  // A unit square in the plane z = 1 of R^3: a flat hull of dimension 2.
  MatrixXd square(3, 4);
  square << 0, 1, 1, 0,  //
      0, 0, 1, 1,        //
      1, 1, 1, 1;
  const sets::HullResult h = sets::HullOfPoints(square, sets::SetOptions{});
  ASSERT_EQ(h.status, sets::HullStatus::kComputed);
  ASSERT_EQ(h.dimension, 2);
  MatrixXd q(3, 3);
  q << 0.5, 2, 0.5,   //
      0.5, 0.5, 0.5,  //
      1, 1, 4;        // inside; 1 beyond the edge x = 1; 3 above the plane
  const VectorXd d = DistancesToHull(h, q);
  constexpr double kRoundoff = 1e-12;  // an SVD of O(1) points
  EXPECT_NEAR(d(0), 0, kRoundoff);
  EXPECT_NEAR(d(1), 1, kRoundoff);
  EXPECT_NEAR(d(2), 3, kRoundoff);
  EXPECT_EQ(HullContains(h, q, 1e-9), (std::vector<bool>{true, false, false}));
  EXPECT_TRUE(ThrowsNaming([&] { DistancesToHull(h, MatrixXd::Zero(2, 1)); }, "points dimension"));
  EXPECT_TRUE(ThrowsNaming([&] { DistancesToHull(sets::HullOfPoints(MatrixXd(3, 0), {}), q); },
                           "hull status = empty_net"));
}

}  // namespace
}  // namespace impactset::engine
