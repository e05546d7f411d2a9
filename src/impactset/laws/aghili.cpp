#include <impactset/laws/aghili.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <string>

#include <impactset/common/error_policy.hpp>

namespace impactset::laws {

namespace {

// A law that holds in exact arithmetic and misses by more than this (relative) is reported:
// the closed forms are one SPD solve away from the data, ~1e-13 on O(1) data; 1e-8 leaves room
// for cond(M_c) up to ~1e5 before a result is called ill-conditioned.
constexpr double kLawTolerance = 1e-8;

std::string Shape(const MatrixRef& a) {
  return std::to_string(a.rows()) + "x" + std::to_string(a.cols());
}

void RequireFinite(const std::string& name, const MatrixRef& a) {
  for (Eigen::Index j = 0; j < a.cols(); ++j) {
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      if (!std::isfinite(a(i, j))) {
        InvalidArgument(name + "(" + std::to_string(i) + "," + std::to_string(j) + ")", a(i, j),
                        "every entry must be finite");
      }
    }
  }
}

double InfNorm(const VectorXd& v) { return v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff(); }

MatrixXd Symmetrized(const MatrixXd& a) { return 0.5 * (a + a.transpose()); }

VectorXd AscendingEigenvalues(const MatrixXd& a) {
  if (a.rows() == 0) return VectorXd(0);
  Eigen::SelfAdjointEigenSolver<MatrixXd> es(Symmetrized(a), Eigen::EigenvaluesOnly);
  return es.eigenvalues();
}

}  // namespace

void AghiliOptions::Validate() const {
  if (!(rank_tolerance >= 0 && rank_tolerance < 1)) {
    InvalidArgument("rank_tolerance", rank_tolerance, "must be in [0, 1)");
  }
  if (!(nu >= 0) || !std::isfinite(nu)) InvalidArgument("nu", nu, "must be finite and >= 0");
  if (!(impulse_tolerance > 0)) {
    InvalidArgument("impulse_tolerance", impulse_tolerance, "must be > 0");
  }
  if (!(energy_tolerance > 0)) InvalidArgument("energy_tolerance", energy_tolerance, "must be > 0");
}

AghiliProjection BuildAghiliProjection(const MatrixRef& M,
                                       const MatrixRef& A,
                                       const AghiliOptions& options) {
  options.Validate();
  const Eigen::Index n = M.rows();
  if (n == 0 || M.cols() != n) InvalidArgument("M", Shape(M), "must be square with n >= 1");
  if (A.cols() != n)
    InvalidArgument("A", Shape(A), "must have n = " + std::to_string(n) + " columns");
  RequireFinite("M", M);
  RequireFinite("A", A);
  if ((M - M.transpose()).cwiseAbs().maxCoeff() > 1e-10 * M.cwiseAbs().maxCoeff()) {
    InvalidArgument("M",
                    "max |M - M^T| = " + std::to_string((M - M.transpose()).cwiseAbs().maxCoeff()),
                    "must be symmetric");
  }
  if (Eigen::LLT<MatrixXd>(Symmetrized(M)).info() != Eigen::Success) {
    InvalidArgument("M", "Cholesky failed", "must be positive definite");
  }
  const Eigen::Index m = A.rows();
  AghiliProjection p;
  p.n = static_cast<int>(n);
  const MatrixXd I = MatrixXd::Identity(n, n);

  // One SVD decides the rank for P, Z and A^+; never decide it from W, whose singular values are
  // the squares of A's (half the usable precision).
  int r = 0;
  MatrixXd V = I, U = MatrixXd::Identity(m, m);
  VectorXd sigma = VectorXd::Zero(std::min(m, n));
  if (m > 0) {
    Eigen::JacobiSVD<MatrixXd> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
    V = svd.matrixV();
    U = svd.matrixU();
    sigma = svd.singularValues();
    p.sigma_max = sigma.size() > 0 ? sigma(0) : 0.0;
    const double threshold = options.rank_tolerance * std::max(1.0, p.sigma_max);
    for (Eigen::Index i = 0; i < sigma.size(); ++i) {
      if (sigma(i) > threshold && sigma(i) > 0) {
        ++r;
      }
    }
    if (r > 0) p.sigma_min_kept = sigma(r - 1);
    if (r < sigma.size()) p.sigma_max_dropped = sigma(r);
  }
  p.rank = r;
  p.Z = V.rightCols(n - r);
  p.U1 = U.leftCols(r);
  p.A_pinv = MatrixXd::Zero(n, m);
  for (int i = 0; i < r; ++i) p.A_pinv += V.col(i) * (U.col(i).transpose() / sigma(i));
  p.P = p.Z * p.Z.transpose();

  // nu (9f): the mean nonzero eigenvalue of PMP lies in [lambda_min^{!=0}, lambda_max].
  if (r < n) {
    const MatrixXd Mz = Symmetrized(p.Z.transpose() * M * p.Z);
    const VectorXd ev = AscendingEigenvalues(Mz);
    p.nu_min = ev(0);
    p.nu_max = ev(ev.size() - 1);
    p.nu = options.nu > 0 ? options.nu : Mz.trace() / static_cast<double>(n - r);
  } else {
    p.nu = options.nu > 0 ? options.nu : M.trace() / static_cast<double>(n);
  }
  if (r == 0) {
    p.cond_Mc = p.nu_max / p.nu_min;  // M_c = M, nu irrelevant
  } else if (r == n) {
    p.cond_Mc = 1;  // M_c = nu I
  } else {
    p.cond_Mc = std::max(p.nu, p.nu_max) / std::min(p.nu, p.nu_min);  // (61)
  }

  p.Mc = Symmetrized(p.P * M * p.P + p.nu * (I - p.P));  // (8)
  Eigen::LLT<MatrixXd> llt(p.Mc);
  IMPACTSET_ASSERT(llt.info() == Eigen::Success);  // (9a): SPD whenever M is
  p.S = I - llt.solve(p.P * M);                    // (10)
  p.Mo_pinv = Symmetrized(llt.solve(p.P));         // (9c)
  return p;
}

