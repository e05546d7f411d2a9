#include "lcp/residual.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common/error_policy.hpp"

namespace impactset::lcp {

double Residual::Worst() const {
  if (!finite) return std::numeric_limits<double>::infinity();
  return std::max({natural, z_negativity, w_negativity, complementarity});
}

Residual ComputeResidual(const MatrixRef& M, const VectorRef& q, const VectorRef& z) {
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
  for (Eigen::Index j = 0; j < n; ++j) {
    const double zj = zd[j];
    zmax = std::max(zmax, std::abs(zj));
    if (zj == 0.0) continue;
    const double* __restrict col = M.col(j).data();
    for (Eigen::Index i = 0; i < n; ++i) w[i] += col[i] * zj;
  }
  Residual r;
  // x * 0 is 0 for finite x and NaN otherwise: one sum checks every entry of z and w.
  double nat = 0, zneg = 0, wneg = 0, comp = 0, nonfinite = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double wi = w[i], zi = zd[i];
    nonfinite += wi * 0.0 + zi * 0.0;
    nat = std::max(nat, std::abs(std::min(zi, wi)));
    zneg = std::max(zneg, -zi);
    wneg = std::max(wneg, -wi);
    comp = std::max(comp, std::abs(zi * wi));
  }
  r.finite = nonfinite == 0.0;
  const double s = std::max(1.0, qmax);
  r.natural = nat / s;
  r.z_negativity = zneg / s;
  r.w_negativity = wneg / s;
  r.complementarity = comp / (s * std::max(1.0, zmax));
  return r;
}

bool IsSolution(const Residual& r, double tol) { return r.finite && r.Worst() <= tol; }

}  // namespace impactset::lcp
