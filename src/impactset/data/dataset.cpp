#include <impactset/data/dataset.hpp>

#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>

#include <H5Cpp.h>

#include <impactset/data/internal/atomic_file.hpp>
#include <impactset/data/internal/dataset_shapes.hpp>
#include <impactset/data/internal/hdf5_io.hpp>
#include <impactset/data/internal/isolated_read.hpp>

namespace impactset::data {

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
constexpr hsize_t kChunkRows = 4096;  // ~100 KB chunks for n ~ 3..10 columns
constexpr int kDeflateLevel = 4;      // measured sweet spot of size vs time for float data

[[noreturn]] void Fail(const std::string& path, const std::string& what, const H5::Exception& e) {
  throw std::runtime_error(path + ": HDF5 error at " + what + ": " + e.getDetailMsg());
}

H5::DSetCreatPropList Chunked(hsize_t rows, hsize_t cols) {
  H5::DSetCreatPropList p;
  if (rows > 0 && cols > 0) {
    const hsize_t chunk[2] = {std::min(rows, kChunkRows), cols};
    p.setChunk(2, chunk);  // callers pass rank-2 shapes only
    p.setDeflate(kDeflateLevel);
  }
  return p;
}

template <typename T>
const H5::PredType& Type();
template <>
const H5::PredType& Type<double>() {
  return H5::PredType::NATIVE_DOUBLE;
}
template <>
const H5::PredType& Type<std::int32_t>() {
  return H5::PredType::NATIVE_INT32;
}
template <>
const H5::PredType& Type<std::int64_t>() {
  return H5::PredType::NATIVE_INT64;
}
template <>
const H5::PredType& Type<std::uint8_t>() {
  return H5::PredType::NATIVE_UINT8;
}

template <typename T>
void Write(H5::Group& g,
           const std::string& name,
           const T* data,
           hsize_t rows,
           hsize_t cols,
           bool chunk,
           int rank) {
  const hsize_t dims[2] = {rows, cols};
  H5::DataSpace space(rank, dims);
  H5::DSetCreatPropList props = chunk && rank == 2 ? Chunked(rows, cols) : H5::DSetCreatPropList();
  if (chunk && rank == 1 && rows > 0) {
    const hsize_t c1[1] = {std::min(rows, kChunkRows * 8)};
    props = H5::DSetCreatPropList();
    props.setChunk(1, c1);
    props.setDeflate(kDeflateLevel);
  }
  try {
    H5::DataSet ds = g.createDataSet(name, Type<T>(), space, props);
    if (rows > 0 && (rank == 1 || cols > 0)) ds.write(data, Type<T>());
  } catch (const H5::Exception& e) {
    throw H5::Exception(e.getFuncName() + " (dataset " + name + ")", e.getDetailMsg());
  }
}

// A matrix whose rows are the rows of the stored dataset (problem matrices).
void WriteMatrix(H5::Group& g, const std::string& name, const Eigen::MatrixXd& a) {
  const RowMatrix r = a;
  Write<double>(g, name, r.data(), static_cast<hsize_t>(a.rows()), static_cast<hsize_t>(a.cols()),
                false, 2);
}

// A matrix whose columns are samples: stored with one row per sample (count x dim).
void WriteColumnsAsRows(H5::Group& g, const std::string& name, const Eigen::MatrixXd& a) {
  Write<double>(g, name, a.data(), static_cast<hsize_t>(a.cols()), static_cast<hsize_t>(a.rows()),
                true, 2);
}

template <typename T>
void WriteVector(H5::Group& g, const std::string& name, const std::vector<T>& v, bool chunk) {
  Write<T>(g, name, v.data(), v.size(), 0, chunk, 1);
}

void WriteVector(H5::Group& g, const std::string& name, const Eigen::VectorXd& v) {
  Write<double>(g, name, v.data(), static_cast<hsize_t>(v.size()), 0, false, 1);
}

void Attr(H5::H5Object& o, const std::string& name, const std::string& value) {
  H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
  o.createAttribute(name, t, H5::DataSpace(H5S_SCALAR)).write(t, value);
}
void Attr(H5::H5Object& o, const std::string& name, double value) {
  o.createAttribute(name, H5::PredType::NATIVE_DOUBLE, H5::DataSpace(H5S_SCALAR))
      .write(H5::PredType::NATIVE_DOUBLE, &value);
}
void Attr(H5::H5Object& o, const std::string& name, std::int64_t value) {
  o.createAttribute(name, H5::PredType::NATIVE_INT64, H5::DataSpace(H5S_SCALAR))
      .write(H5::PredType::NATIVE_INT64, &value);
}

// ---- labels: the columns of 2-D datasets, and netCDF-4 dimensions (docs/dataset-format.md)

bool Labelled(const std::vector<std::string>& names, Eigen::Index columns) {
  return !names.empty() && static_cast<Eigen::Index>(names.size()) == columns;
}

std::unique_ptr<H5::DataSet> Open(H5::Group& g, const std::string& name) {
  return std::make_unique<H5::DataSet>(g.openDataSet(name));
}

// The coordinate names of an output: its own, or the problem's for the built-in two.
std::vector<std::string> CoordinateNames(const Dataset& d, const std::string& coords) {
  for (const OutputArrays& o : d.outputs) {
    if (o.name == coords) return o.coordinate_names;
  }
  if (coords == "contact") return d.problem.contact_names;
  if (coords == "generalized") return d.problem.velocity_names;
  return {};
}

void LabelProblem(H5::Group& p, const ProblemArrays& a) {
  if (Labelled(a.velocity_names, a.M.cols())) {
    internal::WriteStringsAttribute(*Open(p, "M"), "columns", a.velocity_names);
  }
  if (Labelled(a.contact_names, a.contact_jacobian.rows())) {
    internal::WriteStringsAttribute(*Open(p, "contact_jacobian"), "rows", a.contact_names);
  }
}

// /samples: dimensions sample (global indices), velocity and contact_coordinate (names).
void LabelSamples(H5::Group& sg, const Dataset& d) {
  const SampleArrays& a = *d.samples;
  const ProblemArrays& p = d.problem;
  if (!Labelled(p.velocity_names, a.v_plus.rows()) ||
      !Labelled(p.contact_names, a.contact_velocity.rows())) {
    return;  // xarray refuses a dataset with some dimensions named and others not
  }
  using internal::Dimension;
  const auto count = static_cast<long long>(a.status.size());
  const H5::DataSet sample =
      internal::WriteScale(sg, Dimension{"sample", {}, d.run.first_sample, count});
  const H5::DataSet velocity = internal::WriteScale(sg, Dimension{"velocity", p.velocity_names});
  const H5::DataSet contact =
      internal::WriteScale(sg, Dimension{"contact_coordinate", p.contact_names});
  internal::AttachScales(sg, "v_plus", {sample, velocity});
  internal::AttachScales(sg, "contact_velocity", {sample, contact});
  internal::WriteStringsAttribute(*Open(sg, "v_plus"), "columns", p.velocity_names);
  internal::WriteStringsAttribute(*Open(sg, "contact_velocity"), "columns", p.contact_names);
  for (const char* name : {"lcp_solves", "status", "energy_ratio", "non_unique"}) {
    internal::AttachScales(sg, name, {sample});
  }
}

// A net's points: dimensions point (0 ... size - 1) and coordinate (the output's names).
void LabelNet(H5::Group& n, const Eigen::MatrixXd& points, const std::vector<std::string>& names) {
  if (!Labelled(names, points.rows())) return;
  using internal::Dimension;
  const H5::DataSet point =
      internal::WriteScale(n, Dimension{"point", {}, 0, static_cast<long long>(points.cols())});
  const H5::DataSet coordinate = internal::WriteScale(n, Dimension{"coordinate", names});
  internal::AttachScales(n, "points", {point, coordinate});
  internal::WriteStringsAttribute(*Open(n, "points"), "columns", names);
}

void WriteSets(H5::H5File& f, const Dataset& d) {
  const std::vector<PointSetArrays>& sets = d.sets;
  if (sets.empty()) return;
  f.createGroup("/net");
  auto group = [&](const std::string& path) {
    // Creates each missing level of an absolute path.
    std::string at;
    size_t pos = 1;
    while (pos <= path.size()) {
      const size_t end = path.find('/', pos);
      at = path.substr(0, end);
      if (!f.nameExists(at)) f.createGroup(at);
      if (end == std::string::npos) break;
      pos = end + 1;
    }
    return f.openGroup(path);
  };
  for (const PointSetArrays& s : sets) {
    const std::string tail = "/" + s.set + "/" + s.coords;
    H5::Group n = group("/net" + tail);
    WriteColumnsAsRows(n, "points", s.net.points);
    // A scalar dataset (version 1: a 1-element vector): no dimension of its own for netCDF.
    n.createDataSet("epsilon", H5::PredType::NATIVE_DOUBLE, H5::DataSpace(H5S_SCALAR))
        .write(&s.net.epsilon, H5::PredType::NATIVE_DOUBLE);
    Attr(n, "offered", s.net.offered);
    Attr(n, "separation", s.net.separation);
    Attr(n, "coarsenings", s.net.coarsenings);
    Attr(n, "construction", s.net.construction);
    Attr(n, "dimension", static_cast<std::int64_t>(s.net.points.rows()));
    LabelNet(n, s.net.points, CoordinateNames(d, s.coords));

    const HullArrays& h = s.hull;
    H5::Group g = group("/hull" + tail);
    Attr(g, "status", h.status);
    Attr(g, "detail", h.detail);
    Attr(g, "dimension", h.dimension);
    Attr(g, "volume", h.volume);
    Attr(g, "flatness", h.flatness);
    Attr(g, "distance_roundoff", h.distance_roundoff);
    Attr(g, "margin", h.margin);
    WriteVector(g, "center", h.center);
    WriteMatrix(g, "basis", h.basis);
    WriteColumnsAsRows(g, "vertices", h.vertices);
    if (Labelled(CoordinateNames(d, s.coords), h.vertices.rows())) {
      internal::WriteStringsAttribute(*Open(g, "vertices"), "columns",
                                      CoordinateNames(d, s.coords));
    }
    WriteColumnsAsRows(g, "facet_normals", h.facet_normals);
    WriteVector(g, "facet_bounds", h.facet_bounds);

    if (s.support) {
      const SupportArrays& h = *s.support;
      const std::string dirs = "/support/directions/d" + std::to_string(h.directions.rows());
      if (!f.nameExists("/support") || !f.nameExists("/support/directions") ||
          !f.nameExists(dirs)) {
        H5::Group dg = group("/support/directions");
        WriteColumnsAsRows(dg, dirs.substr(dirs.rfind('/') + 1), h.directions);
      }
      H5::Group sg = group("/support" + tail);
      Attr(sg, "directions", dirs);
      Attr(sg, "count", h.count);
      WriteVector(sg, "values", h.values);
      WriteVector(sg, "attaining_samples", h.attaining_samples, false);
      WriteColumnsAsRows(sg, "attaining_points", h.attaining_points);
      if (h.first_half_end > 0) {
        Attr(sg, "first_half_end", h.first_half_end);
        WriteVector(sg, "first_half_values", h.first_half_values);
      }
    }

    if (!s.coverage) continue;
    const CoverageArrays& c = *s.coverage;
    H5::Group cg = group("/coverage" + tail);
    Attr(cg, "extent", static_cast<std::int64_t>(c.extent ? 1 : 0));
    if (c.extent) {
      Attr(cg, "extent_width", c.extent_width);
      Attr(cg, "extent_moved", c.extent_moved);
      Attr(cg, "extent_converged", static_cast<std::int64_t>(c.extent_converged ? 1 : 0));
      Attr(cg, "extent_statement", c.extent_statement);
    }
    Attr(cg, "holdout", c.holdout);
    Attr(cg, "missed", c.missed);
    Attr(cg, "holdout_not_terminated", c.holdout_not_terminated);
    Attr(cg, "delta", c.delta);
    Attr(cg, "missed_mass_upper", c.missed_mass_upper);
    Attr(cg, "holdout_assumptions", c.holdout_assumptions);
    Attr(cg, "lemma1", static_cast<std::int64_t>(c.lemma1 ? 1 : 0));
    if (c.lemma1) {
      Attr(cg, "lipschitz", c.lipschitz);
      Attr(cg, "cube_dimension", c.cube_dimension);
      Attr(cg, "log_cells", c.log_cells);
      Attr(cg, "failure_bound", c.failure_bound);
      Attr(cg, "samples_needed", c.samples_needed);
    }
    if (c.lemma1 || !c.lemma1_assumptions.empty()) {
      Attr(cg, "lemma1_assumptions", c.lemma1_assumptions);
    }
  }
}

void WriteStrings(H5::Group& g, const std::string& name, const std::vector<std::string>& list) {
  std::vector<const char*> text;
  for (const std::string& s : list) text.push_back(s.c_str());
  const hsize_t dims[1] = {text.size()};
  H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
  try {
    H5::DataSet ds = g.createDataSet(name, t, H5::DataSpace(1, dims));
    if (!text.empty()) ds.write(text.data(), t);
  } catch (const H5::Exception& e) {
    throw H5::Exception(e.getFuncName() + " (dataset " + name + ")", e.getDetailMsg());
  }
}

void WriteOutputs(H5::H5File& f, const std::vector<OutputArrays>& outputs) {
  if (outputs.empty()) return;
  H5::Group top = f.createGroup("/outputs");
  for (size_t i = 0; i < outputs.size(); ++i) {
    const OutputArrays& o = outputs[i];
    H5::Group g = top.createGroup(o.name);
    Attr(g, "index", static_cast<std::int64_t>(i));
    Attr(g, "kind", o.kind);
    Attr(g, "spec", o.spec);
    WriteMatrix(g, "C", o.C);
    WriteStrings(g, "coordinate_names", o.coordinate_names);
  }
}

void WriteAll(H5::H5File& f, const Dataset& d) {
  const RunAttributes& r = d.run;
  Attr(f, "schema_version", kSchemaVersion);
  Attr(f, "file_kind", std::string(d.sweep ? "sweep" : "run"));
  Attr(f, "system", r.system);
  Attr(f, "threads", r.threads);
  Attr(f, "shard_index", r.shard_index);
  Attr(f, "shard_count", r.shard_count);
  Attr(f, "first_sample", r.first_sample);
  Attr(f, "sample_count", r.sample_count);
  Attr(f, "impactset_version", r.version);
  Attr(f, "git_revision", r.git_revision);
  Attr(f, "created", r.created);

  H5::Group p = f.createGroup("/problem");
  WriteMatrix(p, "M", d.problem.M);
  WriteMatrix(p, "Jn", d.problem.Jn);
  WriteMatrix(p, "D", d.problem.D);
  WriteMatrix(p, "contact_jacobian", d.problem.contact_jacobian);
  WriteVector(p, "mu", d.problem.mu);
  WriteVector(p, "v_minus", d.problem.v_minus);
  Attr(p, "k", d.problem.k);
  LabelProblem(p, d.problem);

  const SummaryArrays& s = d.summary;
  H5::Group g = f.createGroup("/summary");
  Attr(g, "terminated", s.terminated);
  Attr(g, "step_capped", s.step_capped);
  Attr(g, "lcp_failures", s.lcp_failures);
  Attr(g, "non_physical", s.non_physical);
  Attr(g, "lcp_solves", s.lcp_solves);
  Attr(g, "lcp_fallbacks", s.lcp_fallbacks);
  Attr(g, "non_unique", s.non_unique);
  Attr(g, "worst_residual", s.worst_residual);
  Attr(g, "energy_ratio_max", s.energy_ratio_max);
  if (!s.advice.empty()) Attr(g, "advice", s.advice);
  WriteVector(g, "contact_velocity_min", s.contact_velocity_min);
  WriteVector(g, "contact_velocity_max", s.contact_velocity_max);
  WriteVector(g, "solves_histogram", s.solves_histogram, false);

  if (d.samples) {
    const SampleArrays& a = *d.samples;
    H5::Group sg = f.createGroup("/samples");
    WriteColumnsAsRows(sg, "v_plus", a.v_plus);
    WriteColumnsAsRows(sg, "contact_velocity", a.contact_velocity);
    WriteVector(sg, "lcp_solves", a.lcp_solves, true);
    WriteVector(sg, "status", a.status, true);
    WriteVector(sg, "energy_ratio", a.energy_ratio, true);
    WriteVector(sg, "non_unique", a.non_unique, true);
    LabelSamples(sg, d);
  }
  if (d.reachable) {
    H5::Group rg = f.createGroup("/reachable");
    WriteColumnsAsRows(rg, "velocities", d.reachable->velocities);
    WriteVector(rg, "offsets", d.reachable->offsets, true);
    if (Labelled(d.problem.velocity_names, d.reachable->velocities.rows())) {
      internal::WriteStringsAttribute(*Open(rg, "velocities"), "columns", d.problem.velocity_names);
    }
  }
  WriteOutputs(f, d.outputs);
  WriteSets(f, d);
  for (const Attribute& a : r.options) {
    H5::Group g =
        f.nameExists(a.group) || a.group == "/" ? f.openGroup(a.group) : f.createGroup(a.group);
    internal::WriteScalarAttribute(g, a.name, a.value);
  }
  if (d.sweep) {
    Attr(f, "model", d.sweep->model);
    H5::Group sw = f.createGroup("/sweep");
    Attr(sw, "model", d.sweep->model);
    for (const auto& [name, v] : d.sweep->parameters) WriteVector(sw, name, v);
    for (const auto& [name, v] : d.sweep->attributes) Attr(sw, name, v);
    for (const auto& [name, v] : d.sweep->settings) Attr(sw, name, v);
  }
}

// ---- reading ----
// Every read names its object: HDF5 errors are rethrown with "(/group/name)" appended to the
// function, and a dataset of the wrong rank or shape throws std::invalid_argument
// "/group/name: rule", to which the public readers prefix the file's path.

[[noreturn]] void BadObject(const std::string& object, const std::string& rule) {
  throw std::invalid_argument(object + ": " + rule);
}

std::string ObjectPath(const H5::H5Object& g, const std::string& name) {
  const std::string parent = g.getObjName();
  return (parent == "/" ? "" : parent) + "/" + name;
}

template <typename F>
auto Named(const std::string& object, F&& read) {
  try {
    return read();
  } catch (const H5::Exception& e) {
    throw H5::Exception(e.getFuncName() + " (" + object + ")", e.getDetailMsg());
  }
}

// The dimensions of a dataset of rank 1 or 2 (a vector may be stored as a column, rows x 1).
std::vector<hsize_t> Dims(const H5::DataSet& ds, const std::string& object, bool vector) {
  std::vector<hsize_t> dims = internal::Dims(ds);
  const auto rank = dims.size();
  if (rank < 1 || rank > 2) {
    BadObject(object, "rank " + std::to_string(rank) + " dataset, expected " +
                          (vector ? "a vector (rank 1)" : "a matrix (rank 2)"));
  }
  if (vector && rank == 2 && dims[1] != 1) {
    BadObject(object, std::to_string(dims[0]) + " x " + std::to_string(dims[1]) +
                          " dataset, expected a vector");
  }
  internal::Elements(dims, object);
  return dims;
}

template <typename T>
std::vector<T> ReadVector(const H5::Group& g, const std::string& name) {
  const std::string object = ObjectPath(g, name);
  return Named(object, [&] {
    H5::DataSet ds = g.openDataSet(name);
    std::vector<T> v(Dims(ds, object, true)[0]);
    if (!v.empty()) ds.read(v.data(), Type<T>());
    return v;
  });
}

Eigen::VectorXd ReadEigenVector(const H5::Group& g, const std::string& name) {
  const auto v = ReadVector<double>(g, name);
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

// rows_as_columns: a dataset of count x dim read into dim x count (samples, nets, hulls).
Eigen::MatrixXd ReadMatrix(const H5::Group& g, const std::string& name, bool rows_as_columns) {
  const std::string object = ObjectPath(g, name);
  return Named(object, [&]() -> Eigen::MatrixXd {
    H5::DataSet ds = g.openDataSet(name);
    const auto dims = Dims(ds, object, false);
    const auto rows = static_cast<Eigen::Index>(dims[0]);
    const auto cols = static_cast<Eigen::Index>(dims.size() > 1 ? dims[1] : 1);
    if (rows_as_columns) {
      Eigen::MatrixXd a(cols, rows);
      if (a.size() > 0) ds.read(a.data(), H5::PredType::NATIVE_DOUBLE);
      return a;
    }
    RowMatrix r(rows, cols);
    if (r.size() > 0) ds.read(r.data(), H5::PredType::NATIVE_DOUBLE);
    return r;
  });
}
Eigen::MatrixXd ReadMatrix(const H5::Group& g, const std::string& name) {
  return ReadMatrix(g, name, false);
}
Eigen::MatrixXd ReadRowsAsColumns(const H5::Group& g, const std::string& name) {
  return ReadMatrix(g, name, true);
}

std::string StrAttr(const H5::H5Object& o, const std::string& name) {
  return Named(ObjectPath(o, name), [&] {
    H5::Attribute a = o.openAttribute(name);
    if (a.getSpace().getSimpleExtentNpoints() != 1) {
      BadObject(ObjectPath(o, name), "attribute holds more than one value");
    }
    std::string s;
    a.read(a.getStrType(), s);
    return s;
  });
}
template <typename T>
T NumAttr(const H5::H5Object& o, const std::string& name, const H5::PredType& t) {
  return Named(ObjectPath(o, name), [&] {
    H5::Attribute a = o.openAttribute(name);
    if (a.getSpace().getSimpleExtentNpoints() != 1) {
      BadObject(ObjectPath(o, name), "attribute holds more than one value");
    }
    T v{};
    a.read(t, &v);
    return v;
  });
}
std::int64_t I64(const H5::H5Object& o, const std::string& n) {
  return NumAttr<std::int64_t>(o, n, H5::PredType::NATIVE_INT64);
}
double F64(const H5::H5Object& o, const std::string& n) {
  return NumAttr<double>(o, n, H5::PredType::NATIVE_DOUBLE);
}

bool IsFixedRootAttribute(const std::string& name) {
  for (const char* fixed : kFixedRootAttributes) {
    if (name == fixed) return true;
  }
  return false;
}

RunAttributes ReadRunAttributes(const H5::H5File& f) {
  RunAttributes r;
  r.system = StrAttr(f, "system");
  r.threads = I64(f, "threads");
  r.shard_index = I64(f, "shard_index");
  r.shard_count = I64(f, "shard_count");
  r.first_sample = I64(f, "first_sample");
  r.sample_count = I64(f, "sample_count");
  r.version = StrAttr(f, "impactset_version");
  r.git_revision = StrAttr(f, "git_revision");
  r.created = StrAttr(f, "created");
  // Every other attribute last: the named ones above fail fast on a corrupt header, where reading
  // a damaged attribute by index can take libhdf5 seconds.
  for (Attribute& a : Named("/", [&] { return internal::ReadScalarAttributes(f, "/"); })) {
    if (!IsFixedRootAttribute(a.name)) r.options.push_back(std::move(a));
  }
  if (f.nameExists("net")) {
    const H5::Group net = f.openGroup("/net");
    for (Attribute& a :
         Named("/net", [&] { return internal::ReadScalarAttributes(net, "/net"); })) {
      r.options.push_back(std::move(a));
    }
  }
  return r;
}

ProblemArrays ReadProblem(const H5::Group& p) {
  ProblemArrays a;
  a.M = ReadMatrix(p, "M");
  a.Jn = ReadMatrix(p, "Jn");
  a.D = ReadMatrix(p, "D");
  a.contact_jacobian = ReadMatrix(p, "contact_jacobian");
  a.mu = ReadEigenVector(p, "mu");
  a.v_minus = ReadEigenVector(p, "v_minus");
  a.k = I64(p, "k");
  a.velocity_names = Named(
      "/problem/M", [&] { return internal::ReadStringsAttribute(p.openDataSet("M"), "columns"); });
  a.contact_names = Named("/problem/contact_jacobian", [&] {
    return internal::ReadStringsAttribute(p.openDataSet("contact_jacobian"), "rows");
  });
  return a;
}

SummaryArrays ReadSummary(const H5::Group& g) {
  SummaryArrays s;
  s.terminated = I64(g, "terminated");
  s.step_capped = I64(g, "step_capped");
  s.lcp_failures = I64(g, "lcp_failures");
  if (g.attrExists("non_physical")) s.non_physical = I64(g, "non_physical");
  s.lcp_solves = I64(g, "lcp_solves");
  s.lcp_fallbacks = I64(g, "lcp_fallbacks");
  s.non_unique = I64(g, "non_unique");
  s.worst_residual = F64(g, "worst_residual");
  s.energy_ratio_max = F64(g, "energy_ratio_max");
  if (g.attrExists("advice")) s.advice = StrAttr(g, "advice");
  s.contact_velocity_min = ReadEigenVector(g, "contact_velocity_min");
  s.contact_velocity_max = ReadEigenVector(g, "contact_velocity_max");
  s.solves_histogram = ReadVector<std::int64_t>(g, "solves_histogram");
  return s;
}

SampleArrays ReadSamples(const H5::Group& sg) {
  SampleArrays a;
  a.v_plus = ReadRowsAsColumns(sg, "v_plus");
  a.contact_velocity = ReadRowsAsColumns(sg, "contact_velocity");
  a.lcp_solves = ReadVector<std::int32_t>(sg, "lcp_solves");
  a.status = ReadVector<std::int32_t>(sg, "status");
  a.energy_ratio = ReadVector<double>(sg, "energy_ratio");
  a.non_unique = ReadVector<std::uint8_t>(sg, "non_unique");
  return a;
}

SweepArrays ReadSweep(const H5::Group& sw) {
  SweepArrays a;
  a.model = StrAttr(sw, "model");
  for (const Attribute& x : internal::ReadScalarAttributes(sw, "/sweep")) {
    if (x.name == "model") continue;
    if (const auto* s = std::get_if<std::string>(&x.value)) {
      a.attributes.emplace_back(x.name, *s);
    } else if (const auto* d = std::get_if<double>(&x.value)) {
      a.settings.emplace_back(x.name, *d);
    }
  }
  for (hsize_t i = 0; i < sw.getNumObjs(); ++i) {
    const std::string name = sw.getObjnameByIdx(i);
    a.parameters.emplace_back(name, ReadEigenVector(sw, name));
  }
  return a;
}

ReachableArrays ReadReachable(const H5::Group& rg) {
  ReachableArrays a;
  a.velocities = ReadRowsAsColumns(rg, "velocities");
  a.offsets = ReadVector<std::int64_t>(rg, "offsets");
  return a;
}

NetArrays ReadNet(const H5::Group& n) {
  NetArrays a;
  a.points = ReadRowsAsColumns(n, "points");
  a.epsilon = Named(ObjectPath(n, "epsilon"), [&] {
    const H5::DataSet ds = n.openDataSet("epsilon");
    if (internal::Dims(ds).empty()) {  // scalar (version 2)
      double e = 0;
      ds.read(&e, H5::PredType::NATIVE_DOUBLE);
      return e;
    }
    const Eigen::VectorXd v = ReadEigenVector(n, "epsilon");
    if (v.size() != 1) BadObject(ObjectPath(n, "epsilon"), "expected one value");
    return v(0);
  });
  a.offered = I64(n, "offered");
  a.separation = F64(n, "separation");
  a.coarsenings = I64(n, "coarsenings");
  a.construction = StrAttr(n, "construction");
  if (a.points.cols() == 0) a.points.resize(I64(n, "dimension"), 0);
  return a;
}

HullArrays ReadHull(const H5::Group& g) {
  HullArrays h;
  h.status = StrAttr(g, "status");
  h.dimension = I64(g, "dimension");
  h.volume = F64(g, "volume");
  h.flatness = F64(g, "flatness");
  h.distance_roundoff = F64(g, "distance_roundoff");
  if (g.attrExists("margin")) h.margin = F64(g, "margin");
  h.center = ReadEigenVector(g, "center");
  h.basis = ReadMatrix(g, "basis");
  h.vertices = ReadRowsAsColumns(g, "vertices");
  h.facet_normals = ReadRowsAsColumns(g, "facet_normals");
  if (g.attrExists("detail")) {
    h.detail = StrAttr(g, "detail");
    h.facet_bounds = ReadEigenVector(g, "facet_bounds");
    return h;
  }
  // Schema version 1: the status in words, facets n . y + o <= 0 in y = B^T (x - c).
  h.detail = h.status;
  h.status.clear();
  const Eigen::VectorXd offsets = ReadEigenVector(g, "facet_offsets");
  if (h.facet_normals.cols() != offsets.size() || h.facet_normals.rows() != h.basis.cols() ||
      (h.facet_normals.cols() > 0 && h.center.size() != h.basis.rows())) {
    BadObject(ObjectPath(g, "facet_normals"), "facets do not match the basis and offsets");
  }
  h.facet_normals = h.basis * h.facet_normals;
  h.facet_bounds = h.facet_normals.cols() > 0
                       ? Eigen::VectorXd(h.facet_normals.transpose() * h.center - offsets)
                       : Eigen::VectorXd(0);
  return h;
}

CoverageArrays ReadCoverage(const H5::Group& cg) {
  CoverageArrays c;
  c.extent = cg.attrExists("extent") && I64(cg, "extent") != 0;
  if (c.extent) {
    c.extent_width = F64(cg, "extent_width");
    c.extent_moved = F64(cg, "extent_moved");
    c.extent_converged = I64(cg, "extent_converged") != 0;
    c.extent_statement = StrAttr(cg, "extent_statement");
  }
  c.holdout = I64(cg, "holdout");
  c.missed = I64(cg, "missed");
  c.holdout_not_terminated = I64(cg, "holdout_not_terminated");
  c.delta = F64(cg, "delta");
  c.missed_mass_upper = F64(cg, "missed_mass_upper");
  c.holdout_assumptions = StrAttr(cg, "holdout_assumptions");
  c.lemma1 = I64(cg, "lemma1") != 0;
  if (c.lemma1) {
    c.lipschitz = F64(cg, "lipschitz");
    c.cube_dimension = I64(cg, "cube_dimension");
    c.log_cells = F64(cg, "log_cells");
    c.failure_bound = F64(cg, "failure_bound");
    c.samples_needed = F64(cg, "samples_needed");
  }
  if (cg.attrExists("lemma1_assumptions")) c.lemma1_assumptions = StrAttr(cg, "lemma1_assumptions");
  return c;
}

SupportArrays ReadSupport(const H5::H5File& f, const H5::Group& g) {
  SupportArrays h;
  const std::string dirs = StrAttr(g, "directions");
  const size_t slash = dirs.rfind('/');
  h.directions = ReadRowsAsColumns(f.openGroup(dirs.substr(0, slash)), dirs.substr(slash + 1));
  h.count = I64(g, "count");
  h.values = ReadEigenVector(g, "values");
  h.attaining_samples = ReadVector<std::int64_t>(g, "attaining_samples");
  h.attaining_points = ReadRowsAsColumns(g, "attaining_points");
  if (g.attrExists("first_half_end")) {
    h.first_half_end = I64(g, "first_half_end");
    h.first_half_values = ReadEigenVector(g, "first_half_values");
  }
  return h;
}

std::vector<std::string> ReadStrings(const H5::Group& g, const std::string& name) {
  const std::string object = ObjectPath(g, name);
  return Named(object, [&] {
    H5::DataSet ds = g.openDataSet(name);
    std::vector<char*> text(Dims(ds, object, true)[0]);
    H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
    if (ds.getDataType().getClass() != H5T_STRING) BadObject(object, "expected strings");
    if (!text.empty()) ds.read(text.data(), t);
    std::vector<std::string> out;
    for (char* s : text) out.emplace_back(s ? s : "");
    if (!text.empty()) H5::DataSet::vlenReclaim(text.data(), t, ds.getSpace());
    return out;
  });
}

// /outputs/<name> in the order of their "index" attributes (0 ... count - 1).
std::vector<OutputArrays> ReadOutputs(const H5::Group& top) {
  const hsize_t count = top.getNumObjs();
  std::vector<OutputArrays> out(count);
  std::vector<bool> filled(count, false);
  for (hsize_t i = 0; i < count; ++i) {
    const std::string name = top.getObjnameByIdx(i);
    const H5::Group g = top.openGroup(name);
    const std::int64_t index = I64(g, "index");
    if (index < 0 || static_cast<hsize_t>(index) >= count || filled[index]) {
      BadObject(ObjectPath(g, "index"), std::to_string(index) + ": expected each of 0 ... " +
                                            std::to_string(count - 1) + " once");
    }
    filled[index] = true;
    OutputArrays& o = out[index];
    o.name = name;
    o.kind = StrAttr(g, "kind");
    o.spec = StrAttr(g, "spec");
    o.C = ReadMatrix(g, "C");
    o.coordinate_names = ReadStrings(g, "coordinate_names");
  }
  return out;
}

// /net, /hull and (when present) /coverage of one set in one output's coordinates; empty when
// the file has no such net.
std::optional<PointSetArrays> ReadPointSet(const H5::H5File& f,
                                           const std::string& set,
                                           const std::string& coords) {
  const std::string tail = "/" + set + "/" + coords;
  if (!f.nameExists("net") || !f.nameExists("/net/" + set) || !f.nameExists("/net" + tail)) {
    return std::nullopt;
  }
  PointSetArrays s;
  s.set = set;
  s.coords = coords;
  s.net = ReadNet(f.openGroup("/net" + tail));
  s.hull = ReadHull(f.openGroup("/hull" + tail));
  if (f.nameExists("support") && f.nameExists("/support/" + set) &&
      f.nameExists("/support" + tail)) {
    s.support = ReadSupport(f, f.openGroup("/support" + tail));
  }
  if (f.nameExists("coverage") && f.nameExists("/coverage/" + set) &&
      f.nameExists("/coverage" + tail)) {
    s.coverage = ReadCoverage(f.openGroup("/coverage" + tail));
  }
  return s;
}

}  // namespace

namespace {

// The file's schema version (root attribute "schema_version"; absent in files of version 1).
void CheckSchemaVersion(const H5::H5File& f) {
  if (!f.attrExists("schema_version")) return;
  const std::int64_t v = I64(f, "schema_version");
  if (v < 1 || v > kSchemaVersion) {
    BadObject("/schema_version", std::to_string(v) +
                                     ": written by a newer impactset (this one "
                                     "reads schema versions 1 to " +
                                     std::to_string(kSchemaVersion) + "); upgrade impactset");
  }
}

ProblemInput ReadProblemGroup(const H5::H5File& f) {
  ProblemInput in;
  if (!f.nameExists("problem"))
    BadObject("/problem", "missing group (matrix input lives in /problem)");
  H5::Group p = f.openGroup("/problem");
  for (const char* name : {"M", "Jn", "mu", "v_minus"}) {
    if (!p.nameExists(name)) BadObject(std::string("/problem/") + name, "missing required dataset");
  }
  ProblemArrays& a = in.problem;
  a.M = ReadMatrix(p, "M");
  a.Jn = ReadMatrix(p, "Jn");
  a.mu = ReadEigenVector(p, "mu");
  a.v_minus = ReadEigenVector(p, "v_minus");
  const Eigen::Index m = a.Jn.rows();
  if (p.nameExists("D")) {
    a.D = ReadMatrix(p, "D");
    if (m == 0 || a.D.rows() % m != 0) {
      BadObject("/problem/D",
                std::to_string(a.D.rows()) + " rows is not a multiple of m = " + std::to_string(m));
    }
    a.k = a.D.rows() / m;
  } else {
    a.D.resize(0, a.M.cols());
    a.k = 0;
  }
  if (p.attrExists("k") && I64(p, "k") != a.k) {
    BadObject("/problem/k", "attribute says " + std::to_string(I64(p, "k")) + " but D has " +
                                std::to_string(a.k) + " rows per contact");
  }
  if (p.attrExists("h")) in.h = F64(p, "h");
  if (p.attrExists("N")) in.max_steps = I64(p, "N");
  if (p.attrExists("samples")) in.samples = I64(p, "samples");
  return in;
}

// Opens path and runs read(file): "path:/object: rule" for bad content, "path: HDF5 error at
// FUNCTION (/object): detail" for what HDF5 cannot read.
template <typename F>
auto ReadFile(const std::string& path, F&& read) {
  H5::Exception::dontPrint();
  internal::ProbeInChild(path, [&] {  // libhdf5 may crash or hang on a corrupt file
    H5::H5File f(path, H5F_ACC_RDONLY);
    CheckSchemaVersion(f);
    read(f);
  });
  try {
    H5::H5File f(path, H5F_ACC_RDONLY);
    CheckSchemaVersion(f);
    return read(f);
  } catch (const H5::Exception& e) {
    Fail(path, e.getFuncName(), e);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ":" + e.what());
  }
}

}  // namespace

