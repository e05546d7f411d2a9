// Tests of setapprox: ε-nets, affine and convex hulls, set distances, coverage bounds.
// Seeded std::mt19937_64 only; properties rather than vectors wherever answers are not unique.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <numbers>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>
#include <Eigen/QR>

#include <impactset/setapprox/affine_hull.hpp>
#include <impactset/setapprox/bounded_net.hpp>
#include <impactset/setapprox/convex_hull.hpp>
#include <impactset/setapprox/coverage.hpp>
#include <impactset/setapprox/distances.hpp>
#include <impactset/setapprox/epsilon_net.hpp>
#include <impactset/setapprox/min_norm_point.hpp>
#include <impactset/setapprox/support_polytope.hpp>
#include "test_util.hpp"

namespace impactset::setapprox {
namespace {

using testing::CompareMatrices;

// Volumes of unit-scale polytopes come from Qhull's facet sums of a few dozen O(1) terms: a few
// hundred ulps at most, far inside 1e-12.
constexpr double kVolumeTol = 1e-12;
// Containment of unit-scale input points: projection and Qhull roundoff are ~1e-15; 1e-9 leaves
// room for the affine residual of points that are flat only to roundoff.
constexpr double kContainTol = 1e-9;
// Distances on unit-scale sets computed by differences and square roots of O(1) numbers.
constexpr double kDistanceTol = 1e-12;
// Wolfe's projection stops at a relative gap of 1e-12 (||x||^2 scale): distances to ~1e-6 * ...
// no: gap <= 1e-12 * R^2 bounds ||x||^2 - dist^2, i.e. dist error <= 1e-12 R^2 / dist; with R ~ 3
// and dist >= 0.05 this is < 1e-9.
constexpr double kProjectionTol = 1e-9;
// Affine residual of points constructed exactly on a plane or line: a few ulps of O(1) values.
constexpr double kFlatResidualTol = 1e-13;

MatrixXd UniformCube(Index d, Index n, std::mt19937_64& rng, double lo = 0, double hi = 1) {
  std::uniform_real_distribution<double> u(lo, hi);
  MatrixXd x(d, n);
  for (Index j = 0; j < n; ++j) {
    for (Index i = 0; i < d; ++i) x(i, j) = u(rng);
  }
  return x;
}

MatrixXd Gaussian(Index d, Index n, std::mt19937_64& rng) {
  std::normal_distribution<double> g(0, 1);
  MatrixXd x(d, n);
  for (Index j = 0; j < n; ++j) {
    for (Index i = 0; i < d; ++i) x(i, j) = g(rng);
  }
  return x;
}

/// Vertices of the unit cube [0,1]^d, d x 2^d.
MatrixXd CubeCorners(Index d) {
  const Index n = Index{1} << d;
  MatrixXd x(d, n);
  for (Index j = 0; j < n; ++j) {
    for (Index i = 0; i < d; ++i) x(i, j) = static_cast<double>((j >> i) & 1);
  }
  return x;
}

/// A random orthonormal d x k matrix (QR of a seeded Gaussian matrix).
MatrixXd RandomOrthonormal(Index d, Index k, std::mt19937_64& rng) {
  const MatrixXd g = Gaussian(d, k, rng);
  const Eigen::HouseholderQR<MatrixXd> qr(g);
  return qr.householderQ() * MatrixXd::Identity(d, k);
}

double BruteNearest(const MatrixXd& set, const VectorXd& q) {
  return (set.colwise() - q).colwise().norm().minCoeff();
}

std::string InvalidArgumentMessage(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

// ---------------------------------------------------------------------------------------------
// ε-net

TEST(EpsilonNet, CoversEveryPointAndSeparatesNetPoints) {
  std::mt19937_64 rng(11);
  for (Index d = 2; d <= 5; ++d) {
    const MatrixXd x = UniformCube(d, 3000, rng);
    const double eps = 0.12 * std::sqrt(static_cast<double>(d));
    const EpsilonNet net = BuildEpsilonNet(x, {.epsilon = eps});
    const MatrixXd n = net.points();
    ASSERT_EQ(n.cols(), net.size());
    ASSERT_GT(net.size(), 10) << "d = " << d;
    EXPECT_EQ(net.offered(), 3000);
    double worst_cover = 0;
    for (Index j = 0; j < x.cols(); ++j)
      worst_cover = std::max(worst_cover, BruteNearest(n, x.col(j)));
    EXPECT_LE(worst_cover, eps) << "d = " << d;
    double closest_pair = std::numeric_limits<double>::infinity();
    for (Index a = 0; a < n.cols(); ++a) {
      for (Index b = a + 1; b < n.cols(); ++b) {
        closest_pair = std::min(closest_pair, (n.col(a) - n.col(b)).norm());
      }
    }
    EXPECT_GT(closest_pair, eps) << "d = " << d;
    // The net is a subset of the input, recorded by source index.
    for (Index k = 0; k < net.size(); ++k) {
      const auto src = static_cast<Index>(net.source_indices()[static_cast<std::size_t>(k)]);
      EXPECT_EQ(n.col(k), x.col(src));
    }
    const VectorXd dist = net.DistancesToNet(x);
    EXPECT_LE(dist.maxCoeff(), eps);
  }
}

TEST(BoundedNet, CapHoldsAndCoveringRadiusIsExact) {
  // 20,000 points of the 6-D cube at eps = 0.05 would need thousands of net points; a cap of 300
  // forces several doublings. The stated covering radius must still cover every point offered.
  std::mt19937_64 rng(11);
  const MatrixXd x = UniformCube(6, 20000, rng);
  BoundedNet net(6, {.epsilon = 0.05, .max_points = 300});
  net.InsertBatch(x);
  EXPECT_LE(net.size(), 300);
  EXPECT_GT(net.coarsenings(), 0);
  EXPECT_EQ(net.offered(), 20000);
  // covering = eps + 2 eps + 4 eps + ... (one term per doubling), separation = eps 2^c.
  double covering = 0.05, s = 0.05;
  for (int c = 0; c < net.coarsenings(); ++c) covering += (s *= 2);
  EXPECT_DOUBLE_EQ(net.separation(), s);
  EXPECT_DOUBLE_EQ(net.covering_radius(), covering);
  const MatrixXd pts = net.net().points();
  ASSERT_GT(pts.cols(), 10);
  EXPECT_LE(NearestDistances(x, pts).maxCoeff(), net.covering_radius());
  for (Index i = 0; i < pts.cols(); ++i) {  // separation holds pairwise
    for (Index j = i + 1; j < pts.cols(); ++j) EXPECT_GT((pts.col(i) - pts.col(j)).norm(), s);
  }
  // Below the cap it is exactly an EpsilonNet.
  BoundedNet small(6, {.epsilon = 0.05, .max_points = 1000000});
  small.InsertBatch(x.leftCols(500));
  EXPECT_EQ(small.net().points(), BuildEpsilonNet(x.leftCols(500), {.epsilon = 0.05}).points());
  EXPECT_EQ(small.covering_radius(), 0.05);
  EXPECT_NE(InvalidArgumentMessage([] {
              BoundedNet(2, {.epsilon = 0.1, .max_points = 0});
            }).find("max_points = 0"),
            std::string::npos);
}

TEST(EpsilonNet, DeterministicAndBatchEqualsSingleInserts) {
  std::mt19937_64 rng(12);
  const MatrixXd x = Gaussian(3, 2000, rng);
  const EpsilonNetOptions options{.epsilon = 0.4};
  const EpsilonNet a = BuildEpsilonNet(x, options);
  EpsilonNet b(3, options);
  Index joined = 0;
  for (Index j = 0; j < x.cols(); ++j) joined += b.Insert(x.col(j)) ? 1 : 0;
  EXPECT_EQ(joined, b.size());
  EpsilonNet c(3, options);  // in uneven batches
  c.InsertBatch(x.leftCols(7));
  c.InsertBatch(x.middleCols(7, 993));
  c.InsertBatch(x.rightCols(1000));
  EXPECT_EQ(a.points(), b.points());
  EXPECT_EQ(a.points(), c.points());
  EXPECT_EQ(a.source_indices(), c.source_indices());
  // Batches viewed inside a taller matrix (columns 5 doubles apart), into a net frozen between
  // them: the batch path reads columns by their stride and searches frozen and later points.
  MatrixXd tall = MatrixXd::Zero(5, x.cols());
  tall.topRows(3) = x;
  EpsilonNet e(3, options);
  e.InsertBatch(tall.topRows(3).leftCols(600));
  e.Freeze();
  e.InsertBatch(tall.topRows(3).middleCols(600, 700));
  e.InsertBatch(tall.topRows(3).rightCols(700));
  EXPECT_EQ(a.points(), e.points());
  EXPECT_EQ(a.source_indices(), e.source_indices());
  EXPECT_EQ(e.offered(), x.cols());
  // Points exactly ε apart, repeated points: a batch keeps what single inserts keep.
  MatrixXd line(1, 9);
  line << 0.0, 0.5, 1.0, 0.0, 1.5, 2.0, 2.0, 0.25, 3.0;
  EpsilonNet singles(1, {.epsilon = 0.5}), batch(1, {.epsilon = 0.5});
  for (Index j = 0; j < line.cols(); ++j) singles.Insert(line.col(j));
  batch.InsertBatch(line);
  EXPECT_EQ(batch.points(), singles.points());  // 0, 1, 2, 3
  EXPECT_EQ(batch.size(), 4);
}

TEST(EpsilonNet, DistanceExactlyEpsilonCountsAsCovered) {
  EpsilonNet net(1, {.epsilon = 0.5});  // 0, 0.5, 1, 1.5, 2 are exact in binary
  VectorXd p(1);
  for (double v : {0.0, 0.5, 1.0, 1.5, 2.0}) {
    p << v;
    net.Insert(p);
  }
  EXPECT_EQ(net.size(), 3);  // 0, 1, 2
  p << 0.5;
  EXPECT_TRUE(net.IsCovered(p));
  p << 2.5;
  EXPECT_TRUE(net.IsCovered(p));
  p << std::nextafter(2.5, 3.0);
  EXPECT_FALSE(net.IsCovered(p));
}

using Snapshots = std::vector<std::shared_ptr<const NetSnapshot>>;

// The snapshot taken `lag` snapshots before the newest (the oldest when there are fewer).
const NetSnapshot& Lagging(const Snapshots& taken, std::size_t lag) {
  return *taken[taken.size() - 1 - std::min(lag, taken.size() - 1)];
}

// Offers x as the sampler's serial stage does after a worker tested it against snap. @return
// whether snap covered it.
bool OfferAsTested(EpsilonNet* net, const PointRef& x, const NetSnapshot& snap) {
  if (snap.IsCovered(x)) {
    net->InsertCoveredBy(x, snap);
    return true;
  }
  net->InsertNotCoveredBy(x, snap);
  return false;
}

// Whether x is within eps of a column of n, every squared distance summed in coordinate order:
// the predicate the net documents.
bool BruteCovered(const MatrixXd& n, const VectorXd& x, double eps) {
  const double eps_sq = eps * eps;
  for (Index j = 0; j < n.cols(); ++j) {
    double s = 0;
    for (Index i = 0; i < x.size(); ++i) s += (x(i) - n(i, j)) * (x(i) - n(i, j));
    if (s <= eps_sq) return true;
  }
  return false;
}

TEST(EpsilonNet, CoveredIsDecidedByTheCoordinateOrderSumAlone) {
  // Queries at distance eps from a net point up to roundoff: half land on each side of eps^2, and
  // the k-d tree's own distance (summed in groups of four, pruned with box bounds) would decide
  // some of them differently. The net and its snapshot must agree with the brute-force sum.
  std::mt19937_64 rng(21);
  for (Index d : {3, 6, 9}) {
    const double eps = 0.3;
    const EpsilonNet net = BuildEpsilonNet(UniformCube(d, 4000, rng), {.epsilon = eps});
    const auto snapshot = net.Snapshot();
    ASSERT_EQ(snapshot->size(), net.size());
    const MatrixXd n = net.points();
    std::uniform_int_distribution<Index> pick(0, n.cols() - 1);
    int covered = 0, uncovered = 0;
    for (int q = 0; q < 4000; ++q) {
      VectorXd u = Gaussian(d, 1, rng).col(0);
      const VectorXd x = n.col(pick(rng)) + eps * u / u.norm();
      const bool expected = BruteCovered(n, x, eps);
      (expected ? covered : uncovered) += 1;
      ASSERT_EQ(net.IsCovered(x), expected) << "d = " << d << ", query " << q;
      Index hint = -1;
      ASSERT_EQ(snapshot->IsCovered(x, &hint), expected) << "d = " << d << ", query " << q;
    }
    EXPECT_GT(covered, 100) << "d = " << d;  // both sides of the boundary were exercised
    EXPECT_GT(uncovered, 100) << "d = " << d;
  }
}

// The snapshot remembers, per cube of diameter ε, the point that covered the last query there.
// A remembered point that does not cover the next query in its cube must neither make that query
// covered nor stop the search for another covering point.
TEST(NetSnapshot, RememberedCoveringPointsNeverDecideCoverage) {
  EpsilonNet net(1, {.epsilon = 1.0});  // cubes of side 1: [0, 1), [1, 2), ...
  for (double p : {0.0, 2.7, 10.0}) net.Insert(VectorXd::Constant(1, p));
  const auto snapshot = net.Snapshot();
  auto covered = [&](double x, Index* by) {
    *by = -1;
    return snapshot->IsCovered(VectorXd::Constant(1, x), by);
  };
  Index by = -1;
  EXPECT_TRUE(covered(1.0, &by));  // 0.0 covers it and is remembered for the cube [1, 2)
  EXPECT_EQ(by, 0);
  EXPECT_FALSE(covered(1.5, &by));  // 0.0 is 1.5 away, 2.7 is 1.2 away
  EXPECT_TRUE(covered(1.8, &by));   // 0.0 (remembered) is too far, but 2.7 covers it
  EXPECT_EQ(by, 1);
  EXPECT_TRUE(covered(1.0, &by));  // 2.7 (remembered now) is too far, but 0.0 covers it
  EXPECT_EQ(by, 0);
  for (double far : {1e300, -1e300, 4e18, -4e18}) {  // cube numbers would overflow: no memo
    EXPECT_FALSE(covered(far, &by)) << far;
  }
  // Many threads querying one snapshot (sharing its memo) get the brute-force answers.
  std::mt19937_64 rng(23);
  const EpsilonNet big = BuildEpsilonNet(UniformCube(4, 20000, rng), {.epsilon = 0.08});
  const auto shared = big.Snapshot();
  const MatrixXd n = big.points();
  const MatrixXd queries = UniformCube(4, 40000, rng, -0.05, 1.05);
  std::vector<std::uint8_t> expected(static_cast<std::size_t>(queries.cols()));
  for (Index q = 0; q < queries.cols(); ++q) {
    expected[static_cast<std::size_t>(q)] = BruteCovered(n, queries.col(q), 0.08) ? 1 : 0;
  }
  ASSERT_GT(std::count(expected.begin(), expected.end(), 0), 100);
  ASSERT_GT(std::count(expected.begin(), expected.end(), 1), 100);
  std::vector<int> wrong(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int pass = 0; pass < 2; ++pass) {             // the second pass meets a warm memo
        for (Index q = t; q < queries.cols(); q += 2) {  // neighbouring threads overlap
          Index hint = -1;
          const bool c = shared->IsCovered(queries.col(q), &hint);
          const bool real =
              c && hint >= 0 && hint < n.cols() &&
              (n.col(hint) - queries.col(q)).squaredNorm() <= 0.08 * 0.08 * (1 + 1e-12);
          if (c != (expected[static_cast<std::size_t>(q)] != 0) || (c && !real)) ++wrong[t];
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong, std::vector<int>(4, 0));
}

TEST(BoundedNet, SnapshotPrecheckedBatchesGiveTheSerialNet) {
  // A stream offered in batches, each tested beforehand against a snapshot taken some batches
  // earlier (as the sampler's workers do), through coarsenings that make old snapshots stale:
  // the net must be bit for bit that of the plain serial pass.
  std::mt19937_64 rng(22);
  for (long long cap : {1000000LL, 150LL}) {
    const MatrixXd x = UniformCube(4, 30000, rng);
    BoundedNet serial(4, {.epsilon = 0.06, .max_points = cap});
    serial.InsertBatch(x);
    BoundedNet net(4, {.epsilon = 0.06, .max_points = cap});
    Snapshots taken{net.Snapshot()};
    std::uniform_int_distribution<std::size_t> lag(0, 5);
    long long skipped = 0;
    for (Index first = 0; first < x.cols(); first += 250) {
      const NetSnapshot& snap = Lagging(taken, lag(rng));
      const Index k = std::min<Index>(250, x.cols() - first);
      std::vector<std::uint8_t> covered(static_cast<std::size_t>(k));
      for (Index c = 0; c < k; ++c) {
        covered[static_cast<std::size_t>(c)] = snap.IsCovered(x.col(first + c)) ? 1 : 0;
        skipped += covered[static_cast<std::size_t>(c)];
      }
      net.InsertBatch(x.middleCols(first, k), snap, covered);
      taken.push_back(net.Snapshot());
    }
    SCOPED_TRACE("cap " + std::to_string(cap));
    EXPECT_GT(skipped, 10000);  // the snapshots did spare searches
    EXPECT_EQ(net.net().points(), serial.net().points());
    EXPECT_EQ(net.net().source_indices(), serial.net().source_indices());
    EXPECT_EQ(net.offered(), serial.offered());
    EXPECT_EQ(net.coarsenings(), serial.coarsenings());
    EXPECT_EQ(net.covering_radius(), serial.covering_radius());
    if (cap < 1000) {
      EXPECT_GT(net.coarsenings(), 0);
    }
  }
  // A snapshot of another net says nothing about this one: the point is offered as by Insert.
  EpsilonNet a(1, {.epsilon = 0.5}), b(1, {.epsilon = 0.5});
  VectorXd p(1);
  p << 0.0;
  b.Insert(p);
  EXPECT_TRUE(b.Snapshot()->IsCovered(p));
  EXPECT_TRUE(a.InsertCoveredBy(p, *b.Snapshot()));
  EXPECT_EQ(a.size(), 1);
  EXPECT_FALSE(a.InsertCoveredBy(p, *a.Snapshot()));
  EXPECT_EQ(a.offered(), 2);
  EXPECT_NE(InvalidArgumentMessage([&] {
              BoundedNet n(1, {.epsilon = 0.5});
              n.InsertBatch(MatrixXd::Zero(1, 3), *n.Snapshot(), std::vector<std::uint8_t>(2));
            }).find("covered.size()"),
            std::string::npos);
}

TEST(EpsilonNet, PointsNotCoveredByASnapshotAreDecidedByTheNewerPoints) {
  // Offers tested against a snapshot that lags the net by a random number of points: each
  // uncovered one goes through InsertNotCoveredBy, which searches only the points added since.
  // The net must be the serial one, through many sizes of the logarithmic index.
  std::mt19937_64 rng(41);
  const MatrixXd x = UniformCube(3, 20000, rng);
  EpsilonNet serial(3, {.epsilon = 0.05});
  serial.InsertBatch(x);
  EpsilonNet net(3, {.epsilon = 0.05});
  Snapshots taken{net.Snapshot()};
  std::uniform_int_distribution<std::size_t> lag(0, 40);
  long long uncovered = 0;
  for (Index c = 0; c < x.cols(); ++c) {
    uncovered += OfferAsTested(&net, x.col(c), Lagging(taken, lag(rng))) ? 0 : 1;
    if (c % 97 == 0) taken.push_back(net.Snapshot());
  }
  EXPECT_GT(uncovered, 2000);
  EXPECT_EQ(net.points(), serial.points());
  EXPECT_EQ(net.source_indices(), serial.source_indices());
  EXPECT_EQ(net.offered(), serial.offered());
  // A snapshot of another net says nothing about this one: the point is offered as by Insert.
  EpsilonNet a(1, {.epsilon = 0.5}), b(1, {.epsilon = 0.5});
  VectorXd p(1);
  p << 0.0;
  a.Insert(p);
  EXPECT_FALSE(a.InsertNotCoveredBy(p, *b.Snapshot()));
  EXPECT_EQ(a.size(), 1);
}

TEST(EpsilonNet, AFrozenNetAnswersAsTheSerialNet) {
  // Freeze hands the net's index of its points so far to a snapshot's static tree and indexes
  // only later points itself. Frozen at irregular sizes (an empty net included), offered points
  // tested against lagging snapshots or not at all: the net, its coverage and nearest-point
  // answers must be those of the net that was never frozen.
  std::mt19937_64 rng(43);
  const MatrixXd x = UniformCube(3, 20000, rng);
  EpsilonNet serial(3, {.epsilon = 0.05});
  serial.InsertBatch(x);
  EpsilonNet net(3, {.epsilon = 0.05});
  Snapshots taken{net.Freeze()};
  std::uniform_int_distribution<std::size_t> lag(0, 3);
  std::uniform_int_distribution<int> how(0, 2);
  long long uncovered_by_older = 0;
  for (Index c = 0; c < x.cols(); ++c) {
    const NetSnapshot& snap = Lagging(taken, lag(rng));
    if (how(rng) == 0) {
      net.Insert(x.col(c));
    } else if (!OfferAsTested(&net, x.col(c), snap)) {
      uncovered_by_older += snap.size() < taken.back()->size() ? 1 : 0;
    }
    if (c % 1231 == 0) taken.push_back(net.Freeze());
  }
  EXPECT_GT(uncovered_by_older, 50);  // searches that had to look into the frozen tree
  EXPECT_EQ(net.points(), serial.points());
  EXPECT_EQ(net.source_indices(), serial.source_indices());
  EXPECT_EQ(net.offered(), serial.offered());
  const MatrixXd n = serial.points();
  const MatrixXd q = UniformCube(3, 2000, rng, -0.1, 1.1);
  for (Index j = 0; j < q.cols(); ++j) {
    ASSERT_EQ(net.IsCovered(q.col(j)), BruteCovered(n, q.col(j), 0.05)) << "query " << j;
    const NetNeighbor nn = net.Nearest(q.col(j));
    ASSERT_NEAR(nn.distance, BruteNearest(n, q.col(j)), kDistanceTol) << "query " << j;
    ASSERT_NEAR((n.col(nn.index) - q.col(j)).norm(), nn.distance, kDistanceTol) << "query " << j;
  }
}

TEST(EpsilonNet, NearestMatchesBruteForceAndEmptyNetIsInfinitelyFar) {
  EpsilonNet empty(2, {.epsilon = 0.1});
  EXPECT_EQ(empty.DistanceToNet(VectorXd::Zero(2)), std::numeric_limits<double>::infinity());
  EXPECT_EQ(empty.Nearest(VectorXd::Zero(2)).index, -1);
  EXPECT_FALSE(empty.IsCovered(VectorXd::Zero(2)));

  std::mt19937_64 rng(13);
  const EpsilonNet net = BuildEpsilonNet(UniformCube(4, 5000, rng), {.epsilon = 0.3});
  const MatrixXd n = net.points();
  const MatrixXd q = UniformCube(4, 300, rng, -0.5, 1.5);
  for (Index j = 0; j < q.cols(); ++j) {
    const NetNeighbor nn = net.Nearest(q.col(j));
    EXPECT_NEAR(nn.distance, BruteNearest(n, q.col(j)), kDistanceTol);
    EXPECT_NEAR((n.col(nn.index) - q.col(j)).norm(), nn.distance, kDistanceTol);
  }
}

TEST(EpsilonNet, RejectsBadInputNamingIt) {
  EXPECT_NE(InvalidArgumentMessage([] { EpsilonNet(2, {.epsilon = 0}); }).find("epsilon = 0"),
            std::string::npos);
  EXPECT_NE(InvalidArgumentMessage([] {
              EpsilonNet(2, {.epsilon = std::numeric_limits<double>::quiet_NaN()});
            }).find("epsilon"),
            std::string::npos);
  EXPECT_NE(InvalidArgumentMessage([] { EpsilonNet(0, {}); }).find("dimension = 0"),
            std::string::npos);
  EpsilonNet net(2, {.epsilon = 0.1});
  EXPECT_NE(InvalidArgumentMessage([&] { net.Insert(VectorXd::Zero(3)); }).find("point.size() = 3"),
            std::string::npos);
  MatrixXd bad = MatrixXd::Zero(2, 4);
  bad(1, 2) = std::numeric_limits<double>::infinity();
  EXPECT_NE(InvalidArgumentMessage([&] { net.InsertBatch(bad); }).find("points(1,2) = inf"),
            std::string::npos);
  EXPECT_EQ(net.size(), 0);  // the bad batch was rejected whole
  EXPECT_EQ(net.offered(), 0);
}

// ---------------------------------------------------------------------------------------------
// Affine hull

TEST(AffineHull, FindsTheDimensionOfFlatSets) {
  std::mt19937_64 rng(21);
  // A tilted plane through (1, 2, 3) in R^3.
  const MatrixXd plane_basis = RandomOrthonormal(3, 2, rng);
  const Eigen::Vector3d base(1, 2, 3);
  const MatrixXd on_plane = (plane_basis * UniformCube(2, 200, rng, -1, 1)).colwise() + base;
  const AffineHull plane = ComputeAffineHull(on_plane);
  EXPECT_EQ(plane.dimension, 2);
  EXPECT_LE(plane.max_residual, kFlatResidualTol);
  EXPECT_TRUE((plane.basis.transpose() * plane.basis).isIdentity(1e-14));
  // The fitted plane is the true one: its basis spans plane_basis.
  EXPECT_LE((plane_basis - plane.basis * (plane.basis.transpose() * plane_basis)).norm(), 1e-13);
  // Project / Lift round trip on points of the plane.
  EXPECT_TRUE(CompareMatrices(plane.Lift(plane.Project(on_plane)), on_plane, kFlatResidualTol));

  const MatrixXd line_dir = RandomOrthonormal(4, 1, rng);
  const MatrixXd on_line = line_dir * UniformCube(1, 50, rng, -2, 2);
  const AffineHull line = ComputeAffineHull(on_line);
  EXPECT_EQ(line.dimension, 1);
  EXPECT_LE(line.max_residual, kFlatResidualTol);

  const MatrixXd repeated = Eigen::Vector3d(0.1, -7.3, 1e3).replicate(1, 40);
  const AffineHull point = ComputeAffineHull(repeated);
  EXPECT_EQ(point.dimension, 0);
  EXPECT_EQ(point.basis.cols(), 0);
  EXPECT_LE(point.max_residual, 1e-12);

  const AffineHull single = ComputeAffineHull(Eigen::Vector2d(1, 2));
  EXPECT_EQ(single.dimension, 0);

  const AffineHull full = ComputeAffineHull(Gaussian(5, 100, rng));
  EXPECT_EQ(full.dimension, 5);
  EXPECT_EQ(full.max_residual, full.max_residual);  // finite
  EXPECT_LE(full.max_residual, 1e-12);
}

TEST(AffineHull, ToleranceFlattensNoise) {
  std::mt19937_64 rng(22);
  MatrixXd x = UniformCube(3, 300, rng);
  std::normal_distribution<double> noise(0, 1e-11);
  for (Index j = 0; j < x.cols(); ++j) x(2, j) = 0.5 + noise(rng);
  EXPECT_EQ(ComputeAffineHull(x).dimension, 2);  // 1e-11 spread < 1e-9 * O(1)
  EXPECT_EQ(ComputeAffineHull(x, {.relative_tolerance = 1e-13}).dimension, 3);
  EXPECT_NE(InvalidArgumentMessage([&] {
              ComputeAffineHull(x, {.relative_tolerance = 0});
            }).find("relative_tolerance = 0"),
            std::string::npos);
  EXPECT_NE(InvalidArgumentMessage([] { ComputeAffineHull(MatrixXd(3, 0)); }).find("3x0"),
            std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Convex hull

TEST(ConvexHull, ContainsEveryInputPointOfRandomClouds) {
  std::mt19937_64 rng(31);
  for (Index d = 2; d <= 5; ++d) {
    const MatrixXd x = Gaussian(d, 600, rng);
    const ConvexHull hull = ComputeConvexHull(x);
    ASSERT_EQ(hull.dimension(), d);
    EXPECT_GE(static_cast<Index>(hull.vertex_indices.size()), d + 1);
    EXPECT_GE(hull.facet_count(), d + 1);
    EXPECT_TRUE(std::is_sorted(hull.vertex_indices.begin(), hull.vertex_indices.end()));
    double worst = -std::numeric_limits<double>::infinity();
    const MatrixXd y = hull.affine.Project(x);
    for (Index j = 0; j < x.cols(); ++j) {
      EXPECT_TRUE(hull.Contains(x.col(j), kContainTol)) << "d = " << d << ", point " << j;
      worst = std::max(worst, hull.MaxFacetValue(y.col(j)));
    }
    // Normals are unit, and every vertex lies on the hull's boundary (some facet value ~ 0).
    EXPECT_TRUE(CompareMatrices(hull.facet_normals.colwise().norm(),
                                Eigen::RowVectorXd::Ones(hull.facet_count()), 1e-14));
    for (Index k = 0; k < hull.vertices.cols(); ++k) {
      EXPECT_NEAR(hull.MaxFacetValue(hull.vertex_coordinates.col(k)), 0.0, kContainTol);
    }
    // A point well outside every sample is not contained.
    EXPECT_FALSE(hull.Contains(VectorXd::Constant(d, 100.0), kContainTol));
  }
}

TEST(ConvexHull, KnownVolumesAreExact) {
  std::mt19937_64 rng(32);
  for (Index d = 2; d <= 5; ++d) {
    // Unit cube, with interior points that must not become vertices.
    MatrixXd cube(d, (Index{1} << d) + 50);
    cube << CubeCorners(d), UniformCube(d, 50, rng, 0.1, 0.9);
    const ConvexHull c = ComputeConvexHull(cube);
    EXPECT_NEAR(c.volume, 1.0, kVolumeTol) << "cube d = " << d;
    EXPECT_EQ(static_cast<Index>(c.vertex_indices.size()), Index{1} << d);
    EXPECT_EQ(c.facet_count(), 2 * d) << "merged facets: one per cube face";
    // Standard simplex conv(0, e_1, ..., e_d): volume 1/d!.
    MatrixXd simplex = MatrixXd::Zero(d, d + 1);
    simplex.rightCols(d) = MatrixXd::Identity(d, d);
    double factorial = 1;
    for (Index k = 2; k <= d; ++k) factorial *= static_cast<double>(k);
    const ConvexHull s = ComputeConvexHull(simplex);
    EXPECT_NEAR(s.volume, 1.0 / factorial, kVolumeTol) << "simplex d = " << d;
    EXPECT_EQ(s.facet_count(), d + 1);
  }
  // The unit square, alone and embedded (rotated, shifted) in R^3 and R^5: area 1 each time.
  MatrixXd square(2, 5);
  square << 0, 1, 0, 1, 0.5, 0, 0, 1, 1, 0.25;
  EXPECT_NEAR(ComputeConvexHull(square).volume, 1.0, kVolumeTol);
  for (Index d : {3, 5}) {
    const MatrixXd embed = RandomOrthonormal(d, 2, rng);
    const MatrixXd lifted = (embed * square).colwise() + VectorXd::LinSpaced(d, 1, 2);
    const ConvexHull h = ComputeConvexHull(lifted);
    EXPECT_EQ(h.dimension(), 2);
    EXPECT_NEAR(h.volume, 1.0, kVolumeTol) << "square in R^" << d;
    EXPECT_EQ(h.vertex_indices, (std::vector<Index>{0, 1, 2, 3}));
  }
}

TEST(ConvexHull, FlatSetsGetAHullOfTheirOwnDimension) {
  std::mt19937_64 rng(33);
  // Points on a plane in R^3: raw Qhull fails with QH6154 here.
  const MatrixXd basis = RandomOrthonormal(3, 2, rng);
  const MatrixXd plane = (basis * UniformCube(2, 300, rng)).colwise() + Eigen::Vector3d(1, 1, 1);
  const ConvexHull p = ComputeConvexHull(plane);
  EXPECT_EQ(p.dimension(), 2);
  for (Index j = 0; j < plane.cols(); ++j) EXPECT_TRUE(p.Contains(plane.col(j), kContainTol));
  const Eigen::Vector3d normal = Eigen::Vector3d(basis.col(0)).cross(Eigen::Vector3d(basis.col(1)));
  EXPECT_FALSE(p.Contains(plane.col(0) + 1e-3 * normal, kContainTol)) << "off the plane";
  EXPECT_GT(p.volume, 0.8);  // 300 uniform points of a unit square cover most of it
  EXPECT_LE(p.volume, 1.0);

  // A segment in R^3, sampled with its two end points.
  MatrixXd segment(3, 20);
  const Eigen::Vector3d a(0, 1, 2), b(3, -1, 2);
  for (Index j = 0; j < 20; ++j) {
    const double t = (j == 0) ? 0.0 : (j == 7) ? 1.0 : 0.05 + 0.9 * (static_cast<double>(j) / 20);
    segment.col(j) = a + t * (b - a);
  }
  const ConvexHull s = ComputeConvexHull(segment);
  EXPECT_EQ(s.dimension(), 1);
  EXPECT_NEAR(s.volume, (b - a).norm(), kDistanceTol);
  EXPECT_EQ(s.vertex_indices, (std::vector<Index>{0, 7}));
  EXPECT_TRUE(s.Contains(0.5 * (a + b), kContainTol));
  EXPECT_FALSE(s.Contains(b + 1e-3 * (b - a), kContainTol));

  // A single repeated point.
  const MatrixXd same = Eigen::Vector3d(0.3, 0.2, 0.1).replicate(1, 10);
  const ConvexHull o = ComputeConvexHull(same);
  EXPECT_EQ(o.dimension(), 0);
  EXPECT_EQ(o.volume, 0.0);
  EXPECT_EQ(o.vertex_indices, (std::vector<Index>{0}));
  EXPECT_TRUE(o.Contains(same.col(3), kContainTol));
  EXPECT_FALSE(o.Contains(Eigen::Vector3d(0.3, 0.2, 0.2), kContainTol));
}

TEST(ConvexHull, QhullErrorsBecomeRuntimeErrorsWithQhullsMessage) {
  // 1000 points of R^4 whose last coordinate spans only h = 3e-14 .. 1e-13: with the affine
  // tolerance lowered to 1e-17 they count as 4-D, and Qhull sometimes gives up ("QH6227 qhull
  // topology error: Only 5 facets remain"). Each run must either give a hull containing the
  // points or throw std::runtime_error with Qhull's message, and never print.
  int failures = 0, successes = 0;
  for (double h : {3e-14, 5e-14, 1e-13}) {
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      std::mt19937_64 rng(seed);
      MatrixXd x = UniformCube(4, 1000, rng);
      x.row(3) *= h;
      ::testing::internal::CaptureStderr();
      try {
        const ConvexHull hull = ComputeConvexHull(x, {.affine = {.relative_tolerance = 1e-17}});
        ++successes;
        EXPECT_EQ(hull.dimension(), 4);
      } catch (const std::runtime_error& e) {
        ++failures;
        const std::string what = e.what();
        EXPECT_NE(what.find("Qhull failed on 1000 points in dimension 4"), std::string::npos);
        EXPECT_NE(what.find("QH6"), std::string::npos) << what.substr(0, 300);
      }
      EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    }
  }
  EXPECT_GE(failures, 1) << "every near-flat 4-D set was hulled (" << successes << ")";
  // With the default tolerance such sets are flattened to 3-D and hulled without trouble.
  std::mt19937_64 rng(4);
  MatrixXd x = UniformCube(4, 1000, rng);
  x.row(3) *= 3e-14;
  EXPECT_EQ(ComputeConvexHull(x).dimension(), 3);
}

// ---------------------------------------------------------------------------------------------
// Distances

TEST(Distances, HausdorffOfOffsetGrids) {
  auto grid = [](int n, double dx, double dy) {
    MatrixXd g(2, n * n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) g.col(i * n + j) << i + dx, j + dy;
    }
    return g;
  };
  // Offset by (0.3, 0.4) (a 3-4-5 triangle): every point's nearest neighbour is its own shifted
  // copy at distance 0.5, in both directions.
  const HausdorffDistanceResult h = HausdorffDistance(grid(10, 0, 0), grid(10, 0.3, 0.4));
  EXPECT_NEAR(h.distance, 0.5, kDistanceTol);
  EXPECT_NEAR(h.a_to_b.distance, 0.5, kDistanceTol);
  EXPECT_NEAR(h.b_to_a.distance, 0.5, kDistanceTol);
  // Offset by half a cell diagonally: every point is sqrt(0.5) from four neighbours ... and at the
  // far corner only from one.
  EXPECT_NEAR(HausdorffDistance(grid(8, 0, 0), grid(8, 0.5, 0.5)).distance, std::sqrt(0.5),
              kDistanceTol);
  // Nested grids: A subset of B, so h(A, B) = 0 and h(B, A) is reached at B's far corner (9, 9),
  // whose nearest point of A is (4, 4).
  const MatrixXd small = grid(5, 0, 0);
  const MatrixXd big = grid(10, 0, 0);
  const HausdorffDistanceResult n = HausdorffDistance(small, big);
  EXPECT_EQ(n.a_to_b.distance, 0.0);
  EXPECT_NEAR(n.b_to_a.distance, 5 * std::sqrt(2.0), kDistanceTol);
  EXPECT_EQ(big.col(n.b_to_a.from_index), Eigen::Vector2d(9, 9));
  EXPECT_EQ(small.col(n.b_to_a.to_index), Eigen::Vector2d(4, 4));
  EXPECT_NEAR(n.distance, 5 * std::sqrt(2.0), kDistanceTol);
}

TEST(Distances, NearestDistancesMatchBruteForce) {
  std::mt19937_64 rng(41);
  const MatrixXd set = Gaussian(5, 700, rng);
  const MatrixXd q = Gaussian(5, 200, rng) * 1.5;
  const VectorXd d = NearestDistances(q, set);
  for (Index j = 0; j < q.cols(); ++j) EXPECT_NEAR(d(j), BruteNearest(set, q.col(j)), kDistanceTol);
  EXPECT_NEAR(OneSidedDistance(q, set).distance, d.maxCoeff(), kDistanceTol);
  EXPECT_NE(InvalidArgumentMessage([&] { OneSidedDistance(q, set.topRows(4)); }).find("rows"),
            std::string::npos);
  EXPECT_NE(InvalidArgumentMessage([&] { OneSidedDistance(q, MatrixXd(5, 0)); }).find("5x0"),
            std::string::npos);
}

TEST(Distances, ToHullOnKnownShapes) {
  MatrixXd square(2, 4);
  square << 0, 1, 0, 1, 0, 0, 1, 1;
  const ConvexHull sq = ComputeConvexHull(square);
  MatrixXd q(2, 5);
  q << 2, 2, 0.5, -1, 0.5, 0.5, 2, 0.5, -1, 1.5;
  const HullDistanceResult r = DistanceToHull(sq, q);
  const double expected[] = {1, std::sqrt(2.0), 0, std::sqrt(2.0), 0.5};
  for (Index j = 0; j < q.cols(); ++j) {
    EXPECT_NEAR(r.distance(j), expected[j], kProjectionTol) << "point " << j;
    EXPECT_LE(r.lower_bound(j), r.distance(j) + kDistanceTol);
    EXPECT_NEAR(r.lower_bound(j), expected[j], kProjectionTol) << "point " << j;
  }
  EXPECT_EQ(r.status[2], HullDistanceStatus::kInside);
  EXPECT_EQ(r.status[0], HullDistanceStatus::kProjected);
  EXPECT_TRUE(CompareMatrices(r.nearest.col(1), Eigen::Vector2d(1, 1), kProjectionTol));

  // The same square lying in the plane z = 0 of R^3: off-plane distance adds in quadrature.
  MatrixXd square3 = MatrixXd::Zero(3, 4);
  square3.topRows(2) = square;
  const ConvexHull flat = ComputeConvexHull(square3);
  ASSERT_EQ(flat.dimension(), 2);
  MatrixXd q3(3, 2);
  q3 << 0.5, 2, 0.5, 2, 3, 1;
  const HullDistanceResult r3 = DistanceToHull(flat, q3);
  EXPECT_NEAR(r3.distance(0), 3, kProjectionTol);
  EXPECT_EQ(r3.status[0], HullDistanceStatus::kInside);
  EXPECT_NEAR(r3.distance(1), std::sqrt(3.0), kProjectionTol);
  EXPECT_NEAR(r3.off_subspace(1), 1, kDistanceTol);

  const ConvexHull cube = ComputeConvexHull(CubeCorners(3));
  MatrixXd q4(3, 3);
  q4 << 2, 0.5, 0.5, 2, 0.5, 0.5, 2, 1.5, 0.25;
  const HullDistanceResult rc = DistanceToHull(cube, q4);
  EXPECT_NEAR(rc.distance(0), std::sqrt(3.0), kProjectionTol);
  EXPECT_NEAR(rc.distance(1), 0.5, kProjectionTol);
  EXPECT_NEAR(rc.distance(2), 0.0, kDistanceTol);

  // A single point and a segment (r = 0, 1).
  const ConvexHull pt = ComputeConvexHull(Eigen::Vector3d(1, 1, 1).replicate(1, 3));
  EXPECT_NEAR(DistanceToHull(pt, Eigen::Vector3d(1, 1, 3)).distance(0), 2, kDistanceTol);
  MatrixXd seg(2, 2);
  seg << 0, 2, 0, 0;
  const HullDistanceResult rs = DistanceToHull(ComputeConvexHull(seg), Eigen::Vector2d(3, 4));
  EXPECT_NEAR(rs.distance(0), std::sqrt(17.0), kProjectionTol);
}

/// Distance from q to the segment [a, b] in the plane.
double SegmentDistance(const Eigen::Vector2d& q,
                       const Eigen::Vector2d& a,
                       const Eigen::Vector2d& b) {
  const Eigen::Vector2d ab = b - a;
  const double t = std::clamp((q - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  return (q - (a + t * ab)).norm();
}

TEST(Distances, ToHullMatchesEdgeDistancesInThePlaneAndIsAProjectionInHigherDimensions) {
  std::mt19937_64 rng(42);
  int projected = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const MatrixXd x = Gaussian(2, 40, rng);
    const ConvexHull hull = ComputeConvexHull(x);
    // Polygon edges from the facets: each facet of a 2-D hull is an edge between two vertices
    // lying on it.
    const MatrixXd q = Gaussian(2, 50, rng) * 3;
    const HullDistanceResult r = DistanceToHull(hull, q);
    for (Index j = 0; j < q.cols(); ++j) {
      if (r.status[static_cast<std::size_t>(j)] == HullDistanceStatus::kInside) {
        EXPECT_EQ(r.distance(j), 0.0);
        continue;
      }
      ++projected;
      EXPECT_EQ(r.status[static_cast<std::size_t>(j)], HullDistanceStatus::kProjected);
      double brute = std::numeric_limits<double>::infinity();
      const Index m = hull.vertices.cols();
      for (Index a = 0; a < m; ++a) {
        for (Index b = a + 1; b < m; ++b) {
          brute = std::min(brute,
                           SegmentDistance(q.col(j), hull.vertices.col(a), hull.vertices.col(b)));
        }
      }
      EXPECT_NEAR(r.distance(j), brute, kProjectionTol);
      EXPECT_LE(r.lower_bound(j), r.distance(j));
    }
  }
  EXPECT_GT(projected, 500);
  // d = 3..5: the returned point p is the projection iff (q - p) . (v - p) <= 0 for every vertex
  // v, and p lies in the hull.
  for (Index d = 3; d <= 5; ++d) {
    const MatrixXd x = Gaussian(d, 300, rng);
    const ConvexHull hull = ComputeConvexHull(x);
    const MatrixXd q = Gaussian(d, 200, rng) * 3;
    const HullDistanceResult r = DistanceToHull(hull, q);
    int outside = 0, converged = 0;
    for (Index j = 0; j < q.cols(); ++j) {
      const VectorXd p = r.nearest.col(j);
      EXPECT_TRUE(hull.Contains(p, kContainTol));
      if (r.status[static_cast<std::size_t>(j)] == HullDistanceStatus::kInside) continue;
      ++outside;
      if (r.status[static_cast<std::size_t>(j)] != HullDistanceStatus::kProjected) continue;
      ++converged;
      const VectorXd u = q.col(j) - p;
      EXPECT_NEAR(u.norm(), r.distance(j), kDistanceTol);
      EXPECT_LE(((hull.vertices.colwise() - p).transpose() * u).maxCoeff(), kProjectionTol);
      EXPECT_LE(r.lower_bound(j), r.distance(j));
      EXPECT_GE(r.lower_bound(j), r.distance(j) - kProjectionTol);
    }
    EXPECT_EQ(converged, outside) << "d = " << d;
  }
}

TEST(MinNormPoint, SmallCasesAndValidation) {
  MatrixXd tri(2, 3);
  tri << 0, 2, 0, 0, 0, 2;
  const MinNormPointResult in = MinNormPoint(tri, Eigen::Vector2d(0.5, 0.5));
  EXPECT_NEAR(in.distance, 0.0, kProjectionTol);
  const MinNormPointResult out = MinNormPoint(tri, Eigen::Vector2d(2, 2));
  EXPECT_EQ(out.status, MinNormPointStatus::kConverged);
  EXPECT_NEAR(out.distance, std::sqrt(2.0), kProjectionTol);
  EXPECT_NEAR(out.lower_bound, std::sqrt(2.0), kProjectionTol);
  EXPECT_NEAR(out.weights.sum(), 1.0, kDistanceTol);
  EXPECT_EQ(out.support.size(), 2u);
  EXPECT_NE(InvalidArgumentMessage([&] {
              MinNormPoint(tri, Eigen::Vector2d(0, 0), {.max_iterations = 0});
            }).find("max_iterations = 0"),
            std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Coverage: Lemma 1

TEST(Coverage, Lemma1BoundFormulaAndPlanner) {
  const Lemma1Setting s{.lipschitz = 1, .dimension = 2, .epsilon = 0.25};
  const Lemma1Bound b = ComputeLemma1Bound(s, 200);
  EXPECT_EQ(b.cells_per_axis, 6);  // ceil(sqrt(2) / 0.25) = ceil(5.66)
  EXPECT_NEAR(b.cells, 36, 1e-12);
  EXPECT_NEAR(b.failure_bound, 36 * std::pow(35.0 / 36.0, 200), 1e-14);
  EXPECT_NEAR(b.success_lower_bound, 1 - b.failure_bound, 0);
  EXPECT_NE(b.assumptions.find("Lipschitz"), std::string::npos);
  EXPECT_EQ(ComputeLemma1Bound(s, 0).failure_bound, 1.0);
  // m is exact when L sqrt(d) / ε is an integer: sqrt(4) / 0.5 = 4.
  EXPECT_EQ(ComputeLemma1Bound({.lipschitz = 1, .dimension = 4, .epsilon = 0.5}, 1).cells_per_axis,
            4);
  // L sqrt(d) < ε: one cell, one sample suffices.
  const Lemma1Bound one = ComputeLemma1Bound({.lipschitz = 0.1, .dimension = 1, .epsilon = 1}, 1);
  EXPECT_EQ(one.cells, 1);
  EXPECT_EQ(one.failure_bound, 0.0);

  for (double delta : {0.5, 0.1, 1e-3, 1e-9}) {
    const Lemma1Bound plan = PlanLemma1Samples(s, delta);
    EXPECT_LE(plan.failure_bound, delta);
    EXPECT_GT(ComputeLemma1Bound(s, plan.samples - 1).failure_bound, delta);
  }
  // Huge G: d = m N = 60 (e.g. 3 contacts x 20 steps) and d = 400 overflow G but not the bound.
  const Lemma1Setting big{.lipschitz = 10, .dimension = 60, .epsilon = 0.01};
  const Lemma1Bound big_plan = PlanLemma1Samples(big, 0.05);
  EXPECT_TRUE(std::isfinite(big_plan.samples));
  EXPECT_LE(big_plan.failure_bound, 0.05);
  EXPECT_NEAR(big_plan.log_cells, 60 * std::log(std::ceil(10 * std::sqrt(60.0) / 0.01)), 1e-9);
  const Lemma1Bound huge =
      ComputeLemma1Bound({.lipschitz = 10, .dimension = 400, .epsilon = 0.01}, 1e18);
  EXPECT_EQ(huge.cells, std::numeric_limits<double>::infinity());
  EXPECT_EQ(huge.failure_bound, 1.0);
  EXPECT_FALSE(std::isnan(huge.log_failure_bound));

  EXPECT_NE(InvalidArgumentMessage([] {
              ComputeLemma1Bound({.lipschitz = -1}, 1);
            }).find("lipschitz = -1"),
            std::string::npos);
  EXPECT_NE(InvalidArgumentMessage([&] { ComputeLemma1Bound(s, 1.5); }).find("samples = 1.5"),
            std::string::npos);
  EXPECT_NE(InvalidArgumentMessage([&] { PlanLemma1Samples(s, 1); }).find("delta = 1"),
            std::string::npos);
}

TEST(Coverage, Lemma1BoundHoldsAgainstAnExhaustiveGrid) {
  // f = identity on [0,1]^2, L = 1. Event "ε-net of the grid": every point of a 51 x 51 grid of
  // the square is within ε of a sample (checked exhaustively with the k-d tree). Lemma 1 says it
  // has probability >= 1 - G (1 - 1/G)^K; so does the stronger event "every sub-cube is hit".
  constexpr int kGrid = 51;
  const int trials = 1000 / testing::TestSampleDivisor();  // an eighth in a sanitized build
  MatrixXd grid(2, kGrid * kGrid);
  for (int i = 0; i < kGrid; ++i) {
    for (int j = 0; j < kGrid; ++j) grid.col(i * kGrid + j) << i / (kGrid - 1.0), j / (kGrid - 1.0);
  }
  for (double eps : {0.25, 0.1}) {
    const Lemma1Setting s{.lipschitz = 1, .dimension = 2, .epsilon = eps};
    const auto m = static_cast<int>(ComputeLemma1Bound(s, 0).cells_per_axis);
    const double k_half = PlanLemma1Samples(s, 0.5).samples;
    for (double k_double : {0.5 * k_half, k_half, PlanLemma1Samples(s, 0.05).samples}) {
      const auto k = static_cast<Index>(k_double);
      const Lemma1Bound bound = ComputeLemma1Bound(s, static_cast<double>(k));
      int nets = 0, all_cells_hit = 0;
      for (int trial = 0; trial < trials; ++trial) {
        std::mt19937_64 rng(1000003ULL * static_cast<std::uint64_t>(trial) + k);
        const MatrixXd samples = UniformCube(2, k, rng);
        if (OneSidedDistance(grid, samples).distance <= eps) ++nets;
        std::vector<char> hit(static_cast<std::size_t>(m * m), 0);
        for (Index j = 0; j < k; ++j) {
          const int cx = std::min(m - 1, static_cast<int>(samples(0, j) * m));
          const int cy = std::min(m - 1, static_cast<int>(samples(1, j) * m));
          hit[static_cast<std::size_t>(cx * m + cy)] = 1;
        }
        if (std::all_of(hit.begin(), hit.end(), [](char h) { return h != 0; })) ++all_cells_hit;
      }
      const double net_freq = static_cast<double>(nets) / trials;
      const double hit_freq = static_cast<double>(all_cells_hit) / trials;
      // The bound must hold for the ε-net event (the event the lemma is about).
      EXPECT_GE(net_freq, bound.success_lower_bound) << "eps = " << eps << ", K = " << k;
      // The union bound is nearly tight for "all cells hit" when it is small, so allow 4
      // binomial standard deviations of sampling noise there.
      const double sd = std::sqrt(std::max(hit_freq * (1 - hit_freq), 1e-4) / trials);
      EXPECT_GE(hit_freq, bound.success_lower_bound - 4 * sd) << "eps = " << eps << ", K = " << k;
      EXPECT_GE(net_freq, hit_freq);  // hitting every cell implies an ε-net
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Coverage: hold-out (Clopper-Pearson)

/// P[Binomial(n, p) <= x], summed directly (small n).
double BinomialCdf(std::int64_t n, std::int64_t x, double p) {
  double sum = 0;
  for (std::int64_t i = 0; i <= x; ++i) {
    const double log_term = std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) +
                            i * std::log(p) + (n - i) * std::log1p(-p);
    sum += std::exp(log_term);
  }
  return sum;
}

TEST(Coverage, ClopperPearsonMatchesItsDefinition) {
  const double delta = 0.05;
  for (std::int64_t n : {1, 10, 100, 1000}) {
    const HoldoutBound zero = ComputeHoldoutBound(n, 0, delta);
    EXPECT_NEAR(zero.missed_mass_upper, 1 - std::pow(delta, 1.0 / static_cast<double>(n)), 1e-14);
    EXPECT_EQ(ComputeHoldoutBound(n, n, delta).missed_mass_upper, 1.0);
    for (std::int64_t x : {std::int64_t{1}, n / 2, n - 1}) {
      if (x < 1 || x >= n) continue;
      const HoldoutBound b = ComputeHoldoutBound(n, x, delta);
      // U solves P[Bin(n, U) <= x] = delta (the CDF decreases in p).
      EXPECT_NEAR(BinomialCdf(n, x, b.missed_mass_upper), delta, 1e-9) << n << " " << x;
      EXPECT_GT(b.missed_mass_upper, b.missed_fraction);
    }
  }
  EXPECT_NEAR(ComputeHoldoutBound(10, 1, 0.05).missed_mass_upper, 0.39416, 1e-5);
  const HoldoutBound plan = PlanHoldoutSize(0.01, 0.05);
  EXPECT_EQ(plan.holdout, 299);  // ceil(log 0.05 / log 0.99) = ceil(298.07)
  EXPECT_LE(plan.missed_mass_upper, 0.01);
  EXPECT_GT(ComputeHoldoutBound(298, 0, 0.05).missed_mass_upper, 0.01);
  EXPECT_NE(plan.assumptions.find("independent of the net"), std::string::npos);
  EXPECT_NE(InvalidArgumentMessage([] { ComputeHoldoutBound(10, 11, 0.05); }).find("missed = 11"),
            std::string::npos);
  EXPECT_NE(InvalidArgumentMessage([] { PlanHoldoutSize(0, 0.05); }).find("target_missed_mass = 0"),
            std::string::npos);
}

/// Measure of [0,1] within eps of the 1-D net points (union of intervals).
double CoveredLength(MatrixXd net, double eps) {
  std::vector<double> c(net.data(), net.data() + net.size());
  std::sort(c.begin(), c.end());
  double covered = 0, reach = 0;  // [0, reach) already counted
  for (double v : c) {
    const double lo = std::max({v - eps, 0.0, reach});
    const double hi = std::min(v + eps, 1.0);
    if (hi > lo) covered += hi - lo;
    reach = std::max(reach, hi);
  }
  return covered;
}

TEST(Coverage, HoldoutBoundIsCalibrated) {
  // The whole pipeline on sets of known measure: net from K uniform samples of [0,1] (missed mass
  // = 1 - covered length, exact), hold-out of K' fresh samples, bound at confidence 1 - δ.
  // Over many seeds the bound must hold in at least a 1 - δ fraction (Clopper-Pearson is exact,
  // hence conservative: expect more).
  constexpr double kDelta = 0.05;
  constexpr int kSeeds = 1000;
  struct Case {
    Index samples;
    double eps;
    Index holdout;
  };
  for (const Case c : {Case{20, 0.02, 100}, Case{60, 0.02, 300}, Case{200, 0.01, 200}}) {
    int held = 0;
    double mean_mass = 0, mean_upper = 0;
    for (int seed = 0; seed < kSeeds; ++seed) {
      std::mt19937_64 rng(7919ULL * static_cast<std::uint64_t>(seed) + c.samples);
      const EpsilonNet net = BuildEpsilonNet(UniformCube(1, c.samples, rng), {.epsilon = c.eps});
      const double missed_mass = 1 - CoveredLength(net.points(), c.eps);
      const HoldoutBound b = EvaluateHoldout(net, UniformCube(1, c.holdout, rng), kDelta);
      held += missed_mass <= b.missed_mass_upper ? 1 : 0;
      mean_mass += missed_mass / kSeeds;
      mean_upper += b.missed_mass_upper / kSeeds;
    }
    const double fraction = static_cast<double>(held) / kSeeds;
    EXPECT_GE(fraction, 1 - kDelta)
        << "K = " << c.samples << ", K' = " << c.holdout << ": mean missed mass " << mean_mass
        << ", mean bound " << mean_upper;
  }
  // 2-D, a fixed net: one point at the centre of the unit square, ε = 0.3: missed mass
  // 1 - 0.09 π exactly (the disc lies inside the square).
  EpsilonNet centre(2, {.epsilon = 0.3});
  centre.Insert(Eigen::Vector2d(0.5, 0.5));
  const double true_mass = 1 - 0.09 * std::numbers::pi;
  int held = 0;
  for (int seed = 0; seed < kSeeds; ++seed) {
    std::mt19937_64 rng(104729ULL * static_cast<std::uint64_t>(seed) + 1);
    held += true_mass <= EvaluateHoldout(centre, UniformCube(2, 150, rng), kDelta).missed_mass_upper
                ? 1
                : 0;
  }
  const double fraction = static_cast<double>(held) / kSeeds;
  EXPECT_GE(fraction, 1 - kDelta);
}

// Unit directions: the axes and a few fixed diagonals of R^d.
MatrixXd UnitDirections(Index d, std::mt19937_64& rng, Index extra) {
  MatrixXd u(d, 2 * d + extra);
  for (Index i = 0; i < d; ++i) {
    u.col(2 * i) = VectorXd::Unit(d, i);
    u.col(2 * i + 1) = -VectorXd::Unit(d, i);
  }
  std::normal_distribution<double> g;
  for (Index j = 2 * d; j < u.cols(); ++j) {
    for (Index i = 0; i < d; ++i) u(i, j) = g(rng);
    u.col(j).normalize();
  }
  return u;
}

// Split into ranges, merged in any order: bit for bit the one-pass result (threads, shards, MPI).
TEST(SupportPolytope, MergeOfAnySplitInAnyOrderIsTheOnePassResult) {
  std::mt19937_64 rng(11);
  const MatrixXd x = UniformCube(5, 3000, rng, -1, 1);
  MatrixXd ties_m = x;  // repeated points: ties must go to the smaller sample index
  ties_m.rightCols(1000) = x.leftCols(1000);
  const MatrixXd& ties = ties_m;
  const MatrixXd u = UnitDirections(5, rng, 40);
  for (const MatrixXd* points : {&x, &ties}) {
    SupportPolytope one(u);
    for (Index k = 0; k < points->cols(); ++k) one.Add(points->col(k), k);
    for (Index cut : {1, 17, 1500, 2999}) {
      SupportPolytope a(u), b(u);
      for (Index k = 0; k < cut; ++k) a.Add(points->col(k), k);
      for (Index k = cut; k < points->cols(); ++k) b.Add(points->col(k), k);
      SupportPolytope ab = a, ba = b;
      ab.Merge(b);
      ba.Merge(a);
      for (const SupportPolytope* m : {&ab, &ba}) {
        EXPECT_EQ(m->values(), one.values());
        EXPECT_EQ(m->attaining_samples(), one.attaining_samples());
        EXPECT_EQ(m->attaining_points(), one.attaining_points());
        EXPECT_EQ(m->count(), one.count());
      }
    }
    // Outer description contains every point; each value is attained by its stored point.
    EXPECT_LE(one.OuterViolations(*points).maxCoeff(), 0.0);
    for (Index j = 0; j < u.cols(); ++j) {
      const auto a = one.attaining_samples()[static_cast<std::size_t>(j)];
      EXPECT_EQ(VectorXd(one.attaining_points().col(j)), VectorXd(points->col(a)));
    }
  }
  EXPECT_THROW(SupportPolytope(MatrixXd::Ones(2, 2)), std::invalid_argument);  // not unit
  SupportPolytope p(u);
  EXPECT_THROW(p.Add(VectorXd::Zero(4), 0), std::invalid_argument);
  EXPECT_THROW(p.Merge(SupportPolytope(UnitDirections(5, rng, 3))), std::invalid_argument);
  EXPECT_EQ(p.attaining_samples()[0], -1);  // nothing added yet
}

// AddBatch is Add column by column, bit for bit: columns sharing a sample index (a trajectory's
// steps), repeated points (ties), skipped columns (index -1), several 256-column chunks, and
// columns taken from a larger matrix (an outer stride other than d).
TEST(SupportPolytope, AddBatchIsAddColumnByColumn) {
  std::mt19937_64 rng(12);
  MatrixXd wide = UniformCube(6, 1400, rng, -1, 1);
  wide.rightCols(300) = wide.leftCols(300);       // ties
  const auto x = wide.topRows(5);                 // d = 5 of a 6-row matrix
  const MatrixXd u = UnitDirections(5, rng, 31);  // J = 41: a last group of one direction
  std::vector<std::int64_t> index(static_cast<size_t>(x.cols()));
  std::int64_t sample = 7;
  for (size_t c = 0; c < index.size(); ++c) {
    if (rng() % 3 == 0) ++sample;              // one to several columns per sample
    index[c] = rng() % 11 == 0 ? -1 : sample;  // and some not offered
  }
  SupportPolytope one(u), batch(u), halves(u), reversed(u);
  for (Index c = 0; c < x.cols(); ++c) {
    if (index[static_cast<size_t>(c)] >= 0) one.Add(x.col(c), index[static_cast<size_t>(c)]);
  }
  batch.AddBatch(x, index);
  const std::span<const std::int64_t> all(index);
  halves.AddBatch(x.leftCols(700), all.first(700));
  halves.AddBatch(x.rightCols(700), all.last(700));
  // The later half first: its ties are then beaten by the earlier half's smaller indices.
  reversed.AddBatch(x.rightCols(700), all.last(700));
  reversed.AddBatch(x.leftCols(700), all.first(700));
  ASSERT_GT(one.count(), 0);
  for (const SupportPolytope* b : {&batch, &halves, &reversed}) {
    EXPECT_EQ(b->values(), one.values());
    EXPECT_EQ(b->attaining_samples(), one.attaining_samples());
    EXPECT_EQ(b->attaining_points(), one.attaining_points());
    EXPECT_EQ(b->count(), one.count());
  }
  MatrixXd bad = x;
  bad(2, 5) = std::numeric_limits<double>::quiet_NaN();
  index[5] = 3;
  EXPECT_THROW(batch.AddBatch(bad, index), std::invalid_argument);
  index[5] = -1;  // a skipped column may hold anything
  EXPECT_NO_THROW(SupportPolytope(u).AddBatch(bad, index));
  EXPECT_THROW(batch.AddBatch(x.topRows(4), index), std::invalid_argument);
  EXPECT_THROW(batch.AddBatch(x, all.first(10)), std::invalid_argument);
}

// A point within radius (as EpsilonNet measures it) of a point MarkDeepInside marked changes
// nothing when added, even with the smallest sample index and pushed straight along each direction
// (the worst case); points whose slack is exactly the radius are not marked.
TEST(SupportPolytope, PointsNearADeepPointCannotAttainAnyValue) {
  std::mt19937_64 rng(14);
  for (Index d : {2, 4, 6}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const MatrixXd u = UnitDirections(d, rng, 40);
    SupportPolytope p(u);
    const MatrixXd x = UniformCube(d, 2000, rng, -1, 1);
    for (Index k = 0; k < x.cols(); ++k) p.Add(x.col(k), k + 1);
    const double r = 0.05;
    const MatrixXd candidates = UniformCube(d, 3000, rng, -1, 1);
    std::vector<std::uint8_t> deep;
    p.MarkDeepInside(candidates, r, &deep);
    ASSERT_EQ(deep.size(), static_cast<std::size_t>(candidates.cols()));
    Index marked = 0;
    for (Index k = 0; k < candidates.cols(); ++k) {
      if (deep[static_cast<std::size_t>(k)] == 0) continue;
      ++marked;
      for (Index j = 0; j < u.cols(); ++j) {
        const VectorXd y = candidates.col(k) + r * (1 - 1e-12) * u.col(j);
        ASSERT_LE((y - candidates.col(k)).squaredNorm(), r * r);  // covered by candidate k
        SupportPolytope q = p;
        q.Add(y, 0);  // index 0 wins every tie
        ASSERT_EQ(q.values(), p.values()) << "candidate " << k << ", direction " << j;
        ASSERT_EQ(q.attaining_samples(), p.attaining_samples());
      }
    }
    EXPECT_GT(marked, 100);                      // deep points exist in a full cube...
    EXPECT_LT(marked, candidates.cols() - 100);  // ...and so do shallow ones
    // Slack exactly r in one direction: a point there would tie or beat, so it is not marked.
    MatrixXd edge(d, u.cols());
    for (Index j = 0; j < u.cols(); ++j) {
      edge.col(j) = p.attaining_points().col(j) - r * u.col(j);
    }
    std::vector<std::uint8_t> none;
    p.MarkDeepInside(edge, r, &none);
    EXPECT_EQ(std::count(none.begin(), none.end(), 1), 0);
  }
  // Marks already set stay (h only grows, so the caller's earlier marks still hold).
  const MatrixXd u = UnitDirections(2, rng, 4);
  SupportPolytope empty(u);  // h = -inf: nothing is deep
  std::vector<std::uint8_t> kept{1, 0};
  empty.MarkDeepInside(MatrixXd::Zero(2, 3), 0.1, &kept);
  EXPECT_EQ(kept, (std::vector<std::uint8_t>{1, 0, 0}));
  EXPECT_NE(InvalidArgumentMessage([&] {
              empty.MarkDeepInside(MatrixXd::Zero(2, 1), -1, &kept);
            }).find("radius"),
            std::string::npos);
  EXPECT_NE(InvalidArgumentMessage([&] {
              empty.MarkDeepInside(MatrixXd::Zero(3, 1), 1, &kept);
            }).find("points"),
            std::string::npos);
}

// The candidate-vertex prefilter is exact: the same vertices (as input columns) and volume.
TEST(ConvexHull, PrefilterKeepsEveryVertex) {
  std::mt19937_64 rng(5);
  for (Index d : {2, 3, 4, 5}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    MatrixXd x(d, 4000);  // a ball: many vertices, most points inside
    std::normal_distribution<double> g;
    std::uniform_real_distribution<double> r01;
    for (Index k = 0; k < x.cols(); ++k) {
      VectorXd v(d);
      for (Index i = 0; i < d; ++i) v(i) = g(rng);
      x.col(k) = v.normalized() * std::pow(r01(rng), 1.0 / static_cast<double>(d));
    }
    const ConvexHull all = ComputeConvexHull(x, {.prefilter = false});
    const ConvexHull some = ComputeConvexHull(x, {.prefilter = true});
    EXPECT_LT(some.qhull_points, all.qhull_points);
    EXPECT_EQ(some.vertex_indices, all.vertex_indices);
    EXPECT_NEAR(some.volume, all.volume, 1e-9 * all.volume);  // Qhull's volume roundoff
  }
}

// Qhull never writes to the terminal: a failing input's report is in the exception, and in
// r >= 5 (joggled) a successful run's notes are in qhull_messages; the cap refuses with a status.
TEST(ConvexHull, QhullIsSilentAndItsInputIsCapped) {
  std::mt19937_64 rng(3);
  const MatrixXd x = UniformCube(5, 2000, rng);
  ::testing::internal::CaptureStderr();
  ::testing::internal::CaptureStdout();
  const ConvexHull h = ComputeConvexHull(x);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(h.qhull_command, "qhull QJ");
  EXPECT_EQ(h.qhull_points, 2000);
  for (bool inside : h.ContainsAll(x, h.distance_roundoff + 1e-12)) EXPECT_TRUE(inside);
  EXPECT_THROW(ComputeConvexHull(x, {.max_qhull_points = 100}), HullTooLarge);
  EXPECT_THROW(ComputeConvexHull(x, {.max_qhull_points = -1}), std::invalid_argument);
}

}  // namespace
}  // namespace impactset::setapprox
