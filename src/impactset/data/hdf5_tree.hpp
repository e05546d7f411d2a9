#pragma once
// An HDF5 file as plain values: every group, dataset (float64, int64, uint64, int32, uint8 or
// strings, any shape), scalar attribute, string-list attribute and dimension scale, so that a
// file can be read whole (impactset.read_dataset of a batch file) and written back equal. The
// batch writer (data/batch_file.hpp) says what a batch file holds; this says nothing about it.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <impactset/data/attributes.hpp>

namespace impactset::data {

/// One dataset.
struct TreeArray {
  enum class Type { kFloat64, kInt64, kUInt64, kInt32, kUInt8, kString };
  std::string path;  ///< absolute ("/states/status")
  Type type = Type::kFloat64;
  std::vector<std::uint64_t> shape;     ///< row-major; empty: a scalar
  std::vector<double> values;           ///< kFloat64
  std::vector<std::int64_t> integers;   ///< the integer types (uint64 bit for bit)
  std::vector<std::string> text;        ///< kString
  std::string scale;                    ///< a dimension scale of this name; empty: none
  std::vector<std::string> dimensions;  ///< the scales attached to each dimension (paths), or none
};

struct Tree {
  std::vector<std::string> groups;  ///< every group but the root, parents first
  std::vector<TreeArray> arrays;
  /// Scalar attributes of groups and datasets (Attribute::group is the object's path).
  std::vector<Attribute> attributes;
  /// String-list attributes ("columns"): object path, name, values.
  struct List {
    std::string object, name;
    std::vector<std::string> values;
  };
  std::vector<List> lists;
};

/// Reads every object of the file (isolated as every reader of outside files).
/// @throws std::runtime_error naming the path and object for what HDF5 cannot read;
///         std::invalid_argument for an element type or rank it does not hold.
Tree ReadTree(const std::string& path);

/// Writes the tree atomically (as WriteDataset); 2-D datasets chunked and compressed.
/// @throws std::invalid_argument for an array whose values do not fill its shape or a dimension
///         naming no scale of the tree; std::runtime_error for HDF5 failures.
void WriteTree(const std::string& path, const Tree& tree);

}  // namespace impactset::data
