// Accuracy of the native Lemke on badly scaled data: SPD matrices with condition numbers
// 1e6 ... 1e10 and entries spanning 1e-1 ... 1e5, and the Routh step LCPs of a system whose
// masses and inertias span 1e-3 ... 1e2. The product-form inverse drifts on such data; the
// restoration from the final basis (lcp/lemke.hpp, LemkeOptions::restore_above) must bring every
// accepted answer back near roundoff.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include <impactset/impact/algorithm1.hpp>
#include <impactset/impact/impact_lcps.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/lcp/lemke.hpp>
#include <impactset/lcp/residual.hpp>

namespace impactset {
namespace {

// The accuracy target (Residual::Worst(), relative to max(1, |q|_inf)): 1e-13, about
// 450 units of roundoff, where the tableau alone reached 1e-10 on such data.
constexpr double kTargetResidual = 1e-13;

MatrixXd RandomOrthogonal(int n, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  MatrixXd X(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) X(i, j) = g(rng);
  return Eigen::HouseholderQR<MatrixXd>(X).householderQ();
}

// S (Q diag(lambda) Q^T) S with lambda log-spaced over `decades` and S log-uniform over three
// decades: SPD, so the LCP has exactly one solution, planted at z* with w* complementary.
struct Planted {
  MatrixXd M;
  VectorXd q, z;
  double condition = 0;
};

Planted PlantedSpd(int n, double decades, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  VectorXd lambda(n), s(n);
  for (int i = 0; i < n; ++i) {
    lambda(i) = std::pow(10.0, 3.0 - decades * i / (n - 1));
    s(i) = std::pow(10.0, u(rng));
  }
  const MatrixXd Q = RandomOrthogonal(n, rng);
  Planted p;
  p.M = s.asDiagonal() * (Q * lambda.asDiagonal() * Q.transpose()) * s.asDiagonal();
  p.M = 0.5 * (p.M + p.M.transpose());
  const Eigen::SelfAdjointEigenSolver<MatrixXd> eig(p.M);
  p.condition = eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
  p.z = VectorXd::Zero(n);
  VectorXd w = VectorXd::Zero(n);
  for (int i = 0; i < n; ++i) (u(rng) < 0.6 ? p.z(i) : w(i)) = 0.1 + u(rng);
  p.q = w - p.M * p.z;
  return p;
}

// The residual every accepted answer reaches with the default options (accuracy is the default):
// 1e-12, about 4500 units of roundoff.
constexpr double kDefaultResidual = 1e-12;

TEST(IllScaled, SpdConditionOneMillionToTenBillionSolvedToRoundoff) {
  std::mt19937_64 rng(2024);
  lcp::LemkeSolver solver({.restore_above = lcp::kRestoreForAccuracy});
  lcp::LemkeSolver by_default;
  int solved = 0;
  for (double decades : {6.0, 7.0, 8.0}) {
    for (int n : {8, 12, 20}) {
      for (int trial = 0; trial < 10; ++trial) {
        Planted p = PlantedSpd(n, decades, rng);
        for (int redraw = 0; redraw < 100 && !(p.condition >= 1e6 && p.condition <= 1e10); ++redraw)
          p = PlantedSpd(n, decades, rng);
        ASSERT_GE(p.condition, 1e6);
        ASSERT_LE(p.condition, 1e10);
        VectorXd z;
        const lcp::SolveInfo info = solver.Solve(p.M, p.q, &z);
        ASSERT_TRUE(info.ok()) << info.message << " n=" << n << " decades=" << decades;
        EXPECT_LE(info.residual.Worst(), kTargetResidual)
            << "n=" << n << " cond=" << p.condition << " trial " << trial;
        const lcp::SolveInfo plain = by_default.Solve(p.M, p.q, &z);
        ASSERT_TRUE(plain.ok()) << plain.message;
        EXPECT_LE(plain.residual.Worst(), kDefaultResidual)
            << "default options, n=" << n << " cond=" << p.condition << " trial " << trial;
        ++solved;
      }
    }
  }
  EXPECT_EQ(solved, 90);
}

// Contacts on a 12-dof system of bodies whose masses and inertias (the diagonal of M) span
// 1e-3 ... 1e2, random contact Jacobians, k = 4, every contact approaching at unit speed.
impact::ImpactProblem SpreadMassProblem(int m, std::mt19937_64& rng) {
  const int n = 12, k = 4;
  std::uniform_real_distribution<double> u(-1, 1);
  VectorXd mass(n);
  for (int i = 0; i < n; ++i) mass(i) = std::pow(10.0, -3.0 + 5.0 * i / (n - 1));
  const MatrixXd M = mass.asDiagonal();
  MatrixXd Jn(m, n), D(m * k, n);
  for (int i = 0; i < m; ++i) {
    VectorXd t1(n), t2(n);
    for (int j = 0; j < n; ++j) {
      Jn(i, j) = u(rng);
      t1(j) = u(rng);
      t2(j) = u(rng);
    }
    D.row(i * k) = t1;
    D.row(i * k + 1) = t2;
    D.row(i * k + 2) = -t1;
    D.row(i * k + 3) = -t2;
  }
  const VectorXd v = -Jn.completeOrthogonalDecomposition().solve(VectorXd::Ones(m));
  return impact::ImpactProblem(M, Jn, D, VectorXd::Constant(m, 0.5), v, k);
}

// Normwise backward error of z: |min(z, w)|_inf / (|q|_inf + |M|_inf |z|_inf), the natural
// residual relative to the magnitudes whose rounding makes up w (what any double computation of
// w must leave). Residual::Worst() divides by max(1, |q|_inf) only, which on this data is
// dominated by the Delassus entries of the light bodies.
double RelativeResidual(const MatrixXd& M, const VectorXd& q, const VectorXd& z) {
  const VectorXd w = M * z + q;
  const double scale = q.lpNorm<Eigen::Infinity>() +
                       M.cwiseAbs().rowwise().sum().maxCoeff() * z.lpNorm<Eigen::Infinity>();
  return z.cwiseMin(w).lpNorm<Eigen::Infinity>() / scale;
}

// The chain (what runs use), recording the relative residual of every answer it accepts.
class Checked final : public lcp::Solver {
 public:
  lcp::SolverId id() const override { return lcp::SolverId::kChain; }
  lcp::SolveInfo DoSolve(const MatrixRef& M,
                         const VectorRef& q,
                         VectorXd* z,
                         lcp::InputCheck check) override {
    const lcp::SolveInfo info = chain_.Solve(M, q, z, check);
    if (info.ok()) {
      worst_ = std::max(worst_, RelativeResidual(M, q, *z));
      worst_scaled_ = std::max(worst_scaled_, info.residual.Worst());
      ++accepted_;
    }
    return info;
  }
  double worst_ = 0, worst_scaled_ = 0;
  long long accepted_ = 0;

