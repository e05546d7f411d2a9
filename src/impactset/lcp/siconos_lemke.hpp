#pragma once
// Siconos Numerics' lexicographic Lemke behind the impactset Solver interface.
#include <memory>

#include <impactset/lcp/solver.hpp>

namespace impactset::lcp {

/// Options of SiconosLemkeSolver (mapped onto Siconos' SolverOptions for SICONOS_LCP_LEMKE).
struct SiconosLemkeOptions {
  /// Siconos iparam[SICONOS_IPARAM_MAX_ITER]; Siconos' own default is 10000. >= 1.
  int max_iterations = 10000;
  /// Tolerance of Siconos' residual filter (its relative lcp_compute_error). > 0.
  double siconos_tolerance = 1e-10;
  /// Our acceptance tolerance on the returned z (residual.hpp); decides the status. > 0.
  double accept_tolerance = kAcceptTolerance;
  void Validate() const;
};

/// Calls linearComplementarity_driver with SICONOS_LCP_LEMKE and the residual filter on, with
/// its own SolverOptions (Siconos mutates them in every solve: one instance per thread).
/// Siconos' `info` is never trusted: the status comes from our ComputeResidual
/// (Siconos 4.4's lcp_lexicolemke reports success, info = 0, on secondary-ray termination).
/// Inputs are validated first, so nothing that could make Siconos abort reaches it.
class SiconosLemkeSolver final : public Solver {
 public:
  explicit SiconosLemkeSolver(const SiconosLemkeOptions& options = {});
  ~SiconosLemkeSolver() override;
  SiconosLemkeSolver(const SiconosLemkeSolver&) = delete;
  SiconosLemkeSolver& operator=(const SiconosLemkeSolver&) = delete;
  SolverId id() const override { return SolverId::kSiconos; }

 private:
  SolveInfo DoSolve(const MatrixRef& M,
                    const VectorRef& q,
                    VectorXd* z,
                    InputCheck check) override;  // validates whatever check says
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace impactset::lcp
