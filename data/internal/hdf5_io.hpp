#pragma once
// Reading helpers shared by the HDF5 readers of data/ (run datasets, batch files, problem
// stacks): extents, their text, and the element bound that keeps a corrupt header from
// allocating. Included only by data/*.cpp; HDF5's classes are declared here, not included.
#include <string>
#include <vector>

namespace H5 {
class DataSet;
}

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

}  // namespace impactset::data::internal
