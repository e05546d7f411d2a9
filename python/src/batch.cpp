// impactset.BatchJob: the command line's batch (batch::MakeBatchJob, batch::RunBatch: the same
// states, seeds and arrays) from Python keywords. run_states and assemble split one batch over
// processes (Dask, joblib): a state's record travels as bytes (data::EncodeState), and the file
// assembled from them is the one RunBatch writes. The Python side (impactset/_batch.py) turns
// keywords into the dicts read here and files into BatchResult objects.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include <impactset/batch/batch.hpp>
#include <impactset/batch/batch_request.hpp>
#include <impactset/batch/batch_writer.hpp>
#include <impactset/common/enum_names.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/sampling/parallel.hpp>
#include <impactset/sampling/sampler.hpp>
#include "python/src/bindings.hpp"
#include "python/src/options.hpp"

namespace impactset::python {
namespace {

py::object Get(const py::dict& d, const char* key) {
  return d.contains(key) ? py::reinterpret_borrow<py::object>(d[key]) : py::none();
}

// The source keywords (system=, scene=, problems=, mujoco=) and their options, converted; which
// of them go together is batch::ResolveBatchStates'.
void AddSource(const py::dict& a, batch::BatchRequest* r) {
  if (const py::object system = Get(a, "system"); !system.is_none()) {
    r->system = system.cast<std::string>();
  }
  if (const py::object scene = Get(a, "scene"); !scene.is_none()) {
    if (py::isinstance<py::dict>(scene)) {
      r->scene_text = py::module_::import("json").attr("dumps")(scene).cast<std::string>();
    } else {
      r->scene_file = ExistingFile(scene);
    }
  }
  if (const py::object problems = Get(a, "problems"); !problems.is_none()) {
    r->problems_file = ExistingFile(problems);
  }
  if (const py::object mujoco = Get(a, "mujoco"); !mujoco.is_none()) {
    const std::string model = FsPath(mujoco);
    r->mujoco_file = robots::IsMujocoScene(model) ? model : ExistingFile(py::str(model));
  }
  const py::object params = Get(a, "params");
  if (!params.is_none() && py::len(params) > 0) {
    r->params = SystemParameters(params.cast<py::dict>());
  }
}

// The MuJoCo keywords: their names when given, and their values (None: Problem.from_mujoco's
// defaults) when the source is a MuJoCo model.
void AddMujocoOptions(const py::dict& a, batch::BatchRequest* r) {
  for (const char* k : {"keyframe", "qpos", "qvel", "contact_margin", "friction_directions",
                        "ignore_constraints"}) {
    if (!Get(a, k).is_none()) r->mujoco_given.emplace_back(k);
  }
  const bool is_mujoco = r->mujoco_file || (r->system && robots::IsMujocoScene(*r->system));
  if (r->mujoco_given.empty() || !is_mujoco) return;  // the rules refuse them without a model
  const robots::MujocoOptions defaults;
  const py::object margin = Get(a, "contact_margin"), k = Get(a, "friction_directions"),
                   ignore = Get(a, "ignore_constraints");
  r->mujoco = MujocoKeywords(
      Get(a, "keyframe").cast<std::optional<std::string>>(), Get(a, "qpos"), Get(a, "qvel"),
      margin.is_none() ? defaults.contact_margin : RealArg(margin, "contact_margin"),
      k.is_none() ? defaults.friction_directions
                  : static_cast<int>(IntegerArg(k, "friction_directions")),
      ignore.is_none() ? defaults.ignore_constraints : ignore.cast<bool>());
}

// table=: a pandas DataFrame or a dict of equal-length columns (a file: AddDesign).
batch::StateDesign Table(const py::object& table) {
  batch::StateDesign d;
  d.kind = batch::StateDesignKind::kTable;
  if (py::hasattr(table, "columns") && py::hasattr(table, "to_numpy")) {
    for (const py::handle c : table.attr("columns")) d.table_names.push_back(py::str(c));
    d.table = MatrixArg(table.attr("to_numpy")(), "table");
    return d;
  }
  if (py::isinstance<py::dict>(table)) {
    std::vector<VectorXd> columns;
    for (const auto& [k, v] : table.cast<py::dict>()) {
      d.table_names.push_back(py::str(k));
      columns.push_back(VectorArg(v, "table['" + d.table_names.back() + "']"));
      if (columns.back().size() != columns.front().size()) {
        BadArgument("table['" + d.table_names.back() + "']",
                    std::to_string(columns.back().size()) + " rows, but table['" +
                        d.table_names.front() + "'] has " + std::to_string(columns.front().size()));
      }
    }
    d.table.resize(columns.empty() ? 0 : columns.front().size(), Eigen::Index(columns.size()));
    for (size_t j = 0; j < columns.size(); ++j) d.table.col(Eigen::Index(j)) = columns[j];
    return d;
  }
  throw py::type_error(
      "table: expected a pandas DataFrame, a dict of columns or a file path, got " +
      py::str(py::type::of(table)).cast<std::string>());
}

// vary={name: (low, high)} or (low, high, points) for the grid, as --vary NAME=LOW:HIGH[:POINTS].
std::vector<batch::ParameterRange> Ranges(const py::object& vary) {
  if (!py::isinstance<py::dict>(vary)) {
    throw py::type_error("vary: expected a dict {name: (low, high) or (low, high, points)}");
  }
  std::vector<batch::ParameterRange> ranges;
  for (const auto& [k, v] : vary.cast<py::dict>()) {
    batch::ParameterRange r;
    r.name = py::str(k);
    const std::string field = "vary['" + r.name + "']";
    if (!py::isinstance<py::sequence>(v) || py::isinstance<py::str>(v) ||
        (py::len(v) != 2 && py::len(v) != 3)) {
      BadArgument(field, "expected (low, high) or (low, high, points)");
    }
    const auto t = v.cast<py::sequence>();
    r.low = RealArg(t[0], field + "[0]");
    r.high = RealArg(t[1], field + "[1]");
    if (py::len(t) == 3) r.points = IntegerArg(t[2], field + "[2]");
    ranges.push_back(std::move(r));
  }
  return ranges;
}

// The design keywords (vary= or table=, state_design=, states=, state_seed=), converted.
void AddDesign(const py::dict& a, batch::BatchRequest* r) {
  if (const py::object table = Get(a, "table"); !table.is_none()) {
    if (py::isinstance<py::str>(table) || py::hasattr(table, "__fspath__")) {
      r->table_file = ExistingFile(table);
    } else {
      r->table = Table(table);
    }
  }
  if (const py::object vary = Get(a, "vary"); !vary.is_none()) r->vary = Ranges(vary);
  r->state_design = Get(a, "state_design").cast<std::string>();
  if (!Get(a, "states").is_none()) r->states = IntegerArg(Get(a, "states"), "states");
  const long long seed = IntegerArg(Get(a, "state_seed"), "state_seed");
  if (seed < 0) InvalidArgument("state_seed", seed, "must be >= 0");
  r->state_seed = static_cast<std::uint64_t>(seed);
}

using JobPtr = std::shared_ptr<batch::BatchJob>;

JobPtr MakeJob(const py::dict& arguments, const py::dict& options, const py::dict& rollout) {
  batch::BatchRequest request;
  request.surface = batch::BatchSurface::kPython;
  AddSource(arguments, &request);
  AddMujocoOptions(arguments, &request);
  AddDesign(arguments, &request);
  const batch::BatchStates states = batch::ResolveBatchStates(request);
  engine::BatchOptions o =
      engine::ResolveBatchOptions(KeywordOptions(options, engine::kPythonBatch));
  o.outputs = Get(arguments, "outputs").cast<std::vector<std::string>>();
  batch::GivenBatchOptions given;
  given.surface = batch::BatchSurface::kPython;
  for (const auto& [name, value] : options) given.engine.push_back(py::str(name));
  given.rollout = RolloutKeywordTexts(rollout);
  py::gil_scoped_release release;  // loads states until one is valid
  return std::make_shared<batch::BatchJob>(batch::MakeJob(states, o, given));
}

// RunBatch without the GIL; a signal (KeyboardInterrupt) or an exception of the progress function,
// checked after every state, stops the batch (the parts written stay, for resume) and is raised.
void RunJob(const batch::BatchJob& job,
            const std::string& out,
            bool resume,
            const py::object& progress) {
  PythonProgress hook(progress);
  try {
    py::gil_scoped_release release;
    batch::RunBatch(job, out, resume, [&](const batch::BatchProgress& p) {
      hook.Report(p.states_done, p.states_total);
    });
  } catch (const sampling::Cancelled&) {
    hook.Raise();
  }
}

std::vector<py::bytes> RunStates(const batch::BatchJob& job,
                                 const std::vector<long long>& indices) {
  for (const long long i : indices) {
    if (i < 0 || i >= job.Count()) {
      InvalidArgument("indices", i,
                      "not a state of this batch (0 ... " + std::to_string(job.Count() - 1) + ")");
    }
  }
  std::vector<std::string> encoded(indices.size());
  {
    py::gil_scoped_release release;
    sampling::ParallelFor(static_cast<long long>(indices.size()), job.options.run.sampler.threads,
                          [&](long long k) {
                            const auto u = static_cast<size_t>(k);
                            encoded[u] = data::EncodeState(batch::RunState(job, indices[u]));
                          });
  }
  std::vector<py::bytes> out;
  out.reserve(encoded.size());
  for (const std::string& e : encoded) out.emplace_back(e);
  return out;
}

void Assemble(const batch::BatchJob& job,
              const std::vector<std::string>& records,
              const std::string& out) {
  std::vector<data::StateRecord> decoded;
  decoded.reserve(records.size());
  for (const std::string& r : records) decoded.push_back(data::DecodeState(r));
  py::gil_scoped_release release;
  batch::WriteBatch(job, std::move(decoded), out);
}

constexpr const char* kJobDoc = R"doc(
A validated batch (impactset.BatchJob wraps it): the states, the file's layout and each state's
run. Build it with impactset.BatchJob(...) or impactset.batch(...).)doc";

}  // namespace

