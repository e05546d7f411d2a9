#pragma once
// What the chain's later links (proximal, extended) share: the start of a solve, with its
// trivial answer, and the offer of each candidate to the one check.

#include <string_view>

#include <impactset/lcp/residual.hpp>
#include <impactset/lcp/solver.hpp>

namespace impactset::lcp::internal {

/// A solve by link `id` that has not succeeded yet (status `unsolved`, `message`), *z = 0;
/// *trivial when q >= 0, and then the info says solved at z = 0.
inline SolveInfo StartLinkSolve(SolverId id,
                                Status unsolved,
                                std::string_view message,
                                const MatrixRef& M,
                                const VectorRef& q,
                                VectorXd* z,
                                bool* trivial) {
  SolveInfo info;
  info.solver = id;
  info.attempts = 1;
  info.status = unsolved;
  info.message = message;
  z->setZero(q.size());
  *trivial = q.minCoeff() >= 0;
  if (*trivial) {
    info.status = Status::kSolved;
    info.residual = ComputeResidual(M, q, *z);
    info.message = "trivial solution: q >= 0";
  }
  return info;
}

/// Takes candidate, whose residual r passed the check, as the solve's answer.
inline void Accept(const VectorXd& candidate,
                   const Residual& r,
                   std::string_view message,
                   SolveInfo* info,
                   VectorXd* z) {
  *z = candidate;
  info->residual = r;
  info->status = Status::kSolved;
  info->message = message;
}

/// Offers candidate to the caller's check on (M, q): accepted into *info (status kSolved,
/// message `pass`) and *z when IsSolution at tol; otherwise kept in *z and info->residual when
/// its residual is below *best (then updated). Non-finite candidates are ignored.
inline bool OfferCandidate(const MatrixRef& M,
                           const VectorRef& q,
                           const VectorXd& candidate,
                           double tol,
                           std::string_view pass,
                           SolveInfo* info,
                           VectorXd* z,
                           double* best) {
  if (!candidate.allFinite()) return false;
  const Residual r = ComputeResidual(M, q, candidate);
  if (IsSolution(r, tol)) {
    Accept(candidate, r, pass, info, z);
    return true;
  }
  if (r.Worst() < *best) {
    *best = r.Worst();
    info->residual = r;
    *z = candidate;
  }
  return false;
}

/// Offers candidate + low, an answer in two parts (SolveInfo::low_part), to the two-part check:
/// accepted into *info, *z and *low_part when IsSolution at tol; otherwise nothing changes.
inline bool OfferInTwoParts(const MatrixRef& M,
                            const VectorRef& q,
                            const VectorXd& candidate,
                            const VectorXd& low,
                            double tol,
                            std::string_view message,
                            SolveInfo* info,
                            VectorXd* z,
                            VectorXd* low_part) {
  if (!candidate.allFinite() || !low.allFinite()) return false;
  const Residual r = ComputeResidual(M, q, candidate, low);
  if (!IsSolution(r, tol)) return false;
  Accept(candidate, r, message, info, z);
  *low_part = low;
  info->low_part = true;
  return true;
}

}  // namespace impactset::lcp::internal
