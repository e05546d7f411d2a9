// read_dataset() / write_dataset(): an impactset HDF5 file (run, merge or sweep) as a dict of
// numpy arrays and back, laid out as in the file (docs/dataset-format.md): per-sample and
// per-point arrays have one row per sample or point.
#include <optional>

#include <pybind11/stl.h>

#include <impactset/data/batch_file.hpp>
#include <impactset/data/dataset.hpp>
#include <impactset/data/hdf5_tree.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include "python/src/bindings.hpp"

namespace impactset::python {
namespace {

// ---- dict -> Dataset: every missing or mistyped entry is a ValueError naming its path.

py::object Item(const py::dict& d, const char* key, const std::string& path) {
  if (!d.contains(key)) BadArgument(path + key, "missing");
  return d[key];
}

template <class T>
T Get(const py::dict& d, const char* key, const std::string& path) {
  try {
    return Item(d, key, path).cast<T>();
  } catch (const py::cast_error&) {
    BadArgument(path + key, "has the wrong type");
  }
}

// An entry that may be absent or None (attributes added in later versions).
template <class T>
std::optional<T> GetOptional(const py::dict& d, const char* key, const std::string& path) {
  if (!d.contains(key) || d[key].is_none()) return std::nullopt;
  return Get<T>(d, key, path);
}

py::dict Dict(const py::dict& d, const char* key, const std::string& path) {
  const py::object o = Item(d, key, path);
  if (!py::isinstance<py::dict>(o)) BadArgument(path + key, "expected a dict");
  return o.cast<py::dict>();
}

template <class T>
std::vector<T> Ints(const py::dict& d, const char* key, const std::string& path) {
  py::array_t<T, py::array::c_style | py::array::forcecast> a;
  try {
    a = Item(d, key, path);
  } catch (const py::error_already_set&) {
    BadArgument(path + key, "expected an array of integers");
  }
  if (a.ndim() != 1) BadArgument(path + key, "expected a 1-D array");
  return std::vector<T>(a.data(), a.data() + a.size());
}

std::vector<double> Doubles(const py::dict& d, const char* key, const std::string& path) {
  const VectorXd v = VectorArg(Item(d, key, path), path + key);
  return std::vector<double>(v.data(), v.data() + v.size());
}

// A Python scalar as a stored attribute: bool and int as int64 (uint64 beyond its range), float,
// str; anything else is a ValueError naming the key.
data::AttributeValue ToAttributeValue(py::handle v, const std::string& key) {
  if (py::isinstance<py::bool_>(v)) return static_cast<std::int64_t>(v.cast<bool>() ? 1 : 0);
  if (py::isinstance<py::int_>(v)) {
    try {
      return v.cast<std::int64_t>();
    } catch (const py::cast_error&) {
      try {
        return v.cast<std::uint64_t>();
      } catch (const py::cast_error&) {
        BadArgument(key, "out of the range of a 64-bit integer");
      }
    }
  }
  if (py::isinstance<py::float_>(v)) return v.cast<double>();
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  BadArgument(key, "expected a bool, int, float or str attribute");
}

py::object FromAttributeValue(const data::AttributeValue& v) {
  return std::visit([](const auto& x) { return py::cast(x); }, v);
}

// The keys of "run" that RunAttributes holds by name; every other key is an option attribute.
constexpr const char* kRunKeys[] = {"system",      "threads",      "shard_index",
                                    "shard_count", "first_sample", "sample_count",
                                    "version",     "git_revision", "created"};

bool IsRunKey(const std::string& key) {
  for (const char* k : kRunKeys) {
    if (key == k) return true;
  }
  return false;
}

data::RunAttributes ToRun(const py::dict& d) {
  const std::string p = "run.";
  data::RunAttributes r;
  r.system = Get<std::string>(d, "system", p);
  r.threads = Get<std::int64_t>(d, "threads", p);
  r.shard_index = Get<std::int64_t>(d, "shard_index", p);
  r.shard_count = Get<std::int64_t>(d, "shard_count", p);
  r.first_sample = Get<std::int64_t>(d, "first_sample", p);
  r.sample_count = Get<std::int64_t>(d, "sample_count", p);
  r.version = Get<std::string>(d, "version", p);
  r.git_revision = Get<std::string>(d, "git_revision", p);
  r.created = Get<std::string>(d, "created", p);
  for (const auto& [k, v] : d) {
    const std::string key = k.cast<std::string>();
    if (IsRunKey(key) || v.is_none()) continue;  // None: an attribute the file does not have
    r.options.push_back({"/", key, ToAttributeValue(v, p + key)});
  }
  return r;
}

data::ProblemArrays ToProblem(const py::dict& d) {
  const std::string p = "problem.";
  data::ProblemArrays a{MatrixArg(Item(d, "M", p), p + "M"),
                        MatrixArg(Item(d, "Jn", p), p + "Jn"),
                        MatrixArg(Item(d, "D", p), p + "D"),
                        MatrixArg(Item(d, "contact_jacobian", p), p + "contact_jacobian"),
                        VectorArg(Item(d, "mu", p), p + "mu"),
                        VectorArg(Item(d, "v_minus", p), p + "v_minus"),
                        Get<std::int64_t>(d, "k", p),
                        {},
                        {}};
  // Column names: absent (or None) in dicts of files of schema version 1.
  a.velocity_names = GetOptional<std::vector<std::string>>(d, "velocity_names", p)
                         .value_or(std::vector<std::string>{});
  a.contact_names = GetOptional<std::vector<std::string>>(d, "contact_names", p)
                        .value_or(std::vector<std::string>{});
  return a;
}

data::SummaryArrays ToSummary(const py::dict& d) {
  const std::string p = "summary.";
  data::SummaryArrays s;
  s.terminated = Get<std::int64_t>(d, "terminated", p);
  s.step_capped = Get<std::int64_t>(d, "step_capped", p);
  s.lcp_failures = Get<std::int64_t>(d, "lcp_failures", p);
  if (d.contains("non_physical")) s.non_physical = Get<std::int64_t>(d, "non_physical", p);
  s.lcp_solves = Get<std::int64_t>(d, "lcp_solves", p);
  s.lcp_fallbacks = Get<std::int64_t>(d, "lcp_fallbacks", p);
  s.non_unique = Get<std::int64_t>(d, "non_unique", p);
  s.worst_residual = Get<double>(d, "worst_residual", p);
  s.energy_ratio_max = Get<double>(d, "energy_ratio_max", p);
  s.contact_velocity_min =
      VectorArg(Item(d, "contact_velocity_min", p), p + "contact_velocity_min");
  s.contact_velocity_max =
      VectorArg(Item(d, "contact_velocity_max", p), p + "contact_velocity_max");
  s.solves_histogram = Ints<std::int64_t>(d, "solves_histogram", p);
  return s;
}

data::SampleArrays ToSamples(const py::dict& d) {
  const std::string p = "samples.";
  data::SampleArrays s;
  s.v_plus = PointsArg(Item(d, "v_plus", p), p + "v_plus");
  s.contact_velocity = PointsArg(Item(d, "contact_velocity", p), p + "contact_velocity");
  s.lcp_solves = Ints<std::int32_t>(d, "lcp_solves", p);
  s.status = Ints<std::int32_t>(d, "status", p);
  s.energy_ratio = Doubles(d, "energy_ratio", p);
  s.non_unique = Ints<std::uint8_t>(d, "non_unique", p);
  return s;
}

data::PointSetArrays ToPointSet(const py::dict& d, const std::string& p) {
  data::PointSetArrays s;
  s.set = Get<std::string>(d, "set", p);
  s.coords = Get<std::string>(d, "coords", p);
  const py::dict net = Dict(d, "net", p);
  const std::string pn = p + "net.";
  s.net.points = PointsArg(Item(net, "points", pn), pn + "points");
  s.net.epsilon = Get<double>(net, "epsilon", pn);
  s.net.separation = Get<double>(net, "separation", pn);
  s.net.coarsenings = Get<std::int64_t>(net, "coarsenings", pn);
  s.net.offered = Get<std::int64_t>(net, "offered", pn);
  s.net.construction = Get<std::string>(net, "construction", pn);
  const py::dict hull = Dict(d, "hull", p);
  const std::string ph = p + "hull.";
  data::HullArrays& h = s.hull;
  h.status = Get<std::string>(hull, "status", ph);
  h.dimension = Get<std::int64_t>(hull, "dimension", ph);
  h.center = VectorArg(Item(hull, "center", ph), ph + "center");
  h.basis = MatrixArg(Item(hull, "basis", ph), ph + "basis");
  h.vertices = PointsArg(Item(hull, "vertices", ph), ph + "vertices");
  h.detail = Get<std::string>(hull, "detail", ph);
  h.facet_normals = PointsArg(Item(hull, "facet_normals", ph), ph + "facet_normals");
  h.facet_bounds = VectorArg(Item(hull, "facet_bounds", ph), ph + "facet_bounds");
  h.volume = Get<double>(hull, "volume", ph);
  h.flatness = Get<double>(hull, "flatness", ph);
  h.distance_roundoff = Get<double>(hull, "distance_roundoff", ph);
  if (hull.contains("margin")) h.margin = Get<double>(hull, "margin", ph);
  if (d.contains("support") && !d["support"].is_none()) {  // absent in the oldest files
    const py::dict sup = d["support"].cast<py::dict>();
    const std::string ps = p + "support.";
    data::SupportArrays a;
    a.directions = PointsArg(Item(sup, "directions", ps), ps + "directions");
    a.values = VectorArg(Item(sup, "values", ps), ps + "values");
    a.attaining_samples = Ints<std::int64_t>(sup, "attaining_samples", ps);
    a.attaining_points = PointsArg(Item(sup, "attaining_points", ps), ps + "attaining_points");
    a.count = Get<std::int64_t>(sup, "count", ps);
    if (sup.contains("first_half_end")) {
      a.first_half_end = Get<std::int64_t>(sup, "first_half_end", ps);
      a.first_half_values = VectorArg(Item(sup, "first_half_values", ps), ps + "first_half_values");
    }
    s.support = a;
  }
  const py::object cov = Item(d, "coverage", p);
  if (!cov.is_none()) {
    const py::dict c = cov.cast<py::dict>();
    const std::string pc = p + "coverage.";
    data::CoverageArrays a;
    if (c.contains("extent")) {
      a.extent = Get<bool>(c, "extent", pc);
      a.extent_width = Get<double>(c, "extent_width", pc);
      a.extent_moved = Get<double>(c, "extent_moved", pc);
      a.extent_converged = Get<bool>(c, "extent_converged", pc);
      a.extent_statement = Get<std::string>(c, "extent_statement", pc);
    }
    a.holdout = Get<std::int64_t>(c, "holdout", pc);
    a.holdout_not_terminated = Get<std::int64_t>(c, "holdout_not_terminated", pc);
    a.missed = Get<std::int64_t>(c, "missed", pc);
    a.delta = Get<double>(c, "delta", pc);
    a.missed_mass_upper = Get<double>(c, "missed_mass_upper", pc);
    a.holdout_assumptions = Get<std::string>(c, "holdout_assumptions", pc);
    a.lemma1 = Get<bool>(c, "lemma1", pc);
    a.lipschitz = Get<double>(c, "lipschitz", pc);
    a.cube_dimension = Get<std::int64_t>(c, "cube_dimension", pc);
    a.log_cells = Get<double>(c, "log_cells", pc);
    a.failure_bound = Get<double>(c, "failure_bound", pc);
    a.samples_needed = Get<double>(c, "samples_needed", pc);
    a.lemma1_assumptions = Get<std::string>(c, "lemma1_assumptions", pc);
    s.coverage = a;
  }
  return s;
}

// "set_settings": the /net attributes, each as stored.
void AddSetSettings(const py::dict& d, data::RunAttributes* run) {
  for (const auto& [k, v] : d) {
    const std::string key = k.cast<std::string>();
    if (!v.is_none())
      run->options.push_back({"/net", key, ToAttributeValue(v, "set_settings." + key)});
  }
}

std::vector<data::OutputArrays> ToOutputs(const py::handle list) {
  std::vector<data::OutputArrays> out;
  int i = 0;
  for (const py::handle o : list) {
    const std::string p = "outputs[" + std::to_string(i++) + "].";
    if (!py::isinstance<py::dict>(o)) BadArgument(p, "expected a dict");
    const py::dict d = o.cast<py::dict>();
    data::OutputArrays a;
    a.name = Get<std::string>(d, "name", p);
    a.kind = Get<std::string>(d, "kind", p);
    a.spec = Get<std::string>(d, "spec", p);
    a.C = MatrixArg(Item(d, "C", p), p + "C");
    a.coordinate_names = Get<std::vector<std::string>>(d, "coordinate_names", p);
    out.push_back(std::move(a));
  }
  return out;
}

data::SweepArrays ToSweep(const py::dict& d) {
  const std::string p = "sweep.";
  data::SweepArrays s;
  s.model = Get<std::string>(d, "model", p);
  for (const auto& [k, v] : Dict(d, "parameters", p)) {
    const std::string name = k.cast<std::string>();
    s.parameters.emplace_back(name, VectorArg(v, p + "parameters." + name));
  }
  for (const auto& [k, v] : Dict(d, "attributes", p)) {
    s.attributes.emplace_back(k.cast<std::string>(), py::str(v).cast<std::string>());
  }
  for (const auto& [k, v] : Dict(d, "settings", p)) {
    s.settings.emplace_back(k.cast<std::string>(), v.cast<double>());
  }
  return s;
}

data::Dataset ToDataset(const py::dict& d) {
  data::Dataset out;
  out.run = ToRun(Dict(d, "run", ""));
  out.problem = ToProblem(Dict(d, "problem", ""));
  out.summary = ToSummary(Dict(d, "summary", ""));
  if (d.contains("samples") && !d["samples"].is_none())
    out.samples = ToSamples(Dict(d, "samples", ""));
  if (d.contains("reachable") && !d["reachable"].is_none()) {
    const py::dict r = Dict(d, "reachable", "");
    out.reachable = data::ReachableArrays{
        PointsArg(Item(r, "velocities", "reachable."), "reachable.velocities"),
        Ints<std::int64_t>(r, "offsets", "reachable.")};
  }
  if (d.contains("sets") && !d["sets"].is_none()) {
    int i = 0;
    for (const py::handle s : d["sets"]) {
      out.sets.push_back(ToPointSet(s.cast<py::dict>(), "sets[" + std::to_string(i++) + "]."));
    }
    if (!out.sets.empty()) AddSetSettings(Dict(d, "set_settings", ""), &out.run);
  }
  if (d.contains("outputs") && !d["outputs"].is_none()) out.outputs = ToOutputs(d["outputs"]);
  if (d.contains("sweep") && !d["sweep"].is_none()) out.sweep = ToSweep(Dict(d, "sweep", ""));
  return out;
}

// ---- Dataset -> dict.

py::dict FromPointSet(const data::PointSetArrays& s) {
  py::dict net, hull, d;
  net["points"] = ToPoints(s.net.points);
  net["epsilon"] = s.net.epsilon;
  net["separation"] = s.net.separation;
  net["coarsenings"] = s.net.coarsenings;
  net["offered"] = s.net.offered;
  net["construction"] = s.net.construction;
  const data::HullArrays& h = s.hull;
  hull["status"] = h.status;
  hull["dimension"] = h.dimension;
  hull["center"] = ToArray(h.center);
  hull["basis"] = ToArray(h.basis);
  hull["vertices"] = ToPoints(h.vertices);
  hull["detail"] = h.detail;
  hull["facet_normals"] = ToPoints(h.facet_normals);
  hull["facet_bounds"] = ToArray(h.facet_bounds);
  hull["volume"] = h.volume;
  hull["flatness"] = h.flatness;
  hull["distance_roundoff"] = h.distance_roundoff;
  hull["margin"] = h.margin;
  d["set"] = s.set;
  d["coords"] = s.coords;
  d["net"] = net;
  d["hull"] = hull;
  d["support"] = py::none();
  if (s.support) {
    py::dict sup;
    sup["directions"] = ToPoints(s.support->directions);
    sup["values"] = ToArray(s.support->values);
    sup["attaining_samples"] = ToArray(s.support->attaining_samples);
    sup["attaining_points"] = ToPoints(s.support->attaining_points);
    sup["count"] = s.support->count;
    if (s.support->first_half_end > 0) {
      sup["first_half_end"] = s.support->first_half_end;
      sup["first_half_values"] = ToArray(s.support->first_half_values);
    }
    d["support"] = sup;
  }
  d["coverage"] = py::none();
  if (s.coverage) {
    const data::CoverageArrays& a = *s.coverage;
    py::dict c;
    c["extent"] = a.extent;
    c["extent_width"] = a.extent_width;
    c["extent_moved"] = a.extent_moved;
    c["extent_converged"] = a.extent_converged;
    c["extent_statement"] = a.extent_statement;
    c["holdout"] = a.holdout;
    c["holdout_not_terminated"] = a.holdout_not_terminated;
    c["missed"] = a.missed;
    c["delta"] = a.delta;
    c["missed_mass_upper"] = a.missed_mass_upper;
    c["holdout_assumptions"] = a.holdout_assumptions;
    c["lemma1"] = a.lemma1;
    c["lipschitz"] = a.lipschitz;
    c["cube_dimension"] = a.cube_dimension;
    c["log_cells"] = a.log_cells;
    c["failure_bound"] = a.failure_bound;
    c["samples_needed"] = a.samples_needed;
    c["lemma1_assumptions"] = a.lemma1_assumptions;
    d["coverage"] = c;
  }
  return d;
}

py::dict FromRunAndProblem(const data::Dataset& x, py::dict d) {
  const data::RunAttributes& r = x.run;
  py::dict run;
  run["system"] = r.system;
  run["threads"] = r.threads;
  run["shard_index"] = r.shard_index;
  run["shard_count"] = r.shard_count;
  run["first_sample"] = r.first_sample;
  run["sample_count"] = r.sample_count;
  run["version"] = r.version;
  run["git_revision"] = r.git_revision;
  run["created"] = r.created;
  for (const data::Attribute& a : r.options) {
    if (a.group == "/") run[py::str(a.name)] = FromAttributeValue(a.value);
  }
  d["run"] = run;
  const data::ProblemArrays& p = x.problem;
  py::dict problem;
  problem["M"] = ToArray(p.M);
  problem["Jn"] = ToArray(p.Jn);
  problem["D"] = ToArray(p.D);
  problem["contact_jacobian"] = ToArray(p.contact_jacobian);
  problem["mu"] = ToArray(p.mu);
  problem["v_minus"] = ToArray(p.v_minus);
  problem["k"] = p.k;
  problem["velocity_names"] = p.velocity_names;
  problem["contact_names"] = p.contact_names;
  d["problem"] = problem;
  const data::SummaryArrays& s = x.summary;
  py::dict summary;
  summary["terminated"] = s.terminated;
  summary["step_capped"] = s.step_capped;
  summary["lcp_failures"] = s.lcp_failures;
  summary["non_physical"] = s.non_physical;
  summary["lcp_solves"] = s.lcp_solves;
  summary["lcp_fallbacks"] = s.lcp_fallbacks;
  summary["non_unique"] = s.non_unique;
  summary["worst_residual"] = s.worst_residual;
  summary["energy_ratio_max"] = s.energy_ratio_max;
  summary["contact_velocity_min"] = ToArray(s.contact_velocity_min);
  summary["contact_velocity_max"] = ToArray(s.contact_velocity_max);
  summary["solves_histogram"] = ToArray(s.solves_histogram);
  d["summary"] = summary;
  return d;
}

py::dict FromDataset(const data::Dataset& x) {
  py::dict d = FromRunAndProblem(x, py::dict());
  d["samples"] = py::none();
  if (x.samples) {
    py::dict s;
    s["v_plus"] = ToPoints(x.samples->v_plus);
    s["contact_velocity"] = ToPoints(x.samples->contact_velocity);
    s["lcp_solves"] = ToArray(x.samples->lcp_solves);
    s["status"] = ToArray(x.samples->status);
    s["energy_ratio"] = ToArray(x.samples->energy_ratio);
    s["non_unique"] = ToArray(x.samples->non_unique);
    d["samples"] = s;
  }
  d["reachable"] = py::none();
  if (x.reachable) {
    py::dict r;
    r["velocities"] = ToPoints(x.reachable->velocities);
    r["offsets"] = ToArray(x.reachable->offsets);
    d["reachable"] = r;
  }
  py::list sets;
  for (const auto& s : x.sets) sets.append(FromPointSet(s));
  d["sets"] = sets;
  py::dict settings;
  for (const data::Attribute& a : x.run.options) {
    if (a.group == "/net") settings[py::str(a.name)] = FromAttributeValue(a.value);
  }
  d["set_settings"] = x.sets.empty() ? py::object(py::none()) : py::object(settings);
  py::list outputs;
  for (const data::OutputArrays& o : x.outputs) {
    py::dict e;
    e["name"] = o.name;
    e["kind"] = o.kind;
    e["spec"] = o.spec;
    e["C"] = ToArray(o.C);
    e["coordinate_names"] = o.coordinate_names;
    outputs.append(e);
  }
  d["outputs"] = outputs;
  d["sweep"] = py::none();
  if (x.sweep) {
    py::dict w, params, attrs, sets_;
    w["model"] = x.sweep->model;
    for (const auto& [k, v] : x.sweep->parameters) params[py::str(k)] = ToArray(v);
    for (const auto& [k, v] : x.sweep->attributes) attrs[py::str(k)] = v;
    for (const auto& [k, v] : x.sweep->settings) sets_[py::str(k)] = v;
    w["parameters"] = params;
    w["attributes"] = attrs;
    w["settings"] = sets_;
    d["sweep"] = w;
  }
  return d;
}

// ---- batch files: the whole file as plain values (data/hdf5_tree.hpp), by object path.

using TreeType = data::TreeArray::Type;

py::array ToNumpy(const data::TreeArray& a) {
  std::vector<py::ssize_t> shape(a.shape.begin(), a.shape.end());
  if (a.type == TreeType::kString) {
    py::list items;
    for (const std::string& s : a.text) items.append(py::str(s));
    return py::array(py::module_::import("numpy").attr("array")(items, "object"))
        .attr("reshape")(py::tuple(py::cast(shape)));
  }
  if (a.type == TreeType::kFloat64) {
    py::array_t<double> out(shape);
    std::copy(a.values.begin(), a.values.end(), out.mutable_data());
    return out;
  }
  const char* dtype = a.type == TreeType::kInt64    ? "int64"
                      : a.type == TreeType::kUInt64 ? "uint64"
                      : a.type == TreeType::kInt32  ? "int32"
                                                    : "uint8";
  py::array_t<std::int64_t> wide(shape);
  std::copy(a.integers.begin(), a.integers.end(), wide.mutable_data());
  if (a.type == TreeType::kUInt64) return wide.attr("view")("uint64");
  return wide.attr("astype")(dtype);
}

data::TreeArray FromNumpy(const std::string& path, py::handle value) {
  data::TreeArray a;
  a.path = path;
  const py::array arr = py::module_::import("numpy").attr("asarray")(value);
  for (py::ssize_t i = 0; i < arr.ndim(); ++i)
    a.shape.push_back(static_cast<std::uint64_t>(arr.shape(i)));
  const std::string kind = py::str(arr.dtype().attr("kind"));
  const auto size = arr.dtype().itemsize();
  const py::list flat = arr.attr("ravel")().attr("tolist")();
  if (kind == "O" || kind == "U" || kind == "S") {
    a.type = TreeType::kString;
    for (const py::handle s : flat) {
      a.text.push_back(py::isinstance<py::bytes>(s) ? s.cast<std::string>()
                                                    : py::str(s).cast<std::string>());
    }
  } else if (kind == "f" && size == 8) {
    a.type = TreeType::kFloat64;
    for (const py::handle x : flat) a.values.push_back(x.cast<double>());
  } else if ((kind == "i" && (size == 8 || size == 4)) ||
             (kind == "u" && (size == 8 || size == 1))) {
    a.type = kind == "u" ? (size == 8 ? TreeType::kUInt64 : TreeType::kUInt8)
                         : (size == 8 ? TreeType::kInt64 : TreeType::kInt32);
    for (const py::handle x : flat) {
      a.integers.push_back(a.type == TreeType::kUInt64
                               ? static_cast<std::int64_t>(x.cast<std::uint64_t>())
                               : x.cast<std::int64_t>());
    }
  } else {
    BadArgument("arrays." + path, "expected float64, int64, int32, uint64, uint8 or strings");
  }
  return a;
}

}  // namespace

py::dict TreeDict(const data::Tree& t) {
  py::dict attributes, arrays, scales, dimensions;
  auto of = [&](const std::string& object) -> py::dict {
    if (!attributes.contains(object)) attributes[py::str(object)] = py::dict();
    return attributes[py::str(object)];
  };
  for (const data::Attribute& a : t.attributes)
    of(a.group)[py::str(a.name)] = FromAttributeValue(a.value);
  for (const data::Tree::List& l : t.lists) of(l.object)[py::str(l.name)] = l.values;
  for (const data::TreeArray& a : t.arrays) {
    arrays[py::str(a.path)] = ToNumpy(a);
    if (!a.scale.empty()) scales[py::str(a.path)] = a.scale;
    if (!a.dimensions.empty()) dimensions[py::str(a.path)] = a.dimensions;
  }
  py::dict d;
  d["groups"] = t.groups;
  d["attributes"] = attributes;
  d["arrays"] = arrays;
  d["scales"] = scales;
  d["dimensions"] = dimensions;
  return d;
}

namespace {

py::dict FromTree(const data::Tree& t) {
  py::dict d = TreeDict(t);
  d["file_kind"] = "batch";
  return d;
}

data::Tree ToTree(const py::dict& d) {
  data::Tree t;
  t.groups = Get<std::vector<std::string>>(d, "groups", "");
  const py::dict scales = Dict(d, "scales", ""), dims = Dict(d, "dimensions", "");
  for (const auto& [k, v] : Dict(d, "arrays", "")) {
    const std::string path = k.cast<std::string>();
    data::TreeArray a = FromNumpy(path, v);
    if (scales.contains(k)) a.scale = scales[k].cast<std::string>();
    if (dims.contains(k)) a.dimensions = dims[k].cast<std::vector<std::string>>();
    t.arrays.push_back(std::move(a));
  }
  for (const auto& [object, attrs] : Dict(d, "attributes", "")) {
    const std::string o = object.cast<std::string>();
    for (const auto& [k, v] : attrs.cast<py::dict>()) {
      const std::string name = k.cast<std::string>();
      if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
        t.lists.push_back({o, name, v.cast<std::vector<std::string>>()});
      } else {
        t.attributes.push_back({o, name, ToAttributeValue(v, "attributes." + o + "." + name)});
      }
    }
  }
  return t;
}

bool IsBatchFile(const std::string& path) {
  return data::ReadRootStringAttribute(path, "file_kind") == "batch" ||
         data::ReadRootStringAttribute(path, "format").rfind("impactset batch", 0) == 0;
}

// A batch file of a newer layout than this build writes: refused, naming both versions.
void CheckBatchVersion(const data::Tree& t, const std::string& path) {
  const data::Attribute* v = data::FindAttribute(t.attributes, "/", "schema_version");
  const auto* version = v ? std::get_if<std::int64_t>(&v->value) : nullptr;
  if (version && *version > data::kBatchSchemaVersion) {
    BadArgument(path + ":/schema_version",
                std::to_string(*version) +
                    ": written by a newer impactset (this one reads batch "
                    "schema versions 1 to " +
                    std::to_string(data::kBatchSchemaVersion) + ")");
  }
}

}  // namespace

