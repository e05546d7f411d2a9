#include <impactset/sets/set_outputs.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include <impactset/common/error_policy.hpp>
#include <impactset/impact/impact_lcps.hpp>
#include <impactset/sampling/parallel.hpp>
#include <impactset/sampling/streams.hpp>
#include <impactset/setapprox/bounded_net.hpp>
#include <impactset/setapprox/convex_hull.hpp>
#include <impactset/setapprox/coverage.hpp>
#include <impactset/setapprox/distances.hpp>
#include <impactset/setapprox/epsilon_net.hpp>
#include <impactset/setapprox/support_polytope.hpp>
#include <impactset/sets/features.hpp>

namespace impactset::sets {

using Eigen::Index;

AmbientFacets ToAmbientFacets(const HullResult& h) {
  if (h.facet_normals.cols() == 0) return {MatrixXd(h.basis.rows(), 0), VectorXd(0)};
  AmbientFacets f;
  f.normals = h.basis * h.facet_normals;
  f.bounds = f.normals.transpose() * h.center - h.facet_offsets;
  return f;
}

void FromAmbientFacets(const AmbientFacets& f, HullResult* h) {
  if (f.normals.cols() == 0) {
    h->facet_normals = MatrixXd(h->basis.cols(), 0);
    h->facet_offsets = VectorXd(0);
    return;
  }
  h->facet_normals = h->basis.transpose() * f.normals;
  h->facet_offsets = f.normals.transpose() * h->center - f.bounds;
}

void SetOptions::Validate() const {
  if (epsilon && !(std::isfinite(*epsilon) && *epsilon > 0)) {
    InvalidArgument("epsilon", *epsilon, "must be > 0 and finite");
  }
  if (!(delta > 0 && delta < 1)) InvalidArgument("delta", delta, "must lie in (0, 1)");
  if (lipschitz && !(std::isfinite(*lipschitz) && *lipschitz > 0)) {
    InvalidArgument("lipschitz", *lipschitz, "must be > 0 and finite");
  }
  if (holdout < 0) InvalidArgument("holdout", holdout, "must be >= 0 (0 = no hold-out bound)");
  if (polish < 0) InvalidArgument("polish", polish, "must be >= 0 (0 = no polish)");
  if (hull_max_dimension < 1 || hull_max_dimension > 9) {
    InvalidArgument("hull_max_dimension", hull_max_dimension, "must lie in [1, 9]");
  }
  if (hull_max_points < 0) {
    InvalidArgument("hull_max_points", hull_max_points, "must be >= 0 (0 = no cap)");
  }
  if (max_net_points < 1) InvalidArgument("max_net_points", max_net_points, "must be >= 1");
  if (!(flatness_tolerance > 0 && flatness_tolerance < 1)) {
    InvalidArgument("flatness_tolerance", flatness_tolerance, "must lie in (0, 1)");
  }
  ValidateOutputs(outputs, std::nullopt);
}

double DefaultEpsilon(const impact::ImpactProblem& problem) {
  const double scale = (problem.ContactJacobian() * problem.v_minus()).cwiseAbs().maxCoeff();
  // A problem with no approaching speed still needs a positive radius.
  return kDefaultEpsilonFraction * (scale > 0 ? scale : 1.0);
}

std::vector<double> DefaultEpsilons(const impact::ImpactProblem& problem,
                                    const std::vector<OutputMap>& outputs) {
  const double fallback = DefaultEpsilon(problem);
  std::optional<VectorXd> change;  // v_AP - v-, solved once when a non-contact output needs it
  std::vector<double> eps;
  for (const OutputMap& o : outputs) {
    if (o.kind == Coordinates::kContact) {
      eps.push_back(fallback);
      continue;
    }
    if (!change) {
      change = VectorXd::Zero(problem.n());
      if (const auto z = impact::SolveAnitescuPotraAtVMinus(problem)) {
        const impact::LcpLayout layout = impact::AnitescuPotraLayout(problem);
        *change = problem.MinvJt() * z->segment(layout.lambda_n(), layout.impulses());
      }
    }
    const double scale = o.kind == Coordinates::kGeneralized
                             ? change->cwiseAbs().maxCoeff()
                             : (o.C * *change).cwiseAbs().maxCoeff();
    eps.push_back(scale > 0 && std::isfinite(scale) ? kDefaultEpsilonFraction * scale : fallback);
  }
  return eps;
}

std::vector<double> OutputEpsilons(const impact::ImpactProblem& problem,
                                   const std::vector<OutputMap>& outputs,
                                   const std::optional<double>& given) {
  if (given) return std::vector<double>(outputs.size(), *given);
  return DefaultEpsilons(problem, outputs);
}

std::uint64_t HoldoutSeed(std::uint64_t seed) {
  return sampling::Mix64(seed ^ 0x486f6c646f757421ULL);  // "Holdout!"
}

namespace {

constexpr const char* kQhullSaid = "\nQhull said:\n";

/// A hull with no vertex and no facet, in the ambient dimension d.
HullResult EmptyHull(Index d) {
  HullResult h;
  h.center = VectorXd::Zero(d);
  h.basis = MatrixXd(d, 0);
  h.vertices = MatrixXd(d, 0);
  h.facet_normals = MatrixXd(0, 0);
  h.facet_offsets = VectorXd(0);
  return h;
}

}  // namespace

std::string HullResult::Summary() const {
  const std::size_t eol = detail.find('\n');
  std::string line = detail.substr(0, eol);
  if (line.size() > 160) line = line.substr(0, 157) + "...";
  if (eol != std::string::npos) {
    const auto lines = std::count(detail.begin() + static_cast<long>(eol), detail.end(), '\n');
    line += " (+" + std::to_string(lines) + " lines from Qhull, kept in the dataset)";
  }
  return line;
}

bool HullResult::HasQhullMessages() const { return detail.find(kQhullSaid) != std::string::npos; }

namespace {

/// The points of a net of `points` with radius 2^j x separation, j >= 1 the smallest leaving at
/// most `cap` points; *radius receives it.
MatrixXd ThinnedNet(const MatrixXd& points, double separation, long long cap, double* radius) {
  double r = separation > 0
                 ? separation
                 : 1e-3 * (points.rowwise().maxCoeff() - points.rowwise().minCoeff()).norm();
  MatrixXd thin = points;
  while (thin.cols() > cap) {
    r *= 2;  // re-net the original points: the bound below is then delta, not a sum of radii
    thin = setapprox::BuildEpsilonNet(points, setapprox::EpsilonNetOptions{.epsilon = r}).points();
  }
  *radius = r;
  return thin;
}

}  // namespace

HullResult HullOfPoints(const MatrixXd& points, const SetOptions& options, double separation) {
  HullResult h = EmptyHull(points.rows());
  if (points.cols() == 0) {
    h.status = HullStatus::kEmptyNet;
    h.detail = "skipped: the net is empty (no terminated sample)";
    return h;
  }
  setapprox::ConvexHullOptions ho;
  ho.affine.relative_tolerance = options.flatness_tolerance;
  const setapprox::AffineHull affine = setapprox::ComputeAffineHull(points, ho.affine);
  h.dimension = static_cast<int>(affine.dimension);
  h.center = affine.origin;
  h.basis = affine.basis;
  h.flatness = affine.max_residual;
  if (affine.dimension > options.hull_max_dimension) {
    h.status = HullStatus::kDimensionTooHigh;
    h.detail = "skipped: dimension " + std::to_string(affine.dimension) + " > hull_max_dimension " +
               std::to_string(options.hull_max_dimension);
    return h;
  }
  MatrixXd thin;
  const bool thinned = options.hull_max_points > 0 && points.cols() > options.hull_max_points;
  if (thinned) thin = ThinnedNet(points, separation, options.hull_max_points, &h.thinning_radius);
  const MatrixXd& hulled = thinned ? thin : points;
  setapprox::ConvexHull hull;
  try {
    hull = setapprox::ComputeConvexHull(hulled, ho);
  } catch (const std::runtime_error& e) {  // Qhull gave up even with Q12 and QJ: keep the run
    const std::string what = e.what();
    const std::size_t colon = what.find(": [qhull");  // the captured messages start there
    h.status = HullStatus::kFailed;
    h.detail = "failed: " + (colon == std::string::npos
                                 ? what
                                 : what.substr(0, colon) + kQhullSaid + what.substr(colon + 2));
    return h;
  }
  h.status = HullStatus::kComputed;
  h.detail = "computed";
  if (thinned) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  " from a thinned net: %lld of %lld points (radius %.3g > hull_max_points %lld), "
                  "an inner approximation within %.3g of the net's hull",
                  static_cast<long long>(thin.cols()), static_cast<long long>(points.cols()),
                  h.thinning_radius, options.hull_max_points, h.thinning_radius);
    h.detail += buf;
  }
  if (!hull.qhull_messages.empty()) h.detail += kQhullSaid + hull.qhull_messages;
  h.vertices = hull.vertices;
  h.facet_normals = hull.facet_normals;
  h.facet_offsets = hull.facet_offsets;
  h.volume = hull.volume;
  h.distance_roundoff = hull.distance_roundoff;
  h.qhull_points = hull.qhull_points;
  return h;
}

