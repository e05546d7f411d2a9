// Sets: nets, hulls and coverage (from a run, from samples, or from points), distances between
// sets, and the planner.
#include <optional>

#include <pybind11/stl.h>

#include <impactset/common/error_policy.hpp>
#include <impactset/engine/plan.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/engine/set_distance.hpp>
#include <impactset/setapprox/bounded_net.hpp>
#include <impactset/setapprox/coverage.hpp>
#include <impactset/setapprox/distances.hpp>
#include "python/src/bindings.hpp"
#include "python/src/options.hpp"

namespace impactset::python {
namespace {

using RunPtr = std::shared_ptr<engine::RunResult>;

RunPtr RunOf(py::handle source) {
  if (py::isinstance<engine::RunResult>(source)) return source.cast<RunPtr>();
  if (py::hasattr(source, "run")) return source.attr("run").cast<RunPtr>();
  throw py::type_error("source: expected Samples or Run");
}

// A Run, Samples (which hold their run) or the path of a dataset file.
engine::SetPoints PointsOfSource(py::handle source,
                                 sets::SetKind set,
                                 const std::string& coords,
                                 const std::string& label) {
  if (py::isinstance<engine::RunResult>(source) || py::hasattr(source, "run")) {
    return engine::PointsOf(*RunOf(source), set, coords, label);
  }
  const std::string path = ExistingFile(source);
  return engine::PointsOf(data::ReadDataset(path), set, coords, path);
}

sets::NetResult NetOfPoints(const MatrixXd& points, double epsilon, long long max_points) {
  if (points.cols() == 0) BadArgument("points", "expected at least one point");
  setapprox::BoundedNet net(points.rows(), {.epsilon = epsilon, .max_points = max_points});
  net.InsertBatch(points);
  sets::NetResult r;
  r.points = net.net().points();
  r.epsilon = net.covering_radius();
  r.separation = net.separation();
  r.coarsenings = net.coarsenings();
  r.offered = net.offered();
  return r;
}

VectorXd DistancesToNet(const sets::NetResult& net, const MatrixXd& points) {
  if (net.points.cols() == 0) {
    return VectorXd::Constant(points.cols(), std::numeric_limits<double>::infinity());
  }
  return setapprox::NearestDistances(points, net.points);
}

void BindSetTypes(py::module_& m) {
  py::class_<sets::NetResult>(m, "Net", R"doc(
An epsilon-net: points (P, d), a subset of the points offered, such that every point offered lies
within epsilon (the covering radius) of one of them; net points are pairwise farther apart than
separation.)doc")
      .def_property_readonly(
          "points", [](const sets::NetResult& n) { return ToPoints(n.points); },
          "(P, d) the net points, one row each")
      .def_readonly("epsilon", &sets::NetResult::epsilon,
                    "covering radius reached: every point offered lies within it of a net point")
      .def_readonly("separation", &sets::NetResult::separation,
                    "net points are pairwise farther apart than this")
      .def_readonly("coarsenings", &sets::NetResult::coarsenings,
                    "radius doublings forced by the net-size cap (0: separation = epsilon)")
      .def_readonly("offered", &sets::NetResult::offered,
                    "points offered to the net (terminated samples, trajectory velocities or rows)")
      .def_property_readonly(
          "construction", [](const sets::NetResult& n) { return sets::ToString(n.construction); },
          "\"greedy in sample order\", or \"union of shard nets\" (merged without kept samples: "
          "covers within epsilon, separation not kept)")
      .def(
          "distances",
          [](const sets::NetResult& n, py::object points) {
            return ToArray(DistancesToNet(n, PointsArg(points, "points")));
          },
          py::arg("points"), "Distance of each row of points to the nearest net point.")
      .def("__len__", [](const sets::NetResult& n) { return n.points.cols(); })
      .def("__repr__", [](const sets::NetResult& n) {
        return "<impactset.Net: " + std::to_string(n.points.cols()) + " points in R^" +
               std::to_string(n.points.rows()) + ", epsilon " + std::to_string(n.epsilon) + ">";
      });

  py::class_<sets::HullResult>(m, "Hull", R"doc(
A convex hull, computed in the points' affine hull {center + basis @ y} (dimension r, so flat sets
get a hull of their own dimension): vertices (V, d) in ambient coordinates; facet_normals (F, r)
and facet_offsets (F,) in the coordinates y = basis.T @ (x - center): y is inside iff
normals @ y + offsets <= 0; volume is r-dimensional. status: "computed", "empty_net",
"dimension_too_high" or "failed" (detail says why).)doc")
      .def_property_readonly(
          "status", [](const sets::HullResult& h) { return sets::ToString(h.status); },
          "\"computed\", \"empty_net\", \"dimension_too_high\" or \"failed\"")
      .def_readonly(
          "detail", &sets::HullResult::detail,
          "the status in words (why skipped or failed, thinning); Qhull's messages follow")
      .def_readonly("dimension", &sets::HullResult::dimension,
                    "r, the dimension of the points' affine hull (-1: no point)")
      .def_property_readonly(
          "center", [](const sets::HullResult& h) { return ToArray(h.center); },
          "(d,) c, the points' centroid: y = basis.T @ (x - center)")
      .def_property_readonly(
          "basis", [](const sets::HullResult& h) { return ToArray(h.basis); },
          "(d, r) orthonormal columns spanning the affine hull's directions")
      .def_property_readonly(
          "vertices", [](const sets::HullResult& h) { return ToPoints(h.vertices); },
          "(V, d) the hull's vertices in ambient coordinates, one row each")
      .def_property_readonly(
          "facet_normals", [](const sets::HullResult& h) { return ToPoints(h.facet_normals); },
          "(F, r) outward unit facet normals in the coordinates y")
      .def_property_readonly(
          "facet_offsets", [](const sets::HullResult& h) { return ToArray(h.facet_offsets); },
          "(F,) y is inside iff facet_normals @ y + facet_offsets <= 0")
      .def_readonly("volume", &sets::HullResult::volume,
                    "r-dimensional measure of the hull (coordinate units to the power r)")
      .def_readonly(
          "flatness", &sets::HullResult::flatness,
          "largest distance of a point from the affine hull (what dimension r leaves out)")
      .def_readonly("distance_roundoff", &sets::HullResult::distance_roundoff,
                    "Qhull's roundoff bound on facet distances")
      .def_readonly("margin", &sets::HullResult::margin,
                    "every terminated sample lies in the hull grown by this (the net's covering "
                    "radius plus any thinning radius): contains() tests the grown hull")
      .def(
          "distances",
          [](const sets::HullResult& h, py::object points) {
            return ToArray(engine::DistancesToHull(h, PointsArg(points, "points")));
          },
          py::arg("points"), "Distance of each row of points to the hull (0 inside).")
      .def(
          "contains",
          [](const sets::HullResult& h, py::object points, double tolerance) {
            return ToArray(engine::HullContains(h, PointsArg(points, "points"), tolerance));
          },
          py::arg("points"), py::arg("tolerance") = 1e-9,
          "Whether each row of points lies in the stored hull up to tolerance (bool array): the "
          "net's hull grown by margin, which holds every terminated sample of the run.")
      .def("__repr__", [](const sets::HullResult& h) {
        return "<impactset.Hull: " + std::string(sets::ToString(h.status)) + ", dimension " +
               std::to_string(h.dimension) + ", " + std::to_string(h.vertices.cols()) +
               " vertices, volume " + std::to_string(h.volume) + ">";
      });
}

void BindCoverageTypes(py::module_& m) {
  py::class_<sets::CoverageResult>(m, "Coverage", R"doc(
What is known of a post-impact set beyond its samples (docs/coverage.md), three statements with
hypotheses of their own:
- extent (an observation, no probability): extent_moved is the largest rise of a support value
  from the run's first half to the whole run, as a fraction of the set's largest width;
  extent_converged when it is at most 1 %.
- hold-out (mass, not extent): P[missed mass <= missed_mass_upper] >= 1 - delta, the mass under
  iid p-sequences of outcomes farther than epsilon from the net, from `holdout` fresh terminated
  samples of which `missed` were farther. Outcomes iid sampling reaches rarely weigh little in it.
- Lemma 1 (with a Lipschitz constant of the contact output, iid or mixed design):
  P[every sample terminates and the net is not an (eps0 + epsilon)-net] <= failure_bound, eps0 the
  radius fixed before sampling. Where it does not hold, lemma1 is False and lemma1_assumptions
  says why.)doc")
      .def_readonly("extent", &sets::CoverageResult::extent,
                    "whether the extent statement was evaluated")
      .def_readonly("extent_width", &sets::CoverageResult::extent_width,
                    "the sampled set's largest axis width (output units)")
      .def_readonly("extent_moved", &sets::CoverageResult::extent_moved,
                    "largest rise of a support value from the run's first half to the whole "
                    "run, as a fraction of extent_width (inf: the first half had no outcome)")
      .def_readonly("extent_converged", &sets::CoverageResult::extent_converged,
                    "extent_moved <= 1 %: an observation of the samples, not a bound on the set")
      .def_readonly("extent_statement", &sets::CoverageResult::extent_statement,
                    "the extent statement in words")
      .def_readonly("holdout", &sets::CoverageResult::holdout,
                    "K', fresh hold-out samples that terminated (0: no hold-out bound)")
      .def_readonly("holdout_not_terminated", &sets::CoverageResult::holdout_not_terminated,
                    "fresh hold-out samples that hit the step cap or an LCP failure (left out)")
      .def_readonly("missed", &sets::CoverageResult::missed,
                    "terminated hold-out samples farther than epsilon from the net")
      .def_readonly("delta", &sets::CoverageResult::delta,
                    "the hold-out statement holds with confidence 1 - delta (on its own, per "
                    "output); Lemma 1's bound is failure_bound")
      .def_readonly(
          "missed_mass_upper", &sets::CoverageResult::missed_mass_upper,
          "Clopper-Pearson upper bound on the probability mass the net misses (1: no bound)")
      .def_readonly("holdout_assumptions", &sets::CoverageResult::holdout_assumptions,
                    "the hold-out statement's hypotheses, in words")
      .def_readonly("lemma1", &sets::CoverageResult::lemma1,
                    "whether Lemma 1 is stated (a Lipschitz constant was given and the lemma "
                    "holds for this output and design; else lemma1_assumptions says why not)")
      .def_readonly("lipschitz", &sets::CoverageResult::lipschitz,
                    "L, the user's Lipschitz constant for Lemma 1 (0 without)")
      .def_readonly(
          "cube_dimension", &sets::CoverageResult::cube_dimension,
          "d = m N (contacts x max_steps), the dimension of the p-sequences' cube [0,1]^d")
      .def_readonly("log_cells", &sets::CoverageResult::log_cells,
                    "log G (natural log), G the sub-cubes of Lemma 1 at the initial radius")
      .def_readonly("failure_bound", &sets::CoverageResult::failure_bound,
                    "Lemma 1: P[every sample terminates and the net is not an (eps0 + epsilon)-net "
                    "of the set] <= this, eps0 the radius fixed before sampling, epsilon the "
                    "net's covering radius (2 eps0 without coarsening); 1 (no bound) when some "
                    "sample of the run did not terminate (lemma1_assumptions says how many)")
      .def_readonly("samples_needed", &sets::CoverageResult::samples_needed,
                    "the smallest K of iid samples with Lemma 1's failure_bound <= delta, assuming "
                    "every sample terminates (inf beyond a double)")
      .def_readonly("lemma1_assumptions", &sets::CoverageResult::lemma1_assumptions,
                    "Lemma 1's hypotheses in words, or why it is not stated")
      .def("__repr__", [](const sets::CoverageResult& c) {
        return "<impactset.Coverage: hold-out " + std::to_string(c.holdout) + ", missed " +
               std::to_string(c.missed) +
               ", missed mass <= " + std::to_string(c.missed_mass_upper) + ">";
      });

  py::class_<sets::PointSet>(m, "PointSet", R"doc(
One set in the coordinates of one output: set "post_impact" or "reachable", output (also
available as coords) the output's name ("contact", "generalized", or one of run(outputs=...)),
its net, hull and (post-impact sets of a run with coverage) coverage.)doc")
      .def_property_readonly(
          "set", [](const sets::PointSet& s) { return sets::ToString(s.set); },
          "\"post_impact\" (terminated samples' v+) or \"reachable\" (every velocity of every "
          "sample)")
      .def_readonly("output", &sets::PointSet::output,
                    "the output's name: \"contact\", \"generalized\" or one of run(outputs=...)")
      .def_readonly("coords", &sets::PointSet::output, "the same as output")
      .def_readonly("net", &sets::PointSet::net, "the set's Net")
      .def_readonly("hull", &sets::PointSet::hull, "the convex Hull of the net's points")
      .def_readonly("coverage", &sets::PointSet::coverage,
                    "Coverage (post-impact sets of a run with coverage), else None")
      .def_property_readonly(
          "ranges", [](const sets::PointSet& s) { return ToArray(sets::AxisRanges(s.support)); },
          "(d, 2) array: each coordinate's least and largest value over every point of the set "
          "(exact, from its support polytope; not from the net)")
      .def("__repr__", [](const sets::PointSet& s) {
        return "<impactset.PointSet " + std::string(sets::ToString(s.set)) + "/" + s.output + ": " +
               std::to_string(s.net.points.cols()) + " net points, hull " +
               sets::ToString(s.hull.status) + ">";
      });
}

void BindDistanceTypes(py::module_& m) {
  py::class_<engine::HullDistanceSummary>(m, "HullDistance",
                                          "Distances of one set's points to the other's hull.")
      .def_readonly("computed", &engine::HullDistanceSummary::computed,
                    "whether the hull and the distances were computed (else status says why)")
      .def_readonly("status", &engine::HullDistanceSummary::status,
                    "\"computed\", or \"not computed: <Qhull's message>\"")
      .def_readonly("max", &engine::HullDistanceSummary::max,
                    "largest distance of a point to the hull")
      .def_readonly("outside", &engine::HullDistanceSummary::outside,
                    "points farther than the hull's tolerance");
  py::class_<engine::SetDistance>(m, "SetDistance", R"doc(
Distances between two runs' sets (`impactset distance`): hausdorff = max(a_to_b, b_to_a) between
the points standing for each set (kept samples, else the net; net_slack = the nets' radii by
which the sets' own distances may differ), and each set's points to the other's convex hull.)doc")
      .def_readonly("hausdorff", &engine::SetDistance::hausdorff, "max(a_to_b, b_to_a)")
      .def_readonly("a_to_b", &engine::SetDistance::a_to_b,
                    "h(A, B): largest distance of a point of A to the nearest point of B")
      .def_readonly("b_to_a", &engine::SetDistance::b_to_a,
                    "h(B, A): largest distance of a point of B to the nearest point of A")
      .def_readonly("net_slack", &engine::SetDistance::net_slack,
                    "a's plus b's net radius (0 for kept samples): the sets' own distances may "
                    "differ by this")
      .def_readonly("a_to_hull_b", &engine::SetDistance::a_to_hull_b,
                    "HullDistance of a's points to b's convex hull")
      .def_readonly("b_to_hull_a", &engine::SetDistance::b_to_hull_a,
                    "HullDistance of b's points to a's convex hull")
      .def("__repr__", [](const engine::SetDistance& d) {
        return "<impactset.SetDistance: hausdorff " + std::to_string(d.hausdorff) + ">";
      });
  py::class_<setapprox::DirectedDistance>(m, "DirectedDistance",
                                          "h(A, B) = max over rows a of A of min over B |a - b|.")
      .def_readonly("distance", &setapprox::DirectedDistance::distance,
                    "h(A, B) = max over rows a of A of min over B |a - b|")
      .def_readonly("from_index", &setapprox::DirectedDistance::from_index,
                    "a row of A attaining it")
      .def_readonly("to_index", &setapprox::DirectedDistance::to_index, "its nearest row of B");
  py::class_<setapprox::HausdorffDistanceResult>(m, "Hausdorff",
                                                 "Hausdorff distance max(h(A, B), h(B, A)).")
      .def_readonly("distance", &setapprox::HausdorffDistanceResult::distance,
                    "max(h(A, B), h(B, A))")
      .def_readonly("a_to_b", &setapprox::HausdorffDistanceResult::a_to_b,
                    "DirectedDistance h(A, B)")
      .def_readonly("b_to_a", &setapprox::HausdorffDistanceResult::b_to_a,
                    "DirectedDistance h(B, A)")
      .def("__float__", [](const setapprox::HausdorffDistanceResult& h) { return h.distance; })
      .def("__repr__", [](const setapprox::HausdorffDistanceResult& h) {
        return "<impactset.Hausdorff " + std::to_string(h.distance) + ">";
      });
}

void BindPlanTypes(py::module_& m) {
  py::class_<engine::HoldoutPlan>(m, "HoldoutPlan",
                                  "K' fresh samples that, with no miss, bound the missed mass.")
      .def_readonly("samples", &engine::HoldoutPlan::samples,
                    "K': fresh samples that, with no miss, give the target missed mass")
      .def_readonly("missed_mass", &engine::HoldoutPlan::missed_mass,
                    "the missed-mass bound reached with K' samples and no miss (<= the target)")
      .def_readonly("assumptions", &engine::HoldoutPlan::assumptions, "the hypotheses, in words");
  py::class_<engine::Lemma1Plan>(m, "Lemma1Plan",
                                 "K samples that make an epsilon-net with probability 1 - delta.")
      .def_readonly("lipschitz", &engine::Lemma1Plan::lipschitz,
                    "L, the Lipschitz constant planned for")
      .def_readonly("cube_dimension", &engine::Lemma1Plan::cube_dimension,
                    "d = m N (contacts x max_steps), the dimension of the p-sequences' cube")
      .def_readonly("samples", &engine::Lemma1Plan::samples,
                    "K (an integer, possibly beyond 2^63, as a float)")
      .def_readonly("log_cells", &engine::Lemma1Plan::log_cells,
                    "log G (natural log), G = ceil(L sqrt(d) / epsilon)^d sub-cubes")
      .def_readonly("assumptions", &engine::Lemma1Plan::assumptions, "the hypotheses, in words");
  py::class_<engine::PlanResult>(m, "Plan", "What `impactset plan` prints.")
      .def_readonly("epsilon", &engine::PlanResult::epsilon,
                    "the net radius planned for (run()'s epsilon, velocity units)")
      .def_readonly("delta", &engine::PlanResult::delta,
                    "the hold-out statement holds with confidence 1 - delta (on its own, per "
                    "output); Lemma 1's bound is failure_bound")
      .def_readonly("max_steps", &engine::PlanResult::max_steps,
                    "N, the step cap used for the cube dimension d = m N")
      .def_readonly("holdout", &engine::PlanResult::holdout, "the HoldoutPlan")
      .def_readonly("lemma1", &engine::PlanResult::lemma1,
                    "the Lemma1Plan (with lipschitz), else None");
  py::class_<setapprox::HoldoutBound>(m, "HoldoutBound", R"doc(
Clopper-Pearson: P[missed mass <= missed_mass_upper] >= 1 - delta from `holdout` fresh samples of
which `missed` were farther than epsilon from the net.)doc")
      .def_readonly("holdout", &setapprox::HoldoutBound::holdout, "K', the fresh samples")
      .def_readonly("missed", &setapprox::HoldoutBound::missed,
                    "x, those farther than epsilon from the net")
      .def_readonly("delta", &setapprox::HoldoutBound::delta,
                    "the bound holds with confidence 1 - delta")
      .def_readonly("missed_fraction", &setapprox::HoldoutBound::missed_fraction, "x / K'")
      .def_readonly("missed_mass_upper", &setapprox::HoldoutBound::missed_mass_upper,
                    "U: P[missed mass <= U] >= 1 - delta (1 - delta^(1/K') when x = 0)")
      .def_readonly("assumptions", &setapprox::HoldoutBound::assumptions,
                    "the hypotheses, in words");
  py::class_<setapprox::Lemma1Bound>(m, "Lemma1Bound", R"doc(
Lemma 1 of Halm & Posa: P[K iid samples of an L-Lipschitz map of [0,1]^d give an epsilon-net]
>= success_lower_bound.)doc")
      .def_readonly("cells_per_axis", &setapprox::Lemma1Bound::cells_per_axis,
                    "ceil(L sqrt(d) / epsilon), sub-cubes per axis (an integer, as a float)")
      .def_readonly("log_cells", &setapprox::Lemma1Bound::log_cells,
                    "log G = d log(cells_per_axis) (natural log), G the sub-cubes")
      .def_readonly("samples", &setapprox::Lemma1Bound::samples,
                    "K (an integer, possibly beyond 2^63, as a float)")
      .def_readonly("failure_bound", &setapprox::Lemma1Bound::failure_bound,
                    "min(1, G (1 - 1/G)^K): bound on P[not an epsilon-net]")
      .def_readonly("success_lower_bound", &setapprox::Lemma1Bound::success_lower_bound,
                    "1 - failure_bound: P[epsilon-net] is at least this")
      .def_readonly("assumptions", &setapprox::Lemma1Bound::assumptions,
                    "the hypotheses, in words");
}

void BindSetFunctions(py::module_& m) {
  m.def(
      "net",
      [](py::object points, double epsilon, long long max_points) {
        return NetOfPoints(PointsArg(points, "points"), epsilon, max_points);
      },
      py::arg("points"), py::arg("epsilon"), py::arg("max_points") = 50000, R"doc(
The greedy epsilon-net of the rows of points (N, d), offered in row order; beyond max_points net
points the radius doubles (Net.epsilon is the covering radius reached).)doc");
  m.def(
      "hull",
      [](py::object points, double flatness_tolerance, int max_dimension) {
        sets::SetOptions o;
        o.flatness_tolerance = flatness_tolerance;
        o.hull_max_dimension = max_dimension;
        o.Validate();
        return sets::HullOfPoints(PointsArg(points, "points"), o);
      },
      py::arg("points"), py::arg("flatness_tolerance") = 1e-6, py::arg("max_dimension") = 6,
      R"doc(
The convex hull of the rows of points (N, d) in their affine hull (relative SVD tolerance
flatness_tolerance); skipped (status "dimension_too_high") above max_dimension (1 ... 9).)doc");
  m.def(
      "_sets",
      [](py::object source, const py::dict& options) {
        const RunPtr r = RunOf(source);
        // In the run's outputs: a run with outputs=[...] gets its sets in those coordinates again.
        engine::RunOptions o = r->options;
        std::vector<sets::OutputMap> outputs = std::move(o.set_options.outputs);
        o.set_options = sets::SetOptions{};
        o.set_options.outputs = std::move(outputs);
        for (const auto& [name, value] : KeywordOptions(options, engine::kPythonSets)) {
          engine::SetOption(engine::FindOption(name), value, &o);
        }
        o.set_options.Validate();
        py::gil_scoped_release release;
        return engine::SetsFromSamples(*r, o.set_options);
      },
      py::arg("source"), py::arg("options"), R"doc(
The nets, hulls and coverage statements of Samples (or of a Run that kept its samples), with the
options of run(): the same sets a run with these options builds while it samples. Reachable sets
need kept trajectories (sample(..., keep_trajectories=True)). Returns a list of PointSet.)doc");
}

void BindDistanceFunctions(py::module_& m) {
  m.def(
      "hausdorff",
      [](py::object a, py::object b) {
        return setapprox::HausdorffDistance(PointsArg(a, "a"), PointsArg(b, "b"));
      },
      py::arg("a"), py::arg("b"), "Hausdorff distance between the rows of a and of b.");
  m.def(
      "nearest_distances",
      [](py::object queries, py::object points) {
        return ToArray(setapprox::NearestDistances(PointsArg(queries, "queries"),
                                                   PointsArg(points, "points")));
      },
      py::arg("queries"), py::arg("points"),
      "For each row of queries, the distance to the nearest row of points (k-d tree).");
  m.def(
      "distance",
      [](py::object a, py::object b, const std::string& set, const std::string& coords) {
        const sets::SetKind s = sets::ParseSetKind(set);
        return engine::DistanceBetween(PointsOfSource(a, s, coords, "a"),
                                       PointsOfSource(b, s, coords, "b"));
      },
      py::arg("a"), py::arg("b"), py::arg("set") = "post_impact", py::arg("coords") = "contact",
      R"doc(
`impactset distance` between two runs' sets: a and b are Run, Samples, or paths of dataset
files; coords names an output both have ("contact", "generalized", or one of run(outputs=...)).
Returns a SetDistance.)doc");
  m.def(
      "plan",
      [](const Problem& p, std::optional<double> epsilon, double delta,
         std::optional<double> lipschitz, std::optional<int> max_steps, double missed_mass) {
        engine::PlanOptions o{epsilon, delta, lipschitz, max_steps, missed_mass};
        return engine::Plan(p.loaded, o);
      },
      py::arg("problem"), py::kw_only(), py::arg("epsilon") = py::none(), py::arg("delta") = 0.05,
      py::arg("lipschitz") = py::none(), py::arg("max_steps") = py::none(),
      py::arg("missed_mass") = 1e-3, R"doc(
`impactset plan`: the hold-out size K' whose samples, with no miss, bound the missed mass by
missed_mass, and with a Lipschitz constant the Lemma-1 count K of iid samples that make the net a
2 epsilon-net when every sample terminates, each at confidence 1 - delta, for nets of radius
epsilon (default: the contact radius run() uses) and the N a run uses.)doc");
  m.def("holdout_bound", &setapprox::ComputeHoldoutBound, py::arg("holdout"), py::arg("missed"),
        py::arg("delta") = 0.05,
        "The Clopper-Pearson bound of `missed` misses among `holdout` fresh samples.");
  m.def(
      "lemma1_bound",
      [](double lipschitz, int dimension, double epsilon, double samples) {
        return setapprox::ComputeLemma1Bound({lipschitz, dimension, epsilon}, samples);
      },
      py::arg("lipschitz"), py::arg("dimension"), py::arg("epsilon"), py::arg("samples"),
      "Lemma 1's bound for `samples` iid samples of an L-Lipschitz map of the d-cube.");
}

}  // namespace

void BindSets(py::module_& m) {
  BindSetTypes(m);
  BindCoverageTypes(m);
  BindDistanceTypes(m);
  BindPlanTypes(m);
  BindSetFunctions(m);
  BindDistanceFunctions(m);
}

}  // namespace impactset::python
