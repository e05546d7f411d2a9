// Cross-checks of the MuJoCo impact states against what is known: the extruded rocking block
// against the planar one, and the other laws' outcomes on 3-D problems against the Routh set.
#include <gtest/gtest.h>

#include <random>

#include <impactset/impact/algorithm1.hpp>
#include <impactset/impact/p_source.hpp>

#include <impactset/laws/anitescu_potra.hpp>
#include <impactset/laws/sequential.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/sampling/sampler.hpp>
#include <impactset/setapprox/distances.hpp>
#include <impactset/systems/builtin.hpp>
#include "routh_util.hpp"

namespace impactset::robots {
namespace {

MatrixXd PostImpact(const impact::ImpactProblem& p, long long samples, std::uint64_t seed) {
  sampling::SamplerOptions so;
  so.algorithm.step =
      0.3;  // the planar block's h and N (src/impactset/systems/scenes/rocking-block.json)
  so.algorithm.max_steps = 10;
  so.samples = samples;
  so.seed = seed;
  so.keep_samples = true;
  const auto run = sampling::RunSampler(p, so);
  return sampling::TerminatedColumns(run.records.v_plus, run.records.status);
}

// Planar (x, y, theta) = (vx, vz, -wy) of the extruded block's free joint.
MatrixXd PlanarProjection() {
  MatrixXd project = MatrixXd::Zero(3, 6);
  project(0, 0) = 1;
  project(1, 2) = 1;
  project(2, 4) = -1;
  return project;
}

struct Blocks {
  impact::ImpactProblem planar, block3d;
  std::vector<int> pair;  // 3-D contact c is the planar contact pair[c] (same projected Jn row)
};

Blocks RockingBlocks() {
  const impact::ImpactProblem p = systems::LoadBuiltin("rocking-block").problem;
  Blocks b{impact::ImpactProblem(p.M(), p.Jn(), p.D(), Eigen::VectorXd::Zero(2), p.v_minus(), 2),
           LoadMujocoScene("rocking-block-3d").loaded.problem,
           {}};
  const MatrixXd jn = b.block3d.Jn() * PlanarProjection().transpose();  // rows in planar coords
  for (int c = 0; c < b.block3d.m(); ++c) {
    for (int i = 0; i < 2; ++i) {
      if ((jn.row(c) - p.Jn().row(i)).norm() < 1e-12) b.pair.push_back(i);
    }
  }
  return b;
}

// The four corners of the extruded block are pairwise identical to the planar block's two, so a
// 3-D sample whose two corners of a pair get the same cap h/2 p_i reproduces the planar sample
// with caps h p_i step by step: the symmetric step LCP's answer splits the planar impulse evenly.
// Iid draws line up no further (4 independent caps against 2), so this pairs the draws by hand.
TEST(MujocoCrossCheck, ExtrudedRockingBlockWithPairedCapsIsThePlanarBlock) {
  const Blocks b = RockingBlocks();
  ASSERT_EQ(b.pair.size(), 4u) << "every 3-D corner matches a planar corner";
  impact::Algorithm1Options planar_options;
  planar_options.step =
      0.3;  // the planar block's h and N (src/impactset/systems/scenes/rocking-block.json)
  planar_options.max_steps = 10;
  planar_options.selection = impact::Selection::kFirst;
  impact::Algorithm1Options options3d = planar_options;
  options3d.step = planar_options.step / 2;
  lcp::FallbackSolver s1, s2;
  impact::RouthSampler planar(b.planar, planar_options, &s1), block3d(b.block3d, options3d, &s2);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  const MatrixXd project = PlanarProjection();
  double worst = 0, diameter = 0;
  int terminated = 0;
  Eigen::VectorXd lo = Eigen::VectorXd::Constant(3, 1e300), hi = -lo;
  for (int sample = 0; sample < 2000; ++sample) {
    std::vector<Eigen::VectorXd> p2, p4;
    for (int step = 0; step < planar_options.max_steps; ++step) {
      p2.push_back(Eigen::Vector2d(u(rng), u(rng)));
      p4.emplace_back(4);
      for (int c = 0; c < 4; ++c) p4.back()(c) = p2.back()(b.pair[c]);
    }
    impact::FixedSchedule f2(p2), f4(p4);
    const impact::SampleResult a = planar.Run(f2);
    const impact::SampleResult c = block3d.Run(f4);
    ASSERT_EQ(a.status, c.status) << "sample " << sample;
    if (a.status != impact::SampleStatus::kTerminated) continue;
    ++terminated;
    worst = std::max(worst, (project * c.v_plus - a.v_plus).cwiseAbs().maxCoeff());
    lo = lo.cwiseMin(a.v_plus);
    hi = hi.cwiseMax(a.v_plus);
  }
  ASSERT_GT(terminated, 1000);
  diameter = (hi - lo).norm();
  EXPECT_GT(diameter, 0.1);
  EXPECT_LE(worst, 1e-9 * diameter);
}

// With independent iid caps the 3-D block reaches more: a front and a back corner of one pair
// resolving at different rates roll the block about x, and the corners' separation conditions
// then hold for projected velocities the planar block never ends with. So the projected 3-D set
// contains the planar set (up to sampling: each planar sample lies near a projected one) but not
// the other way round (measured at 2^14 samples, seed 7: 0.0020 and 0.050, set diameter 0.17).
TEST(MujocoCrossCheck, ExtrudedRockingBlockProjectionContainsThePlanarSet) {
  const Blocks b = RockingBlocks();
  const MatrixXd a = PostImpact(b.planar, 1 << 14, 7);
  const MatrixXd c = PlanarProjection() * PostImpact(b.block3d, 1 << 14, 7);
  ASSERT_GT(a.cols(), 1000);
  ASSERT_GT(c.cols(), 1000);
  const double diameter = (a.rowwise().maxCoeff() - a.rowwise().minCoeff()).norm();
  // 3 %: the sampled sets' own gaps at 2^14 samples are about 1 % of the diameter.
  EXPECT_LE(setapprox::OneSidedDistance(a, c).distance, 0.03 * diameter);
  EXPECT_GE(setapprox::OneSidedDistance(c, a).distance, 0.1 * diameter);
}

// Within 1 % of max |J_c v-| of a Routh sample: the default net radius of `run`.
constexpr double kInsideFraction = 0.01;
// A sequential outcome against the Routh sample with the same order of single-contact steps,
// relative to max |v-|: they differ by their termination tolerances only (sequential stops at
// approach speeds below 2.2e-6, Routh resolves on to 1e-8). Measured: 4e-15 on cube-flat, 3e-6 on
// cube-edge, 3.4e-5 on the quadruped, whose light legs turn leftover foot speed into joint rates.
constexpr double kSameOutcome = 1e-4;

// The Anitescu-Potra outcome lies in the sampled Routh set of each 3-D scene. Each sequential
// ordering's outcome IS a Routh outcome: the one whose p-sequence gives the contacts of the
// ordering, in turn, the whole cap (p = e_i) with h large enough never to bind. (Iid samples
// approach these vertices of the p-cube too rarely to cover them: on cube-flat the nearest of
// 2^14 Routh samples lies 20 net radii from the worst ordering's outcome.)
TEST(MujocoCrossCheck, OtherLawsOnThreeDimensionalScenesLieInTheRouthSet) {
  for (const std::string name : {"cube-flat", "cube-edge", "quadruped"}) {
    SCOPED_TRACE(name);
    const impact::ImpactProblem p = LoadMujocoScene(name).loaded.problem;
    lcp::FallbackSolver solver;
    const laws::AnitescuPotraOutcome ap = laws::SolveAnitescuPotra(p, p.v_minus(), &solver);
    ASSERT_EQ(ap.info.status, lcp::Status::kSolved);
    // h: twice the largest AP normal impulse, so that N = 10 steps resolve every sample.
    const double h = 2 * ap.lambda_n.maxCoeff();
    const MatrixXd routh = testing::RouthContactVelocities(p, h, 10, 1 << 14, 7);
    ASSERT_GT(routh.cols(), 1000);
    const double eps = kInsideFraction * (p.ContactJacobian() * p.v_minus()).cwiseAbs().maxCoeff();
    EXPECT_LE(setapprox::NearestDistances(ap.contact_velocity, routh)(0), eps);

    laws::SequentialOptions so;
    const auto seq = laws::SequentialOutcomes(p, &solver, so);
    ASSERT_FALSE(seq.empty());
    impact::Algorithm1Options ro;
    ro.step = 100 * h;
    ro.max_steps = 10 * so.max_impacts;  // Routh resolves further: its tolerance is tighter
    ro.selection = impact::Selection::kFirst;
    impact::RouthSampler sampler(p, ro, &solver);
    double worst = 0;
    int terminated = 0;
    for (const auto& o : seq) {
      if (!o.terminated()) continue;
      ++terminated;
      std::vector<Eigen::VectorXd> schedule;
      for (int j = 0; j < ro.max_steps; ++j) {
        schedule.push_back(Eigen::VectorXd::Unit(p.m(), o.ordering[j % p.m()]));
      }
      impact::FixedSchedule turns(schedule);
      const impact::SampleResult& r = sampler.Run(turns);
      EXPECT_EQ(r.status, impact::SampleStatus::kTerminated);
      worst = std::max(worst, (r.v_plus - o.v_plus).cwiseAbs().maxCoeff());
    }
    EXPECT_GT(terminated, 0);
    EXPECT_LE(worst, kSameOutcome * p.v_minus().cwiseAbs().maxCoeff());
  }
}

}  // namespace
}  // namespace impactset::robots
