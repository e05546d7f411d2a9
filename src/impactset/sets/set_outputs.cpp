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

void AddHulls(const SetOptions& options, std::vector<PointSet>* sets, int threads) {
  sampling::ParallelFor(static_cast<long long>(sets->size()), threads, [&](long long i) {
    PointSet& s = (*sets)[static_cast<std::size_t>(i)];
    s.hull = HullOfPoints(s.net.points, options, s.net.separation);
  });
}

namespace {

// The output of that name. Sets and outputs come from the same builder or dataset: an unknown
// name is a broken invariant.
const OutputMap& OutputNamed(const std::vector<OutputMap>& outputs, const std::string& name) {
  for (const OutputMap& o : outputs) {
    if (o.name == name) return o;
  }
  IMPACTSET_ASSERT(false && "a set names an output the run does not have");
  throw std::logic_error("set of unknown output " + name);
}

}  // namespace

void AddCoverage(const impact::ImpactProblem& problem,
                 const std::vector<OutputMap>& outputs,
                 const sampling::SamplerOptions& run,
                 const SetOptions& options,
                 long long samples,
                 std::vector<PointSet>* sets) {
  // Coverage of the post-impact nets (docs/model.md §6.4, docs/coverage.md).
  sampling::SampleArrays holdout;
  if (options.holdout > 0) {
    sampling::SamplerOptions h = run;
    h.samples = options.holdout;
    h.seed = HoldoutSeed(run.seed);
    h.design = sampling::Design::kIid;
    h.keep_samples = true;
    h.keep_trajectories = false;
    h.shard_index = 0;
    h.shard_count = 1;
    holdout = sampling::RunSampler(problem, h).records;
  }
  for (PointSet& s : *sets) {
    if (s.set != SetKind::kPostImpact) continue;
    const OutputMap& output = OutputNamed(outputs, s.output);
    CoverageResult c;
    c.delta = options.delta;
    if (options.holdout > 0) {
      // The post-impact set is the law of terminated outcomes: hold-out samples that did not
      // terminate (step cap or LCP failure) are left out (and counted), the rest are iid from that
      // conditional law.
      // Contact velocities as the sampler computed them (the nets' own contact points are J_c v
      // too, but from a matrix-matrix product: equal up to roundoff, kept as before).
      const MatrixXd pts = output.kind == Coordinates::kContact ? holdout.contact_velocity
                                                                : output.Apply(holdout.v_plus);
      VectorXd dist = VectorXd::Constant(pts.cols(), std::numeric_limits<double>::infinity());
      if (s.net.points.cols() > 0) dist = setapprox::NearestDistances(pts, s.net.points);
      long long missed = 0, terminated = 0;
      for (Index k = 0; k < pts.cols(); ++k) {
        if (holdout.status[static_cast<size_t>(k)] != impact::SampleStatus::kTerminated) continue;
        ++terminated;
        if (!(dist(k) <= s.net.epsilon)) ++missed;
      }
      c.holdout_not_terminated = options.holdout - terminated;
      if (terminated > 0) {
        const setapprox::HoldoutBound b =
            setapprox::ComputeHoldoutBound(terminated, missed, options.delta);
        c.holdout = b.holdout;
        c.missed = b.missed;
        c.missed_mass_upper = b.missed_mass_upper;
        c.holdout_assumptions =
            b.assumptions + " Hold-out: " + std::to_string(options.holdout) +
            " iid p-sequences from seed HoldoutSeed(seed), whose streams' keys are "
            "pseudo-random 64-bit values like the run's: the two sets of draws are disjoint with "
            "overwhelming probability, not by construction; only the " +
            std::to_string(terminated) +
            " hold-out samples that terminated count (K' above; the law is that of terminated "
            "outcomes under iid sampling), holdout_not_terminated = " +
            std::to_string(c.holdout_not_terminated) +
            " did not (step cap or LCP failure). A terminated sample is missed unless its "
            "distance d to the nearest net point has d <= eps, the net's own epsilon (its "
            "covering radius).";
      } else {
        c.holdout_assumptions = "no hold-out sample terminated: no bound";
      }
    }
    if (options.lipschitz) {
      // Lemma 1 for the net's own radius (its covering radius, after any coarsening). Every
      // sub-cube holding a sample gives each point of f([0,1]^d) a sample within eps; that
      // sample is within eps of the net only if it was offered to it, i.e. terminated. So the
      // bound is stated only when every sample of the run terminated.
      const long long terminated = s.net.offered;
      const long long not_terminated = samples - terminated;
      setapprox::Lemma1Setting ls;
      ls.lipschitz = *options.lipschitz;
      ls.dimension = problem.m() * run.algorithm.max_steps;
      ls.epsilon = s.net.epsilon;
      const setapprox::Lemma1Bound b =
          setapprox::ComputeLemma1Bound(ls, static_cast<double>(samples));
      c.lemma1 = true;
      c.lipschitz = ls.lipschitz;
      c.cube_dimension = ls.dimension;
      c.log_cells = b.log_cells;
      c.failure_bound = not_terminated == 0 ? b.failure_bound : 1.0;
      c.samples_needed = setapprox::PlanLemma1Samples(ls, options.delta).samples;
      const std::string stated =
          not_terminated == 0
              ? " All K = " + std::to_string(samples) +
                    " samples terminated, so each f(s_k) was offered to the stored net and lies "
                    "within its eps: if every sub-cube holds a sample, the stored net is a "
                    "2 eps-net of f([0,1]^d), which holds every terminated outcome. P[every "
                    "sample terminates and the net is not a 2 eps-net] <= failure_bound."
              : " No bound (failure_bound = 1): " + std::to_string(not_terminated) +
                    " of K = " + std::to_string(samples) +
                    " samples did not terminate (step cap or LCP failure) and are not in the "
                    "net, and the one sample in a sub-cube may be such a sample; the sub-cube "
                    "argument needs every sample in the net. Choose N (and h) so that every "
                    "sample terminates (the paper's Theorem 9 picks N); samples_needed assumes "
                    "they do.";
      c.lemma1_assumptions =
          b.assumptions + " Here f maps the p-sequence of a sample ([0,1]^(m N)) to the " +
          (output.kind == Coordinates::kMap ? "'" + s.output + "' output y = C v of the"
                                            : std::string(ToString(output.kind))) +
          " velocity Algorithm 1 ends at (the post-impact velocity when the sample "
          "terminates); L is the user's claim; eps is the stored net's own epsilon (its "
          "covering radius, after any coarsening)." +
          stated +
          (run.design == sampling::Design::kIid ? ""
           : run.design == sampling::Design::kDirected
               ? " The run's design is directed (samples chosen from earlier ones): Lemma 1 does "
                 "not apply to these samples; the hold-out statement (iid) still does."
               : " The run's design is not iid: Lemma 1 does not apply to these samples as "
                 "stated.");
    }
    s.coverage = c;
  }
}

}  // namespace impactset::sets
