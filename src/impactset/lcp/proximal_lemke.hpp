#pragma once
// A link of the fallback chain for step LCPs whose exact ties and scale defeat every Lemke path:
// the proximal-point method, each step one LCP regularised by a small multiple of the identity
// and solved by the native Lemke in double (docs/robustness.md "Random impact problems").
#include <memory>
#include <string_view>
#include <vector>

#include <impactset/lcp/lemke.hpp>
#include <impactset/lcp/solver.hpp>

namespace impactset::lcp {

/// Options of ProximalLemkeSolver.
struct ProximalLemkeOptions {
  /// Regularisation weights, tried in turn, each relative to the largest |entry| of the matrix the
  /// steps solve. Small first: the regularised LCP is then close to the caller's and one or two
  /// steps remove the difference; larger weights smooth out the ties smaller ones keep. Non-empty,
  /// each in (0, 1e-2].
  std::vector<double> weights = {1e-12, 1e-10, 1e-8, 1e-6, 1e-4};
  /// Proximal steps per weight. The steps converge linearly; on the random family's step LCPs
  /// 50 solve about 3 % more of them than 30. >= 1.
  int max_steps = 50;
  /// The inner Lemke's zero and tie tolerances, one round of every weight each. The default's
  /// 1e-11 treats basic values within 1e-11 ||q|| as zero; a step LCP whose q holds approach
  /// speeds of 1e-6 beside impulse caps of 1e3 needs them resolved (1e-16). Non-empty, each in
  /// (0, 1e-3].
  std::vector<double> zero_tolerances = {1e-11, 1e-16};
  /// Acceptance tolerance on the residual of the returned z for the caller's (M, q): the same
  /// check as every other link. > 0.
  double accept_tolerance = kAcceptTolerance;
  /// @throws std::invalid_argument naming the field that breaks its rule.
  void Validate() const;
};

/// The proximal-point method for LCP(M, q): y_{k+1} solves LCP(M + d I, q - d y_k) for a weight
/// d > 0. A fixed point y solves LCP(M, q) exactly, whatever d. Each step's matrix has its
/// diagonal lifted (a Delassus block of linearly dependent contact rows becomes positive
/// definite), and on the random family's step LCPs the Lemke paths of the lifted LCPs end where
/// those of the step LCP ended on secondary rays. Every iterate is offered to the caller's check
/// (IsSolution on (M, q) in double) and the first that passes is returned; none is accepted above
/// it.
///
/// Rounds, in order, each of every weight and each weight continuing from the last iterate: the
/// LCP as given, then the LCP equilibrated by powers of two (exact; as in ExtendedLemkeSolver);
/// within each, the inner tolerances in turn. As given comes first because equilibration can
/// shrink the approach speeds in q to below the inner Lemke's zero tolerance.
///
/// Cost: at most |weights| * max_steps native solves per round (4 rounds by default); each is a
/// Lemke path of the regularised LCP. Meant for the rare step LCP the earlier links failed on.
/// Not thread-safe; use one instance per thread.
class ProximalLemkeSolver final : public Solver {
 public:
  explicit ProximalLemkeSolver(const ProximalLemkeOptions& options = {});
  SolverId id() const override { return SolverId::kProximal; }

 private:
  SolveInfo DoSolve(const MatrixRef& M, const VectorRef& q, VectorXd* z, InputCheck check) override;
  bool RunRound(const MatrixRef& M,
                const VectorRef& q,
                LemkeSolver* inner,
                std::string_view pass,
                SolveInfo* info,
                VectorXd* z,
                double* best);

  ProximalLemkeOptions options_;
  std::vector<std::unique_ptr<LemkeSolver>> inner_;  // one per zero tolerance
  MatrixXd s_;               // the matrix of the round (as given or equilibrated)
  MatrixXd lifted_;          // s_ + d I
  VectorXd sq_, col_scale_;  // the round's q; z = col_scale_ .* y
  VectorXd y_, next_, shifted_, candidate_;
};

}  // namespace impactset::lcp
