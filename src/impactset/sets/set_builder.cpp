// SetBuilder: the set outputs' nets and support polytopes, built from the sample stream.
//
// The work per block is split in two. Prepare (a sampling worker thread, blocks in parallel) maps
// the block to each output's coordinates, tests every point against a snapshot of each net and
// takes the block's own support polytopes. Consume (the sampler's serial sink, blocks in sample
// order) merges the polytopes (exact, O(J d) per block) and offers the net only the points its
// snapshot did not cover. Both halves give bit for bit what one serial pass gives, whatever the
// thread count and whenever a snapshot was taken: support polytopes merge exactly, and a point a
// snapshot covers is within ε of a net point, which the serial pass would also have found.
//
// A point covered by a snapshot point that lies deep inside the support polytope (a ball of
// radius ε around it strictly below every h_j, SupportPolytope::MarkDeepInside, as the merged
// values stood when the marks were made) can never attain a support value, since h only grows:
// its dot products are skipped and it is only counted. The same values and attaining samples.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <impactset/setapprox/bounded_net.hpp>
#include <impactset/setapprox/epsilon_net.hpp>
#include <impactset/setapprox/support_polytope.hpp>
#include <impactset/sets/features.hpp>
#include <impactset/sets/set_builder.hpp>
#include <impactset/sets/set_outputs.hpp>

