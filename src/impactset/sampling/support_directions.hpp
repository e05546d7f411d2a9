#pragma once
// The fixed direction sets of support functions: the same for every run of a dimension, so
// support values of different runs, shards and states compare direction by direction. Used by
// the sets' support polytopes (sets/set_outputs.hpp), the batch features and the directed design.
#include <cstdint>

#include <impactset/common/eigen_types.hpp>

namespace impactset::sampling {

/// Seed of the random support directions: fixed, so every run uses the same directions.
inline constexpr std::uint64_t kSupportDirectionSeed = 0x5eed5afe;

/// The support directions in dimension d (d x (2 d + extra), unit columns): first the axes
/// +e_1, -e_1, ..., +e_d, -e_d (so h gives the bounding box), then `extra` directions g / |g|,
/// g with iid standard normal entries (Box-Muller on UniformStream(kSupportDirectionSeed, j) for
/// direction j). Depends on (d, extra) only.
/// @throws std::invalid_argument for d < 0 or extra < 0.
MatrixXd SupportDirections(int dimension, int extra);

}  // namespace impactset::sampling
