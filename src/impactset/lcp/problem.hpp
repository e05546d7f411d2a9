#pragma once
// The linear complementarity problem LCP(M, q): find z >= 0 with w = M z + q >= 0 and z'w = 0.
// (The convention of PATH's pathlcp(M, q) and of the authors' code, docs/examples.md §1.1.)
#include <impactset/common/eigen_types.hpp>

namespace impactset::lcp {

/// An LCP stored by value. Use ValidateProblem before handing one to a solver you do not trust.
struct Problem {
  MatrixXd M;  ///< n x n, any sign pattern (our impact LCPs are copositive, not PSD).
  VectorXd q;  ///< n
  Eigen::Index size() const { return q.size(); }
};

/// Checks n > 0, M square, q of matching size, every entry finite.
/// @throws std::invalid_argument naming the offending quantity ("M", "q") with sizes or the index
///         of the first non-finite entry.
void ValidateProblem(const MatrixRef& M, const VectorRef& q);

}  // namespace impactset::lcp
