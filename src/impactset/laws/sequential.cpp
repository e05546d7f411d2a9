#include <impactset/laws/sequential.hpp>

#include <algorithm>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>

#include <impactset/common/error_policy.hpp>
#include <impactset/laws/anitescu_potra.hpp>
#include <impactset/lcp/fallback.hpp>

namespace impactset::laws {

void SequentialOptions::Validate() const {
  if (max_impacts < 1)
    InvalidArgument("SequentialOptions.max_impacts", max_impacts, "must be >= 1");
  if (!(termination_tolerance >= 0)) {
    InvalidArgument("SequentialOptions.termination_tolerance", termination_tolerance,
                    "must be >= 0");
  }
  if (max_permuted_contacts < 1 || max_permuted_contacts > 8) {
    InvalidArgument("SequentialOptions.max_permuted_contacts", max_permuted_contacts,
                    "must lie in [1, 8]");
  }
}

namespace {

void RequirePermutation(const std::vector<int>& ordering, int m) {
  std::vector<int> sorted = ordering;
  std::sort(sorted.begin(), sorted.end());
  bool ok = static_cast<int>(sorted.size()) == m;
  for (int i = 0; ok && i < m; ++i) ok = sorted[i] == i;
  if (!ok) {
    std::ostringstream os;  // (not string operator+: GCC 12 warns falsely, -Wrestrict)
    os << '[';
    for (size_t i = 0; i < ordering.size(); ++i) os << (i ? " " : "") << ordering[i];
    os << ']';
    InvalidArgument("ordering", os.str(), "must be a permutation of 0.." + std::to_string(m - 1));
  }
}

// The 1-contact sub-problems, built once per problem (each factors M again).
std::vector<impact::ImpactProblem> SingleContactProblems(const impact::ImpactProblem& problem) {
  std::vector<impact::ImpactProblem> singles;
  singles.reserve(problem.m());
  for (int i = 0; i < problem.m(); ++i) {
    std::vector<bool> active(problem.m(), false);
    active[i] = true;
    singles.push_back(ActiveSubProblem(problem, active));
  }
  return singles;
}

SequentialOutcome Resolve(const impact::ImpactProblem& problem,
                          const std::vector<impact::ImpactProblem>& singles,
                          const std::vector<int>& ordering,
                          lcp::Solver* solver,
                          const SequentialOptions& options) {
  SequentialOutcome out;
  out.ordering = ordering;
  VectorXd v = problem.v_minus();
  if (options.keep_trajectory) out.trajectory.push_back(v);
  const int m = problem.m();
  auto colliding = [&](const VectorXd& u) {
    return (problem.Jn() * u).minCoeff() < -options.termination_tolerance;
  };
  out.status = SequenceStatus::kTerminated;
  while (colliding(v)) {
    if (out.single_impacts >= options.max_impacts) {
      out.status = SequenceStatus::kImpactCap;
      break;
    }
    const int c = ordering[out.single_impacts % m];
    // One single-contact Anitescu-Potra impact (eq. 31 with only contact c), whether or not c
    // is colliding now: the authors' staged loop does the same (docs/examples.md §1.9).
    const AnitescuPotraOutcome o = SolveAnitescuPotra(singles[c], v, solver);
    ++out.single_impacts;
    out.worst_residual = std::max(out.worst_residual, o.info.residual.Worst());
    if (!o.info.ok()) {
      out.status = SequenceStatus::kLcpFailure;
      break;
    }
    v = o.v_plus;
    if (options.keep_trajectory) out.trajectory.push_back(v);
  }
  out.v_plus = v;
  out.contact_velocity = problem.ContactJacobian() * v;
  const double ke0 = problem.KineticEnergy(problem.v_minus());
  out.energy_ratio = ke0 > 0 ? problem.KineticEnergy(v) / ke0 : 1.0;
  return out;
}

}  // namespace

SequentialOutcome ResolveSequentially(const impact::ImpactProblem& problem,
                                      const std::vector<int>& ordering,
                                      lcp::Solver* solver,
                                      const SequentialOptions& options) {
  options.Validate();
  RequirePermutation(ordering, problem.m());
  std::unique_ptr<lcp::FallbackSolver> own;
  if (!solver) {
    own = std::make_unique<lcp::FallbackSolver>();
    solver = own.get();
  }
  return Resolve(problem, SingleContactProblems(problem), ordering, solver, options);
}

std::vector<SequentialOutcome> SequentialOutcomes(const impact::ImpactProblem& problem,
                                                  lcp::Solver* solver,
                                                  const SequentialOptions& options) {
  options.Validate();
  std::unique_ptr<lcp::FallbackSolver> own;
  if (!solver) {
    own = std::make_unique<lcp::FallbackSolver>();
    solver = own.get();
  }
  const int m = problem.m();
  const std::vector<impact::ImpactProblem> singles = SingleContactProblems(problem);
  std::vector<std::vector<int>> orderings;
  for (int start = 0; start < m; ++start) {
    std::vector<int> o(m);
    for (int j = 0; j < m; ++j) o[j] = (start + j) % m;
    orderings.push_back(std::move(o));
  }
  if (options.all_orderings && m <= options.max_permuted_contacts) {
    std::vector<int> p(m);
    std::iota(p.begin(), p.end(), 0);
    do {
      if (std::find(orderings.begin(), orderings.begin() + m, p) == orderings.begin() + m) {
        orderings.push_back(p);
      }
    } while (std::next_permutation(p.begin(), p.end()));
  }
  std::vector<SequentialOutcome> outcomes;
  outcomes.reserve(orderings.size());
  for (const auto& o : orderings) outcomes.push_back(Resolve(problem, singles, o, solver, options));
  return outcomes;
}

}  // namespace impactset::laws
