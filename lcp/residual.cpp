#include "lcp/residual.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "lcp/error_policy.hpp"

namespace impactset::lcp {

double Residual::Worst() const {
  if (!finite) return std::numeric_limits<double>::infinity();
  return std::max({natural, z_negativity, w_negativity, complementarity});
}

Residual ComputeResidual(const MatrixRef& M, const VectorRef& q, const VectorRef& z) {
  IMPACTSET_ASSERT(M.rows() == q.size() && M.cols() == z.size() && q.size() == z.size());
  const double s = std::max(1.0, q.size() ? q.cwiseAbs().maxCoeff() : 0.0);
  const double zmax = z.size() ? z.cwiseAbs().maxCoeff() : 0.0;
  Residual r;
  double nat = 0, zneg = 0, wneg = 0, comp = 0;
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    const double w = M.row(i).dot(z) + q(i);
    if (!std::isfinite(w) || !std::isfinite(z(i))) r.finite = false;
    nat = std::max(nat, std::abs(std::min(z(i), w)));
    zneg = std::max(zneg, -z(i));
    wneg = std::max(wneg, -w);
    comp = std::max(comp, std::abs(z(i) * w));
  }
  r.natural = nat / s;
  r.z_negativity = zneg / s;
  r.w_negativity = wneg / s;
  r.complementarity = comp / (s * std::max(1.0, zmax));
  return r;
}

bool IsSolution(const Residual& r, double tol) { return r.finite && r.Worst() <= tol; }

}  // namespace impactset::lcp