HullResult HullOfNet(const NetResult& net, const SetOptions& options) {
  HullResult h = HullOfPoints(net.points, options, net.separation);
  if (h.status == HullStatus::kComputed) h.margin = net.epsilon + h.thinning_radius;
  return h;
}

void AddHulls(const SetOptions& options, std::vector<PointSet>* sets, int threads) {
  sampling::ParallelFor(static_cast<long long>(sets->size()), threads, [&](long long i) {
    PointSet& s = (*sets)[static_cast<std::size_t>(i)];
    s.hull = HullOfNet(s.net, options);
  });
}

namespace {

// The index of the output of that name. Sets and outputs come from the same builder or
// dataset: an unknown name is a broken invariant.
std::size_t OutputIndex(const std::vector<OutputMap>& outputs, const std::string& name) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].name == name) return i;
  }
  IMPACTSET_ASSERT(false && "a set names an output the run does not have");
  throw std::logic_error("set of unknown output " + name);
}

}  // namespace

namespace {

std::string Percent(double fraction) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g %%", 100 * fraction);
  return buf;
}

// The hold-out statement of one set from the fresh samples' outcomes in its output.
void AddHoldout(const MatrixXd& pts,
                const std::vector<impact::SampleStatus>& status,
                const NetResult& net,
                const SetOptions& options,
                CoverageResult* c) {
  VectorXd dist = VectorXd::Constant(pts.cols(), std::numeric_limits<double>::infinity());
  if (net.points.cols() > 0) dist = setapprox::NearestDistances(pts, net.points);
  long long missed = 0, terminated = 0;
  for (Index k = 0; k < pts.cols(); ++k) {
    if (status[static_cast<size_t>(k)] != impact::SampleStatus::kTerminated) continue;
    ++terminated;
    if (!(dist(k) <= net.epsilon)) ++missed;
  }
  c->holdout_not_terminated = options.holdout - terminated;
  if (terminated == 0) {
    c->holdout_assumptions = "no hold-out sample terminated: no bound";
    return;
  }
  const setapprox::HoldoutBound b =
      setapprox::ComputeHoldoutBound(terminated, missed, options.delta);
  c->holdout = b.holdout;
  c->missed = b.missed;
  c->missed_mass_upper = b.missed_mass_upper;
  c->holdout_assumptions =
      b.assumptions +
      " It bounds the probability mass, under iid p-sequences, of outcomes "
      "farther than eps from the net, not the set's extent: outcomes iid sampling reaches rarely "
      "(the extremes) weigh little in it (the extent statement speaks of them). Hold-out: " +
      std::to_string(options.holdout) +
      " iid p-sequences from seed HoldoutSeed(seed), whose streams' keys are pseudo-random 64-bit "
      "values like the run's: the two sets of draws are disjoint with overwhelming probability, "
      "not by construction; only the " +
      std::to_string(terminated) +
      " hold-out samples that terminated count (K' above; the law is that of terminated "
      "outcomes under iid sampling), holdout_not_terminated = " +
      std::to_string(c->holdout_not_terminated) +
      " did not (step cap or LCP failure). A terminated sample is missed unless its distance d "
      "to the nearest net point has d <= eps, the net's own epsilon (its covering radius).";
}

