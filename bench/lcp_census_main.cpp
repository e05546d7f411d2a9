// lcp_census: how often the native Lemke and the fallback chain solve the step LCPs that
// Algorithm 1 visits on the paper's examples (the robustness counts of bench/README.md).
// With --bases first, it counts instead which complementary bases end the steps of the run's
// default (mixed) design and how often the warm start answers without a path (docs/performance.md).
// Usage: lcp_census [--bases] [count=1000000] [seed=1] [SOURCE ...], count being the least number
// of step LCPs per example (the number of samples with --bases), a SOURCE being a
// problem.json (its h and N, else 1 and 10), a MuJoCo scene's name, or mujoco:MODEL.xml:STATE.json
// (qpos and qvel from the JSON file); MuJoCo models run at their scaled h and N
// (engine::ScaledRunOptions), as `impactset run` does.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <impactset/engine/step_scaling.hpp>
#include <impactset/lcp/residual.hpp>
#include <impactset/robots/mujoco_model.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/robots/state_vector.hpp>
#include <impactset/sampling/lcp_census.hpp>
#include <impactset/systems/matrix_input.hpp>

using namespace impactset;

namespace {

// The problem and Algorithm 1's h and N of one SOURCE argument.
systems::LoadedProblem Load(const std::string& source, impact::Algorithm1Options* o) {
  if (source.rfind("mujoco:", 0) == 0 || robots::IsMujocoScene(source)) {
    auto load = [&] {
      if (robots::IsMujocoScene(source)) return robots::LoadMujocoScene(source);
      const size_t colon = source.find(':', 7);
      robots::MujocoOptions mo;
      const std::string state = source.substr(colon + 1);
      mo.state.qpos = robots::ParseStateVector(state, "qpos");
      mo.state.qvel = robots::ParseStateVector(state, "qvel");
      return robots::LoadMujoco(source.substr(7, colon - 7), mo);
    };
    const robots::MujocoProblem r = load();
    const engine::RunOptions scaled = engine::ScaledRunOptions(r.loaded.problem, r.loaded.settings);
    *o = scaled.sampler.algorithm;
    return r.loaded;
  }
  const systems::LoadedProblem lp = systems::LoadProblemJson(source);
  o->step = lp.settings.step.value_or(1.0);
  o->max_steps = lp.settings.max_steps.value_or(10);
  return lp;
}

std::string NameOf(const std::string& source) {
  return source.substr(source.find_last_of('/') + 1);
}

// The --bases table: one row per source.
int BasisTable(long long samples, unsigned long long seed, const std::vector<std::string>& files) {
  std::printf("%-20s %7s %8s %6s %6s %8s %6s %6s %6s %7s %6s %6s %6s\n", "problem", "samples",
              "steps", "later", "known", "distinct", "top1", "top4", "top16", "piv/st", "table",
              "hit", "saved");
  for (const std::string& f : files) {
    impact::Algorithm1Options o;
    const systems::LoadedProblem lp = Load(f, &o);
    const sampling::BasisCensus c = sampling::RunBasisCensus(lp.problem, o, seed, samples);
    const double steps = static_cast<double>(std::max(1LL, c.steps));
    const double cold = static_cast<double>(std::max(1LL, c.pivots_cold));
    std::printf("%-20s %7lld %8lld %6.3f %6.3f %8lld %6.3f %6.3f %6.3f %7.2f %6d %6.3f %6.3f\n",
                NameOf(f).c_str(), c.samples, c.steps, c.later_steps / steps, c.known_bases / steps,
                c.distinct, c.top1, c.top4, c.top16, c.pivots_cold / steps, c.table_bases,
                c.table_hits / steps, 1.0 - c.pivots_table / cold);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool bases = argc > 1 && std::string(argv[1]) == "--bases";
  const int a = bases ? 2 : 1;
  const long long count = argc > a ? std::atoll(argv[a]) : (bases ? 100000 : 1000000);
  const unsigned long long seed = argc > a + 1 ? std::strtoull(argv[a + 1], nullptr, 10) : 1;
  std::vector<std::string> files;
  for (int i = a + 2; i < argc; ++i) files.push_back(argv[i]);
  if (files.empty()) {
    for (const char* name : {"rocking-block", "compass-gait", "box-wall"}) {
      files.push_back(std::string(IMPACTSET_PROBLEMS_DIR "/") + name + ".json");
    }
  }
  if (bases) return BasisTable(count, seed, files);
  const long long min_solves = count;
  std::printf("%-24s %8s %9s %9s %7s %7s %7s %7s %7s %7s %9s %9s %7s\n", "problem", "samples",
              "solves", "native", "alt", "siconos", "prox", "ext", "enum", "failed", "native%",
              "worst_res", "seconds");
  int status = 0;
  for (const std::string& f : files) {
    impact::Algorithm1Options o;
    const systems::LoadedProblem lp = Load(f, &o);
    const auto t0 = std::chrono::steady_clock::now();
    const sampling::LcpCensus c = sampling::RunLcpCensus(lp.problem, o, seed, min_solves);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string name = NameOf(f);
    std::printf(
        "%-24s %8lld %9lld %9lld %7lld %7lld %7lld %7lld %7lld %7lld %9.4f %9.2e %7.2f\n",
        name.c_str(), c.samples, c.chain.solves, c.chain.SolvedBy(lcp::SolverId::kNative),
        c.chain.SolvedBy(lcp::SolverId::kNativeAlt), c.chain.SolvedBy(lcp::SolverId::kSiconos),
        c.chain.SolvedBy(lcp::SolverId::kProximal), c.chain.SolvedBy(lcp::SolverId::kExtended),
        c.chain.SolvedBy(lcp::SolverId::kEnumeration), c.chain.failures, 100.0 * c.NativeFraction(),
        c.worst_residual, sec);
    if (c.chain.failures > 0 || c.worst_residual > lcp::kAcceptTolerance) status = 1;
  }
  return status;
}
