// bench_sets: where the set outputs spend their time, by dimension. Nets (greedy
// ε-nets, setapprox::EpsilonNet) and convex hulls (setapprox::ComputeConvexHull, with and without
// the candidate-vertex prefilter) of synthetic outcome-like clouds in 2 ... 12 dimensions, and the
// whole set outputs of the 3-D cube (bench/data/cube-flat.json: 2^16 samples, four sets) against
// its sampling. bench/README.md has the commands and the last measurements.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <impactset/sampling/sampler.hpp>
#include <impactset/sampling/streams.hpp>
#include <impactset/setapprox/convex_hull.hpp>
#include <impactset/setapprox/epsilon_net.hpp>
#include <impactset/setapprox/support_polytope.hpp>
#include <impactset/sets/features.hpp>
#include <impactset/sets/set_builder.hpp>
#include <impactset/sets/set_outputs.hpp>
#include <impactset/systems/matrix_input.hpp>

using namespace impactset;

namespace {

constexpr long long kCloudPoints = 1 << 16;

// A cloud shaped like an outcome set: x = sum_j p_j a_j + 0.2 sin(3 p_1) a_0 with p iid uniform
// on [0,1]^(2d) and fixed random a_j (a zonotope bent by a smooth term), so its hull has many
// vertices on a curved boundary and most points lie inside.
MatrixXd Cloud(int d, long long count) {
  sampling::UniformStream generators(42, static_cast<std::uint64_t>(d));
  MatrixXd a(d, 2 * d + 1);
  for (Eigen::Index k = 0; k < a.size(); ++k) a.data()[k] = generators.Next() - 0.5;
  MatrixXd x(d, count);
  for (long long i = 0; i < count; ++i) {
    sampling::UniformStream p(7, static_cast<std::uint64_t>(i));
    VectorXd y = VectorXd::Zero(d);
    double first = 0;
    for (int j = 1; j <= 2 * d; ++j) {
      const double pj = p.Next();
      if (j == 1) first = pj;
      y += pj * a.col(j);
    }
    x.col(i) = y + 0.2 * std::sin(3 * first) * a.col(0);
  }
  return x;
}

// A counter of wall time per cloud point of an iteration (shown as ns): kCloudPoints items each.
benchmark::Counter TimePerCloudPoint() {
  return benchmark::Counter(
      static_cast<double>(kCloudPoints),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

double Extent(const MatrixXd& x) {
  return (x.rowwise().maxCoeff() - x.rowwise().minCoeff()).norm();
}

void Net(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  const MatrixXd x = Cloud(d, kCloudPoints);
  const double eps = 0.02 * Extent(x);
  Eigen::Index size = 0;
  for (auto _ : state) {
    const setapprox::EpsilonNet net =
        setapprox::BuildEpsilonNet(x, setapprox::EpsilonNetOptions{.epsilon = eps});
    size = net.size();
  }
  state.counters["net_points"] = static_cast<double>(size);
}

// The hull of the cloud's ε-net (what the set outputs hull), prefilter on (range 1 = 1) or off.
void Hull(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  const bool prefilter = state.range(1) == 1;
  const MatrixXd x = Cloud(d, kCloudPoints);
  const MatrixXd net =
      setapprox::BuildEpsilonNet(x, setapprox::EpsilonNetOptions{.epsilon = 0.02 * Extent(x)})
          .points();
  setapprox::ConvexHull hull;
  for (auto _ : state) {
    hull = setapprox::ComputeConvexHull(net, {.prefilter = prefilter});
  }
  state.counters["net_points"] = static_cast<double>(net.cols());
  state.counters["qhull_points"] = static_cast<double>(hull.qhull_points);
  state.counters["vertices"] = static_cast<double>(hull.vertex_indices.size());
}

sampling::SamplerOptions CubeOptions(const systems::LoadedProblem& lp) {
  sampling::SamplerOptions o;
  o.algorithm.step = *lp.settings.step;
  o.algorithm.max_steps = *lp.settings.max_steps;
  o.samples = 1 << 16;
  o.threads = 2;
  return o;
}

// The cube's sampling alone (range 0 = 0), or sampling with the streamed nets (range 0 = 1), or
// the finishing step alone on prebuilt nets (range 0 = 2: hulls and the 4096-sample hold-out).
void Cube(benchmark::State& state) {
  const auto lp = systems::LoadProblemJson(IMPACTSET_BENCH_DATA_DIR "/cube-flat.json");
  const sampling::SamplerOptions o = CubeOptions(lp);
  const long long mode = state.range(0);
  for (auto _ : state) {
    if (mode == 0) {
      benchmark::DoNotOptimize(sampling::RunSampler(lp.problem, o).summary.lcp_solves);
      continue;
    }
    sets::SetOptions so;
    so.reachable = true;  // the four sets: post-impact and reachable, contact and generalized
    sets::SetBuilder builder(lp.problem, so);
    if (mode == 2) state.PauseTiming();
    sampling::RunSampler(lp.problem, o, {}, builder.Stream());
    if (mode == 2) state.ResumeTiming();
    if (mode == 2) benchmark::DoNotOptimize(builder.Finish(o).size());
  }
}

// The cube's four nets (2^16 samples, built once), for CubeHull.
const std::vector<sets::PointSet>& CubeNets() {
  static const std::vector<sets::PointSet> sets = [] {
    const auto lp = systems::LoadProblemJson(IMPACTSET_BENCH_DATA_DIR "/cube-flat.json");
    const sampling::SamplerOptions o = CubeOptions(lp);
    sets::SetOptions so;
    so.reachable = true;
    so.hull_max_dimension = 1;  // nets only: every hull skipped here, timed in CubeHull
    sets::SetBuilder builder(lp.problem, so);
    sampling::RunSampler(lp.problem, o, {}, builder.Stream());
    return builder.Sets();
  }();
  return sets;
}

// One hull of the cube's sets (range 0: 0 post-impact contact, 1 post-impact generalized,
// 2 reachable contact, 3 reachable generalized) with SetOptions::hull_max_points = range 1.
void CubeHull(benchmark::State& state) {
  const sets::PointSet& s = CubeNets()[static_cast<std::size_t>(state.range(0))];
  sets::SetOptions so;
  so.hull_max_points = state.range(1);
  sets::HullResult h;
  for (auto _ : state) h = sets::HullOfPoints(s.net.points, so, s.net.separation);
  state.counters["net_points"] = static_cast<double>(s.net.points.cols());
  state.counters["qhull_points"] = static_cast<double>(h.qhull_points);
  state.counters["vertices"] = static_cast<double>(h.vertices.cols());
  state.counters["volume"] = h.volume;
}

// "Is x within ε of the net?" for 2^16 fresh cloud points against the ε-net of another 2^16
// (mostly covered, as in a long run): the nets' k-d tree snapshot (range 1 = 0) against a grid
// hash with cells of side ε (range 1 = 1: the point's own cell first, then the other 3^d - 1).
// The grid is a measurement prototype here, not library code: it answers "where would a grid
// hash beat the k-d tree". Counter: ns per query.
class GridHash {
 public:
  GridHash(const MatrixXd& points, double eps) : points_(points), eps_(eps), eps_sq_(eps * eps) {
    for (Eigen::Index j = 0; j < points.cols(); ++j) cells_[Key(Cell(points.col(j)))].push_back(j);
  }
  bool IsCovered(const Eigen::Ref<const VectorXd>& x) const {
    const std::vector<long long> c = Cell(x);
    const auto d = static_cast<int>(c.size());
    std::vector<long long> probe(c);
    long long combos = 1;
    for (int i = 0; i < d; ++i) combos *= 3;
    for (long long m = 0; m < combos; ++m) {  // m = 0 is the own cell (offsets 0, then +1, -1)
      long long r = m;
      for (int i = 0; i < d; ++i, r /= 3) probe[i] = c[i] + (r % 3 == 0 ? 0 : r % 3 == 1 ? 1 : -1);
      const auto it = cells_.find(Key(probe));
      if (it == cells_.end()) continue;
      for (Eigen::Index j : it->second) {
        if ((points_.col(j) - x).squaredNorm() <= eps_sq_) return true;
      }
    }
    return false;
  }

 private:
  std::vector<long long> Cell(const Eigen::Ref<const VectorXd>& x) const {
    std::vector<long long> c(static_cast<std::size_t>(x.size()));
    for (Eigen::Index i = 0; i < x.size(); ++i)
      c[i] = static_cast<long long>(std::floor(x(i) / eps_));
    return c;
  }
  static std::uint64_t Key(const std::vector<long long>& c) {
    std::uint64_t h = 1469598103934665603ULL;
    for (long long v : c) h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ULL;
    return h;
  }
  MatrixXd points_;
  double eps_, eps_sq_;
  std::unordered_map<std::uint64_t, std::vector<Eigen::Index>> cells_;  // collisions only cost time
};

void NetQuery(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  const bool grid = state.range(1) == 1;
  const MatrixXd x = Cloud(d, 2 * kCloudPoints);
  const double eps = 0.02 * Extent(x);
  const MatrixXd built = x.leftCols(kCloudPoints), fresh = x.rightCols(kCloudPoints);
  const setapprox::EpsilonNet net =
      setapprox::BuildEpsilonNet(built, setapprox::EpsilonNetOptions{.epsilon = eps});
  const auto snapshot = net.Snapshot();
  const GridHash hash(net.points(), eps);
  long long covered = 0;
  for (auto _ : state) {
    covered = 0;
    for (Eigen::Index j = 0; j < fresh.cols(); ++j) {
      covered += (grid ? hash.IsCovered(fresh.col(j)) : snapshot->IsCovered(fresh.col(j))) ? 1 : 0;
    }
  }
  state.counters["net_points"] = static_cast<double>(net.size());
  state.counters["covered_fraction"] =
      static_cast<double>(covered) / static_cast<double>(kCloudPoints);
  state.counters["ns_per_query"] = TimePerCloudPoint();
}

// The support polytope of the set outputs (2 d axes + 64 fixed directions) over 2^16 points,
// offered in blocks of 4096 as the set builder does: ns per point.
void Support(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  const MatrixXd x = Cloud(d, kCloudPoints);
  const MatrixXd u = sampling::SupportDirections(d, sets::kSetSupportExtraDirections);
  std::vector<std::int64_t> index(static_cast<std::size_t>(x.cols()));
  for (std::size_t k = 0; k < index.size(); ++k) index[k] = static_cast<std::int64_t>(k);
  constexpr Eigen::Index kBlock = 4096;
  for (auto _ : state) {
    setapprox::SupportPolytope p(u);
    for (Eigen::Index first = 0; first < x.cols(); first += kBlock) {
      p.AddBatch(x.middleCols(first, kBlock),
                 std::span<const std::int64_t>(index).subspan(static_cast<std::size_t>(first),
                                                              static_cast<std::size_t>(kBlock)));
    }
    benchmark::DoNotOptimize(p.values().data());
  }
  state.counters["ns_per_point"] = TimePerCloudPoint();
}

}  // namespace

BENCHMARK(Support)->DenseRange(2, 12, 2)->Unit(benchmark::kMicrosecond);
BENCHMARK(NetQuery)->ArgsProduct({{2, 3, 4, 6}, {0, 1}})->Unit(benchmark::kMillisecond);
BENCHMARK(CubeHull)
    ->ArgsProduct({{0, 1, 2, 3}, {0, 4000, 1000}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(Net)->DenseRange(2, 12, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(Hull)
    ->ArgsProduct({{2, 3, 4, 5, 6}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(Cube)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_MAIN();
