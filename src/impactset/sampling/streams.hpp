#pragma once
// Per-sample random streams: sample i's numbers are a pure function of (seed, i), never of the
// thread that runs it, so datasets are bit-identical at any thread count or shard split.
#include <cstdint>

#include <impactset/impact/p_source.hpp>

namespace impactset::sampling {

/// SplitMix64's finaliser (Steele, Lea & Flood 2014): a bijective 64-bit mixer. Applied to a
/// counter it is a counter-based generator that passes BigCrush, with O(1) seeding, which is what
/// a per-sample stream needs (an mt19937_64 would cost 312 words of set-up per sample).
constexpr std::uint64_t Mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// The uniform stream of one sample: draw j is Mix64(key + j) mapped to [0, 1) with 53 bits,
/// key = Mix64(seed ^ Mix64(sample_index)).
class UniformStream {
 public:
  UniformStream(std::uint64_t seed, std::uint64_t sample_index)
      : key_(Mix64(seed ^ Mix64(sample_index))) {}
  double Next() { return static_cast<double>(Mix64(key_ + counter_++) >> 11) * 0x1.0p-53; }
  std::uint64_t NextBits() { return Mix64(key_ + counter_++); }

 private:
  std::uint64_t key_;
  std::uint64_t counter_ = 0;
};

/// iid uniform p-vectors (Algorithm 1) from sample i's stream (seed, 2 i).
class IidPSource final : public impact::PSource {
 public:
  IidPSource(std::uint64_t seed, std::uint64_t sample_index) : stream_(seed, 2 * sample_index) {}
  void Next(int /*step*/, Eigen::Ref<VectorXd> p) override {
    for (Eigen::Index j = 0; j < p.size(); ++j) p(j) = stream_.Next();
  }

 private:
  UniformStream stream_;
};

}  // namespace impactset::sampling

namespace impactset::sampling {

/// Sample i's choices inside Algorithm 1 (Selection::kRandom), from stream (seed, 2 i + 1):
/// independent of its p-vectors, so switching the p design leaves the choices alone.
class SampleChoices final : public impact::UniformSource {
 public:
  SampleChoices(std::uint64_t seed, std::uint64_t sample_index)
      : stream_(seed, 2 * sample_index + 1) {}
  double NextUniform() override { return stream_.Next(); }

 private:
  UniformStream stream_;
};

}  // namespace impactset::sampling

namespace impactset::sampling {

/// The p-vectors of one whole p-sequence P (m N entries, which must outlive the source): step s
/// reads P[s m, s m + m).
class PSequenceSource final : public impact::PSource {
 public:
  explicit PSequenceSource(const VectorXd& p_sequence) : p_(p_sequence) {}
  void Next(int step, Eigen::Ref<VectorXd> p) override {
    p = p_.segment(static_cast<Eigen::Index>(step) * p.size(), p.size());
  }

 private:
  const VectorXd& p_;
};

}  // namespace impactset::sampling
