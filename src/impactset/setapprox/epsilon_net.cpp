#include <impactset/setapprox/epsilon_net.hpp>

#include <atomic>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include <impactset/setapprox/internal/cell_cache.hpp>
#include <impactset/setapprox/internal/check.hpp>
#include <impactset/setapprox/internal/kd_tree.hpp>

namespace impactset::setapprox {

using internal::InvalidArgument;

void EpsilonNetOptions::Validate() const {
  if (!(epsilon > 0) || !std::isfinite(epsilon)) {
    InvalidArgument("EpsilonNetOptions::epsilon", epsilon, "must be > 0 and finite");
  }
  if (norm != NetNorm::kEuclidean) {
    InvalidArgument("EpsilonNetOptions::norm", static_cast<int>(norm),
                    "only NetNorm::kEuclidean is implemented");
  }
}

namespace {

std::uint64_t NewNetId() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// Whether x is within sqrt(r2) of one of the tree's points (coords: dim doubles per point),
// decided by SquaredDistance; threshold = SearchThreshold(r2). *by: the point found. What
// nanoflann's findNeighbors does, minus its heap allocation of the per-search distance vector
// (a dynamic-dimension tree allocates one per search): this thread's scratch is reused.
template <class Tree>
bool AnyWithin(const Tree& tree,
               const double* x,
               const double* coords,
               Index dim,
               double r2,
               double threshold,
               std::uint32_t* by) {
  if (tree.root_node == nullptr || tree.size(tree) == 0) return false;  // an empty tree or level
  internal::AnyWithinResult result(r2, threshold, x, coords, dim);
  thread_local std::vector<double> dists;
  dists.assign(static_cast<std::size_t>(dim), 0.0);
  const double start = tree.computeInitialDistances(tree, x, dists);
  tree.searchLevel(result, x, tree.root_node, start, dists, 1.0f);  // 1: exact search (eps 0)
  if (result.found()) *by = result.index();
  return result.found();
}

}  // namespace

struct NetSnapshot::Impl {
  Impl(MatrixXd p, double eps, double eps_sq, std::uint64_t id)
      : points(std::move(p)),
        epsilon(eps),
        epsilon_sq(eps_sq),
        threshold(internal::SearchThreshold(eps_sq)),
        net_id(id),
        cells(points.rows(), eps, points.cols()),
        cloud(points),
        tree(static_cast<int>(points.rows()),
             cloud,
             nanoflann::KDTreeSingleIndexAdaptorParams(internal::kLeafSize)) {}
  MatrixXd points;  ///< d x S, the net's first S points
  double epsilon, epsilon_sq;
  double threshold;  ///< SearchThreshold(epsilon_sq)
  std::uint64_t net_id;
  internal::CellCache cells;    ///< proposes a covering point before the tree is searched
  internal::ColumnCloud cloud;  ///< views points; the tree holds a reference to it
  internal::StaticTree tree;

  /// Whether snapshot point k (any index; out of range: no) lies within ε of x.
  bool Covers(const double* x, Index k) const {
    return k >= 0 && k < points.cols() &&
           internal::SquaredDistance(x, points.col(k).data(), points.rows()) <= epsilon_sq;
  }
};

struct EpsilonNet::Impl {
  Impl(Index d, const EpsilonNetOptions& o)
      : id(NewNetId()),
        dim(d),
        options(o),
        epsilon_sq(o.epsilon * o.epsilon),
        threshold(internal::SearchThreshold(epsilon_sq)),
        cloud{&coords, static_cast<std::size_t>(d), 0} {
    ResetTree();
  }

  std::uint64_t id;  ///< what a snapshot of this net records
  Index dim;
  EpsilonNetOptions options;
  double epsilon_sq;
  double threshold;            ///< SearchThreshold(epsilon_sq)
  std::vector<double> coords;  ///< net points, dim doubles each, in insertion order
  std::vector<std::int64_t> sources;
  std::int64_t last = -1;  ///< the net point that covered or joined at the previous offer
  std::int64_t offered = 0;
  /// Null, or the snapshot of the first frozen->size() net points that Freeze kept: its static
  /// tree is the index of those points, and `tree` holds only the later ones.
  std::shared_ptr<const NetSnapshot> frozen;
  internal::GrowingCloud cloud;  ///< the points after the frozen ones; the tree holds a reference
  std::unique_ptr<internal::DynamicTree> tree;

  std::int64_t Count() const { return static_cast<std::int64_t>(coords.size()) / dim; }
  std::int64_t FrozenCount() const { return frozen ? frozen->size() : 0; }

  // An empty dynamic index for the points from cloud.first on.
  void ResetTree() {
    tree = std::make_unique<internal::DynamicTree>(
        static_cast<int>(dim), cloud,
        nanoflann::KDTreeSingleIndexAdaptorParams(internal::kLeafSize));
  }

