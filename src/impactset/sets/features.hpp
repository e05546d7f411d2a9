#pragma once
// Fixed-size learning features of a sampled post-impact set (`impactset batch`): the same shapes
// for every state, so (state -> features) pairs stack into arrays.
#include <cstdint>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/impact/algorithm1.hpp>
#include <impactset/sampling/support_directions.hpp>

namespace impactset::sets {

/// The features of the terminated samples among `points` (d x K, one column per sample).
struct Features {
  long long count = 0;  ///< terminated samples
  VectorXd box_min;     ///< d: componentwise min (NaN when count = 0)
  VectorXd box_max;     ///< d: componentwise max
  VectorXd mean;        ///< d: summed in sample order
  VectorXd support;     ///< J: h(d_j) = max over samples of d_j . y (setapprox::SupportPolytope)
  /// d x keep: the first `keep` terminated samples in sample order (an iid subsample under the
  /// iid design, since sample order is independent of the values); NaN columns past count.
  MatrixXd subsample;
};

/// @throws std::invalid_argument if sizes disagree or keep < 0.
Features ComputeFeatures(const MatrixXd& points,
                         const std::vector<impact::SampleStatus>& status,
                         const MatrixXd& directions,
                         long long keep);

}  // namespace impactset::sets
