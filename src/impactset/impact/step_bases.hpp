#pragma once
// Which complementary bases solve a problem's step LCPs, learned from a pilot before sampling, so
// that RouthSampler can try them before a Lemke path (docs/performance.md, "Warm starts").
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/lcp/warm_start.hpp>

namespace impactset::impact {

/// For each basis a pilot saw solve a step, and for a sample's first step, the bases that most
/// often solved the step after it, factorised (lcp::KnownBasis). Built once per problem, then
/// read-only: one table serves every thread. It depends only on the pilot's samples, so a run
/// that builds it from the same pilot tries the same bases in every shard and on every replay.
class StepBasisTable {
 public:
  /// The "previous basis" of a sample's first step.
  static constexpr int kFirstStep = -1;
  /// A basis the table does not hold.
  static constexpr int kUnknown = -2;
  /// Successors tried per step, at most. Pilots of the planar examples: the four most frequent
  /// successors solve 78-99 % of the steps, sixteen 94-99 % at twice the tries.
  static constexpr int kMaxTries = 4;
  /// A successor is kept only if it solved at least this share of the steps after its basis
  /// (and at least twice): rarer ones cost a try on many steps to save a path on few.
  static constexpr double kMinShare = 0.05;

  /// Building: the id of that basis (z-basic indices, increasing), added if new.
  int Intern(std::span<const int> basis);
  /// Building: `next` (an id from Intern) solved a step after `previous` (an id or kFirstStep).
  void Record(int previous, int next);
  /// Ends the building: keeps the successors that meet kMinShare, most frequent first, at most
  /// kMaxTries per basis, and factorises them on W (the problem's step matrix).
  void Finish(const MatrixRef& W);

  /// After Finish: no list tries that basis any more.
  void Remove(int id);

  /// The id of that basis, or kUnknown. No allocation.
  int Id(std::span<const int> basis) const;
  /// The ids to try after `previous` (an id, kFirstStep or kUnknown: none), in order.
  std::span<const int> Successors(int previous) const;
  const lcp::KnownBasis& Basis(int id) const { return factors_[static_cast<size_t>(id)]; }
  /// Bases the table can try (those some list holds).
  int tried_bases() const { return tried_; }
  bool empty() const { return tried_ == 0; }

 private:
  static std::uint64_t Hash(std::span<const int> basis);
  std::vector<std::vector<int>> bases_;                 // by id
  std::vector<std::pair<std::uint64_t, int>> by_hash_;  // sorted
  std::map<std::pair<int, int>, long long> counts_;     // (previous, next): building only
  std::vector<std::vector<int>> successors_;            // by previous id + 1
  std::vector<lcp::KnownBasis> factors_;                // by id; factored if some list holds it
  int tried_ = 0;
};

}  // namespace impactset::impact
