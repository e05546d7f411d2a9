#include <impactset/impact/impact_lcps.hpp>

#include <impactset/common/error_policy.hpp>
#include <impactset/lcp/fallback.hpp>

namespace impactset::impact {

LcpLayout AnitescuPotraLayout(const ImpactProblem& p) { return {p.m(), p.k(), false}; }
LcpLayout RouthStepLayout(const ImpactProblem& p) { return {p.m(), p.k(), true}; }

namespace {
// Fills the Anitescu-Potra block of a matrix whose AP unknowns start at offset o.
void FillAnitescuPotra(const ImpactProblem& p, const LcpLayout& L, MatrixXd* W) {
  const int m = p.m(), k = p.k(), na = L.impulses(), o = L.lambda_n();
  W->block(o, o, na, na) = p.Delassus();
  if (k == 0) return;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < k; ++j) {
      (*W)(L.lambda_d() + i * k + j, L.gamma() + i) = 1.0;   // E: slip speed gamma_i bounds D v
      (*W)(L.gamma() + i, L.lambda_d() + i * k + j) = -1.0;  // -E^T
    }
    (*W)(L.gamma() + i, L.lambda_n() + i) = p.mu()(i);  // U = diag(mu): the cone
  }
}
}  // namespace

MatrixXd AnitescuPotraMatrix(const ImpactProblem& p) {
  const LcpLayout L = AnitescuPotraLayout(p);
  MatrixXd W = MatrixXd::Zero(L.size(), L.size());
  FillAnitescuPotra(p, L, &W);
  return W;
}

VectorXd AnitescuPotraVector(const ImpactProblem& p, const VectorRef& v) {
  const LcpLayout L = AnitescuPotraLayout(p);
  VectorXd w = VectorXd::Zero(L.size());
  w.head(L.impulses()) = p.J() * v;
  return w;
}

MatrixXd RouthStepMatrix(const ImpactProblem& p) {
  const LcpLayout L = RouthStepLayout(p);
  MatrixXd W = MatrixXd::Zero(L.size(), L.size());
  const int m = p.m();
  // Row block 1: lambda_max - lambda_n >= 0 (eq. 73); row block 2 gains +s (eq. 74).
  W.block(0, L.lambda_n(), m, m) = -MatrixXd::Identity(m, m);
  W.block(L.lambda_n(), 0, m, m) = MatrixXd::Identity(m, m);
  FillAnitescuPotra(p, L, &W);
  return W;
}

void RouthStepVector(const ImpactProblem& p,
                     const VectorRef& v,
                     const VectorRef& lambda_max,
                     VectorXd* w) {
  const LcpLayout L = RouthStepLayout(p);
  IMPACTSET_ASSERT(lambda_max.size() == p.m() && v.size() == p.n());
  w->resize(L.size());
  w->head(p.m()) = lambda_max;
  w->segment(L.lambda_n(), L.impulses()).noalias() = p.J() * v;
  w->tail(L.size() - L.gamma()).setZero();
}

std::optional<VectorXd> SolveAnitescuPotraAtVMinus(const ImpactProblem& p) {
  VectorXd z;
  lcp::FallbackSolver solver;
  const lcp::SolveInfo info =
      solver.Solve(AnitescuPotraMatrix(p), AnitescuPotraVector(p, p.v_minus()), &z);
  if (info.status != lcp::Status::kSolved || !z.allFinite()) return std::nullopt;
  return z;
}

}  // namespace impactset::impact
