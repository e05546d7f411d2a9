#pragma once
// One name table per enum (as Ceres' types.h): the spelling the command line, Python, datasets
// and messages all use. An enum opts in by specialising EnumNames next to its declaration:
//
//   template <> struct EnumNames<sampling::Design> {
//     static constexpr std::string_view kWhat = "design";
//     static constexpr std::array<std::pair<sampling::Design, std::string_view>, 4> kNames{{
//         {sampling::Design::kIid, "iid"}, ...}};
//   };
//
// and every parser and printer goes through EnumName / ParseEnum / EnumNameList.
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error_policy.hpp"

namespace impactset {

/// Specialised per enum: kWhat (the field's name in messages) and kNames (value, name) pairs.
template <typename E>
struct EnumNames;

/// The name of a value; "unknown" for a value outside the table (a cast from a bad integer).
template <typename E>
std::string_view EnumName(E value) {
  for (const auto& [v, name] : EnumNames<E>::kNames) {
    if (v == value) return name;
  }
  return "unknown";
}

/// Every name, in table order.
template <typename E>
std::vector<std::string> EnumNameList() {
  std::vector<std::string> names;
  for (const auto& entry : EnumNames<E>::kNames) names.emplace_back(entry.second);
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
/// (field defaults to the table's kWhat).
template <typename E>
E ParseEnum(std::string_view name, std::string_view field = EnumNames<E>::kWhat) {
  for (const auto& [v, n] : EnumNames<E>::kNames) {
    if (n == name) return v;
  }
  InvalidArgument(std::string(field), name, "must be " + EnumChoices<E>());
}

}  // namespace impactset
