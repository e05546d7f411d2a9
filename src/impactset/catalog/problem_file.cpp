#include <impactset/catalog/problem_file.hpp>

#include <filesystem>
#include <stdexcept>

#include <impactset/data/dataset.hpp>
#include <impactset/data/problem_stack.hpp>
#include <impactset/robots/mujoco_model.hpp>
#include <impactset/robots/state_vector.hpp>

namespace impactset::catalog {
namespace {

bool IsHdf5Path(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  return ext == ".h5" || ext == ".hdf5";
}

systems::LoadedProblem LoadProblemHdf5(const std::string& path) {
  data::ProblemInput in = data::ReadProblemInput(path);
  data::ProblemArrays& a = in.problem;
  systems::ProblemSettings s;
  s.scale_missing_steps = true;
  if (in.h) s.step = *in.h;
  if (in.max_steps) s.max_steps = static_cast<int>(*in.max_steps);
  if (in.samples) s.samples = *in.samples;
  try {
    return {impact::ImpactProblem(std::move(a.M), std::move(a.Jn), std::move(a.D), std::move(a.mu),
                                  std::move(a.v_minus), static_cast<int>(a.k)),
            s, "HDF5 matrix input " + path};
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ":/problem: " + e.what());
  }
}

}  // namespace

systems::LoadedProblem LoadProblemFile(const std::string& path) {
  if (IsHdf5Path(path)) return LoadProblemHdf5(path);
  return systems::LoadProblemJson(path);
}

VectorXd ReadStateVector(const std::string& text, const std::string& field) {
  if (!robots::IsNumberList(text) && IsHdf5Path(text)) return data::ReadStateVector(text, field);
  return robots::ParseStateVector(text, field);
}

}  // namespace impactset::catalog
