#include <impactset/laws/seghete_murphey_maps.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include <Eigen/QR>

#include <impactset/common/error_policy.hpp>
#include <impactset/lcp/fallback.hpp>

namespace impactset::laws {

Cometric::Cometric(const impact::ImpactProblem& problem) {
  const int m = problem.m();
  minv_jnt = problem.MinvJt().leftCols(m);
  gram = problem.Delassus().topLeftCorner(m, m);
  norms = gram.diagonal().cwiseSqrt();
  for (int i = 0; i < m; ++i) {
    if (!(norms[i] > 0)) {
      InvalidArgument("Jn row " + std::to_string(i) + " norm", norms[i],
                      "a contact normal must be non-zero");
    }
  }
  cosines = norms.cwiseInverse().asDiagonal() * gram * norms.cwiseInverse().asDiagonal();
}

VectorXd Cometric::UnitComponents(const impact::ImpactProblem& problem, const VectorRef& v) const {
  return (problem.Jn() * v).cwiseQuotient(norms);
}

double CometricNorm(const impact::ImpactProblem& problem, const VectorRef& v) {
  return std::sqrt(std::max(0.0, v.dot(problem.M() * v)));
}

namespace {

void RequireRestitution(const std::string& field, double e) {
  if (!(e >= 0 && e <= 1)) InvalidArgument(field, e, "must lie in [0, 1]");
}

void RequireSize(const std::string& field, Eigen::Index got, Eigen::Index want) {
  if (got != want) InvalidArgument(field + " size", got, "must be " + std::to_string(want));
}

}  // namespace

MatrixXd ReflectionMatrix(const MatrixRef& M, const VectorRef& u, double e) {
  RequireRestitution("e", e);
  if (M.rows() != M.cols()) InvalidArgument("M cols", M.cols(), "M must be square");
  RequireSize("u", u.size(), M.rows());
  const Eigen::LLT<MatrixXd> llt(M);
  if (llt.info() != Eigen::Success) InvalidArgument("M", "(matrix)", "must be positive definite");
  const VectorXd minv_ut = llt.solve(u);
  const double uu = u.dot(minv_ut);
  if (!(uu > 0)) InvalidArgument("u M^-1 u^T", uu, "must be > 0");
  // [S-C] eq. (9); e = 1 is [S-J] eq. (7b).
  return MatrixXd::Identity(M.rows(), M.rows()) - (1 + std::sqrt(e)) / uu * minv_ut * u.transpose();
}

VectorXd ReflectOverContact(const impact::ImpactProblem& problem,
                            const Cometric& cometric,
                            const VectorRef& v,
                            int i,
                            double e,
                            double* lambda) {
  RequireRestitution("e", e);
  RequireSize("v", v.size(), problem.n());
  if (i < 0 || i >= problem.m()) {
    InvalidArgument("contact", i, "must lie in [0, " + std::to_string(problem.m()) + ")");
  }
  // [S-J] eq. (5) with factor 1 + sqrt(e) ([S-C] §II): lambda = -(1 + sqrt e) <p, Dphi>/|Dphi|^2.
  const double l = -(1 + std::sqrt(e)) * problem.Jn().row(i).dot(v) / cometric.gram(i, i);
  if (lambda != nullptr) *lambda = l;
  return v + l * cometric.minv_jnt.col(i);
}

PlasticResult ResolvePlastic(const impact::ImpactProblem& problem,
                             const VectorRef& v,
                             PlasticMode mode,
                             lcp::Solver* solver) {
  RequireSize("v", v.size(), problem.n());
  const Cometric cometric(problem);
  const VectorXd jv = problem.Jn() * v;
  PlasticResult r;
  r.mode = mode;
  if (mode == PlasticMode::kEquality) {
    // [S-J] eqs. (10)-(11): <p+, Dphi_i> = 0 for every i; the minimum-norm lambda when the
    // normals are dependent (then p+ is still the projection onto the common tangent space).
    const Eigen::CompleteOrthogonalDecomposition<MatrixXd> cod(cometric.gram);
    r.lambda = -cod.solve(jv);
    r.v_plus = v + cometric.minv_jnt * r.lambda;
    r.residual =
        (problem.Jn() * r.v_plus).cwiseAbs().maxCoeff() / std::max(1.0, jv.cwiseAbs().maxCoeff());
    r.adhesive = (r.lambda.array() < 0).any();
  } else {
    // Frictionless impact LCP: 0 <= lambda ⊥ G lambda + Jn v >= 0 (the cone projection).
    std::unique_ptr<lcp::FallbackSolver> own;
    if (solver == nullptr) {
      own = std::make_unique<lcp::FallbackSolver>();
      solver = own.get();
    }
    VectorXd z;
    const lcp::SolveInfo info = solver->Solve(cometric.gram, jv, &z);
    r.lambda = z;
    r.v_plus = v + cometric.minv_jnt * z;
    r.iterations = info.pivots;
    r.residual = info.residual.Worst();
    r.status = info.ok() ? PlasticStatus::kSolved : PlasticStatus::kLcpFailure;
  }
  r.contact_velocity = problem.ContactJacobian() * r.v_plus;
  const double ke = problem.KineticEnergy(v);
  r.energy_ratio = ke > 0 ? problem.KineticEnergy(r.v_plus) / ke : 1.0;
  return r;
}

double BlendAlpha(double R, AlphaRule rule) {
  if (!(R >= 0 && R <= 1)) InvalidArgument("R", R, "must lie in [0, 1]");
  return rule == AlphaRule::kR ? R : std::sqrt(1 - R * R);
}

VectorXd BlendOutcome(const VectorRef& v_elastic,
                      const VectorRef& v_plastic,
                      double R,
                      AlphaRule rule) {
  RequireSize("v_plastic", v_plastic.size(), v_elastic.size());
  const double alpha = BlendAlpha(R, rule);
  return alpha * v_elastic + (1 - alpha) * v_plastic;  // [S-J] eq. (17)
}

}  // namespace impactset::laws
