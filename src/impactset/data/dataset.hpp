#pragma once
// The impactset HDF5 dataset (schema: docs/dataset-format.md). This module knows nothing of
// LCPs or impact laws: it stores named arrays and attributes that the sampler fills in.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include <impactset/data/attributes.hpp>

namespace impactset::data {

/// The layout version written to the root attribute "schema_version" (files without it are
/// version 1). Readers refuse files of a higher version, naming it.
constexpr std::int64_t kSchemaVersion = 2;

/// Root attributes: what produced the file. The run's options (seed, design, h, ..., and the
/// set options stored as attributes of /net) are not spelled here: `options` holds them as stored,
/// and the engine's option table (engine/option_table.hpp) says which exist and what they mean.
struct RunAttributes {
  std::string system;
  std::int64_t threads = 0;  ///< threads the run used
  std::int64_t shard_index = 0;
  std::int64_t shard_count = 1;
  std::int64_t first_sample = 0;  ///< global index of the first sample in this file
  std::int64_t sample_count = 0;  ///< samples in this file
  std::string version;
  std::string git_revision;
  std::string created;  ///< ISO 8601 UTC
  /// Every other scalar attribute of "/" and of "/net", in the order written (read: HDF5's name
  /// order); the /net ones only in files with sets.
  std::vector<Attribute> options;
};

/// The root attributes RunAttributes holds by name (everything else is an option).
inline constexpr const char* kFixedRootAttributes[] = {
    "schema_version",    "file_kind",    "system",       "threads",
    "shard_index",       "shard_count",  "first_sample", "sample_count",
    "impactset_version", "git_revision", "created",      "model"};

/// /problem: the impact state.
struct ProblemArrays {
  Eigen::MatrixXd M, Jn, D, contact_jacobian;
  Eigen::VectorXd mu, v_minus;
  std::int64_t k = 0;
  /// Names of the n velocity coordinates ("root:vx", "v0") and of the contact coordinates (the
  /// rows of contact_jacobian: "c0:floor/foot:n", "c0:t1"): the columns of every per-sample and
  /// per-point array. Stored as the attributes /problem/M@columns and
  /// /problem/contact_jacobian@rows, and as the dimension scales of /samples; empty in files of
  /// schema version 1 (then nothing is labelled).
  std::vector<std::string> velocity_names, contact_names;
};

/// /summary: bounded-memory statistics (always written).
struct SummaryArrays {
  std::int64_t terminated = 0, step_capped = 0, lcp_failures = 0, lcp_solves = 0, lcp_fallbacks = 0,
               non_unique = 0;
  /// Samples that stopped colliding but failed the end-state check (SampleStatus non_physical);
  /// 0 in files written before the check (the attribute is absent there).
  std::int64_t non_physical = 0;
  double worst_residual = 0, energy_ratio_max = 0;
  Eigen::VectorXd contact_velocity_min, contact_velocity_max;
  std::vector<std::int64_t> solves_histogram;
  /// The run's step-cap advice (engine::StepCapAdvice): present, as /summary@advice, when more
  /// than 0.1 % of the samples hit the step cap or failed; empty otherwise (and in older files).
  std::string advice;
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

/// /hull/<set>/<coords>: the convex hull of the net points (setapprox::ConvexHull) inside their
/// affine hull {c + B y}, as half-spaces a . x <= b in ambient coordinates (batch files alike).
struct HullArrays {
  /// "computed", "empty_net", "dimension_too_high" or "failed" (the names of sets::HullStatus);
  /// empty in files of schema version 1 (detail says it).
  std::string status;
  std::string detail;  ///< in words: "skipped: dimension 9 > hull_max_dimension 6", Qhull's text
  std::int64_t dimension = -1;  ///< r, the dimension of the affine hull
  Eigen::VectorXd center;       ///< c (d)
  Eigen::MatrixXd basis;        ///< B (d x r), orthonormal columns
  Eigen::MatrixXd vertices;     ///< d x v, ambient coordinates (stored v x d)
  /// d x F outward normals a_f = B n_f (stored F x d) and bounds b_f: a point x of the affine
  /// hull is inside iff a_f . x <= b_f for every facet. (Version 1 stored n_f (F x r) and offsets
  /// o_f in y = B^T (x - c); the reader converts: a = B n, b = a . c - o.)
  Eigen::MatrixXd facet_normals;
  Eigen::VectorXd facet_bounds;
  double volume = 0;             ///< r-dimensional measure
  double flatness = 0;           ///< largest distance of a net point from the affine hull
  double distance_roundoff = 0;  ///< Qhull's roundoff bound on facet distances
  /// Attribute "margin" (0 when absent): every sample of the set lies in the hull grown by it,
  /// a_f . x <= b_f + margin and within flatness + margin of the affine hull (sets::HullResult).
  double margin = 0;
};

/// /coverage/<set>/<coords>: what is known of the set beyond its samples (docs/coverage.md;
/// sets::CoverageResult has each field's meaning).
struct CoverageArrays {
  // Extent: how far the support values moved in the run's second half (attributes extent_*;
  // absent in files written before: extent = false).
  bool extent = false;
  double extent_width = 0;
  double extent_moved = 0;
  bool extent_converged = false;
  std::string extent_statement;
  // (b) hold-out, no Lipschitz constant needed.
  std::int64_t holdout = 0;                 ///< K' fresh samples that terminated (0: not evaluated)
  std::int64_t holdout_not_terminated = 0;  ///< fresh samples ending step_cap or lcp_failure
  std::int64_t missed = 0;                  ///< of them, farther than epsilon from the net
  double delta = 0;                         ///< confidence 1 - delta
  double missed_mass_upper = 1;  ///< Clopper-Pearson upper bound on the missed probability
  std::string holdout_assumptions;
  // (a) Lemma 1, only with a user-given Lipschitz constant and where it holds (else only
  // lemma1_assumptions, saying why not).
  bool lemma1 = false;
  double lipschitz = 0;
  std::int64_t cube_dimension = 0;  ///< d = m N of the p-sequences
  double log_cells = 0;             ///< log G at the initial radius eps0
  /// P[every sample terminated and the net is not an (eps0 + epsilon)-net] <= this
  double failure_bound = 1;
  double samples_needed = 0;  ///< K for failure_bound <= delta (planner; inf beyond a double)
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
  /// Dataset "first_half_values" (J) and attribute "first_half_end": h_j over the samples before
  /// first_half_end = K / 2 (post-impact sets of a run; absent: empty and 0).
  Eigen::VectorXd first_half_values;
  std::int64_t first_half_end = 0;
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
  std::optional<SupportArrays> support;  ///< absent in the oldest files (before support polytopes)
  std::optional<CoverageArrays> coverage;
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
