#include <impactset/impact/impact_problem.hpp>

#include <cmath>
#include <string>

#include <impactset/common/error_policy.hpp>

namespace impactset::impact {

namespace {

std::string Shape(const MatrixXd& a) {
  return std::to_string(a.rows()) + "x" + std::to_string(a.cols());
}

void RequireFinite(const std::string& name, const MatrixXd& a) {
  for (Eigen::Index j = 0; j < a.cols(); ++j) {
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      if (!std::isfinite(a(i, j))) {
        InvalidArgument(name + "(" + std::to_string(i) + "," + std::to_string(j) + ")", a(i, j),
                        "every entry must be finite");
      }
    }
  }
}

void RequireFinite(const std::string& name, const VectorXd& v) {
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v(i))) {
      InvalidArgument(name + "(" + std::to_string(i) + ")", v(i), "every entry must be finite");
    }
  }
}

// Symmetry is judged relative to M's largest entry: exported mass matrices carry roundoff.
constexpr double kSymmetryTolerance = 1e-10;
// Negation closure of D rows, relative to the row's size: D comes from the same kinematics code,
// so a pair that is meant to be (+d, -d) agrees to roundoff.
constexpr double kNegationTolerance = 1e-10;

}  // namespace

ImpactProblem::ImpactProblem(
    MatrixXd M, MatrixXd Jn, MatrixXd D, VectorXd mu, VectorXd v_minus, int k)
    : M_(std::move(M)),
      Jn_(std::move(Jn)),
      D_(std::move(D)),
      mu_(std::move(mu)),
      v_minus_(std::move(v_minus)),
      k_(k) {
  const Eigen::Index n = M_.rows();
  if (n == 0 || M_.cols() != n) InvalidArgument("M", Shape(M_), "must be square with n >= 1");
  const Eigen::Index m = Jn_.rows();
  if (m > 0 && Jn_.cols() != n && Jn_.cols() == v_minus_.size()) {
    // Jn and v_minus agree on n: M is the one of another size.
    InvalidArgument("M", Shape(M_),
                    "must be n x n with n = " + std::to_string(Jn_.cols()) +
                        " (the columns of Jn and the size of v_minus)");
  }
  if (m == 0 || Jn_.cols() != n) {
    InvalidArgument("Jn", Shape(Jn_), "must be m x n with m >= 1 and n = " + std::to_string(n));
  }
  if (mu_.size() != m) {
    InvalidArgument("mu.size()", mu_.size(),
                    "must equal the number of contacts m = " + std::to_string(m));
  }
  if (v_minus_.size() != n) {
    InvalidArgument("v_minus.size()", v_minus_.size(), "must equal n = " + std::to_string(n));
  }
  RequireFinite("M", M_);
  RequireFinite("Jn", Jn_);
  RequireFinite("D", D_);
  RequireFinite("mu", mu_);
  RequireFinite("v_minus", v_minus_);
  for (Eigen::Index i = 0; i < m; ++i) {
    if (mu_(i) < 0) InvalidArgument("mu(" + std::to_string(i) + ")", mu_(i), "must be >= 0");
  }
  if (k_ < 0 || k_ % 2 != 0) InvalidArgument("k", k_, "directions per contact must be even, >= 0");
  if (n > kMaxVelocityDimension) {
    InvalidArgument("n", n,
                    "must be <= " + std::to_string(kMaxVelocityDimension) +
                        " (dense M and M^-1 J^T; docs/robustness.md)");
  }
  if (static_cast<long long>(m) * (k_ + 3) > kMaxStepLcpSize) {
    InvalidArgument("m (k + 3)", static_cast<long long>(m) * (k_ + 3),
                    "must be <= " + std::to_string(kMaxStepLcpSize) + " (m = " + std::to_string(m) +
                        " contacts, k = " + std::to_string(k_) +
                        "): the dense step LCP's size (docs/robustness.md)");
  }
  if (k_ == 0) {
    if (mu_.maxCoeff() > 0) {
      InvalidArgument("D", "absent (k = 0)", "a friction basis is required when some mu > 0");
    }
    if (D_.rows() != 0) InvalidArgument("D", Shape(D_), "must be empty when k = 0");
    D_.resize(0, n);
  } else if (D_.rows() != m * k_ || D_.cols() != n) {
    InvalidArgument("D", Shape(D_),
                    "must be (m*k) x n = " + std::to_string(m * k_) + "x" + std::to_string(n));
  }
  const double mscale = M_.cwiseAbs().maxCoeff();
  if ((M_ - M_.transpose()).cwiseAbs().maxCoeff() > kSymmetryTolerance * mscale) {
    InvalidArgument(
        "M", "max |M - M^T| = " + std::to_string((M_ - M_.transpose()).cwiseAbs().maxCoeff()),
        "must be symmetric");
  }
  for (Eigen::Index i = 0; i < m; ++i) {
    for (int j = 0; j < k_ / 2; ++j) {
      const Eigen::Index a = i * k_ + j, b = a + k_ / 2;
      const double err = (D_.row(a) + D_.row(b)).cwiseAbs().maxCoeff();
      if (err > kNegationTolerance * std::max(1.0, D_.row(a).cwiseAbs().maxCoeff())) {
        InvalidArgument("D row " + std::to_string(b),
                        "max |D(b,:) + D(a,:)| = " + std::to_string(err),
                        "friction directions must be closed under negation: row i*k+j+k/2 = "
                        "-(row i*k+j), here a = " +
                            std::to_string(a));
      }
    }
  }
  const MatrixXd sym = 0.5 * (M_ + M_.transpose());
  llt_.compute(sym);
  if (llt_.info() != Eigen::Success) {
    InvalidArgument("M", "(Cholesky failed)", "must be positive definite");
  }
  J_.resize(m + m * k_, n);
  J_ << Jn_, D_;
  minv_jt_ = llt_.solve(J_.transpose());
  // The Delassus matrix as the Gram matrix G^T G of G = L^-1 J^T: symmetric and positive
  // semidefinite to the product's roundoff whatever cond(M) is. J (M^-1 J^T) carries M^-1's
  // error, u cond(M) relative: with dependent contact rows and cond(M) near 1e10 that made the
  // zero eigenvalues negative enough for step LCPs to end on rays. The blocked product is not
  // bitwise symmetric: averaged with its transpose, as before.
  const MatrixXd G = llt_.matrixL().solve(J_.transpose());
  delassus_.noalias() = G.transpose() * G;
  delassus_ = 0.5 * (delassus_ + delassus_.transpose()).eval();
  const int per_contact = k_ == 0 ? 0 : (k_ == 2 ? 1 : 2);
  contact_jacobian_.resize(m + m * per_contact, n);
  contact_jacobian_.topRows(m) = Jn_;
  for (Eigen::Index i = 0; i < m; ++i) {
    if (per_contact >= 1) contact_jacobian_.row(m + i * per_contact) = D_.row(i * k_);
    if (per_contact == 2) contact_jacobian_.row(m + i * per_contact + 1) = D_.row(i * k_ + k_ / 4);
  }
}

ImpactProblem ImpactProblem::Planar(
    MatrixXd M, MatrixXd Jn, const MatrixXd& Jf, VectorXd mu, VectorXd v_minus) {
  if (Jf.rows() != Jn.rows() || Jf.cols() != Jn.cols()) {
    InvalidArgument("Jf", Shape(Jf), "must have the shape of Jn, " + Shape(Jn));
  }
  MatrixXd D(2 * Jf.rows(), Jf.cols());
  for (Eigen::Index i = 0; i < Jf.rows(); ++i) {
    D.row(2 * i) = Jf.row(i);
    D.row(2 * i + 1) = -Jf.row(i);
  }
  return ImpactProblem(std::move(M), std::move(Jn), std::move(D), std::move(mu), std::move(v_minus),
                       2);
}

}  // namespace impactset::impact
