#include "python/src/convert.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace impactset::python {
namespace {

std::string ShapeOf(const py::array& a) {
  std::ostringstream os;
  os << "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) os << (i ? ", " : "") << a.shape(i);
  os << (a.ndim() == 1 ? ",)" : ")");
  return os.str();
}

// A C-contiguous float64 array of `ndim` dimensions, or ValueError naming the field.
py::array_t<double, py::array::c_style> AsFloatArray(py::handle object,
                                                     const std::string& field,
                                                     int ndim,
                                                     const char* expected) {
  const py::module_ np = py::module_::import("numpy");
  py::array given;
  try {
    given = np.attr("asarray")(object);
  } catch (const py::error_already_set& e) {
    BadArgument(field, std::string("expected ") + expected + " of numbers (" + e.what() + ")");
  }
  // Real numbers only: numpy would drop a complex value's imaginary part, read True as 1 and
  // parse numeric strings; each of those is a mistake in the caller's data.
  const char kind = given.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u') {
    BadArgument(field, std::string("expected ") + expected + " of real numbers, got dtype " +
                           py::str(given.dtype()).cast<std::string>());
  }
  py::array_t<double, py::array::c_style> a = np.attr("ascontiguousarray")(given, "float64");
  if (a.ndim() != ndim) {
    BadArgument(field, std::string("expected ") + expected + ", got shape " + ShapeOf(a));
  }
  return a;
}

}  // namespace

std::string FsPath(py::handle path) {
  return py::module_::import("os").attr("fspath")(path).cast<std::string>();
}

std::string ExistingFile(py::handle path) {
  std::string p = FsPath(path);
  if (!std::filesystem::exists(p)) {
    PyErr_SetObject(PyExc_FileNotFoundError,
                    py::make_tuple(ENOENT, std::strerror(ENOENT), p).ptr());
    throw py::error_already_set();
  }
  return p;
}

void BadArgument(const std::string& field, const std::string& what) {
  throw py::value_error(field + ": " + what);
}

MatrixXd MatrixArg(py::handle object, const std::string& field) {
  const auto a = AsFloatArray(object, field, 2, "a 2-D array");
  MatrixXd m(a.shape(0), a.shape(1));
  for (py::ssize_t i = 0; i < a.shape(0); ++i) {
    for (py::ssize_t j = 0; j < a.shape(1); ++j) m(i, j) = a.at(i, j);
  }
  return m;
}

VectorXd VectorArg(py::handle object, const std::string& field) {
  const auto a = AsFloatArray(object, field, 1, "a 1-D array");
  VectorXd v(a.shape(0));
  if (v.size() > 0) std::memcpy(v.data(), a.data(), sizeof(double) * v.size());
  return v;
}

MatrixXd PointsArg(py::handle object, const std::string& field) {
  const auto a = AsFloatArray(object, field, 2, "a 2-D array (one row per point)");
  MatrixXd p(a.shape(1), a.shape(0));  // row-major (N, d) is column-major d x N
  if (p.size() > 0) std::memcpy(p.data(), a.data(), sizeof(double) * p.size());
  return p;
}

py::array_t<double> ToArray(const MatrixXd& m) {
  py::array_t<double> a({m.rows(), m.cols()});
  auto r = a.mutable_unchecked<2>();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index j = 0; j < m.cols(); ++j) r(i, j) = m(i, j);
  }
  return a;
}

py::array_t<double> ToArray(const VectorXd& v) {
  py::array_t<double> a(v.size());
  if (v.size() > 0) std::memcpy(a.mutable_data(), v.data(), sizeof(double) * v.size());
  return a;
}

py::array_t<double> ToPoints(const MatrixXd& p) {
  py::array_t<double> a({p.cols(), p.rows()});
  if (p.size() > 0) std::memcpy(a.mutable_data(), p.data(), sizeof(double) * p.size());
  return a;
}

py::array ReadOnlyView(py::dtype dtype,
                       std::vector<py::ssize_t> shape,
                       const void* data,
                       py::handle owner) {
  py::array a(std::move(dtype), std::move(shape), data, owner);
  a.attr("flags").attr("writeable") = false;
  return a;
}

}  // namespace impactset::python
