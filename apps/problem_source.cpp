#include "apps/problem_source.hpp"

#include <filesystem>

#include "data/dataset.hpp"
#include "systems/builtin.hpp"
#include "systems/parametric.hpp"
#include "systems/scene.hpp"

namespace impactset::app {

void ProblemSource::AddOptions(CLI::App* cmd) {
  auto* sys = cmd->add_option("--system", system, "built-in system (see `impactset systems`)");
  auto* file = cmd->add_option("--problem", problem_file,
                               "matrix input: JSON (M, Jn, D or Jf, mu, v_minus) or HDF5 (.h5: "
                               "/problem group); docs/problem-format.md");
  auto* scene = cmd->add_option(
      "--scene", scene_file,
      "scene JSON file: bodies, joints, shapes, walls, q, v- (docs/scene-format.md)");
  auto* param = cmd->add_option("--param", parameters,
                                "KEY=VALUE parameter of a parametrised --system (repeatable; "
                                "`impactset systems` lists them and their defaults)");
  param->excludes(file);
  param->excludes(scene);
  sys->excludes(file);
  sys->excludes(scene);
  scene->excludes(file);
}

namespace {
// HDF5 matrix input (data/ reads the arrays; ImpactProblem validates them).
systems::LoadedProblem LoadProblemHdf5(const std::string& path) {
  data::ProblemInput in = data::ReadProblemInput(path);
  data::ProblemArrays& a = in.problem;
  systems::ProblemSettings s;
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

systems::LoadedProblem ProblemSource::Load(std::string* name) const {
  if (!scene_file.empty()) {
    *name = scene_file;
    return systems::LoadSceneJson(scene_file);
  }
  if (!problem_file.empty()) {
    *name = problem_file;
    const std::string ext = std::filesystem::path(problem_file).extension().string();
    if (ext == ".h5" || ext == ".hdf5") return LoadProblemHdf5(problem_file);
    return systems::LoadProblemJson(problem_file);
  }
  *name = system.empty() ? systems::kDefaultSystem : system;
  return systems::LoadSystem(*name, systems::ParseParameterAssignments(parameters));
}

}  // namespace impactset::app
