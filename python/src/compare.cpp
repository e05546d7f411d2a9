// compare(): the impact laws of the literature side by side (compare/compare.hpp), as
// `impactset compare` runs them, with every outcome in one table of numpy arrays.
#include <algorithm>
#include <cctype>
#include <optional>

#include <pybind11/stl.h>

#include <impactset/common/error_policy.hpp>
#include <impactset/compare/compare.hpp>
#include <impactset/compare/outcomes.hpp>
#include "python/src/bindings.hpp"

namespace impactset::python {
namespace {

// impactset.Comparison: the flat outcome table (one row per outcome), the Routh set's summary
// and the options resolved. Plain Python objects, so pickling is a tuple of them.
struct Comparison {
  std::string system;
  std::vector<std::string> laws, law, setting, status;
  py::object converged = py::none(), v_plus = py::none(), contact_velocity = py::none(),
             energy_ratio = py::none();
  std::optional<bool> anitescu_potra_complete;
  std::optional<sampling::SampleSummary> routh;
  py::dict options;
};

// A law given as a CompareLaw (its name) or as the law's name ("aghili" or "AGHILI").
compare::Law LawArg(py::handle item) {
  std::string name;
  if (py::isinstance<py::str>(item)) {
    name = item.cast<std::string>();
  } else if (py::hasattr(item, "name") && py::isinstance<py::int_>(item)) {
    name = item.attr("name").cast<std::string>();
  } else {
    BadArgument("laws", "expected CompareLaw values or law names, got " +
                            std::string(py::str(py::type::of(item))));
  }
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ParseEnum<compare::Law>(name, "laws");
}

std::vector<compare::Law> LawsArg(const py::object& laws) {
  if (laws.is_none()) return compare::AllLaws();
  if (py::isinstance<py::str>(laws) || py::hasattr(laws, "name")) return {LawArg(laws)};
  std::vector<compare::Law> out;
  for (py::handle item : laws) out.push_back(LawArg(item));
  return out;
}

py::dict OptionsDict(const compare::CompareOptions& o, const compare::CompareResult& r) {
  py::dict d;
  std::vector<std::string> laws;
  for (compare::Law law : r.laws) laws.emplace_back(compare::ToString(law));
  d["laws"] = laws;
  d["samples"] = r.routh ? py::cast(r.routh->samples) : py::cast(o.samples);
  d["step"] = r.routh ? py::cast(r.routh->step) : py::cast(o.step);
  d["max_steps"] = r.routh ? py::cast(r.routh->max_steps) : py::cast(o.max_steps);
  d["step_rule"] = r.routh && !r.routh->step_rule.empty() ? py::cast(r.routh->step_rule)
                                                          : py::none();
  d["seed"] = o.seed;
  d["threads"] = o.threads;
  d["aghili_restitution"] = o.aghili_restitution;
  d["compliant_stiffness_contrast"] = o.compliant_stiffness_contrast;
  d["jia_mason_erdmann_stiffness_contrast"] = o.jia_mason_erdmann_stiffness_contrast;
  d["seghete_murphey_max_sequences"] = o.seghete_murphey_max_sequences;
  d["seghete_murphey_blend_ratio"] = o.seghete_murphey_blend_ratio;
  return d;
}

// Rows of the outcome table as arrays: (R, n) v_plus, (R, c) contact_velocity, (R,) the rest.
void FillTable(const impact::ImpactProblem& p,
               const std::vector<compare::Outcome>& rows,
               Comparison* c) {
  const auto R = static_cast<Eigen::Index>(rows.size());
  MatrixXd v(p.n(), R), cv(p.ContactJacobian().rows(), R);
  std::vector<double> energy;
  py::array_t<bool> converged(static_cast<py::ssize_t>(R));
  for (Eigen::Index i = 0; i < R; ++i) {
    const compare::Outcome& o = rows[static_cast<size_t>(i)];
    v.col(i) = o.v_plus;
    cv.col(i) = o.contact_velocity;
    energy.push_back(o.energy_ratio);
    converged.mutable_at(i) = o.converged;
    c->law.emplace_back(compare::ToString(o.law));
    c->setting.push_back(o.setting);
    c->status.push_back(o.status);
  }
  c->v_plus = ToPoints(v);
  c->contact_velocity = ToPoints(cv);
  c->energy_ratio = ToArray(energy);
  c->converged = converged;
}

Comparison Run(const Problem& p, const compare::CompareOptions& o, const py::object& progress) {
  o.Validate();  // ValueError before any thread starts
  PythonProgress hook(progress);
  std::optional<compare::CompareResult> r;
  try {
    py::gil_scoped_release release;
    r = compare::Compare(p.loaded, o,
                         [&](long long done, long long total) { hook.Report(done, total); });
  } catch (const sampling::Cancelled&) {
    hook.Raise();
  }
  Comparison c;
  c.system = p.name;
  for (compare::Law law : r->laws) c.laws.emplace_back(compare::ToString(law));
  FillTable(p.problem(), compare::Outcomes(p.problem(), *r), &c);
  if (r->anitescu_potra) c.anitescu_potra_complete = r->anitescu_potra->complete;
  if (r->routh) c.routh = r->routh->summary;
  c.options = OptionsDict(o, *r);
  if (r->RouthEmpty()) {  // the command line's exit 4: no range, so say so
    const std::string w = "no Routh sample terminated (" +
                          std::to_string(r->routh->summary.step_capped) + " step-capped of " +
                          std::to_string(r->routh->summary.samples) +
                          "): the Routh set has no range; try a larger step or max_steps";
    if (PyErr_WarnEx(PyExc_RuntimeWarning, w.c_str(), 2) != 0) throw py::error_already_set();
  }
  return c;
}

py::tuple State(const Comparison& c) {
  return py::make_tuple(c.system, c.laws, c.law, c.setting, c.status, c.converged, c.v_plus,
                        c.contact_velocity, c.energy_ratio, c.anitescu_potra_complete, c.routh,
                        c.options);
}

Comparison FromState(const py::tuple& t) {
  if (t.size() != 12) throw std::runtime_error("Comparison: not a pickled impactset.Comparison");
  Comparison c;
  c.system = t[0].cast<std::string>();
  c.laws = t[1].cast<std::vector<std::string>>();
  c.law = t[2].cast<std::vector<std::string>>();
  c.setting = t[3].cast<std::vector<std::string>>();
  c.status = t[4].cast<std::vector<std::string>>();
  c.converged = t[5];
  c.v_plus = t[6];
  c.contact_velocity = t[7];
  c.energy_ratio = t[8];
  c.anitescu_potra_complete = t[9].cast<std::optional<bool>>();
  c.routh = t[10].cast<std::optional<sampling::SampleSummary>>();
  c.options = t[11].cast<py::dict>();
  return c;
}

constexpr const char* kComparisonDoc = R"doc(
The compared laws' outcomes, one row per outcome (in the order of laws, then each law's
settings): law, setting and status (lists of str), converged (R,) bool, v_plus (R, n),
contact_velocity (R, c) and energy_ratio (R,); the Routh set's Summary and the options used.
The same outcomes `impactset compare --json` prints, key by key.)doc";

