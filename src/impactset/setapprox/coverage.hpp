#pragma once
// How many samples make an ε-net (docs/model.md §6.4; docs/coverage.md has the formulas and
// proofs):
//  (a) Lemma 1 of Halm & Posa: a bound that needs the Lipschitz constant L of the sample map;
//  (b) an empirical hold-out bound that needs no L: Clopper-Pearson on fresh samples.
#include <cstdint>
#include <string>

#include <impactset/setapprox/epsilon_net.hpp>
#include <impactset/setapprox/types.hpp>

namespace impactset::setapprox {

/// The setting of Lemma 1: f : [0,1]^d -> R^n is L-Lipschitz (Euclidean norms), the samples are
/// iid uniform on [0,1]^d and the net is {f(s_1), ..., f(s_K)}.
struct Lemma1Setting {
  double lipschitz = 1;  ///< L, > 0 and finite
  int dimension = 1;     ///< d of the cube (d = m N for the p-sequences of Algorithm 1), >= 1
  double epsilon = 0.1;  ///< ε, > 0 and finite

  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

/// P[{f(s_k)} is an ε-net of f([0,1]^d)] >= 1 - G (1 - 1/G)^K with G = m^d sub-cubes,
/// m = ceil(L sqrt(d) / ε). Computed in log space: G may be far beyond double range.
struct Lemma1Bound {
  double cells_per_axis = 0;  ///< m (an integer stored as double; m ε >= L sqrt(d) verified)
  double log_cells = 0;       ///< log G = d log m (natural log)
  double cells = 0;           ///< G = exp(log G); +inf when it overflows a double
  double samples = 0;         ///< K (an integer, possibly > 2^63, stored as double)
  /// log(G (1 - 1/G)^K) = log G + K log1p(-1/G) (with 1/G = exp(-log G); when exp(-log G)
  /// underflows the bound is >= 1 and this is log G).
  double log_failure_bound = 0;
  double failure_bound = 0;        ///< min(1, G (1 - 1/G)^K): bound on P[not an ε-net]
  double success_lower_bound = 0;  ///< 1 - failure_bound: P[ε-net] is at least this
  std::string assumptions;         ///< the hypotheses, in words
};

/// The Lemma 1 bound for K samples (K >= 0, an integer value; may exceed 2^63).
/// @throws std::invalid_argument on a bad setting or K.
Lemma1Bound ComputeLemma1Bound(const Lemma1Setting& setting, double samples);

/// The smallest K with G (1 - 1/G)^K <= delta, i.e. K = ceil((log G - log delta) /
/// (-log1p(-1/G))) corrected by +-1 against ComputeLemma1Bound; the bound at that K is returned.
/// K exceeds 2^53 for large G and is then exact only to double precision (the returned
/// failure_bound is still evaluated at the returned K). delta in (0, 1).
/// @throws std::invalid_argument on a bad setting or delta.
Lemma1Bound PlanLemma1Samples(const Lemma1Setting& setting, double delta);

/// Clopper-Pearson upper confidence bound on the probability mass a net misses, from hold-out
/// samples drawn after the net was fixed.
struct HoldoutBound {
  std::int64_t holdout = 0;    ///< K', the fresh samples
  std::int64_t missed = 0;     ///< x, those farther than ε from the net
  double delta = 0;            ///< confidence is 1 - delta
  double missed_fraction = 0;  ///< x / K'
  /// U = the (1 - delta)-quantile of Beta(x + 1, K' - x) for x < K' and 1 for x = K'
  /// (for x = 0, U = 1 - delta^(1/K')). P[missed mass <= U] >= 1 - delta.
  double missed_mass_upper = 0;
  std::string assumptions;  ///< the hypotheses, in words
};

/// @param[in] holdout  K' >= 1.  @param[in] missed  0 <= x <= K'.  @param[in] delta in (0, 1).
/// @throws std::invalid_argument on values outside those ranges.
HoldoutBound ComputeHoldoutBound(std::int64_t holdout, std::int64_t missed, double delta);

/// The smallest K' such that a hold-out with no miss gives U <= target_missed_mass:
/// K' = ceil(log delta / log1p(-target)), checked against ComputeHoldoutBound; returns the bound
/// at (K', 0). target_missed_mass and delta in (0, 1).
/// @throws std::invalid_argument on values outside those ranges or a K' beyond 2^62.
HoldoutBound PlanHoldoutSize(double target_missed_mass, double delta);

/// Counts the columns of holdout (d x K') farther than net.epsilon() from net and returns
/// ComputeHoldoutBound(K', x, delta). The hold-out must be drawn after the net was built and
/// independently of it (not among the points offered to it).
/// @throws std::invalid_argument on an empty hold-out, mismatched rows or delta outside (0, 1).
HoldoutBound EvaluateHoldout(const EpsilonNet& net, const PointsRef& holdout, double delta);

}  // namespace impactset::setapprox
