#include <impactset/lcp/proximal_lemke.hpp>

#include <cmath>
#include <limits>
#include <string>

#include <impactset/common/error_policy.hpp>
#include <impactset/lcp/internal/equilibrate.hpp>
#include <impactset/lcp/problem.hpp>

namespace impactset::lcp {

namespace {

// Ruiz sweeps of the equilibrated round: ExtendedLemkeSolver's.
constexpr int kEquilibrationSweeps = 8;

void CheckList(const std::vector<double>& values, const char* field, double hi, bool hi_open) {
  const std::string name = std::string("ProximalLemkeOptions.") + field;
  if (values.empty()) InvalidArgument(name, "(empty)", "must hold at least one value");
  for (size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    if (!(v > 0 && v <= hi)) {
      InvalidArgument(name + "[" + std::to_string(i) + "]", v,
                      hi_open ? "must lie in (0, 1e-2]" : "must lie in (0, 1e-3]");
    }
  }
}

}  // namespace

void ProximalLemkeOptions::Validate() const {
  CheckList(weights, "weights", 1e-2, true);
  CheckList(zero_tolerances, "zero_tolerances", 1e-3, false);
  if (max_steps < 1) InvalidArgument("ProximalLemkeOptions.max_steps", max_steps, "must be >= 1");
  if (!(accept_tolerance > 0)) {
    InvalidArgument("ProximalLemkeOptions.accept_tolerance", accept_tolerance, "must be > 0");
  }
}

ProximalLemkeSolver::ProximalLemkeSolver(const ProximalLemkeOptions& options) : options_(options) {
  options_.Validate();
  for (double tol : options_.zero_tolerances) {
    LemkeOptions o;
    o.zero_tolerance = tol;
    o.tie_tolerance = std::min(o.tie_tolerance, 0.1 * tol);
    inner_.push_back(std::make_unique<LemkeSolver>(o));
  }
}

// candidate_ = col_scale_ .* y_ (clipped at 0) on the caller's (M, q): accepted into info through
// IsSolution, else kept in info and *z when its residual is the smallest so far.
bool ProximalLemkeSolver::Offer(
    const MatrixRef& M, const VectorRef& q, SolveInfo* info, VectorXd* z, double* best) {
  candidate_ = col_scale_.cwiseProduct(y_).cwiseMax(0.0);
  const Residual r = ComputeResidual(M, q, candidate_);
  if (IsSolution(r, options_.accept_tolerance)) {
    *z = candidate_;
    info->residual = r;
    info->status = Status::kSolved;
    return true;
  }
  if (r.Worst() < *best) {
    *best = r.Worst();
    info->residual = r;
    *z = candidate_;
  }
  return false;
}

// Every weight in turn on s_, sq_, each continuing from the last iterate: y <- the inner Lemke's
// answer to LCP(s_ + d I, sq_ - d y), until an iterate passes the caller's check, the iterate
// stops moving (a fixed point of this weight that the check refuses) or max_steps.
bool ProximalLemkeSolver::RunRound(const MatrixRef& M,
                                   const VectorRef& q,
                                   LemkeSolver* inner,
                                   SolveInfo* info,
                                   VectorXd* z,
                                   double* best) {
  const Eigen::Index n = q.size();
  const double scale = s_.cwiseAbs().maxCoeff();
  y_.setZero(n);
  for (double weight : options_.weights) {
    const double d = weight * scale;
    lifted_ = s_;
    lifted_.diagonal().array() += d;
    for (int step = 0; step < options_.max_steps; ++step) {
      shifted_ = sq_ - d * y_;
      const SolveInfo si = inner->Solve(lifted_, shifted_, &next_, InputCheck::kCallerValidated);
      info->pivots += si.pivots;
      if (next_.size() != n || !next_.allFinite()) break;
      const bool moved = next_ != y_;
      y_.swap(next_);
      if (Offer(M, q, info, z, best)) return true;
      if (!moved) break;
    }
  }
  return false;
}

SolveInfo ProximalLemkeSolver::DoSolve(const MatrixRef& M,
                                       const VectorRef& q,
                                       VectorXd* z,
                                       InputCheck check) {
  if (check == InputCheck::kValidate) ValidateProblem(M, q);
  IMPACTSET_ASSERT(M.rows() == q.size() && M.cols() == q.size() && q.size() > 0);
  const int n = static_cast<int>(q.size());
  SolveInfo info;
  info.solver = SolverId::kProximal;
  info.attempts = 1;
  info.status = Status::kResidualTooLarge;
  info.message = "proximal Lemke: no iterate passed the check";
  z->setZero(n);
  if (q.minCoeff() >= 0) {
    info.status = Status::kSolved;
    info.residual = ComputeResidual(M, q, *z);
    info.message = "trivial solution: q >= 0";
    return info;
  }
  double best = std::numeric_limits<double>::infinity();
  VectorXd row_scale(n);
  for (const bool equilibrate : {false, true}) {
    s_ = M;
    col_scale_.resize(n);
    internal::EquilibrateByPowersOfTwo(s_.data(), n, equilibrate ? kEquilibrationSweeps : 0,
                                       row_scale.data(), col_scale_.data());
    sq_ = row_scale.cwiseProduct(q);
    for (auto& inner : inner_) {
      if (RunRound(M, q, inner.get(), &info, z, &best)) {
        info.message = equilibrate ? "proximal Lemke: solved on the equilibrated LCP"
                                   : "proximal Lemke: solved on the LCP as given";
        return info;
      }
    }
  }
  return info;
}

}  // namespace impactset::lcp
