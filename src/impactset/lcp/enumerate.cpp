#include <impactset/lcp/enumerate.hpp>

#include <Eigen/LU>

#include <impactset/common/error_policy.hpp>
#include <impactset/lcp/problem.hpp>

namespace impactset::lcp {

void EnumerationOptions::Validate() const {
  if (max_size < 1 || max_size > 30) {
    InvalidArgument("EnumerationOptions.max_size", max_size, "must lie in [1, 30]");
  }
  if (!(singular_tolerance > 0 && singular_tolerance <= 1e-3)) {
    InvalidArgument("EnumerationOptions.singular_tolerance", singular_tolerance,
                    "must lie in (0, 1e-3]");
  }
  if (!(accept_tolerance > 0)) {
    InvalidArgument("EnumerationOptions.accept_tolerance", accept_tolerance, "must be > 0");
  }
  if (!(dedupe_tolerance >= 0)) {
    InvalidArgument("EnumerationOptions.dedupe_tolerance", dedupe_tolerance, "must be >= 0");
  }
}

EnumerationResult EnumerateSolutions(const MatrixRef& M,
                                     const VectorRef& q,
                                     const EnumerationOptions& options) {
  options.Validate();
  ValidateProblem(M, q);
  EnumerationResult out;
  const int n = static_cast<int>(q.size());
  if (n > options.max_size) {
    out.status = Status::kTooLarge;
    return out;
  }
  std::vector<int> idx;
  idx.reserve(n);
  MatrixXd a;
  VectorXd rhs, z(n);
  Eigen::FullPivLU<MatrixXd> lu;
  const unsigned long long count = 1ULL << n;
  for (unsigned long long mask = 0; mask < count; ++mask) {
    idx.clear();
    for (int i = 0; i < n; ++i) {
      if (mask >> i & 1ULL) idx.push_back(i);
    }
    const int k = static_cast<int>(idx.size());
    ++out.bases_tried;
    z.setZero();
    if (k > 0) {
      a.resize(k, k);
      rhs.resize(k);
      for (int c = 0; c < k; ++c) {
        rhs(c) = -q(idx[c]);
        for (int r = 0; r < k; ++r) a(r, c) = M(idx[r], idx[c]);
      }
      lu.setThreshold(options.singular_tolerance);
      lu.compute(a);
      if (lu.rank() < k) {
        ++out.singular_bases;
        continue;
      }
      const VectorXd x = lu.solve(rhs);
      for (int c = 0; c < k; ++c) z(idx[c]) = x(c);
    }
    if (!IsSolution(ComputeResidual(M, q, z), options.accept_tolerance)) continue;
    bool duplicate = false;
    for (const VectorXd& s : out.solutions) {
      if ((s - z).cwiseAbs().maxCoeff() <=
          options.dedupe_tolerance * std::max(1.0, s.cwiseAbs().maxCoeff())) {
        duplicate = true;
        break;
      }
    }
    if (!duplicate) out.solutions.push_back(z);
    if (options.stop_at_first) break;
  }
  out.status = out.solutions.empty() ? Status::kNoSolution : Status::kSolved;
  return out;
}

EnumerationSolver::EnumerationSolver(const EnumerationOptions& options) : options_(options) {
  options_.stop_at_first = true;
  options_.Validate();
}

SolveInfo EnumerationSolver::DoSolve(const MatrixRef& M,
                                     const VectorRef& q,
                                     VectorXd* z,
                                     InputCheck /*check*/) {
  const EnumerationResult r = EnumerateSolutions(M, q, options_);
  SolveInfo info;
  info.solver = SolverId::kEnumeration;
  info.attempts = 1;
  info.status = r.status;
  info.pivots = static_cast<int>(std::min<long long>(r.bases_tried, 1 << 30));
  if (r.status == Status::kSolved) {
    *z = r.solutions.front();
    info.message = "enumeration: solution on a non-singular complementary basis";
  } else {
    z->setZero(q.size());
    info.message = r.status == Status::kTooLarge ? "enumeration: n above max_size"
                                                 : "enumeration: no solution on any basis";
  }
  info.residual = ComputeResidual(M, q, *z);
  return info;
}

}  // namespace impactset::lcp
