// bench_compliant: wall time of one compliant-contact run (simulators/compliant.hpp, CVODE BDF) on
// the rocking block (docs/examples.md §3.2, §3.7) at stiffness 1e6 ... 1e11 N/m, equal and
// 10^5-contrast stiffness ratios, and of the authors' 51-run stiffness-ratio sweep. Counters: CVODE
// steps and right-hand-side evaluations per run.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include <impactset/simulators/compliant.hpp>
#include <impactset/systems/matrix_input.hpp>

using namespace impactset;

namespace {

const impact::ImpactProblem& RockingBlock() {
  static const auto lp =
      systems::LoadProblemJson(std::string(IMPACTSET_PROBLEMS_DIR) + "/rocking-block.json");
  return lp.problem;
}

// The authors' settings (docs/examples.md §3.7) but v_reg = 1e-6 (simulators/compliant.hpp says
// why).
simulators::CompliantOptions Options(double stiffness, double log10_ratio) {
  simulators::CompliantOptions o;
  o.stiffness = stiffness;
  o.damping_mass = 1;
  o.stop_velocity = 1e-3 / stiffness;
  o.min_impulse = 1e-2 * 0.442944691807002;
  o.external_force = Eigen::Vector3d(0, -9.81, 0);
  o.stiffness_ratio = Eigen::Vector2d(std::pow(10.0, log10_ratio), 1.0);
  return o;
}

// args: log10 stiffness, log10 (k_A / k_B)
void BM_CompliantRun(benchmark::State& state) {
  const auto o = Options(std::pow(10.0, state.range(0)), static_cast<double>(state.range(1)));
  simulators::CompliantResult r;
  for (auto _ : state) {
    r = simulators::SimulateCompliantImpact(RockingBlock(), o);
    benchmark::DoNotOptimize(r.v_plus.data());
  }
  if (!r.terminated()) state.SkipWithError(r.message.c_str());
  state.counters["steps"] = static_cast<double>(r.steps);
  state.counters["rhs"] = static_cast<double>(r.rhs_evaluations);
  state.counters["restarts"] = static_cast<double>(r.restarts);
}
BENCHMARK(BM_CompliantRun)
    ->ArgsProduct({{6, 7, 8, 9, 10, 11}, {0, 5}})
    ->Unit(benchmark::kMillisecond);

// The authors' sweep 1: 51 runs, k_A / k_B = 10^-5 ... 10^5, softer contact at 1e6.
void BM_StiffnessRatioSweep(benchmark::State& state) {
  const auto o = Options(std::pow(10.0, state.range(0)), 0);
  for (auto _ : state) {
    auto runs = simulators::StiffnessRatioSweep(RockingBlock(), o, -5, 5, 51);
    benchmark::DoNotOptimize(runs.data());
  }
}
BENCHMARK(BM_StiffnessRatioSweep)->Arg(6)->Arg(11)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
