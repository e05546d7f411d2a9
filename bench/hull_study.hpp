#pragma once
// The hull convergence study of docs/convergence.md (`convergence --hull`): for iid, Sobol and the
// directed design, how close the convex hull of K samples comes to the hull of a large iid
// reference, against the LCP solves the K samples cost.
#include <cstdint>
#include <string>
#include <vector>

#include <impactset/sampling/directed_design.hpp>

namespace impactset::bench {

struct HullStudyOptions {
  int kmin = 8, kmax = 20;  ///< K = 2^kmin ... 2^kmax samples for iid and Sobol
  int directed_kmax = 0;    ///< the directed design's largest K (0 = kmax)
  int kref = 22;            ///< the reference: 2^kref iid samples, seed kReferenceSeed
  /// Directed runs of 2^K samples joined to the reference, each with its own seed (none of them
  /// the study's): an iid reference misses the rare extremes a directed run finds.
  std::vector<int> ref_directed;
  int threads = 0;
  /// Seed of the study's runs (not the reference's): several seeds show a design's spread.
  std::uint64_t seed = 7;
  /// Where reference hull vertices are kept (`convergence` passes the build tree's).
  std::string cache = "convergence-cache";
  std::string designs = "iid,sobol,directed";  ///< which designs, comma-separated
  sampling::DirectedOptions directed;          ///< the directed design's settings
};

/// Prints the system's table (Markdown) and the first K at which each design reaches the goal
/// (hull Hausdorff <= 1 % of the reference's diameter and >= 99 % of its volume).
void RunHullStudy(const std::string& system, const HullStudyOptions& options);

}  // namespace impactset::bench
