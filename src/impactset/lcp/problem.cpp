#include <impactset/lcp/problem.hpp>

#include <cmath>
#include <sstream>

#include <impactset/common/error_policy.hpp>

namespace impactset::lcp {

namespace {
std::string Shape(Eigen::Index r, Eigen::Index c) {
  std::ostringstream os;
  os << r << "x" << c;
  return os.str();
}
}  // namespace

void ValidateProblem(const MatrixRef& M, const VectorRef& q) {
  if (q.size() == 0) InvalidArgument("q.size()", 0, "an LCP needs n >= 1 unknowns");
  if (M.rows() != M.cols()) InvalidArgument("M", Shape(M.rows(), M.cols()), "must be square");
  if (M.rows() != q.size()) {
    InvalidArgument("M", Shape(M.rows(), M.cols()),
                    "must be n x n with n = q.size() = " + std::to_string(q.size()));
  }
  // Common case first: x * 0 is 0 for finite x and NaN otherwise, so sums of x * 0 check
  // everything; four independent sums keep the loop pipelined.
  double p0 = 0, p1 = 0, p2 = 0, p3 = 0;
  auto scan = [&](const double* x, Eigen::Index len) {
    Eigen::Index i = 0;
    for (; i + 4 <= len; i += 4) {
      p0 += x[i] * 0.0;
      p1 += x[i + 1] * 0.0;
      p2 += x[i + 2] * 0.0;
      p3 += x[i + 3] * 0.0;
    }
    for (; i < len; ++i) p0 += x[i] * 0.0;
  };
  for (Eigen::Index j = 0; j < M.cols(); ++j) scan(M.col(j).data(), M.rows());
  for (Eigen::Index i = 0; i < q.size(); ++i) p1 += q(i) * 0.0;
  if (p0 + p1 + p2 + p3 == 0.0) return;
  for (Eigen::Index j = 0; j < M.cols(); ++j) {
    for (Eigen::Index i = 0; i < M.rows(); ++i) {
      if (!std::isfinite(M(i, j))) {
        InvalidArgument("M(" + std::to_string(i) + "," + std::to_string(j) + ")", M(i, j),
                        "every entry must be finite");
      }
    }
  }
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    if (!std::isfinite(q(i))) {
      InvalidArgument("q(" + std::to_string(i) + ")", q(i), "every entry must be finite");
    }
  }
}

}  // namespace impactset::lcp
