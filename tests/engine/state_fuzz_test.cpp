// Impact states nobody planned for (fuzz/impact_state.hpp) on every system runnable by name:
// random velocities, scaled (resting, separating, tiny, huge), replaced; MuJoCo models moved and
// touched down. Each must give a result or std::invalid_argument through run's and compare's
// library calls; compare's Routh set must equal run's. The libFuzzer target of the same cases
// is fuzz/impact_state.cpp.
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "fuzz/impact_state.hpp"
#include "test_util.hpp"

namespace impactset::fuzz {
namespace {

// Draws per (system, kind): enough to reach resting, separating and approaching states of each.
// The sanitized build (testing::TestSampleDivisor() > 1) draws one for every fourth (system,
// kind): the same code paths, a quarter of the systems' states each.
constexpr int kDrawsPerKind = 2;
int Draws() { return testing::TestSampleDivisor() > 1 ? 1 : kDrawsPerKind; }
bool Skipped(int system, int kind) {
  const int index = system * static_cast<int>(StateKind::kCount) + kind;
  return testing::TestSampleDivisor() > 1 && index % 4 != 0;
}

TEST(StateFuzz, EveryStateOfEverySystemGivesAResultOrAClearError) {
  std::mt19937_64 rng(20261129);
  std::uniform_int_distribution<int> byte(0, 255);
  const int systems = static_cast<int>(catalog::Systems().size());
  int results = 0, refused = 0;
  for (int s = 0; s < systems; ++s) {
    for (int kind = 0; kind < static_cast<int>(StateKind::kCount); ++kind) {
      if (Skipped(s, kind)) continue;
      for (int draw = 0; draw < Draws(); ++draw) {
        std::vector<std::uint8_t> bytes = {static_cast<std::uint8_t>(s),
                                           static_cast<std::uint8_t>(kind)};
        for (int i = 0; i < 40; ++i) bytes.push_back(static_cast<std::uint8_t>(byte(rng)));
        const StateCase c = DecodeState(bytes.data(), bytes.size());
        const std::string what = catalog::Systems()[s].name + " kind " + std::to_string(kind);
        try {
          RunCase(c);
          ++results;
        } catch (const std::invalid_argument& e) {
          ++refused;
          EXPECT_FALSE(std::string(e.what()).empty()) << what;
        } catch (const std::exception& e) {
          ADD_FAILURE() << what << ": " << e.what();
        }
      }
    }
  }
  // Most cases are valid states: a generator that only produced refusals would test nothing.
  EXPECT_GT(results, refused) << results << " results, " << refused << " refused";
}

// The states the crash of a no-approach state came from: zero, separating and resting velocity
// on every system give a result whose samples all terminated at once.
TEST(StateFuzz, NoApproachingContactTerminatesEverySampleWithoutASolve) {
  const int systems = static_cast<int>(catalog::Systems().size());
  for (int s = 0; s < systems; ++s) {
    for (double scale : {0.0, -1.0}) {
      StateCase c;
      c.system = s;
      c.kind = StateKind::kScaled;
      c.values = {scale};
      std::optional<systems::LoadedProblem> loaded;
      try {
        loaded.emplace(LoadCase(c));
      } catch (const std::invalid_argument&) {
        continue;  // a scene whose state cannot be separated this way
      }
      const systems::LoadedProblem& lp = *loaded;
      if ((lp.problem.Jn() * lp.problem.v_minus()).minCoeff() < 0) continue;  // still approaching
      engine::RunOptions o = engine::ProblemRunOptions(lp);
      o.sampler.samples = 8;
      o.sampler.threads = 1;
      const engine::RunResult r = engine::Run(lp.problem, o, "no-approach");
      EXPECT_EQ(r.summary.terminated, 8) << catalog::Systems()[s].name << " x " << scale;
      EXPECT_EQ(r.summary.lcp_solves, 0) << catalog::Systems()[s].name << " x " << scale;
    }
  }
}

}  // namespace
}  // namespace impactset::fuzz
