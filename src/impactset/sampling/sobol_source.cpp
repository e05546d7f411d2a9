#include <impactset/sampling/sobol_source.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <boost/random/sobol.hpp>

#include <impactset/common/error_policy.hpp>
#include <impactset/sampling/streams.hpp>

namespace impactset::sampling {

void SobolDesign::Validate() const {
  if (contacts < 1) InvalidArgument("SobolDesign.contacts", contacts, "must be >= 1");
  if (max_steps < 1) InvalidArgument("SobolDesign.max_steps", max_steps, "must be >= 1");
  const long long dim = static_cast<long long>(contacts) * max_steps;
  constexpr long long kMax = BOOST_RANDOM_SOBOL_MAX_DIMENSION;
  if (dim > kMax) {
    InvalidArgument("Sobol dimension m*N", dim,
                    "must be at most " + std::to_string(kMax) + " (Boost's direction numbers)");
  }
}

std::pair<std::uint64_t, std::uint64_t> SobolDesign::AuthorsSkipLeap(int max_steps) {
  std::uint64_t skip = 1;
  for (int i = 0; i < std::min(max_steps, 20); ++i) skip *= 3;
  const auto leap =
      static_cast<std::uint64_t>(std::ceil(std::pow(static_cast<double>(skip), 0.25)));
  return {skip, leap};
}

struct SobolGenerator::Impl {
  explicit Impl(const SobolDesign& d)
      : design(d), engine(static_cast<std::size_t>(d.contacts * d.max_steps)) {
    shift.assign(engine.dimension(), 0);
    if (d.digital_shift) {
      UniformStream s(d.seed, ~0ULL);  // sample streams use 2 i and 2 i + 1 < 2^64 - 1
      for (auto& x : shift) x = s.NextBits();
    }
  }
  SobolDesign design;
  boost::random::sobol engine;
  std::vector<std::uint64_t> shift;
};

SobolGenerator::SobolGenerator(const SobolDesign& design) {
  design.Validate();
  impl_ = std::make_unique<Impl>(design);
}

SobolGenerator::~SobolGenerator() = default;

int SobolGenerator::dimension() const { return static_cast<int>(impl_->engine.dimension()); }

void SobolGenerator::Point(std::uint64_t i, Eigen::Ref<VectorXd> point) {
  Impl& s = *impl_;
  IMPACTSET_ASSERT(point.size() == dimension());
  // Point indices count from the origin (MATLAB's sobolset convention); Boost's engine skips the
  // origin, so point k >= 1 is Boost's vector k - 1.
  const std::uint64_t index = s.design.skip + i * (s.design.leap + 1);
  if (index > 0) s.engine.seed(index - 1);
  for (Eigen::Index j = 0; j < point.size(); ++j) {
    const std::uint64_t raw = index > 0 ? s.engine() : 0;
    const std::uint64_t bits = raw ^ s.shift[j];
    point(j) = static_cast<double>(bits >> 11) * 0x1.0p-53;
  }
}

SobolPSource::SobolPSource(SobolGenerator* generator, std::uint64_t sample_index, VectorXd* buffer)
    : point_(*buffer) {
  buffer->resize(generator->dimension());
  generator->Point(sample_index, *buffer);
}

void SobolPSource::Next(int step, Eigen::Ref<VectorXd> p) {
  IMPACTSET_ASSERT((step + 1) * p.size() <= point_.size());
  p = point_.segment(step * p.size(), p.size());
}

}  // namespace impactset::sampling
