#pragma once
// Steps of Lemke's method shared by the one-at-a-time solver (LemkeSolver) and the lockstep one
// (BatchedLemkeSolver), so that both follow the same path with the same arithmetic.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include <Eigen/Core>

namespace impactset::lcp::internal {

/// Among the `count` tied rows tied[0..count) (in increasing order), the lexicographically
/// smallest row of B^-1 / den, the columns of B^-1 taken in lex_order. column_of(k) gives column
/// k of B^-1 (entry i at [i * stride]) or nullptr while it is still e_k: such a column's keys are
/// 0 except 1 / den_k > 0 at row k, so it only removes row k (if tied), with no division. den's
/// entry i is at [i * stride]. Rows of B^-1 are independent: more than one row is left only
/// through roundoff, and then the first wins.
template <class ColumnOf>
int LexicographicTieBreak(int count,
                          int* tied,
                          Eigen::Index n,
                          const int* lex_order,
                          const ColumnOf& column_of,
                          const double* den,
                          std::ptrdiff_t stride,
                          double tol) {
  for (Eigen::Index kk = 0; kk < n && count > 1; ++kk) {
    const int k = lex_order[kk];
    const double* col = column_of(k);
    if (col == nullptr) {
      for (int j = 0; j < count; ++j) {
        if (tied[j] == k) {
          std::copy(tied + j + 1, tied + count, tied + j);
          --count;
          break;
        }
      }
      continue;
    }
    auto key = [&](int row) { return col[row * stride] / den[row * stride]; };
    double kbest = std::numeric_limits<double>::infinity();
    for (int j = 0; j < count; ++j) kbest = std::min(kbest, key(tied[j]));
    int kept = 0;
    for (int j = 0; j < count; ++j) {
      const double kj = key(tied[j]);
      if (kj - kbest <= tol * std::max(std::abs(kj), std::abs(kbest))) tied[kept++] = tied[j];
    }
    count = kept;
  }
  return tied[0];
}

}  // namespace impactset::lcp::internal