namespace impactset::sets {

using Eigen::Index;
using setapprox::NetSnapshot;
using Snapshot = std::shared_ptr<const NetSnapshot>;

namespace {

/// A snapshot is retaken once the net has grown by this fraction of the snapshot's size (and by
/// kSnapshotMinGrowth points): points near the newest net points go to the serial stage until
/// then, and retaking costs O(|N| log |N|), so geometric growth keeps the total O(|N| log |N|).
constexpr Index kSnapshotGrowthDivisor = 8;
constexpr Index kSnapshotMinGrowth = 16;
/// Between snapshots, the deep-inside marks are renewed after this many blocks in which the
/// support values moved (O(J d) per net point not yet marked, on the serial stage).
constexpr int kDeepRefreshBlocks = 4;

using DeepMarks = std::shared_ptr<const std::vector<std::uint8_t>>;

// What Prepare reads of a set, taken together under the lock: marks index the snapshot's points.
struct Frozen {
  Snapshot snapshot;  // null until the net has a point
  DeepMarks deep;     // per snapshot point (a prefix at least): nonzero = deep inside
};

MatrixXd SetDirections(Index d) {
  return sampling::SupportDirections(static_cast<int>(d), kSetSupportExtraDirections);
}

// One set (post-impact or reachable) of one output: its net, its support polytope and the
// snapshot that Prepare tests against.
struct NetAndSupport {
  NetAndSupport(Index d, const setapprox::BoundedNetOptions& o)
      : net(d, o), support(SetDirections(d)) {}
  setapprox::BoundedNet net;
  setapprox::SupportPolytope support;
  Frozen frozen;         // guarded by Nets::mu
  int moved_blocks = 0;  // blocks whose merge moved a support value since the marks
  VectorXd first_half;   // h_j over the samples before first_half_end (post-impact sets)
};

// What Prepare computed for one set of one output from one block.
struct PreparedSet {
  MatrixXd own;                       // the points when they are not the block's own matrix
  const MatrixXd* y = nullptr;        // the points to offer, in order
  std::vector<std::int64_t> index;    // each column's sample (-1: skipped, see TestAgainst)
  Snapshot snapshot;                  // what `covered` was tested against (null: nothing tested)
  std::vector<std::uint8_t> covered;  // covered[c] != 0: snapshot covers column c
  std::optional<setapprox::SupportPolytope> support;  // over this block's columns only
  VectorXd first_half;  // post-impact: h_j over the columns before first_half_end (empty: none)
};

// y = C v: v itself for the generalized output (no copy), else the product in *own.
const MatrixXd* Mapped(const OutputMap& output, const MatrixXd& v, MatrixXd* own) {
  if (output.kind == Coordinates::kGeneralized) return &v;
  *own = output.C * v;
  return own;
}

// Columns after the first that equal it bit for bit (every trajectory starts at the same v-):
// their index becomes -1, so the support polytope skips their dot products. @return how many.
std::int64_t MarkRepeatsOfFirst(const MatrixXd& y, std::vector<std::int64_t>* index) {
  std::int64_t repeats = 0;
  for (Index c = 1; c < y.cols(); ++c) {
    if (std::memcmp(y.col(c).data(), y.col(0).data(), sizeof(double) * y.rows()) == 0) {
      (*index)[static_cast<std::size_t>(c)] = -1;
      ++repeats;
    }
  }
  return repeats;
}

// Tests every column against the snapshot (a repeat of column 0, index -1, gets its answer
// without a search) and marks the covered columns whose covering point is deep inside (index -1).
// @return how many columns it marked.
std::int64_t TestCoverage(const Frozen& frozen, PreparedSet* s) {
  s->covered.resize(static_cast<std::size_t>(s->y->cols()));
  const std::vector<std::uint8_t> none;
  const std::vector<std::uint8_t>& deep = frozen.deep ? *frozen.deep : none;
  std::int64_t marked = 0;
  Index hint = -1;  // streams are continuous: the point that covered the last one goes first
  for (Index c = 0; c < s->y->cols(); ++c) {
    const auto k = static_cast<std::size_t>(c);
    if (c > 0 && s->index[k] < 0) {  // a repeat of column 0: the same point
      s->covered[k] = s->covered[0];
      continue;
    }
    s->covered[k] = frozen.snapshot->IsCovered(s->y->col(c), &hint) ? 1 : 0;
    const auto by = static_cast<std::size_t>(hint);
    if (s->covered[k] != 0 && by < deep.size() && deep[by] != 0) {
      s->index[k] = -1;
      ++marked;
    }
  }
  return marked;
}

// The parallel part: the snapshot test of every column and the block's support polytope over
// the columns that can still attain a support value.
void TestAgainst(const NetAndSupport& set, Frozen frozen, PreparedSet* s) {
  s->support.emplace(set.support.directions());
  std::int64_t skipped = MarkRepeatsOfFirst(*s->y, &s->index);  // column 0: least index
  if (frozen.snapshot) {
    skipped += TestCoverage(frozen, s);
    s->snapshot = std::move(frozen.snapshot);
  }
  s->support->AddBatch(*s->y, s->index);
  s->support->CountSkipped(skipped);
}

// The serial part: the points the snapshot did not cover go to the net, in order. @return
// whether a support value grew.
bool Offer(const PreparedSet& s, NetAndSupport* set) {
  if (s.snapshot) {
    set->net.InsertBatch(*s.y, *s.snapshot, s.covered);
  } else {
    set->net.InsertBatch(*s.y);
  }
  if (s.first_half.size() > 0) set->first_half = set->first_half.cwiseMax(s.first_half);
  return set->support.Merge(*s.support);
}

// h_j over the columns whose sample index lies below `end` (a skipped column, index -1, cannot
// attain a value: TestAgainst). A block wholly before `end` has its own polytope's values; only
// the block that straddles `end` needs a pass of its own, with the polytope's own arithmetic so
// that any split into shards gives the same values bit for bit.
VectorXd FirstHalfValues(const PreparedSet& s, long long first, long long last, long long end) {
  if (last <= end) return s.support->values();  // the whole block [first, last)
  setapprox::SupportPolytope half(s.support->directions());
  if (first < end) {
    std::vector<std::int64_t> index = s.index;
    for (std::int64_t& k : index) {
      if (k >= end) k = -1;
    }
    half.AddBatch(*s.y, index);
  }
  return half.values();
}

// Marks (MarkDeepInside) for the snapshot's points: `kept` still holds for the points it covers
// (the same net: h only grows), the others are computed against the merged values.
DeepMarks MarksFor(const NetAndSupport& set, const NetSnapshot& snapshot, const DeepMarks& kept) {
  auto marks = std::make_shared<std::vector<std::uint8_t>>();
  if (kept) *marks = *kept;
  set.support.MarkDeepInside(snapshot.points(), snapshot.epsilon(), marks.get());
  return marks;
}

// Retakes a set's snapshot when its net has grown enough since (or was coarsened), and renews
// the deep-inside marks with it, or every kDeepRefreshBlocks blocks that moved a support value.
void Refresh(NetAndSupport* set, bool moved, std::mutex* mu) {
  const Index size = set->net.size();
  const Snapshot& old = set->frozen.snapshot;  // only this thread writes frozen
  const bool stale = old && !set->net.IsCurrent(*old);
  const Index had = old && !stale ? old->size() : 0;
  set->moved_blocks += moved ? 1 : 0;
  Frozen fresh;
  if (size > 0 &&
      (stale || size - had >= std::max(kSnapshotMinGrowth, had / kSnapshotGrowthDivisor))) {
    fresh.snapshot = set->net.Snapshot();  // outside the lock: O(|N| log |N|)
    fresh.deep = MarksFor(*set, *fresh.snapshot, stale ? nullptr : set->frozen.deep);
  } else if (old && set->moved_blocks >= kDeepRefreshBlocks) {
    fresh.snapshot = old;
    fresh.deep = MarksFor(*set, *old, set->frozen.deep);
  } else {
    return;
  }
  set->moved_blocks = 0;
  std::lock_guard<std::mutex> lock(*mu);
  set->frozen = std::move(fresh);
}

NetResult NetOf(const setapprox::BoundedNet& net) {
  NetResult a;
  a.points = net.net().points();
  a.epsilon = net.covering_radius();
  a.separation = net.separation();
  a.coarsenings = net.coarsenings();
  a.offered = net.offered();
  a.construction = NetConstruction::kGreedyInSampleOrder;
  return a;
}

SupportResult SupportOf(const setapprox::SupportPolytope& p) {
  SupportResult s;
  s.directions = p.directions();
  s.values = p.values();
  s.attaining_samples = p.attaining_samples();
  s.attaining_points = p.attaining_points();
  s.count = p.count();
  return s;
}

setapprox::SupportPolytope PolytopeOf(const SupportResult& s) {
  return setapprox::SupportPolytope(s.directions, s.values, s.attaining_samples, s.attaining_points,
                                    s.count);
}

// Samples [begin, begin + count) of `a`: v+ and status, what the post-impact sets take.
sampling::SampleArrays Columns(const sampling::SampleArrays& a, long long begin, long long count) {
  sampling::SampleArrays out;
  out.v_plus = a.v_plus.middleCols(begin, count);
  out.status.assign(a.status.begin() + begin, a.status.begin() + begin + count);
  return out;
}

}  // namespace

struct SetBuilder::Prepared : sampling::PreparedBlock {
  std::vector<PreparedSet> post, reach;  // one per output (empty: nothing of that kind)
  long long samples = 0;                 // samples of the block, any status (post-impact part)
};

struct SetBuilder::Nets {
  std::vector<NetAndSupport> post, reach;  // one per output, in the outputs' order
  long long samples = 0;  // samples offered to the post-impact nets, any status (serial stage)
  std::mutex mu;          // guards the snapshots (read by Prepare)

