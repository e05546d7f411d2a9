#include <impactset/lcp/warm_start.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <impactset/common/error_policy.hpp>
#include <impactset/lcp/internal/dense_lu.hpp>

namespace impactset::lcp {

bool KnownBasis::Factor(const MatrixRef& M, std::span<const int> z_basic) {
  const Eigen::Index n = M.rows();
  z_basic_.assign(z_basic.begin(), z_basic.end());
  const int k = static_cast<int>(z_basic_.size());
  if (lu_.rows() < k) lu_.resize(k, k);  // grows only: a refactored basis reuses its storage
  if (static_cast<int>(perm_.size()) < k) perm_.resize(k);
  ld_ = static_cast<int>(lu_.rows());
  double* a = lu_.data();
  for (int c = 0; c < k; ++c) {
    IMPACTSET_ASSERT(z_basic_[c] >= 0 && z_basic_[c] < n &&
                     (c == 0 || z_basic_[c] > z_basic_[c - 1]));
    for (int r = 0; r < k; ++r) a[r + c * ld_] = M(z_basic_[r], z_basic_[c]);
  }
  factored_ = internal::FactorLu(a, k, ld_, perm_.data());
  return factored_;
}

// z_Z from M_ZZ z_Z = -q_Z; where its residual is above refine_above, one refinement step (as
// LemkeSolver's re-solve from a basis) and the better of the two.
Residual KnownBasis::Try(const MatrixRef& M,
                         const VectorRef& q,
                         VectorXd* z,
                         double reject,
                         double refine_above,
                         Workspace* work) const {
  IMPACTSET_ASSERT(factored_ && M.rows() == q.size());
  const Eigen::Index n = q.size();
  const int k = static_cast<int>(z_basic_.size());
  const int ld = ld_;
  if (work->x.size() < k) work->x.resize(n);
  if (work->r.size() < k) work->r.resize(n);
  double* x = work->x.data();
  double scale = 1;
  for (Eigen::Index i = 0; i < n; ++i) scale = std::max(scale, std::abs(q(i)));
  for (int i = 0; i < k; ++i) x[i] = -q(z_basic_[i]);
  internal::SolveLu(lu_.data(), k, ld, perm_.data(), x);
  for (int i = 0; i < k; ++i) {
    if (!(x[i] >= -reject * scale)) {  // also NaN
      Residual miss;
      miss.finite = false;
      return miss;
    }
  }
  z->setZero(n);
  for (int i = 0; i < k; ++i) (*z)(z_basic_[i]) = std::max(0.0, x[i]);
  const Residual plain = ComputeResidual(M, q, *z);
  if (plain.finite && plain.Worst() <= refine_above) return plain;
  double* r = work->r.data();
  for (int i = 0; i < k; ++i) {  // r = -q_Z - M_ZZ x
    double s = -q(z_basic_[i]);
    for (int c = 0; c < k; ++c) s -= M(z_basic_[i], z_basic_[c]) * x[c];
    r[i] = s;
  }
  internal::SolveLu(lu_.data(), k, ld, perm_.data(), r);
  for (int i = 0; i < k; ++i) r[i] = std::max(0.0, x[i] + r[i]);
  for (int i = 0; i < k; ++i) std::swap((*z)(z_basic_[i]), r[i]);  // r keeps the plain z_Z
  const Residual refined = ComputeResidual(M, q, *z);
  if (refined.Worst() <= plain.Worst()) return refined;
  for (int i = 0; i < k; ++i) (*z)(z_basic_[i]) = r[i];
  return plain;
}

}  // namespace impactset::lcp
