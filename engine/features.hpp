#pragma once
// Fixed-size learning features of a sampled post-impact set (`impactset batch`): the same shapes
// for every state, so (state -> features) pairs stack into arrays.
#include <cstdint>
#include <vector>

#include "common/eigen_types.hpp"
#include "impact/algorithm1.hpp"

namespace impactset::engine {

/// Seed of the random support directions: fixed, so every batch uses the same directions.
inline constexpr std::uint64_t kSupportDirectionSeed = 0x5eed5afe;

/// The support directions in dimension d (d x (2 d + extra), unit columns): first the axes
/// +e_1, -e_1, ..., +e_d, -e_d (so h gives the bounding box), then `extra` directions g / |g|,
/// g with iid standard normal entries (Box-Muller on sampling::UniformStream(
/// kSupportDirectionSeed, j) for direction j). Depends on (d, extra) only.
/// @throws std::invalid_argument for d < 0 or extra < 0.
MatrixXd SupportDirections(int dimension, int extra);

/// The features of the terminated samples among `points` (d x K, one column per sample).
struct Features {
  long long count = 0;  ///< terminated samples
  VectorXd box_min;     ///< d: componentwise min (NaN when count = 0)
  VectorXd box_max;     ///< d: componentwise max
  VectorXd mean;        ///< d: summed in sample order
  VectorXd support;     ///< J: h(d_j) = max over samples of d_j . y
  /// d x keep: the first `keep` terminated samples in sample order (an iid subsample under the
  /// iid design, since sample order is independent of the values); NaN columns past count.
  MatrixXd subsample;
};

/// @throws std::invalid_argument if sizes disagree or keep < 0.
Features ComputeFeatures(const MatrixXd& points,
                         const std::vector<impact::SampleStatus>& status,
                         const MatrixXd& directions,
                         long long keep);

}  // namespace impactset::engine
