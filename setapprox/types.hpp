#pragma once
// Eigen aliases of setapprox. A point set is a d x N matrix, column-major (Eigen's default):
// column j is point j, so a compact set's .data() is the row-major N x d array that Qhull and
// nanoflann read without a copy.
#include <Eigen/Core>

namespace impactset::setapprox {
using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using PointsRef = Eigen::Ref<const Eigen::MatrixXd>;  ///< d x N, one point per column
using PointRef = Eigen::Ref<const Eigen::VectorXd>;   ///< one point of R^d
}  // namespace impactset::setapprox
