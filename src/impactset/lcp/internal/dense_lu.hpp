#pragma once
// The small dense LU both Lemke solvers use to re-solve z from a final basis (and the extended
// one to refactorise B^-1): one body for double, long double and quad precision, so that they round
// alike.

#include <cmath>
#include <utility>

namespace impactset::lcp::internal {

/// Doolittle LU with row pivoting of the leading k x k block of a (column-major, leading
/// dimension lda), in place; perm[j] is the row swapped with row j. False on an exact zero pivot.
template <class Real>
bool FactorLu(Real* a, int k, int lda, int* perm) {
  using std::abs;  // and a multiprecision Real's, by argument lookup
  for (int j = 0; j < k; ++j) {
    int p = j;
    for (int r = j + 1; r < k; ++r) {
      if (abs(a[r + j * lda]) > abs(a[p + j * lda])) p = r;
    }
    perm[j] = p;
    if (a[p + j * lda] == 0) return false;
    if (p != j) {
      for (int c = 0; c < k; ++c) std::swap(a[j + c * lda], a[p + c * lda]);
    }
    const Real inv = Real{1} / a[j + j * lda];
    for (int r = j + 1; r < k; ++r) a[r + j * lda] *= inv;
    for (int c = j + 1; c < k; ++c) {
      const Real ajc = a[j + c * lda];
      if (ajc == 0) continue;
      for (int r = j + 1; r < k; ++r) a[r + c * lda] -= a[r + j * lda] * ajc;
    }
  }
  return true;
}

/// Solves (LU) y = x in place with FactorLu's output. Zero entries of the forward solve are
/// skipped (a column of the identity, as B^-1 = B \ I solves, starts with a run of them): the
/// same result, up to the sign of zeros, for a third of the work there.
template <class Real>
void SolveLu(const Real* a, int k, int lda, const int* perm, Real* x) {
  for (int j = 0; j < k; ++j) std::swap(x[j], x[perm[j]]);
  for (int j = 0; j < k; ++j) {
    if (x[j] == 0) continue;
    for (int r = j + 1; r < k; ++r) x[r] -= a[r + j * lda] * x[j];
  }
  for (int j = k - 1; j >= 0; --j) {
    x[j] /= a[j + j * lda];
    for (int r = 0; r < j; ++r) x[r] -= a[r + j * lda] * x[j];
  }
}

}  // namespace impactset::lcp::internal
