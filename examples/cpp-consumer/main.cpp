// Samples the rocking block's post-impact set with the installed impactset library and prints the
// volume of the convex hull of its post-impact contact velocities.
// Usage: rocking_block_volume [samples [seed]]   (defaults: 4096 samples, seed 7)
#include <cstdio>
#include <exception>
#include <string>

#include <impactset/common/version.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/systems/builtin.hpp>

int main(int argc, char** argv) try {
  namespace engine = impactset::engine;
  namespace sets = impactset::sets;
  const impactset::systems::LoadedProblem lp = impactset::systems::LoadBuiltin("rocking-block");
  engine::RunOptions options = engine::DefaultRunOptions(lp.settings);
  options.sampler.samples = argc > 1 ? std::stoll(argv[1]) : 4096;
  options.sampler.seed = argc > 2 ? std::stoull(argv[2]) : 7;

  const engine::RunResult r = engine::Run(lp.problem, options, "rocking-block");
  const sets::PointSet* s = r.Find(sets::SetKind::kPostImpact, "contact");
  if (s == nullptr || s->hull.status != sets::HullStatus::kComputed) {
    std::fprintf(stderr, "no post-impact contact hull\n");
    return 1;
  }
  std::printf("impactset %s: %lld samples, %d-dimensional hull of %lld net points\n",
              impactset::kVersion, r.count, s->hull.dimension,
              static_cast<long long>(s->net.points.cols()));
  // 17 significant digits: the double itself, comparable with `impactset run --json`.
  std::printf("post-impact contact hull volume: %.17g\n", s->hull.volume);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
