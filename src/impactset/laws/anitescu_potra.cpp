#include <impactset/laws/anitescu_potra.hpp>

#include <algorithm>
#include <optional>
#include <string>

#include <impactset/common/error_policy.hpp>
#include <impactset/impact/impact_lcps.hpp>
#include <impactset/lcp/residual.hpp>

namespace impactset::laws {

void AnitescuPotraAllOptions::Validate() const {
  enumeration.Validate();
  if (!(distinct_tolerance > 0 && distinct_tolerance < 1)) {
    InvalidArgument("AnitescuPotraAllOptions.distinct_tolerance", distinct_tolerance,
                    "must lie in (0, 1)");
  }
}

namespace {

void RequireVelocity(const impact::ImpactProblem& problem, const VectorRef& v) {
  if (v.size() != problem.n()) {
    InvalidArgument("v.size()", v.size(), "must equal n = " + std::to_string(problem.n()));
  }
}

// Indices of the active contacts (all when mask is null). @throws on a mask of the wrong size.
std::vector<int> ActiveContacts(const impact::ImpactProblem& problem,
                                const std::vector<bool>* active) {
  std::vector<int> idx;
  if (active && static_cast<int>(active->size()) != problem.m()) {
    InvalidArgument("active.size()", active->size(),
                    "must equal the number of contacts m = " + std::to_string(problem.m()));
  }
  for (int i = 0; i < problem.m(); ++i) {
    if (!active || (*active)[i]) idx.push_back(i);
  }
  return idx;
}

// An outcome with zero impulses at velocity v_plus (sized for the full problem).
AnitescuPotraOutcome ZeroOutcome(const impact::ImpactProblem& full, const VectorRef& v_plus) {
  AnitescuPotraOutcome o;
  const int m = full.m(), k = full.k();
  o.v_plus = v_plus;
  o.lambda_n = VectorXd::Zero(m);
  o.lambda_d = VectorXd::Zero(m * k);
  o.gamma = VectorXd::Zero(k > 0 ? m : 0);
  o.contact_velocity = full.ContactJacobian() * o.v_plus;
  return o;
}

// Scatters the solution z of `solved` (whose contacts are full's `contacts`) into an outcome of
// the full problem: v_plus = v + M^-1 J^T (lambda_n, lambda_D) (eq. 31a).
AnitescuPotraOutcome MakeOutcome(const impact::ImpactProblem& full,
                                 const impact::ImpactProblem& solved,
                                 const std::vector<int>& contacts,
                                 const VectorRef& v,
                                 const VectorXd& z) {
  const impact::LcpLayout L = impact::AnitescuPotraLayout(solved);
  const int k = full.k();
  AnitescuPotraOutcome o = ZeroOutcome(full, v);
  o.v_plus = v + solved.MinvJt() * z.segment(L.lambda_n(), L.impulses());
  for (int a = 0; a < static_cast<int>(contacts.size()); ++a) {
    const int i = contacts[a];
    o.lambda_n(i) = z(L.lambda_n() + a);
    if (k > 0) {
      o.lambda_d.segment(i * k, k) = z.segment(L.lambda_d() + a * k, k);
      o.gamma(i) = z(L.gamma() + a);
    }
  }
  o.contact_velocity = full.ContactJacobian() * o.v_plus;
  return o;
}

}  // namespace

impact::ImpactProblem ActiveSubProblem(const impact::ImpactProblem& problem,
                                       const std::vector<bool>& active) {
  const std::vector<int> idx = ActiveContacts(problem, &active);
  if (idx.empty()) InvalidArgument("active", "all false", "must select at least one contact");
  const int ma = static_cast<int>(idx.size()), k = problem.k(), n = problem.n();
  MatrixXd Jn(ma, n), D(ma * k, n);
  VectorXd mu(ma);
  for (int a = 0; a < ma; ++a) {
    Jn.row(a) = problem.Jn().row(idx[a]);
    if (k > 0) D.middleRows(a * k, k) = problem.D().middleRows(idx[a] * k, k);
    mu(a) = problem.mu()(idx[a]);
  }
  return impact::ImpactProblem(problem.M(), std::move(Jn), std::move(D), std::move(mu),
                               problem.v_minus(), k);
}

namespace {

// No active contact, no impact: nothing to solve.
AnitescuPotraOutcome NoImpact(const impact::ImpactProblem& problem, const VectorRef& v) {
  AnitescuPotraOutcome o = ZeroOutcome(problem, v);
  o.info.status = lcp::Status::kSolved;
  o.info.message = "no active contact: no impact";
  return o;
}

// The problem whose LCP is solved: the whole one, or (built into *sub) its active contacts.
const impact::ImpactProblem& ProblemToSolve(const impact::ImpactProblem& problem,
                                            const std::vector<int>& contacts,
                                            const std::vector<bool>* active,
                                            std::optional<impact::ImpactProblem>* sub) {
  if (static_cast<int>(contacts.size()) < problem.m())
    sub->emplace(ActiveSubProblem(problem, *active));
  return *sub ? **sub : problem;
}

}  // namespace

AnitescuPotraOutcome SolveAnitescuPotra(const impact::ImpactProblem& problem,
                                        const VectorRef& v,
                                        lcp::Solver* solver,
                                        const std::vector<bool>* active) {
  if (!solver) InvalidArgument("solver", "nullptr", "an lcp::Solver is required");
  RequireVelocity(problem, v);
  const std::vector<int> contacts = ActiveContacts(problem, active);
  if (contacts.empty()) return NoImpact(problem, v);
  std::optional<impact::ImpactProblem> sub;
  const impact::ImpactProblem& solved = ProblemToSolve(problem, contacts, active, &sub);
  const MatrixXd W = impact::AnitescuPotraMatrix(solved);
  const VectorXd w = impact::AnitescuPotraVector(solved, v);
  VectorXd z;
  const lcp::SolveInfo info = solver->Solve(W, w, &z);
  AnitescuPotraOutcome o = MakeOutcome(problem, solved, contacts, v, z);
  o.info = info;
  return o;
}

AnitescuPotraSet AllAnitescuPotraOutcomes(const impact::ImpactProblem& problem,
                                          const VectorRef& v,
                                          const AnitescuPotraAllOptions& options,
                                          const std::vector<bool>* active) {
  options.Validate();
  RequireVelocity(problem, v);
  const std::vector<int> contacts = ActiveContacts(problem, active);
  AnitescuPotraSet out;
  if (contacts.empty()) {
    out.outcomes.push_back(NoImpact(problem, v));
    out.status = lcp::Status::kSolved;
    return out;
  }
  std::optional<impact::ImpactProblem> sub;
  const impact::ImpactProblem& solved = ProblemToSolve(problem, contacts, active, &sub);
  const MatrixXd W = impact::AnitescuPotraMatrix(solved);
  const VectorXd w = impact::AnitescuPotraVector(solved, v);
  lcp::EnumerationOptions eo = options.enumeration;
  eo.stop_at_first = false;
  const lcp::EnumerationResult er = lcp::EnumerateSolutions(W, w, eo);
  out.status = er.status;
  out.bases_tried = er.bases_tried;
  out.lcp_solutions = static_cast<int>(er.solutions.size());
  const double vnorm = v.cwiseAbs().maxCoeff();
  for (const VectorXd& z : er.solutions) {
    AnitescuPotraOutcome o = MakeOutcome(problem, solved, contacts, v, z);
    // Equal v_plus <=> equal J (v_plus - v): Delta v = M^-1 J^T Delta lambda and
    // Delta lambda^T J M^-1 J^T Delta lambda = 0 forces J^T Delta lambda = 0.
    const bool duplicate =
        std::any_of(out.outcomes.begin(), out.outcomes.end(), [&](const AnitescuPotraOutcome& u) {
          const double s =
              std::max({vnorm, o.v_plus.cwiseAbs().maxCoeff(), u.v_plus.cwiseAbs().maxCoeff()});
          return (o.v_plus - u.v_plus).cwiseAbs().maxCoeff() <= options.distinct_tolerance * s;
        });
    if (duplicate) continue;
    o.info.status = lcp::Status::kSolved;
    o.info.solver = lcp::SolverId::kEnumeration;
    o.info.attempts = 1;
    o.info.residual = lcp::ComputeResidual(W, w, z);
    o.info.message = "enumeration: solution on a non-singular complementary basis";
    out.outcomes.push_back(std::move(o));
  }
  return out;
}

}  // namespace impactset::laws
