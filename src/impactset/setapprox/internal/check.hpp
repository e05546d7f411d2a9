#pragma once
// setapprox's helpers on top of the project's three-tier error policy (common/error_policy.hpp):
//  1. bad user input            -> std::invalid_argument "<field> = <value>: <rule>";
//  2. broken internal invariant -> IMPACTSET_ASSERT, armed in Debug builds and in tests;
//  3. library failure (Qhull)   -> std::runtime_error carrying the library's message;
//     numerical non-convergence -> a status in the result struct, never an exception.
// Included only by setapprox/*.cpp.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include <impactset/common/error_policy.hpp>
#include <impactset/setapprox/types.hpp>

namespace impactset::setapprox::internal {

using ::impactset::InvalidArgument;

/// "3x7", for messages about matrix shapes.
inline std::string Shape(Index rows, Index cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

/// @throws std::invalid_argument "points = RxC: must have <whose> dimension d rows" unless points
/// has d rows (whose: "the net's", "the directions'", ...).
inline void RequireRows(const PointsRef& points, Index d, const std::string& whose) {
  if (points.rows() != d) {
    InvalidArgument("points", Shape(points.rows(), points.cols()),
                    "must have " + whose + " dimension " + std::to_string(d) + " rows");
  }
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
