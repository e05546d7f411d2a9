#include <impactset/impact/step_bases.hpp>

#include <algorithm>

#include <impactset/common/error_policy.hpp>

namespace impactset::impact {

std::uint64_t StepBasisTable::Hash(std::span<const int> basis) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a over the indices
  for (const int i : basis) {
    h ^= static_cast<std::uint64_t>(i) + 1;
    h *= 1099511628211ULL;
  }
  return h;
}

int StepBasisTable::Id(std::span<const int> basis) const {
  const std::uint64_t h = Hash(basis);
  auto it = std::lower_bound(by_hash_.begin(), by_hash_.end(), std::make_pair(h, -1));
  for (; it != by_hash_.end() && it->first == h; ++it) {
    const std::vector<int>& b = bases_[static_cast<size_t>(it->second)];
    if (std::equal(b.begin(), b.end(), basis.begin(), basis.end())) return it->second;
  }
  return kUnknown;
}

int StepBasisTable::Intern(std::span<const int> basis) {
  const int known = Id(basis);
  if (known != kUnknown) return known;
  const int id = static_cast<int>(bases_.size());
  bases_.emplace_back(basis.begin(), basis.end());
  const auto entry = std::make_pair(Hash(basis), id);
  by_hash_.insert(std::upper_bound(by_hash_.begin(), by_hash_.end(), entry), entry);
  return id;
}

void StepBasisTable::Record(int previous, int next) {
  IMPACTSET_ASSERT(previous >= kFirstStep && next >= 0);
  ++counts_[{previous, next}];
}

void StepBasisTable::Finish(const MatrixRef& W) {
  successors_.assign(bases_.size() + 1, {});
  factors_.assign(bases_.size(), {});
  // counts_ is ordered by previous: one pass per previous basis.
  for (auto it = counts_.begin(); it != counts_.end();) {
    const int previous = it->first.first;
    long long total = 0;
    std::vector<std::pair<long long, int>> next;  // (-count, id): most frequent, then lowest id
    for (; it != counts_.end() && it->first.first == previous; ++it) {
      total += it->second;
      next.emplace_back(-it->second, it->first.second);
    }
    std::sort(next.begin(), next.end());
    std::vector<int>& list = successors_[static_cast<size_t>(previous + 1)];
    for (const auto& [minus_count, id] : next) {
      const long long c = -minus_count;
      if (static_cast<int>(list.size()) == kMaxTries || c < 2 ||
          static_cast<double>(c) < kMinShare * static_cast<double>(total)) {
        break;
      }
      lcp::KnownBasis& f = factors_[static_cast<size_t>(id)];
      if (f.empty() && !f.Factor(W, bases_[static_cast<size_t>(id)])) continue;
      list.push_back(id);
    }
  }
  counts_.clear();
  tried_ = static_cast<int>(
      std::count_if(factors_.begin(), factors_.end(), [](const auto& f) { return !f.empty(); }));
}

void StepBasisTable::Remove(int id) {
  IMPACTSET_ASSERT(id >= 0 && static_cast<size_t>(id) < factors_.size());
  for (std::vector<int>& list : successors_) std::erase(list, id);
  if (!factors_[static_cast<size_t>(id)].empty()) --tried_;
  factors_[static_cast<size_t>(id)].Clear();
}

std::span<const int> StepBasisTable::Successors(int previous) const {
  if (previous < kFirstStep || successors_.empty()) return {};
  return successors_[static_cast<size_t>(previous + 1)];
}

}  // namespace impactset::impact
