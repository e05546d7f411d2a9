#pragma once
// The perturbed covering vector shared by the double-precision Lemke (LemkeOptions::
// covering_perturbation) and the extended link's paths (ExtendedLemkeOptions::
// covering_perturbations), so that a perturbation c names the same vector in both. Included only
// by lcp/*.cpp.
#include <cmath>

namespace impactset::lcp::internal {

/// Entry i of the covering vector d_i = 1 + c frac(i * 0.618...) (the golden ratio's fractional
/// part): c = 0 is the classical d = 1; c > 0 gives a different, still positive, path through
/// the same problem.
inline double PerturbedCovering(long long i, double c) {
  const double g = static_cast<double>(i) * 0.6180339887498949;
  return 1.0 + c * (g - std::floor(g));
}

}  // namespace impactset::lcp::internal
