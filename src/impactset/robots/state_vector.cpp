#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include <impactset/common/error_policy.hpp>
#include <impactset/common/parse_number.hpp>
#include <impactset/robots/mujoco_model.hpp>
#include <impactset/robots/state_vector.hpp>

namespace impactset::robots {
namespace {

VectorXd FromJson(const std::string& path, const std::string& field) {
  std::ifstream in(path);
  if (!in) InvalidArgument(field, path, "cannot read the file");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    InvalidArgument(field, path, std::string("not valid JSON: ") + e.what());
  }
  if (j.is_object()) {
    if (!j.contains(field))
      InvalidArgument(field, path, "the JSON object has no key '" + field + "'");
    j = j[field];
  }
  if (!j.is_array()) InvalidArgument(field, path, "must hold a list of numbers");
  VectorXd v(static_cast<Eigen::Index>(j.size()));
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_number())
      InvalidArgument(field + "[" + std::to_string(i) + "]", j[i].dump(), "must be a number");
    v(static_cast<Eigen::Index>(i)) = j[i].get<double>();
  }
  return v;
}

// Every comma-separated item a number (nullopt: some item is not).
std::optional<std::vector<double>> NumberList(const std::string& text, const std::string& field) {
  std::vector<double> values;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    try {
      values.push_back(ParseReal(StripBlanks(item), field));
    } catch (const std::invalid_argument&) {
      return std::nullopt;
    }
  }
  if (values.empty()) return std::nullopt;
  return values;
}

// The first item that is not a number, named by its index (the list is refused).
[[noreturn]] void RefuseList(const std::string& text, const std::string& field) {
  std::stringstream ss(text);
  std::string item;
  for (int i = 0; std::getline(ss, item, ','); ++i) {
    try {
      ParseReal(StripBlanks(item), field + "[" + std::to_string(i) + "]");
    } catch (const std::invalid_argument& e) {
      InvalidArgument(field, text, std::string(e.what()) + " (a comma list or a JSON file)");
    }
  }
  InvalidArgument(field, text, "empty: give a comma list of numbers or a JSON file");
}

}  // namespace

bool IsNumberList(const std::string& text) { return NumberList(text, "list").has_value(); }

VectorXd ParseStateVector(const std::string& text, const std::string& field) {
  // By content first: a list of numbers is a list, however long (never a file name).
  if (const auto values = NumberList(text, field)) {
    return Eigen::Map<const VectorXd>(values->data(), static_cast<Eigen::Index>(values->size()));
  }
  std::error_code ec;  // the overload that reports instead of throwing (ENAMETOOLONG and the like)
  if (std::filesystem::is_regular_file(text, ec)) return FromJson(text, field);
  if (text.find(',') != std::string::npos || text.empty()) RefuseList(text, field);
  InvalidArgument(field, text,
                  "no such file" +
                      (ec && ec != std::errc::no_such_file_or_directory ? " (" + ec.message() + ")"
                                                                        : std::string()) +
                      ": give a comma list of numbers, or the path of a JSON or HDF5 file");
}

}  // namespace impactset::robots
