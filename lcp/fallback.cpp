#include "lcp/fallback.hpp"

#include <string>

#include "lcp/error_policy.hpp"
#include "lcp/problem.hpp"

namespace impactset::lcp {

void FallbackOptions::Validate() const {
  native.Validate();
  native_alt.Validate();
  siconos.Validate();
  enumeration.Validate();
}

void FallbackCounters::Add(const FallbackCounters& o) {
  for (size_t i = 0; i < solved_by.size(); ++i) solved_by[i] += o.solved_by[i];
  failures += o.failures;
  solves += o.solves;
}

FallbackSolver::FallbackSolver(const FallbackOptions& options)
    : options_(options), native_(options.native) {
  options_.Validate();
  if (options_.use_native_alt) native_alt_ = std::make_unique<LemkeSolver>(options_.native_alt);
  if (options_.use_siconos) siconos_ = std::make_unique<SiconosLemkeSolver>(options_.siconos);
  if (options_.use_enumeration) {
    enumeration_ = std::make_unique<EnumerationSolver>(options_.enumeration);
  }
}

SolveInfo FallbackSolver::Solve(const MatrixRef& M, const VectorRef& q, VectorXd* z) {
  ValidateProblem(M, q);
  ++counters_.solves;
  SolveInfo first = native_.Solve(M, q, z);
  if (first.ok()) {
    ++counters_.solved_by[static_cast<int>(SolverId::kNative)];
    return first;
  }
  best_z_ = *z;
  double best = first.residual.Worst();
  Residual best_residual = first.residual;
  int attempts = 1;
  Solver* links[3] = {native_alt_.get(), siconos_.get(), nullptr};
  if (enumeration_ && q.size() <= enumeration_->max_size()) links[2] = enumeration_.get();
  for (Solver* s : links) {
    if (!s) continue;
    ++attempts;
    SolveInfo info = s->Solve(M, q, z);
    info.attempts = attempts;
    if (info.ok()) {
      ++counters_.solved_by[static_cast<int>(info.solver)];
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

std::unique_ptr<Solver> MakeSolver(std::string_view name) {
  if (name == "native") return std::make_unique<LemkeSolver>();
  if (name == "siconos") return std::make_unique<SiconosLemkeSolver>();
  if (name == "enumeration") return std::make_unique<EnumerationSolver>();
  if (name == "chain") return std::make_unique<FallbackSolver>();
  InvalidArgument("lcp solver", std::string(name),
                  "must be one of native, siconos, enumeration, chain");
}

}  // namespace impactset::lcp
