#include <impactset/lcp/warm_start.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <impactset/common/error_policy.hpp>
#include <impactset/common/internal/simd.hpp>
#include <impactset/lcp/internal/dense_lu.hpp>

namespace impactset::lcp {

namespace {

// x = A b over ld rows (A column-major k x k, padded to ld rows, a multiple of 4: no scalar
// tail). Columns in order, element-wise: every copy rounds alike.
IMPACTSET_SIMD_CLONES void Apply(const double* a, int k, int ld, const double* b, double* x) {
  const simd::Double4 zero = {0, 0, 0, 0};
  for (int i = 0; i < ld; i += 4) simd::Store4(x + i, zero);
  for (int j = 0; j < k; ++j) {
    const double bj = b[j];
    if (bj == 0.0) continue;
    const double* col = a + j * ld;
    for (int i = 0; i < ld; i += 4)
      simd::Store4(x + i, simd::Load4(x + i) + simd::Load4(col + i) * bj);
  }
}

}  // namespace

// M_ZZ^-1 from its LU (partial pivoting), one column of the identity at a time: once per basis,
// so that each try is one matrix-vector product instead of two dependent triangular solves.
bool KnownBasis::Factor(const MatrixRef& M, std::span<const int> z_basic) {
  const Eigen::Index n = M.rows();
  z_basic_.assign(z_basic.begin(), z_basic.end());
  const int k = static_cast<int>(z_basic_.size());
  std::vector<double> lu(static_cast<size_t>(k) * k);
  std::vector<int> perm(static_cast<size_t>(k));
  for (int c = 0; c < k; ++c) {
    IMPACTSET_ASSERT(z_basic_[c] >= 0 && z_basic_[c] < n &&
                     (c == 0 || z_basic_[c] > z_basic_[c - 1]));
    for (int r = 0; r < k; ++r) lu[r + c * k] = M(z_basic_[r], z_basic_[c]);
  }
  factored_ = internal::FactorLu(lu.data(), k, k, perm.data());
  if (!factored_) return false;
  ld_ = (k + 3) / 4 * 4;
  inverse_.assign(static_cast<size_t>(ld_) * k, 0.0);
  for (int c = 0; c < k; ++c) {
    double* col = inverse_.data() + c * ld_;
    col[c] = 1;
    internal::SolveLu(lu.data(), k, k, perm.data(), col);
  }
  return true;
}

// z_Z = M_ZZ^-1 (-q_Z); where its residual is above refine_above, one refinement step (as
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
  for (VectorXd* v : {&work->x, &work->r, &work->b}) {
    if (v->size() < ld_) v->resize(std::max<Eigen::Index>(ld_, n));
  }
  double *x = work->x.data(), *r = work->r.data(), *b = work->b.data();
  double scale = 1;
  for (Eigen::Index i = 0; i < n; ++i) scale = std::max(scale, std::abs(q(i)));
  for (int i = 0; i < k; ++i) b[i] = -q(z_basic_[i]);
  Apply(inverse_.data(), k, ld_, b, x);
  for (int i = 0; i < k; ++i) {
    if (!(x[i] >= -reject * scale)) {  // also NaN
      Residual miss;
      miss.finite = false;
      return miss;
    }
  }
  z->setZero(n);
  for (int i = 0; i < k; ++i) (*z)(z_basic_[i]) = std::max(0.0, x[i]);
  const Residual plain = ComputeResidualInDouble(M, q, *z);
  if (plain.finite && plain.Worst() <= refine_above) return plain;
  for (int i = 0; i < k; ++i) {  // b = -q_Z - M_ZZ x
    double s = -q(z_basic_[i]);
    for (int c = 0; c < k; ++c) s -= M(z_basic_[i], z_basic_[c]) * x[c];
    b[i] = s;
  }
  Apply(inverse_.data(), k, ld_, b, r);
  for (int i = 0; i < k; ++i) r[i] = std::max(0.0, x[i] + r[i]);
  for (int i = 0; i < k; ++i) std::swap((*z)(z_basic_[i]), r[i]);  // r keeps the plain z_Z
  const Residual refined = ComputeResidualInDouble(M, q, *z);
  if (refined.Worst() <= plain.Worst()) return refined;
  for (int i = 0; i < k; ++i) (*z)(z_basic_[i]) = r[i];
  return plain;
}

}  // namespace impactset::lcp
