// bench_sampler: samples per second of Algorithm 2's sampler on the paper's examples, by LCP
// solver, selection policy and thread count (the targets in bench/README.md: >= 1 M samples/s on
// the rocking block on 2 cores with the native solver, >= 5x the Siconos build, efficiency >= 0.9).
#include <benchmark/benchmark.h>

#include <string>

#include <impactset/catalog/system_catalog.hpp>
#include <impactset/engine/option_table.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/sampling/sampler.hpp>
#include <impactset/sets/set_builder.hpp>
#include <impactset/sets/set_outputs.hpp>
#include <impactset/systems/matrix_input.hpp>

using namespace impactset;

namespace {

// Variants of the random selection: "random" detects non-unique steps (two solves per step),
// "random-nodetect" does not (one solve), "random-nodetect+sets" also builds the run's nets,
// hulls and hold-out bound (sets/set_outputs.hpp) as `impactset run` does by default.
void Run(benchmark::State& state,
         const std::string& system,
         const std::string& lcp,
         impact::Selection selection,
         int threads,
         bool detect = true,
         bool sets = false) {
  const auto lp =
      systems::LoadProblemJson(std::string(IMPACTSET_PROBLEMS_DIR "/") + system + ".json");
  sampling::SamplerOptions o;
  o.algorithm.step = *lp.settings.step;
  o.algorithm.max_steps = *lp.settings.max_steps;
  o.algorithm.selection = selection;
  o.algorithm.detect_non_unique = detect;
  o.samples = 1 << 18;
  o.threads = threads;
  o.solver = lcp::ParseSolverKind(lcp);
  long long samples = 0;
  for (auto _ : state) {
    if (sets) {
      sets::SetBuilder builder(lp.problem, sets::SetOptions{});
      const sampling::SamplerResult r = sampling::RunSampler(lp.problem, o, {}, builder.Stream());
      const auto out = builder.Finish(o);
      samples += r.count;
      benchmark::DoNotOptimize(out.size());
    } else {
      const sampling::SamplerResult r = sampling::RunSampler(lp.problem, o);
      samples += r.count;
      benchmark::DoNotOptimize(r.summary.lcp_solves);
    }
  }
  state.counters["samples/s"] =
      benchmark::Counter(static_cast<double>(samples), benchmark::Counter::kIsRate);
}

// One small call as impactset.sample() makes it (the problem's options, the caller's samples,
// kept samples, no sets, the default threads = 0): the C++ side of bench_python_calls.py.
void SmallCall(benchmark::State& state, long long samples) {
  const systems::LoadedProblem lp = catalog::LoadSystem("rocking-block", {});
  for (auto _ : state) {
    engine::RunOptions o = engine::ResolveRunOptions(lp, {{"samples", samples}});
    o.sampler.keep_samples = true;
    o.sets = false;
    const engine::RunResult r = engine::Run(lp.problem, o, "rocking-block");
    benchmark::DoNotOptimize(r.summary.terminated);
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (long long samples : {1LL, 64LL}) {
    benchmark::RegisterBenchmark(("call/rocking-block/samples:" + std::to_string(samples)).c_str(),
                                 [=](benchmark::State& st) { SmallCall(st, samples); })
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  }
  for (const char* system : {"rocking-block", "compass-gait"}) {
    for (const char* lcp : {"native", "siconos"}) {
      for (auto sel : {impact::Selection::kFirst, impact::Selection::kRandom}) {
        for (int threads : {1, 2}) {
          const std::string name = std::string("sampler/") + system + "/" + lcp + "/" +
                                   impact::ToString(sel) + "/threads:" + std::to_string(threads);
          benchmark::RegisterBenchmark(
              name.c_str(), [=](benchmark::State& st) { Run(st, system, lcp, sel, threads); })
              ->Unit(benchmark::kMillisecond)
              ->UseRealTime();
        }
      }
    }
  }
  for (const char* system : {"rocking-block", "compass-gait"}) {
    for (int threads : {1, 2}) {
      for (bool sets : {false, true}) {
        const std::string name = std::string("sampler/") + system + "/native/random-nodetect" +
                                 (sets ? "+sets" : "") + "/threads:" + std::to_string(threads);
        benchmark::RegisterBenchmark(name.c_str(),
                                     [=](benchmark::State& st) {
                                       Run(st, system, "native", impact::Selection::kRandom,
                                           threads, false, sets);
                                     })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
  }
  // The set-output target (bench/README.md) with the random selection with detection and the
  // native chain, with and without the sets: the "+sets" time over the plain one.
  for (const char* system : {"rocking-block", "compass-gait", "box-wall", "ramone"}) {
    for (bool sets : {false, true}) {
      const std::string name = std::string("sampler/") + system + "/native/default" +
                               (sets ? "+sets" : "") + "/threads:2";
      benchmark::RegisterBenchmark(name.c_str(),
                                   [=](benchmark::State& st) {
                                     Run(st, system, "native", impact::Selection::kRandom, 2, true,
                                         sets);
                                   })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
