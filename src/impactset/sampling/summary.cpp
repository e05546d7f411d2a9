#include <impactset/sampling/summary.hpp>

#include <algorithm>
#include <limits>

namespace impactset::sampling {

SampleSummary::SampleSummary(int contact_dims)
    : contact_velocity_min(
          VectorXd::Constant(contact_dims, std::numeric_limits<double>::infinity())),
      contact_velocity_max(
          VectorXd::Constant(contact_dims, -std::numeric_limits<double>::infinity())) {}

void SampleSummary::Add(const impact::SampleResult& r) {
  ++samples;
  lcp_solves += r.lcp_solves;
  lcp_fallbacks += r.lcp_fallbacks;
  warm_starts += r.warm_starts;
  non_unique += r.non_unique_step ? 1 : 0;
  worst_residual = std::max(worst_residual, r.worst_residual);
  if (static_cast<size_t>(r.lcp_solves) >= solves_histogram.size()) {
    solves_histogram.resize(r.lcp_solves + 1, 0);
  }
  ++solves_histogram[r.lcp_solves];
  switch (r.status) {
    case impact::SampleStatus::kTerminated:
      ++terminated;
      energy_ratio_max = std::max(energy_ratio_max, r.energy_ratio);
      contact_velocity_min = contact_velocity_min.cwiseMin(r.contact_velocity);
      contact_velocity_max = contact_velocity_max.cwiseMax(r.contact_velocity);
      break;
    case impact::SampleStatus::kStepCap:
      ++step_capped;
      break;
    case impact::SampleStatus::kLcpFailure:
      ++lcp_failures;
      break;
    case impact::SampleStatus::kNonPhysical:
      ++non_physical;
      non_physical_energy_ratio_max = std::max(non_physical_energy_ratio_max, r.energy_ratio);
      break;
  }
}

void SampleSummary::Merge(const SampleSummary& o) {
  samples += o.samples;
  terminated += o.terminated;
  step_capped += o.step_capped;
  lcp_failures += o.lcp_failures;
  non_physical += o.non_physical;
  non_physical_energy_ratio_max =
      std::max(non_physical_energy_ratio_max, o.non_physical_energy_ratio_max);
  lcp_solves += o.lcp_solves;
  lcp_fallbacks += o.lcp_fallbacks;
  warm_starts += o.warm_starts;
  non_unique += o.non_unique;
  worst_residual = std::max(worst_residual, o.worst_residual);
  energy_ratio_max = std::max(energy_ratio_max, o.energy_ratio_max);
  if (contact_velocity_min.size() == 0) {
    contact_velocity_min = o.contact_velocity_min;
    contact_velocity_max = o.contact_velocity_max;
  } else if (o.contact_velocity_min.size() != 0) {
    contact_velocity_min = contact_velocity_min.cwiseMin(o.contact_velocity_min);
    contact_velocity_max = contact_velocity_max.cwiseMax(o.contact_velocity_max);
  }
  if (o.solves_histogram.size() > solves_histogram.size()) {
    solves_histogram.resize(o.solves_histogram.size(), 0);
  }
  for (size_t i = 0; i < o.solves_histogram.size(); ++i)
    solves_histogram[i] += o.solves_histogram[i];
}

}  // namespace impactset::sampling
