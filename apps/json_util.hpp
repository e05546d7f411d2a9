#pragma once
// Eigen <-> JSON for the command's output: vectors as lists, matrices as lists of rows.
#include <cmath>

#include <nlohmann/json.hpp>

#include <impactset/common/eigen_types.hpp>

namespace impactset::app {

inline nlohmann::json ToJson(const VectorXd& v) {
  nlohmann::json j = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    j.push_back(std::isfinite(v(i)) ? nlohmann::json(v(i)) : nlohmann::json(nullptr));
  }
  return j;
}

inline nlohmann::json ToJson(const MatrixXd& a) {
  nlohmann::json j = nlohmann::json::array();
  for (Eigen::Index r = 0; r < a.rows(); ++r) j.push_back(ToJson(VectorXd(a.row(r).transpose())));
  return j;
}

}  // namespace impactset::app
