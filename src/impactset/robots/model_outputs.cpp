#include <impactset/robots/model_outputs.hpp>

#include <algorithm>
#include <stdexcept>

#include <impactset/common/error_policy.hpp>

namespace impactset::robots {

LinearOutput ComOutput(const MujocoProblem& model) {
  return LinearOutput{model.com_jacobian, {"com:vx", "com:vy", "com:vz"}};
}

LinearOutput BaseOutput(const MujocoProblem& model, const std::string& label) {
  if (model.base_map.rows() == 0) {
    InvalidArgument(label, "base",
                    "the model has no free joint (no floating base); use com, joints:NAME,... "
                    "or matrix:FILE");
  }
  LinearOutput out{model.base_map, {}};
  for (Eigen::Index i = 0; i < model.base_map.rows(); ++i) {
    Eigen::Index col = 0;
    model.base_map.row(i).maxCoeff(&col);
    out.coordinate_names.push_back(model.dof_names[static_cast<size_t>(col)]);
  }
  return out;
}

namespace {

// The dofs a name picks: the dof of that name, or every dof "<name>:..." of a free or ball joint.
std::vector<Eigen::Index> DofsNamed(const std::vector<std::string>& dofs, const std::string& name) {
  std::vector<Eigen::Index> picked;
  for (size_t i = 0; i < dofs.size(); ++i) {
    if (dofs[i] == name) return {static_cast<Eigen::Index>(i)};
    if (dofs[i].rfind(name + ":", 0) == 0) picked.push_back(static_cast<Eigen::Index>(i));
  }
  return picked;
}

std::string Joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

LinearOutput JointsOutput(const MujocoProblem& model, const std::vector<std::string>& joints) {
  if (joints.empty()) InvalidArgument("joints", "", "name at least one joint");
  const Eigen::Index n = model.loaded.problem.n();
  std::vector<Eigen::Index> rows;
  LinearOutput out;
  for (const std::string& name : joints) {
    const std::vector<Eigen::Index> dofs = DofsNamed(model.dof_names, name);
    if (dofs.empty()) {
      InvalidArgument("joint", name, "unknown; the model's are " + Joined(model.dof_names));
    }
    for (Eigen::Index d : dofs) {
      if (std::find(rows.begin(), rows.end(), d) != rows.end()) {
        InvalidArgument(
            "joint", name,
            "its velocity " + model.dof_names[static_cast<size_t>(d)] + " is named twice");
      }
      rows.push_back(d);
      out.coordinate_names.push_back(model.dof_names[static_cast<size_t>(d)]);
    }
  }
  out.C = MatrixXd::Zero(static_cast<Eigen::Index>(rows.size()), n);
  for (size_t i = 0; i < rows.size(); ++i) out.C(static_cast<Eigen::Index>(i), rows[i]) = 1.0;
  return out;
}

}  // namespace impactset::robots
