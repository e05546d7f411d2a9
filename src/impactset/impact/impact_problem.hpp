#pragma once
// The impact problem of Halm & Posa §2 (docs/model.md §1): everything an impact law needs, posed
// at a frozen configuration.
#include <Eigen/Cholesky>

#include <impactset/common/eigen_types.hpp>

namespace impactset::impact {

/// Bounds on a problem's size (docs/robustness.md), checked by the constructor so that a hostile
/// or mistaken input is refused with a message instead of exhausting memory.
///
/// The step LCPs are dense with m (k + 3) rows (m contacts, k friction directions); Lemke's
/// tableau holds about 2 (m (k + 3))^2 doubles per thread, 16 MB at the bound. Refused above:
///   m (k + 3) <= kMaxStepLcpSize.
inline constexpr long long kMaxStepLcpSize = 1000;
/// M, its factor and M^-1 J^T are dense, 32 MB each for M at the bound. Refused above: n <= this.
inline constexpr long long kMaxVelocityDimension = 2000;

/// M (n x n SPD), Jn (m x n), friction basis D (m*k x n, rows grouped per contact), mu (m),
/// v- (n). Validated at construction; M is factored once and M^-1 J^T and the Delassus matrix
/// J M^-1 J^T (J = [Jn; D]) are precomputed for every later step of every sample.
///
/// D's k rows per contact must be closed under negation: row j + k/2 = -row j (planar k = 2:
/// (+t, -t); spatial k >= 4 even: d_j = cos(2 pi j/k) t1 + sin(2 pi j/k) t2; docs/model.md §1.1,
/// docs/examples.md §1.4). k = 0 (no D) is allowed only when every mu is 0.
class ImpactProblem {
 public:
  /// @throws std::invalid_argument naming the field (M, Jn, D, mu, v_minus, k, n, m (k + 3)) and
  ///         the rule, including the size bounds kMaxVelocityDimension and kMaxStepLcpSize.
  ImpactProblem(MatrixXd M, MatrixXd Jn, MatrixXd D, VectorXd mu, VectorXd v_minus, int k);

  /// Planar convenience: D interleaved as (+Jf_i, -Jf_i) per contact, k = 2, as the authors' code
  /// (docs/examples.md §1.2).
  static ImpactProblem Planar(
      MatrixXd M, MatrixXd Jn, const MatrixXd& Jf, VectorXd mu, VectorXd v_minus);

  int n() const { return static_cast<int>(M_.rows()); }
  int m() const { return static_cast<int>(Jn_.rows()); }
  int k() const { return k_; }
  const MatrixXd& M() const { return M_; }
  const MatrixXd& Jn() const { return Jn_; }
  const MatrixXd& D() const { return D_; }
  const VectorXd& mu() const { return mu_; }
  const VectorXd& v_minus() const { return v_minus_; }
  /// J = [Jn; D], (m + m k) x n.
  const MatrixXd& J() const { return J_; }
  /// M^-1 J^T, n x (m + m k): v changes by MinvJt() * [lambda_n; lambda_D].
  const MatrixXd& MinvJt() const { return minv_jt_; }
  /// Delassus matrix A = J M^-1 J^T (docs/model.md §1.1), formed as G^T G with G = L^-1 J^T
  /// (M = L L^T): symmetric and positive semidefinite to roundoff at any cond(M).
  const MatrixXd& Delassus() const { return delassus_; }
  const Eigen::LLT<MatrixXd>& MassFactor() const { return llt_; }
  /// Contact coordinates (what users read; docs/model.md §1.2): rows Jn (m), then each contact's
  /// tangential rows: D row i*k for k = 2 (velocity along t_i), rows i*k and i*k + k/4 for k >= 4
  /// (along t1, t2). Empty tangential part when k = 0.
  const MatrixXd& ContactJacobian() const { return contact_jacobian_; }

  /// 0.5 v^T M v, summed column by column so that it allocates no temporary (samplers call it).
  double KineticEnergy(const VectorRef& v) const {
    double s = 0;
    for (Eigen::Index j = 0; j < M_.cols(); ++j) s += v(j) * M_.col(j).dot(v);
    return 0.5 * s;
  }

 private:
  MatrixXd M_, Jn_, D_;
  VectorXd mu_, v_minus_;
  int k_;
  Eigen::LLT<MatrixXd> llt_;
  MatrixXd J_, minv_jt_, delassus_, contact_jacobian_;
};

}  // namespace impactset::impact
