#pragma once
// Per-sample random streams: sample i's numbers are a pure function of (seed, i), never of the
// thread that runs it, so datasets are bit-identical at any thread count or shard split.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

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

/// The ordered p-sequences of the mixed design (Design::kMixed): they reach the ends of a set,
/// where iid caps rarely go. With iid caps every step shares the impulse among the approaching
/// contacts at random, so the outcome averages over many random orderings and concentrates in
/// the set's middle; the extremes (sequential-like outcomes, one contact resolved before another)
/// need the same contacts favoured step after step.
///
/// Sample i draws, from its stream (seed, 2 i): a priority order of the m contacts, a rate r_j
/// per contact (0 with probability kOrderedZeroRate, else U^kOrderedRateExponent) and a switching
/// probability s = U^2 / 2. At each step, with probability s, the order is drawn anew; then the
/// first contact in the order that still approaches takes p = 1 and every other contact its
/// rate. A resolved contact leaves the lead to the next one, so no step is spent on it. The
/// ordered phase lasts at most half the step budget N: from step N/2 on every contact takes its
/// full cap (p = 1), the fastest way to finish, so that on jammed problems (pushing one contact
/// drives another in) an ordered sample finishes within N as often as an iid one. Every p lies
/// in the cube: each sample is an outcome of the law, and the p-sequence it used replays it.
inline constexpr double kOrderedZeroRate = 0.5;
inline constexpr double kOrderedRateExponent = 2;
class OrderedPSource final : public impact::PSource {
 public:
  OrderedPSource(std::uint64_t seed, std::uint64_t sample_index, int contacts, int max_steps)
      : stream_(seed, 2 * sample_index),
        order_(static_cast<size_t>(contacts)),
        rate_(contacts),
        ordered_steps_(max_steps / 2) {
    for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
    Shuffle();
    for (Eigen::Index j = 0; j < rate_.size(); ++j) {
      const double u = stream_.Next(), v = stream_.Next();
      rate_(j) = u < kOrderedZeroRate ? 0.0 : std::pow(v, kOrderedRateExponent);
    }
    const double u = stream_.Next();
    switch_ = 0.5 * u * u;
  }
  /// Without the state: the first contact of the order leads.
  void Next(int step, Eigen::Ref<VectorXd> p) override {
    if (step >= ordered_steps_) {
      p.setOnes();
      return;
    }
    p = rate_;
    p(order_.front()) = 1;
  }
  void NextInState(int step, const impact::StepState& state, Eigen::Ref<VectorXd> p) override {
    if (step >= ordered_steps_) {
      p.setOnes();
      return;
    }
    if (stream_.Next() < switch_) Shuffle();
    p = rate_;
    for (const int i : order_) {
      if (state.Approaching(i)) {
        p(i) = 1;
        return;
      }
    }
  }

 private:
  void Shuffle() {  // Fisher-Yates
    for (size_t i = order_.size(); i > 1; --i) {
      const auto j = std::min(i - 1, static_cast<size_t>(stream_.Next() * static_cast<double>(i)));
      std::swap(order_[i - 1], order_[j]);
    }
  }
  UniformStream stream_;
  std::vector<int> order_;  // priority: the first approaching contact leads
  VectorXd rate_;
  double switch_ = 0;  // per-step probability of a new order
  int ordered_steps_;  // steps of the ordered phase: N / 2
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
