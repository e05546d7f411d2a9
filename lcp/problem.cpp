#include "lcp/problem.hpp"

#include <cmath>
#include <sstream>

#include "lcp/error_policy.hpp"

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
