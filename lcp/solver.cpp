#include "lcp/solver.hpp"

namespace impactset::lcp {

std::string_view ToString(Status s) {
  switch (s) {
    case Status::kSolved:
      return "solved";
    case Status::kRayTermination:
      return "ray_termination";
    case Status::kMaxPivots:
      return "max_pivots";
    case Status::kResidualTooLarge:
      return "residual_too_large";
    case Status::kNoSolution:
      return "no_solution";
    case Status::kTooLarge:
      return "too_large";
  }
  return "unknown";
}

std::string_view ToString(SolverId s) {
  switch (s) {
    case SolverId::kNone:
      return "none";
    case SolverId::kNative:
      return "native";
    case SolverId::kNativeAlt:
      return "native_alt";
    case SolverId::kSiconos:
      return "siconos";
    case SolverId::kEnumeration:
      return "enumeration";
    case SolverId::kChain:
      return "chain";
  }
  return "unknown";
}

}  // namespace impactset::lcp