// Why Lemma 1 is not stated for this set and run ("" when it may be).
std::string Lemma1Refusal(const OutputMap& output, sampling::Design design) {
  if (output.kind != Coordinates::kContact) {
    return "Lemma 1 not stated for this output: the Lipschitz constant given is that of the map "
           "from p-sequences to the contact velocities (the contact output's units); another "
           "output has its own constant.";
  }
  if (design != sampling::Design::kIid && design != sampling::Design::kMixed) {
    return std::string("Lemma 1 not stated: the run's design is ") + sampling::ToString(design) +
           ", and Lemma 1 needs iid uniform p-sequences (the iid design, or the iid half of the "
           "mixed design).";
  }
  return "";
}

// Lemma 1 for one set (the contact output of an iid or mixed run), at the initial radius eps0.
void AddLemma1(const impact::ImpactProblem& problem,
               const sampling::SamplerOptions& run,
               const SetOptions& options,
               long long samples,
               double eps0,
               const NetResult& net,
               CoverageResult* c) {
  const bool mixed = run.design == sampling::Design::kMixed;
  const long long iid = mixed ? samples / 2 : samples;  // the iid samples among any `samples`
  const long long not_terminated = samples - net.offered;
  setapprox::Lemma1Setting ls;
  ls.lipschitz = *options.lipschitz;
  ls.dimension = problem.m() * run.algorithm.max_steps;
  ls.epsilon = eps0;
  const setapprox::Lemma1Bound b = setapprox::ComputeLemma1Bound(ls, static_cast<double>(iid));
  c->lipschitz = ls.lipschitz;
  c->cube_dimension = ls.dimension;
  c->log_cells = b.log_cells;
  try {
    c->samples_needed = setapprox::PlanLemma1Samples(ls, options.delta).samples;
  } catch (const std::invalid_argument&) {  // K beyond a double: the statement stays, K does not
    c->samples_needed = std::numeric_limits<double>::infinity();
  }
  c->lemma1 = true;
  c->failure_bound = not_terminated == 0 ? b.failure_bound : 1.0;
  char radii[160];
  std::snprintf(radii, sizeof radii, "eps0 = %.6g (the radius fixed before sampling), eps = %.6g",
                eps0, net.epsilon);
  const std::string stated =
      not_terminated == 0
          ? " Every one of the " + std::to_string(samples) +
                " samples terminated, so each is in "
                "the net's cover: if each sub-cube of side 1/m holds one of the K = " +
                std::to_string(iid) + (mixed ? " iid samples (the mixed design's even ones)" : "") +
                ", every outcome lies within eps0 of a sample and so within eps0 + eps of the "
                "net. P[every sample terminates and the net is not an (eps0 + eps)-net] <= "
                "failure_bound (" +
                radii + ")."
          : " No bound (failure_bound = 1): " + std::to_string(not_terminated) + " of " +
                std::to_string(samples) +
                " samples did not terminate (step cap or LCP failure) and are not in the net; "
                "the sub-cube argument needs every sample in it. Choose N (and h) so that every "
                "sample terminates; samples_needed assumes they do.";
  c->lemma1_assumptions = b.assumptions +
                          " Here f maps a p-sequence ([0,1]^(m N)) to the contact velocities "
                          "Algorithm 1 ends at; L is the user's claim; G is taken at eps0." +
                          stated;
}

}  // namespace

