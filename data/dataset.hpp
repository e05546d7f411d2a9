#pragma once
// The impactset HDF5 dataset (schema: docs/dataset-format.md). This module knows nothing of
// LCPs or impact laws: it stores named arrays and attributes that the sampler fills in.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

namespace impactset::data {

/// The layout version written to the root attribute "schema_version" (files without it are
/// version 1). Readers refuse files of a higher version, naming it.
constexpr std::int64_t kSchemaVersion = 1;

/// Root attributes: what produced the file.
struct RunAttributes {
  std::string system;
  std::uint64_t seed = 0;
  std::string design;  ///< iid, sobol, sobol-plain
  double h = 0;
  std::int64_t max_steps = 0;
  /// How h and N were chosen when impactset scaled them to the problem (engine/step_scaling.hpp);
  /// empty otherwise, and then not written (attribute "step_rule").
  std::string step_rule;
  std::int64_t samples = 0;  ///< K of the whole run (all shards)
  std::int64_t threads = 0;
  std::string lcp;
  std::string selection;
  /// Random selection's detection solve (1) or not (0); absent in files of earlier versions.
  std::optional<std::int64_t> detect_non_unique;
  /// lcp::LemkeOptions::restore_above of the run's native Lemke solves; absent in files of
  /// earlier versions (which all used the default, 1e-9).
  std::optional<double> lemke_restore_above;
  std::int64_t shard_index = 0;
  std::int64_t shard_count = 1;
  std::int64_t first_sample = 0;  ///< global index of the first sample in this file
  std::int64_t sample_count = 0;  ///< samples in this file
  std::string version;
  std::string git_revision;
  std::string created;  ///< ISO 8601 UTC
};

/// /problem: the impact state.
struct ProblemArrays {
  Eigen::MatrixXd M, Jn, D, contact_jacobian;
  Eigen::VectorXd mu, v_minus;
  std::int64_t k = 0;
};

/// /summary: bounded-memory statistics (always written).
struct SummaryArrays {
  std::int64_t terminated = 0, step_capped = 0, lcp_failures = 0, lcp_solves = 0, lcp_fallbacks = 0,
               non_unique = 0;
  double worst_residual = 0, energy_ratio_max = 0;
  Eigen::VectorXd contact_velocity_min, contact_velocity_max;
  std::vector<std::int64_t> solves_histogram;
};

/// /samples (when kept): one row per sample in the file.
struct SampleArrays {
  Eigen::MatrixXd v_plus;            ///< n x count (stored count x n)
  Eigen::MatrixXd contact_velocity;  ///< c x count (stored count x c)
  std::vector<std::int32_t> lcp_solves, status;
  std::vector<double> energy_ratio;
  std::vector<std::uint8_t> non_unique;
};

/// /reachable (when trajectories are kept).
struct ReachableArrays {
  Eigen::MatrixXd velocities;         ///< n x total (stored total x n)
  std::vector<std::int64_t> offsets;  ///< count + 1
};

/// /net/<set>/<coords>: an ε-net (setapprox::EpsilonNet) of one set in one coordinate system.
struct NetArrays {
  Eigen::MatrixXd points;  ///< d x size (stored size x d)
  double epsilon = 0;      ///< covering radius: every point offered lies within epsilon of the net
  double separation = 0;   ///< net points are pairwise farther apart than this
  std::int64_t coarsenings =
      0;                     ///< radius doublings forced by the size cap (0: separation = epsilon)
  std::int64_t offered = 0;  ///< points offered to the net (samples or trajectory velocities)
  /// "greedy in sample order" (one run), or "union of shard nets" (merge without kept samples:
  /// still within epsilon of every point, but net points may be closer than epsilon).
  std::string construction;
};

/// /hull/<set>/<coords>: the convex hull of the net points (setapprox::ConvexHull), in the
/// coordinates y = B^T (x - c) of their affine hull.
struct HullArrays {
  std::string status;  ///< "computed", or why not (e.g. "skipped: dimension 9 > hull_max_dim 6")
  std::int64_t dimension = -1;    ///< r, the dimension of the affine hull
  Eigen::VectorXd center;         ///< c (d)
  Eigen::MatrixXd basis;          ///< B (d x r), orthonormal columns
  Eigen::MatrixXd vertices;       ///< d x v, ambient coordinates (stored v x d)
  Eigen::MatrixXd facet_normals;  ///< r x F, outward unit normals (stored F x r)
  Eigen::VectorXd facet_offsets;  ///< F: y is inside iff normal . y + offset <= 0
  double volume = 0;              ///< r-dimensional measure
  double flatness = 0;            ///< largest distance of a net point from the affine hull
  double distance_roundoff = 0;   ///< Qhull's roundoff bound on facet distances
};

/// /coverage/<set>/<coords>: how much of the true set the net may miss (docs/coverage.md).
struct CoverageArrays {
  // (b) hold-out, no Lipschitz constant needed.
  std::int64_t holdout = 0;                 ///< K' fresh samples that terminated (0: not evaluated)
  std::int64_t holdout_not_terminated = 0;  ///< fresh samples ending step_cap or lcp_failure
  std::int64_t missed = 0;                  ///< of them, farther than epsilon from the net
  double delta = 0;                         ///< confidence 1 - delta
  double missed_mass_upper = 1;  ///< Clopper-Pearson upper bound on the missed probability
  std::string holdout_assumptions;
  // (a) Lemma 1, only with a user-given Lipschitz constant.
  bool lemma1 = false;
  double lipschitz = 0;
  std::int64_t cube_dimension = 0;  ///< d = m N of the p-sequences
  double log_cells = 0;             ///< log G
  double failure_bound = 1;         ///< P[not an epsilon-net] <= this
  double samples_needed = 0;        ///< K for failure_bound <= delta (planner)
  std::string lemma1_assumptions;
};

/// /support/<set>/<coords>: the support-function polytope over every sample
/// (setapprox::SupportPolytope). Its directions are stored once per dimension d, in
/// /support/directions/d<d> (J x d), named by the attribute "directions".
struct SupportArrays {
  Eigen::MatrixXd directions;                   ///< d x J unit directions (stored J x d)
  Eigen::VectorXd values;                       ///< J: h_j = max over the set of u_j . x
  std::vector<std::int64_t> attaining_samples;  ///< J: first sample attaining h_j (-1: none)
  Eigen::MatrixXd attaining_points;             ///< d x J (stored J x d)
  std::int64_t count = 0;                       ///< points offered
};

/// /outputs/<name>: an output y = C v whose coordinates sets are stored in. Written for every
/// output of a run whose outputs are not the default {contact, generalized}; files without
/// /outputs have their sets in those two.
struct OutputArrays {
  std::string name;  ///< the group's name: the coords of its sets
  std::string
      kind;  ///< attribute "kind": "contact" (C = contact_jacobian), "generalized" (I), "map"
  std::string spec;   ///< attribute "spec": how it was asked for ("com", "matrix:C.csv", ...)
  Eigen::MatrixXd C;  ///< d x n (dataset "C", stored row by row)
  std::vector<std::string> coordinate_names;  ///< d (dataset "coordinate_names", strings)
};

/// One set in the coordinates of one output: set "post_impact" or "reachable", coords the
/// output's name ("contact", "generalized", or an /outputs/<name>).
struct PointSetArrays {
  std::string set, coords;
  NetArrays net;
  HullArrays hull;
  std::optional<SupportArrays> support;  ///< absent in files written before issue 18
  std::optional<CoverageArrays> coverage;
};

/// Attributes of /net: the options the sets were built with (so `merge` can rebuild them).
struct SetSettings {
  double epsilon = 0, delta = 0, lipschitz = 0;  ///< lipschitz 0: no Lemma-1 statement
  std::int64_t holdout = 0, hull_max_dimension = 0, reachable = 0, max_net_points = 0;
  double flatness_tolerance = 0;
};

/// /sweep (`impactset sweep`): the per-run parameters of a point-valued impact model's runs,
/// one entry per /samples row, plus attributes naming the model and its settings.
struct SweepArrays {
  std::string model;                                                ///< attribute "model"
  std::vector<std::pair<std::string, Eigen::VectorXd>> parameters;  ///< /sweep/<name>
  std::vector<std::pair<std::string, std::string>> attributes;      ///< string attributes
  std::vector<std::pair<std::string, double>> settings;             ///< numeric attributes
};

struct Dataset {
  RunAttributes run;
  ProblemArrays problem;
  SummaryArrays summary;
  std::optional<SampleArrays> samples;
  std::optional<ReachableArrays> reachable;
  /// /outputs in the order of their attribute "index"; empty: contact and generalized.
  std::vector<OutputArrays> outputs;
  std::vector<PointSetArrays> sets;  ///< /net, /hull, /coverage (empty: not computed)
  SetSettings set_settings;          ///< attributes of /net, when sets is not empty
  std::optional<SweepArrays> sweep;  ///< /sweep, written by `impactset sweep`
};

/// Writes the dataset to path.tmp-<host>-<pid>, flushes it to disk and renames it to path only
/// after the file is complete, so an interrupted or failed run (kill -9, a full disk) leaves
/// either no file or the previous complete one; the next write of path on the same host removes
/// temporaries whose process is gone.
/// Sample datasets are chunked and deflate-compressed.
/// @throws std::runtime_error naming the path and the failing HDF5 object.
void WriteDataset(const std::string& path, const Dataset& dataset);

/// Matrix input from another simulator's export: the /problem group only, datasets M (n, n),
/// Jn (m, n), mu (m,), v_minus (n,) and optionally D (m k, n) with attribute k (default
/// D rows / m; D may be absent when every mu is 0), stored row by row as WriteDataset does.
/// Optional /problem attributes h, N, samples (sampler defaults) are returned when present.
/// @throws std::invalid_argument "path:/problem/NAME: what is wrong" for missing or misshapen
///         datasets or a newer schema_version; std::runtime_error "path: HDF5 error at FUNCTION
///         (/object): ..." for files HDF5 cannot read (corrupt, truncated, not HDF5).
struct ProblemInput {
  ProblemArrays problem;
  std::optional<double> h;
  std::optional<std::int64_t> max_steps, samples;
};
ProblemInput ReadProblemInput(const std::string& path);

/// Reads a file written by WriteDataset and checks that its arrays agree in shape (n, contacts,
/// samples, net and hull dimensions).
/// @throws std::invalid_argument "path:/object: rule" for a misshapen or missing-shape dataset
///         or a newer schema_version; std::runtime_error naming path and object for what HDF5
///         cannot read.
Dataset ReadDataset(const std::string& path);

}  // namespace impactset::data