void BindBatch(py::module_& m) {
  py::class_<batch::BatchJob, JobPtr>(m, "_BatchJob", kJobDoc)
      .def_property_readonly("count", &batch::BatchJob::Count)
      .def_property_readonly("parameter_names",
                             [](const batch::BatchJob& j) { return j.design.Names(); })
      .def_property_readonly(
          "parameters",
          [](const batch::BatchJob& j) { return ToArray(MatrixXd(j.points.transpose())); })
      .def_property_readonly("velocity_names",
                             [](const batch::BatchJob& j) { return j.velocity_names; })
      .def_property_readonly("outputs",
                             [](const batch::BatchJob& j) {
                               std::vector<std::string> names;
                               for (const auto& [name, d] : j.outputs) names.push_back(name);
                               return names;
                             })
      .def_property_readonly("label",
                             [](const batch::BatchJob& j) { return batch::Label(j.source); })
      .def(
          "run",
          [](const batch::BatchJob& j, py::object out, bool resume, py::object progress) {
            RunJob(j, FsPath(out), resume, progress);
          },
          py::arg("out"), py::arg("resume"), py::arg("progress"))
      .def("run_states", &RunStates, py::arg("indices"))
      .def(
          "assemble",
          [](const batch::BatchJob& j, const std::vector<std::string>& records, py::object out) {
            Assemble(j, records, FsPath(out));
          },
          py::arg("records"), py::arg("out"));
  m.def("_batch_job", &MakeJob, py::arg("arguments"), py::arg("options"), py::arg("rollout"),
        "A _BatchJob from the source and design keywords and the option table's keywords.");
  m.def(
      "_read_batch", [](py::object path) { return ReadBatchTree(ExistingFile(path)); },
      py::arg("path"), "A batch file as read_dataset's dict.");
}

}  // namespace impactset::python