namespace {

MatrixXd RestitutionMatrix(const AghiliRestitution& r, Eigen::Index m, int bilateral_rows) {
  if (r.matrix.size() > 0) {
    if (r.matrix.rows() != m || r.matrix.cols() != m) {
      InvalidArgument("restitution.matrix", Shape(r.matrix),
                      "must be m x m with m = " + std::to_string(m));
    }
    RequireFinite("restitution.matrix", r.matrix);
    for (int b = 0; b < bilateral_rows; ++b) {
      if (r.matrix.row(b).cwiseAbs().maxCoeff() > 0 || r.matrix.col(b).cwiseAbs().maxCoeff() > 0) {
        InvalidArgument("restitution.matrix row/column " + std::to_string(b), "nonzero",
                        "bilateral rows and columns must be 0 (43)");
      }
    }
    return r.matrix;
  }
  if (r.per_contact.size() > 0) {
    if (r.per_contact.size() != m) {
      InvalidArgument("restitution.per_contact.size()", r.per_contact.size(),
                      "must equal m = " + std::to_string(m));
    }
    for (Eigen::Index i = 0; i < m; ++i) {
      const double e = r.per_contact(i);
      const std::string field = "restitution.per_contact(" + std::to_string(i) + ")";
      if (!(e >= 0 && e <= 1)) InvalidArgument(field, e, "must be in [0, 1]");
      if (i < bilateral_rows && e != 0) InvalidArgument(field, e, "must be 0 on a bilateral row");
    }
    return r.per_contact.asDiagonal();
  }
  return MatrixXd();  // global e
}

}  // namespace

