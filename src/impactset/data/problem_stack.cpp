#include <impactset/data/problem_stack.hpp>

#include <filesystem>
#include <stdexcept>

#include <H5Cpp.h>

#include <impactset/data/internal/atomic_file.hpp>
#include <impactset/data/internal/hdf5_io.hpp>
#include <impactset/data/internal/isolated_read.hpp>

namespace impactset::data {

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

[[noreturn]] void Bad(const std::string& where, const std::string& what) {
  throw std::invalid_argument(where + ": " + what);
}

using internal::Dims;
using internal::Shape;

// Requires dataset `name` of g to have exactly the shape `want` (0 in want: any extent).
std::vector<hsize_t> Expect(const H5::Group& g,
                            const std::string& where,
                            const std::string& name,
                            const std::vector<hsize_t>& want) {
  if (!g.nameExists(name)) Bad(where + "/" + name, "missing required dataset");
  const auto dims = Dims(g.openDataSet(name));
  bool ok = dims.size() == want.size();
  for (size_t i = 0; ok && i < dims.size(); ++i) ok = want[i] == 0 || want[i] == dims[i];
  if (!ok) Bad(where + "/" + name, "shape " + Shape(dims) + ", expected " + Shape(want, true));
  internal::Elements(dims, where + "/" + name);
  return dims;
}

// Rows x cols slab `index` of a rank-3 (S, rows, cols) or rank-2 (S, rows) dataset.
RowMatrix ReadSlab(const H5::Group& g, const std::string& name, hsize_t index) {
  H5::DataSet ds = g.openDataSet(name);
  const auto dims = Dims(ds);
  const hsize_t rows = dims[1], cols = dims.size() > 2 ? dims[2] : 1;
  RowMatrix a(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  if (a.size() == 0) return a;
  H5::DataSpace file = ds.getSpace();
  const hsize_t start[3] = {index, 0, 0}, count[3] = {1, rows, cols};
  file.selectHyperslab(H5S_SELECT_SET, count, start);
  const hsize_t flat = rows * cols;
  H5::DataSpace mem(1, &flat);
  ds.read(a.data(), H5::PredType::NATIVE_DOUBLE, mem, file);
  return a;
}

std::optional<std::int64_t> IntAttr(const H5::Group& g, const char* name) {
  if (!g.attrExists(name)) return std::nullopt;
  std::int64_t v = 0;
  g.openAttribute(name).read(H5::PredType::NATIVE_INT64, &v);
  return v;
}

}  // namespace

namespace {

ProblemStack OpenStack(const std::string& path) {
  H5::Exception::dontPrint();
  ProblemStack s;
  s.path = path;
  const std::string where = path + ":/problems";
  try {
    H5::H5File f(path, H5F_ACC_RDONLY);
    if (!f.nameExists("problems"))
      Bad(where, "missing group (a stack of problems lives in /problems)");
    H5::Group g = f.openGroup("/problems");
    const auto m_dims = Expect(g, where, "M", {0, 0, 0});
    if (m_dims[0] == 0) Bad(where + "/M", "no problem (S = 0)");
    if (m_dims[1] != m_dims[2]) Bad(where + "/M", "shape " + Shape(m_dims) + " is not (S, n, n)");
    s.count = static_cast<std::int64_t>(m_dims[0]);
    s.n = static_cast<std::int64_t>(m_dims[1]);
    const hsize_t S = m_dims[0], n = m_dims[1];
    s.m = static_cast<std::int64_t>(Expect(g, where, "Jn", {S, 0, n})[1]);
    const hsize_t m = static_cast<hsize_t>(s.m);
    Expect(g, where, "mu", {S, m});
    Expect(g, where, "v_minus", {S, n});
    if (g.nameExists("D")) {
      const hsize_t rows = Expect(g, where, "D", {S, 0, n})[1];
      if (m == 0 || rows % m != 0) {
        Bad(where + "/D",
            std::to_string(rows) + " rows is not a multiple of m = " + std::to_string(m));
      }
      s.k = static_cast<std::int64_t>(rows / m);
    }
    if (auto k = IntAttr(g, "k"); k && *k != s.k) {
      Bad(where + "/k", "attribute says " + std::to_string(*k) + " but D has " +
                            std::to_string(s.k) + " rows per contact");
    }
    if (g.attrExists("h")) {
      double h = 0;
      g.openAttribute("h").read(H5::PredType::NATIVE_DOUBLE, &h);
      s.h = h;
    }
    s.max_steps = IntAttr(g, "N");
  } catch (const H5::Exception& e) {
    throw std::runtime_error(path + ": HDF5 error at " + e.getFuncName() + ": " + e.getDetailMsg());
  }
  return s;
}

}  // namespace

ProblemStack OpenProblemStack(const std::string& path) {
  internal::ProbeInChild(path, [&] {  // every problem, as the batch will read them
    const ProblemStack stack = OpenStack(path);
    for (std::int64_t i = 0; i < stack.count; ++i) ReadStackedProblem(stack, i);
  });
  return OpenStack(path);
}

ProblemArrays ReadStackedProblem(const ProblemStack& stack, std::int64_t index) {
  if (index < 0 || index >= stack.count) {
    Bad(stack.path + ":/problems",
        "problem " + std::to_string(index) + " outside [0, " + std::to_string(stack.count) + ")");
  }
  H5::Exception::dontPrint();
  ProblemArrays a;
  try {
    H5::H5File f(stack.path, H5F_ACC_RDONLY);
    H5::Group g = f.openGroup("/problems");
    const auto i = static_cast<hsize_t>(index);
    a.M = ReadSlab(g, "M", i);
    a.Jn = ReadSlab(g, "Jn", i);
    a.D = stack.k > 0 ? Eigen::MatrixXd(ReadSlab(g, "D", i)) : Eigen::MatrixXd(0, stack.n);
    a.mu = ReadSlab(g, "mu", i).reshaped();
    a.v_minus = ReadSlab(g, "v_minus", i).reshaped();
    a.k = stack.k;
  } catch (const H5::Exception& e) {
    throw std::runtime_error(stack.path + ": HDF5 error at " + e.getFuncName() + ": " +
                             e.getDetailMsg());
  }
  return a;
}

namespace {

void WriteStacked(H5::Group& g,
                  const std::string& name,
                  const std::vector<hsize_t>& dims,
                  const std::vector<double>& values) {
  H5::DataSpace space(static_cast<int>(dims.size()), dims.data());
  g.createDataSet(name, H5::PredType::NATIVE_DOUBLE, space)
      .write(values.data(), H5::PredType::NATIVE_DOUBLE);
}

// Matrices of one shape, concatenated row by row.
std::vector<double> Stack(const std::vector<Eigen::MatrixXd>& mats, const char* name) {
  std::vector<double> out;
  for (size_t i = 0; i < mats.size(); ++i) {
    const Eigen::MatrixXd& a = mats[i];
    if (a.rows() != mats[0].rows() || a.cols() != mats[0].cols()) {
      Bad(std::string("problem ") + std::to_string(i) + " " + name,
          std::to_string(a.rows()) + "x" + std::to_string(a.cols()) + ", problem 0 has " +
              std::to_string(mats[0].rows()) + "x" + std::to_string(mats[0].cols()));
    }
    const RowMatrix r = a;
    out.insert(out.end(), r.data(), r.data() + r.size());
  }
  return out;
}

}  // namespace

void WriteProblemStack(const std::string& path, const std::vector<ProblemArrays>& problems) {
  if (problems.empty()) Bad(path, "a stack needs at least one problem");
  const ProblemArrays& p0 = problems[0];
  const auto S = static_cast<hsize_t>(problems.size());
  const auto n = static_cast<hsize_t>(p0.M.rows()), m = static_cast<hsize_t>(p0.Jn.rows());
  const auto d = static_cast<hsize_t>(p0.D.rows());
  std::vector<Eigen::MatrixXd> M, Jn, D, mu, v;
  for (const ProblemArrays& p : problems) {
    M.push_back(p.M), Jn.push_back(p.Jn), D.push_back(p.D);
    mu.push_back(p.mu.transpose()), v.push_back(p.v_minus.transpose());
    if (p.k != p0.k)
      Bad(path, "problems with k = " + std::to_string(p.k) + " and " + std::to_string(p0.k));
  }
  // Shapes are checked before the file exists, so a mismatch leaves nothing behind.
  const auto M_rows = Stack(M, "M"), Jn_rows = Stack(Jn, "Jn"), D_rows = Stack(D, "D");
  const auto mu_rows = Stack(mu, "mu"), v_rows = Stack(v, "v_minus");
  internal::WriteHdf5Atomically(path, [&](H5::H5File& f) {
    H5::Group g = f.createGroup("/problems");
    WriteStacked(g, "M", {S, n, n}, M_rows);
    WriteStacked(g, "Jn", {S, m, n}, Jn_rows);
    if (d > 0) WriteStacked(g, "D", {S, d, n}, D_rows);
    WriteStacked(g, "mu", {S, m}, mu_rows);
    WriteStacked(g, "v_minus", {S, n}, v_rows);
    const std::int64_t k = p0.k;
    g.createAttribute("k", H5::PredType::NATIVE_INT64, H5::DataSpace(H5S_SCALAR))
        .write(H5::PredType::NATIVE_INT64, &k);
  });
}

namespace {

// A 1-D dataset of strings, fixed-length (numpy "S") or variable-length (h5py str).
std::vector<std::string> ReadNames(const H5::DataSet& ds, const std::string& where) {
  const auto dims = Dims(ds);
  if (dims.size() != 1) Bad(where, "shape " + Shape(dims) + ", expected (P) strings");
  internal::Elements(dims, where);
  H5::DataType type = ds.getDataType();
  if (type.getClass() != H5T_STRING) Bad(where, "not a dataset of strings");
  H5::StrType str = ds.getStrType();
  std::vector<std::string> names(dims[0]);
  if (dims[0] == 0) return names;
  if (str.isVariableStr()) {
    std::vector<char*> text(dims[0]);
    ds.read(text.data(), str);
    for (size_t i = 0; i < names.size(); ++i) names[i] = text[i] ? text[i] : "";
    H5::DataSet::vlenReclaim(text.data(), str, ds.getSpace());
  } else {
    const size_t width = str.getSize();
    std::vector<char> buffer(internal::Elements({dims[0], width}, where));
    ds.read(buffer.data(), str);
    for (size_t i = 0; i < names.size(); ++i) {
      const char* s = buffer.data() + i * width;
      size_t len = 0;
      while (len < width && s[len] != '\0') ++len;
      names[i].assign(s, len);
    }
  }
  return names;
}

}  // namespace

namespace {

StateTable ReadTable(const std::string& path) {
  H5::Exception::dontPrint();
  StateTable t;
  try {
    H5::H5File f(path, H5F_ACC_RDONLY);
    if (!f.nameExists("states") || !f.nameExists("design")) {
      Bad(path + ":/states/parameters",
          "missing (a state table holds /states/parameters and "
          "/design/parameters)");
    }
    H5::Group states = f.openGroup("/states"), design = f.openGroup("/design");
    const auto dims = Expect(states, path + ":/states", "parameters", {0, 0});
    if (!design.nameExists("parameters")) Bad(path + ":/design/parameters", "missing names");
    t.names = ReadNames(design.openDataSet("parameters"), path + ":/design/parameters");
    if (t.names.size() != dims[1]) {
      Bad(path + ":/design/parameters", std::to_string(t.names.size()) + " names for " +
                                            std::to_string(dims[1]) +
                                            " columns of /states/parameters");
    }
    RowMatrix v(static_cast<Eigen::Index>(dims[0]), static_cast<Eigen::Index>(dims[1]));
    if (v.size() > 0) states.openDataSet("parameters").read(v.data(), H5::PredType::NATIVE_DOUBLE);
    t.values = v;
  } catch (const H5::Exception& e) {
    throw std::runtime_error(path + ": HDF5 error at " + e.getFuncName() + ": " + e.getDetailMsg());
  }
  return t;
}

Eigen::VectorXd ReadVector(const std::string& path, const std::string& name) {
  H5::Exception::dontPrint();
  Eigen::VectorXd v;
  try {
    H5::H5File f(path, H5F_ACC_RDONLY);
    const auto dims = Expect(f.openGroup("/"), path + ":", name, {0});
    if (dims[0] == 0) Bad(path + ":/" + name, "empty");
    v.resize(static_cast<Eigen::Index>(dims[0]));
    f.openDataSet(name).read(v.data(), H5::PredType::NATIVE_DOUBLE);
  } catch (const H5::Exception& e) {
    throw std::runtime_error(path + ": HDF5 error at " + e.getFuncName() + ": " + e.getDetailMsg());
  }
  return v;
}

}  // namespace

StateTable ReadStateTable(const std::string& path) {
  internal::ProbeInChild(path, [&] { ReadTable(path); });  // libhdf5 may crash on a corrupt file
  return ReadTable(path);
}

Eigen::VectorXd ReadStateVector(const std::string& path, const std::string& name) {
  if (!std::filesystem::is_regular_file(path)) Bad(path, "no such file");
  internal::ProbeInChild(path, [&] { ReadVector(path, name); });
  return ReadVector(path, name);
}

}  // namespace impactset::data
