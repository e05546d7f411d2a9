#pragma once
// Reading helpers shared by the HDF5 readers of data/ (run datasets, batch files, problem
// stacks): extents, their text, and the element bound that keeps a corrupt header from
// allocating. Included only by data/*.cpp; HDF5's classes are declared here, not included.
#include <string>
#include <vector>

#include <impactset/data/attributes.hpp>

namespace H5 {
class DataSet;
class Group;
class H5Object;
}  // namespace H5

namespace impactset::data::internal {

using Extent = unsigned long long;  // HDF5's hsize_t (hdf5_io.cpp checks they agree)

/// Largest dataset read, in elements: 2^31 doubles are 16 GiB, beyond any dataset impactset
/// writes in memory at once; a corrupt header claiming more is refused before allocating.
inline constexpr Extent kMaxReadElements = Extent{1} << 31;

/// The extents of a dataset of any rank (none for a scalar).
std::vector<Extent> Dims(const H5::DataSet& ds);

/// "(3, 2, 2)"; with `any` set, 0 extents print as "*" (a shape rule's free extent).
std::string Shape(const std::vector<Extent>& dims, bool any = false);

/// The product of dims.
/// @throws std::invalid_argument "object: more than kMaxReadElements elements" beyond the bound.
Extent Elements(const std::vector<Extent>& dims, const std::string& object);

/// Writes a scalar attribute (a variable-length string, a double, an int64 or a uint64).
void WriteScalarAttribute(H5::H5Object& object, const std::string& name, const AttributeValue& v);

/// Every scalar string or numeric attribute of the object, as (group, name, value), in HDF5's
/// name order; attributes of other shapes and the dimension-scale bookkeeping (CLASS, NAME,
/// DIMENSION_LIST, REFERENCE_LIST, _Netcdf4Dimid) are skipped.
std::vector<Attribute> ReadScalarAttributes(const H5::H5Object& object, const std::string& group);

/// A string array attribute (the `columns` of a 2-D dataset), and back (empty when absent).
void WriteStringsAttribute(H5::H5Object& object,
                           const std::string& name,
                           const std::vector<std::string>& values);
std::vector<std::string> ReadStringsAttribute(const H5::H5Object& object, const std::string& name);

/// One dimension of a group's datasets, netCDF-4 style: a dataset of that name holding its
/// coordinate labels (strings) or, without labels, the indices first ... first + count - 1.
struct Dimension {
  std::string name;
  std::vector<std::string> labels;
  long long first = 0, count = 0;
};
/// Writes the dimension's dataset into the group and makes it an HDF5 dimension scale (what
/// xarray's h5netcdf engine reads as a named dimension with coordinates).
H5::DataSet WriteScale(H5::Group& group, const Dimension& dimension);
/// Attaches scales[i] to dimension i of the group's dataset `name` (one scale per dimension).
void AttachScales(H5::Group& group,
                  const std::string& name,
                  const std::vector<H5::DataSet>& scales);

}  // namespace impactset::data::internal