AghiliResult AghiliImpact(const MatrixRef& M,
                          const MatrixRef& A,
                          const VectorRef& v_minus,
                          const AghiliRestitution& restitution,
                          const VectorRef& external_impulse,
                          int bilateral_rows,
                          const AghiliOptions& options) {
  const AghiliProjection pr = BuildAghiliProjection(M, A, options);
  const Eigen::Index n = M.rows(), m = A.rows();
  if (v_minus.size() != n) InvalidArgument("v_minus.size()", v_minus.size(), "must equal n");
  RequireFinite("v_minus", v_minus);
  if (external_impulse.size() != 0 && external_impulse.size() != n) {
    InvalidArgument("external_impulse.size()", external_impulse.size(), "must be 0 or n");
  }
  RequireFinite("external_impulse", external_impulse);
  if (bilateral_rows < 0 || bilateral_rows > m) {
    InvalidArgument("bilateral_rows", bilateral_rows, "must be in [0, m]");
  }
  const bool global = restitution.matrix.size() == 0 && restitution.per_contact.size() == 0;
  if (global && !(restitution.e >= 0 && restitution.e <= 1)) {
    InvalidArgument("restitution.e", restitution.e, "must be in [0, 1]");
  }
  const MatrixXd E = RestitutionMatrix(restitution, m, bilateral_rows);
  const VectorXd iu = external_impulse.size() == 0 ? VectorXd::Zero(n) : VectorXd(external_impulse);
  const VectorXd v = v_minus;

  AghiliResult out;
  if (global) {
    const double e = restitution.e;
    out.v_plus = v - (1 + e) * (pr.S * v) + pr.Mo_pinv * iu;  // (27)
    out.generalized_impulse =
        -(1 + e) * (pr.S.transpose() * (M * v)) - pr.S.transpose() * iu;  // (30)
  } else {
    const MatrixXd Etil = pr.A_pinv * E * A;      // (44)
    const VectorXd w = v + Etil * v;              // (I + Etil) v-
    out.v_plus = v - pr.S * w + pr.Mo_pinv * iu;  // (48)/(49)
    out.generalized_impulse = -(pr.S.transpose() * (M * w)) - pr.S.transpose() * iu;  // (50)
  }
  out.impulse = pr.A_pinv.transpose() * out.generalized_impulse;
  out.contact_velocity = A * out.v_plus;
  out.projected_inertia = Symmetrized(pr.S.transpose() * M * pr.S);

  out.energy_before = 0.5 * v.dot(M * v);
  out.energy_after = 0.5 * out.v_plus.dot(M * out.v_plus);
  out.energy_change = out.energy_after - out.energy_before;
  out.energy_ratio = out.energy_before > 0 ? out.energy_after / out.energy_before : 1.0;
  out.energy_gain =
      out.energy_change > options.energy_tolerance * std::max(out.energy_before, 1e-300);

  const double iscale = std::max(1.0, InfNorm(out.impulse));
  for (Eigen::Index i = bilateral_rows; i < m; ++i) {
    if (out.impulse(i) < -options.impulse_tolerance * iscale) out.adhesive.push_back(int(i));
  }

  // Restitution: the projected law (46) always holds; the requested one only if E A v- is in R(A).
  const VectorXd phidot = A * v;
  const VectorXd target = global ? VectorXd(-restitution.e * phidot) : VectorXd(-(E * phidot));
  const VectorXd projected = A * (pr.A_pinv * target);
  const double vscale = std::max(1.0, InfNorm(phidot));
  out.residual = InfNorm(out.contact_velocity - projected) / vscale;
  out.target_residual = InfNorm(out.contact_velocity - target) / vscale;
  if (!out.v_plus.allFinite() || !out.impulse.allFinite() || out.residual > kLawTolerance) {
    out.status = AghiliStatus::kIllConditioned;
  } else if (out.target_residual > kLawTolerance) {
    out.status = AghiliStatus::kProjectedLaw;
  }
  out.rank = pr.rank;
  out.sigma_min_kept = pr.sigma_min_kept;
  out.sigma_max_dropped = pr.sigma_max_dropped;
  out.nu = pr.nu;
  out.cond_Mc = pr.cond_Mc;
  return out;
}

AghiliResult AghiliImpact(const impact::ImpactProblem& problem,
                          const AghiliRestitution& restitution,
                          const AghiliOptions& options) {
  const VectorXd phidot = problem.Jn() * problem.v_minus();
  const double tol = 1e-12 * std::max(1.0, InfNorm(phidot));
  MatrixXd A = problem.Jn();
  for (int i = 0; i < problem.m(); ++i) {
    if (phidot(i) > tol) A.row(i).setZero();  // separating: neither Gamma nor Gamma* (15), (17)
  }
  return AghiliImpact(problem.M(), A, problem.v_minus(), restitution, VectorXd(0), 0, options);
}

std::vector<bool> ImpactActivation(const VectorRef& phi, const VectorRef& phidot, double tol) {
  if (phi.size() != phidot.size()) {
    InvalidArgument("phidot.size()", phidot.size(), "must equal phi.size()");
  }
  if (!(tol >= 0)) InvalidArgument("tol", tol, "must be >= 0");
  std::vector<bool> active(phi.size());
  for (Eigen::Index i = 0; i < phi.size(); ++i) active[i] = phi(i) <= tol && phidot(i) < -tol;
  return active;
}

AghiliAccelerationResult AghiliAcceleration(const MatrixRef& M,
                                            const VectorRef& h,
                                            const VectorRef& u,
                                            const MatrixRef& A,
                                            const VectorRef& Adot_qd,
                                            const AghiliOptions& options) {
  const AghiliProjection pr = BuildAghiliProjection(M, A, options);
  const Eigen::Index n = M.rows();
  if (h.size() != n) InvalidArgument("h.size()", h.size(), "must equal n");
  if (u.size() != n) InvalidArgument("u.size()", u.size(), "must equal n");
  if (Adot_qd.size() != A.rows()) InvalidArgument("Adot_qd.size()", Adot_qd.size(), "must equal m");
  RequireFinite("h", h);
  RequireFinite("u", u);
  RequireFinite("Adot_qd", Adot_qd);
  // Omega qd for admissible qd (6): corrected -A^+ Adot qd; printed +A^+ Adot qd (docs/aghili.md).
  const double sign = options.omega_sign == OmegaSign::kCorrected ? -1.0 : 1.0;
  const VectorXd a_perp = sign * (pr.A_pinv * Adot_qd);
  AghiliAccelerationResult out;
  out.qdd = pr.Mo_pinv * (u - h) + pr.S * a_perp;                            // (12)
  out.force = pr.S.transpose() * (h - u) + pr.S.transpose() * (M * a_perp);  // (14)
  out.lambda = pr.A_pinv.transpose() * out.force;
  const VectorXd hu = h - u;
  const double c1 = InfNorm(A * out.qdd + Adot_qd) / std::max(1.0, InfNorm(Adot_qd));
  const double c2 = InfNorm(M * out.qdd + hu - out.force) / std::max(1.0, InfNorm(hu));
  out.residual = std::max(c1, c2);
  out.rank = pr.rank;
  if (!out.qdd.allFinite() || out.residual > kLawTolerance) {
    out.status = AghiliStatus::kIllConditioned;
  }
  return out;
}

