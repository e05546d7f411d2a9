#include "hull_study.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>

#include <impactset/catalog/system_catalog.hpp>
#include <impactset/engine/step_scaling.hpp>
#include <impactset/sampling/sampler.hpp>
#include <impactset/sampling/support_directions.hpp>
#include <impactset/setapprox/affine_hull.hpp>
#include <impactset/setapprox/convex_hull.hpp>
#include <impactset/setapprox/distances.hpp>

namespace impactset::bench {

namespace {

constexpr std::uint64_t kReferenceSeed = 1000003;  // independent of the study's seed 7
// Hulls in the points' affine hull with the flatness tolerance of `impactset distance`
// (engine::kHullFlatness): outcomes end within 1e-8 of exact values.
constexpr double kFlatness = 1e-6;
// Samples per chunk when reducing a large cloud to its hull vertices (bounded memory).
constexpr long long kChunk = 1LL << 18;
// The goal: hull within 1 % of the reference's diameter and >= 99 % of its volume.
constexpr double kGoalHausdorff = 0.01, kGoalVolume = 0.99;

setapprox::ConvexHull Hull(const MatrixXd& points) {
  setapprox::ConvexHullOptions o;
  o.affine.relative_tolerance = kFlatness;
  return setapprox::ComputeConvexHull(points, o);
}

MatrixXd Join(const MatrixXd& a, const MatrixXd& b) {
  MatrixXd out(b.rows(), a.cols() + b.cols());
  out << a, b;
  return out;
}

// Hulls only up to this affine dimension: Qhull's output grows like N^floor(r/2).
constexpr long long kMaxHullDimension = 6;
// Support directions: kDirections fixed random unit vectors and their negatives.
constexpr int kDirections = 2048;
// Points per matrix product when taking support values of raw points (bounded memory).
constexpr long long kProductColumns = 4096;

// What a run leaves for the study: the hull vertices of its terminated samples (when the set is
// hulled), their support values on the fixed directions, and the run's counts.
struct Reduced {
  MatrixXd vertices;
  VectorXd support;
  long long terminated = 0, solves = 0;
};

MatrixXd StudyDirections(int c) {
  const MatrixXd d = sampling::SupportDirections(c, kDirections).rightCols(kDirections);
  MatrixXd u(c, 2 * kDirections);
  u << d, -d;
  return u;
}

void UpdateSupport(const MatrixXd& u, const MatrixXd& points, VectorXd* h) {
  for (Eigen::Index b = 0; b < points.cols(); b += kProductColumns) {
    const Eigen::Index n = std::min<Eigen::Index>(kProductColumns, points.cols() - b);
    const MatrixXd v = u.transpose() * points.middleCols(b, n);
    *h = h->cwiseMax(v.rowwise().maxCoeff());
  }
}

sampling::SamplerOptions StudyOptions(const engine::RunOptions& base,
                                      sampling::Design design,
                                      long long samples,
                                      std::uint64_t seed,
                                      int threads,
                                      const sampling::DirectedOptions& directed = {}) {
  sampling::SamplerOptions o = base.sampler;
  o.samples = samples;
  o.seed = seed;
  o.threads = threads;
  o.design = design;
  o.directed = directed;
  o.keep_samples = true;
  return o;
}

Reduced SampleReduced(const systems::LoadedProblem& lp,
                      const engine::RunOptions& base,
                      sampling::Design design,
                      long long samples,
                      std::uint64_t seed,
                      int threads,
                      bool hulls,
                      const sampling::DirectedOptions& directed = {}) {
  sampling::SamplerOptions o = StudyOptions(base, design, samples, seed, threads, directed);
  // A directed run is one whole run; the others are split in chunks to bound memory.
  const int chunks =
      design == sampling::Design::kDirected ? 1 : static_cast<int>((samples + kChunk - 1) / kChunk);
  const auto c = static_cast<int>(lp.problem.ContactJacobian().rows());
  const MatrixXd u = StudyDirections(c);
  Reduced r;
  r.vertices.resize(c, 0);
  r.support = VectorXd::Constant(u.cols(), -std::numeric_limits<double>::infinity());
  for (int k = 0; k < chunks; ++k) {
    o.shard_count = chunks;
    o.shard_index = k;
    const sampling::SamplerResult s = sampling::RunSampler(lp.problem, o);
    r.solves += s.summary.lcp_solves;
    const MatrixXd pts = sampling::TerminatedColumns(s.records.contact_velocity, s.records.status);
    r.terminated += pts.cols();
    if (pts.cols() == 0) continue;
    if (hulls)
      r.vertices = Hull(Join(r.vertices, pts)).vertices;
    else
      UpdateSupport(u, pts, &r.support);
  }
  if (hulls && r.vertices.cols() > 0) UpdateSupport(u, r.vertices, &r.support);
  return r;
}

std::string CachePath(const std::string& cache,
                      const std::string& system,
                      const char* design,
                      int k,
                      std::uint64_t seed) {
  const std::string tag = std::string(design) == "iid" ? "" : std::string("-") + design;
  return cache + "/" + system + tag + "-k" + std::to_string(k) + "-seed" + std::to_string(seed) +
         "-j" + std::to_string(kDirections) + ".txt";
}

std::optional<Reduced> ReadCache(const std::string& path) {
  std::ifstream in(path);
  long long rows = 0, cols = 0, j = 0;
  Reduced r;
  if (!(in >> rows >> cols >> j >> r.terminated >> r.solves)) return std::nullopt;
  r.vertices.resize(rows, cols);
  r.support.resize(j);
  for (long long k = 0; k < cols; ++k) {
    for (long long i = 0; i < rows; ++i) in >> r.vertices(i, k);
  }
  for (long long k = 0; k < j; ++k) in >> r.support(k);
  if (!in) return std::nullopt;
  return r;
}

void WriteCache(const std::string& path, const Reduced& r) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::FILE* f = std::fopen((path + ".tmp").c_str(), "w");
  if (!f) return;
  std::fprintf(f, "%lld %lld %lld %lld %lld\n", static_cast<long long>(r.vertices.rows()),
               static_cast<long long>(r.vertices.cols()), static_cast<long long>(r.support.size()),
               r.terminated, r.solves);
  for (Eigen::Index k = 0; k < r.vertices.cols(); ++k) {
    for (Eigen::Index i = 0; i < r.vertices.rows(); ++i)
      std::fprintf(f, "%.17g ", r.vertices(i, k));
    std::fprintf(f, "\n");
  }
  for (Eigen::Index k = 0; k < r.support.size(); ++k) std::fprintf(f, "%.17g\n", r.support(k));
  std::fclose(f);
  std::filesystem::rename(path + ".tmp", path);
}

// The widths h(u) + h(-u) over the fixed directions (the first half of the support values are
// those of u, the second of -u).
VectorXd Widths(const VectorXd& h) { return h.head(kDirections) + h.tail(kDirections); }

struct Row {
  long long solves = 0, terminated = 0;
  double miss = 0, stray = 0;  // relative to the reference's diameter
  double ratio = 0;            // volume ratio (hulls) or mean width ratio
};

Row Measure(const Reduced& k,
            const Reduced& ref,
            const std::optional<setapprox::ConvexHull>& ref_hull,
            double diameter) {
  Row row{k.solves, k.terminated};
  if (k.terminated == 0) return row;
  if (ref_hull) {  // exact Hausdorff distances between the two hulls, and their volume ratio
    const setapprox::ConvexHull hull = Hull(k.vertices);
    row.miss = setapprox::DistanceToHull(hull, ref.vertices).distance.maxCoeff() / diameter;
    row.stray = setapprox::DistanceToHull(*ref_hull, k.vertices).distance.maxCoeff() / diameter;
    row.ratio = hull.dimension() == ref_hull->dimension() ? hull.volume / ref_hull->volume : 0;
    return row;
  }
  // Support-function gaps: lower bounds of the hulls' one-sided Hausdorff distances.
  row.miss = std::max(0.0, (ref.support - k.support).maxCoeff()) / diameter;
  row.stray = std::max(0.0, (k.support - ref.support).maxCoeff()) / diameter;
  row.ratio = (Widths(k.support).array() / Widths(ref.support).array()).mean();
  return row;
}

bool HullsAffordable(const systems::LoadedProblem& lp,
                     const engine::RunOptions& base,
                     int threads) {
  const sampling::SamplerResult s = sampling::RunSampler(
      lp.problem, StudyOptions(base, sampling::Design::kIid, 4096, kReferenceSeed, threads));
  const MatrixXd pts = sampling::TerminatedColumns(s.records.contact_velocity, s.records.status);
  setapprox::AffineHullOptions a;
  a.relative_tolerance = kFlatness;
  return pts.cols() > 0 && setapprox::ComputeAffineHull(pts, a).dimension <= kMaxHullDimension;
}

// One part of the reference, read from the cache or sampled and cached.
Reduced CachedRun(const systems::LoadedProblem& lp,
                  const engine::RunOptions& base,
                  const std::string& system,
                  sampling::Design design,
                  int k,
                  std::uint64_t seed,
                  bool hulls,
                  const HullStudyOptions& o) {
  const std::string path = CachePath(o.cache, system, sampling::ToString(design), k, seed);
  if (std::optional<Reduced> cached = ReadCache(path)) return *cached;
  const Reduced r = SampleReduced(lp, base, design, 1LL << k, seed, o.threads, hulls, o.directed);
  WriteCache(path, r);
  return r;
}

// The union of two runs' sets: hull vertices of both, the larger support values, counts summed.
void JoinInto(const Reduced& b, bool hulls, Reduced* a) {
  if (hulls && b.vertices.cols() > 0) a->vertices = Hull(Join(a->vertices, b.vertices)).vertices;
  a->support = a->support.cwiseMax(b.support);
  a->terminated += b.terminated;
  a->solves += b.solves;
}

// ", joined with directed runs of 2^18 and 2^19 samples" (empty without them).
std::string RefDirectedText(const HullStudyOptions& o) {
  if (o.ref_directed.empty()) return "";
  std::string t = ", joined with directed runs of ";
  for (std::size_t j = 0; j < o.ref_directed.size(); ++j) {
    t += (j == 0                           ? ""
          : j + 1 == o.ref_directed.size() ? " and "
                                           : ", ") +
         std::string("2^") + std::to_string(o.ref_directed[j]);
  }
  return t + " samples";
}

}  // namespace