constexpr const char* kCompareDoc = R"doc(
`impactset compare` in-process: the impact laws of the literature on the problem, each at the
settings the command shows it at, next to the Routh set.

laws: CompareLaw values or their names (default: every law); they run in CompareLaw order.
samples, step, max_steps: the Routh set's K, h and N (default: as sample() and run() resolve
them: the problem's, scaled to the impact where the problem asks for it, else 16384, 1 and 10;
options["step_rule"] says how); seed, threads: its seed and worker threads (0 = every core).
A Routh set in which no sample terminated has no range: RuntimeWarning (the command exits 4).
aghili_restitution: one Aghili run per global restitution coefficient e, each in [0, 1].
compliant_stiffness_contrast: compliant runs at equal stiffness, then with each contact in turn
this many times stiffer (> 0). jia_mason_erdmann_stiffness_contrast: the same, each contact in
turn this many times stiffer and softer (>= 1).
seghete_murphey_max_sequences: most sequences each propagative enumeration explores (>= 1);
seghete_murphey_blend_ratio: R of the energetic blend, in [0, 1].
progress: called as progress(done, total) while the Routh set is sampled; an exception from it
cancels. The GIL is released while the laws run.

Returns a Comparison. Raises ValueError naming the option for bad values.)doc";

void BindComparison(py::module_& m) {
  py::class_<Comparison>(m, "Comparison", kComparisonDoc)
      .def_readonly("system", &Comparison::system, "the problem's name")
      .def_readonly("laws", &Comparison::laws, "the laws run, in CompareLaw order (their names)")
      .def_readonly("law", &Comparison::law, "each row's law (its name, e.g. \"aghili\")")
      .def_readonly("setting", &Comparison::setting,
                    "each row's setting of its law: \"e=0.5\" (aghili), \"order 1 0\" "
                    "(sequential), a run's label, \"\" (anitescu_potra)")
      .def_readonly("status", &Comparison::status,
                    "each row's status as its law names it (\"solved\", \"terminated\", ...)")
      .def_readonly("converged", &Comparison::converged,
                    "(R,) bool: the law reached this outcome (solved, terminated, feasible)")
      .def_readonly("v_plus", &Comparison::v_plus, "(R, n) post-impact generalized velocities")
      .def_readonly("contact_velocity", &Comparison::contact_velocity,
                    "(R, c) post-impact contact velocities: normal of each contact, then "
                    "tangential")
      .def_readonly("energy_ratio", &Comparison::energy_ratio, "(R,) KE+/KE- of each outcome")
      .def_readonly("anitescu_potra_complete", &Comparison::anitescu_potra_complete,
                    "the anitescu_potra rows are every solution (None: the law did not run)")
      .def_readonly("routh", &Comparison::routh,
                    "the Routh set's Summary (None: the law did not run)")
      .def_readonly("options", &Comparison::options,
                    "every option by name, samples, step and max_steps as resolved")
      .def(
          "rows",
          [](const Comparison& c, const std::string& law) {
            std::vector<py::ssize_t> rows;
            for (size_t i = 0; i < c.law.size(); ++i) {
              if (c.law[i] == law) rows.push_back(static_cast<py::ssize_t>(i));
            }
            return ToArray(rows);
          },
          py::arg("law"), "The row indices of one law's outcomes (an index array).")
      .def("__len__", [](const Comparison& c) { return c.law.size(); })
      .def(py::pickle(&State, &FromState))
      .def("__repr__", [](const Comparison& c) {
        return "<impactset.Comparison '" + c.system + "': " + std::to_string(c.laws.size()) +
               " laws, " + std::to_string(c.law.size()) + " outcomes>";
      });
}

}  // namespace

