// Resource limits (docs/robustness.md): the size bounds at their edges (the bound passes, one
// more is refused naming the field), the ε-net cap (the radius doubles and the stored epsilon is
// the covering radius that results), and hulls Qhull gives up on (a stated status, no crash).
#include <cmath>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include <impactset/batch/batch.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/impact/impact_problem.hpp>
#include <impactset/sets/set_outputs.hpp>
#include "test_util.hpp"

namespace impactset::engine {
namespace {

using impactset::testing::Example;
using impactset::testing::ThrowsNaming;

// m contacts on n = 3 coordinates, k friction directions closed under negation (rows j + k/2 =
// -rows j), mu = 0.5: a problem of step LCP size m (k + 3).
impact::ImpactProblem Contacts(int m, int k) {
  const int n = 3;
  MatrixXd Jn(m, n), D(m * k, n);
  for (int i = 0; i < m; ++i) {
    Jn.row(i) << 1.0, 0.01 * i, 0.0;
    for (int j = 0; j < k / 2; ++j) {
      D.row(i * k + j) = Eigen::RowVector3d::Unit(1 + j % 2);
      D.row(i * k + j + k / 2) = -D.row(i * k + j);
    }
  }
  return impact::ImpactProblem(MatrixXd::Identity(n, n), Jn, D, VectorXd::Constant(m, 0.5),
                               Eigen::Vector3d(-1, 0, 0), k);
}

TEST(SizeBounds, StepLcpSizeAtTheBoundPassesAndOneMoreIsRefused) {
  static_assert(impact::kMaxStepLcpSize == 1000, "the edge cases below are written for 1000");
  const impact::ImpactProblem edge = Contacts(200, 2);  // 200 (2 + 3) = 1000
  EXPECT_EQ(edge.m() * (edge.k() + 3), impact::kMaxStepLcpSize);
  EXPECT_TRUE(ThrowsNaming([] { Contacts(143, 4); }, "m (k + 3) = 1001"));  // 143 (4 + 3)
  EXPECT_TRUE(ThrowsNaming([] { Contacts(201, 2); }, "must be <= 1000"));
  EXPECT_NO_THROW(Contacts(142, 4));  // 994
}

TEST(SizeBounds, VelocityDimensionAtTheBoundPassesAndOneMoreIsRefused) {
  auto problem = [](Eigen::Index n) {
    MatrixXd Jn = MatrixXd::Zero(1, n);
    Jn(0, 0) = 1;
    VectorXd v = VectorXd::Zero(n);
    v(0) = -1;
    return impact::ImpactProblem(MatrixXd::Identity(n, n), Jn, MatrixXd(0, n), VectorXd::Zero(1), v,
                                 0);
  };
  EXPECT_EQ(problem(impact::kMaxVelocityDimension).n(), impact::kMaxVelocityDimension);
  EXPECT_TRUE(ThrowsNaming([&] { problem(impact::kMaxVelocityDimension + 1); }, "n = 2001"));
}

TEST(SizeBounds, BatchStatesAtTheBoundPassAndOneMoreIsRefused) {
  static_assert(batch::kMaxStates == 1LL << 24, "4096 x 4096 below is the bound");
  batch::StateDesign grid;
  grid.ranges = {{"a", 0, 1, 4096}, {"b", 0, 1, 4096}};
  EXPECT_EQ(grid.Count(), batch::kMaxStates);
  EXPECT_NO_THROW(grid.Validate());
  grid.ranges[1].points = 4097;
  EXPECT_TRUE(ThrowsNaming([&] { grid.Validate(); }, "states = 16781312"));

  batch::StateDesign iid;
  iid.kind = batch::StateDesignKind::kIid;
  iid.ranges = {{"a", 0, 1, 1}};
  iid.states = batch::kMaxStates;
  EXPECT_NO_THROW(iid.Validate());
  iid.states = batch::kMaxStates + 1;
  EXPECT_TRUE(ThrowsNaming([&] { iid.Validate(); }, "states = 16777217"));

  // A table is already in memory, but its states still need the resume bitmap: same bound.
  batch::StateDesign table;
  table.kind = batch::StateDesignKind::kTable;
  table.table_names = {"a"};
  table.table = MatrixXd::Zero(batch::kMaxStates + 1, 1);
  EXPECT_TRUE(ThrowsNaming([&] { table.Validate(); }, "states = 16777217"));
}

// Distance from each column of x to its nearest column of net.
VectorXd NearestDistances(const MatrixXd& x, const MatrixXd& net) {
  VectorXd d(x.cols());
  for (Eigen::Index j = 0; j < x.cols(); ++j) {
    d(j) = (net.colwise() - x.col(j)).colwise().norm().minCoeff();
  }
  return d;
}

// max_net_points reached: the net stays under the cap, its separation doubled once per
// coarsening, and the epsilon stored is a covering radius of every sample offered.
TEST(NetCap, RadiusDoublesAndTheStoredEpsilonCoversEverySample) {
  const auto lp = Example("rocking-block");
  RunOptions o = DefaultRunOptions(lp.settings);
  o.sampler.samples = 3000;
  o.sampler.threads = 2;
  o.sampler.keep_samples = true;
  o.set_options.holdout = 0;
  o.set_options.reachable = false;
  const double requested = 1e-3 * sets::DefaultEpsilon(lp.problem);
  o.set_options.epsilon = requested;
  o.set_options.max_net_points = 25;
  const RunResult r = engine::Run(lp.problem, o, "rocking-block");
  const sets::PointSet* s = r.Find(sets::SetKind::kPostImpact, sets::Coordinates::kContact);
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(r.samples);
  EXPECT_GT(s->net.coarsenings, 0);
  EXPECT_LE(s->net.points.cols(), o.set_options.max_net_points);
  EXPECT_EQ(s->net.separation, std::ldexp(requested, static_cast<int>(s->net.coarsenings)));
  EXPECT_GT(s->net.epsilon, requested);
  // Every terminated sample is within the stored epsilon of the net.
  const MatrixXd terminated =
      sampling::TerminatedColumns(r.samples->contact_velocity, r.samples->status);
  ASSERT_GT(terminated.cols(), 0);
  EXPECT_LE(NearestDistances(terminated, s->net.points).maxCoeff(), s->net.epsilon);
  // The dataset stores the radius that holds, and how it came about.
  const RunResult back = FromDataset(ToDataset(r));
  const sets::PointSet* b = back.Find(sets::SetKind::kPostImpact, sets::Coordinates::kContact);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->net.epsilon, s->net.epsilon);
  EXPECT_EQ(b->net.coarsenings, s->net.coarsenings);
  // Without the cap: the requested radius, no coarsening.
  o.set_options.max_net_points = 1000000;
  const RunResult free = engine::Run(lp.problem, o, "rocking-block");
  const sets::PointSet* f = free.Find(sets::SetKind::kPostImpact, sets::Coordinates::kContact);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->net.coarsenings, 0);
  EXPECT_EQ(f->net.epsilon, requested);
  EXPECT_GT(f->net.points.cols(), 25);
}

