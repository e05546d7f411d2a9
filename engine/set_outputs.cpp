#include "engine/set_outputs.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/error_policy.hpp"
#include "sampling/streams.hpp"
#include "setapprox/bounded_net.hpp"
#include "setapprox/convex_hull.hpp"
#include "setapprox/coverage.hpp"
#include "setapprox/distances.hpp"
#include "setapprox/epsilon_net.hpp"

namespace impactset::engine {

using Eigen::Index;

const char* ToString(SetKind s) { return s == SetKind::kPostImpact ? "post_impact" : "reachable"; }
const char* ToString(Coordinates c) {
  return c == Coordinates::kContact ? "contact" : "generalized";
}
const char* ToString(HullStatus s) {
  switch (s) {
    case HullStatus::kComputed:
      return "computed";
    case HullStatus::kEmptyNet:
      return "empty_net";
    case HullStatus::kDimensionTooHigh:
      return "dimension_too_high";
    case HullStatus::kFailed:
      return "failed";
  }
  return "unknown";
}
const char* ToString(NetConstruction c) {
  return c == NetConstruction::kGreedyInSampleOrder ? "greedy in sample order"
                                                     : "union of shard nets";
}

SetKind ParseSetKind(std::string_view name) {
  if (name == "post_impact") return SetKind::kPostImpact;
  if (name == "reachable") return SetKind::kReachable;
  InvalidArgument("set", std::string(name), "must be one of post_impact, reachable");
}
Coordinates ParseCoordinates(std::string_view name) {
  if (name == "contact") return Coordinates::kContact;
  if (name == "generalized") return Coordinates::kGeneralized;
  InvalidArgument("coords", std::string(name), "must be one of contact, generalized");
}
NetConstruction ParseNetConstruction(std::string_view name) {
  if (name == ToString(NetConstruction::kGreedyInSampleOrder)) {
    return NetConstruction::kGreedyInSampleOrder;
  }
  if (name == ToString(NetConstruction::kUnionOfShardNets)) return NetConstruction::kUnionOfShardNets;
  InvalidArgument("net construction", std::string(name),
                  "must be one of: greedy in sample order, union of shard nets");
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
  if (max_net_points < 1) InvalidArgument("max_net_points", max_net_points, "must be >= 1");
  if (!(flatness_tolerance > 0 && flatness_tolerance < 1)) {
    InvalidArgument("flatness_tolerance", flatness_tolerance, "must lie in (0, 1)");
  }
}

double DefaultEpsilon(const impact::ImpactProblem& problem) {
  const double scale = (problem.ContactJacobian() * problem.v_minus()).cwiseAbs().maxCoeff();
  // A problem with no approaching speed still needs a positive radius.
  return kDefaultEpsilonFraction * (scale > 0 ? scale : 1.0);
}

std::uint64_t HoldoutSeed(std::uint64_t seed) {
  return sampling::Mix64(seed ^ 0x486f6c646f757421ULL);  // "Holdout!"
}

struct SetBuilder::Nets {
  Nets(Index c, Index n, const setapprox::BoundedNetOptions& o)
      : post_contact(c, o), post_generalized(n, o), reach_contact(c, o), reach_generalized(n, o) {}
  setapprox::BoundedNet post_contact, post_generalized, reach_contact, reach_generalized;
};

SetBuilder::SetBuilder(const impact::ImpactProblem& problem, const SetOptions& options)
    : problem_(problem), options_(options) {
  options_.Validate();
  epsilon_ = options_.epsilon.value_or(DefaultEpsilon(problem));
  nets_ = std::make_unique<Nets>(
      problem.ContactJacobian().rows(), problem.n(),
      setapprox::BoundedNetOptions{.epsilon = epsilon_, .max_points = options_.max_net_points});
}

SetBuilder::~SetBuilder() = default;

sampling::StreamOptions SetBuilder::Stream() {
  sampling::StreamOptions s;
  s.sink = [this](const sampling::SampleBlock& b) { Consume(b); };
  s.trajectories = options_.reachable;
  return s;
}

void SetBuilder::ConsumePostImpact(const MatrixXd& v_plus,
                                   const std::vector<impact::SampleStatus>& status) {
  const MatrixXd contact = problem_.ContactJacobian() * v_plus;
  for (Index k = 0; k < v_plus.cols(); ++k) {
    if (status[static_cast<size_t>(k)] != impact::SampleStatus::kTerminated) continue;
    nets_->post_contact.Insert(contact.col(k));
    nets_->post_generalized.Insert(v_plus.col(k));
  }
}

void SetBuilder::ConsumeReachable(const MatrixXd& velocities) {
  if (!options_.reachable) return;
  nets_->reach_contact.InsertBatch(problem_.ContactJacobian() * velocities);
  nets_->reach_generalized.InsertBatch(velocities);
}

void SetBuilder::Consume(const sampling::SampleBlock& b) {
  ConsumePostImpact(b.samples.v_plus, b.samples.status);
  ConsumeReachable(b.samples.trajectories);
}

HullResult HullOfPoints(const MatrixXd& points, const SetOptions& options) {
  HullResult h;
  h.center = VectorXd::Zero(points.rows());
  h.basis = MatrixXd(points.rows(), 0);
  h.vertices = MatrixXd(points.rows(), 0);
  h.facet_normals = MatrixXd(0, 0);
  h.facet_offsets = VectorXd(0);
  if (points.cols() == 0) {
    h.status = HullStatus::kEmptyNet;
    h.detail = "skipped: the net is empty (no terminated sample)";
    return h;
  }
  setapprox::ConvexHullOptions ho;
  ho.affine.relative_tolerance = options.flatness_tolerance;
  const setapprox::AffineHull affine = setapprox::ComputeAffineHull(points, ho.affine);
  h.dimension = affine.dimension;
  h.center = affine.origin;
  h.basis = affine.basis;
  h.flatness = affine.max_residual;
  if (affine.dimension > options.hull_max_dimension) {
    h.status = HullStatus::kDimensionTooHigh;
    h.detail = "skipped: dimension " + std::to_string(affine.dimension) + " > hull_max_dimension " +
               std::to_string(options.hull_max_dimension);
    return h;
  }
  setapprox::ConvexHull hull;
  try {
    hull = setapprox::ComputeConvexHull(points, ho);
  } catch (const std::runtime_error& e) {  // Qhull gave up even with Q12 and QJ: keep the run
    h.status = HullStatus::kFailed;
    h.detail = std::string("failed: ") + e.what();
    return h;
  }
  h.status = HullStatus::kComputed;
  h.detail = "computed";
  h.vertices = hull.vertices;
  h.facet_normals = hull.facet_normals;
  h.facet_offsets = hull.facet_offsets;
  h.volume = hull.volume;
  h.distance_roundoff = hull.distance_roundoff;
  return h;
}

namespace {

NetResult NetOf(const setapprox::BoundedNet& net) {
  NetResult a;
  a.points = net.net().points();
  a.epsilon = net.covering_radius();
  a.separation = net.separation();
  a.coarsenings = net.coarsenings();
  a.offered = net.offered();
  a.construction = NetConstruction::kGreedyInSampleOrder;
  return a;
}

}  // namespace

std::vector<PointSet> SetBuilder::Sets() const {
  std::vector<PointSet> sets;
  auto add = [&](SetKind set, Coordinates coords, const setapprox::BoundedNet& net) {
    PointSet s;
    s.set = set;
    s.coords = coords;
    s.net = NetOf(net);
    s.hull = HullOfPoints(s.net.points, options_);
    sets.push_back(std::move(s));
  };
  add(SetKind::kPostImpact, Coordinates::kContact, nets_->post_contact);
  add(SetKind::kPostImpact, Coordinates::kGeneralized, nets_->post_generalized);
  if (options_.reachable) {
    add(SetKind::kReachable, Coordinates::kContact, nets_->reach_contact);
    add(SetKind::kReachable, Coordinates::kGeneralized, nets_->reach_generalized);
  }
  return sets;
}

std::vector<PointSet> SetBuilder::Finish(const sampling::SamplerOptions& run) const {
  std::vector<PointSet> sets = Sets();
  AddCoverage(problem_, run, options_, epsilon_, &sets);
  return sets;
}

void AddCoverage(const impact::ImpactProblem& problem,
                 const sampling::SamplerOptions& run,
                 const SetOptions& options,
                 double epsilon,
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
    const bool contact = s.coords == Coordinates::kContact;
    CoverageResult c;
    c.delta = options.delta;
    if (options.holdout > 0) {
      // The post-impact set is the law of terminated outcomes: hold-out samples that did not
      // terminate (step cap or LCP failure) are left out (and counted), the rest are iid from that
      // conditional law.
      const MatrixXd& pts = contact ? holdout.contact_velocity : holdout.v_plus;
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
            b.assumptions +
            " Hold-out: iid p-sequences from a stream disjoint from the run's; only the hold-out "
            "samples that terminated count (the law is that of terminated outcomes under iid "
            "sampling); holdout_not_terminated says how many hit the step cap.";
      } else {
        c.holdout_assumptions = "no hold-out sample terminated: no bound";
      }
    }
    if (options.lipschitz) {
      setapprox::Lemma1Setting ls;
      ls.lipschitz = *options.lipschitz;
      ls.dimension = problem.m() * run.algorithm.max_steps;
      ls.epsilon = epsilon;
      const setapprox::Lemma1Bound b =
          setapprox::ComputeLemma1Bound(ls, static_cast<double>(run.samples));
      c.lemma1 = true;
      c.lipschitz = ls.lipschitz;
      c.cube_dimension = ls.dimension;
      c.log_cells = b.log_cells;
      c.failure_bound = b.failure_bound;
      c.samples_needed = setapprox::PlanLemma1Samples(ls, options.delta).samples;
      c.lemma1_assumptions =
          b.assumptions + " Here f maps the p-sequence of a sample ([0,1]^(m N)) to its " +
          (contact ? "contact" : "generalized") +
          " post-impact velocity; L is the user's claim. The bound is for the samples with the "
          "requested epsilon; the stored net lies within its own epsilon (the covering radius) "
          "of every sample, so with the same probability it is an (epsilon + covering radius)-"
          "net of the set." +
          (run.design == sampling::Design::kIid ? ""
                                                : " The run's design is not iid: Lemma 1 does "
                                                  "not apply to these samples as stated.");
    }
    s.coverage = c;
  }
}

}  // namespace impactset::engine
