#pragma once
// What the binding files share: the Problem wrapper and each file's registration function.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include <impactset/data/hdf5_tree.hpp>
#include <impactset/robots/mujoco_model.hpp>
#include <impactset/sets/set_outputs.hpp>
#include <impactset/systems/matrix_input.hpp>
#include <impactset/systems/parametric.hpp>
#include "python/src/convert.hpp"

namespace impactset::python {

/// impactset.Problem: an impact state, the sampler settings its source carried, and its name
/// (stored in datasets as the system).
struct Problem {
  systems::LoadedProblem loaded;
  std::string name;
  /// The MuJoCo model it came from (from_mujoco, a MuJoCo scene's from_system), else null: the
  /// com, base and joints:... outputs need it.
  std::shared_ptr<const robots::MujocoProblem> model{};
  const impact::ImpactProblem& problem() const { return loaded.problem; }
};

/// `impactset systems` parameters from keywords: numbers, strings, sequences of numbers.
systems::ParameterValues SystemParameters(const py::dict& keywords);
/// Problem.from_mujoco's keywords as the loader's options.
robots::MujocoOptions MujocoKeywords(const std::optional<std::string>& keyframe,
                                     py::handle qpos,
                                     py::handle qvel,
                                     double contact_margin,
                                     int friction_directions,
                                     bool ignore_constraints);
/// The rollout keywords given (rollouts/rollout_options.hpp rows; None: not given) as the texts
/// their rows read, in the table's order. @throws TypeError for a value of the wrong type.
std::vector<std::pair<std::string, std::string>> RolloutKeywordTexts(const py::dict& given);
/// A file's contents (data::Tree) as read_dataset returns a batch file's, without file_kind:
/// "groups", "attributes" ({object: {name: value}}), "arrays" ({path: array}), "scales",
/// "dimensions".
py::dict TreeDict(const data::Tree& tree);
/// A batch file as read_dataset returns it (its layout, by object path).
/// @throws ValueError for a file of a newer batch schema.
py::dict ReadBatchTree(const std::string& path);
/// A progress hook for work that runs without the GIL (sampling, a batch): Report takes the GIL,
/// checks for signals (Ctrl-C) and calls progress(done, total); a Python exception from either is
/// kept and sampling::Cancelled thrown to stop the work. Raise, called in the handler of that
/// Cancelled once every worker stopped, raises the kept exception (or rethrows).
///   PythonProgress hook(progress);
///   try { py::gil_scoped_release r; Work([&](long long d, long long t) { hook.Report(d, t); }); }
///   catch (const sampling::Cancelled&) { hook.Raise(); }
class PythonProgress {
 public:
  explicit PythonProgress(py::object progress) : progress_(std::move(progress)) {}
  void Report(long long done, long long total);
  [[noreturn]] void Raise();

 private:
  py::object progress_;
  PyObject *type_ = nullptr, *value_ = nullptr, *trace_ = nullptr;
};

void BindProblem(py::module_& m);
void BindBatch(py::module_& m);
void BindRollouts(py::module_& m);
void BindSampling(py::module_& m);
void BindSets(py::module_& m);
void BindLaws(py::module_& m);
void BindDatasets(py::module_& m);
void BindCompare(py::module_& m);

}  // namespace impactset::python