 private:
  lcp::FallbackSolver chain_;
};

TEST(IllScaled, RouthStepsWithMassesSpanningFiveDecadesSolvedToRoundoff) {
  std::mt19937_64 rng(7);
  const impact::ImpactProblem problem = SpreadMassProblem(4, rng);
  ASSERT_NEAR(problem.M().diagonal().minCoeff(), 1e-3, 1e-12);
  ASSERT_NEAR(problem.M().diagonal().maxCoeff(), 1e2, 1e-9);
  impact::Algorithm1Options o;
  // h: a tenth of the largest frictionless inelastic impulse A_nn^-1 1 (unit approach speeds).
  const MatrixXd Ann = problem.Delassus().topLeftCorner(problem.m(), problem.m());
  o.step = 0.1 * Ann.ldlt().solve(VectorXd::Ones(problem.m())).lpNorm<Eigen::Infinity>();
  o.max_steps = 100;
  o.selection = impact::Selection::kFirst;
  Checked solver;
  impact::RouthSampler sampler(problem, o, &solver);
  struct Iid final : impact::PSource {
    std::mt19937_64 g{3};
    std::uniform_real_distribution<double> u{0, 1};
    void Next(int, Eigen::Ref<VectorXd> p) override {
      for (Eigen::Index j = 0; j < p.size(); ++j) p(j) = u(g);
    }
  } src;
  int terminated = 0;
  for (int sample = 0; sample < 100; ++sample) {
    const impact::SampleResult& r = sampler.Run(src);
    ASSERT_NE(r.status, impact::SampleStatus::kLcpFailure) << "sample " << sample;
    terminated += r.status == impact::SampleStatus::kTerminated;
  }
  EXPECT_GT(terminated, 50);         // real impacts, not step-capped runs
  ASSERT_GT(solver.accepted_, 100);  // several steps per sample: the bound covers real solves
  EXPECT_LE(solver.worst_, kTargetResidual) << solver.accepted_ << " solves";
  std::printf("%lld solves, %d of 100 terminated, worst relative residual %.3g (scaled %.3g)\n",
              solver.accepted_, terminated, solver.worst_, solver.worst_scaled_);
}

}  // namespace
}  // namespace impactset
