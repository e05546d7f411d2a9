#include <impactset/sets/features.hpp>

#include <limits>
#include <optional>

#include <impactset/common/error_policy.hpp>
#include <impactset/setapprox/support_polytope.hpp>

namespace impactset::sets {

Features ComputeFeatures(const MatrixXd& points,
                         const std::vector<impact::SampleStatus>& status,
                         const MatrixXd& directions,
                         long long keep) {
  if (static_cast<size_t>(points.cols()) != status.size()) {
    InvalidArgument("status size", status.size(), "must equal the number of points");
  }
  if (directions.rows() != points.rows()) {
    InvalidArgument("directions rows", directions.rows(), "must equal the points' dimension");
  }
  if (keep < 0) InvalidArgument("keep", keep, "must be >= 0");
  const Eigen::Index d = points.rows();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Features f;
  f.box_min = VectorXd::Constant(d, inf);
  f.box_max = VectorXd::Constant(d, -inf);
  f.mean = VectorXd::Zero(d);
  std::optional<setapprox::SupportPolytope> support;  // none for zero directions
  if (directions.size() > 0) support.emplace(directions);
  f.subsample = MatrixXd::Constant(d, keep, nan);
  for (Eigen::Index k = 0; k < points.cols(); ++k) {
    if (status[k] != impact::SampleStatus::kTerminated) continue;
    const auto y = points.col(k);
    f.box_min = f.box_min.cwiseMin(y);
    f.box_max = f.box_max.cwiseMax(y);
    f.mean += y;
    if (support) support->Add(y, k);
    if (f.count < keep) f.subsample.col(f.count) = y;
    ++f.count;
  }
  f.support = support ? support->values() : VectorXd(directions.cols());
  if (f.count == 0) {
    f.box_min.setConstant(nan);
    f.box_max.setConstant(nan);
    f.mean.setConstant(nan);
    f.support.setConstant(nan);
  } else {
    f.mean /= static_cast<double>(f.count);
  }
  return f;
}

}  // namespace impactset::sets
