#include <impactset/sampling/directed_design.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <utility>

#include <impactset/common/error_policy.hpp>
#include <impactset/sampling/streams.hpp>
#include <impactset/sampling/support_directions.hpp>

namespace impactset::sampling {

namespace {

// Salt of the proposals' streams: disjoint from the samples' streams (seed, 2 i) and (seed, 2 i +
// 1) and from the hold-out's seed.
constexpr std::uint64_t kProposalSalt = 0xD12EC7EDULL;
constexpr std::uint64_t kDirectionSalt = 0xD12EC7ED0D125ULL;

double Normal(UniformStream& s) {  // Box-Muller, one normal per call
  const double u1 = 1 - s.Next(), u2 = s.Next();
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
}

double Clamp01(double x) { return std::clamp(x, 0.0, 1.0); }

// u . y summed in coordinate order (one code path: the same y gives the same value everywhere).
double Dot(const MatrixXd& u, Eigen::Index j, const VectorXd& y) {
  double s = 0;
  for (Eigen::Index i = 0; i < y.size(); ++i) s += u(i, j) * y(i);
  return s;
}

}  // namespace

void DirectedOptions::Validate() const {
  if (!(pilot_fraction > 0 && pilot_fraction <= 1)) {
    InvalidArgument("directed.pilot_fraction", pilot_fraction, "must lie in (0, 1]");
  }
  if (extra_directions < 0) {
    InvalidArgument("directed.extra_directions", extra_directions, "must be >= 0");
  }
  if (elites < 1) InvalidArgument("directed.elites", elites, "must be >= 1");
  if (round_directions < 0) {
    InvalidArgument("directed.round_directions", round_directions, "must be >= 0");
  }
  if (proposals_per_direction < 1) {
    InvalidArgument("directed.proposals_per_direction", proposals_per_direction, "must be >= 1");
  }
  if (!(boundary_fraction >= 0 && boundary_fraction < 1)) {
    InvalidArgument("directed.boundary_fraction", boundary_fraction, "must lie in [0, 1)");
  }
}

DirectedSearch::DirectedSearch(const DirectedOptions& options,
                               int contacts,
                               int max_steps,
                               int coordinates,
                               std::uint64_t seed,
                               long long samples)
    : DirectedSearch(options, contacts, max_steps, coordinates, seed, samples, -1) {}

DirectedSearch::DirectedSearch(const DirectedOptions& options,
                               int contacts,
                               int max_steps,
                               int coordinates,
                               std::uint64_t seed,
                               long long samples,
                               long long pilot)
    : options_(options), m_(contacts), n_steps_(max_steps), seed_(seed), samples_(samples) {
  options_.Validate();
  if (contacts < 1) InvalidArgument("contacts", contacts, "must be >= 1");
  if (max_steps < 1) InvalidArgument("max_steps", max_steps, "must be >= 1");
  if (coordinates < 1) InvalidArgument("coordinates", coordinates, "must be >= 1");
  if (samples < 1) InvalidArgument("samples", samples, "must be >= 1");
  if (pilot == -1) {
    pilot_ = std::clamp(
        static_cast<long long>(std::ceil(options_.pilot_fraction * static_cast<double>(samples))),
        1LL, samples);
  } else if (pilot < 1 || pilot > samples) {
    InvalidArgument("pilot", pilot, "must lie in [1, samples = " + std::to_string(samples) + "]");
  } else {
    pilot_ = pilot;
  }
  directions_ = SupportDirections(coordinates, options_.extra_directions);
  const auto J = static_cast<size_t>(directions_.cols());
  elites_.resize(J);
  round_start_.assign(J, -std::numeric_limits<double>::infinity());
  for (int j = 0; j < static_cast<int>(J); ++j) active_.push_back(j);
}

std::pair<long long, long long> DirectedSearch::NextRound() {
  begin_ = end_;
  if (begin_ == 0) {
    end_ = pilot_;
    boundary_ = 0;
    return {begin_, end_};
  }
  DrawRoundDirections();
  const long long directed =
      static_cast<long long>(active_.size()) * options_.proposals_per_direction;
  const auto boundary =
      static_cast<long long>(std::ceil(static_cast<double>(directed) * options_.boundary_fraction /
                                       (1 - options_.boundary_fraction)));
  end_ = std::min(samples_, begin_ + directed + boundary);
  boundary_ = boundary;
  return {begin_, end_};
}

DirectedSearch::Slot DirectedSearch::SlotOf(long long index) const {
  IMPACTSET_ASSERT(index >= begin_ && index < end_);
  if (index < pilot_) return {Kind::kPilot, -1};
  const long long q = index - begin_;
  const auto A = static_cast<long long>(active_.size());
  const long long directed = A * options_.proposals_per_direction;
  if (q >= directed) return {Kind::kBoundary, -1};
  const int j = active_[static_cast<size_t>(q % A)];
  if (ElitesOf(j).empty()) return {Kind::kBoundary, -1};
  return {(q / A) % 2 == 0 ? Kind::kCrossEntropy : Kind::kPattern, j};
}

bool DirectedSearch::Ordered(long long index) const {
  const Slot slot = SlotOf(index);
  return (slot.kind == Kind::kPilot && (index & 1) != 0) || slot.kind == Kind::kBoundary;
}

void DirectedSearch::Proposal(long long index, Eigen::Ref<VectorXd> p, long long* key) const {
  IMPACTSET_ASSERT(p.size() == dimension());
  *key = index;
  const auto i = static_cast<std::uint64_t>(index);
  const Slot slot = SlotOf(index);
  IMPACTSET_ASSERT(!Ordered(index));  // those are chosen from the state, not proposed
  switch (slot.kind) {
    case Kind::kPilot: {  // the mixed design's even samples: the iid design's P
      IidPSource src(seed_, i);
      for (int s = 0; s < n_steps_; ++s) src.Next(s, p.segment(s * m_, m_));
      return;
    }
    case Kind::kBoundary:
      return;
    case Kind::kCrossEntropy:
      *key = CrossEntropy(ElitesOf(slot.direction), i, p);
      return;
    case Kind::kPattern:
      *key = Pattern(ElitesOf(slot.direction), i, p);
      return;
  }
}

long long DirectedSearch::CrossEntropy(const std::vector<Elite>& elites,
                                       std::uint64_t index,
                                       Eigen::Ref<VectorXd> p) const {
  const auto E = static_cast<double>(elites.size());
  VectorXd mean = VectorXd::Zero(p.size()), sq = VectorXd::Zero(p.size());
  for (const Elite& e : elites) mean += e.p;
  mean /= E;
  for (const Elite& e : elites) sq += (e.p - mean).cwiseAbs2();
  UniformStream u(seed_ ^ kProposalSalt, index);
  for (Eigen::Index k = 0; k < p.size(); ++k) {
    const double sd = std::max(std::sqrt(sq(k) / E), kDirectedMinSpread);
    p(k) = Clamp01(mean(k) + sd * Normal(u));
  }
  return elites.front().key;
}

long long DirectedSearch::Pattern(const std::vector<Elite>& elites,
                                  std::uint64_t index,
                                  Eigen::Ref<VectorXd> p) const {
  UniformStream u(seed_ ^ kProposalSalt, index);
  // The best elite half of the time, else any elite.
  const auto pick = u.Next() < 0.5 ? 0 : static_cast<size_t>(u.Next() * elites.size());
  const Elite& from = elites[std::min(pick, elites.size() - 1)];
  p = from.p;
  const int changes = 1 + static_cast<int>(u.Next() * 3);
  for (int c = 0; c < changes; ++c) {
    const auto k = std::min(static_cast<Eigen::Index>(u.Next() * p.size()), p.size() - 1);
    const double kind = u.Next();
    if (kind < 0.25)
      p(k) = 0;
    else if (kind < 0.5)
      p(k) = 1;
    else if (kind < 0.75)
      p(k) = u.Next();
    else
      p(k) = Clamp01(p(k) + kDirectedMinSpread * Normal(u));
  }
  return from.key;
}

const std::vector<DirectedSearch::Elite>& DirectedSearch::ElitesOf(int direction) const {
  const auto J = static_cast<int>(elites_.size());
  return direction < J ? elites_[static_cast<size_t>(direction)]
                       : round_elites_[static_cast<size_t>(direction - J)];
}

// Inserts e into a list sorted best first (ties: the earlier sample first) of at most `size`
// entries; false when e does not make it.
bool DirectedSearch::Offer(std::vector<Elite>* list, size_t size, const Elite& e) {
  if (list->size() == size && !(e.value > list->back().value)) return false;
  auto at =
      std::find_if(list->begin(), list->end(), [&e](const Elite& x) { return x.value < e.value; });
  list->insert(at, e);
  if (list->size() > size) list->pop_back();
  return true;
}

// This round's random directions, and their elites: the best archived samples along each. The
// values of every archived sample along every direction are one matrix product (R x 4096 dot
// products a round: scattered one by one they took a sixth of a directed run).
void DirectedSearch::DrawRoundDirections() {
  const Eigen::Index c = directions_.rows();
  const int R = archive_.empty() ? 0 : options_.round_directions;
  const auto J = static_cast<int>(elites_.size());
  round_directions_.resize(c, R);
  round_elites_.assign(static_cast<size_t>(R), {});
  active_.erase(std::remove_if(active_.begin(), active_.end(), [J](int j) { return j >= J; }),
                active_.end());
  if (R == 0) return;
  UniformStream u(seed_ ^ kDirectionSalt, static_cast<std::uint64_t>(rounds_));
  for (int r = 0; r < R; ++r) {
    for (Eigen::Index i = 0; i < c; ++i) round_directions_(i, r) = Normal(u);
    round_directions_.col(r) /= std::max(round_directions_.col(r).norm(), 1e-300);
  }
  archived_y_.resize(c, static_cast<Eigen::Index>(archive_.size()));
  Eigen::Index k = 0;
  for (const Elite& e : archive_) archived_y_.col(k++) = e.y;
  values_.noalias() = archived_y_.transpose() * round_directions_;  // archive x R
  // The best E along each direction as Offer ranks them (ties: the earlier sample first), by
  // position; an Elite (a copy of P and y) is built only for those.
  const auto E = static_cast<size_t>(options_.elites);
  std::vector<std::pair<double, Eigen::Index>> best;
  best.reserve(E + 1);
  for (int r = 0; r < R; ++r) {
    best.clear();
    for (k = 0; k < values_.rows(); ++k) {
      const double value = values_(k, r);
      if (best.size() == E && !(value > best.back().first)) continue;
      auto at = std::find_if(best.begin(), best.end(),
                             [value](const auto& x) { return x.first < value; });
      best.insert(at, {value, k});
      if (best.size() > E) best.pop_back();
    }
    auto& list = round_elites_[static_cast<size_t>(r)];
    for (const auto& [value, at] : best) {
      const Elite& e = archive_[static_cast<size_t>(at)];
      list.push_back(Elite{value, e.index, e.key, e.p, e.y});
    }
    active_.push_back(J + r);
  }
}

void DirectedSearch::Observe(
    long long index, const VectorXd& y, bool terminated, const VectorXd& p, long long key) {
  IMPACTSET_ASSERT(index >= begin_ && index < end_);
  IMPACTSET_ASSERT(y.size() == directions_.rows() && p.size() == dimension());
  if (!terminated || !y.allFinite()) return;
  const auto E = static_cast<size_t>(options_.elites);
  bool elite = false;
  // An Elite copies P and y: built only for a list the sample enters (most samples enter none).
  auto offer = [&](std::vector<Elite>* list, double value) {
    if (list->size() == E && !(value > list->back().value)) return;
    elite = Offer(list, E, Elite{value, index, key, p, y}) || elite;
  };
  for (Eigen::Index j = 0; j < directions_.cols(); ++j) {
    offer(&elites_[static_cast<size_t>(j)], Dot(directions_, j, y));
  }
  for (Eigen::Index r = 0; r < round_directions_.cols(); ++r) {
    offer(&round_elites_[static_cast<size_t>(r)], Dot(round_directions_, r, y));
  }
  if (!elite) return;
  archive_.push_back(Elite{0, index, key, p, y});
  if (archive_.size() > static_cast<size_t>(kDirectedArchive)) archive_.erase(archive_.begin());
}

double DirectedSearch::Spread() const {
  double spread = 0;
  const Eigen::Index c = directions_.rows();
  for (Eigen::Index i = 0; i < c; ++i) {
    const auto& plus = elites_[static_cast<size_t>(2 * i)];
    const auto& minus = elites_[static_cast<size_t>(2 * i + 1)];
    if (!plus.empty() && !minus.empty()) {
      spread = std::max(spread, plus.front().value + minus.front().value);
    }
  }
  return spread;
}

void DirectedSearch::EndRound() {
  IMPACTSET_ASSERT(end_ > begin_);
  const double tolerance = kDirectedMoveTolerance * Spread();
  const VectorXd h = best_values();
  active_.clear();
  for (Eigen::Index j = 0; j < h.size(); ++j) {
    const auto a = static_cast<size_t>(j);
    if (h(j) > round_start_[a] + tolerance) active_.push_back(static_cast<int>(j));
    round_start_[a] = h(j);
  }
  if (active_.empty()) {  // nothing moved: search every direction again
    for (Eigen::Index j = 0; j < h.size(); ++j) active_.push_back(static_cast<int>(j));
  }
  ++rounds_;
}

VectorXd DirectedSearch::best_values() const {
  VectorXd h(directions_.cols());
  for (Eigen::Index j = 0; j < h.size(); ++j) {
    const auto& list = elites_[static_cast<size_t>(j)];
    h(j) = list.empty() ? -std::numeric_limits<double>::infinity() : list.front().value;
  }
  return h;
}

}  // namespace impactset::sampling
