#pragma once
// One name table per enum (as Ceres' types.h): the spelling the command line, Python, datasets
// and messages all use. An enum opts in next to its declaration, in its own namespace:
//
//   enum class Design { kIid, kSobol };
//   IMPACTSET_ENUM_NAMES(Design, "design", {E::kIid, "iid"}, {E::kSobol, "sobol"})
//
// and every parser and printer goes through EnumName / ParseEnum / EnumNameList (which find the
// table by argument-dependent lookup of EnumNamesOf).
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <impactset/common/error_policy.hpp>

namespace impactset {

/// An enum's table: what its values name in messages ("design") and (value, name) pairs.
template <typename E, std::size_t N>
struct EnumNameTable {
  std::string_view what;
  std::array<std::pair<E, std::string_view>, N> names;
};

template <typename E, std::size_t N>
constexpr EnumNameTable<E, N> MakeEnumNameTable(std::string_view what,
                                                std::pair<E, std::string_view> (&&names)[N]) {
  EnumNameTable<E, N> t{what, {}};
  for (std::size_t i = 0; i < N; ++i) t.names[i] = names[i];
  return t;
}

/// The name of a value; "unknown" for a value outside the table (a cast from a bad integer).
template <typename E>
std::string_view EnumName(E value) {
  for (const auto& [v, name] : EnumNamesOf(E{}).names) {
    if (v == value) return name;
  }
  return "unknown";
}

/// Every name, in table order.
template <typename E>
std::vector<std::string> EnumNameList() {
  std::vector<std::string> names;
  for (const auto& entry : EnumNamesOf(E{}).names) names.emplace_back(entry.second);
  return names;
}

/// "a, b or c": the accepted names for messages.
template <typename E>
std::string EnumChoices() {
  const std::vector<std::string> names = EnumNameList<E>();
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  }
  return text;
}

/// The value named `name`. @throws std::invalid_argument "field = name: must be a, b or c"
/// (field defaults to the table's `what`).
template <typename E>
E ParseEnum(std::string_view name, std::string_view field = {}) {
  for (const auto& [v, n] : EnumNamesOf(E{}).names) {
    if (n == name) return v;
  }
  InvalidArgument(std::string(field.empty() ? EnumNamesOf(E{}).what : field), name,
                  "must be " + EnumChoices<E>());
}

}  // namespace impactset

/// Declares the name table of `Enum` (in Enum's namespace); inside the pairs `E` is Enum.
#define IMPACTSET_ENUM_NAMES(Enum, what, ...)                      \
  constexpr auto EnumNamesOf(Enum) {                               \
    using E = Enum;                                                \
    return ::impactset::MakeEnumNameTable<E>(what, {__VA_ARGS__}); \
  }
