#pragma once
// One call of Qhull (libqhull_r through orgQhull::QhullQh) on a point set in its own full
// dimension, with every message it writes captured. Included only by setapprox/*.cpp: Qhull stays
// out of the public headers.
#include <string>
#include <vector>

#include <impactset/setapprox/types.hpp>

namespace impactset::setapprox::internal {

/// What Qhull returned for the columns of an r x n matrix (r >= 2, n >= 1).
struct QhullOutput {
  std::vector<Index> vertex_ids;  ///< input columns that are vertices, ascending
  MatrixXd facet_normals;         ///< r x F, outward unit normals
  VectorXd facet_offsets;         ///< F: y inside iff n . y + offset <= 0
  double volume = 0;
  double distance_roundoff = 0;  ///< max(DISTround, max_outside) (+ the joggle when QJ ran)
  std::string command;           ///< the Qhull options that succeeded ("qhull", "qhull Q12", ...)
  /// Everything Qhull wrote, over every attempt (warnings of a successful run included); empty
  /// when it said nothing. Never printed: the caller stores or summarises it.
  std::string messages;
};

/// Above this many points in r >= 5, QJ goes first (see RunQhull).
inline constexpr int kJoggleFirstPoints = 1000;

/// Runs Qhull: with default options (merged facets), retrying with Q12 and then QJ on a dupridge
/// error (QH6271); but for r >= 5 and n > kJoggleFirstPoints with QJ first (joggled input,
/// simplicial facets: merging is what costs there), retrying with the default options and then
/// Q12 on any error.
/// Qhull's own output (its error reports, warnings, traces) goes to a memory stream and into
/// QhullOutput::messages, never to the terminal.
/// @throws std::runtime_error carrying the captured messages when every attempt failed.
QhullOutput RunQhull(const MatrixXd& y);

}  // namespace impactset::setapprox::internal