ProblemInput ReadProblemInput(const std::string& path) {
  return ReadFile(path, [](const H5::H5File& f) { return ReadProblemGroup(f); });
}

void WriteDataset(const std::string& path, const Dataset& d) {
  internal::WriteHdf5Atomically(path, [&](H5::H5File& f) { WriteAll(f, d); });
}

Dataset ReadDataset(const std::string& path) {
  return ReadFile(path, [](const H5::H5File& f) {
    Dataset d;
    d.run = ReadRunAttributes(f);
    d.problem = ReadProblem(f.openGroup("/problem"));
    d.summary = ReadSummary(f.openGroup("/summary"));
    if (f.nameExists("samples")) d.samples = ReadSamples(f.openGroup("/samples"));
    if (f.nameExists("sweep")) d.sweep = ReadSweep(f.openGroup("/sweep"));
    if (f.nameExists("reachable")) d.reachable = ReadReachable(f.openGroup("/reachable"));
    if (f.nameExists("outputs")) d.outputs = ReadOutputs(f.openGroup("/outputs"));
    std::vector<std::string> names = {"contact", "generalized"};
    if (!d.outputs.empty()) names.clear();
    for (const OutputArrays& o : d.outputs) names.push_back(o.name);
    for (const char* set : {"post_impact", "reachable"}) {
      for (const std::string& coords : names) {
        std::optional<PointSetArrays> s = ReadPointSet(f, set, coords);
        if (s) d.sets.push_back(std::move(*s));
      }
    }
    internal::CheckShapes(d);
    return d;
  });
}

}  // namespace impactset::data
