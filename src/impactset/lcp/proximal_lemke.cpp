#include <impactset/lcp/proximal_lemke.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include <impactset/common/error_policy.hpp>
#include <impactset/lcp/internal/equilibrate.hpp>
#include <impactset/lcp/internal/later_link.hpp>
#include <impactset/lcp/problem.hpp>

namespace impactset::lcp {

namespace {

// A non-empty list of values in (0, hi]; rule names the interval.
void CheckList(const std::vector<double>& values, const char* field, double hi, const char* rule) {
  const std::string name = std::string("ProximalLemkeOptions.") + field;
  if (values.empty()) InvalidArgument(name, "(empty)", "must hold at least one value");
  for (size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    if (!(v > 0 && v <= hi)) InvalidArgument(name + "[" + std::to_string(i) + "]", v, rule);
  }
}

}  // namespace

void ProximalLemkeOptions::Validate() const {
  CheckList(weights, "weights", 1e-2, "must lie in (0, 1e-2]");
  CheckList(zero_tolerances, "zero_tolerances", 1e-3, "must lie in (0, 1e-3]");
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

// Every weight in turn on s_, sq_, each continuing from the last iterate: y <- the inner Lemke's
// answer to LCP(s_ + d I, sq_ - d y), until an iterate passes the caller's check, the iterate
// stops moving (a fixed point of this weight that the check refuses) or max_steps. The accepted
// iterate's message is pass.
bool ProximalLemkeSolver::RunRound(const MatrixRef& M,
                                   const VectorRef& q,
                                   LemkeSolver* inner,
                                   std::string_view pass,
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
      candidate_ = col_scale_.cwiseProduct(y_).cwiseMax(0.0);
      if (internal::OfferCandidate(M, q, candidate_, options_.accept_tolerance, pass, info, z,
                                   best)) {
        return true;
      }
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
  bool trivial = false;
  SolveInfo info =
      internal::StartLinkSolve(SolverId::kProximal, Status::kResidualTooLarge,
                               "proximal Lemke: no iterate passed the check", M, q, z, &trivial);
  if (trivial) return info;
  double best = std::numeric_limits<double>::infinity();
  VectorXd row_scale(n);
  for (const bool equilibrate : {false, true}) {
    s_ = M;
    col_scale_.resize(n);
    internal::EquilibrateByPowersOfTwo(s_.data(), n, equilibrate ? internal::kRuizSweeps : 0,
                                       row_scale.data(), col_scale_.data());
    sq_ = row_scale.cwiseProduct(q);
    const std::string_view pass = equilibrate ? "proximal Lemke: solved on the equilibrated LCP"
                                              : "proximal Lemke: solved on the LCP as given";
    for (auto& inner : inner_) {
      if (RunRound(M, q, inner.get(), pass, &info, z, &best)) return info;
    }
  }
  return info;
}

}  // namespace impactset::lcp
