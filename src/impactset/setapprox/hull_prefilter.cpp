#include <impactset/setapprox/internal/hull_prefilter.hpp>

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include <impactset/setapprox/internal/qhull_run.hpp>

namespace impactset::setapprox::internal {

namespace {

/// Appends every vector with `nonzeros` entries in {-1, +1} at increasing positions.
void AppendSignPatterns(Index r, int nonzeros, std::vector<VectorXd>* out) {
  std::vector<Index> at(static_cast<std::size_t>(nonzeros));
  std::iota(at.begin(), at.end(), 0);
  while (true) {
    for (int signs = 0; signs < (1 << nonzeros); ++signs) {
      VectorXd u = VectorXd::Zero(r);
      for (int k = 0; k < nonzeros; ++k) u(at[k]) = (signs >> k) & 1 ? -1.0 : 1.0;
      out->push_back(std::move(u));
    }
    int k = nonzeros - 1;  // next combination of positions
    while (k >= 0 && at[k] == r - nonzeros + k) --k;
    if (k < 0) return;
    ++at[k];
    for (int j = k + 1; j < nonzeros; ++j) at[j] = at[j - 1] + 1;
  }
}

}  // namespace

MatrixXd PrefilterDirections(Index r) {
  std::vector<VectorXd> dirs;
  for (int nonzeros = 1; nonzeros <= std::min<Index>(r, r <= 6 ? 3 : 2); ++nonzeros) {
    AppendSignPatterns(r, nonzeros, &dirs);
  }
  MatrixXd out(r, static_cast<Index>(dirs.size()));
  for (std::size_t j = 0; j < dirs.size(); ++j) out.col(static_cast<Index>(j)) = dirs[j];
  return out;
}

std::vector<Index> HullCandidates(const MatrixXd& y) {
  const Index r = y.rows(), n = y.cols();
  std::vector<Index> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), 0);
  const MatrixXd dirs = PrefilterDirections(r);
  std::vector<Index> extreme;
  for (Index j = 0; j < dirs.cols(); ++j) {
    Index best = 0;
    (dirs.col(j).transpose() * y).maxCoeff(&best);  // Eigen returns the first maximiser
    extreme.push_back(best);
  }
  std::sort(extreme.begin(), extreme.end());
  extreme.erase(std::unique(extreme.begin(), extreme.end()), extreme.end());
  if (static_cast<Index>(extreme.size()) <= r || 4 * extreme.size() >= all.size()) return all;
  MatrixXd ye(r, static_cast<Index>(extreme.size()));
  for (std::size_t k = 0; k < extreme.size(); ++k)
    ye.col(static_cast<Index>(k)) = y.col(extreme[k]);
  QhullOutput inner;
  try {
    inner = RunQhull(ye);
  } catch (const std::runtime_error&) {
    return all;  // a degenerate inner polytope: hand Qhull everything
  }
  const double margin = 10 * inner.distance_roundoff + 1e-12 * y.cwiseAbs().maxCoeff();
  std::vector<Index> keep;
  std::vector<char> is_extreme(static_cast<std::size_t>(n), 0);
  for (Index e : extreme) is_extreme[static_cast<std::size_t>(e)] = 1;
  constexpr Index kBlock = 1024;  // facet values of a block of points at once (one GEMM)
  for (Index first = 0; first < n; first += kBlock) {
    const Index count = std::min(kBlock, n - first);
    const MatrixXd values =
        (inner.facet_normals.transpose() * y.middleCols(first, count)).colwise() +
        inner.facet_offsets;
    for (Index k = 0; k < count; ++k) {
      const Index j = first + k;
      if (is_extreme[static_cast<std::size_t>(j)] || values.col(k).maxCoeff() > -margin) {
        keep.push_back(j);
      }
    }
  }
  return keep;
}

}  // namespace impactset::setapprox::internal
