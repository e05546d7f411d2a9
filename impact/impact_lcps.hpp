#pragma once
// The LCPs of the impact laws, built from an ImpactProblem (examples.md 1.2-1.4, model.md §2, §4).
//
// Unknowns, in this order (k = friction directions per contact, the gamma block is omitted when
// k = 0):
//   Anitescu-Potra (eqs. 31-35): z = (lambda_n [m], lambda_D [m k], gamma [m])
//   Routh step     (eqs. 72-75): z = (s [m], lambda_n [m], lambda_D [m k], gamma [m])
#include "impact/impact_problem.hpp"

namespace impactset::impact {

/// Offsets of the blocks of a Routh-step or Anitescu-Potra unknown vector.
struct LcpLayout {
  int m = 0, k = 0;
  bool with_slack = false;  ///< Routh step: true
  int slack() const { return 0; }
  int lambda_n() const { return with_slack ? m : 0; }
  int lambda_d() const { return lambda_n() + m; }
  int gamma() const { return lambda_d() + m * k; }
  int impulses() const { return m + m * k; }  ///< length of (lambda_n, lambda_D)
  int size() const { return gamma() + (k > 0 ? m : 0); }
};

LcpLayout AnitescuPotraLayout(const ImpactProblem& p);
LcpLayout RouthStepLayout(const ImpactProblem& p);

/// W_AP of model.md §2 (independent of v).
MatrixXd AnitescuPotraMatrix(const ImpactProblem& p);
/// w_AP = (J v, 0).
VectorXd AnitescuPotraVector(const ImpactProblem& p, const VectorRef& v);

/// W_R of model.md §4: constant over a whole impact, so build it once per problem.
MatrixXd RouthStepMatrix(const ImpactProblem& p);
/// Writes w_R = (lambda_max, J v, 0) into *w without allocating once *w has the right size.
void RouthStepVector(const ImpactProblem& p,
                     const VectorRef& v,
                     const VectorRef& lambda_max,
                     VectorXd* w);

}  // namespace impactset::impact