  // Streams are continuous (trajectories) or concentrated (post-impact sets), so the net point
  // that covered the previous offer usually covers this one: checking it first skips most k-d
  // tree searches. The answer depends only on the offered sequence, so nets stay deterministic.
  // With first > 0 the caller knows (a snapshot of them said so, by the same sum) that none of
  // the first `first` net points covers x: only the trees holding later points are searched,
  // which skips the largest trees. Returns whether x joined the net.
  bool Offer(const double* x, std::int64_t first = 0) {
    const std::int64_t position = offered++;
    if (last >= first &&
        internal::SquaredDistance(x, coords.data() + last * dim, dim) <= epsilon_sq) {
      return false;
    }
    std::uint32_t by = 0;
    if (Covered(x, &by, first)) {
      last = by;
      return false;
    }
    Join(x, position);
    return true;
  }

  // Whether a net point numbered `first` or later lies within ε of x; *by: such a point. The
  // frozen points first (one static tree), then the later ones, largest trees first: they hold
  // most net points, so a covered point exits soonest. nanoflann's dynamic index (the
  // logarithmic method) keeps 2^b points in tree b when bit b of its point count is set: those
  // numbered from the count with bits 0..b cleared. Trees wholly below `first` are skipped.
  bool Covered(const double* x, std::uint32_t* by, std::int64_t first = 0) const {
    const std::int64_t base = FrozenCount();
    if (first < base) {
      const NetSnapshot::Impl& f = *frozen->impl_;
      if (AnyWithin(f.tree, x, f.points.data(), dim, epsilon_sq, threshold, by)) return true;
    }
    const auto& indices = tree->getAllIndices();
    const auto count = static_cast<std::uint64_t>(Count() - base);
    const double* later = coords.data() + base * dim;
    for (std::size_t b = indices.size(); b-- > 0;) {
      const std::uint64_t size = indices[b].vAcc.size();
      if (size == 0) continue;
      IMPACTSET_ASSERT(size == std::uint64_t{1} << b && (count >> b & 1) != 0);
      const std::uint64_t start =
          static_cast<std::uint64_t>(base) + (count & ~((std::uint64_t{2} << b) - 1));
      if (start + size <= static_cast<std::uint64_t>(first)) continue;
      if (AnyWithin(indices[b], x, later, dim, epsilon_sq, threshold, by)) {
        *by += static_cast<std::uint32_t>(base);
        return true;
      }
    }
    return false;
  }

  // x becomes a net point (offer number `position`).
  void Join(const double* x, std::int64_t position) {
    const std::size_t id = coords.size() / static_cast<std::size_t>(dim);
    IMPACTSET_ASSERT(id < std::numeric_limits<std::uint32_t>::max());
    coords.insert(coords.end(), x, x + dim);
    sources.push_back(position);
    const auto local = static_cast<std::uint32_t>(id - static_cast<std::size_t>(FrozenCount()));
    tree->addPoints(local, local);
    last = static_cast<std::int64_t>(id);
  }

  NetNeighbor Nearest(const double* x) const {
    NetNeighbor out;
    if (coords.empty()) {
      out.distance = std::numeric_limits<double>::infinity();
      return out;
    }
    const nanoflann::SearchParams params;
    std::uint32_t index = 0;
    double dist_sq = std::numeric_limits<double>::infinity();
    if (frozen) {
      nanoflann::KNNResultSet<double, std::uint32_t> result(1);
      result.init(&index, &dist_sq);
      frozen->impl_->tree.findNeighbors(result, x, params);
    }
    std::uint32_t later_index = 0;
    double later_sq = std::numeric_limits<double>::infinity();
    nanoflann::KNNResultSet<double, std::uint32_t> result(1);
    result.init(&later_index, &later_sq);
    const auto& indices = tree->getAllIndices();  // largest first: the bound tightens early
    for (auto it = indices.rbegin(); it != indices.rend(); ++it) {
      if (it->root_node != nullptr) it->findNeighbors(result, x, params);
    }
    if (later_sq < dist_sq) {
      index = later_index + static_cast<std::uint32_t>(FrozenCount());
      dist_sq = later_sq;
    }
    out.index = static_cast<Index>(index);
    out.distance = std::sqrt(dist_sq);
    return out;
  }