std::uint64_t RadiusPilotSeed(std::uint64_t seed) {
  return sampling::Mix64(seed ^ 0x5261646975732121ULL);  // "Radius!!"
}

std::vector<double> PilotEpsilons(const impact::ImpactProblem& problem,
                                  const std::vector<OutputMap>& outputs,
                                  const sampling::SamplerOptions& run) {
  const std::vector<double> fallback = DefaultEpsilons(problem, outputs);
  sampling::SamplerOptions pilot = run;
  pilot.samples = kRadiusPilotSamples;
  pilot.seed = RadiusPilotSeed(run.seed);
  pilot.design = sampling::Design::kMixed;
  pilot.threads = 1;
  pilot.keep_samples = true;
  pilot.keep_trajectories = false;
  pilot.keep_p_sequences = false;
  pilot.shard_index = 0;
  pilot.shard_count = 1;
  const sampling::SampleArrays a = sampling::RunSampler(problem, pilot).records;
  const MatrixXd v = sampling::TerminatedColumns(a.v_plus, a.status);
  std::vector<double> eps = fallback;
  if (v.cols() == 0) return eps;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const MatrixXd y = outputs[i].Apply(v);
    const double width = (y.rowwise().maxCoeff() - y.rowwise().minCoeff()).maxCoeff();
    const double scale = fallback[i] / kDefaultEpsilonFraction;
    if (std::isfinite(width) && width > kRadiusFlatFraction * scale) {
      eps[i] = kRadiusWidthFraction * width;
    }
  }
  return eps;
}

double LargestAxisWidth(const SupportResult& support) {
  double width = 0;
  const Index d = support.directions.rows();
  for (Index i = 0; i < d && 2 * i + 1 < support.values.size(); ++i) {  // +e_i, -e_i come first
    width = std::max(width, support.values(2 * i) + support.values(2 * i + 1));
  }
  return width;
}

MatrixXd AxisRanges(const SupportResult& support) {
  const Index d = support.directions.rows();
  MatrixXd r(d, 2);
  for (Index i = 0; i < d; ++i) {
    const bool have = 2 * i + 1 < support.values.size();
    r(i, 0) = have ? -support.values(2 * i + 1) : std::numeric_limits<double>::infinity();
    r(i, 1) = have ? support.values(2 * i) : -std::numeric_limits<double>::infinity();
  }
  return r;
}