  Frozen FrozenOf(const NetAndSupport& set) {
    std::lock_guard<std::mutex> lock(mu);
    return set.frozen;
  }
};

SetBuilder::SetBuilder(const impact::ImpactProblem& problem, const SetOptions& options)
    : SetBuilder(problem, options, nullptr) {}

SetBuilder::SetBuilder(const impact::ImpactProblem& problem,
                       const SetOptions& options,
                       const sampling::SamplerOptions& run)
    : SetBuilder(problem, options, &run) {}

SetBuilder::SetBuilder(const impact::ImpactProblem& problem,
                       const SetOptions& options,
                       const sampling::SamplerOptions* run)
    : problem_(problem), options_(options) {
  options_.Validate();
  if (run) run->Validate();
  outputs_ = options_.outputs.empty() ? DefaultOutputs(problem) : options_.outputs;
  ValidateOutputs(outputs_, problem.n());
  epsilons_ = options_.epsilon || !run ? OutputEpsilons(problem, outputs_, options_.epsilon)
                                       : PilotEpsilons(problem, outputs_, *run);
  first_half_end_ = run ? run->samples / 2 : 0;
  MakeNets();
}

void SetBuilder::MakeNets() {
  nets_ = std::make_unique<Nets>();
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    const setapprox::BoundedNetOptions net{.epsilon = epsilons_[i],
                                           .max_points = options_.max_net_points};
    nets_->post.emplace_back(outputs_[i].dimension(), net);
    nets_->reach.emplace_back(outputs_[i].dimension(), net);
    if (first_half_end_ > 0) {
      const Index J = nets_->post.back().support.directions().cols();
      nets_->post.back().first_half =
          VectorXd::Constant(J, -std::numeric_limits<double>::infinity());
    }
  }
}

SetBuilder::~SetBuilder() = default;

