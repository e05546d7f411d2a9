#pragma once
// setapprox's names for the project's Eigen aliases (common/eigen_types.hpp). A point set is a
// d x N matrix, column-major (Eigen's default): column j is point j, so a compact set's .data()
// is the row-major N x d array that Qhull and nanoflann read without a copy.
#include <impactset/common/eigen_types.hpp>

namespace impactset::setapprox {
using Eigen::Index;
using ::impactset::MatrixXd;
using ::impactset::VectorXd;
using PointsRef = ::impactset::MatrixRef;  ///< d x N, one point per column
using PointRef = ::impactset::VectorRef;   ///< one point of R^d
}  // namespace impactset::setapprox
