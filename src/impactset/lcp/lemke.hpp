#pragma once
// impactset's native Lemke solver for small dense LCPs (our step LCPs are 4x4 to 25x25).
#include <vector>

#include <impactset/lcp/solver.hpp>

namespace impactset::lcp {

/// Default of LemkeOptions::restore_above: the residual (Residual::Worst()) above which the final
/// z is re-solved from the basis. Accuracy is the default: every accepted answer ends at or below
/// 1e-12 on SPD data with condition numbers up to 1e10, at no measurable cost on the paper's
/// examples (the re-solve runs on few answers). Samples move at roundoff level, a few through
/// near-ties onto other outcomes, with the outcomes' distribution unchanged
/// (tests/sampling/restore_distribution_test.cpp against the former 1e-9).
inline constexpr double kRestoreAbove = 1e-12;
/// restore_above for callers whose data spans many orders of magnitude and who want every
/// answer near roundoff (residual <= 1e-13 on SPD data with condition numbers up to 1e10).
inline constexpr double kRestoreForAccuracy = 1e-13;

/// Default of LemkeOptions::pivot_floor. Step LCPs whose Delassus blocks are singular (a foot's
/// four contacts on one rigid body) carry entries that are zero in exact arithmetic as roundoff of
/// ~1e-13 of their column; a floor of 1e-13 let Lemke pivot on one, B^-1 grew to ~1e13 and the
/// path ended on a secondary ray (0.35 % of a humanoid's step LCPs; 0 at 1e-11).
inline constexpr double kPivotFloor = 1e-11;

/// Options of LemkeSolver. Defaults suit O(1)-scaled impact LCPs; change them only when a
/// problem's data spans many orders of magnitude.
struct LemkeOptions {
  /// Pivot cap (after the initial z0 pivot). Lemke needs about n..3n pivots on our problems;
  /// hitting 1000 means cycling or a pathological instance. Must be >= 1.
  int max_pivots = 1000;
  /// A pivot-column entry u_i counts as positive only if u_i > zero_tolerance * beta_i, beta_i =
  /// sum_j |B^-1_ij a_j| bounding the magnitudes that cancelled to produce it (for an entering z
  /// or z0 column plus |a_i| when a pivot has changed column i of B^-1), and u_i > pivot_floor *
  /// max_k |u_k|.
  /// In (0, 1e-3].
  double zero_tolerance = 1e-11;
  /// The floor relative to the pivot column's largest entry, for rows whose own products are all
  /// tiny: such an entry can be pure roundoff "relative to nothing" (see kPivotFloor). In
  /// (0, 1e-3].
  double pivot_floor = kPivotFloor;
  /// Two minimum-ratio candidates are tied when they agree to this relative tolerance; among tied
  /// rows z0's leaves first (ending the path), else the lexicographic rule on the rows of B^-1
  /// decides. In [0, 1e-3].
  double tie_tolerance = 1e-12;
  /// Covering vector d_i = 1 + covering_perturbation * frac(0.618... i). 0 (classical d = 1)
  /// is the first link of the fallback chain; a positive value walks a different pivot path and
  /// is the chain's extra link for sizes enumeration cannot handle. In [0, 10].
  double covering_perturbation = 0;
  /// Acceptance tolerance on the final residual (see residual.hpp). > 0.
  double accept_tolerance = kAcceptTolerance;
  /// When the tableau's z has a residual above this, the product-form inverse has drifted: z is
  /// re-solved from the final basis by LU with one refinement step and the better answer kept.
  /// Below it the tableau's z stands bit for bit. kRestoreForAccuracy (1e-13) for badly scaled
  /// data. In [0, accept_tolerance].
  double restore_above = kRestoreAbove;

  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

/// Lemke's complementary pivoting method with covering vector d (default 1) and the lexicographic
/// minimum-ratio test on the rows of [B^-1 q, B^-1], which resolves degeneracy and so cannot
/// cycle. Solves every LCP with a copositive-plus M (and, by Theorem 6 of Halm & Posa, every
/// Routh step LCP) unless roundoff makes it end on a ray, which the status then reports.
/// The final z is read off the tableau; if its residual exceeds options.restore_above it is
/// re-solved from the final basis (M_ZZ z_Z = -q_Z for the basic set Z, LU with partial pivoting
/// and one refinement step), which removes the drift of the product-form updates. Every answer is
/// checked with ComputeResidual.
///
/// Workspace is reused: after the first solve of a given n, Solve performs no heap allocation.
/// Not thread-safe; use one instance per thread.
class LemkeSolver final : public Solver {
 public:
  explicit LemkeSolver(const LemkeOptions& options = {});
  SolverId id() const override {
    return options_.covering_perturbation == 0 ? SolverId::kNative : SolverId::kNativeAlt;
  }
  /// Solve with a caller-chosen covering vector (all entries > 0) and, optionally, the order in
  /// which the columns of B^-1 break ties in the lexicographic ratio test (a permutation of
  /// 0..n-1; default, and whenever lex_order is null, 0, 1, ...). On an LCP with several
  /// solutions, different choices can end on different ones: Algorithm 1's `random` selection
  /// draws both from the sample's stream.
  /// @throws std::invalid_argument (with InputCheck::kValidate) on bad input, a covering vector
  ///         that is not positive or an order that is not a permutation.
  SolveInfo SolveWithCovering(const MatrixRef& M,
                              const VectorRef& q,
                              const VectorRef& covering,
                              VectorXd* z,
                              const std::vector<int>* lex_order = nullptr,
                              InputCheck check = InputCheck::kValidate);
  const LemkeOptions& options() const { return options_; }
  void Reserve(Eigen::Index n) override { Resize(n); }
  bool FinalBasis(std::vector<int>* z_basic) const override;

