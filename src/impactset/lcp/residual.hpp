#pragma once
// The one public LCP residual. Every solver's acceptance test, every fallback decision and every
// test in the project goes through ComputeResidual / IsSolution, so "solved" means the same
// thing everywhere (docs/model.md §4.5).
#include <algorithm>
#include <limits>

#include <impactset/common/eigen_types.hpp>

namespace impactset::lcp {

/// Default acceptance tolerance on Residual::Worst(). Our pivoting solvers finish with a basis
/// re-solve and land near 1e-15 on O(1) data; 1e-9 leaves six orders for ill-conditioned bases
/// while staying three orders tighter than the authors' PATH acceptance (1e-6,
/// docs/examples.md §1.5).
inline constexpr double kAcceptTolerance = 1e-9;

/// Residual of a candidate z for LCP(M, q), w = M z + q. All parts are scaled to be
/// dimensionless: s = max(1, ||q||_inf) and, for the product, s * max(1, ||z||_inf).
struct Residual {
  double natural = 0;          ///< ||min(z, w)||_inf / s: the natural-map residual (0 iff solved).
  double z_negativity = 0;     ///< max(0, -min_i z_i) / s.
  double w_negativity = 0;     ///< max(0, -min_i w_i) / s.
  double complementarity = 0;  ///< max_i |z_i w_i| / (s * max(1, ||z||_inf)).
  bool finite = true;          ///< false if z or w holds NaN/Inf (then Worst() is +inf).
  /// The largest of the four parts; +inf when not finite.
  double Worst() const {
    if (!finite) return std::numeric_limits<double>::infinity();
    return std::max(std::max(natural, z_negativity), std::max(w_negativity, complementarity));
  }
};

/// Computes the residual without allocating. w = M z + q is summed in double; when that puts the
/// residual above kAcceptTolerance, w is summed again in long double (2048 times closer) and
/// that residual is returned, so that an answer is refused for its own residual and not for the
/// roundoff of evaluating M z: where impulses ~1e8 times q cancel (ill-conditioned problems), a
/// double sum is off by up to ~1e-8 of q. An answer the double sum puts within the tolerance
/// costs one pass, as it always did, and is taken on that value. @pre sizes agree (asserted).
Residual ComputeResidual(const MatrixRef& M, const VectorRef& q, const VectorRef& z);

/// The same from the double sum alone: a residual above kAcceptTolerance may be the roundoff of
/// the sum. For callers that have another way to an answer when this one is refused (a warm
/// start's known basis falls back to Lemke's path), so that their misses, which are far above the
/// tolerance, cost one pass. @pre sizes agree (asserted).
Residual ComputeResidualInDouble(const MatrixRef& M, const VectorRef& q, const VectorRef& z);

/// The residual of an answer carried in two parts, z + low_part (each double; together about 106
/// bits, SolveInfo::low_part): w = M (z + low_part) + q is summed in long double, and the parts
/// of the residual are taken at w and at z + low_part rounded to double. Allocates; for the rare
/// answer no double vector meets the tolerance with. @pre sizes agree (asserted).
Residual ComputeResidual(const MatrixRef& M,
                         const VectorRef& q,
                         const VectorRef& z,
                         const VectorRef& low_part);

/// True when every part of the residual is at most tol.
inline bool IsSolution(const Residual& r, double tol = kAcceptTolerance) {
  return r.finite && r.Worst() <= tol;
}

}  // namespace impactset::lcp
