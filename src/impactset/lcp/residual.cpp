#include <impactset/lcp/residual.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <impactset/common/error_policy.hpp>
#include <impactset/common/internal/simd.hpp>

namespace impactset::lcp {

double Residual::Worst() const {
  if (!finite) return std::numeric_limits<double>::infinity();
  return std::max({natural, z_negativity, w_negativity, complementarity});
}

namespace {

using simd::Abs4;
using simd::Double4;
using simd::Load4;
using simd::Store4;

// The four maxima of the residual and the sum of x * 0 that is NaN exactly when some z_i or w_i
// is not finite.
struct Parts {
  double nat = 0, zneg = 0, wneg = 0, comp = 0, nonfinite = 0;
};

// Parts of (z, w) over n rows, four at a time and then the scalar tail. Maxima are exact in any
// order and x * 0 sums are 0 or NaN in any order: the scalar formulas' values, bit for bit.
IMPACTSET_ALWAYS_INLINE Parts PartsOf(const double* z, const double* w, Eigen::Index n) {
  const Eigen::Index n4 = n - n % 4;
  const Double4 zero4 = {0, 0, 0, 0};
  Double4 nat4 = zero4, zneg4 = zero4, wneg4 = zero4, comp4 = zero4, bad4 = zero4;
  auto raise = [](Double4* m, const Double4& x) { *m = x > *m ? x : *m; };
  for (Eigen::Index i = 0; i < n4; i += 4) {
    const Double4 wi = Load4(w + i), zi = Load4(z + i);
    bad4 += wi * 0.0 + zi * 0.0;
    raise(&nat4, Abs4(wi < zi ? wi : zi));
    raise(&zneg4, -zi);
    raise(&wneg4, -wi);
    raise(&comp4, Abs4(zi * wi));
  }
  Parts p;
  p.nonfinite = (bad4[0] + bad4[1]) + (bad4[2] + bad4[3]);
  for (int l = 0; l < 4; ++l) {
    p.nat = std::max(p.nat, nat4[l]);
    p.zneg = std::max(p.zneg, zneg4[l]);
    p.wneg = std::max(p.wneg, wneg4[l]);
    p.comp = std::max(p.comp, comp4[l]);
  }
  for (Eigen::Index i = n4; i < n; ++i) {
    const double wi = w[i], zi = z[i];
    p.nonfinite += wi * 0.0 + zi * 0.0;
    p.nat = std::max(p.nat, std::abs(std::min(zi, wi)));
    p.zneg = std::max(p.zneg, -zi);
    p.wneg = std::max(p.wneg, -wi);
    p.comp = std::max(p.comp, std::abs(zi * wi));
  }
  return p;
}

}  // namespace

IMPACTSET_SIMD_CLONES Residual ComputeResidual(const MatrixRef& M,
                                               const VectorRef& q,
                                               const VectorRef& z) {
  IMPACTSET_ASSERT(M.rows() == q.size() && M.cols() == z.size() && q.size() == z.size());
  const Eigen::Index n = q.size();
  // w = M z + q by columns, skipping z_j = 0 (pivoting solutions are half zeros); small problems
  // use a stack buffer so that the check allocates nothing.
  constexpr Eigen::Index kStack = 64;
  double stack_buf[kStack];
  std::vector<double> heap_buf;
  double* w = stack_buf;
  if (n > kStack) {
    heap_buf.resize(n);
    w = heap_buf.data();
  }
  double qmax = 0, zmax = 0;
  const double* __restrict qd = q.data();
  const double* __restrict zd = z.data();
  for (Eigen::Index i = 0; i < n; ++i) {
    w[i] = qd[i];
    qmax = std::max(qmax, std::abs(qd[i]));
  }
  const Eigen::Index n4 = n - n % 4;
  for (Eigen::Index j = 0; j < n; ++j) {
    const double zj = zd[j];
    zmax = std::max(zmax, std::abs(zj));
    if (zj == 0.0) continue;
    const double* __restrict col = M.col(j).data();
    for (Eigen::Index i = 0; i < n4; i += 4) Store4(w + i, Load4(w + i) + Load4(col + i) * zj);
    for (Eigen::Index i = n4; i < n; ++i) w[i] += col[i] * zj;  // element-wise: rounds as scalar
  }
  // x * 0 is 0 for finite x and NaN otherwise: one sum checks every entry of z and w.
  const Parts p = PartsOf(zd, w, n);
  Residual r;
  r.finite = p.nonfinite == 0.0;
  const double s = std::max(1.0, qmax);
  r.natural = p.nat / s;
  r.z_negativity = p.zneg / s;
  r.w_negativity = p.wneg / s;
  r.complementarity = p.comp / (s * std::max(1.0, zmax));
  return r;
}

bool IsSolution(const Residual& r, double tol) { return r.finite && r.Worst() <= tol; }

}  // namespace impactset::lcp
