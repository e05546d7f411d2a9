#pragma once
// Candidate vertices of a convex hull (Akl-Toussaint): the points extreme in some direction of a
// fixed set, and every point not strictly inside the hull of those. Included only by
// setapprox/*.cpp.
#include <vector>

#include <impactset/setapprox/types.hpp>

namespace impactset::setapprox::internal {

/// The fixed prefilter directions in dimension r (r x J): every vector with entries in
/// {-1, 0, +1} and one or two non-zero entries, and for r <= 6 also three (unnormalised: only
/// argmax matters). J = 2 r^2 (+ 4 r (r - 1)(r - 2) / 3 for r <= 6), e.g. 232 for r = 6.
MatrixXd PrefilterDirections(Index r);

/// The columns of y (r x n, full-dimensional, r >= 2) that may be vertices of conv(y), ascending:
/// E = {argmax_j u . y_j : u a prefilter direction} (first index on ties), and every column whose
/// largest facet value for conv(E) (computed by Qhull) exceeds -margin, margin = 10 x Qhull's
/// roundoff bound for conv(E) + 1e-12 x max |y|. A dropped column lies inside conv(E) by more
/// than Qhull's roundoff, so conv(candidates) = conv(y) up to that roundoff. Returns every column
/// (no filtering) when E is too small or Qhull fails on it.
std::vector<Index> HullCandidates(const MatrixXd& y);

}  // namespace impactset::setapprox::internal