void SetBuilder::PreparePost(const MatrixXd& v_plus,
                             const std::vector<impact::SampleStatus>& status,
                             long long first,
                             bool snapshots,
                             Prepared* out) const {
  std::vector<std::int64_t> kept;  // the terminated samples: the post-impact set's points
  for (std::size_t k = 0; k < status.size(); ++k) {
    if (status[k] == impact::SampleStatus::kTerminated)
      kept.push_back(static_cast<std::int64_t>(k));
  }
  MatrixXd v(v_plus.rows(), static_cast<Index>(kept.size()));
  for (std::size_t c = 0; c < kept.size(); ++c) v.col(static_cast<Index>(c)) = v_plus.col(kept[c]);
  for (std::int64_t& k : kept) k += first;
  out->samples = static_cast<long long>(status.size());
  out->post.resize(outputs_.size());
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    PreparedSet& s = out->post[i];
    s.own = outputs_[i].kind == Coordinates::kGeneralized ? v : MatrixXd(outputs_[i].C * v);
    s.y = &s.own;
    s.index = kept;
    const NetAndSupport& set = nets_->post[i];
    TestAgainst(set, snapshots ? nets_->FrozenOf(set) : Frozen{}, &s);
    if (first < first_half_end_) {
      s.first_half = FirstHalfValues(s, first, first + out->samples, first_half_end_);
    }
  }
}

void SetBuilder::PrepareReachable(const MatrixXd& velocities,
                                  const std::vector<std::int64_t>& offsets,
                                  long long first,
                                  const std::vector<impact::SampleStatus>* status,
                                  bool snapshots,
                                  Prepared* out) const {
  if (!options_.reachable) return;
  std::vector<std::int64_t> index(static_cast<std::size_t>(velocities.cols()));
  std::vector<Index> kept;  // columns of samples that are not kNonPhysical, when some is
  const bool drop = status && std::find(status->begin(), status->end(),
                                        impact::SampleStatus::kNonPhysical) != status->end();
  std::size_t sample = 0;  // offsets[sample] <= c < offsets[sample + 1]
  for (Index c = 0; c < velocities.cols(); ++c) {
    while (sample + 1 < offsets.size() && offsets[sample + 1] <= c) ++sample;
    const std::size_t own = offsets.empty() ? 0 : sample;
    index[static_cast<std::size_t>(c)] = first + static_cast<long long>(own);
    if (drop && (*status)[own] != impact::SampleStatus::kNonPhysical) kept.push_back(c);
  }
  MatrixXd kept_velocities;
  if (drop) {
    kept_velocities = velocities(Eigen::all, kept);
    std::vector<std::int64_t> kept_index;
    for (Index c : kept) kept_index.push_back(index[static_cast<std::size_t>(c)]);
    index = std::move(kept_index);
  }
  const MatrixXd& v = drop ? kept_velocities : velocities;
  out->reach.resize(outputs_.size());
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    PreparedSet& s = out->reach[i];
    // y may point at v: the generalized output maps without a copy.
    s.y = Mapped(outputs_[i], v, &s.own);
    if (drop && s.y == &kept_velocities) {
      s.own = kept_velocities;
      s.y = &s.own;
    }
    s.index = index;
    const NetAndSupport& set = nets_->reach[i];
    TestAgainst(set, snapshots ? nets_->FrozenOf(set) : Frozen{}, &s);
  }
}

void SetBuilder::PrepareBlock(const sampling::SampleBlock& b, bool snapshots, Prepared* out) const {
  PreparePost(b.samples.v_plus, b.samples.status, b.first, snapshots, out);
  PrepareReachable(b.samples.trajectories, b.samples.trajectory_offsets, b.first, &b.samples.status,
                   snapshots, out);
}

void SetBuilder::Apply(const Prepared& p) {
  nets_->samples += p.samples;
  // Each set's net and polytope depend on its own points in sample order only, so the sets take
  // their points concurrently (the run's idle threads join in), each in order.
  const std::size_t posts = p.post.size();
  sampling::ParallelForInSink(static_cast<long long>(posts + p.reach.size()), [&](long long k) {
    const auto i = static_cast<std::size_t>(k);
    const PreparedSet& prepared = i < posts ? p.post[i] : p.reach[i - posts];
    NetAndSupport* set = i < posts ? &nets_->post[i] : &nets_->reach[i - posts];
    Refresh(set, Offer(prepared, set), &nets_->mu);
  });
}

sampling::StreamOptions SetBuilder::Stream() {
  sampling::StreamOptions s;
  s.prepare = [this](sampling::SampleBlock& b) {
    auto p = std::make_shared<Prepared>();
    PrepareBlock(b, /*snapshots=*/true, p.get());
    b.prepared = std::move(p);
  };
  s.sink = [this](const sampling::SampleBlock& b) { Consume(b); };
  s.trajectories = options_.reachable;
  return s;
}

