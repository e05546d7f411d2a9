#pragma once
// Sobol designs for Algorithm 1's p-vectors (docs/model.md §6.2, the authors' design
// docs/examples.md §1.7): sample i is one point of a Sobol
// sequence in [0,1]^(m N); step j uses coordinates j m ... j m + m - 1.
#include <cstdint>
#include <memory>

#include <impactset/impact/p_source.hpp>

namespace impactset::sampling {

/// Which points, and how they are randomised.
struct SobolDesign {
  int contacts = 1;  ///< m
  /// N: the design has m N dimensions, at most Boost's table (BOOST_RANDOM_SOBOL_MAX_DIMENSION:
  /// 3,667 with Debian 12's Boost 1.74).
  int max_steps = 1;
  /// Point of sample i = skip + i (leap + 1). The authors: skip = 3^min(N, 20),
  /// leap = ceil(skip^0.25) (AuthorsSkipLeap).
  std::uint64_t skip = 0;
  std::uint64_t leap = 0;
  /// Random digital shift (XOR of each coordinate's bits with a per-dimension value drawn from
  /// the seed): keeps the net's stratification, makes different seeds independent designs and
  /// the estimate unbiased. false = the plain, deterministic sequence (the authors' MATLAB
  /// sobolset, up to the direction numbers).
  bool digital_shift = true;
  std::uint64_t seed = 0;
  void Validate() const;
  /// The authors' skip and leap for this N.
  static std::pair<std::uint64_t, std::uint64_t> AuthorsSkipLeap(int max_steps);
};

/// A reusable generator of design points (one per thread: it owns Boost's Sobol engine).
class SobolGenerator {
 public:
  explicit SobolGenerator(const SobolDesign& design);
  ~SobolGenerator();
  SobolGenerator(const SobolGenerator&) = delete;
  SobolGenerator& operator=(const SobolGenerator&) = delete;
  /// Writes sample i's point (m N coordinates in [0, 1)) into point.
  void Point(std::uint64_t sample_index, Eigen::Ref<VectorXd> point);
  int dimension() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The p-source of one sample: its design point, read m coordinates per step.
class SobolPSource final : public impact::PSource {
 public:
  SobolPSource(SobolGenerator* generator, std::uint64_t sample_index, VectorXd* buffer);
  void Next(int step, Eigen::Ref<VectorXd> p) override;

 private:
  const VectorXd& point_;
};

}  // namespace impactset::sampling
