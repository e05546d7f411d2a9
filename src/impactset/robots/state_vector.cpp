#include <filesystem>
#include <fstream>
#include <sstream>
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

}  // namespace

VectorXd ParseStateVector(const std::string& text, const std::string& field) {
  if (text.ends_with(".json") || std::filesystem::is_regular_file(text)) {
    return FromJson(text, field);
  }
  std::vector<double> values;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const std::string entry = field + "[" + std::to_string(values.size()) + "]";
    try {
      values.push_back(ParseReal(StripBlanks(item), entry));
    } catch (const std::invalid_argument& e) {
      InvalidArgument(field, text, std::string(e.what()) + " (a comma list or a JSON file)");
    }
  }
  if (values.empty()) InvalidArgument(field, text, "empty: give a comma list or a JSON file");
  return Eigen::Map<const VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
}

}  // namespace impactset::robots