 private:
  // With kCallerValidated: no input check (see InputCheck); sizes are asserted.
  SolveInfo DoSolve(const MatrixRef& M, const VectorRef& q, VectorXd* z, InputCheck check) override;
  void Resize(Eigen::Index n);  // also sets d_
  void SetDefaultCovering();
  void SetNaturalOrder();
  void ValidateCovering(const MatrixRef& M,
                        const VectorRef& q,
                        const VectorRef& covering,
                        const std::vector<int>* lex_order);
  SolveInfo SolvePrepared(const MatrixRef& M, const VectorRef& q, VectorXd* z);
  // How a complementary path ended.
  enum class PathEnd { kSolution, kMaxPivots, kRay };
  // Pivots from the initial z0 pivot until z0 leaves, the cap or a ray; counts pivots in *pivots.
  // One load-time-dispatched copy per CPU (common/internal/simd.hpp) with the per-pivot steps
  // inlined for columns of NV four-row vectors (NV = 0: nv_ at run time).
  PathEnd FollowPath(const MatrixRef& M, const VectorRef& q, int* pivots);
  template <int NV>
  PathEnd FollowPathFor(const MatrixRef& M, const VectorRef& q, int* pivots);
  template <int NV>
  void ResetTableau(const VectorRef& q);  // B^-1 = I, b = q
  template <int NV>
  void ComputeColumn(const MatrixRef& M, int var);
  void ComputeColumnInMemory(const MatrixRef& M, int var);
  void PivotInMemory(int r);
  template <int NV>
  int RatioTest(bool initial);
  int LexicographicTieBreak(int count, const double* den);
  template <int NV>
  void Pivot(int r);
  Residual ExtractSolution(const MatrixRef& M, const VectorRef& q, VectorXd* z);
  bool RestoreFromBasis(const MatrixRef& M, const VectorRef& q, VectorXd* z);
  void LuSolve(int k, double* x) const;

  LemkeOptions options_;
  Eigen::Index n_ = -1;
  int nv_ = 0;                 // four-row vectors per column: ceil(n / 4)
  Eigen::Index ld_ = 0;        // rows of the padded workspaces: 4 nv_ (rows n.. are zero)
  MatrixXd binv_;              // B^-1 (identity outside the columns in active_), ld_ x n
  std::vector<int> active_;    // rows pivoted on in this solve = B^-1's non-identity columns
  std::vector<char> touched_;  // touched_[c]: c is in active_
  VectorXd b_;                 // B^-1 q: values of the basic variables
  double b_scale_ = 1;         // ||q||_inf: the scale of b's roundoff
  VectorXd u_;                 // B^-1 a_e: the entering column in the current basis
  VectorXd u_scale_;           // sum_j |B^-1_ij a_j|: what cancelled to produce u_i
  std::vector<int> basis_;     // basis_[i] = variable basic in row i: w_j = j, z_j = n + j, z0 = 2n
  MatrixXd lu_;                // LU factors of M_ZZ of the final basis (RestoreFromBasis)
  std::vector<int> basic_;     // Z: the indices whose z is basic in the final basis
  std::vector<int> pivot_row_;    // row swaps of that LU
  VectorXd x_;                    // the tableau's z, kept while the restored one is checked
  VectorXd d_;                    // covering vector
  bool custom_covering_ = false;  // d_ came from SolveWithCovering
  std::vector<int> lex_order_;    // column order of the lexicographic tie-break
  VectorXd ratio_;                // first key of the ratio test per row (+inf: row does not block)
  std::vector<int> tied_;         // blocking rows, then those still tied in the ratio test
  std::vector<char> seen_;        // SolveWithCovering's permutation check, kept to avoid allocating
  bool complementary_end_ = false;  // the last solve's answer was read off basis_ without z0
};

}  // namespace impactset::lcp
