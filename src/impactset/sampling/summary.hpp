#pragma once
// Bounded-memory statistics of a stream of Algorithm-1 samples: what `impactset run` reports.
#include <vector>

#include <impactset/impact/algorithm1.hpp>

namespace impactset::sampling {

/// Accumulates counters, extremes and a solves histogram; memory does not grow with the
/// number of samples. Merge() joins partial summaries (threads, shards) exactly: every field is
/// a count, a sum of integers or a min/max, so the result does not depend on the merge order.
class SampleSummary {
 public:
  SampleSummary() = default;
  /// Sizes the contact-velocity extremes for a problem with `contact_dims` contact coordinates.
  explicit SampleSummary(int contact_dims);
  void Add(const impact::SampleResult& r);
  void Merge(const SampleSummary& other);

  long long samples = 0;
  long long terminated = 0;
  long long step_capped = 0;
  long long lcp_failures = 0;
  long long non_physical = 0;                ///< stopped colliding but failed the end-state check
  double non_physical_energy_ratio_max = 0;  ///< KE+/KE- over non-physical samples
  long long lcp_solves = 0;                  ///< over all samples (Table 3 divides by all samples)
  long long lcp_fallbacks = 0;               ///< solves answered by a later link of the chain
  /// Of lcp_solves, those a warm start answered without a path (a speed counter: not stored in
  /// files, which hold results).
  long long warm_starts = 0;
  long long non_unique = 0;       ///< samples with a step detected as non-unique (kRandom)
  double worst_residual = 0;      ///< over every solve of every sample
  double energy_ratio_max = 0;    ///< KE+/KE- over terminated samples
  VectorXd contact_velocity_min;  ///< over terminated samples, ContactJacobian() order
  VectorXd contact_velocity_max;
  std::vector<long long> solves_histogram;  ///< [s] = samples that used s solves

  double MeanSolves() const { return samples ? static_cast<double>(lcp_solves) / samples : 0.0; }
};

}  // namespace impactset::sampling
