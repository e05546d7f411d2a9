#include <impactset/lcp/solver.hpp>

namespace impactset::lcp {}  // namespace impactset::lcp
