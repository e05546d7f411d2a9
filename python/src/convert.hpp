#pragma once
// numpy <-> Eigen for the Python module. Conventions (docs/python.md): problem matrices keep
// their mathematical shape (M is n x n, Jn is m x n); point sets and per-sample arrays have one
// row per point or sample, as in the HDF5 dataset, so an Eigen d x N point matrix is an (N, d)
// array (the same memory: Eigen is column-major).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <impactset/common/eigen_types.hpp>

namespace impactset::python {

namespace py = pybind11;

/// Array arguments. Anything numpy can turn into a float64 array of the right dimension is
/// accepted; anything else raises ValueError naming the field.
MatrixXd MatrixArg(py::handle object, const std::string& field);
VectorXd VectorArg(py::handle object, const std::string& field);
/// (N, d) rows = points -> d x N.
MatrixXd PointsArg(py::handle object, const std::string& field);
/// os.fspath(path).
std::string FsPath(py::handle path);
/// os.fspath(path) of a file to read: FileNotFoundError (errno ENOENT, the path) when it does not
/// exist, rather than the HDF5 or JSON reader's own message.
std::string ExistingFile(py::handle path);
/// ValueError("<field>: <what>").
[[noreturn]] void BadArgument(const std::string& field, const std::string& what);

/// Copies out.
py::array_t<double> ToArray(const MatrixXd& m);   ///< (rows, cols)
py::array_t<double> ToArray(const VectorXd& v);   ///< (size,)
py::array_t<double> ToPoints(const MatrixXd& p);  ///< d x N -> (N, d)
template <class T>
py::array_t<T> ToArray(const std::vector<T>& v) {
  py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

/// A read-only view of memory kept alive by `owner` (a capsule holding a shared_ptr).
py::array ReadOnlyView(py::dtype dtype,
                       std::vector<py::ssize_t> shape,
                       const void* data,
                       py::handle owner);
template <class T>
py::capsule Owner(std::shared_ptr<T> p) {
  auto* holder = new std::shared_ptr<T>(std::move(p));
  return py::capsule(holder, [](void* h) { delete static_cast<std::shared_ptr<T>*>(h); });
}

}  // namespace impactset::python