AghiliActiveSetResult AghiliActiveSetAcceleration(const MatrixRef& M,
                                                  const VectorRef& h,
                                                  const VectorRef& u,
                                                  const MatrixRef& A,
                                                  const VectorRef& Adot_qd,
                                                  std::vector<bool> active,
                                                  int bilateral_rows,
                                                  const AghiliOptions& options) {
  const Eigen::Index m = A.rows();
  if (static_cast<Eigen::Index>(active.size()) != m) {
    InvalidArgument("active.size()", active.size(), "must equal m = " + std::to_string(m));
  }
  if (bilateral_rows < 0 || bilateral_rows > m) {
    InvalidArgument("bilateral_rows", bilateral_rows, "must be in [0, m]");
  }
  for (int b = 0; b < bilateral_rows; ++b) active[b] = true;
  AghiliActiveSetResult out;
  for (;;) {
    MatrixXd Aa = A;
    VectorXd ad = Adot_qd;
    for (Eigen::Index i = 0; i < m; ++i) {
      if (!active[i]) {
        Aa.row(i).setZero();  // Gamma_ii = 0 (2): a zero row, not a removed one
        ad(i) = 0;
      }
    }
    out.acceleration = AghiliAcceleration(M, h, u, Aa, ad, options);
    const VectorXd& lambda = out.acceleration.lambda;
    const double scale = std::max(1.0, InfNorm(lambda));
    Eigen::Index worst = -1;
    for (Eigen::Index i = bilateral_rows; i < m; ++i) {
      if (active[i] && lambda(i) < -options.impulse_tolerance * scale &&
          (worst < 0 || lambda(i) < lambda(worst))) {
        worst = i;
      }
    }
    if (worst < 0) break;
    active[worst] = false;  // rule (3): lambda_u_i < 0 deactivates
    ++out.iterations;
  }
  out.active = active;
  return out;
}

RestitutionConsistency CheckRestitutionConsistency(const MatrixRef& M,
                                                   const MatrixRef& A,
                                                   const MatrixRef& E,
                                                   const AghiliOptions& options) {
  const AghiliProjection pr = BuildAghiliProjection(M, A, options);
  const Eigen::Index n = M.rows(), m = A.rows();
  if (E.rows() != m || E.cols() != m) {
    InvalidArgument("E", Shape(E), "must be m x m with m = " + std::to_string(m));
  }
  RequireFinite("E", E);
  RestitutionConsistency c;
  const MatrixXd G = pr.S * pr.A_pinv;  // (54)
  c.Q = Symmetrized(G.transpose() * M * G);
  const MatrixXd D = Symmetrized(c.Q - E.transpose() * c.Q * E);  // (55); E^T = E if diagonal
  c.full_eigenvalues = AscendingEigenvalues(D);
  c.range_eigenvalues = AscendingEigenvalues(pr.U1.transpose() * D * pr.U1);
  MatrixXd L(m + n, m + n);  // (56)
  L << c.Q, E.transpose() * G.transpose(), G * E,
      Eigen::LLT<MatrixXd>(M).solve(MatrixXd::Identity(n, n));
  c.lmi_eigenvalues = AscendingEigenvalues(L);
  const double tol = options.energy_tolerance * std::max(1.0, c.Q.cwiseAbs().maxCoeff());
  auto ok = [tol](const VectorXd& ev) { return ev.size() == 0 || ev(0) >= -tol; };
  c.full_consistent = ok(c.full_eigenvalues);
  c.range_consistent = ok(c.range_eigenvalues);
  c.lmi_consistent = ok(c.lmi_eigenvalues);
  return c;
}

bool TwoContactConsistent(double e1, double e2, double rho) {
  // Slack for the boundary cases e1 = e2 with rho^2 = 1, which hold with equality.
  constexpr double kSlack = 1e-12;
  return (1 - e1 * e1) * (1 - e2 * e2) >= rho * rho * (1 - e1 * e2) * (1 - e1 * e2) - kSlack;
}

}  // namespace impactset::laws