  void CheckPoint(const PointRef& point) const {
    if (point.size() != dim) {
      InvalidArgument("point.size()", point.size(),
                      "must equal the net's dimension " + std::to_string(dim));
    }
    internal::RequireFinite(point, "point");
  }
  void CheckPoints(const PointsRef& points) const {
    internal::RequireRows(points, dim, "the net's");
    internal::RequireFinite(points, "points");
  }
};

EpsilonNet::EpsilonNet(Index dimension, const EpsilonNetOptions& options) {
  options.Validate();
  if (dimension < 1) InvalidArgument("dimension", dimension, "must be >= 1");
  impl_ = std::make_unique<Impl>(dimension, options);
}

EpsilonNet::~EpsilonNet() = default;
EpsilonNet::EpsilonNet(EpsilonNet&&) noexcept = default;
EpsilonNet& EpsilonNet::operator=(EpsilonNet&&) noexcept = default;

bool EpsilonNet::Insert(const PointRef& point) {
  impl_->CheckPoint(point);
  return impl_->Offer(point.data());
}

Index EpsilonNet::InsertBatch(const PointsRef& points) {
  impl_->CheckPoints(points);
  Index joined = 0;
  for (Index j = 0; j < points.cols(); ++j) joined += impl_->Offer(points.col(j).data()) ? 1 : 0;
  return joined;
}

double EpsilonNet::DistanceToNet(const PointRef& point) const { return Nearest(point).distance; }

VectorXd EpsilonNet::DistancesToNet(const PointsRef& points) const {
  impl_->CheckPoints(points);
  VectorXd out(points.cols());
  for (Index j = 0; j < points.cols(); ++j) out(j) = impl_->Nearest(points.col(j).data()).distance;
  return out;
}

NetNeighbor EpsilonNet::Nearest(const PointRef& point) const {
  impl_->CheckPoint(point);
  return impl_->Nearest(point.data());
}

bool EpsilonNet::IsCovered(const PointRef& point) const {
  impl_->CheckPoint(point);
  std::uint32_t by = 0;
  return impl_->Covered(point.data(), &by);
}

bool EpsilonNet::InsertCoveredBy(const PointRef& point, const NetSnapshot& snapshot) {
  if (!IsSourceOf(snapshot)) return Insert(point);
  impl_->CheckPoint(point);
  ++impl_->offered;
  return false;
}

bool EpsilonNet::InsertNotCoveredBy(const PointRef& point, const NetSnapshot& snapshot) {
  if (!IsSourceOf(snapshot)) return Insert(point);
  impl_->CheckPoint(point);
  return impl_->Offer(point.data(), snapshot.size());
}

bool EpsilonNet::CountCoveredBy(const NetSnapshot& snapshot, std::int64_t n) {
  if (n < 0) InvalidArgument("n", n, "must be >= 0");
  if (!IsSourceOf(snapshot)) return false;
  impl_->offered += n;
  return true;
}

std::shared_ptr<const NetSnapshot> EpsilonNet::Snapshot() const {
  auto impl = std::make_unique<NetSnapshot::Impl>(points(), impl_->options.epsilon,
                                                  impl_->epsilon_sq, impl_->id);
  return std::shared_ptr<const NetSnapshot>(new NetSnapshot(std::move(impl)));
}

std::shared_ptr<const NetSnapshot> EpsilonNet::Freeze() {
  std::shared_ptr<const NetSnapshot> snapshot = Snapshot();
  impl_->frozen = snapshot;
  impl_->cloud.first = static_cast<std::size_t>(size());
  impl_->ResetTree();  // empty: every point is in the snapshot's tree
  return snapshot;
}

bool EpsilonNet::IsSourceOf(const NetSnapshot& snapshot) const {
  return snapshot.net_id() == impl_->id;
}

NetSnapshot::NetSnapshot(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NetSnapshot::~NetSnapshot() = default;

bool NetSnapshot::IsCovered(const PointRef& x, Index* hint) const {
  const Impl& s = *impl_;
  const Index d = s.points.rows();
  if (x.size() != d) {
    InvalidArgument("x.size()", x.size(),
                    "must equal the snapshot's dimension " + std::to_string(d));
  }
  if (hint && s.Covers(x.data(), *hint)) return true;
  internal::CellCache::Cell cell;
  const bool located = s.cells.Locate(x.data(), d, &cell);
  if (located) {
    const Index k = s.cells.Candidate(cell);
    if (s.Covers(x.data(), k)) {
      if (hint) *hint = k;
      return true;
    }
  }
  std::uint32_t by = 0;
  if (!AnyWithin(s.tree, x.data(), s.points.data(), d, s.epsilon_sq, s.threshold, &by)) {
    return false;
  }
  if (located) s.cells.Remember(cell, by);
  if (hint) *hint = static_cast<Index>(by);
  return true;
}

Index NetSnapshot::dimension() const { return impl_->points.rows(); }
double NetSnapshot::epsilon() const { return impl_->epsilon; }
Index NetSnapshot::size() const { return impl_->points.cols(); }
const MatrixXd& NetSnapshot::points() const { return impl_->points; }
std::uint64_t NetSnapshot::net_id() const { return impl_->net_id; }

Index EpsilonNet::dimension() const { return impl_->dim; }
double EpsilonNet::epsilon() const { return impl_->options.epsilon; }
Index EpsilonNet::size() const { return impl_->Count(); }
std::int64_t EpsilonNet::offered() const { return impl_->offered; }
MatrixXd EpsilonNet::points() const {
  return Eigen::Map<const MatrixXd>(impl_->coords.data(), impl_->dim, size());
}
const std::vector<std::int64_t>& EpsilonNet::source_indices() const { return impl_->sources; }

EpsilonNet BuildEpsilonNet(const PointsRef& points, const EpsilonNetOptions& options) {
  EpsilonNet net(points.rows(), options);
  net.InsertBatch(points);
  return net;
}

}  // namespace impactset::setapprox
