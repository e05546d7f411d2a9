#include <impactset/impact/jam.hpp>

#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include <impactset/lcp/fallback.hpp>

namespace impactset::impact {

JamReport DetectJam(const ImpactProblem& p) {
  JamReport r;
  r.balance = std::numeric_limits<double>::infinity();
  const int m = p.m(), n = p.n();
  if (m <= n) {  // n + 1 normals at least positively span R^n
    r.rank = static_cast<int>(Eigen::ColPivHouseholderQR<MatrixXd>(p.Jn()).rank());
    return r;
  }
  Eigen::ColPivHouseholderQR<MatrixXd> qr(p.Jn());
  r.rank = static_cast<int>(qr.rank());
  if (r.rank < n) return r;
  // y = 1 + x, x >= 0, minimising 0.5 y^T A y (A = Jn M^-1 Jn^T): LCP(A, A 1). Its answer
  // exists (the QP is convex and bounded below) and Lemke reaches it on this PSD matrix.
  const MatrixXd A = p.Delassus().topLeftCorner(m, m);
  const VectorXd q = A * VectorXd::Ones(m);
  lcp::FallbackSolver chain;
  VectorXd x;
  if (!chain.Solve(A, q, &x).ok()) return r;
  const VectorXd y = VectorXd::Ones(m) + x;
  const double scale = y.norm() * std::sqrt(A.operatorNorm());
  r.balance = scale > 0 ? std::sqrt(std::max(0.0, y.dot(A * y))) / scale : 0.0;
  r.jammed = r.balance <= kJamTolerance;
  return r;
}

}  // namespace impactset::impact