void SetBuilder::ConsumePostImpact(const MatrixXd& v_plus,
                                   const std::vector<impact::SampleStatus>& status,
                                   long long first) {
  Prepared p;
  PreparePost(v_plus, status, first, false, &p);
  Apply(p);
}

long long SetBuilder::Polish(const sampling::SamplerOptions& run, long long budget) {
  std::vector<std::vector<long long>> starts(outputs_.size());
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    for (const std::int64_t k : nets_->post[i].support.attaining_samples()) {
      if (k >= 0 && k < run.samples) starts[i].push_back(k);
    }
  }
  return Polish(run, budget, starts);
}

long long SetBuilder::Polish(const sampling::SamplerOptions& run,
                             long long budget,
                             const std::vector<std::vector<long long>>& starts) {
  IMPACTSET_ASSERT(starts.size() == outputs_.size());
  const auto outputs = static_cast<long long>(outputs_.size());
  std::vector<sampling::SampleArrays> halves[2];
  long long first = run.samples, cut = run.samples;
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    const long long share = budget / outputs + (static_cast<long long>(i) < budget % outputs);
    if (share < 1 || starts[i].empty()) continue;
    const sampling::PolishResult r =
        sampling::PolishExtremes(problem_, run, outputs_[i].C, starts[i], first, share);
    first += share;
    const long long h = share / 2;
    halves[0].push_back(Columns(r.samples, 0, h));
    halves[1].push_back(Columns(r.samples, h, share - h));
    cut += h;
  }
  if (first == run.samples) return 0;
  // The cut: every sample before it counts as the "first half" of the extent statement.
  for (NetAndSupport& set : nets_->post) set.first_half = set.support.values();
  first_half_end_ = cut;
  const long long samples = nets_->samples;
  long long at = run.samples;
  for (const auto& half : halves) {
    for (const sampling::SampleArrays& a : half) {
      ConsumePostImpact(a.v_plus, a.status, at);
      at += a.count();
    }
  }
  nets_->samples = samples;  // not the run's samples: Lemma 1's K leaves them out
  return first - run.samples;
}

void SetBuilder::ConsumeReachable(const MatrixXd& velocities,
                                  const std::vector<std::int64_t>& offsets,
                                  long long first,
                                  const std::vector<impact::SampleStatus>* status) {
  Prepared p;
  PrepareReachable(velocities, offsets, first, status, false, &p);
  Apply(p);
}

void SetBuilder::Consume(const sampling::SampleBlock& b) {
  // Set by Stream()'s prepare; a block prepared for another sink is prepared again here.
  if (const auto* p = dynamic_cast<const Prepared*>(b.prepared.get())) {
    Apply(*p);
    return;
  }
  Prepared p;
  PrepareBlock(b, /*snapshots=*/false, &p);
  Apply(p);
}

std::vector<PointSet> SetBuilder::Sets(int threads) const {
  std::vector<PointSet> sets;
  auto add = [&](SetKind kind, const std::string& output, const NetAndSupport& set) {
    PointSet s;
    s.set = kind;
    s.output = output;
    s.net = NetOf(set.net);
    s.support = SupportOf(set.support);
    if (kind == SetKind::kPostImpact && first_half_end_ > 0) {
      s.support.first_half_values = set.first_half;
      s.support.first_half_end = first_half_end_;
    }
    sets.push_back(std::move(s));
  };
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    add(SetKind::kPostImpact, outputs_[i].name, nets_->post[i]);
  }
  for (std::size_t i = 0; options_.reachable && i < outputs_.size(); ++i) {
    add(SetKind::kReachable, outputs_[i].name, nets_->reach[i]);
  }
  AddHulls(options_, &sets, threads);
  return sets;
}

std::vector<PointSet> SetBuilder::Finish(const sampling::SamplerOptions& run) const {
  std::vector<PointSet> sets = Sets(run.threads);
  AddCoverage(problem_, outputs_, epsilons_, run, options_, nets_->samples, &sets);
  return sets;
}

SupportResult MergeSupport(const SupportResult& a, const SupportResult& b) {
  setapprox::SupportPolytope p = PolytopeOf(a);
  p.Merge(PolytopeOf(b));
  SupportResult out = SupportOf(p);
  // The first half of one run, split over shards: the union of each shard's part. Kept only
  // when both name the same run's half.
  if (a.first_half_end > 0 && a.first_half_end == b.first_half_end &&
      a.first_half_values.size() == b.first_half_values.size()) {
    out.first_half_values = a.first_half_values.cwiseMax(b.first_half_values);
    out.first_half_end = a.first_half_end;
  }
  return out;
}

}  // namespace impactset::sets
