// `impactset sweep` as library code: simulators::RunSweep (the runs) and
// engine::PointModelDataset (their stored form). Outcomes are compared with the models' own entry
// points run by hand, bit for bit: the sweep only chooses their parameters.
#include <impactset/simulators/sweep.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <impactset/engine/point_model.hpp>
#include <impactset/laws/jia_mason_erdmann.hpp>
#include <impactset/simulators/tilted_drop.hpp>
#include <impactset/systems/builtin.hpp>
#include <impactset/systems/planar_tree.hpp>
#include "test_util.hpp"

namespace impactset::simulators {
namespace {

using testing::ThrowsNaming;

// A point mass on the floor: one frictionless contact.
impact::ImpactProblem OneContact() {
  return impact::ImpactProblem(MatrixXd::Ones(1, 1), MatrixXd::Ones(1, 1), MatrixXd(0, 1),
                               VectorXd::Zero(1), VectorXd::Constant(1, -1), 0);
}

SweepOptions Jia(int ratios) {
  SweepOptions o;
  o.ratios = ratios;
  return o;
}

SweepOptions Compliant(int ratios) {
  SweepOptions o;
  o.model = SweepModel::kCompliant;
  o.ratios = ratios;
  return o;
}

void ExpectSameRun(const SweepRun& run,
                   const VectorXd& v_plus,
                   const VectorXd& contact_velocity,
                   long steps) {
  EXPECT_EQ(run.v_plus, v_plus);
  EXPECT_EQ(run.contact_velocity, contact_velocity);
  EXPECT_EQ(run.steps, steps);
}

TEST(Sweep, BadOptionsNameTheCommandLineField) {
  const impact::ImpactProblem p = systems::LoadBuiltin("rocking-block").problem;
  struct Case {
    std::function<void(SweepOptions&)> set;
    bool scene;
    std::string field;
  };
  const std::vector<Case> cases = {
      {[](SweepOptions& o) {
         o.ratio_min = 2;
         o.ratio_max = 1;
       },
       true, "--ratio-min, --ratio-max"},
      {[](SweepOptions& o) { o.ratio_max = NAN; }, true, "--ratio-min, --ratio-max"},
      {[](SweepOptions& o) { o.ratios = -1; }, true, "--ratios = -1"},
      {[](SweepOptions& o) { o.tilts = -1; }, true, "--tilts = -1"},
      {[](SweepOptions& o) {
         o.tilt_max = 0.01;
         o.tilts = 3;
       },
       true, "--tilt-max = 0.01: tilt sweeps need --model compliant"},
      {[](SweepOptions& o) {
         o.model = SweepModel::kCompliant;
         o.tilt_max = 0.01;
         o.tilts = 3;
       },
       false, "--tilt-max = 0.01: needs a scene"},
      {[](SweepOptions& o) {
         o.model = SweepModel::kCompliant;
         o.tilt_max = 6;
         o.tilts = 3;
       },
       true, "--tilt-max = 6"},
      {[](SweepOptions& o) {
         o.model = SweepModel::kCompliant;
         o.tilt_max = 0.01;
       },
       true, "--tilts = 0: must be >= 1 with --tilt-max"},
      {[](SweepOptions& o) { o.tilts = 2; }, true, "--tilts = 2: needs --tilt-max"},
      {[](SweepOptions& o) { o.ratios = 0; }, true, "--ratios + --tilts = 0"},
      {[](SweepOptions& o) { o.restitution = 2; }, true, "--restitution = 2"},
      {[](SweepOptions& o) { o.stiffness = 0; }, true, "--stiffness = 0"},
      {[](SweepOptions& o) { o.gravity = -1; }, true, "--gravity = -1"},
  };
  for (const Case& c : cases) {
    SweepOptions o;
    c.set(o);
    EXPECT_TRUE(ThrowsNaming([&] { ValidateSweep(p, o, c.scene); }, c.field)) << c.field;
  }
  // RunSweep validates at entry: without a scene, tilts are refused before any run.
  SweepOptions tilted = Compliant(0);
  tilted.tilt_max = 0.01;
  tilted.tilts = 3;
  EXPECT_TRUE(ThrowsNaming([&] { RunSweep(p, tilted); }, "--tilt-max = 0.01: needs a scene"));
  EXPECT_TRUE(ThrowsNaming([&] { RunSweep(OneContact(), Compliant(3)); },
                           "--ratios = 3: the compliant stiffness-ratio sweep needs exactly 2 "
                           "contacts, the system has 1"));
  EXPECT_NO_THROW(ValidateSweep(OneContact(), Jia(3), false));  // JME takes any m
}

TEST(Sweep, RatiosAreEvenlySpacedInLog10) {
  SweepOptions o = Jia(6);
  o.ratio_min = -2;
  o.ratio_max = 3;
  const SweepResult r = RunSweep(systems::LoadBuiltin("rocking-block").problem, o);
  ASSERT_EQ(r.runs.size(), 6u);
  for (int j = 0; j < 6; ++j) {
    EXPECT_EQ(r.runs[static_cast<size_t>(j)].log10_ratio, -2.0 + j);  // exact: 5 j / 5
    EXPECT_EQ(r.runs[static_cast<size_t>(j)].kind, SweepRunKind::kStiffnessRatio);
    EXPECT_EQ(r.runs[static_cast<size_t>(j)].tilt, 0.0);
  }
  o.ratios = 1;
  EXPECT_EQ(SweepLog10Ratio(o, 0), -2.0);  // one ratio: ratio_min
  o.tilt_max = 0.01;
  o.tilts = 3;
  const double limit = 0.01 * M_PI / 180;
  EXPECT_EQ(SweepTiltAngle(o, 0), -limit);
  EXPECT_EQ(SweepTiltAngle(o, 1), 0.0);
  EXPECT_EQ(SweepTiltAngle(o, 2), limit);
  o.tilts = 1;
  EXPECT_EQ(SweepTiltAngle(o, 0), 0.0);
}

TEST(Sweep, JiaOutcomesAreJmeStiffnessRatioSweeps) {
  for (const char* name : {"rocking-block", "ball-ball-table"}) {
    const impact::ImpactProblem p = systems::LoadBuiltin(name).problem;
    SweepOptions o = Jia(5);
    o.restitution = 0.5;
    const SweepResult r = RunSweep(p, o);
    laws::JmeOptions jme;
    jme.default_restitution = 0.5;
    const auto expected = laws::JmeStiffnessRatioSweep(p, jme, -5, 5, 5);
    ASSERT_EQ(r.runs.size(), expected.size()) << name;
    ASSERT_FALSE(r.runs.empty());
    for (size_t j = 0; j < expected.size(); ++j) {
      ExpectSameRun(r.runs[j], expected[j].v_plus, expected[j].contact_velocity, expected[j].steps);
      EXPECT_EQ(r.runs[j].status == SweepRunStatus::kTerminated, expected[j].terminated());
      EXPECT_EQ(r.runs[j].detail, laws::ToString(expected[j].status));
    }
    ASSERT_EQ(r.settings.size(), 1u);
    EXPECT_EQ(r.settings[0].first, "restitution");
    EXPECT_EQ(r.settings[0].second, 0.5);
  }
}

// Run j has k_0 / k_1 = 10^r_j over the documented compliant settings; without a scene there is
// no gravity.
TEST(Sweep, CompliantRunsAreSimulationsAtTheSweptStiffness) {
  const impact::ImpactProblem p = systems::LoadBuiltin("rocking-block").problem;
  SweepOptions o = Compliant(3);
  o.ratio_min = -1;
  o.ratio_max = 1;
  const SweepResult r = RunSweep(p, o);
  ASSERT_EQ(r.runs.size(), 3u);
  for (int j = 0; j < 3; ++j) {
    CompliantOptions c = SweepCompliantOptions(p, o.stiffness);
    c.stiffness_ratio = Eigen::Vector2d(std::pow(10.0, -1.0 + j), 1.0);
    const CompliantResult expected = SimulateCompliantImpact(p, c);
    ExpectSameRun(r.runs[static_cast<size_t>(j)], expected.v_plus, expected.contact_velocity,
                  expected.steps);
    EXPECT_EQ(r.runs[static_cast<size_t>(j)].detail, ToString(expected.status));
  }
  const std::vector<std::pair<std::string, double>> settings = {
      {"stiffness", 1e6}, {"damping_ratio", 5}, {"gravity", 0}};
  EXPECT_EQ(r.settings, settings);
}

TEST(Sweep, SweepCompliantOptionsFollowTheDocumentedRule) {
  const impact::ImpactProblem p = systems::LoadBuiltin("rocking-block").problem;
  const CompliantOptions c = SweepCompliantOptions(p, 2e6);
  EXPECT_EQ(c.stiffness, 2e6);
  EXPECT_EQ(c.damping_ratio, 5);
  EXPECT_EQ(c.damping_mass, 1);
  EXPECT_EQ(c.stop_velocity, 1e-3 / 2e6);
  // docs/examples.md §3.7: 1 % of max_i |(Jn v-)_i| / W_ii = 2.768e-3 N s on the rocking block.
  constexpr double kPrinted = 1e-6;  // the docs print four significant digits
  EXPECT_NEAR(c.min_impulse, 2.768e-3, kPrinted);
}

// With a scene, gravity acts during contact and tilt runs are tilted drops of the scene.
TEST(Sweep, SceneGivesGravityAndTiltedDrops) {
  const systems::LoadedScene scene = systems::LoadBuiltinScene("rocking-block");
  SweepOptions o = Compliant(1);
  o.gravity = 0;
  const SweepResult no_gravity = RunSweep(scene.problem, o, &scene);
  const SweepResult no_scene = RunSweep(scene.problem, o);
  ASSERT_EQ(no_gravity.runs.size(), 1u);
  ASSERT_EQ(no_scene.runs.size(), 1u);
  EXPECT_EQ(no_gravity.runs[0].v_plus, no_scene.runs[0].v_plus);
  o.gravity = 9.81;
  const SweepResult gravity = RunSweep(scene.problem, o, &scene);
  ASSERT_EQ(gravity.runs.size(), 1u);
  EXPECT_NE(gravity.runs[0].v_plus, no_scene.runs[0].v_plus);
  EXPECT_EQ(gravity.settings.back(), std::make_pair(std::string("gravity"), 9.81));

  o.ratios = 0;
  o.tilt_max = 0.01;
  o.tilts = 3;
  const SweepResult tilts = RunSweep(scene.problem, o, &scene);
  ASSERT_EQ(tilts.runs.size(), 3u);
  for (int j = 0; j < 3; ++j) {
    const SweepRun& run = tilts.runs[static_cast<size_t>(j)];
    EXPECT_EQ(run.kind, SweepRunKind::kTilt);
    EXPECT_EQ(run.tilt, SweepTiltAngle(o, j));
    const TiltedDrop drop = TiltScene(scene, run.tilt, o.gravity);
    CompliantOptions c = SweepCompliantOptions(scene.problem, o.stiffness);
    c.initial_gap = drop.gap;
    c.external_force = systems::GravityForce(scene.tree, drop.q, o.gravity);
    const CompliantResult expected = SimulateCompliantImpact(drop.problem, c);
    ExpectSameRun(run, expected.v_plus, expected.contact_velocity, expected.steps);
  }
}

TEST(Sweep, ColumnsFollowTheRuns) {
  const SweepResult r = RunSweep(systems::LoadBuiltin("rocking-block").problem, Jia(3));
  ASSERT_EQ(r.runs.size(), 3u);
  const MatrixXd v = r.VPlus(), y = r.ContactVelocities();
  const auto parameters = r.Parameters();
  ASSERT_EQ(parameters.size(), 4u);
  EXPECT_EQ(parameters[0].first, "log10_stiffness_ratio");
  EXPECT_EQ(parameters[3].first, "steps");
  for (int j = 0; j < 3; ++j) {
    const SweepRun& run = r.runs[static_cast<size_t>(j)];
    EXPECT_EQ(VectorXd(v.col(j)), run.v_plus);
    EXPECT_EQ(VectorXd(y.col(j)), run.contact_velocity);
    EXPECT_EQ(r.StatusCodes()[static_cast<size_t>(j)], static_cast<std::int32_t>(run.status));
    EXPECT_EQ(parameters[0].second[j], run.log10_ratio);
    EXPECT_EQ(parameters[3].second[j], static_cast<double>(run.steps));
  }
}

// ---------------------------------------------------------------- engine::PointModelDataset

// Three hand-made runs of a 2-DOF, one-contact problem; run 1 did not terminate.
engine::PointModelRuns HandRuns() {
  engine::PointModelRuns runs;
  runs.v_plus = (MatrixXd(2, 3) << 1, 5, 0.5, 0, -1, 0.25).finished();
  runs.contact_velocity = runs.v_plus.bottomRows(1);  // Jn = [0 1], no friction
  runs.status = {0, 1, 0};
  runs.sweep.model = "hand";
  runs.sweep.parameters = {{"p", (VectorXd(3) << 1, 2, 3).finished()}};
  return runs;
}

impact::ImpactProblem TwoDof() {
  return impact::ImpactProblem(MatrixXd::Identity(2, 2), (MatrixXd(1, 2) << 0, 1).finished(),
                               MatrixXd(0, 2), VectorXd::Zero(1), (VectorXd(2) << 1, -1).finished(),
                               0);
}

TEST(PointModelDataset, SummaryCountsOnlyTerminatedRuns) {
  const engine::PointModelOutput out =
      engine::PointModelDataset(TwoDof(), "hand", HandRuns(), sets::SetOptions{});
  const data::Dataset& d = out.dataset;
  EXPECT_EQ(d.run.system, "hand");
  const data::Attribute* design = data::FindAttribute(d.run.options, "/", "design");
  ASSERT_NE(design, nullptr);
  EXPECT_EQ(design->value, data::AttributeValue(std::string("sweep")));
  EXPECT_EQ(d.run.sample_count, 3);
  EXPECT_EQ(d.summary.terminated, 2);
  EXPECT_EQ(d.summary.step_capped, 1);
  // KE(v-) = 1; terminated runs: KE = 0.5 and 0.15625; the capped run's 13 is left out.
  EXPECT_EQ(d.summary.energy_ratio_max, 0.5);
  ASSERT_TRUE(d.samples.has_value());
  EXPECT_EQ(d.samples->energy_ratio, (std::vector<double>{0.5, 13, 0.15625}));
  EXPECT_EQ(d.summary.contact_velocity_min[0], 0);
  EXPECT_EQ(d.summary.contact_velocity_max[0], 0.25);
  EXPECT_EQ(d.summary.solves_histogram, (std::vector<std::int64_t>{3}));
  ASSERT_TRUE(d.sweep.has_value());
  EXPECT_EQ(d.sweep->model, "hand");
  // Post-impact sets only, over the two terminated runs; no hold-out, no reachable sets.
  ASSERT_EQ(out.sets.size(), 2u);
  ASSERT_EQ(d.sets.size(), 2u);
  for (const sets::PointSet& s : out.sets) {
    EXPECT_EQ(s.set, sets::SetKind::kPostImpact);
    EXPECT_EQ(s.net.offered, 2);
    EXPECT_FALSE(s.coverage.has_value());
    EXPECT_GT(s.net.epsilon, 0);  // each output's own radius
  }
  auto net = [&](const char* name) {
    const data::Attribute* a = data::FindAttribute(d.run.options, "/net", name);
    EXPECT_NE(a, nullptr) << name;
    return a ? a->value : data::AttributeValue{};
  };
  EXPECT_EQ(net("reachable"), data::AttributeValue(std::int64_t{0}));
  EXPECT_EQ(net("holdout"), data::AttributeValue(std::int64_t{0}));
  EXPECT_EQ(net("epsilon"), data::AttributeValue(0.0));  // 0: no --epsilon, each output its own

  const engine::PointModelOutput bare =
      engine::PointModelDataset(TwoDof(), "hand", HandRuns(), std::nullopt);
  EXPECT_TRUE(bare.sets.empty());
  EXPECT_TRUE(bare.dataset.sets.empty());
}

TEST(PointModelDataset, MismatchedRunsNameTheField) {
  auto with = [](const std::function<void(engine::PointModelRuns&)>& edit) {
    engine::PointModelRuns runs = HandRuns();
    edit(runs);
    return [runs] { engine::PointModelDataset(TwoDof(), "hand", runs, std::nullopt); };
  };
  EXPECT_TRUE(
      ThrowsNaming(with([](auto& r) { r.v_plus = MatrixXd::Zero(3, 3); }), "runs.v_plus.rows()"));
  EXPECT_TRUE(ThrowsNaming(with([](auto& r) { r.contact_velocity = MatrixXd::Zero(1, 2); }),
                           "runs.contact_velocity"));
  EXPECT_TRUE(ThrowsNaming(with([](auto& r) { r.status.pop_back(); }), "runs.status.size()"));
  EXPECT_TRUE(ThrowsNaming(with([](auto& r) { r.status[1] = 7; }), "runs.status = 7"));
  EXPECT_TRUE(ThrowsNaming(with([](auto& r) { r.sweep.parameters[0].second.resize(2); }),
                           "runs.sweep.p.size()"));
  sets::SetOptions bad;
  bad.epsilon = -1;
  EXPECT_TRUE(ThrowsNaming([&] { engine::PointModelDataset(TwoDof(), "hand", HandRuns(), bad); },
                           "epsilon"));
}

}  // namespace
}  // namespace impactset::simulators
