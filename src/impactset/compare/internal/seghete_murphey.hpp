#pragma once
// The Seghete-Murphey settings of `impactset compare` (compare/compare.hpp): elastic and plastic
// propagation, the simultaneous plastic law with both projections, and the energetic blend.
#include <impactset/compare/compare.hpp>

namespace impactset::compare::internal {

SegheteMurpheyComparison RunSegheteMurphey(const impact::ImpactProblem& problem,
                                           const CompareOptions& o);

}  // namespace impactset::compare::internal
