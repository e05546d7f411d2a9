#include <impactset/setapprox/bounded_net.hpp>

#include <cmath>
#include <string>

#include <impactset/setapprox/internal/check.hpp>

namespace impactset::setapprox {

void BoundedNetOptions::Validate() const {
  if (!(std::isfinite(epsilon) && epsilon > 0)) {
    internal::InvalidArgument("epsilon", epsilon, "must be > 0 and finite");
  }
  if (max_points < 1) internal::InvalidArgument("max_points", max_points, "must be >= 1");
}

BoundedNet::BoundedNet(Index dimension, const BoundedNetOptions& options)
    : options_((options.Validate(), options)),
      net_(dimension, EpsilonNetOptions{.epsilon = options.epsilon}),
      covering_(options.epsilon) {}

void BoundedNet::Insert(const PointRef& point) { Count(net_.Insert(point)); }

void BoundedNet::Count(bool joined) {
  ++offered_;
  if (joined && net_.size() > options_.max_points) Coarsen();
}

void BoundedNet::InsertBatch(const PointsRef& points) {
  for (Index k = 0; k < points.cols(); ++k) Insert(points.col(k));
}

void BoundedNet::InsertBatch(const PointsRef& points,
                             const NetSnapshot& snapshot,
                             std::span<const std::uint8_t> covered) {
  if (static_cast<Index>(covered.size()) != points.cols()) {
    internal::InvalidArgument("covered.size()", covered.size(),
                              "must equal the number of columns " + std::to_string(points.cols()));
  }
  internal::RequireRows(points, net_.dimension(), "the net's");
  internal::RequireFinite(points, "points");  // once for the batch, before anything is offered
  for (Index k = 0; k < points.cols();) {
    if (covered[static_cast<std::size_t>(k)] == 0) {
      Count(net_.InsertNotCoveredBy(points.col(k++), snapshot));
      continue;
    }
    Index end = k;  // a run of covered columns: counted at once while the snapshot is current
    while (end < points.cols() && covered[static_cast<std::size_t>(end)] != 0) ++end;
    if (net_.CountCoveredBy(snapshot, end - k)) {
      offered_ += end - k;
      k = end;
      continue;
    }
    for (; k < end; ++k) Insert(points.col(k));  // a stale snapshot: as Insert
  }
}

void BoundedNet::Coarsen() {
  while (net_.size() > options_.max_points) {
    const MatrixXd points = net_.points();
    const double s = 2 * net_.epsilon();
    EpsilonNet thinner(points.rows(), EpsilonNetOptions{.epsilon = s});
    thinner.InsertBatch(points);  // net points in their insertion order: deterministic
    net_ = std::move(thinner);
    covering_ += s;
    ++coarsenings_;
  }
}

}  // namespace impactset::setapprox
