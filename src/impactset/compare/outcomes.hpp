#pragma once
// Every compared law's post-impact velocities as one table (compare/compare.hpp runs them).
#include <string>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/compare/compare.hpp>

namespace impactset::compare {

/// One post-impact velocity of one law under one setting.
struct Outcome {
  Law law = Law::kAnitescuPotra;
  /// The law's setting: "e=0.5" (Aghili), "order 1 0" (sequential), a run's or setting's
  /// label (compliant, Seghete-Murphey, Jia-Mason-Erdmann), "" for Anitescu-Potra.
  std::string setting;
  /// The law's status name for this outcome ("solved", "terminated", "feasible", ...).
  std::string status;
  /// The law reached its outcome: the LCP solved, the sequence, simulation or integration
  /// terminated, the projection solved (Aghili with an energy gain or adhesive contact counts).
  bool converged = false;
  VectorXd v_plus;            ///< n
  VectorXd contact_velocity;  ///< problem.ContactJacobian() v_plus: normal, then tangential
  double energy_ratio = 1;    ///< KE(v_plus) / KE(v-), 1 when KE(v-) = 0
};

/// Every law's outcomes in Law order (the Routh set has none: its summary is in result.routh).
std::vector<Outcome> Outcomes(const impact::ImpactProblem& problem, const CompareResult& result);

}  // namespace impactset::compare
