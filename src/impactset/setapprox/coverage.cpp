#include <impactset/setapprox/coverage.hpp>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include <boost/math/distributions/beta.hpp>

#include <impactset/setapprox/internal/check.hpp>

namespace impactset::setapprox {

using internal::InvalidArgument;

namespace {

constexpr double kTwoPow53 = 9007199254740992.0;  // beyond it doubles skip integers
constexpr std::int64_t kMaxHoldout = std::int64_t{1} << 62;

void CheckDelta(double delta) {
  if (!(delta > 0 && delta < 1)) InvalidArgument("delta", delta, "must lie in (0, 1)");
}

/// m = ceil(L sqrt(d) / ε), raised until m ε >= L sqrt(d) holds in floating point too (so the
/// sub-cube diameter sqrt(d)/m times L never exceeds ε by a rounding), and at least 1.
double CellsPerAxis(const Lemma1Setting& s) {
  const double need = s.lipschitz * std::sqrt(static_cast<double>(s.dimension));
  const double ratio = need / s.epsilon;
  if (!std::isfinite(ratio)) {
    InvalidArgument("Lemma1Setting::lipschitz * sqrt(dimension) / epsilon", ratio,
                    "must be finite");
  }
  double m = std::max(1.0, std::ceil(ratio));
  while (m * s.epsilon < need) m = std::nextafter(m, std::numeric_limits<double>::infinity());
  return std::ceil(m);
}

std::string Lemma1Assumptions(const Lemma1Setting& s, double m) {
  std::ostringstream os;
  os.precision(17);
  os << "Lemma 1 (Halm & Posa): f : [0,1]^" << s.dimension << " -> R^n is L-Lipschitz in the "
     << "Euclidean norm with L = " << s.lipschitz << "; the K samples s_k are iid uniform on the "
     << "cube (the iid design, not Sobol points); the net is {f(s_k)}, eps = " << s.epsilon
     << ". The cube is cut into G = m^d sub-cubes of side 1/m, m = ceil(L sqrt(d)/eps) = " << m
     << ", so L sqrt(d)/m <= eps; union bound: P[some sub-cube holds no sample] <= "
     << "G (1 - 1/G)^K, and if every sub-cube holds a sample the net is an eps-net. For "
     << "Algorithm 2 the Lipschitz hypothesis is Assumption 6 (unique step velocity given "
     << "lambda_max), with d = m N.";
  return os.str();
}

double LogFailure(double log_cells, double samples) {
  const double inv_cells = std::exp(-log_cells);  // underflows to 0 only for G > ~1e308
  if (inv_cells >= 1) return samples > 0 ? -std::numeric_limits<double>::infinity() : 0.0;
  return log_cells + samples * std::log1p(-inv_cells);
}

Lemma1Bound Lemma1At(const Lemma1Setting& s, double m, double samples) {
  Lemma1Bound out;
  out.cells_per_axis = m;
  out.log_cells = s.dimension * std::log(m);
  out.cells = std::exp(out.log_cells);
  out.samples = samples;
  out.log_failure_bound = LogFailure(out.log_cells, samples);
  out.failure_bound = out.log_failure_bound >= 0 ? 1.0 : std::exp(out.log_failure_bound);
  out.success_lower_bound = 1 - out.failure_bound;
  out.assumptions = Lemma1Assumptions(s, m);
  return out;
}

}  // namespace

void Lemma1Setting::Validate() const {
  if (!(lipschitz > 0) || !std::isfinite(lipschitz)) {
    InvalidArgument("Lemma1Setting::lipschitz", lipschitz, "must be > 0 and finite");
  }
  if (dimension < 1) InvalidArgument("Lemma1Setting::dimension", dimension, "must be >= 1");
  if (!(epsilon > 0) || !std::isfinite(epsilon)) {
    InvalidArgument("Lemma1Setting::epsilon", epsilon, "must be > 0 and finite");
  }
}

Lemma1Bound ComputeLemma1Bound(const Lemma1Setting& setting, double samples) {
  setting.Validate();
  if (!(samples >= 0) || !std::isfinite(samples) || samples != std::floor(samples)) {
    InvalidArgument("samples", samples, "must be a finite integer >= 0");
  }
  return Lemma1At(setting, CellsPerAxis(setting), samples);
}

Lemma1Bound PlanLemma1Samples(const Lemma1Setting& setting, double delta) {
  setting.Validate();
  CheckDelta(delta);
  const double m = CellsPerAxis(setting);
  const double log_cells = setting.dimension * std::log(m);
  const double inv_cells = std::exp(-log_cells);
  if (inv_cells >= 1) return Lemma1At(setting, m, 1);  // G = 1: one sample lands in the cube
  const double per_sample = -std::log1p(-inv_cells);   // > 0 unless 1/G underflows
  double k = std::ceil((log_cells - std::log(delta)) / per_sample);
  if (!(per_sample > 0) || !std::isfinite(k)) {
    InvalidArgument("Lemma1Setting (log G = " + std::to_string(log_cells) + ")", "",
                    "the sample count K of Lemma 1 overflows a double");
  }
  k = std::max(k, 0.0);
  if (k < kTwoPow53) {  // exact integers: settle rounding in the formula against the bound
    while (LogFailure(log_cells, k) > std::log(delta)) k += 1;
    while (k > 0 && LogFailure(log_cells, k - 1) <= std::log(delta)) k -= 1;
  }
  return Lemma1At(setting, m, k);
}

HoldoutBound ComputeHoldoutBound(std::int64_t holdout, std::int64_t missed, double delta) {
  if (holdout < 1) InvalidArgument("holdout", holdout, "must be >= 1");
  if (missed < 0 || missed > holdout) {
    InvalidArgument("missed", missed, "must lie in [0, holdout = " + std::to_string(holdout) + "]");
  }
  CheckDelta(delta);
  HoldoutBound out;
  out.holdout = holdout;
  out.missed = missed;
  out.delta = delta;
  out.missed_fraction = static_cast<double>(missed) / static_cast<double>(holdout);
  if (missed == holdout) {
    out.missed_mass_upper = 1;
  } else {
    const boost::math::beta_distribution<double> beta(static_cast<double>(missed + 1),
                                                      static_cast<double>(holdout - missed));
    out.missed_mass_upper = boost::math::quantile(beta, 1 - delta);
  }
  std::ostringstream os;
  os.precision(17);
  os << "Clopper-Pearson one-sided upper bound at confidence 1 - delta = " << 1 - delta << ": the "
     << holdout << " hold-out samples are iid from the same distribution as the "
     << "net's samples and independent of the net (drawn after it was fixed, never offered to "
     << "it); missed mass = P[dist(X, net) > eps | net]; given the net the miss count is "
     << "Binomial(K', missed mass), and U is the largest mass p with P[Binomial(K', p) <= x] >= "
     << "delta. Exact (not asymptotic) and conservative: P[missed mass <= U] >= 1 - delta for "
     << "every true mass. Says nothing about mass the sampling distribution never reaches.";
  out.assumptions = os.str();
  return out;
}

HoldoutBound PlanHoldoutSize(double target_missed_mass, double delta) {
  if (!(target_missed_mass > 0 && target_missed_mass < 1)) {
    InvalidArgument("target_missed_mass", target_missed_mass, "must lie in (0, 1)");
  }
  CheckDelta(delta);
  const double n = std::ceil(std::log(delta) / std::log1p(-target_missed_mass));
  if (!(n < static_cast<double>(kMaxHoldout))) {
    InvalidArgument("target_missed_mass", target_missed_mass,
                    "needs a hold-out of more than 2^62 samples");
  }
  std::int64_t k = std::max<std::int64_t>(1, static_cast<std::int64_t>(n));
  while (ComputeHoldoutBound(k, 0, delta).missed_mass_upper > target_missed_mass) ++k;
  while (k > 1 && ComputeHoldoutBound(k - 1, 0, delta).missed_mass_upper <= target_missed_mass) {
    --k;
  }
  return ComputeHoldoutBound(k, 0, delta);
}

HoldoutBound EvaluateHoldout(const EpsilonNet& net, const PointsRef& holdout, double delta) {
  if (holdout.cols() < 1) InvalidArgument("holdout.cols()", holdout.cols(), "must be >= 1");
  CheckDelta(delta);
  std::int64_t missed = 0;
  for (Index j = 0; j < holdout.cols(); ++j) {
    if (!net.IsCovered(holdout.col(j))) ++missed;  // IsCovered checks size and finiteness
  }
  return ComputeHoldoutBound(static_cast<std::int64_t>(holdout.cols()), missed, delta);
}

}  // namespace impactset::setapprox
