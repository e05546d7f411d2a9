#include "data/internal/hdf5_io.hpp"

#include <stdexcept>
#include <type_traits>

#include <H5Cpp.h>

namespace impactset::data::internal {

static_assert(std::is_same_v<Extent, hsize_t>);

std::vector<Extent> Dims(const H5::DataSet& ds) {
  H5::DataSpace sp = ds.getSpace();
  std::vector<Extent> dims(static_cast<size_t>(sp.getSimpleExtentNdims()));
  sp.getSimpleExtentDims(dims.data());
  return dims;
}

std::string Shape(const std::vector<Extent>& dims, bool any) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    s += i ? ", " : "";
    s += any && dims[i] == 0 ? std::string("*") : std::to_string(dims[i]);
  }
  return s + ")";
}

Extent Elements(const std::vector<Extent>& dims, const std::string& object) {
  Extent n = 1;
  for (Extent d : dims) {
    if (d > 0 && n > kMaxReadElements / d) {
      throw std::invalid_argument(object + ": more than " + std::to_string(kMaxReadElements) +
                                  " elements");
    }
    n *= d;
  }
  return n;
}

}  // namespace impactset::data::internal
