#include "engine/features.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include "common/error_policy.hpp"
#include "sampling/streams.hpp"

namespace impactset::engine {

MatrixXd SupportDirections(int dimension, int extra) {
  if (dimension < 0) InvalidArgument("dimension", dimension, "must be >= 0");
  if (extra < 0) InvalidArgument("extra directions", extra, "must be >= 0");
  MatrixXd dirs = MatrixXd::Zero(dimension, 2 * dimension + (dimension > 0 ? extra : 0));
  for (int i = 0; i < dimension; ++i) {
    dirs(i, 2 * i) = 1;
    dirs(i, 2 * i + 1) = -1;
  }
  for (int j = 0; dimension > 0 && j < extra; ++j) {
    sampling::UniformStream s(kSupportDirectionSeed, static_cast<std::uint64_t>(j));
    VectorXd g(dimension);
    for (int i = 0; i < dimension; i += 2) {  // Box-Muller: two normals per pair of uniforms
      const double u1 = 1 - s.Next(), u2 = s.Next();  // u1 in (0, 1]: log finite
      const double r = std::sqrt(-2 * std::log(u1)), t = 2 * std::numbers::pi * u2;
      g(i) = r * std::cos(t);
      if (i + 1 < dimension) g(i + 1) = r * std::sin(t);
    }
    const double norm = g.norm();
    // A zero vector has probability zero; keep the direction defined anyway.
    dirs.col(2 * dimension + j) = norm > 0 ? VectorXd(g / norm) : VectorXd(dirs.col(0));
  }
  return dirs;
}

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
  f.support = VectorXd::Constant(directions.cols(), -inf);
  f.subsample = MatrixXd::Constant(d, keep, nan);
  for (Eigen::Index k = 0; k < points.cols(); ++k) {
    if (status[k] != impact::SampleStatus::kTerminated) continue;
    const auto y = points.col(k);
    f.box_min = f.box_min.cwiseMin(y);
    f.box_max = f.box_max.cwiseMax(y);
    f.mean += y;
    f.support = f.support.cwiseMax(directions.transpose() * y);
    if (f.count < keep) f.subsample.col(f.count) = y;
    ++f.count;
  }
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

}  // namespace impactset::engine
