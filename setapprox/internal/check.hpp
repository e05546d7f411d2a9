#pragma once
// setapprox's copy of the project's three-tier error policy (lcp/error_policy.hpp; setapprox
// stands alone and includes none of the other modules):
//  1. bad user input            -> std::invalid_argument "<field> = <value>: <rule>";
//  2. broken internal invariant -> IMPACTSET_SETAPPROX_ASSERT, armed in Debug builds and in tests;
//  3. library failure (Qhull)   -> std::runtime_error carrying the library's message;
//     numerical non-convergence -> a status in the result struct, never an exception.
// Included only by setapprox/*.cpp.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include "setapprox/types.hpp"

namespace impactset::setapprox::internal {

/// Builds "<field> = <value>: <rule>" and throws std::invalid_argument with it.
template <typename Value>
[[noreturn]] void InvalidArgument(const std::string& field,
                                  const Value& value,
                                  const std::string& rule) {
  std::ostringstream os;
  os << field << " = " << value << ": " << rule;
  throw std::invalid_argument(os.str());
}

[[noreturn]] inline void AssertFailed(const char* cond, const char* file, int line) {
  std::fprintf(stderr, "impactset::setapprox internal invariant violated: %s at %s:%d\n", cond,
               file, line);
  std::abort();
}

/// "3x7", for messages about matrix shapes.
inline std::string Shape(Index rows, Index cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

/// @throws std::invalid_argument naming the first non-finite entry of points as name(i,j).
inline void RequireFinite(const PointsRef& points, const char* name) {
  if (points.allFinite()) return;
  for (Index j = 0; j < points.cols(); ++j) {
    for (Index i = 0; i < points.rows(); ++i) {
      if (!std::isfinite(points(i, j))) {
        InvalidArgument(std::string(name) + "(" + std::to_string(i) + "," + std::to_string(j) + ")",
                        points(i, j), "every coordinate must be finite");
      }
    }
  }
}

}  // namespace impactset::setapprox::internal

#if !defined(NDEBUG) || defined(IMPACTSET_ENABLE_ASSERTS)
#define IMPACTSET_SETAPPROX_ASSERT(cond) \
  ((cond) ? static_cast<void>(0)         \
          : ::impactset::setapprox::internal::AssertFailed(#cond, __FILE__, __LINE__))
#else
#define IMPACTSET_SETAPPROX_ASSERT(cond) static_cast<void>(0)
#endif
