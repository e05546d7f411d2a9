// convergence: how fast the sampled post-impact set approaches the true set (docs/convergence.md).
// Points mode (default): for K = 2^kmin ... 2^kmax samples, iid against Sobol (digitally shifted),
// the Hausdorff distance in contact coordinates from the K-sample set to a reference of 2^kref iid
// samples drawn with an independent seed.
// Hull mode (--hull): for iid, Sobol and the directed design, the LCP solves of K samples, the
// Hausdorff distance between the convex hull of the K samples and that of the reference (both
// ways, relative to the reference's diameter) and their volume ratio. The reference's hull
// vertices are cached in --cache DIR (default: convergence-cache in the build tree), so a
// reference runs once.
// Prints Markdown tables (docs/convergence.md).
//
// Usage: convergence [system ...] [--kmin 10] [--kmax 20] [--kref 22] [--threads 0]
//        convergence --hull [system ...] [--kmin 8] [--kmax 20] [--kref 22] [--threads 0]
//                    [--cache DIR] [--directed-kmax K] [--ref-directed K ...]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include <impactset/sampling/sampler.hpp>
#include <impactset/setapprox/distances.hpp>
#include <impactset/systems/builtin.hpp>
#include "hull_study.hpp"

using namespace impactset;

namespace {

MatrixXd Sample(const systems::LoadedProblem& lp,
                sampling::Design design,
                long long samples,
                std::uint64_t seed,
                int threads) {
  sampling::SamplerOptions o;
  o.algorithm.step = lp.settings.step.value_or(1.0);
  o.algorithm.max_steps = lp.settings.max_steps.value_or(10);
  o.samples = samples;
  o.seed = seed;
  o.threads = threads;
  o.design = design;
  o.keep_samples = true;
  const sampling::SamplerResult r = sampling::RunSampler(lp.problem, o);
  return sampling::TerminatedColumns(r.records.contact_velocity, r.records.status);
}

constexpr const char* kUsage =
    "usage: convergence [system ...] [--kmin 10] [--kmax 20] [--kref 22] [--threads 0]\n"
    "       convergence --hull [system ...] [--kmin K] [--kmax K] [--kref K] [--threads T]\n"
    "                   [--cache DIR] [--designs iid,sobol,directed] [--directed-kmax K] [--seed "
    "S]\n"
    "                   [--ref-directed K ...]\n"
    "                   [--directed-extra N] [--directed-proposals N] [--directed-round N]\n"
    "                   [--directed-elites N] [--directed-pilot F] [--directed-boundary F]\n"
    "systems: the built-in names of `impactset systems` (default rocking-block compass-gait)\n";

int Run(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const std::exception& e) {  // a bad system name or option value
    std::fprintf(stderr, "convergence: %s\n%s", e.what(), kUsage);
    return 2;
  }
}

namespace {

int Run(int argc, char** argv) {
  std::vector<std::string> names;
  int kmin = 10, kmax = 20, kref = 22, threads = 0;
  bench::HullStudyOptions hull;
  hull.cache = IMPACTSET_CONVERGENCE_CACHE;  // the build tree's, whatever the working directory
  bool hull_mode = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
    if (a == "--help" || a == "-h") {
      std::printf("%s", kUsage);
      return 0;
    } else if (a == "--hull")
      hull_mode = true;
    else if (a == "--cache" && i + 1 < argc)
      hull.cache = argv[++i];
    else if (a == "--seed" && i + 1 < argc)
      hull.seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--directed-kmax")
      hull.directed_kmax = next();
    else if (a == "--ref-directed")
      hull.ref_directed.push_back(next());
    else if (a == "--designs" && i + 1 < argc)
      hull.designs = argv[++i];
    else if (a == "--directed-extra")
      hull.directed.extra_directions = next();
    else if (a == "--directed-proposals")
      hull.directed.proposals_per_direction = next();
    else if (a == "--directed-round")
      hull.directed.round_directions = next();
    else if (a == "--directed-elites")
      hull.directed.elites = next();
    else if (a == "--directed-pilot" && i + 1 < argc)
      hull.directed.pilot_fraction = std::atof(argv[++i]);
    else if (a == "--directed-boundary" && i + 1 < argc)
      hull.directed.boundary_fraction = std::atof(argv[++i]);
    else if (a == "--kmin")
      kmin = next();
    else if (a == "--kmax")
      kmax = next();
    else if (a == "--kref")
      kref = next();
    else if (a == "--threads")
      threads = next();
    else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "convergence: unknown option %s\n%s", a.c_str(), kUsage);
      return 2;
    } else
      names.push_back(a);
  }
  if (names.empty()) names = {"rocking-block", "compass-gait"};
  if (kmin < 1 || kmax < kmin || kref < kmax || kref > 30) {
    std::fprintf(stderr, "convergence: need 1 <= kmin <= kmax <= kref <= 30\n");
    return 2;
  }
  for (int k : hull.ref_directed) {
    if (k < 1 || k > 30) {
      std::fprintf(stderr, "convergence: --ref-directed %d: need 1 <= K <= 30\n", k);
      return 2;
    }
  }
  if (hull_mode) {
    hull.kmin = kmin;
    hull.kmax = kmax;
    hull.kref = kref;
    hull.threads = threads;
    for (const std::string& name : names) bench::RunHullStudy(name, hull);
    return 0;
  }
  for (const std::string& name : names) {
    const systems::LoadedProblem lp = systems::LoadBuiltin(name);
    const auto t0 = std::chrono::steady_clock::now();
    // Reference: iid, seed 1000003, independent of the seeds below.
    const MatrixXd ref = Sample(lp, sampling::Design::kIid, 1LL << kref, 1000003, threads);
    std::printf("\n### %s (h = %g, N = %d; reference: 2^%d iid samples, %lld terminated)\n\n",
                name.c_str(), lp.settings.step.value_or(1.0), lp.settings.max_steps.value_or(10),
                kref, static_cast<long long>(ref.cols()));
    std::printf("| K | iid: h(ref, K) | iid: h(K, ref) | Sobol: h(ref, K) | Sobol: h(K, ref) |\n");
    std::printf("|---|---|---|---|---|\n");
    for (int k = kmin; k <= kmax; ++k) {
      double d[2][2];
      int col = 0;
      for (auto design : {sampling::Design::kIid, sampling::Design::kSobol}) {
        const MatrixXd x = Sample(lp, design, 1LL << k, 7, threads);
        const auto h = setapprox::HausdorffDistance(ref, x);
        d[col][0] = h.a_to_b.distance;  // how much of the reference the K samples miss
        d[col][1] = h.b_to_a.distance;  // how far the K samples stray from the reference
        ++col;
      }
      std::printf("| 2^%d | %.3e | %.1e | %.3e | %.1e |\n", k, d[0][0], d[0][1], d[1][0], d[1][1]);
      std::fflush(stdout);
    }
    std::printf("\n(%.0f s)\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return 0;
}

}  // namespace
