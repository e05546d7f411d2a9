// The simultaneous (Anitescu-Potra, eq. 31) and sequential impact laws (docs/model.md §2-3, §8;
// docs/examples.md 1.8-1.9) and the physical checks of impact/checks.hpp: paper examples, Routh's
// single-contact closed forms, and seeded property tests on random problems.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/LU>

#include <impactset/impact/algorithm1.hpp>
#include <impactset/impact/checks.hpp>
#include <impactset/impact/impact_lcps.hpp>
#include <impactset/laws/anitescu_potra.hpp>
#include <impactset/laws/sequential.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/lcp/residual.hpp>
#include <impactset/sampling/streams.hpp>
#include "test_util.hpp"

namespace impactset::laws {
namespace {

using impactset::testing::CompareMatrices;
using impactset::testing::Example;
using impactset::testing::MaxAbsOrOne;

// Velocities produced by one basis solve on O(1) data carry ~1e-15 roundoff; the examples' data
// have 10 significant digits, which only perturbs the problem, not the consistency of its answer.
constexpr double kVelocityTolerance = 1e-9;
// Analytic closed forms vs. the LCP answer: both are exact up to a 2x2 / basis solve.
constexpr double kClosedFormTolerance = 1e-12;
// A contact "lifts" or "slides" when its velocity is clearly non-zero at the examples' scale
// (their post-impact velocities are 1e-2..1): 1e-3 separates that from roundoff by 10 orders.
constexpr double kClearlyNonZero = 1e-3;
// Two post-impact velocities are the same outcome at the library's own merge tolerance.
const double kSameOutcome = AnitescuPotraAllOptions{}.distinct_tolerance;

impact::CheckTolerances ImpactTolerances() {
  impact::CheckTolerances t;
  t.require_non_approaching = true;  // a whole AP impact leaves no contact closing (eq. 31c)
  return t;
}

// Largest violations seen over many checks (recorded, to show the margin to the tolerances).
struct WorstSeen {
  double energy_rel = 0, inelastic = 0, approaching = 0, cone = 0, slip = 0, momentum = 0;
  void Add(const impact::CheckReport& r, double ke0) {
    energy_rel = std::max(energy_rel, r.energy_gain / ke0);
    inelastic = std::max(inelastic, r.inelastic);
    approaching = std::max(approaching, r.approaching);
    cone = std::max(cone, r.cone);
    slip = std::max({slip, r.slip_direction, r.slip_cone_slack});
    momentum = std::max(momentum, r.momentum);
  }
  std::string Describe() const {
    std::ostringstream os;
    os << "energy_gain/KE=" << energy_rel << " inelastic=" << inelastic
       << " approaching=" << approaching << " cone=" << cone << " slip=" << slip
       << " momentum=" << momentum;
    return os.str();
  }
};

::testing::AssertionResult PassesChecks(const impact::ImpactProblem& p,
                                        const VectorRef& v,
                                        const AnitescuPotraOutcome& o,
                                        WorstSeen* worst = nullptr) {
  const impact::CheckReport r =
      impact::CheckImpulse(p, v, o.v_plus, o.lambda_n, o.lambda_d, ImpactTolerances());
  if (worst) worst->Add(r, p.KineticEnergy(v));
  if (r.ok) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << r.Describe();
}

// ---------------------------------------------------------------------------------------------
// Anitescu-Potra on the paper's examples (docs/model.md §8).

TEST(AnitescuPotra, RockingBlockComesToRest) {
  const auto lp = Example("rocking-block");
  const impact::ImpactProblem& p = lp.problem;
  lcp::FallbackSolver chain;
  const AnitescuPotraOutcome o = SolveAnitescuPotra(p, p.v_minus(), &chain);
  ASSERT_TRUE(o.info.ok()) << lcp::ToString(o.info.status);
  // Contact velocities (Jn_A, Jn_B, Jf_A, Jf_B) v+: both corners stop, no slip.
  EXPECT_TRUE(CompareMatrices(o.contact_velocity, VectorXd::Zero(4), kVelocityTolerance));
  EXPECT_TRUE(CompareMatrices(o.v_plus, VectorXd::Zero(3), kVelocityTolerance));
  EXPECT_TRUE(PassesChecks(p, p.v_minus(), o));
  // Symmetric: each corner takes half the momentum m v0.
  EXPECT_NEAR(o.lambda_n(0), 0.5 * 0.4429446918, kVelocityTolerance);
  EXPECT_NEAR(o.lambda_n(1), 0.5 * 0.4429446918, kVelocityTolerance);

  const AnitescuPotraSet all = AllAnitescuPotraOutcomes(p, p.v_minus());
  ASSERT_EQ(all.status, lcp::Status::kSolved);
  ASSERT_EQ(all.outcomes.size(), 1u);  // rest is the only AP outcome
  EXPECT_TRUE(CompareMatrices(all.outcomes[0].v_plus, o.v_plus, kVelocityTolerance));
}

TEST(AnitescuPotra, BoxWallComesToRest) {
  const auto lp = Example("box-wall");
  const impact::ImpactProblem& p = lp.problem;
  lcp::FallbackSolver chain;
  const AnitescuPotraOutcome o = SolveAnitescuPotra(p, p.v_minus(), &chain);
  ASSERT_TRUE(o.info.ok());
  EXPECT_TRUE(CompareMatrices(o.v_plus, VectorXd::Zero(3), kVelocityTolerance));
  EXPECT_TRUE(PassesChecks(p, p.v_minus(), o));
  const AnitescuPotraSet all = AllAnitescuPotraOutcomes(p, p.v_minus());
  ASSERT_EQ(all.outcomes.size(), 1u);
  EXPECT_TRUE(CompareMatrices(all.outcomes[0].v_plus, VectorXd::Zero(3), kVelocityTolerance));
}

TEST(AnitescuPotra, CompassGaitHasThreeOutcomesTrailingFootLiftsSlidesSticks) {
  const auto lp = Example("compass-gait");
  const impact::ImpactProblem& p = lp.problem;
  const AnitescuPotraSet all = AllAnitescuPotraOutcomes(p, p.v_minus());
  ASSERT_EQ(all.status, lcp::Status::kSolved);
  ASSERT_EQ(all.outcomes.size(), 3u);
  int lifts = 0, slides = 0, sticks = 0;
  for (const AnitescuPotraOutcome& o : all.outcomes) {
    EXPECT_TRUE(PassesChecks(p, p.v_minus(), o));
    EXPECT_LE(o.info.residual.Worst(), lcp::kAcceptTolerance);
    // contact_velocity = (Jn_A, Jn_B, Jf_A, Jf_B) v+. The leading foot A ends at rest (it
    // absorbs the impact); the trailing foot B does one of three things.
    const VectorXd& c = o.contact_velocity;
    EXPECT_NEAR(c(0), 0.0, kVelocityTolerance);
    EXPECT_NEAR(c(2), 0.0, kVelocityTolerance);
    EXPECT_GE(c(1), -kVelocityTolerance);
    if (c(1) > kClearlyNonZero) {
      ++lifts;  // B separates; it carries no impulse
      EXPECT_NEAR(o.lambda_n(1), 0.0, kVelocityTolerance);
    } else if (std::abs(c(3)) > kClearlyNonZero) {
      ++slides;  // B stays on the ground and slips with friction on the cone boundary
      EXPECT_NEAR(c(1), 0.0, kVelocityTolerance);
      EXPECT_NEAR(o.lambda_d(2) + o.lambda_d(3), p.mu()(1) * o.lambda_n(1), kVelocityTolerance);
    } else {
      ++sticks;  // both feet stick: with both feet pinned the walker stops
      EXPECT_TRUE(CompareMatrices(o.v_plus, VectorXd::Zero(4), kVelocityTolerance));
    }
    EXPECT_LT(p.KineticEnergy(o.v_plus), p.KineticEnergy(p.v_minus()));
  }
  EXPECT_EQ(lifts, 1);
  EXPECT_EQ(slides, 1);
  EXPECT_EQ(sticks, 1);

  // The pivoting solver returns one of the three.
  lcp::FallbackSolver chain;
  const AnitescuPotraOutcome one = SolveAnitescuPotra(p, p.v_minus(), &chain);
  ASSERT_TRUE(one.info.ok());
  int matches = 0;
  for (const AnitescuPotraOutcome& o : all.outcomes) {
    matches += static_cast<bool>(CompareMatrices(o.v_plus, one.v_plus, kVelocityTolerance));
  }
  EXPECT_EQ(matches, 1);
}

TEST(AnitescuPotra, ZenoBlockSticksWithRestitutionFactorSevenTenths) {
  // docs/examples.md 3.6: corner B hits while the block rotates about A; the impact at B sticks and
  // the block pivots about B with angular velocity scaled by (I + m l^2 cos(pi - 2 alpha)) /
  // (I + m l^2) = 0.7 (the authors' script asserts this factor); A lifts off.
  const auto lp = Example("zeno-block");
  const impact::ImpactProblem& p = lp.problem;
  const AnitescuPotraSet all = AllAnitescuPotraOutcomes(p, p.v_minus());
  ASSERT_EQ(all.outcomes.size(), 1u);
  const AnitescuPotraOutcome& o = all.outcomes[0];
  EXPECT_NEAR(o.v_plus(2), 0.7 * p.v_minus()(2), 1e-9);         // data given to 10 digits
  EXPECT_NEAR(o.contact_velocity(1), 0.0, kVelocityTolerance);  // B at rest ...
  EXPECT_NEAR(o.contact_velocity(3), 0.0, kVelocityTolerance);  // ... and sticking
  EXPECT_GT(o.contact_velocity(0), kClearlyNonZero);            // A lifts
  EXPECT_NEAR(p.KineticEnergy(o.v_plus) / p.KineticEnergy(p.v_minus()), 0.49, 1e-9);
  EXPECT_TRUE(PassesChecks(p, p.v_minus(), o));
}

TEST(AnitescuPotra, ActiveMaskSolvesOnlyTheSelectedContacts) {
  const auto lp = Example("rocking-block");
  const impact::ImpactProblem& p = lp.problem;
  lcp::FallbackSolver chain;
  const std::vector<bool> only_a = {true, false};
  const AnitescuPotraOutcome o = SolveAnitescuPotra(p, p.v_minus(), &chain, &only_a);
  ASSERT_TRUE(o.info.ok());
  EXPECT_EQ(o.lambda_n.size(), 2);
  EXPECT_EQ(o.lambda_n(1), 0.0);
  EXPECT_EQ(o.lambda_d(2), 0.0);
  EXPECT_EQ(o.lambda_d(3), 0.0);
  EXPECT_GT(o.lambda_n(0), 0.0);
  EXPECT_NEAR(o.contact_velocity(0), 0.0, kVelocityTolerance);  // A stops and sticks ...
  EXPECT_NEAR(o.contact_velocity(2), 0.0, kVelocityTolerance);
  EXPECT_LT(o.contact_velocity(1), -kClearlyNonZero);  // ... while B, ignored, still falls
  // Same answer as the explicit sub-problem and as the enumeration with the mask.
  const impact::ImpactProblem sub = ActiveSubProblem(p, only_a);
  EXPECT_EQ(sub.m(), 1);
  const AnitescuPotraOutcome os = SolveAnitescuPotra(sub, p.v_minus(), &chain);
  EXPECT_TRUE(CompareMatrices(os.v_plus, o.v_plus, kVelocityTolerance));
  const AnitescuPotraSet all = AllAnitescuPotraOutcomes(p, p.v_minus(), {}, &only_a);
  ASSERT_EQ(all.outcomes.size(), 1u);
  EXPECT_TRUE(CompareMatrices(all.outcomes[0].v_plus, o.v_plus, kVelocityTolerance));
  // No active contact: no impact, no solve.
  const std::vector<bool> none = {false, false};
  const AnitescuPotraOutcome n0 = SolveAnitescuPotra(p, p.v_minus(), &chain, &none);
  EXPECT_TRUE(n0.info.ok());
  EXPECT_EQ(n0.v_plus, p.v_minus());
}

TEST(AnitescuPotra, TrivialSolutionWhenNothingCollides) {
  const auto lp = Example("rocking-block");
  const VectorXd v = -lp.problem.v_minus();  // moving up: both corners separating
  const AnitescuPotraSet all = AllAnitescuPotraOutcomes(lp.problem, v);
  ASSERT_EQ(all.outcomes.size(), 1u);
  EXPECT_EQ(all.outcomes[0].v_plus, v);
  EXPECT_EQ(all.outcomes[0].lambda_n, VectorXd::Zero(2));
}

TEST(AnitescuPotra, BadInputNamesTheField) {
  const auto lp = Example("rocking-block");
  lcp::FallbackSolver chain;
  const std::vector<bool> bad_mask = {true};
  EXPECT_THROW(SolveAnitescuPotra(lp.problem, lp.problem.v_minus(), &chain, &bad_mask),
               std::invalid_argument);
  EXPECT_THROW(SolveAnitescuPotra(lp.problem, VectorXd::Zero(2), &chain), std::invalid_argument);
  EXPECT_THROW(SolveAnitescuPotra(lp.problem, lp.problem.v_minus(), nullptr),
               std::invalid_argument);
  AnitescuPotraAllOptions o;
  o.distinct_tolerance = 0;
  try {
    AllAnitescuPotraOutcomes(lp.problem, lp.problem.v_minus(), o);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("distinct_tolerance = 0"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ActiveSubProblem(lp.problem, {false, false}), std::invalid_argument);
}

TEST(AnitescuPotra, EnumerationAboveMaxSizeReportsTooLarge) {
  const auto lp = Example("disk-stack");  // LCP size 4 m = 20
  AnitescuPotraAllOptions o;
  o.enumeration.max_size = 12;
  const AnitescuPotraSet all = AllAnitescuPotraOutcomes(lp.problem, lp.problem.v_minus(), o);
  EXPECT_EQ(all.status, lcp::Status::kTooLarge);
  EXPECT_TRUE(all.outcomes.empty());
}

// ---------------------------------------------------------------------------------------------
// Sequential resolution (docs/examples.md 1.9).

TEST(Sequential, RockingBlockPivotsOnEitherCornerMirrorImages) {
  const auto lp = Example("rocking-block");
  const impact::ImpactProblem& p = lp.problem;
  SequentialOptions opt;
  opt.keep_trajectory = true;
  const std::vector<SequentialOutcome> seq = SequentialOutcomes(p, nullptr, opt);
  ASSERT_EQ(seq.size(), 2u);  // m = 2: the two starting contacts are all the permutations
  EXPECT_EQ(seq[0].ordering, (std::vector<int>{0, 1}));
  EXPECT_EQ(seq[1].ordering, (std::vector<int>{1, 0}));
  for (const SequentialOutcome& s : seq) {
    EXPECT_TRUE(s.terminated()) << ToString(s.status);
    EXPECT_EQ(s.single_impacts, 2);  // first corner sticks, then the other one lands
    EXPECT_EQ(static_cast<int>(s.trajectory.size()), s.single_impacts + 1);
    EXPECT_LT(s.energy_ratio, 1.0);
    EXPECT_GT(s.energy_ratio, 0.0);
    EXPECT_GT(std::abs(s.v_plus(2)), kClearlyNonZero);  // it rotates: a pivot, not rest
  }
  // Starting at A: A sticks, the block swings down onto B, which then sticks and the block pivots
  // about B, lifting A. Starting at B is the mirror image x -> -x (v -> (-vx, vy, -w)).
  const VectorXd& ca = seq[0].contact_velocity;  // (Jn_A, Jn_B, Jf_A, Jf_B) v+
  EXPECT_GT(ca(0), kClearlyNonZero);
  EXPECT_NEAR(ca(1), 0.0, kVelocityTolerance);
  EXPECT_NEAR(ca(3), 0.0, kVelocityTolerance);
  const Eigen::Vector3d mirror(-1, 1, -1);
  EXPECT_TRUE(
      CompareMatrices(seq[1].v_plus, mirror.cwiseProduct(seq[0].v_plus), kVelocityTolerance));
  EXPECT_LT(seq[0].v_plus(0) * seq[1].v_plus(0), 0.0);
  EXPECT_LT(seq[0].v_plus(2) * seq[1].v_plus(2), 0.0);
  EXPECT_NEAR(seq[0].energy_ratio, seq[1].energy_ratio, kVelocityTolerance);
}

TEST(Sequential, BoxWallASlidesBLifts) {
  // docs/model.md §8: sequential -> A slides, B lifts off, whichever contact starts.
  const auto lp = Example("box-wall");
  const std::vector<SequentialOutcome> seq = SequentialOutcomes(lp.problem);
  ASSERT_EQ(seq.size(), 2u);
  for (const SequentialOutcome& s : seq) {
    EXPECT_TRUE(s.terminated());
    EXPECT_NEAR(s.contact_velocity(0), 0.0, kVelocityTolerance);  // A on the floor ...
    EXPECT_GT(std::abs(s.contact_velocity(2)), kClearlyNonZero);  // ... sliding
    EXPECT_GT(s.contact_velocity(1), kClearlyNonZero);            // B leaves the wall
    EXPECT_LT(s.energy_ratio, 1.0);
  }
  // A is not colliding at first, so the sequence starting at A wastes its first impact.
  EXPECT_EQ(seq[0].single_impacts, seq[1].single_impacts + 1);
}

TEST(Sequential, AllPermutationsUpToFourContactsAndCapIsReported) {
  // Disk stack (m = 5): the authors' 10-impact cap stops every sequence (docs/examples.md 1.9).
  const auto lp = Example("disk-stack");
  const std::vector<SequentialOutcome> seq = SequentialOutcomes(lp.problem);
  ASSERT_EQ(seq.size(), 5u);  // m = 5 > 4: starting contacts only
  for (int j = 0; j < 5; ++j) {
    EXPECT_EQ(seq[j].ordering[0], j);
    EXPECT_EQ(seq[j].status, SequenceStatus::kImpactCap);
    EXPECT_EQ(seq[j].single_impacts, 10);
    EXPECT_LT(seq[j].energy_ratio, 1.0);
  }
  // A 3-contact sub-stack resolved in all 3! = 6 orders, rotations of 0,1,2 first.
  const impact::ImpactProblem sub = ActiveSubProblem(lp.problem, {false, false, true, true, true});
  const std::vector<SequentialOutcome> s3 = SequentialOutcomes(sub);
  ASSERT_EQ(s3.size(), 6u);
  EXPECT_EQ(s3[1].ordering, (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(s3[3].ordering, (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(s3[5].ordering, (std::vector<int>{2, 1, 0}));
  SequentialOptions starts_only;
  starts_only.all_orderings = false;
  EXPECT_EQ(SequentialOutcomes(sub, nullptr, starts_only).size(), 3u);
}

TEST(Sequential, BadInputNamesTheField) {
  const auto lp = Example("rocking-block");
  EXPECT_THROW(ResolveSequentially(lp.problem, {0, 0}), std::invalid_argument);
  EXPECT_THROW(ResolveSequentially(lp.problem, {0}), std::invalid_argument);
  SequentialOptions o;
  o.max_impacts = 0;
  try {
    SequentialOutcomes(lp.problem, nullptr, o);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("max_impacts = 0"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// One contact: Routh's single-impact closed forms.
//
// A uniform rod (mass 1, length L = 1, I = 1/12 about its centre), q = (x, y, theta), lies at
// angle theta above the horizontal with its lower end on the floor. With r = L/2 the end point
// is (x - r cos theta, y - r sin theta), so its velocity is
//   (vx + r sin theta w, vy - r cos theta w):  Jn = [0, 1, -r cos theta], Jt = [1, 0, r sin theta].
// With J = [Jn; Jt] and M = diag(1, 1, I), G = J M^-1 J^T has
//   G_nn = 1 + r^2 cos^2 / I,  G_tt = 1 + r^2 sin^2 / I,  G_nt = -r^2 sin cos / I.
// The contact-velocity change is G Lambda, Lambda = (Lambda_n, Lambda_t).
//  - Sticking: (Jn v+, Jt v+) = 0  =>  Lambda = G^-1 (-J v-), valid iff Lambda_n >= 0 and
//    |Lambda_t| <= mu Lambda_n.
//  - Sliding with post-impact slip sign sigma: Lambda_t = -sigma mu Lambda_n and Jn v+ = 0:
//      Jn v- + (G_nn - sigma mu G_nt) Lambda_n = 0  =>  Lambda_n = -Jn v- / (G_nn - sigma mu G_nt),
//    slip s+ = Jt v- + (G_nt - sigma mu G_tt) Lambda_n, valid iff Lambda_n >= 0, sigma s+ > 0.
// In each case below exactly one of the three candidates is valid (asserted), and the slip
// never reverses during the impact, so this is also what Routh's incremental process gives.

struct Rod {
  double theta, mu, vx, vy, w;
  static constexpr double r = 0.5, inertia = 1.0 / 12.0;
  impact::ImpactProblem Problem() const {
    MatrixXd M = MatrixXd::Identity(3, 3);
    M(2, 2) = inertia;
    MatrixXd Jn(1, 3), Jt(1, 3);
    Jn << 0, 1, -r * std::cos(theta);
    Jt << 1, 0, r * std::sin(theta);
    return impact::ImpactProblem::Planar(M, Jn, Jt, VectorXd::Constant(1, mu),
                                         Eigen::Vector3d(vx, vy, w));
  }
};

struct ClosedForm {
  Eigen::Vector2d impulse;  // (Lambda_n, Lambda_t)
  int valid = 0;            // number of valid candidates (must be 1)
  bool sticks = false;
};

ClosedForm RouthSingleImpact(const Rod& rod) {
  const double c = std::cos(rod.theta), s = std::sin(rod.theta), r = Rod::r, I = Rod::inertia;
  const double gnn = 1 + r * r * c * c / I, gtt = 1 + r * r * s * s / I, gnt = -r * r * s * c / I;
  const double vn = rod.vy - r * c * rod.w, vt = rod.vx + r * s * rod.w;
  ClosedForm out;
  Eigen::Matrix2d G;
  G << gnn, gnt, gnt, gtt;
  const Eigen::Vector2d stick = G.inverse() * Eigen::Vector2d(-vn, -vt);
  if (stick(0) >= 0 && std::abs(stick(1)) <= rod.mu * stick(0)) {
    out.impulse = stick;
    out.sticks = true;
    ++out.valid;
  }
  for (double sigma : {1.0, -1.0}) {
    const double ln = -vn / (gnn - sigma * rod.mu * gnt);
    const double slip = vt + (gnt - sigma * rod.mu * gtt) * ln;
    if (ln >= 0 && sigma * slip > 0) {
      out.impulse = Eigen::Vector2d(ln, -sigma * rod.mu * ln);
      ++out.valid;
    }
  }
  return out;
}

class SingleContactClosedForm : public ::testing::TestWithParam<Rod> {};

TEST_P(SingleContactClosedForm, AnitescuPotraMatchesRouth) {
  const Rod rod = GetParam();
  const ClosedForm cf = RouthSingleImpact(rod);
  ASSERT_EQ(cf.valid, 1) << "test case must have a unique closed-form regime";
  const impact::ImpactProblem p = rod.Problem();
  const VectorXd expected_v =
      p.v_minus() + p.MassFactor().solve(p.Jn().row(0).transpose() * cf.impulse(0) +
                                         p.D().row(0).transpose() * cf.impulse(1));
  lcp::FallbackSolver chain;
  const AnitescuPotraOutcome o = SolveAnitescuPotra(p, p.v_minus(), &chain);
  ASSERT_TRUE(o.info.ok());
  EXPECT_NEAR(o.lambda_n(0), cf.impulse(0), kClosedFormTolerance);
  // Friction impulse along +t is lambda+ - lambda- (D rows +t, -t).
  EXPECT_NEAR(o.lambda_d(0) - o.lambda_d(1), cf.impulse(1), kClosedFormTolerance);
  EXPECT_TRUE(CompareMatrices(o.v_plus, expected_v, kClosedFormTolerance));
  EXPECT_TRUE(PassesChecks(p, p.v_minus(), o));
  if (cf.sticks) {
    EXPECT_NEAR(o.contact_velocity(1), 0.0, kClosedFormTolerance);
  }
  // The single-contact law is unique, and sequential resolution of one contact is one AP impact.
  const AnitescuPotraSet all = AllAnitescuPotraOutcomes(p, p.v_minus());
  ASSERT_EQ(all.outcomes.size(), 1u);
  EXPECT_TRUE(CompareMatrices(all.outcomes[0].v_plus, expected_v, kClosedFormTolerance));
  const SequentialOutcome seq = ResolveSequentially(p, {0}, &chain);
  EXPECT_TRUE(seq.terminated());
  EXPECT_EQ(seq.single_impacts, 1);
  EXPECT_TRUE(CompareMatrices(seq.v_plus, expected_v, kClosedFormTolerance));
}

// theta = 30 deg: G = [[3.25, -1.299], [-1.299, 1.75]], det 4.
INSTANTIATE_TEST_SUITE_P(
    Rod,
    SingleContactClosedForm,
    ::testing::Values(
        // falls straight down: sticking needs |L_t| / L_n = 0.742 <= mu = 1: sticks.
        Rod{std::numbers::pi / 6, 1.0, 0.0, -1.0, 0.0},
        // same, mu = 0.3 < 0.742: slides backwards (s+ = -0.271, friction +mu L_n).
        Rod{std::numbers::pi / 6, 0.3, 0.0, -1.0, 0.0},
        // moving forward fast, mu = 0.3: keeps sliding forward (s+ = 1.50, friction -mu L_n).
        Rod{std::numbers::pi / 6, 0.3, 2.0, -1.0, 0.0},
        // steep rod, spinning: theta = 60 deg, w = 2.
        Rod{std::numbers::pi / 3, 0.5, 0.3, -0.8, 2.0}),
    [](const auto& info) { return "case" + std::to_string(info.index); });

// ---------------------------------------------------------------------------------------------
// The checks detect violations (hand-made wrong impulses on a point mass).

TEST(Checks, DetectEachViolation) {
  // Point mass 2 on the floor, v- = (1, -1), mu = 0.3. The law: L_n = 2 stops the fall,
  // L_t = -0.6 (lambda- = 0.6) slows the slide to 0.7.
  MatrixXd M = 2 * MatrixXd::Identity(2, 2), Jn(1, 2), Jf(1, 2);
  Jn << 0, 1;
  Jf << 1, 0;
  const impact::ImpactProblem p =
      impact::ImpactProblem::Planar(M, Jn, Jf, VectorXd::Constant(1, 0.3), Eigen::Vector2d(1, -1));
  auto check = [&](double ln, double lp, double lm, const VectorXd* cap = nullptr) {
    const Eigen::Vector2d v = p.v_minus() + Eigen::Vector2d(-lm + lp, ln) / 2.0;
    return impact::CheckImpulse(p, p.v_minus(), v, VectorXd::Constant(1, ln),
                                Eigen::Vector2d(lp, lm), ImpactTolerances(), cap);
  };
  EXPECT_TRUE(check(2, 0, 0.6).ok) << check(2, 0, 0.6).Describe();
  EXPECT_FALSE(check(3, 0, 0.6).inelastic_ok);  // pushes the contact apart
  EXPECT_TRUE(check(3, 0, 0.6).energy_ok);      // ... while still dissipating
  EXPECT_FALSE(check(5, 0, 0.6).energy_ok);     // pushes it apart faster than it came
  EXPECT_FALSE(check(1, 0, 0.3).inelastic_ok);  // leaves it approaching
  EXPECT_FALSE(check(2, 0, 1.0).cone_ok);       // outside the cone
  EXPECT_NEAR(check(2, 0, 1.0).cone, 0.4, 1e-15);
  EXPECT_FALSE(check(2, 0.6, 0).slip_ok);  // friction along the slip
  EXPECT_FALSE(check(2, 0, 0.3).slip_ok);  // sliding inside the cone
  EXPECT_TRUE(check(2, 0, 0.3).cone_ok);
  const VectorXd cap = VectorXd::Constant(1, 1.5);
  EXPECT_FALSE(check(2, 0, 0.6, &cap).normal_cap_ok);
  EXPECT_NEAR(check(2, 0, 0.6, &cap).normal_cap, 0.5, 1e-15);
  // v_after not produced by the impulse.
  EXPECT_FALSE(impact::CheckImpulse(p, p.v_minus(), Eigen::Vector2d(0.6, 0),
                                    VectorXd::Constant(1, 2), Eigen::Vector2d(0, 0.6))
                   .momentum_ok);
  impact::CheckTolerances bad;
  bad.velocity = -1;
  EXPECT_THROW(
      impact::CheckImpulse(p, p.v_minus(), p.v_minus(), VectorXd::Zero(1), VectorXd::Zero(2), bad),
      std::invalid_argument);
  EXPECT_THROW(
      impact::CheckImpulse(p, p.v_minus(), p.v_minus(), VectorXd::Zero(2), VectorXd::Zero(2)),
      std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Property tests on random problems (seeded; no global RNG).

struct RandomCase {
  impact::ImpactProblem problem;
  std::string what;
};

// Random SPD M (n in [2, 6]), random Jn and tangent rows, mu in [0, 1.5] (sometimes 0), and a
// colliding v- (sometimes with a contact exactly resting, Jn_i v- = 0: the degenerate case).
// Planar: m in [1, 3], k = 2. Spatial: m in [1, 2], k in {4, 6, 8}, directions
// d_j = cos(2 pi j / k) T1 + sin(2 pi j / k) T2 from two random tangent rows
// (docs/examples.md 1.4). m k + m rows often exceed n, so the Delassus matrix is singular, as in
// the paper's examples.
RandomCase RandomProblem(std::mt19937_64& rng, bool spatial) {
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unit;
  const int n = std::uniform_int_distribution<int>(2, 6)(rng);
  const int m = std::uniform_int_distribution<int>(1, spatial ? 2 : 3)(rng);
  const int k = spatial ? 2 * std::uniform_int_distribution<int>(2, 4)(rng) : 2;
  MatrixXd A(n, n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) A(i, j) = normal(rng);
  }
  MatrixXd M = A * A.transpose() + 0.1 * MatrixXd::Identity(n, n);
  M = 0.5 * (M + M.transpose()).eval();
  MatrixXd Jn(m, n), D(m * k, n);
  VectorXd mu(m);
  for (int i = 0; i < m; ++i) {
    VectorXd t1(n), t2(n);
    for (int c = 0; c < n; ++c) {
      Jn(i, c) = normal(rng);
      t1(c) = normal(rng);
      t2(c) = normal(rng);
    }
    for (int j = 0; j < k; ++j) {
      const double a = 2 * std::numbers::pi * j / k;
      D.row(i * k + j) = spatial ? VectorXd(std::cos(a) * t1 + std::sin(a) * t2).transpose()
                                 : VectorXd((j == 0 ? 1.0 : -1.0) * t1).transpose();
    }
    mu(i) = unit(rng) < 0.1 ? 0.0 : 1.5 * unit(rng);
  }
  VectorXd v(n);
  for (int c = 0; c < n; ++c) v(c) = normal(rng);
  if (m > 1 && unit(rng) < 0.3) {
    // Make contact 0 exactly resting (projected in the M^-1 metric so Jn_0 v = 0).
    const VectorXd g = M.llt().solve(Jn.row(0).transpose());
    v -= g * (Jn.row(0).dot(v) / Jn.row(0).dot(g));
  }
  if ((Jn * v).minCoeff() >= 0) v = -v;  // colliding: some contact approaches
  const std::string what = std::string(spatial ? "spatial" : "planar") + " n=" + std::to_string(n) +
                           " m=" + std::to_string(m) + " k=" + std::to_string(k);
  return {impact::ImpactProblem(M, Jn, D, mu, v, k), what};
}

// Enumerate every AP solution when the LCP has at most kEnumerateUpTo unknowns (2^12 = 4096
// bases, ~1 ms), and for every kLargeEvery-th case up to kEnumerateLargeUpTo (2^16 bases,
// ~50 ms: spatial k = 6, m = 2); other spatial cases are checked through the pivoting solver.
constexpr int kEnumerateUpTo = 12;
constexpr int kEnumerateLargeUpTo = 16;
constexpr int kLargeEvery = 5;

void CheckRandomProblems(bool spatial, std::uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit;
  lcp::FallbackSolver chain;
  int enumerated = 0, multi = 0, outcomes_checked = 0, lifted = 0, slid = 0, stuck = 0;
  int algorithm1_terminated = 0;
  WorstSeen worst, worst_routh;
  for (int t = 0; t < count; ++t) {
    const RandomCase rc = RandomProblem(rng, spatial);
    const impact::ImpactProblem& p = rc.problem;
    SCOPED_TRACE("case " + std::to_string(t) + ": " + rc.what);
    ASSERT_LT((p.Jn() * p.v_minus()).minCoeff(), 0.0);
    const AnitescuPotraOutcome o = SolveAnitescuPotra(p, p.v_minus(), &chain);
    // Anitescu-Potra's LCP is solvable (W_AP copositive, Prop. 2): the chain must find it.
    ASSERT_TRUE(o.info.ok()) << lcp::ToString(o.info.status);
    ASSERT_TRUE(PassesChecks(p, p.v_minus(), o, &worst));
    ++outcomes_checked;
    for (int i = 0; i < p.m(); ++i) {  // what the contacts did, to show the checks had work
      if (o.contact_velocity(i) > kClearlyNonZero) {
        ++lifted;
      } else if (o.lambda_n(i) > kClearlyNonZero) {
        const double slip = -(p.D().middleRows(i * p.k(), p.k()) * o.v_plus).minCoeff();
        ++(slip > kClearlyNonZero ? slid : stuck);
      }
    }
    {
      // One Routh step (eqs. 72-75) from v- with a random cap: checks.hpp with the cap, energy
      // per step (Theorem 7); contacts may still approach after a step.
      const impact::LcpLayout L = impact::RouthStepLayout(p);
      VectorXd lambda_max(p.m()), w, z;
      for (int i = 0; i < p.m(); ++i) lambda_max(i) = 2.0 * unit(rng);
      impact::RouthStepVector(p, p.v_minus(), lambda_max, &w);
      const lcp::SolveInfo info = chain.Solve(impact::RouthStepMatrix(p), w, &z);
      ASSERT_TRUE(info.ok()) << "Routh step: " << lcp::ToString(info.status);
      const VectorXd v_next = p.v_minus() + p.MinvJt() * z.segment(L.lambda_n(), L.impulses());
      const impact::CheckReport r = impact::CheckImpulse(
          p, p.v_minus(), v_next, z.segment(L.lambda_n(), p.m()),
          z.segment(L.lambda_d(), p.m() * p.k()), impact::CheckTolerances{}, &lambda_max);
      ASSERT_TRUE(r.ok) << "Routh step: " << r.Describe();
      worst_routh.Add(r, p.KineticEnergy(p.v_minus()));
    }
    {
      // Algorithm 1 with every step checked (checks.hpp via check_steps): no step breaks a law,
      // and a terminated sample leaves no contact approaching (min Jn v+ >= -eps_term).
      impact::Algorithm1Options a;
      a.step = 0.5;
      a.max_steps = 40;
      a.check_steps = true;
      impact::RouthSampler sampler(p, a, &chain);
      for (std::uint64_t i = 0; i < 3; ++i) {
        sampling::IidPSource src(seed, 3 * static_cast<std::uint64_t>(t) + i);
        sampling::SampleChoices choices(seed, 3 * static_cast<std::uint64_t>(t) + i);
        const impact::SampleResult& r = sampler.Run(src, &choices);
        ASSERT_NE(r.status, impact::SampleStatus::kLcpFailure);
        EXPECT_EQ(r.check_violations, 0);
        EXPECT_LE(r.energy_ratio, 1.0 + 1e-12);
        if (r.status == impact::SampleStatus::kTerminated) {
          ++algorithm1_terminated;
          EXPECT_GE((p.Jn() * r.v_plus).minCoeff(), -a.termination_tolerance);
        }
      }
    }
    const int size = impact::AnitescuPotraLayout(p).size();
    if (size > (t % kLargeEvery == 0 ? kEnumerateLargeUpTo : kEnumerateUpTo)) continue;
    const AnitescuPotraSet all = AllAnitescuPotraOutcomes(p, p.v_minus());
    ASSERT_EQ(all.status, lcp::Status::kSolved);
    ++enumerated;
    multi += all.outcomes.size() > 1;
    bool found = false;
    for (const AnitescuPotraOutcome& u : all.outcomes) {
      EXPECT_LE(u.info.residual.Worst(), lcp::kAcceptTolerance);
      EXPECT_TRUE(PassesChecks(p, p.v_minus(), u, &worst));
      ++outcomes_checked;
      found = found || CompareMatrices(u.v_plus, o.v_plus, kSameOutcome * MaxAbsOrOne(o.v_plus));
    }
    // Lemke ends on a non-singular complementary basis, which the enumeration visits.
    EXPECT_TRUE(found) << "solver's outcome missing from the enumeration";
  }
  ::testing::Test::RecordProperty(spatial ? "spatial_enumerated" : "planar_enumerated", enumerated);
  ::testing::Test::RecordProperty(spatial ? "spatial_non_unique" : "planar_non_unique", multi);
  ::testing::Test::RecordProperty(spatial ? "spatial_outcomes_checked" : "planar_outcomes_checked",
                                  outcomes_checked);
  ::testing::Test::RecordProperty(
      spatial ? "spatial_lift_slide_stick" : "planar_lift_slide_stick",
      std::to_string(lifted) + " " + std::to_string(slid) + " " + std::to_string(stuck));
  ::testing::Test::RecordProperty(spatial ? "spatial_worst_ap" : "planar_worst_ap",
                                  worst.Describe());
  ::testing::Test::RecordProperty(spatial ? "spatial_worst_routh" : "planar_worst_routh",
                                  worst_routh.Describe());
  EXPECT_GT(enumerated, count / 4);
  EXPECT_GT(algorithm1_terminated, count);  // of 3 count samples: most end within 40 steps
  // Every regime of the law occurs often (so each check was exercised).
  EXPECT_GT(lifted, count / 10);
  EXPECT_GT(slid, count / 10);
  EXPECT_GT(stuck, count / 10);
  EXPECT_GT(multi, 0);  // and some problems have several outcomes
}

// A sanitized build runs an eighth of the problems (TestSampleDivisor).
TEST(AnitescuPotraProperties, RandomPlanarProblems) {
  CheckRandomProblems(false, 20240611, 1000 / testing::TestSampleDivisor());
}

TEST(AnitescuPotraProperties, RandomSpatialProblems) {
  CheckRandomProblems(true, 20240612, 1000 / testing::TestSampleDivisor());
}

}  // namespace
}  // namespace impactset::laws
