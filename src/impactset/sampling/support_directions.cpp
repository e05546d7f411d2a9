#include <impactset/sampling/support_directions.hpp>

#include <cmath>
#include <numbers>

#include <impactset/common/error_policy.hpp>
#include <impactset/sampling/streams.hpp>

namespace impactset::sampling {

MatrixXd SupportDirections(int dimension, int extra) {
  if (dimension < 0) InvalidArgument("dimension", dimension, "must be >= 0");
  if (extra < 0) InvalidArgument("extra directions", extra, "must be >= 0");
  MatrixXd dirs = MatrixXd::Zero(dimension, 2 * dimension + (dimension > 0 ? extra : 0));
  for (int i = 0; i < dimension; ++i) {
    dirs(i, 2 * i) = 1;
    dirs(i, 2 * i + 1) = -1;
  }
  for (int j = 0; dimension > 0 && j < extra; ++j) {
    UniformStream s(kSupportDirectionSeed, static_cast<std::uint64_t>(j));
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

}  // namespace impactset::sampling
