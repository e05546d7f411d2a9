#include <impactset/setapprox/min_norm_point.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <Eigen/QR>

#include <impactset/setapprox/internal/check.hpp>

namespace impactset::setapprox {

using internal::InvalidArgument;
using internal::Shape;

void MinNormPointOptions::Validate() const {
  if (!(tolerance > 0 && tolerance <= 1e-3)) {
    InvalidArgument("MinNormPointOptions::tolerance", tolerance, "must lie in (0, 1e-3]");
  }
  if (!(weight_tolerance > 0 && weight_tolerance <= 1e-3)) {
    InvalidArgument("MinNormPointOptions::weight_tolerance", weight_tolerance,
                    "must lie in (0, 1e-3]");
  }
  if (max_iterations < 1) {
    InvalidArgument("MinNormPointOptions::max_iterations", max_iterations, "must be >= 1");
  }
}

namespace {

/// Minimizer of ||sum_i alpha_i p_{S_i}|| over the affine hull of the corral (sum alpha = 1):
/// with base s0 and D = [p_{S_i} - s0], solve min ||s0 + D beta|| by a rank-revealing QR.
VectorXd AffineMinimizer(const MatrixXd& p, const std::vector<Index>& corral) {
  const Index k = static_cast<Index>(corral.size());
  VectorXd alpha(k);
  if (k == 1) {
    alpha(0) = 1;
    return alpha;
  }
  const VectorXd s0 = p.col(corral[0]);
  MatrixXd d(p.rows(), k - 1);
  for (Index i = 1; i < k; ++i) d.col(i - 1) = p.col(corral[static_cast<std::size_t>(i)]) - s0;
  const VectorXd beta = d.completeOrthogonalDecomposition().solve(-s0);
  alpha(0) = 1 - beta.sum();
  alpha.tail(k - 1) = beta;
  return alpha;
}

VectorXd Combine(const MatrixXd& p, const std::vector<Index>& corral, const VectorXd& w) {
  VectorXd x = VectorXd::Zero(p.rows());
  for (std::size_t i = 0; i < corral.size(); ++i) x += w(static_cast<Index>(i)) * p.col(corral[i]);
  return x;
}

// Moves the weights w towards alpha until the first weight reaches zero and drops the vertices
// whose weight did. true: roundoff stalled it (no weight reached zero, or all did).
bool DropVertices(const MatrixXd& p,
                  const VectorXd& alpha,
                  double weight_tolerance,
                  std::vector<Index>* corral,
                  VectorXd* w,
                  VectorXd* x) {
  double theta = 1;
  for (Index i = 0; i < alpha.size(); ++i) {
    if (alpha(i) <= weight_tolerance && (*w)(i)-alpha(i) > 0) {
      theta = std::min(theta, (*w)(i) / ((*w)(i)-alpha(i)));
    }
  }
  *w = theta * alpha + (1 - theta) * *w;
  std::vector<Index> kept;
  VectorXd kept_w(w->size());
  Index n_kept = 0;
  for (Index i = 0; i < w->size(); ++i) {
    if ((*w)(i) > weight_tolerance) {
      kept.push_back((*corral)[static_cast<std::size_t>(i)]);
      kept_w(n_kept++) = (*w)(i);
    }
  }
  bool stalled = false;
  if (kept.empty() || (kept.size() == corral->size())) {
    stalled = true;  // roundoff: no weight reached zero, or all did
    if (kept.empty()) {
      kept = {(*corral)[0]};
      kept_w(0) = 1;
      n_kept = 1;
    }
  }
  *corral = kept;
  *w = kept_w.head(n_kept) / kept_w.head(n_kept).sum();
  *x = Combine(p, *corral, *w);
  return stalled;
}

// Minor cycles: move towards the affine minimizer of the corral, dropping vertices whose
// weight reaches zero, until that minimizer lies inside the corral's simplex. true: stalled.
bool MinorCycles(const MatrixXd& p,
                 const MinNormPointOptions& options,
                 std::vector<Index>* corral,
                 VectorXd* w,
                 VectorXd* x,
                 int* iterations) {
  while (true) {
    const VectorXd alpha = AffineMinimizer(p, *corral);
    if ((alpha.array() > options.weight_tolerance).all()) {
      *w = alpha;
      *x = Combine(p, *corral, *w);
      return false;
    }
    if (++*iterations >= options.max_iterations) return false;
    if (DropVertices(p, alpha, options.weight_tolerance, corral, w, x)) return true;
  }
}

}  // namespace

MinNormPointResult MinNormPoint(const PointsRef& vertices,
                                const PointRef& target,
                                const MinNormPointOptions& options) {
  options.Validate();
  if (vertices.cols() < 1) {
    InvalidArgument("vertices", Shape(vertices.rows(), vertices.cols()),
                    "needs at least one column");
  }
  if (target.size() != vertices.rows()) {
    InvalidArgument("target.size()", target.size(),
                    "must equal vertices.rows() = " + std::to_string(vertices.rows()));
  }
  internal::RequireFinite(vertices, "vertices");
  internal::RequireFinite(target, "target");

  // Shift the target to the origin: nearest point of conv(p_j) to 0.
  const MatrixXd p = vertices.colwise() - target;
  const VectorXd norms2 = p.colwise().squaredNorm().transpose();
  Index j0 = 0;
  norms2.minCoeff(&j0);
  std::vector<Index> corral = {j0};
  VectorXd w = VectorXd::Ones(1);
  VectorXd x = p.col(j0);

  MinNormPointResult out;
  out.status = MinNormPointStatus::kIterationLimit;
  int iterations = 0;
  while (iterations < options.max_iterations) {
    ++iterations;
    // Major cycle: the vertex most opposed to x.
    const double xx = x.squaredNorm();
    if (xx == 0) {
      out.status = MinNormPointStatus::kConverged;
      break;
    }
    const VectorXd dots = p.transpose() * x;
    Index j = 0;
    const double min_dot = dots.minCoeff(&j);
    double scale = norms2(j);
    for (Index s : corral) scale = std::max(scale, norms2(s));
    if (xx - min_dot <= options.tolerance * scale) {
      out.status = MinNormPointStatus::kConverged;
      break;
    }
    if (std::find(corral.begin(), corral.end(), j) != corral.end()) {
      out.status = MinNormPointStatus::kStalled;
      break;
    }
    corral.push_back(j);
    w.conservativeResize(w.size() + 1);
    w(w.size() - 1) = 0;

    const bool stalled = MinorCycles(p, options, &corral, &w, &x, &iterations);
    // Wolfe's iterates strictly decrease ||x|| in exact arithmetic; no decrease means roundoff
    // has taken over (e.g. the new vertex was dropped again at once).
    if (iterations >= options.max_iterations) break;  // status stays kIterationLimit
    if (stalled || !(x.squaredNorm() < xx)) {
      out.status = MinNormPointStatus::kStalled;
      break;
    }
  }

  out.iterations = iterations;
  out.point = x + target;
  out.distance = x.norm();
  out.lower_bound = 0;
  if (out.distance > 0) {
    out.lower_bound = std::max(0.0, (p.transpose() * x).minCoeff() / out.distance);
  }
  out.support = corral;
  out.weights = w;
  return out;
}

}  // namespace impactset::setapprox
