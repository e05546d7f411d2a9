#include <impactset/lcp/siconos_lemke.hpp>

#include <cstdlib>

// Siconos numerics (C headers with extern "C" guards); only this file sees them.
#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <SiconosConfig.h>
#include <SolverOptions.h>
#include <lcp_cst.h>

#include <impactset/common/error_policy.hpp>
#include <impactset/lcp/problem.hpp>

namespace impactset::lcp {

void SiconosLemkeOptions::Validate() const {
  if (max_iterations < 1) {
    InvalidArgument("SiconosLemkeOptions.max_iterations", max_iterations, "must be >= 1");
  }
  if (!(siconos_tolerance > 0)) {
    InvalidArgument("SiconosLemkeOptions.siconos_tolerance", siconos_tolerance, "must be > 0");
  }
  if (!(accept_tolerance > 0)) {
    InvalidArgument("SiconosLemkeOptions.accept_tolerance", accept_tolerance, "must be > 0");
  }
}

struct SiconosLemkeSolver::Impl {
  SiconosLemkeOptions options;
  SolverOptions* so = nullptr;
  MatrixXd m;  // contiguous column-major copy: Siconos reads M[n*col + row]
  VectorXd q, w;
  ~Impl() {
    if (so) {
      solver_options_delete(so);  // frees members only
      std::free(so);
    }
  }
};

SiconosLemkeSolver::SiconosLemkeSolver(const SiconosLemkeOptions& options)
    : impl_(std::make_unique<Impl>()) {
  options.Validate();
  impl_->options = options;
  impl_->so = solver_options_create(SICONOS_LCP_LEMKE);
  if (!impl_->so)
    throw std::runtime_error("Siconos solver_options_create(SICONOS_LCP_LEMKE) failed");
  impl_->so->iparam[SICONOS_IPARAM_MAX_ITER] = options.max_iterations;
  impl_->so->dparam[SICONOS_DPARAM_TOL] = options.siconos_tolerance;
  impl_->so->filterOn = true;
}

SiconosLemkeSolver::~SiconosLemkeSolver() = default;

SolveInfo SiconosLemkeSolver::DoSolve(const MatrixRef& M,
                                      const VectorRef& q,
                                      VectorXd* z,
                                      InputCheck /*check*/) {
  ValidateProblem(M, q);
  const Eigen::Index n = q.size();
  Impl& s = *impl_;
  s.m = M;
  s.q = q;
  s.w.resize(n);
  z->resize(n);
  z->setZero();

  NumericsMatrix nm;
  NM_null(&nm);
  NM_fill(&nm, NM_DENSE, static_cast<int>(n), static_cast<int>(n), s.m.data());
  LinearComplementarityProblem lcp{static_cast<int>(n), &nm, s.q.data()};
  const int info = linearComplementarity_driver(&lcp, z->data(), s.w.data(), s.so);

  SolveInfo out;
  out.solver = SolverId::kSiconos;
  out.attempts = 1;
  out.pivots = s.so->iparam[SICONOS_IPARAM_ITER_DONE];
  out.residual = ComputeResidual(M, q, *z);
  if (IsSolution(out.residual, s.options.accept_tolerance)) {
    out.status = Status::kSolved;
    out.message = info == 0 ? "siconos: solved" : "siconos: info != 0 but z passes our check";
  } else if (out.pivots >= s.options.max_iterations) {
    out.status = Status::kMaxPivots;
    out.message = "siconos: iteration cap reached";
  } else {
    // Siconos does not distinguish ray termination from a bad residual; a failed check after
    // fewer than max_iterations pivots is the secondary-ray case (lcp_lexicolemke returns info 0
    // there too: it sets "found" on an empty ratio test).
    out.status = Status::kRayTermination;
    out.message = "siconos: ended without a solution (secondary ray or failed residual filter)";
  }
  return out;
}

}  // namespace impactset::lcp
