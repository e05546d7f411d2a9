#pragma once
// Ruiz equilibration by powers of two, shared by the links that solve a scaled copy of the LCP.
// Scaling by powers of two is exact, so LCP(R M C, R q) has exactly the solutions y = C^-1 z of
// LCP(M, q).

#include <algorithm>
#include <cmath>

namespace impactset::lcp::internal {

/// Ruiz sweeps of the later links' equilibrated passes (one count for both, so that they solve
/// the same scaled LCP).
inline constexpr int kRuizSweeps = 8;

// The power of two nearest 1 / sqrt(x) (1 for x = 0).
template <class Real>
Real PowerOfTwoInverseSqrt(Real x) {
  if (!(x > 0)) return 1;
  return std::ldexp(Real{1}, static_cast<int>(std::lround(Real{-0.5} * std::log2(x))));
}

/// Scales the n x n column-major m in place: rows, then columns, divided by the power of two
/// nearest the square root of their largest |entry|, `sweeps` times; row[i] and col[j] (each of
/// size n) receive the accumulated factors, m becoming diag(row) m diag(col).
template <class Real>
void EquilibrateByPowersOfTwo(Real* m, int n, int sweeps, Real* row, Real* col) {
  std::fill(row, row + n, Real{1});
  std::fill(col, col + n, Real{1});
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    for (int i = 0; i < n; ++i) {
      Real mx = 0;
      for (int j = 0; j < n; ++j) mx = std::max(mx, std::abs(m[i + j * n]));
      const Real f = PowerOfTwoInverseSqrt(mx);
      row[i] *= f;
      for (int j = 0; j < n; ++j) m[i + j * n] *= f;
    }
    for (int j = 0; j < n; ++j) {
      Real mx = 0;
      for (int i = 0; i < n; ++i) mx = std::max(mx, std::abs(m[i + j * n]));
      const Real f = PowerOfTwoInverseSqrt(mx);
      col[j] *= f;
      for (int i = 0; i < n; ++i) m[i + j * n] *= f;
    }
  }
}

}  // namespace impactset::lcp::internal
