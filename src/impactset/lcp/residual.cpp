#include <impactset/lcp/residual.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include <impactset/common/error_policy.hpp>
#include <impactset/common/internal/simd.hpp>

namespace impactset::lcp {

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

// The residual from z and w = M z + q, with s = max(1, ||q||_inf) and zmax = ||z||_inf.
// x * 0 is 0 for finite x and NaN otherwise: one sum checks every entry of z and w.
IMPACTSET_ALWAYS_INLINE Residual
ResidualOf(const double* z, const double* w, Eigen::Index n, double s, double zmax) {
  const Parts p = PartsOf(z, w, n);
  Residual r;
  r.finite = p.nonfinite == 0.0;
  r.natural = p.nat / s;
  r.z_negativity = p.zneg / s;
  r.w_negativity = p.wneg / s;
  r.complementarity = p.comp / (s * std::max(1.0, zmax));
  return r;
}

// w = M z + q accumulated in long double (64-bit significand on x86-64) and rounded once; z_j is
// z_at(j), in long double.
template <class ZAt>
void SumInLongDouble(const MatrixRef& M, const VectorRef& q, const ZAt& z_at, double* w) {
  const Eigen::Index n = q.size();
  for (Eigen::Index i = 0; i < n; ++i) {
    long double acc = q(i);
    for (Eigen::Index j = 0; j < n; ++j) acc += static_cast<long double>(M(i, j)) * z_at(j);
    w[i] = static_cast<double>(acc);
  }
}

// The residual with w summed in long double; w is the caller's workspace. Rarely run: kept out
// of the check's hot path.
[[gnu::noinline, gnu::cold]] Residual ResidualInLongDouble(
    const MatrixRef& M, const VectorRef& q, const VectorRef& z, double* w, double s, double zmax) {
  SumInLongDouble(
      M, q, [&](Eigen::Index j) { return static_cast<long double>(z(j)); }, w);
  return ResidualOf(z.data(), w, q.size(), s, zmax);
}

}  // namespace

namespace {

// The residual with w = M z + q summed in double; with kConfirm, one above the tolerance is
// summed again in long double.
template <bool kConfirm>
IMPACTSET_ALWAYS_INLINE Residual Check(const MatrixRef& M, const VectorRef& q, const VectorRef& z) {
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
  const Eigen::Index n4 = n - n % 4;
  // w's first n4 entries written four at a time: the column loop reads them four at a time, and
  // a vector load of scalar stores stalls (store forwarding).
  for (Eigen::Index i = 0; i < n4; i += 4) Store4(w + i, Load4(qd + i));
  for (Eigen::Index i = n4; i < n; ++i) w[i] = qd[i];
  for (Eigen::Index i = 0; i < n; ++i) qmax = std::max(qmax, std::abs(qd[i]));
  for (Eigen::Index j = 0; j < n; ++j) {
    const double zj = zd[j];
    zmax = std::max(zmax, std::abs(zj));
    if (zj == 0.0) continue;
    const double* __restrict col = M.col(j).data();
    for (Eigen::Index i = 0; i < n4; i += 4) Store4(w + i, Load4(w + i) + Load4(col + i) * zj);
    for (Eigen::Index i = n4; i < n; ++i) w[i] += col[i] * zj;  // element-wise: rounds as scalar
  }
  const double s = std::max(1.0, qmax);
  const Residual r = ResidualOf(zd, w, n, s, zmax);
  if (!kConfirm || !r.finite || IsSolution(r, kAcceptTolerance)) return r;
  // Above the tolerance in double: confirmed (or not) by a sum 2048 times closer, so that an
  // answer is refused for its own residual and not for the roundoff of evaluating it.
  return ResidualInLongDouble(M, q, z, w, s, zmax);
}

}  // namespace

IMPACTSET_SIMD_CLONES Residual ComputeResidual(const MatrixRef& M,
                                               const VectorRef& q,
                                               const VectorRef& z) {
  return Check<true>(M, q, z);
}

IMPACTSET_SIMD_CLONES Residual ComputeResidualInDouble(const MatrixRef& M,
                                                       const VectorRef& q,
                                                       const VectorRef& z) {
  return Check<false>(M, q, z);
}

Residual ComputeResidual(const MatrixRef& M,
                         const VectorRef& q,
                         const VectorRef& z,
                         const VectorRef& low_part) {
  IMPACTSET_ASSERT(M.rows() == q.size() && M.cols() == z.size() && q.size() == z.size() &&
                   low_part.size() == z.size());
  const Eigen::Index n = q.size();
  std::vector<long double> both(n);
  std::vector<double> rounded(n), w(n);
  double qmax = 0, zmax = 0;
  for (Eigen::Index j = 0; j < n; ++j) {
    both[j] = static_cast<long double>(z(j)) + low_part(j);
    rounded[j] = static_cast<double>(both[j]);
    zmax = std::max(zmax, std::abs(rounded[j]));
  }
  for (Eigen::Index i = 0; i < n; ++i) qmax = std::max(qmax, std::abs(q(i)));
  SumInLongDouble(
      M, q, [&](Eigen::Index j) { return both[j]; }, w.data());
  return ResidualOf(rounded.data(), w.data(), n, std::max(1.0, qmax), zmax);
}

}  // namespace impactset::lcp