CoverageResult ExtentOf(const SupportResult& support, long long run_samples) {
  CoverageResult c;
  const Index J = support.values.size();
  // No terminated sample at all: nothing to state (its -inf values would read as "converged").
  if (support.first_half_end <= 0 || support.first_half_values.size() != J || J == 0 ||
      support.count == 0) {
    return c;
  }
  const double width = LargestAxisWidth(support);
  double rise = 0, magnitude = 1;
  for (Index j = 0; j < J; ++j) {
    rise = std::max(rise, support.values(j) - support.first_half_values(j));
    if (std::isfinite(support.values(j)))
      magnitude = std::max(magnitude, std::abs(support.values(j)));
  }
  // Samples agree with their LCPs to this much (kAcceptTolerance of max(1, |values|)): a rise no
  // larger is roundoff, not reach (a set that is one point has width and rises of 1e-16).
  if (rise <= kExtentRoundoff * magnitude) rise = 0;
  c.extent = true;
  c.extent_width = width;
  c.extent_moved = rise == 0   ? 0.0
                   : width > 0 ? rise / width
                               : std::numeric_limits<double>::infinity();
  c.extent_converged = c.extent_moved <= kExtentConvergedFraction;
  const bool polished = run_samples > 0 && support.first_half_end > run_samples;
  const std::string span = polished
                               ? "over the second half of the polish (samples " +
                                     std::to_string(support.first_half_end) +
                                     " on, a directed search from the "
                                     "set's ends after the run's " +
                                     std::to_string(run_samples) + ")"
                               : "from the run's first " + std::to_string(support.first_half_end) +
                                     " samples to all of them";
  if (!std::isfinite(c.extent_moved)) {
    c.extent_statement = "extent not converged: no sample before " +
                         std::to_string(support.first_half_end) + " terminated; run more samples";
  } else if (c.extent_converged) {
    c.extent_statement = "extent converged: " + span + ", no support value rose by more than " +
                         Percent(c.extent_moved) +
                         " of the set's largest width (an observation of the samples, not a "
                         "bound on the set)";
  } else {
    c.extent_statement = "extent not converged: " + span + ", a support value rose by " +
                         Percent(c.extent_moved) +
                         " of the set's largest width: the set reaches farther than this run "
                         "shows; run more samples, a larger --polish or --design directed";
  }
  return c;
}

void AddCoverage(const impact::ImpactProblem& problem,
                 const std::vector<OutputMap>& outputs,
                 const std::vector<double>& initial_epsilons,
                 const sampling::SamplerOptions& run,
                 const SetOptions& options,
                 long long samples,
                 std::vector<PointSet>* sets) {
  IMPACTSET_ASSERT(initial_epsilons.size() == outputs.size());
  sampling::SampleArrays holdout;
  if (options.holdout > 0) {
    sampling::SamplerOptions h = run;
    h.samples = options.holdout;
    h.seed = HoldoutSeed(run.seed);
    h.design = sampling::Design::kIid;
    h.keep_samples = true;
    h.keep_trajectories = false;
    h.keep_p_sequences = false;
    h.shard_index = 0;
    h.shard_count = 1;
    holdout = sampling::RunSampler(problem, h).records;
  }
  for (PointSet& s : *sets) {
    if (s.set != SetKind::kPostImpact) continue;
    const std::size_t at = OutputIndex(outputs, s.output);
    const OutputMap& output = outputs[at];
    CoverageResult c = ExtentOf(s.support, run.samples);
    c.delta = options.delta;
    if (options.holdout > 0) {
      // Contact velocities as the sampler computed them (the nets' own contact points are J_c v
      // too, but from a matrix-matrix product: equal up to roundoff, kept as before).
      AddHoldout(output.kind == Coordinates::kContact ? holdout.contact_velocity
                                                      : output.Apply(holdout.v_plus),
                 holdout.status, s.net, options, &c);
    }
    if (options.lipschitz) {
      const std::string refusal = Lemma1Refusal(output, run.design);
      if (refusal.empty()) {
        AddLemma1(problem, run, options, samples, initial_epsilons[at], s.net, &c);
      } else {
        c.lipschitz = *options.lipschitz;
        c.lemma1_assumptions = refusal;
      }
    }
    s.coverage = c;
  }
}

}  // namespace impactset::sets