// Points flat to 1e-13 in one direction, kept 4-D by a flatness tolerance of 1e-17: Qhull gives
// up on some of them. Each hull is computed or failed with Qhull's message; the run goes on.
TEST(HullLimits, QhullGivingUpIsAStatedStatusNotACrash) {
  sets::SetOptions so;
  so.flatness_tolerance = 1e-17;
  int failed = 0;
  for (double h : {3e-14, 5e-14, 1e-13}) {
    for (unsigned seed = 1; seed <= 8; ++seed) {
      std::mt19937_64 rng(seed);
      std::uniform_real_distribution<double> u(-1, 1);
      MatrixXd x(4, 1000);
      for (Eigen::Index i = 0; i < x.size(); ++i) x(i) = u(rng);
      x.row(3) *= h;
      const sets::HullResult hull = sets::HullOfPoints(x, so, 0.0);
      ASSERT_TRUE(hull.status == sets::HullStatus::kComputed ||
                  hull.status == sets::HullStatus::kFailed);
      if (hull.status == sets::HullStatus::kComputed) continue;
      ++failed;
      EXPECT_EQ(hull.detail.rfind("failed: Qhull failed on 1000 points in dimension 4", 0), 0u)
          << hull.detail.substr(0, 200);
      EXPECT_TRUE(hull.HasQhullMessages());
      EXPECT_EQ(hull.dimension, 4);
      EXPECT_EQ(hull.vertices.cols(), 0);
    }
  }
  EXPECT_GE(failed, 1) << "Qhull hulled every near-flat set: the failure path went untested";
}

// Above hull_max_points the hull is that of a thinned net, and detail says so (the thinning's
// geometry is tested in set_outputs_test.cpp).
TEST(HullLimits, HullPointCapThinsAndSaysSo) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g;
  MatrixXd x(3, 400);
  for (Eigen::Index i = 0; i < x.size(); ++i) x(i) = g(rng);
  sets::SetOptions so;
  so.hull_max_points = 50;
  const sets::HullResult hull = sets::HullOfPoints(x, so, 1e-3);
  ASSERT_EQ(hull.status, sets::HullStatus::kComputed);
  EXPECT_EQ(hull.detail.rfind("computed from a thinned net", 0), 0u) << hull.detail;
  EXPECT_NE(hull.detail.find("hull_max_points 50"), std::string::npos) << hull.detail;
  EXPECT_LE(hull.qhull_points, 50);
  EXPECT_GT(hull.thinning_radius, 1e-3);
  so.hull_max_points = 400;  // at the cap: not thinned
  const sets::HullResult whole = sets::HullOfPoints(x, so, 1e-3);
  EXPECT_EQ(whole.detail.rfind("computed", 0), 0u);
  EXPECT_EQ(whole.detail.find("thinned"), std::string::npos) << whole.detail;
  EXPECT_EQ(whole.thinning_radius, 0.0);
}

}  // namespace
}  // namespace impactset::engine
