// The laws side by side (compare/compare.hpp): exact outcomes of a one-contact impact, properties
// of the rocking block's (non-unique) outcomes, options that take effect, and bad options naming
// their field.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

#include <impactset/compare/compare.hpp>
#include <impactset/compare/outcomes.hpp>
#include <impactset/systems/builtin.hpp>

namespace impactset::compare {
namespace {

// A unit point mass hitting a frictionless wall at 1 m/s: every law's outcome is known in closed
// form (plastic 0, elastic +1, restitution e: +e).
impact::ImpactProblem PointOnWall() {
  return impact::ImpactProblem(MatrixXd::Identity(1, 1), MatrixXd::Ones(1, 1), MatrixXd(0, 1),
                               VectorXd::Zero(1), VectorXd::Constant(1, -1.0), 0);
}

CompareOptions Small() {
  CompareOptions o;
  o.samples = 64;
  o.threads = 1;
  return o;
}

TEST(CompareLaws, NamesRoundTripInOutputOrder) {
  const std::vector<Law> all = AllLaws();
  ASSERT_EQ(all.size(), 7u);
  EXPECT_EQ(all.front(), Law::kAnitescuPotra);
  EXPECT_EQ(all.back(), Law::kRouth);
  for (Law law : all) EXPECT_EQ(ParseEnum<Law>(ToString(law)), law);
  EXPECT_EQ(ToString(Law::kJiaMasonErdmann), "jia_mason_erdmann");
}

TEST(CompareExact, PointOnWall) {
  const impact::ImpactProblem p = PointOnWall();
  CompareOptions o = Small();
  o.aghili_restitution = {0.0, 0.25, 1.0};
  o.seghete_murphey_blend_ratio = 0.3;
  const CompareResult r = Compare(p, o);
  ASSERT_TRUE(r.anitescu_potra && r.anitescu_potra->complete);
  ASSERT_EQ(r.anitescu_potra->outcomes.size(), 1u);
  EXPECT_NEAR(r.anitescu_potra->outcomes[0].v_plus(0), 0.0, 1e-12);
  ASSERT_TRUE(r.sequential && r.sequential->size() == 1u);
  EXPECT_NEAR((*r.sequential)[0].v_plus(0), 0.0, 1e-12);
  ASSERT_TRUE(r.aghili && r.aghili->runs.size() == 3u);
  for (const AghiliRun& run : r.aghili->runs) EXPECT_NEAR(run.result.v_plus(0), run.e, 1e-12);
  EXPECT_EQ(r.aghili->runs[1].e, 0.25);
  ASSERT_TRUE(r.seghete_murphey && r.seghete_murphey->settings.size() == 5u);
  const auto& sm = r.seghete_murphey->settings;
  EXPECT_NEAR(sm[0].enumeration.outcomes.at(0).v_plus(0), 1.0, 1e-12);  // elastic e=1
  EXPECT_NEAR(sm[2].plastic.v_plus(0), 0.0, 1e-12);                     // cone plastic
  EXPECT_EQ(sm[4].label, "blend R=0.3");
  ASSERT_EQ(sm[4].blended.size(), 1u);
  EXPECT_NEAR(sm[4].blended[0].v_plus(0), 0.3, 1e-12);  // 0.3 (+1) + 0.7 (0)
  EXPECT_NEAR(sm[4].blended[0].energy_ratio, 0.09, 1e-12);
  ASSERT_TRUE(r.jia_mason_erdmann && r.jia_mason_erdmann->runs.size() == 3u);
  for (const auto& run : r.jia_mason_erdmann->runs) {
    EXPECT_TRUE(run.result.terminated());
    EXPECT_NEAR(run.result.v_plus(0), 0.0, 1e-6);  // plastic e = 0, RK4
  }
  ASSERT_TRUE(r.compliant && r.compliant->runs.size() == 2u);
  ASSERT_TRUE(r.routh);
  EXPECT_EQ(r.routh->summary.terminated, 64);
  EXPECT_NEAR(r.routh->summary.contact_velocity_max(0), 0.0, 1e-8);
  EXPECT_FALSE(r.HasLcpFailures());
}

TEST(CompareProperties, RockingBlockOutcomes) {
  const systems::LoadedProblem lp = systems::LoadBuiltin("rocking-block");
  const impact::ImpactProblem& p = lp.problem;
  const CompareResult r = Compare(lp, Small());
  ASSERT_EQ(r.laws, AllLaws());
  // Two contacts: Anitescu-Potra brings the block to rest, the two orderings pivot it on one
  // corner or the other (docs/model.md: the outcome is not unique).
  ASSERT_TRUE(r.anitescu_potra && r.anitescu_potra->complete);
  ASSERT_EQ(r.anitescu_potra->outcomes.size(), 1u);
  EXPECT_LT(r.anitescu_potra->outcomes[0].v_plus.lpNorm<Eigen::Infinity>(), 1e-9);
  ASSERT_EQ(r.sequential->size(), 2u);
  EXPECT_GT(((*r.sequential)[0].v_plus - (*r.sequential)[1].v_plus).norm(), 1e-3);
  EXPECT_EQ(r.compliant->runs.size(), static_cast<size_t>(p.m() + 1));
  EXPECT_EQ(r.jia_mason_erdmann->runs.size(), static_cast<size_t>(2 * p.m() + 1));
  const std::vector<Outcome> rows = Outcomes(p, r);
  size_t expected = r.anitescu_potra->outcomes.size() + r.sequential->size() +
                    r.compliant->runs.size() + r.aghili->runs.size() +
                    r.jia_mason_erdmann->runs.size();
  for (const auto& s : r.seghete_murphey->settings) {
    expected +=
        s.law == SegheteMurpheyLaw::kPlastic ? 1 : static_cast<size_t>(s.DistinctOutcomes());
  }
  ASSERT_EQ(rows.size(), expected);
  const Eigen::Index c = p.ContactJacobian().rows();
  for (const Outcome& o : rows) {
    SCOPED_TRACE(std::string(ToString(o.law)) + " " + o.setting);
    ASSERT_EQ(o.v_plus.size(), p.n());
    ASSERT_EQ(o.contact_velocity.size(), c);
    EXPECT_LT((p.ContactJacobian() * o.v_plus - o.contact_velocity).lpNorm<Eigen::Infinity>(),
              1e-9);
    const bool dissipative = o.law == Law::kAnitescuPotra || o.law == Law::kSequential ||
                             o.law == Law::kJiaMasonErdmann || o.law == Law::kCompliant;
    if (o.converged && dissipative) {
      EXPECT_LE(o.energy_ratio, 1 + 1e-6);
      EXPECT_GE((p.Jn() * o.v_plus).minCoeff(), -1e-6);  // no contact still approaching
    }
  }
  EXPECT_LE(r.routh->summary.energy_ratio_max, 1 + 1e-9);
  EXPECT_EQ(r.routh->summary.samples, 64);
}

// The compass gait's wide step: three Anitescu-Potra solutions (docs/model.md), all kept.
TEST(CompareProperties, CompassGaitHasThreeAnitescuPotraOutcomes) {
  CompareOptions o;
  o.laws = {Law::kAnitescuPotra};
  const systems::LoadedProblem lp = systems::LoadBuiltin("compass-gait");
  const CompareResult r = Compare(lp, o);
  ASSERT_TRUE(r.anitescu_potra && r.anitescu_potra->complete);
  EXPECT_EQ(r.anitescu_potra->outcomes.size(), 3u);
  EXPECT_EQ(Outcomes(lp.problem, r).size(), 3u);
}

TEST(CompareOptionsTakeEffect, OnlyTheLawsAskedForRunInLawOrder) {
  CompareOptions o = Small();
  o.laws = {Law::kAghili, Law::kAnitescuPotra};
  const CompareResult r = Compare(PointOnWall(), o);
  EXPECT_EQ(r.laws, (std::vector<Law>{Law::kAnitescuPotra, Law::kAghili}));
  EXPECT_TRUE(r.anitescu_potra && r.aghili);
  EXPECT_FALSE(r.sequential || r.compliant || r.seghete_murphey || r.jia_mason_erdmann || r.routh);
  const std::vector<Outcome> rows = Outcomes(PointOnWall(), r);
  ASSERT_EQ(rows.size(), 4u);  // one Anitescu-Potra outcome, three Aghili runs
  EXPECT_EQ(rows[0].law, Law::kAnitescuPotra);
  EXPECT_EQ(rows[3].setting, "e=1");
}

TEST(CompareOptionsTakeEffect, StiffnessContrasts) {
  const systems::LoadedProblem lp = systems::LoadBuiltin("rocking-block");
  CompareOptions o;
  o.laws = {Law::kCompliant, Law::kJiaMasonErdmann};
  o.compliant_stiffness_contrast = 10;
  o.jia_mason_erdmann_stiffness_contrast = 4;
  const CompareResult r = Compare(lp, o);
  const auto& compliant = r.compliant->runs;
  EXPECT_EQ(compliant[1].label, "contact 0 x10");
  EXPECT_EQ(compliant[1].stiffer_contact, 0);
  EXPECT_NEAR(compliant[1].result.stiffness(0) / compliant[1].result.stiffness(1), 10, 1e-12);
  const auto& jme = r.jia_mason_erdmann->runs;
  EXPECT_EQ(jme[0].label, "equal stiffness");
  EXPECT_EQ(jme[1].label, "contact 0 x4 stiffer");
  EXPECT_EQ(jme[2].label, "contact 0 x4 softer");
  EXPECT_EQ(jme[1].stiffness(0), 4.0);
  EXPECT_EQ(jme[2].stiffness(0), 0.25);
  EXPECT_EQ(jme[2].stiffness(1), 1.0);
}

TEST(CompareOptionsTakeEffect, RouthSettingsFromOptionsThenProblemThenDefaults) {
  const impact::ImpactProblem p = PointOnWall();
  CompareOptions o;
  o.laws = {Law::kRouth};
  o.threads = 1;
  systems::ProblemSettings settings{0.5, 3, 32};
  CompareResult r = Compare(p, o, settings);
  EXPECT_EQ(r.routh->samples, 32);
  EXPECT_EQ(r.routh->step, 0.5);
  EXPECT_EQ(r.routh->max_steps, 3);
  EXPECT_EQ(r.routh->summary.samples, 32);
  o.samples = 16;
  o.step = 0.25;
  o.max_steps = 7;
  o.seed = 9;
  r = Compare(p, o, settings);
  EXPECT_EQ(r.routh->samples, 16);
  EXPECT_EQ(r.routh->step, 0.25);
  EXPECT_EQ(r.routh->max_steps, 7);
  EXPECT_EQ(r.routh->seed, 9u);
  o.samples.reset();
  o.step.reset();
  o.max_steps.reset();
  r = Compare(p, o, {});
  EXPECT_EQ(r.routh->samples, 16384);
  EXPECT_EQ(r.routh->step, 1.0);
  EXPECT_EQ(r.routh->max_steps, 10);
}

TEST(CompareOptionsTakeEffect, ProgressExceptionCancels) {
  CompareOptions o = Small();
  o.laws = {Law::kRouth};
  EXPECT_THROW(
      Compare(PointOnWall(), o, {}, [](long long, long long) { throw std::runtime_error("stop"); }),
      std::runtime_error);
}

// Each bad option throws std::invalid_argument naming its field, from Validate and from Compare.
TEST(CompareValidation, BadOptionsNameTheirField) {
  EXPECT_NO_THROW(CompareOptions().Validate());
  const std::vector<std::pair<std::string, std::function<void(CompareOptions&)>>> cases = {
      {"laws", [](CompareOptions& o) { o.laws.clear(); }},
      {"laws",
       [](CompareOptions& o) {
         o.laws = {Law::kAghili, Law::kAghili};
       }},
      {"laws", [](CompareOptions& o) { o.laws = {static_cast<Law>(42)}; }},
      {"samples", [](CompareOptions& o) { o.samples = 0; }},
      {"step", [](CompareOptions& o) { o.step = 0.0; }},
      {"step", [](CompareOptions& o) { o.step = std::nan(""); }},
      {"max_steps", [](CompareOptions& o) { o.max_steps = 0; }},
      {"threads", [](CompareOptions& o) { o.threads = -1; }},
      {"aghili_restitution", [](CompareOptions& o) { o.aghili_restitution.clear(); }},
      {"aghili_restitution",
       [](CompareOptions& o) {
         o.aghili_restitution = {0.5, 1.5};
       }},
      {"compliant_stiffness_contrast",
       [](CompareOptions& o) { o.compliant_stiffness_contrast = 0; }},
      {"compliant_stiffness_contrast",
       [](CompareOptions& o) { o.compliant_stiffness_contrast = INFINITY; }},
      {"jia_mason_erdmann_stiffness_contrast",
       [](CompareOptions& o) { o.jia_mason_erdmann_stiffness_contrast = 0.5; }},
      {"seghete_murphey_max_sequences",
       [](CompareOptions& o) { o.seghete_murphey_max_sequences = 0; }},
      {"seghete_murphey_blend_ratio",
       [](CompareOptions& o) { o.seghete_murphey_blend_ratio = 1.5; }},
  };
  for (const auto& [field, spoil] : cases) {
    SCOPED_TRACE(field);
    CompareOptions o;
    spoil(o);
    try {
      o.Validate();
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind(field + " = ", 0), 0u) << e.what();
    }
    EXPECT_THROW(Compare(PointOnWall(), o), std::invalid_argument);
  }
}

}  // namespace
}  // namespace impactset::compare
