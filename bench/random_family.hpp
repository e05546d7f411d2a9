#pragma once
// A family of random valid impact problems of the kind users bring as matrices (docs/robustness.md
// "Random impact problems"): n 3..18 velocities, m 1..10 contacts, planar (k = 2) or spatial
// (k = 4, or 8 for the k = 8 variant), SPD mass matrices with condition numbers log-uniform in
// [1, 1e10], mu from {0, 0.3, 1, 5, 1000} or U(0, 2) per contact, and in 40 % of the problems
// with m >= 3 contacts whose Jacobian rows (normal and tangential) are linear combinations of the
// other contacts' (a rank-deficient Delassus matrix, as coplanar feet or a box's four corners
// give). Problem i of a seed is a pure function of (seed, i, spatial k): the property test in
// tests/ and the bench program draw the same problems. Header-only, for tests/ and bench/.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>

#include <Eigen/QR>

#include <impactset/impact/impact_problem.hpp>

namespace impactset::family {

/// The friction class of a drawn problem: one value for every contact, or U(0, 2) per contact.
/// kMixed (Shape::kJammed only): each contact's mu drawn from {0, 0.3, 1, 5, 1000} on its own.
enum class MuClass { kZero, kLow, kOne, kFive, kThousand, kUniform, kMixed };
inline const char* ToString(MuClass c) {
  static const char* const names[] = {"mu=0",    "mu=0.3",    "mu=1",          "mu=5",
                                      "mu=1000", "mu~U(0,2)", "mu per contact"};
  return names[static_cast<int>(c)];
}

struct FamilyProblem {
  impact::ImpactProblem problem;
  int index = 0;
  bool planar = false;
  bool dependent = false;  ///< some contacts' rows are combinations of the others'
  MuClass mu_class = MuClass::kZero;
  double condition = 1;  ///< of M, as drawn (eigenvalues log-spaced between the extremes)

  /// "planar" / "3-D k=4" / "3-D k=8".
  std::string Geometry() const {
    return planar ? "planar" : "3-D k=" + std::to_string(problem.k());
  }
  /// Condition decade class: "cond<1e4", "1e4..1e8", ">1e8".
  std::string ConditionClass() const {
    return condition < 1e4 ? "cond<1e4" : condition <= 1e8 ? "cond 1e4..1e8" : "cond>1e8";
  }
};

namespace detail {

inline MatrixXd RandomOrthogonal(int n, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  MatrixXd X(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) X(i, j) = g(rng);
  return Eigen::HouseholderQR<MatrixXd>(X).householderQ();
}

// Q diag(lambda) Q^T with lambda log-uniform inside [cond^-1/2, cond^1/2], both ends taken.
inline MatrixXd SpdWithCondition(int n, double cond, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  const double half = 0.5 * std::log10(cond);
  VectorXd lambda(n);
  for (int i = 0; i < n; ++i) {
    const double t = i == 0 ? 0.0 : i == n - 1 ? 1.0 : u(rng);
    lambda(i) = std::pow(10.0, -half + 2 * half * t);
  }
  const MatrixXd Q = RandomOrthogonal(n, rng);
  MatrixXd M = Q * lambda.asDiagonal() * Q.transpose();
  return 0.5 * (M + M.transpose());
}

}  // namespace detail

/// The shape of the drawn problems.
enum class Shape {
  kDefault,  ///< n 3..18, m 1..10
  kJammed    ///< more contacts than velocities: n 3..10, m n+1..n+6 (often {v : Jn v >= 0} = {0})
};

/// Problem `index` of the family drawn from `seed`; spatial problems have `spatial_k` directions
/// (4 or 8), planar ones 2. Half the problems are planar.
inline FamilyProblem DrawProblem(std::uint64_t seed,
                                 int index,
                                 int spatial_k = 4,
                                 Shape shape = Shape::kDefault) {
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(index));
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> g;
  auto uniform_int = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  const bool jammed = shape == Shape::kJammed;
  const int n = jammed ? uniform_int(3, 10) : uniform_int(3, 18);
  const int m = jammed ? uniform_int(n + 1, n + 6) : uniform_int(1, 10);
  const bool planar = u(rng) < 0.5;
  const int k = planar ? 2 : spatial_k;
  const double cond = std::pow(10.0, 10.0 * u(rng));
  const MatrixXd M = detail::SpdWithCondition(n, cond, rng);
  // Per contact: a normal row and two tangent rows (one when planar), Gaussian.
  MatrixXd N(m, n), T1(m, n), T2(m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) N(i, j) = g(rng), T1(i, j) = g(rng), T2(i, j) = g(rng);
  const bool dependent = m >= 3 && u(rng) < 0.4;
  if (dependent) {  // contacts free..m-1 are combinations of contacts 0..free-1 (all their rows)
    const int free = uniform_int(2, m - 1);
    for (int i = free; i < m; ++i) {
      VectorXd c(free);
      for (int j = 0; j < free; ++j) c(j) = g(rng);
      N.row(i) = c.transpose() * N.topRows(free);
      T1.row(i) = c.transpose() * T1.topRows(free);
      T2.row(i) = c.transpose() * T2.topRows(free);
    }
  }
  MatrixXd D(m * k, n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < k / 2; ++j) {  // row j + k/2 = -row j exactly
      const double a = 2 * std::numbers::pi * j / k;
      if (planar) {
        D.row(i * k + j) = T1.row(i);
      } else {
        D.row(i * k + j) = std::cos(a) * T1.row(i) + std::sin(a) * T2.row(i);
      }
      D.row(i * k + j + k / 2) = -D.row(i * k + j);
    }
  }
  const int mu_pick = uniform_int(0, jammed ? 6 : 5);
  static const double kMu[] = {0, 0.3, 1, 5, 1000};
  VectorXd mu(m);
  for (int i = 0; i < m; ++i) {
    mu(i) = mu_pick < 5 ? kMu[mu_pick] : mu_pick == 5 ? 2 * u(rng) : kMu[uniform_int(0, 4)];
  }
  // v-: Gaussian, turned around when no contact approaches, redrawn when none does either way.
  VectorXd v(n);
  for (int attempt = 0;; ++attempt) {
    for (int j = 0; j < n; ++j) v(j) = g(rng);
    const VectorXd jnv = N * v;
    if (jnv.minCoeff() > -1e-3) v = -v;
    if ((N * v).minCoeff() < -1e-3 || attempt > 100) break;
  }
  return FamilyProblem{impact::ImpactProblem(M, N, D, mu, v, k),
                       index,
                       planar,
                       dependent,
                       static_cast<MuClass>(mu_pick),
                       cond};
}

}  // namespace impactset::family
