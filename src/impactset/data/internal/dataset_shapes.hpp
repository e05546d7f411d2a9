#pragma once
// The shape rules of a run dataset (docs/dataset-format.md), checked after reading.
#include <impactset/data/dataset.hpp>

namespace impactset::data::internal {

/// @throws std::invalid_argument "/object: rule" for the first array whose shape disagrees with
///         the problem's n, contact count and coordinate dimension, or with the sample count.
void CheckShapes(const Dataset& d);

}  // namespace impactset::data::internal
