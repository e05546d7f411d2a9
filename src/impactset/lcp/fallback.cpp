#include <impactset/lcp/fallback.hpp>

#include <string>

#include <impactset/common/error_policy.hpp>
#include <impactset/lcp/problem.hpp>

namespace impactset::lcp {

void FallbackOptions::Validate() const {
  native.Validate();
  for (size_t i = 0; i < native_alt_perturbations.size(); ++i) {
    const double c = native_alt_perturbations[i];
    if (!(c > 0 && c <= 10)) {
      InvalidArgument("FallbackOptions.native_alt_perturbations[" + std::to_string(i) + "]", c,
                      "must lie in (0, 10]");
    }
  }
  siconos.Validate();
  proximal.Validate();
  extended.Validate();
  enumeration.Validate();
}

void FallbackCounters::Add(const FallbackCounters& o) {
  for (size_t i = 0; i < solved_by.size(); ++i) solved_by[i] += o.solved_by[i];
  failures += o.failures;
  solves += o.solves;
  two_part += o.two_part;
}

FallbackSolver::FallbackSolver(const FallbackOptions& options)
    : options_(options), native_(options.native) {
  options_.Validate();
  for (double c : options_.native_alt_perturbations) {
    LemkeOptions o = options_.native;
    o.covering_perturbation = c;
    native_alt_.push_back(std::make_unique<LemkeSolver>(o));
  }
  if (options_.use_siconos) siconos_ = std::make_unique<SiconosLemkeSolver>(options_.siconos);
  if (options_.use_proximal) proximal_ = std::make_unique<ProximalLemkeSolver>(options_.proximal);
  if (options_.use_extended) extended_ = std::make_unique<ExtendedLemkeSolver>(options_.extended);
  if (options_.use_enumeration) {
    enumeration_ = std::make_unique<EnumerationSolver>(options_.enumeration);
  }
  // The chain after the first link, built once: Solve must not allocate per call.
  for (auto& alt : native_alt_) links_.push_back(alt.get());
  if (siconos_) links_.push_back(siconos_.get());
  if (proximal_) links_.push_back(proximal_.get());
  if (extended_) links_.push_back(extended_.get());
  if (enumeration_) links_.push_back(enumeration_.get());
}

void FallbackSolver::Reserve(Eigen::Index n) {
  // Later links often first run deep inside a sampling loop: size them all now.
  native_.Reserve(n);
  for (auto& alt : native_alt_) alt->Reserve(n);
  best_z_.resize(n);
  reserved_n_ = n;
}

SolveInfo FallbackSolver::Run(
    const MatrixRef& M, const VectorRef& q, VectorXd* z, VectorXd* low_part, InputCheck check) {
  if (check == InputCheck::kValidate) ValidateProblem(M, q);
  IMPACTSET_ASSERT(M.rows() == q.size() && M.cols() == q.size() && q.size() > 0);
  if (q.size() != reserved_n_) Reserve(q.size());
  ++counters_.solves;
  SolveInfo first = native_.Solve(M, q, z, InputCheck::kCallerValidated);
  native_answered_ = first.ok();
  if (first.ok()) {
    ++counters_.solved_by[static_cast<int>(SolverId::kNative)];
    return first;
  }
  best_z_ = *z;
  double best = first.residual.Worst();
  Residual best_residual = first.residual;
  int attempts = 1;
  for (Solver* s : links_) {
    if (s == enumeration_.get() && q.size() > enumeration_->max_size()) continue;
    ++attempts;
    SolveInfo info =
        low_part ? s->Solve(M, q, z, low_part, InputCheck::kValidate) : s->Solve(M, q, z);
    info.attempts = attempts;
    if (info.ok()) {
      ++counters_.solved_by[static_cast<int>(info.solver)];
      if (info.low_part) ++counters_.two_part;
      return info;
    }
    if (info.residual.Worst() < best) {
      best = info.residual.Worst();
      best_residual = info.residual;
      best_z_ = *z;
    }
  }
  ++counters_.failures;
  *z = best_z_;
  first.solver = SolverId::kNone;
  first.attempts = attempts;
  first.residual = best_residual;
  first.message = "fallback chain exhausted: no link produced a solution";
  return first;
}

bool FallbackSolver::FinalBasis(std::vector<int>* z_basic) const {
  return native_answered_ && native_.FinalBasis(z_basic);
}

std::unique_ptr<Solver> MakeSolver(SolverKind kind) { return MakeSolver(kind, LemkeOptions{}); }

std::unique_ptr<Solver> MakeSolver(SolverKind kind, const LemkeOptions& native) {
  switch (kind) {
    case SolverKind::kNative:
      return std::make_unique<LemkeSolver>(native);
    case SolverKind::kSiconos:
      return std::make_unique<SiconosLemkeSolver>();
    case SolverKind::kEnumeration:
      return std::make_unique<EnumerationSolver>();
    case SolverKind::kChain:
      break;
  }
  FallbackOptions chain;
  chain.native = native;
  return std::make_unique<FallbackSolver>(chain);
}

std::unique_ptr<Solver> MakeSolver(std::string_view name) {
  return MakeSolver(ParseSolverKind(name));
}

}  // namespace impactset::lcp
