// The set outputs of `impactset run` (sets/set_outputs.hpp): nets cover every sample, hulls
// contain every sample, flat sets get hulls of their own dimension, and everything is the same at
// any thread count and block size.
#include <impactset/engine/run.hpp>
#include <impactset/sets/set_outputs.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/set_distance.hpp>
#include <impactset/setapprox/coverage.hpp>
#include <impactset/setapprox/distances.hpp>
#include <impactset/setapprox/support_polytope.hpp>
#include <impactset/sets/features.hpp>
#include <impactset/sets/set_builder.hpp>
#include <impactset/systems/matrix_input.hpp>
#include "test_util.hpp"

namespace impactset::engine {
namespace {

using impactset::testing::Example;
using impactset::testing::TestName;

// Hull containment is tested against numbers that went through an SVD projection and Qhull's
// facet arithmetic: 1e-9 absolute covers their roundoff on O(1) velocities.
constexpr double kRoundoff = 1e-9;

sampling::SamplerOptions Options(const systems::LoadedProblem& lp, long long samples, int threads) {
  sampling::SamplerOptions o;
  o.algorithm.step = *lp.settings.step;
  o.algorithm.max_steps = *lp.settings.max_steps;
  o.samples = samples;
  o.seed = 7;
  o.threads = threads;
  o.keep_samples = true;
  o.keep_trajectories = true;
  return o;
}

struct SetRun {
  sampling::SamplerResult result;
  std::vector<sets::PointSet> sets;
  std::vector<double> epsilons;  ///< the requested radius of each output, in the outputs' order
  std::vector<std::string> outputs;
};

SetRun Sample(const systems::LoadedProblem& lp,
              const sampling::SamplerOptions& o,
              const sets::SetOptions& so,
              long long block_size = 4096) {
  sets::SetBuilder builder(lp.problem, so);
  sampling::StreamOptions stream = builder.Stream();
  stream.block_size = block_size;
  SetRun r;
  r.result = sampling::RunSampler(lp.problem, o, {}, stream);
  r.sets = builder.Finish(o);
  r.epsilons = builder.epsilons();
  for (const sets::OutputMap& out : builder.outputs()) r.outputs.push_back(out.name);
  return r;
}

const sets::PointSet& Find(const SetRun& r, sets::SetKind set, sets::Coordinates coords) {
  for (const auto& s : r.sets) {
    if (s.set == set && s.output == ToString(coords)) return s;
  }
  ADD_FAILURE() << "no set " << ToString(set) << "/" << ToString(coords);
  return r.sets.front();
}

/// Largest violation of hull containment over the columns of x: max of the distance off the
/// hull's subspace and the largest facet value (<= 0 inside).
/// No columns gives +infinity, so that a check over an empty list fails.
double HullViolation(const sets::HullResult& h, const MatrixXd& x) {
  if (x.cols() == 0) return std::numeric_limits<double>::infinity();
  double worst = -std::numeric_limits<double>::infinity();
  for (Eigen::Index k = 0; k < x.cols(); ++k) {
    const VectorXd d = x.col(k) - h.center;
    const VectorXd y = h.basis.transpose() * d;
    const double off = (d - h.basis * y).norm();
    double facet = -std::numeric_limits<double>::infinity();
    for (Eigen::Index f = 0; f < h.facet_offsets.size(); ++f) {
      facet = std::max(facet, h.facet_normals.col(f).dot(y) + h.facet_offsets(f));
    }
    if (h.dimension == 0) facet = 0;
    worst = std::max({worst, off, facet});
  }
  return worst;
}

/// Columns of x with status kTerminated.
MatrixXd Terminated(const MatrixXd& x, const std::vector<impact::SampleStatus>& status) {
  MatrixXd t(x.rows(), 0);
  for (Eigen::Index k = 0; k < x.cols(); ++k) {
    if (status[static_cast<size_t>(k)] != impact::SampleStatus::kTerminated) continue;
    t.conservativeResize(Eigen::NoChange, t.cols() + 1);
    t.col(t.cols() - 1) = x.col(k);
  }
  return t;
}

class SetOutputsOnPaperExamples : public ::testing::TestWithParam<std::string> {};

TEST_P(SetOutputsOnPaperExamples, NetsAndHullsCoverEveryKeptSample) {
  const auto lp = Example(GetParam());
  const long long samples = GetParam() == "disk-stack" ? 400 : 3000;
  sets::SetOptions so;
  so.holdout = 500;
  so.reachable = true;
  so.max_net_points = 400;  // the reachable nets exceed it: their radius doubles
  const SetRun r = Sample(lp, Options(lp, samples, 2), so);
  const sampling::SampleArrays& rec = r.result.records;
  const MatrixXd contact = Terminated(rec.contact_velocity, rec.status);
  const MatrixXd generalized = Terminated(rec.v_plus, rec.status);
  ASSERT_GT(contact.cols(), 0);
  const MatrixXd reach_generalized = rec.trajectories;
  const MatrixXd reach_contact = lp.problem.ContactJacobian() * rec.trajectories;
  struct Case {
    sets::SetKind set;
    sets::Coordinates coords;
    const MatrixXd* points;
  };
  for (const Case c :
       {Case{sets::SetKind::kPostImpact, sets::Coordinates::kContact, &contact},
        Case{sets::SetKind::kPostImpact, sets::Coordinates::kGeneralized, &generalized},
        Case{sets::SetKind::kReachable, sets::Coordinates::kContact, &reach_contact},
        Case{sets::SetKind::kReachable, sets::Coordinates::kGeneralized, &reach_generalized}}) {
    SCOPED_TRACE(std::string(ToString(c.set)) + "/" + ToString(c.coords));
    const sets::PointSet& s = Find(r, c.set, c.coords);
    EXPECT_LE(s.net.points.cols(), so.max_net_points);
    const auto at = std::find(r.outputs.begin(), r.outputs.end(), s.output) - r.outputs.begin();
    ASSERT_LT(at, static_cast<std::ptrdiff_t>(r.epsilons.size()));
    EXPECT_EQ(s.net.epsilon == r.epsilons[static_cast<std::size_t>(at)], s.net.coarsenings == 0);
    EXPECT_EQ(s.net.offered, c.points->cols());
    // Definition 1: every sample within the stored epsilon (the covering radius, which grows
    // when the cap forces coarsening) of the net, a subset of the samples.
    const VectorXd d = setapprox::NearestDistances(*c.points, s.net.points);
    EXPECT_LE(d.maxCoeff(), s.net.epsilon);
    if (s.hull.status != sets::HullStatus::kComputed) {
      EXPECT_EQ(s.hull.status, sets::HullStatus::kDimensionTooHigh) << s.hull.detail;
      EXPECT_GT(s.hull.dimension, so.hull_max_dimension) << s.hull.detail;
      continue;
    }
    // Net points lie in the hull up to the flatness of the affine fit and Qhull's roundoff;
    // every sample lies within epsilon of a net point, hence within epsilon of the hull.
    EXPECT_LE(HullViolation(s.hull, s.net.points),
              s.hull.flatness + s.hull.distance_roundoff + kRoundoff);
    EXPECT_LE(HullViolation(s.hull, *c.points),
              s.net.epsilon + s.hull.flatness + s.hull.distance_roundoff + kRoundoff);
    EXPECT_GE(s.hull.volume, 0.0);
  }
  // The hold-out statement exists for both post-impact nets and is a probability bound.
  for (sets::Coordinates coords : {sets::Coordinates::kContact, sets::Coordinates::kGeneralized}) {
    const sets::PointSet& s = Find(r, sets::SetKind::kPostImpact, coords);
    ASSERT_TRUE(s.coverage.has_value());
    EXPECT_EQ(s.coverage->holdout + s.coverage->holdout_not_terminated, so.holdout);
    EXPECT_GT(s.coverage->holdout, 0);
    EXPECT_GE(s.coverage->missed_mass_upper,
              static_cast<double>(s.coverage->missed) / s.coverage->holdout);
    EXPECT_LE(s.coverage->missed_mass_upper, 1.0);
    EXPECT_FALSE(s.coverage->lemma1);
  }
}

INSTANTIATE_TEST_SUITE_P(PaperExamples,
                         SetOutputsOnPaperExamples,
                         ::testing::ValuesIn(impactset::testing::kPaperExamples),
                         [](const auto& info) { return TestName(info.param); });

TEST(SetOutputs, FlatSetsGetHullsOfTheirOwnDimension) {
  // Box-wall (docs/examples.md 3.1): the contact velocities (nA, nB, tA, tB) are the image of the
  // planar box's 3-D generalized velocity, and contact A's normal velocity always ends at 0, so
  // the post-impact set is (at most) 2-D in R^4: it must get a 2-D hull, not a Qhull "flat
  // simplex" error.
  const auto lp = Example("box-wall");
  sets::SetOptions so;
  so.holdout = 0;
  const SetRun r = Sample(lp, Options(lp, 3000, 2), so);
  const sets::PointSet& s = Find(r, sets::SetKind::kPostImpact, sets::Coordinates::kContact);
  const MatrixXd cv = Terminated(r.result.records.contact_velocity, r.result.records.status);
  EXPECT_LT(cv.row(0).cwiseAbs().maxCoeff(), 1e-6);  // the premise: nA = 0
  EXPECT_EQ(lp.problem.n(), 3);
  ASSERT_EQ(s.hull.status, sets::HullStatus::kComputed) << s.hull.detail;
  EXPECT_EQ(s.hull.dimension, 2);
  EXPECT_GT(s.hull.volume, 0.0);
  EXPECT_FALSE(s.coverage->holdout > 0);
}

TEST(SetOutputs, DiskStackPostImpactHullIsNineDimensional) {
  // The default hull_max_dimension (6) skips the disk stack's hulls; allowed up to 9, Qhull
  // builds the 9-D hull of the post-impact nets (a few seconds for ~170 points; the reachable
  // set's 9-D hulls take minutes, so they stay off here) and it holds every sample.
  const auto lp = Example("disk-stack");
  sets::SetOptions so;
  so.holdout = 0;
  so.reachable = false;
  so.hull_max_dimension = 9;
  const SetRun r = Sample(lp, Options(lp, 400, 2), so);
  const sampling::SampleArrays& rec = r.result.records;
  for (sets::Coordinates coords : {sets::Coordinates::kContact, sets::Coordinates::kGeneralized}) {
    SCOPED_TRACE(ToString(coords));
    const sets::PointSet& s = Find(r, sets::SetKind::kPostImpact, coords);
    ASSERT_EQ(s.hull.status, sets::HullStatus::kComputed) << s.hull.detail;
    EXPECT_EQ(s.hull.dimension, 9);
    const MatrixXd x = Terminated(
        coords == sets::Coordinates::kContact ? rec.contact_velocity : rec.v_plus, rec.status);
    EXPECT_LE(HullViolation(s.hull, x),
              s.net.epsilon + s.hull.flatness + s.hull.distance_roundoff + kRoundoff);
  }
}

TEST(SetOutputs, SameNetsAtAnyThreadCountAndBlockSize) {
  const auto lp = Example("compass-gait");
  sets::SetOptions so;
  so.holdout = 300;
  so.lipschitz = 2.0;
  so.reachable = true;
  const SetRun a = Sample(lp, Options(lp, 5001, 1), so, 4096);
  ASSERT_EQ(a.sets.size(), 4u);  // post-impact and reachable, contact and generalized
  for (auto [threads, block] : {std::pair{2, 4096LL}, std::pair{2, 97LL}, std::pair{16, 1000LL}}) {
    const SetRun b = Sample(lp, Options(lp, 5001, threads), so, block);
    ASSERT_EQ(a.sets.size(), b.sets.size());
    for (size_t i = 0; i < a.sets.size(); ++i) {
      SCOPED_TRACE(std::string(ToString(a.sets[i].set)) + "/" + a.sets[i].output + " threads " +
                   std::to_string(threads) + " block " + std::to_string(block));
      EXPECT_EQ(a.sets[i].net.points, b.sets[i].net.points);  // bitwise
      EXPECT_EQ(a.sets[i].hull.vertices, b.sets[i].hull.vertices);
      EXPECT_EQ(a.sets[i].hull.volume, b.sets[i].hull.volume);
      EXPECT_EQ(a.sets[i].support.values, b.sets[i].support.values);
      EXPECT_EQ(a.sets[i].support.attaining_samples, b.sets[i].support.attaining_samples);
      EXPECT_EQ(a.sets[i].support.attaining_points, b.sets[i].support.attaining_points);
      if (a.sets[i].coverage) {
        EXPECT_EQ(a.sets[i].coverage->missed, b.sets[i].coverage->missed);
        EXPECT_EQ(a.sets[i].coverage->failure_bound, b.sets[i].coverage->failure_bound);
      }
    }
  }
  const auto& c = *Find(a, sets::SetKind::kPostImpact, sets::Coordinates::kContact).coverage;
  EXPECT_TRUE(c.lemma1);
  EXPECT_EQ(c.cube_dimension, lp.problem.m() * *lp.settings.max_steps);
  EXPECT_GT(c.samples_needed, 0.0);
}

TEST(SetOutputs, ParallelPreparedNetsEqualTheSerialPass) {
  // The stream's prepare step tests points against net snapshots on the workers; the reference
  // has no prepare step, so every point is offered serially. Small blocks give hundreds of
  // blocks (snapshots retaken many times); a small cap forces coarsenings (stale snapshots).
  const auto lp = Example("rocking-block");
  for (long long cap : {50000LL, 60LL}) {
    sets::SetOptions so;
    so.holdout = 0;
    so.reachable = true;
    so.max_net_points = cap;
    const auto o1 = Options(lp, 20001, 1);
    sets::SetBuilder serial(lp.problem, so);
    sampling::StreamOptions plain = serial.Stream();
    plain.prepare = nullptr;
    plain.block_size = 97;
    sampling::RunSampler(lp.problem, o1, {}, plain);
    const std::vector<sets::PointSet> a = serial.Sets();
    ASSERT_EQ(a.size(), 4u);
    for (int threads : {1, 2, 16}) {
      const SetRun b = Sample(lp, Options(lp, 20001, threads), so, 97);
      ASSERT_EQ(a.size(), b.sets.size());
      for (size_t i = 0; i < a.size(); ++i) {
        SCOPED_TRACE(std::string(ToString(a[i].set)) + "/" + a[i].output + " threads " +
                     std::to_string(threads) + " cap " + std::to_string(cap));
        EXPECT_EQ(a[i].net.points, b.sets[i].net.points);  // bitwise
        EXPECT_EQ(a[i].net.offered, b.sets[i].net.offered);
        EXPECT_EQ(a[i].net.coarsenings, b.sets[i].net.coarsenings);
        EXPECT_EQ(a[i].net.epsilon, b.sets[i].net.epsilon);
        EXPECT_EQ(a[i].support.values, b.sets[i].support.values);
        EXPECT_EQ(a[i].support.attaining_samples, b.sets[i].support.attaining_samples);
        EXPECT_EQ(a[i].support.count, b.sets[i].support.count);
      }
    }
    if (cap < 100) {
      long long coarsened = 0;
      for (const sets::PointSet& s : a) coarsened += s.net.coarsenings;
      EXPECT_GT(coarsened, 0);
    }
  }
}

TEST(SetOutputs, Lemma1IsStatedOnlyWhenEverySampleTerminated) {
  // Lemma 1's sub-cube argument covers a terminated outcome by the sample in its sub-cube, which
  // the net covers only if that sample terminated. With L tiny there is one sub-cube (G = 1), so
  // the bound would be 0 for any K >= 1: it must be stated only when every sample terminated.
  // L is the contact output's constant: the generalized output says why it has no statement.
  const auto lp = Example("rocking-block");
  sets::SetOptions so;
  so.holdout = 0;
  so.reachable = false;
  so.lipschitz = 1e-9;
  for (int max_steps : {1, *lp.settings.max_steps}) {
    SCOPED_TRACE("N = " + std::to_string(max_steps));
    sampling::SamplerOptions o = Options(lp, 400, 2);
    ASSERT_EQ(o.design, sampling::Design::kMixed);  // the default: K counts its iid half
    o.algorithm.max_steps = max_steps;
    const SetRun r = Sample(lp, o, so);
    const long long not_terminated = r.result.summary.samples - r.result.summary.terminated;
    ASSERT_GT(r.result.summary.terminated, 0);
    if (max_steps == 1) {
      ASSERT_GT(r.result.summary.step_capped, 0);  // the premise: N = 1 caps most samples
    } else {
      ASSERT_EQ(not_terminated, 0);  // the premise: the example's N finishes every sample
    }
    const sets::CoverageResult& g =
        *Find(r, sets::SetKind::kPostImpact, sets::Coordinates::kGeneralized).coverage;
    EXPECT_FALSE(g.lemma1);
    EXPECT_EQ(g.failure_bound, 1.0);
    EXPECT_NE(g.lemma1_assumptions.find("not stated for this output"), std::string::npos);
    const sets::CoverageResult& c =
        *Find(r, sets::SetKind::kPostImpact, sets::Coordinates::kContact).coverage;
    EXPECT_TRUE(c.lemma1);
    EXPECT_EQ(c.log_cells, 0.0);
    EXPECT_EQ(c.cube_dimension, lp.problem.m() * max_steps);
    const std::string& text = c.lemma1_assumptions;
    if (not_terminated > 0) {
      EXPECT_EQ(c.failure_bound, 1.0);
      EXPECT_NE(text.find("No bound (failure_bound = 1): " + std::to_string(not_terminated) +
                          " of 400 samples did not terminate"),
                std::string::npos)
          << text;
      EXPECT_EQ(text.find("Every one of"), std::string::npos) << text;
    } else {
      EXPECT_EQ(c.failure_bound, 0.0);
      EXPECT_NE(text.find("Every one of the 400 samples terminated"), std::string::npos) << text;
      EXPECT_NE(text.find("K = 200 iid samples"), std::string::npos) << text;
      EXPECT_NE(text.find("not an (eps0 + eps)-net"), std::string::npos) << text;
      EXPECT_EQ(text.find("No bound"), std::string::npos) << text;
    }
  }
}

// A set with no terminated sample has no extent to state: its support values are -inf, and a
// rise of -inf - (-inf) must not read as "converged".
TEST(SetOutputs, ExtentOfAnEmptySetIsNotStated) {
  const sets::SupportResult none{.directions = MatrixXd::Identity(2, 4),
                                 .values = VectorXd::Constant(4, -INFINITY),
                                 .attaining_samples = std::vector<std::int64_t>(4, -1),
                                 .attaining_points = MatrixXd::Constant(2, 4, NAN),
                                 .count = 0,
                                 .first_half_values = VectorXd::Constant(4, -INFINITY),
                                 .first_half_end = 8};
  const sets::CoverageResult c = sets::ExtentOf(none);
  EXPECT_FALSE(c.extent);
  EXPECT_FALSE(c.extent_converged);
}

// A set that is one point up to roundoff: rises of 1e-17 against a width of 1e-16 are roundoff,
// and the extent converged; a rise of 1e-6 of the same set is reach.
TEST(SetOutputs, ExtentOfAPointSetIsConverged) {
  sets::SupportResult point{.directions = MatrixXd::Identity(2, 4),
                            .values = (VectorXd(4) << 0.5, -0.5 + 1e-16, -0.2, 0.2).finished(),
                            .attaining_samples = std::vector<std::int64_t>(4, 0),
                            .attaining_points = MatrixXd::Zero(2, 4),
                            .count = 100,
                            .first_half_values = VectorXd(4),
                            .first_half_end = 50};
  point.first_half_values = point.values;
  point.first_half_values(0) -= 1e-17;
  sets::CoverageResult c = sets::ExtentOf(point);
  EXPECT_TRUE(c.extent);
  EXPECT_TRUE(c.extent_converged) << c.extent_statement;
  EXPECT_EQ(c.extent_moved, 0.0);
  point.first_half_values(0) = point.values(0) - 1e-6;
  c = sets::ExtentOf(point);
  EXPECT_FALSE(c.extent_converged) << c.extent_statement;
}

TEST(SetOutputs, Lemma1UsesTheRadiusFixedBeforeSampling) {
  // A net capped at 4 points coarsens: its covering radius grows to at least 3 eps0. G must be
  // taken at eps0, the radius fixed before sampling (the coarsened radius depends on the data):
  // with L sqrt(d) = 2 eps0, m = 2 sub-cubes per axis (G = 2^d), where the coarsened radius would
  // give m = 1 (G = 1, a bound of 0). The iid design: K = every sample.
  const auto lp = Example("rocking-block");
  sampling::SamplerOptions o = Options(lp, 2000, 2);
  o.design = sampling::Design::kIid;
  const int d = lp.problem.m() * o.algorithm.max_steps;
  sets::SetOptions so;
  so.holdout = 0;
  so.reachable = false;
  so.epsilon = 0.01;
  so.max_net_points = 4;
  so.lipschitz = 2 * *so.epsilon / std::sqrt(static_cast<double>(d));
  const SetRun r = Sample(lp, o, so);
  ASSERT_EQ(r.result.summary.terminated, 2000);  // the premise: every sample terminates
  const sets::PointSet& s = Find(r, sets::SetKind::kPostImpact, sets::Coordinates::kContact);
  ASSERT_GT(s.net.coarsenings, 0);
  ASSERT_GE(s.net.epsilon, 3 * *so.epsilon);
  const sets::CoverageResult& c = *s.coverage;
  const setapprox::Lemma1Bound initial =
      setapprox::ComputeLemma1Bound({*so.lipschitz, d, *so.epsilon}, 2000);
  const setapprox::Lemma1Bound coarsened =
      setapprox::ComputeLemma1Bound({*so.lipschitz, d, s.net.epsilon}, 2000);
  ASSERT_NE(initial.log_cells, coarsened.log_cells);
  EXPECT_TRUE(c.lemma1);
  EXPECT_EQ(c.log_cells, initial.log_cells);
  EXPECT_EQ(c.failure_bound, initial.failure_bound);
  EXPECT_GT(c.failure_bound, 0.0);
  EXPECT_EQ(c.samples_needed,
            setapprox::PlanLemma1Samples({*so.lipschitz, d, *so.epsilon}, so.delta).samples);
  EXPECT_NE(c.lemma1_assumptions.find("eps0 = 0.01 "), std::string::npos) << c.lemma1_assumptions;
}

// Lemma 1 needs iid p-sequences: the Sobol and directed designs get no number, only the reason,
// in the result and in the file.
TEST(SetOutputs, Lemma1IsNotStatedForNonIidDesigns) {
  const auto lp = Example("rocking-block");
  sets::SetOptions so;
  so.holdout = 0;
  so.lipschitz = 1e-9;
  for (sampling::Design design :
       {sampling::Design::kSobol, sampling::Design::kSobolPlain, sampling::Design::kDirected}) {
    SCOPED_TRACE(ToString(design));
    sampling::SamplerOptions o = Options(lp, 512, 2);
    o.design = design;
    const SetRun r = Sample(lp, o, so);
    for (const sets::PointSet& s : r.sets) {
      if (s.set != sets::SetKind::kPostImpact) continue;
      ASSERT_TRUE(s.coverage);
      EXPECT_FALSE(s.coverage->lemma1);
      EXPECT_EQ(s.coverage->failure_bound, 1.0);
      EXPECT_EQ(s.coverage->log_cells, 0.0);
      EXPECT_NE(s.coverage->lemma1_assumptions.find("not stated"), std::string::npos);
    }
  }
}

// A log G too large for the K of Lemma 1 to fit a double leaves the statement without K and
// the run alone.
TEST(SetOutputs, Lemma1BeyondADoubleIsStatedWithoutK) {
  const auto lp = Example("disk-stack");
  sets::SetOptions so;
  so.holdout = 0;
  so.lipschitz = 1e6;
  sampling::SamplerOptions o = Options(lp, 256, 2);
  const SetRun r = Sample(lp, o, so);
  const sets::CoverageResult& c =
      *Find(r, sets::SetKind::kPostImpact, sets::Coordinates::kContact).coverage;
  EXPECT_TRUE(std::isinf(c.samples_needed));
}

TEST(SetOutputs, DatasetRoundTripKeepsTheSets) {
  const auto lp = Example("rocking-block");
  RunOptions o;
  o.sampler = Options(lp, 1000, 2);
  o.set_options.holdout = 100;
  o.set_options.lipschitz = 1.5;
  o.set_options.reachable = true;
  const RunResult r = engine::Run(lp.problem, o, "rocking-block");
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("sets_roundtrip_" + std::to_string(::getpid()) + ".h5"))
                               .string();
  WriteRun(path, r);
  const RunResult back = ReadRun(path);
  std::filesystem::remove(path);
  ASSERT_EQ(r.sets.size(), 4u);
  ASSERT_EQ(back.sets.size(), r.sets.size());
  for (size_t i = 0; i < r.sets.size(); ++i) {
    const auto &x = r.sets[i], &y = back.sets[i];
    EXPECT_EQ(x.set, y.set);
    EXPECT_EQ(x.output, y.output);
    EXPECT_EQ(x.net.points, y.net.points);
    EXPECT_EQ(x.net.epsilon, y.net.epsilon);
    EXPECT_EQ(x.net.offered, y.net.offered);
    EXPECT_EQ(x.net.construction, y.net.construction);
    EXPECT_EQ(x.hull.status, y.hull.status);
    EXPECT_EQ(x.hull.detail, y.hull.detail);
    EXPECT_EQ(x.hull.basis, y.hull.basis);
    EXPECT_EQ(x.hull.vertices, y.hull.vertices);
    // Files hold the facets in ambient coordinates (a = B n, b = a . c - offset); reading them
    // back in the affine hull's coordinates (n = B^T a) rounds once each way.
    constexpr double kFacetRoundTrip = 1e-12;
    ASSERT_EQ(x.hull.facet_normals.cols(), y.hull.facet_normals.cols());
    if (x.hull.facet_normals.size() > 0) {
      EXPECT_LT((x.hull.facet_normals - y.hull.facet_normals).cwiseAbs().maxCoeff(),
                kFacetRoundTrip);
      EXPECT_LT((x.hull.facet_offsets - y.hull.facet_offsets).cwiseAbs().maxCoeff(),
                kFacetRoundTrip * (1 + x.hull.center.norm()));
    }
    EXPECT_EQ(x.hull.volume, y.hull.volume);
    ASSERT_GT(x.support.directions.cols(), 0);
    EXPECT_EQ(x.support.directions, y.support.directions);
    EXPECT_EQ(x.support.values, y.support.values);
    EXPECT_EQ(x.support.attaining_samples, y.support.attaining_samples);
    EXPECT_EQ(x.support.attaining_points, y.support.attaining_points);
    EXPECT_EQ(x.support.count, y.support.count);
    ASSERT_EQ(x.coverage.has_value(), y.coverage.has_value());
    if (x.coverage) {
      EXPECT_EQ(x.coverage->missed_mass_upper, y.coverage->missed_mass_upper);
      EXPECT_EQ(x.coverage->failure_bound, y.coverage->failure_bound);
      EXPECT_EQ(x.coverage->lemma1_assumptions, y.coverage->lemma1_assumptions);
    }
  }
  EXPECT_EQ(back.options.set_options.lipschitz, 1.5);
  EXPECT_EQ(back.options.set_options.epsilon, r.options.set_options.epsilon);
  ASSERT_TRUE(back.samples.has_value());
  EXPECT_EQ(back.samples->v_plus, r.samples->v_plus);
  EXPECT_EQ(back.samples->status, r.samples->status);
  EXPECT_EQ(back.samples->trajectories, r.samples->trajectories);
  EXPECT_EQ(back.summary.solves_histogram, r.summary.solves_histogram);
  EXPECT_EQ(back.options.sampler.seed, o.sampler.seed);
  EXPECT_EQ(back.options.sampler.solver, o.sampler.solver);
}

TEST(SetOutputs, RejectsBadOptionsNamingThem) {
  const auto lp = Example("rocking-block");
  auto message = [&](sets::SetOptions so) {
    try {
      sets::SetBuilder b(lp.problem, so);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  sets::SetOptions so;
  so.epsilon = -1;
  EXPECT_NE(message(so).find("epsilon = -1"), std::string::npos) << message(so);
  so = {};
  so.delta = 1;
  EXPECT_NE(message(so).find("delta = 1"), std::string::npos) << message(so);
  so = {};
  so.lipschitz = 0;
  EXPECT_NE(message(so).find("lipschitz = 0"), std::string::npos) << message(so);
  so = {};
  so.holdout = -3;
  EXPECT_NE(message(so).find("holdout = -3"), std::string::npos) << message(so);
}

// The support polytope of the post-impact set is exact for the kept samples: h_j is the largest
// u_j . y over terminated samples, attained first by attaining_samples[j], whose point it stores.
TEST(SetOutputs, SupportPolytopeIsExactForTheSamples) {
  const auto lp = Example("compass-gait");
  RunOptions o;
  o.sampler = Options(lp, 2000, 2);
  o.sampler.keep_samples = true;
  o.set_options.holdout = 0;
  o.set_options.polish = 0;  // exact for the run's own samples (Polish.* tests the rest)
  const RunResult r = engine::Run(lp.problem, o, "compass-gait");
  const sets::PointSet* s = r.Find(sets::SetKind::kPostImpact, sets::Coordinates::kContact);
  ASSERT_NE(s, nullptr);
  const sets::SupportResult& h = s->support;
  const MatrixXd y = sampling::TerminatedColumns(r.samples->contact_velocity, r.samples->status);
  ASSERT_GT(y.cols(), 0);
  EXPECT_EQ(h.count, y.cols());
  EXPECT_EQ(h.directions, sampling::SupportDirections(static_cast<int>(y.rows()),
                                                      sets::kSetSupportExtraDirections));
  // Independent evaluation (Eigen's product, other rounding): within a few ulps of h.
  constexpr double kDotRoundoff = 1e-14;  // |u| = 1, |y| < 10: the sums' rounding
  const VectorXd best = (h.directions.transpose() * y).rowwise().maxCoeff();
  ASSERT_EQ(best.size(), h.values.size());
  for (Eigen::Index j = 0; j < best.size(); ++j) {
    EXPECT_NEAR(h.values(j), best(j), kDotRoundoff) << "direction " << j;
    const auto a = h.attaining_samples[static_cast<size_t>(j)];
    ASSERT_GE(a, 0);
    EXPECT_EQ(r.samples->status[static_cast<size_t>(a)], impact::SampleStatus::kTerminated);
    EXPECT_EQ(VectorXd(h.attaining_points.col(j)), VectorXd(r.samples->contact_velocity.col(a)));
  }
  // The net's points are samples: inside the outer description.
  const setapprox::SupportPolytope p(h.directions, h.values, h.attaining_samples,
                                     h.attaining_points, h.count);
  EXPECT_LE(p.OuterViolations(s->net.points).maxCoeff(), 0.0);
}

// Above SetOptions::hull_max_points the hull is that of a thinned net: fewer points, flagged, an
// inner approximation of the net's hull within the thinning radius.
TEST(SetOutputs, LargeNetsAreThinnedBeforeQhullAndSaySo) {
  const auto lp = Example("compass-gait");
  sets::SetOptions so;
  so.holdout = 0;
  so.reachable = true;
  so.hull_max_points = 40;
  const SetRun r = Sample(lp, Options(lp, 3000, 2), so);
  const sets::PointSet& s = Find(r, sets::SetKind::kReachable, sets::Coordinates::kGeneralized);
  ASSERT_GT(s.net.points.cols(), so.hull_max_points);
  ASSERT_EQ(s.hull.status, sets::HullStatus::kComputed);
  EXPECT_EQ(s.hull.detail.rfind("computed from a thinned net", 0), 0u) << s.hull.detail;
  EXPECT_GT(s.hull.thinning_radius, s.net.separation);
  EXPECT_LE(s.hull.qhull_points, so.hull_max_points);
  // Every net point lies within the thinning radius of the thinned hull.
  const VectorXd d = DistancesToHull(s.hull, s.net.points);
  ASSERT_GT(d.size(), 0);
  EXPECT_LE(d.maxCoeff(),
            s.hull.thinning_radius + s.hull.flatness + s.hull.distance_roundoff + kRoundoff);
  sets::SetOptions unthinned = so;
  unthinned.hull_max_points = 0;
  const sets::HullResult full = sets::HullOfPoints(s.net.points, unthinned, s.net.separation);
  EXPECT_EQ(full.thinning_radius, 0.0);
  EXPECT_LE(s.hull.volume, full.volume * (1 + 1e-9));  // inner approximation
}

// A non-physical sample's end state and its whole trajectory stay out of the sets: a point far
// outside the others, on the non-physical sample's trajectory, is offered to no net.
TEST(SetOutputs, NonPhysicalSamplesEnterNoSet) {
  const systems::LoadedProblem lp = Example("rocking-block");
  sets::SetOptions so;
  so.reachable = true;
  sets::SetBuilder builder(lp.problem, so);
  const Eigen::Index n = lp.problem.n();
  const VectorXd far = VectorXd::Constant(n, 1e3);
  MatrixXd v_plus(n, 2);
  v_plus << lp.problem.v_minus() * 0.5, far;
  const std::vector<impact::SampleStatus> status = {impact::SampleStatus::kTerminated,
                                                    impact::SampleStatus::kNonPhysical};
  MatrixXd trajectories(n, 4);  // sample 0: columns 0-1, sample 1: columns 2-3
  trajectories << lp.problem.v_minus(), v_plus.col(0), lp.problem.v_minus(), far;
  builder.ConsumePostImpact(v_plus, status);
  builder.ConsumeReachable(trajectories, {0, 2, 4}, 0, &status);
  for (const sets::PointSet& s : builder.Sets(1)) {
    if (s.output != "generalized") continue;
    ASSERT_GT(s.net.points.cols(), 0) << ToString(s.set);
    EXPECT_LT(s.net.points.cwiseAbs().maxCoeff(), 1e2) << ToString(s.set);
    EXPECT_EQ(s.net.offered, s.set == sets::SetKind::kPostImpact ? 1 : 2) << ToString(s.set);
  }
}

}  // namespace
}  // namespace impactset::engine
