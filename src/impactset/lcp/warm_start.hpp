#pragma once
// Warm starts for LCPs that share their matrix: a complementary basis that solved one q is tried
// on the next before a pivot path is walked.
#include <span>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/lcp/residual.hpp>

namespace impactset::lcp {

/// A complementary basis of LCP(M, q) for one fixed M, factorised once and tried on many q.
///
/// The basis is the set Z of indices whose z is basic: w_Z = 0 and z_N = 0 off Z, so
/// z_Z = -M_ZZ^-1 q_Z and w = M z + q. It solves LCP(M, q) exactly when z_Z >= 0 and w_N >= 0.
/// Trying it costs a product with M_ZZ^-1 (formed once, from an LU with partial pivoting), one
/// refinement step where needed (|Z|^2 each) and the residual (n^2): tens of nanoseconds at
/// n = 10, against a whole Lemke path. An explicit inverse is less accurate than the LU solve on
/// ill-conditioned blocks; the residual check and the refinement step make up for it, and a try
/// refused costs only the path. Try returns the residual of
/// the double sum (ComputeResidualInDouble), and the caller decides at its own tolerance: a miss
/// costs one pass, and an answer refused for the sum's roundoff only costs the caller its path.
///
/// Try is const and takes the caller's workspace, so one table of bases serves every thread.
class KnownBasis {
 public:
  /// What Try works in: one per thread; no allocation after its first use at a given n.
  struct Workspace {
    VectorXd x, r, b;  // z_Z, its refinement, the right-hand side
  };
  /// Takes the basis Z (indices in [0, n), increasing) and forms M_ZZ^-1 by LU with partial
  /// pivoting. False when M_ZZ has an exact zero pivot: the basis is then empty() and Try fails.
  bool Factor(const MatrixRef& M, std::span<const int> z_basic);
  bool empty() const { return !factored_; }
  void Clear() { factored_ = false; }
  const std::vector<int>& z_basic() const { return z_basic_; }

  /// The basis's z for this q (z_Z as above, clamped at 0; 0 off Z) into *z, and its residual.
  /// Returns a residual that is not finite, without computing w, when some z_Z is below
  /// -reject * max(1, ||q||_inf): the basis is infeasible for this q by far more than roundoff,
  /// the usual miss, which then costs only the product. Where the residual is above
  /// refine_above, z_Z gets one step of iterative refinement and the better z is kept.
  /// @pre !empty(), sizes agree (asserted).
  Residual Try(const MatrixRef& M,
               const VectorRef& q,
               VectorXd* z,
               double reject,
               double refine_above,
               Workspace* work) const;

 private:
  std::vector<int> z_basic_;
  std::vector<double> inverse_;  // M_ZZ^-1, column-major, rows padded to ld_ (a multiple of 4)
  int ld_ = 0;
  bool factored_ = false;
};

}  // namespace impactset::lcp
