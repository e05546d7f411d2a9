#pragma once
// Scalar HDF5 attributes as plain values: what the engine's option table writes and reads back,
// for run files and batch files alike.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace impactset::data {

/// A scalar attribute's value: a string, a double, or a 64-bit integer (signed, or unsigned for
/// seeds that use all 64 bits).
using AttributeValue = std::variant<std::string, double, std::int64_t, std::uint64_t>;

struct Attribute {
  std::string group;  ///< "/" or a group path ("/design", "/net")
  std::string name;
  AttributeValue value;
};

/// The attribute of that group and name, or nullptr.
inline const Attribute* FindAttribute(const std::vector<Attribute>& list,
                                      const std::string& group,
                                      const std::string& name) {
  for (const Attribute& a : list) {
    if (a.group == group && a.name == name) return &a;
  }
  return nullptr;
}

}  // namespace impactset::data