void BindCompare(py::module_& m) {
  BindComparison(m);
  const compare::CompareOptions d;
  m.def(
      "compare",
      [](const Problem& p, const py::object& laws, std::optional<long long> samples,
         std::uint64_t seed, int threads, std::optional<double> step, std::optional<int> max_steps,
         std::vector<double> aghili_restitution, double compliant_stiffness_contrast,
         double jia_mason_erdmann_stiffness_contrast, long long seghete_murphey_max_sequences,
         double seghete_murphey_blend_ratio, const py::object& progress) {
        compare::CompareOptions o;
        o.laws = LawsArg(laws);
        o.samples = samples;
        o.seed = seed;
        o.threads = threads;
        o.step = step;
        o.max_steps = max_steps;
        o.aghili_restitution = std::move(aghili_restitution);
        o.compliant_stiffness_contrast = compliant_stiffness_contrast;
        o.jia_mason_erdmann_stiffness_contrast = jia_mason_erdmann_stiffness_contrast;
        o.seghete_murphey_max_sequences = seghete_murphey_max_sequences;
        o.seghete_murphey_blend_ratio = seghete_murphey_blend_ratio;
        return Run(p, o, progress);
      },
      py::arg("problem"), py::arg("laws") = py::none(), py::kw_only(),
      py::arg("samples") = d.samples, py::arg("seed") = d.seed, py::arg("threads") = d.threads,
      py::arg("step") = d.step, py::arg("max_steps") = d.max_steps,
      py::arg("aghili_restitution") = d.aghili_restitution,
      py::arg("compliant_stiffness_contrast") = d.compliant_stiffness_contrast,
      py::arg("jia_mason_erdmann_stiffness_contrast") = d.jia_mason_erdmann_stiffness_contrast,
      py::arg("seghete_murphey_max_sequences") = d.seghete_murphey_max_sequences,
      py::arg("seghete_murphey_blend_ratio") = d.seghete_murphey_blend_ratio,
      py::arg("progress") = py::none(), kCompareDoc);
}

}  // namespace impactset::python
