#pragma once
// Algorithm 1 of Halm & Posa (model.md §5, examples.md 1.5): one sample of the post-impact set.
#include <vector>

#include "impact/impact_lcps.hpp"
#include "impact/impact_problem.hpp"
#include "impact/p_source.hpp"
#include "lcp/solver.hpp"

namespace impactset::impact {

/// Options of Algorithm 1. The defaults are the authors' (examples.md 1.5) except h and N,
/// which are per system (scene files carry them).
struct Algorithm1Options {
  /// Step size h (impulse units): lambda_max = h p. > 0.
  double step = 1.0;
  /// Step cap N (the paper's trajectory length). >= 1.
  int max_steps = 10;
  /// The impact is over when min_i (Jn v)_i >= -termination_tolerance (authors: 1e-8). >= 0.
  double termination_tolerance = 1e-8;
  /// Record every intermediate velocity (the reachable set, eqs. 83-86).
  bool keep_trajectory = false;
  void Validate() const;
};

enum class SampleStatus {
  kTerminated,  ///< no contact still colliding: v_plus is in the post-impact set
  kStepCap,     ///< max_steps solves and still colliding: never counted as terminated
  kLcpFailure   ///< a step LCP had no accepted solution (the solver's chain was exhausted)
};
const char* ToString(SampleStatus s);

/// One sample's outcome (model.md §5 "Record per sample").
struct SampleResult {
  SampleStatus status = SampleStatus::kTerminated;
  VectorXd v_plus;            ///< final generalized velocity
  VectorXd contact_velocity;  ///< ContactJacobian() v_plus: normal, then tangential velocities
  int lcp_solves = 0;
  int lcp_fallbacks = 0;             ///< solves whose answer came from a link after the first
  double worst_residual = 0;         ///< max of Residual::Worst() over the sample's solves
  double energy_ratio = 1;           ///< KE(v_plus) / KE(v-) (1 when KE(v-) = 0)
  std::vector<VectorXd> trajectory;  ///< v-, v_1, ..., v_plus when keep_trajectory
};

/// Runs Algorithm 1 on one ImpactProblem. Holds the step LCP matrix (constant over an impact) and
/// all workspaces, so Run allocates nothing beyond the result when keep_trajectory is off.
/// Not thread-safe: one per thread, each with its own solver.
class RouthSampler {
 public:
  /// The problem and solver must outlive the sampler.
  RouthSampler(const ImpactProblem& problem, const Algorithm1Options& options, lcp::Solver* solver);
  /// Runs one sample from v- with p-vectors from source.
  const SampleResult& Run(PSource& source);
  const ImpactProblem& problem() const { return problem_; }
  const Algorithm1Options& options() const { return options_; }
  /// The step LCP of the last solve (for diagnostics and robustness studies).
  const MatrixXd& StepMatrix() const { return W_; }
  const VectorXd& StepVector() const { return w_; }

 private:
  const ImpactProblem& problem_;
  Algorithm1Options options_;
  lcp::Solver* solver_;
  LcpLayout layout_;
  MatrixXd W_;
  VectorXd w_, z_, v_, p_, lambda_max_;
  SampleResult result_;
};

}  // namespace impactset::impact
