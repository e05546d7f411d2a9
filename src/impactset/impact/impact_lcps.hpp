#pragma once
// The LCPs of the impact laws, built from an ImpactProblem. Each is LCP(W, w): find z with
// 0 <= z ⊥ W z + w >= 0 (lcp/problem.hpp). docs/model.md §2 and §4 derive them; the authors'
// MATLAB forms, which these reproduce entry by entry for k = 2, are docs/examples.md §1.2-§1.4.
//
// Notation (docs/model.md §1.1): m contacts, k friction directions per contact, J = [Jn; D],
// A = J M^-1 J^T = [A_nn A_nD; A_Dn A_DD] (ImpactProblem::Delassus), E = blockdiag(1_k, ..., 1_k)
// (m k x m: E(i k + j, i) = 1), U = diag(mu), v the velocity the LCP starts from, I identity.
//
// Anitescu-Potra (Halm & Posa eqs. 31-35; docs/model.md §2.2-§2.3),
// z = (lambda_n, lambda_D, gamma):
//
//               lambda_n  lambda_D  gamma                 w_AP
//   W_AP  =   [ A_nn      A_nD      0     ]  m rows      [ Jn v ]
//             [ A_Dn      A_DD      E     ]  m k rows    [ D v  ]
//             [ U         -E^T      0     ]  m rows      [ 0    ]
//
//   v+ = v + M^-1 J^T (lambda_n, lambda_D), so the first two row blocks are J v+ (+ E gamma):
//   - rows 1, ⊥ lambda_n: Jn v+ >= 0. Inelastic: no contact approaches afterwards, and a contact
//     takes normal impulse only if it ends at zero normal velocity (31c).
//   - rows 2, ⊥ lambda_D: D v+ + E gamma >= 0. gamma_i bounds contact i's sliding speed; friction
//     impulse goes only along the directions most opposed to sliding (maximal dissipation, 32-33).
//   - rows 3, ⊥ gamma: U lambda_n - E^T lambda_D >= 0. Friction cone: sum_j lambda_D_ij <=
//     mu_i lambda_n_i, on its boundary when contact i slides (gamma_i > 0).
//
// Routh step (Halm & Posa eqs. 72-75; docs/model.md §4.1-§4.3),
// z = (s, lambda_n, lambda_D, gamma), with lambda_max = h p >= 0 the cap on each contact's normal
// impulse increment in this step:
//
//               s    lambda_n  lambda_D  gamma                w_R
//   W_R   =   [ 0    -I        0         0     ]  m rows     [ lambda_max ]
//             [ I    A_nn      A_nD      0     ]  m rows     [ Jn v       ]
//             [ 0    A_Dn      A_DD      E     ]  m k rows   [ D v        ]
//             [ 0    U         -E^T      0     ]  m rows     [ 0          ]
//
//   W_AP bordered by the slack's row and column (the paper notes the same after eq. 75), and w_R
//   is (lambda_max, w_AP). The increments are z.segment(m, m + m k):
//   v_next = v + M^-1 J^T (lambda_n, lambda_D).
//   - rows 1, ⊥ s: lambda_max - lambda_n >= 0. The cap (73); s_i > 0 only when the cap is used up.
//   - rows 2, ⊥ lambda_n: Jn v_next + s >= 0. Relaxed inelasticity (74): a contact takes impulse
//     until it stops approaching, or all of its cap while still approaching (then s_i is the
//     approach speed left); never enough to push it apart (72c).
//   - rows 3 and 4: Anitescu-Potra's rows 2 and 3 at v_next (the implicit friction of 72d).
//
// k = 0 (frictionless): the lambda_D and gamma blocks vanish, z = (lambda_n) and z = (s, lambda_n).
#include <optional>

#include <impactset/impact/impact_problem.hpp>

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

/// W_AP above (independent of v).
MatrixXd AnitescuPotraMatrix(const ImpactProblem& p);
/// w_AP = (J v, 0) above.
VectorXd AnitescuPotraVector(const ImpactProblem& p, const VectorRef& v);
/// The Anitescu-Potra LCP at v- solved by the default fallback chain: its z (layout
/// AnitescuPotraLayout), or nullopt when no link solved it. The simultaneous inelastic impact,
/// which the defaults of a bare problem are scaled to (step rule, net radii).
std::optional<VectorXd> SolveAnitescuPotraAtVMinus(const ImpactProblem& p);

/// W_R above: constant over a whole impact, so build it once per problem.
MatrixXd RouthStepMatrix(const ImpactProblem& p);
/// Writes w_R = (lambda_max, J v, 0) into *w without allocating once *w has the right size.
void RouthStepVector(const ImpactProblem& p,
                     const VectorRef& v,
                     const VectorRef& lambda_max,
                     VectorXd* w);

}  // namespace impactset::impact
