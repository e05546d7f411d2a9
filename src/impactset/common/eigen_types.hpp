#pragma once
// Eigen aliases used across impactset. All matrices are column-major (Eigen's default), which is
// also the dense layout Siconos and Qhull expect, so .data() can be handed over without copies.
#include <Eigen/Core>

namespace impactset {
using Eigen::MatrixXd;
using Eigen::VectorXd;
using MatrixRef = Eigen::Ref<const Eigen::MatrixXd>;
using VectorRef = Eigen::Ref<const Eigen::VectorXd>;
}  // namespace impactset
