// bench_sets: where the set outputs spend their time, by dimension (issue 18). Nets (greedy
// ε-nets, setapprox::EpsilonNet) and convex hulls (setapprox::ComputeConvexHull, with and without
// the candidate-vertex prefilter) of synthetic outcome-like clouds in 2 ... 12 dimensions, and the
// whole set outputs of the 3-D cube (bench/data/cube-flat.json: 2^16 samples, four sets) against
// its sampling. bench/README.md has the commands and the last measurements.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/features.hpp"
#include "engine/set_outputs.hpp"
#include "sampling/sampler.hpp"
#include "sampling/streams.hpp"
#include "setapprox/convex_hull.hpp"
#include "setapprox/epsilon_net.hpp"
#include "setapprox/support_polytope.hpp"
#include "systems/matrix_input.hpp"

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
    engine::SetBuilder builder(lp.problem, engine::SetOptions{});
    if (mode == 2) state.PauseTiming();
    sampling::RunSampler(lp.problem, o, {}, builder.Stream());
    if (mode == 2) state.ResumeTiming();
    if (mode == 2) benchmark::DoNotOptimize(builder.Finish(o).size());
  }
}

// The cube's four nets (2^16 samples, built once), for CubeHull.
const std::vector<engine::PointSet>& CubeNets() {
  static const std::vector<engine::PointSet> sets = [] {
    const auto lp = systems::LoadProblemJson(IMPACTSET_BENCH_DATA_DIR "/cube-flat.json");
    const sampling::SamplerOptions o = CubeOptions(lp);
    engine::SetOptions so;
    so.hull_max_dimension = 1;  // nets only: every hull skipped here, timed in CubeHull
    engine::SetBuilder builder(lp.problem, so);
    sampling::RunSampler(lp.problem, o, {}, builder.Stream());
    return builder.Sets();
  }();
  return sets;
}

// One hull of the cube's sets (range 0: 0 post-impact contact, 1 post-impact generalized,
// 2 reachable contact, 3 reachable generalized) with SetOptions::hull_max_points = range 1.
void CubeHull(benchmark::State& state) {
  const engine::PointSet& s = CubeNets()[static_cast<std::size_t>(state.range(0))];
  engine::SetOptions so;
  so.hull_max_points = state.range(1);
  engine::HullResult h;
  for (auto _ : state) h = engine::HullOfPoints(s.net.points, so, s.net.separation);
  state.counters["net_points"] = static_cast<double>(s.net.points.cols());
  state.counters["qhull_points"] = static_cast<double>(h.qhull_points);
  state.counters["vertices"] = static_cast<double>(h.vertices.cols());
  state.counters["volume"] = h.volume;
}

// The support polytope of the set outputs (2 d axes + 64 fixed directions) over 2^16 points,
// offered in blocks of 4096 as the set builder does: ns per point.
void Support(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  const MatrixXd x = Cloud(d, kCloudPoints);
  const MatrixXd u = engine::SupportDirections(d, engine::kSetSupportExtraDirections);
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
  state.counters["ns_per_point"] = benchmark::Counter(
      static_cast<double>(kCloudPoints), benchmark::Counter::kIsIterationInvariantRate |
                                             benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(Support)->DenseRange(2, 12, 2)->Unit(benchmark::kMicrosecond);
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