void RunHullStudy(const std::string& system, const HullStudyOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const systems::LoadedProblem lp = catalog::LoadSystem(system);
  const engine::RunOptions base = engine::ScaledRunOptions(lp.problem, lp.settings);
  const bool hulls = HullsAffordable(lp, base, o.threads);
  std::optional<Reduced> ref =
      CachedRun(lp, base, system, sampling::Design::kIid, o.kref, kReferenceSeed, hulls, o);
  for (std::size_t j = 0; j < o.ref_directed.size(); ++j) {  // seeds after the iid reference's
    JoinInto(CachedRun(lp, base, system, sampling::Design::kDirected, o.ref_directed[j],
                       kReferenceSeed + 1 + j, hulls, o),
             hulls, &*ref);
  }
  std::optional<setapprox::ConvexHull> ref_hull;
  if (hulls) ref_hull = Hull(ref->vertices);
  const double diameter = Widths(ref->support).maxCoeff();
  std::printf(
      "\n### %s (h = %g, N = %d; reference: 2^%d iid samples%s, %lld terminated, %.3g LCP "
      "solves; diameter %.4g",
      system.c_str(), base.sampler.algorithm.step, base.sampler.algorithm.max_steps, o.kref,
      RefDirectedText(o).c_str(), ref->terminated, static_cast<double>(ref->solves), diameter);
  if (ref_hull) {
    std::printf("; hull: dimension %lld, %lld vertices, volume %.4g)\n\n",
                static_cast<long long>(ref_hull->dimension()),
                static_cast<long long>(ref->vertices.cols()), ref_hull->volume);
  } else {
    std::printf("; not hulled: support gaps over %d directions)\n\n", 2 * kDirections);
  }
  std::printf(
      "| design | K | LCP solves | h(ref, K) / diam | h(K, ref) / diam | %s |\n"
      "|---|---|---|---|---|---|\n",
      hulls ? "volume / ref volume" : "mean width / ref mean width");
  for (auto design :
       {sampling::Design::kIid, sampling::Design::kSobol, sampling::Design::kDirected}) {
    if (o.designs.find(sampling::ToString(design)) == std::string::npos) continue;
    const int kmax =
        design == sampling::Design::kDirected && o.directed_kmax > 0 ? o.directed_kmax : o.kmax;
    std::optional<Row> first;
    int first_k = 0;
    for (int k = o.kmin; k <= kmax; ++k) {
      const Reduced r =
          SampleReduced(lp, base, design, 1LL << k, o.seed, o.threads, hulls, o.directed);
      const Row row = Measure(r, *ref, ref_hull, diameter);
      std::printf("| %s | 2^%d | %lld | %.3e | %.1e | %.4f |\n", sampling::ToString(design), k,
                  row.solves, row.miss, row.stray, row.ratio);
      std::fflush(stdout);
      if (!first && row.miss <= kGoalHausdorff && row.ratio >= kGoalVolume) {
        first = row;
        first_k = k;
      }
    }
    if (first) {
      std::printf("| **%s: goal first met** | 2^%d | %lld | | | |\n", sampling::ToString(design),
                  first_k, first->solves);
    } else {
      std::printf("| **%s: goal not met up to 2^%d** | | | | | |\n", sampling::ToString(design),
                  kmax);
    }
    std::fflush(stdout);
  }
  std::printf("\n(%.0f s)\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace impactset::bench