py::dict ReadBatchTree(const std::string& path) {
  data::Tree tree;
  {
    py::gil_scoped_release release;
    tree = data::ReadTree(path);
  }
  CheckBatchVersion(tree, path);
  return FromTree(tree);
}

void BindDatasets(py::module_& m) {
  m.def(
      "read_dataset",
      [](py::object path) {
        const std::string p = ExistingFile(path);
        if (IsBatchFile(p)) return ReadBatchTree(p);
        data::Dataset d;
        {
          py::gil_scoped_release release;
          d = data::ReadDataset(p);
        }
        return FromDataset(d);
      },
      py::arg("path"), R"doc(
An impactset HDF5 file (from run, merge, sweep or write_dataset) as a dict, laid out as the file
(docs/dataset-format.md): "run" (root attributes; "version" is impactset_version), "problem",
"summary", "samples" and "reachable" (or None), "outputs" (a list of {name, kind, spec, C,
coordinate_names}; empty: contact and generalized), "sets" (a list of {set, coords, net, hull,
coverage}), "set_settings" (the /net attributes, or None) and "sweep" (or None). Per-sample and
per-point arrays have one row per sample or point.

A batch file (`impactset batch`) reads whole, by object path: {"file_kind": "batch", "groups",
"attributes" ({object: {name: value}}), "arrays" ({"/states/status": array, ...}), "scales"
({path: dimension name}) and "dimensions" ({path: [scale path per dimension]})};
write_dataset writes either layout back. RuntimeError for files HDF5 cannot read.)doc");
  m.def(
      "write_dataset",
      [](py::object path, const py::dict& dataset) {
        const std::string p = FsPath(path);
        if (dataset.contains("file_kind") &&
            py::str(dataset["file_kind"]).cast<std::string>() == "batch") {
          const data::Tree tree = ToTree(dataset);
          py::gil_scoped_release release;
          data::WriteTree(p, tree);
          return;
        }
        const data::Dataset d = ToDataset(dataset);
        py::gil_scoped_release release;
        data::WriteDataset(p, d);
      },
      py::arg("path"), py::arg("dataset"), R"doc(
Writes a dict laid out as read_dataset returns it to an HDF5 file, atomically (a temporary name,
renamed when complete). ValueError names a missing or mistyped entry ("samples.status").)doc");
}

}  // namespace impactset::python
