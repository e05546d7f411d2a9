// sample(), run(), read_run(), merge() and the Run, Samples and Summary types. The GIL is
// released while sampling; the progress hook takes it back briefly to check for signals (Ctrl-C)
// and to call the user's progress function, and cancels the run when either raised.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <tuple>

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <impactset/common/error_policy.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/merge.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/engine/step_scaling.hpp>
#include "python/src/bindings.hpp"
#include "python/src/options.hpp"

namespace impactset::python {
namespace {

using RunPtr = std::shared_ptr<engine::RunResult>;

// The engine's options: the problem's defaults, then the caller's keywords (the option table's,
// as the command line does), then the outputs resolved against the problem.
engine::RunOptions Options(const Problem& p,
                           const py::dict& keywords,
                           engine::OptionSurface surface,
                           const std::vector<std::string>& outputs) {
  engine::RunOptions o = engine::ResolveRunOptions(p.loaded, KeywordOptions(keywords, surface));
  engine::ResolveOutputs(outputs, p.problem(), p.model.get(), &o);
  return o;
}

// engine::Run without the GIL; Ctrl-C or an exception of the progress function cancels it
// (PythonProgress) and is raised here once every worker has stopped.
RunPtr RunWithoutGil(const Problem& p, const engine::RunOptions& o, const py::object& progress) {
  o.Validate();  // ValueError before any thread starts
  PythonProgress hook(progress);
  RunPtr r;
  try {
    py::gil_scoped_release release;
    r = std::make_shared<engine::RunResult>(
        engine::Run(p.problem(), o, p.name,
                    [&](long long done, long long total) { hook.Report(done, total); }));
  } catch (const sampling::Cancelled&) {
    hook.Raise();
  }
  // More than 0.1 % of the samples capped or failed: the advice (engine::StepCapAdvice), as the
  // command prints it and the file stores it.
  if (const auto warning = engine::StepCapAdvice(*r)) {
    if (PyErr_WarnEx(PyExc_RuntimeWarning, warning->c_str(), 2) != 0) {
      throw py::error_already_set();  // warnings turned into errors
    }
  }
  if (const auto note = engine::JamNote(r->problem)) {
    if (PyErr_WarnEx(PyExc_RuntimeWarning, note->c_str(), 2) != 0) throw py::error_already_set();
  }
  if (const auto warning = engine::StepGrowthWarning(r->options)) {
    if (PyErr_WarnEx(PyExc_RuntimeWarning, warning->c_str(), 2) != 0) {
      throw py::error_already_set();
    }
  }
  if (const auto warning = engine::PhysicsWarning(*r)) {
    if (PyErr_WarnEx(PyExc_RuntimeWarning, warning->c_str(), 2) != 0) {
      throw py::error_already_set();
    }
  }
  for (const std::string& w : engine::EpsilonWarnings(*r)) {
    if (PyErr_WarnEx(PyExc_RuntimeWarning, w.c_str(), 2) != 0) throw py::error_already_set();
  }
  return r;
}

void Write(const engine::RunResult& r, const std::string& path) {
  py::gil_scoped_release release;
  engine::WriteRun(path, r);
}

// A run as the bytes of its run file (docs/dataset-format.md): the one description of every
// field, so a pickled run comes back as read_run would read it, array for array.
// A file name of its own in the temporary directory, removed when it goes out of scope (also
// when writing or reading it threw).
struct ScratchFile {
  std::filesystem::path path;
  ScratchFile() {
    static std::atomic<long long> counter{0};
    path =
        std::filesystem::temp_directory_path() / ("impactset-pickle-" + std::to_string(::getpid()) +
                                                  "-" + std::to_string(counter++) + ".h5");
  }
  ~ScratchFile() {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
};

py::bytes RunBytes(const engine::RunResult& r) {
  std::string bytes;
  {
    py::gil_scoped_release release;
    const ScratchFile file;
    engine::WriteRun(file.path.string(), r);
    std::ifstream in(file.path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return py::bytes(bytes);
}

RunPtr RunFromBytes(const std::string& bytes) {
  py::gil_scoped_release release;
  const ScratchFile file;
  {
    std::ofstream out(file.path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  return std::make_shared<engine::RunResult>(engine::ReadRun(file.path.string()));
}

// The pickled state: the run file's bytes and what the file does not keep (timings, threads).
py::tuple RunState(const engine::RunResult& r) {
  return py::make_tuple(RunBytes(r), r.threads_used, r.seconds, r.sets_seconds,
                        r.options.sampler.threads);
}

RunPtr RunFromState(const py::tuple& t) {
  if (t.size() != 5) throw std::runtime_error("Run: not a pickled impactset.Run");
  RunPtr r = RunFromBytes(t[0].cast<std::string>());
  r->threads_used = t[1].cast<int>();
  r->seconds = t[2].cast<double>();
  r->sets_seconds = t[3].cast<double>();
  r->options.sampler.threads = t[4].cast<int>();
  return r;
}

// impactset.Samples: read-only numpy views of a run's kept per-sample arrays (one row per
// sample), alive as long as any of them is.
struct Samples {
  RunPtr run;
  py::object v_plus = py::none(), contact_velocity = py::none(), status = py::none(),
             lcp_solves = py::none(), energy_ratio = py::none(), non_unique = py::none();
  py::object trajectories = py::none(), trajectory_offsets = py::none();
};

Samples MakeSamples(const RunPtr& r) {
  const sampling::SampleArrays& a = *r->samples;
  const py::capsule owner = Owner(r);
  const py::ssize_t K = a.count();
  Samples s;
  s.run = r;
  s.v_plus = ReadOnlyView(py::dtype::of<double>(), {K, a.v_plus.rows()}, a.v_plus.data(), owner);
  s.contact_velocity = ReadOnlyView(py::dtype::of<double>(), {K, a.contact_velocity.rows()},
                                    a.contact_velocity.data(), owner);
  py::array_t<std::int32_t> status(K);
  for (py::ssize_t k = 0; k < K; ++k) {
    status.mutable_at(k) = static_cast<std::int32_t>(a.status[static_cast<size_t>(k)]);
  }
  status.attr("flags").attr("writeable") = false;
  s.status = status;
  s.lcp_solves = ReadOnlyView(py::dtype::of<std::int32_t>(), {K}, a.lcp_solves.data(), owner);
  s.energy_ratio = ReadOnlyView(py::dtype::of<double>(), {K}, a.energy_ratio.data(), owner);
  s.non_unique = ReadOnlyView(py::dtype("bool"), {K}, a.non_unique.data(), owner);
  if (!a.trajectory_offsets.empty()) {
    s.trajectories = ReadOnlyView(py::dtype::of<double>(), {a.trajectories.cols(), a.v_plus.rows()},
                                  a.trajectories.data(), owner);
    s.trajectory_offsets = ReadOnlyView(py::dtype::of<std::int64_t>(),
                                        {static_cast<py::ssize_t>(a.trajectory_offsets.size())},
                                        a.trajectory_offsets.data(), owner);
  }
  return s;
}

std::shared_ptr<Problem> ProblemOf(const engine::RunResult& r) {
  systems::ProblemSettings s{r.options.sampler.algorithm.step,
                             r.options.sampler.algorithm.max_steps, r.options.sampler.samples};
  return std::make_shared<Problem>(Problem{{r.problem, s, "run"}, r.system});
}

// The prose of sample() and run(); impactset/__init__.py adds the signature and one line per
// option from the option table.
constexpr const char* kSampleDoc = R"doc(
Samples the post-impact set of the problem (Algorithm 2): K samples of Algorithm 1, each
depending only on (seed, index), so the arrays are the same at any thread count and equal, bit for
bit, to the /samples of `impactset run --keep-samples` with the same settings.

outputs: output maps (see run()) whose coordinates Samples.post_impact(name) can give.
progress: called as progress(done, total) about every 1/8 s; an exception from it cancels.

The GIL is released while sampling; Ctrl-C raises KeyboardInterrupt after the workers stopped.
Returns Samples (numpy arrays, one row per sample, and the summary). Raises ValueError naming the
option for bad values.)doc";

constexpr const char* kRunDoc = R"doc(
`impactset run` in-process: samples like sample() (same sampler options), keeps the per-sample
arrays only with keep_samples (or keep_trajectories), and with sets=True builds the epsilon-nets
of the post-impact and reachable sets in the coordinates of each output, their convex hulls and
the coverage statements (docs/coverage.md).

outputs: the coordinates y = C v of the sets (default ["contact", "generalized"]), as
`impactset run --output`: "contact", "generalized", "com", "base", "joints:NAME,..." (MuJoCo
models), "matrix:FILE.csv" (rows of C), each optionally named "NAME=SPEC".
out: also write the HDF5 dataset there (only after the run completed: an interrupted run writes
nothing). progress: as sample()'s.

Returns a Run. Ctrl-C raises KeyboardInterrupt; ValueError names a bad option.)doc";

py::dict SummaryDict(const sampling::SampleSummary& s) {
  py::dict d;
  d["samples"] = s.samples;
  d["terminated"] = s.terminated;
  d["step_capped"] = s.step_capped;
  d["lcp_failures"] = s.lcp_failures;
  d["non_physical"] = s.non_physical;
  d["lcp_solves"] = s.lcp_solves;
  d["lcp_fallbacks"] = s.lcp_fallbacks;
  d["non_unique"] = s.non_unique;
  d["worst_residual"] = s.worst_residual;
  d["energy_ratio_max"] = s.energy_ratio_max;
  d["mean_solves"] = s.MeanSolves();
  d["contact_velocity_min"] = ToArray(s.contact_velocity_min);
  d["contact_velocity_max"] = ToArray(s.contact_velocity_max);
  d["solves_histogram"] = s.solves_histogram;
  return d;
}

// The inverse of SummaryDict (pickling): every field back, mean_solves derived.
sampling::SampleSummary SummaryFromDict(const py::dict& d) {
  sampling::SampleSummary s;
  s.samples = d["samples"].cast<long long>();
  s.terminated = d["terminated"].cast<long long>();
  s.step_capped = d["step_capped"].cast<long long>();
  s.lcp_failures = d["lcp_failures"].cast<long long>();
  s.non_physical = d["non_physical"].cast<long long>();
  s.lcp_solves = d["lcp_solves"].cast<long long>();
  s.lcp_fallbacks = d["lcp_fallbacks"].cast<long long>();
  s.non_unique = d["non_unique"].cast<long long>();
  s.worst_residual = d["worst_residual"].cast<double>();
  s.energy_ratio_max = d["energy_ratio_max"].cast<double>();
  s.contact_velocity_min = VectorArg(d["contact_velocity_min"], "contact_velocity_min");
  s.contact_velocity_max = VectorArg(d["contact_velocity_max"], "contact_velocity_max");
  s.solves_histogram = d["solves_histogram"].cast<std::vector<long long>>();
  return s;
}

void BindSummary(py::module_& m) {
  py::class_<sampling::SampleSummary>(m, "Summary", R"doc(
Bounded-memory statistics of the samples (the /summary of a dataset).)doc")
      .def_readonly("samples", &sampling::SampleSummary::samples, "samples drawn (K)")
      .def_readonly("terminated", &sampling::SampleSummary::terminated,
                    "samples with no contact still colliding: the post-impact set")
      .def_readonly("step_capped", &sampling::SampleSummary::step_capped,
                    "samples still colliding after max_steps solves")
      .def_readonly("lcp_failures", &sampling::SampleSummary::lcp_failures,
                    "samples stopped by a step LCP no solver of the chain solved")
      .def_readonly("non_physical", &sampling::SampleSummary::non_physical,
                    "samples that stopped colliding but failed the end-state check (kinetic "
                    "energy gained or total impulse outside the friction cone): in no set")
      .def_readonly("lcp_solves", &sampling::SampleSummary::lcp_solves,
                    "step LCPs solved, over every sample")
      .def_readonly("lcp_fallbacks", &sampling::SampleSummary::lcp_fallbacks,
                    "step LCPs the chain's first solver gave to a later one")
      .def_readonly("non_unique", &sampling::SampleSummary::non_unique,
                    "samples with a step whose LCP solution was found not unique "
                    "(0 when detect_non_unique is off)")
      .def_readonly("worst_residual", &sampling::SampleSummary::worst_residual,
                    "largest relative residual of an accepted step LCP solution")
      .def_readonly("energy_ratio_max", &sampling::SampleSummary::energy_ratio_max,
                    "largest KE+/KE- over the terminated samples (<= 1: no energy gained)")
      .def_property_readonly(
          "contact_velocity_min",
          [](const sampling::SampleSummary& s) { return ToArray(s.contact_velocity_min); },
          "(c,) smallest post-impact contact velocity per coordinate (terminated samples)")
      .def_property_readonly(
          "contact_velocity_max",
          [](const sampling::SampleSummary& s) { return ToArray(s.contact_velocity_max); },
          "(c,) largest post-impact contact velocity per coordinate (terminated samples)")
      .def_readonly("solves_histogram", &sampling::SampleSummary::solves_histogram,
                    "samples by their number of step LCP solves (entry i: i solves)")
      .def_property_readonly("mean_solves", &sampling::SampleSummary::MeanSolves,
                             "step LCP solves per sample")
      .def("to_dict", &SummaryDict,
           "Every statistic as a dict (the dataset's /summary; one row of a pandas table).")
      .def(py::pickle(&SummaryDict, &SummaryFromDict))
      .def("__repr__", [](const sampling::SampleSummary& s) {
        return "<impactset.Summary: " + std::to_string(s.samples) + " samples, " +
               std::to_string(s.terminated) + " terminated, " + std::to_string(s.step_capped) +
               " step-capped, " + std::to_string(s.lcp_failures) + " LCP failures, " +
               std::to_string(s.non_physical) + " non-physical>";
      });
}

void BindSamples(py::module_& m) {
  py::class_<Samples>(m, "Samples", R"doc(
Per-sample arrays of a run, one row per sample (read-only numpy views; .copy() to modify):
v_plus (K, n), contact_velocity (K, c), status (K,) int32 (0 terminated, 1 step cap, 2 LCP
failure; only status == 0 rows belong to the post-impact set), lcp_solves (K,) int32,
energy_ratio (K,), non_unique (K,) bool, and with keep_trajectories trajectories (P, n) with
trajectory_offsets (K + 1,): sample k's velocities are rows offsets[k]:offsets[k + 1].)doc")
      .def_readonly("v_plus", &Samples::v_plus,
                    "(K, n) post-impact generalized velocity; columns: velocity_names")
      .def_readonly("contact_velocity", &Samples::contact_velocity,
                    "(K, c) post-impact contact velocities; columns: contact_names")
      .def_readonly("status", &Samples::status,
                    "(K,) int32: 0 terminated, 1 step cap, 2 LCP failure, 3 non-physical (SampleStatus)")
      .def_readonly("lcp_solves", &Samples::lcp_solves, "(K,) int32 step LCPs each sample solved")
      .def_readonly("energy_ratio", &Samples::energy_ratio, "(K,) KE+/KE- of each sample")
      .def_readonly("non_unique", &Samples::non_unique,
                    "(K,) bool: a step's LCP solution was found not unique")
      .def_readonly("trajectories", &Samples::trajectories,
                    "(P, n) every sample's velocities step by step (keep_trajectories), or None")
      .def_readonly("trajectory_offsets", &Samples::trajectory_offsets,
                    "(K + 1,) sample k's rows of trajectories are offsets[k]:offsets[k + 1]")
      .def_property_readonly(
          "summary", [](const Samples& s) { return s.run->summary; }, "the run's Summary")
      .def_property_readonly(
          "count", [](const Samples& s) { return s.run->count; }, "samples (rows), K")
      .def_property_readonly(
          "first_sample", [](const Samples& s) { return s.run->first_sample; },
          "the global index of row 0 (a shard's first sample)")
      .def_property_readonly(
          "seconds", [](const Samples& s) { return s.run->seconds; }, "sampling wall time")
      .def_property_readonly(
          "threads_used", [](const Samples& s) { return s.run->threads_used; },
          "threads the sampling ran on")
      .def_property_readonly(
          "options", [](const Samples& s) { return OptionsDict(s.run->options); },
          "every option of the run by name, and step_rule")
      .def_property_readonly(
          "run", [](const Samples& s) { return s.run; }, "the Run these samples belong to")
      .def_property_readonly(
          "velocity_names",
          [](const Samples& s) {
            return sets::GeneralizedOutput(s.run->problem, s.run->options.velocity_names)
                .coordinate_names;
          },
          "the names of v_plus's columns (a MuJoCo model's, else v0, v1, ...)")
      .def_property_readonly(
          "contact_names",
          [](const Samples& s) {
            return sets::ContactOutput(s.run->problem, s.run->options.contact_names)
                .coordinate_names;
          },
          "the names of contact_velocity's columns (c0:n, ..., then tangential ones)")
      .def(
          "post_impact",
          [](const Samples& s, const std::string& coords) {
            const sampling::SampleArrays& a = *s.run->samples;
            std::string known;
            for (const sets::OutputMap& o : s.run->Outputs()) {
              if (o.name != coords) {
                known += (known.empty() ? "" : ", ") + o.name;
                continue;
              }
              const bool contact = o.kind == sets::Coordinates::kContact;
              return ToPoints(sampling::TerminatedColumns(
                  contact ? a.contact_velocity : o.Apply(a.v_plus), a.status));
            }
            InvalidArgument("coords", coords, "the run's outputs are " + known);
          },
          py::arg("coords") = "contact",
          "The terminated samples' rows (a copy): the post-impact set in the coordinates of an "
          "output: \"contact\", \"generalized\" or one of outputs=[...].")
      .def(
          "write", [](const Samples& s, py::object path) { Write(*s.run, FsPath(path)); },
          py::arg("path"), "Writes the run's HDF5 dataset (docs/dataset-format.md), atomically.")
      .def("__len__", [](const Samples& s) { return s.run->count; })
      .def(py::pickle([](const Samples& s) { return RunState(*s.run); },
                      [](const py::tuple& t) { return MakeSamples(RunFromState(t)); }))
      .def("__repr__", [](const Samples& s) {
        return "<impactset.Samples: " + std::to_string(s.run->count) + " samples of '" +
               s.run->system + "'>";
      });
}

void BindRun(py::module_& m) {
  py::class_<engine::RunResult, RunPtr>(m, "Run", R"doc(
A run: the summary, the kept samples (or None), the sets (nets, hulls, coverage) and how it was
made. Write it with write(path); read one with impactset.read_run(path).)doc")
      .def_readonly("system", &engine::RunResult::system,
                    "the label the run was given (the system's or file's name; stored in datasets)")
      .def_property_readonly("problem", &ProblemOf,
                             "the Problem sampled, with the run's step, max_steps and samples")
      .def_property_readonly(
          "options", [](const engine::RunResult& r) { return OptionsDict(r.options); },
          "every option of the run by name (epsilon: the radius used), and step_rule")
      .def_readonly("first_sample", &engine::RunResult::first_sample,
                    "the global index of the first sample (a shard's first sample)")
      .def_readonly("count", &engine::RunResult::count, "samples in this run (K)")
      .def_readonly("threads_used", &engine::RunResult::threads_used,
                    "threads the sampling ran on (a merge: the most any shard used)")
      .def_readonly("seconds", &engine::RunResult::seconds, "sampling wall time")
      .def_readonly("sets_seconds", &engine::RunResult::sets_seconds,
                    "nets, hulls and coverage wall time")
      .def_readonly("summary", &engine::RunResult::summary,
                    "the Summary: statistics over every sample of the run")
      .def_property_readonly(
          "samples",
          [](const RunPtr& r) -> py::object {
            if (!r->samples) return py::none();
            return py::cast(MakeSamples(r));
          },
          "the kept per-sample arrays (Samples; keep_samples or keep_trajectories), else None")
      .def_readonly("sets", &engine::RunResult::sets,
                    "PointSet list: post_impact x (contact, generalized), then reachable")
      .def(
          "set",
          [](const engine::RunResult& r, const std::string& set,
             const std::string& coords) -> std::optional<sets::PointSet> {
            const sets::PointSet* s = r.Find(sets::ParseSetKind(set), coords);
            if (!s) return std::nullopt;
            return *s;
          },
          py::arg("set") = "post_impact", py::arg("coords") = "contact",
          "The PointSet of that set (\"post_impact\" or \"reachable\") in the coordinates of "
          "that output (\"contact\", \"generalized\" or one of outputs=[...]), or None.")
      .def_readonly("version", &engine::RunResult::version, "the impactset version that made it")
      .def_readonly("git_revision", &engine::RunResult::git_revision,
                    "the git revision of the impactset that made it")
      .def_readonly("created", &engine::RunResult::created, "when it was made (ISO 8601, UTC)")
      .def_property_readonly("has_lcp_failures", &engine::RunResult::HasLcpFailures,
                             "some sample hit a step LCP no solver of the chain solved")
      .def(py::pickle([](const engine::RunResult& r) { return RunState(r); }, &RunFromState))
      .def(
          "write", [](const engine::RunResult& r, py::object path) { Write(r, FsPath(path)); },
          py::arg("path"), "Writes the HDF5 dataset (docs/dataset-format.md), atomically.")
      .def("__repr__", [](const engine::RunResult& r) {
        return "<impactset.Run '" + r.system + "': " + std::to_string(r.count) + " samples, " +
               std::to_string(r.sets.size()) + " sets>";
      });
}

void BindSample(py::module_& m) {
  m.def(
      "_sample",
      [](const Problem& p, const py::dict& options, const std::vector<std::string>& outputs,
         py::object progress) {
        engine::RunOptions o = Options(p, options, engine::kPythonSample, outputs);
        o.sampler.keep_samples = true;
        o.sets = false;
        return MakeSamples(RunWithoutGil(p, o, progress));
      },
      py::arg("problem"), py::arg("options"), py::arg("outputs"), py::arg("progress"), kSampleDoc);
}

void BindRunFunction(py::module_& m) {
  m.def(
      "_run",
      [](const Problem& p, const py::dict& options, const std::vector<std::string>& outputs,
         py::object out, py::object progress) {
        const engine::RunOptions o = Options(p, options, engine::kPythonRun, outputs);
        RunPtr r = RunWithoutGil(p, o, progress);
        if (!out.is_none()) Write(*r, FsPath(out));
        return r;
      },
      py::arg("problem"), py::arg("options"), py::arg("outputs"), py::arg("out"),
      py::arg("progress"), kRunDoc);
}

void BindReadAndMerge(py::module_& m) {
  m.def(
      "read_run",
      [](py::object path) {
        return std::make_shared<engine::RunResult>(engine::ReadRun(ExistingFile(path)));
      },
      py::arg("path"), R"doc(
Reads a run's HDF5 dataset (written by `impactset run`, `impactset merge` or Run.write) as a Run.
Raises RuntimeError for files HDF5 cannot read, ValueError for names impactset does not
write.)doc");

  m.def(
      "merge",
      [](const std::vector<RunPtr>& shards) {
        std::vector<engine::RunResult> copies;
        for (const RunPtr& s : shards) copies.push_back(*s);
        return std::make_shared<engine::RunResult>(engine::Merge(std::move(copies)));
      },
      py::arg("shards"), R"doc(
Joins the Runs of all shards of one run (any order) into the Run a single run gives (nets are
rebuilt exactly when the shards kept their samples). ValueError names the first difference.)doc");
}

}  // namespace

void PythonProgress::Report(long long done, long long total) {
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() == 0 && !progress_.is_none()) {
    try {
      progress_(done, total);
    } catch (py::error_already_set& e) {
      e.restore();
    }
  }
  if (PyErr_Occurred()) {
    PyErr_Fetch(&type_, &value_, &trace_);
    throw sampling::Cancelled();
  }
}

void PythonProgress::Raise() {
  if (!type_) throw;  // a Cancelled that did not come from here
  PyErr_Restore(type_, value_, trace_);
  type_ = value_ = trace_ = nullptr;
  throw py::error_already_set();
}

void BindSampling(py::module_& m) {
  BindSummary(m);
  BindSamples(m);
  BindRun(m);
  BindSample(m);
  BindRunFunction(m);
  BindReadAndMerge(m);
}

}  // namespace impactset::python
