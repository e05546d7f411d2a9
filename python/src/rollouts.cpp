// rollout(): set-valued rollouts of a MuJoCo model (rollouts/rollout.hpp). The keywords come
// from two tables (the MuJoCo source's and the rollout's, impactset/_rollout.py builds the
// signature); this file converts them and the result only.
#include <cmath>
#include <sstream>

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <impactset/common/error_policy.hpp>
#include <impactset/rollouts/falsify.hpp>
#include <impactset/rollouts/rollout_file.hpp>
#include <impactset/rollouts/rollout_options.hpp>
#include "python/src/bindings.hpp"

namespace impactset::python {
namespace {

const char* TypeName(rollouts::RolloutOptionType t) {
  switch (t) {
    case rollouts::RolloutOptionType::kFlag:
      return "bool";
    case rollouts::RolloutOptionType::kNumber:
      return "number";
    case rollouts::RolloutOptionType::kList:
      return "list";
    case rollouts::RolloutOptionType::kText:
      return "str";
  }
  return "str";
}

std::string NumberText(py::handle value, const std::string& name) {
  if (py::isinstance<py::bool_>(value) ||
      !(py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value))) {
    BadArgument(name, "expected a number, got " + std::string(py::str(py::type::of(value))));
  }
  if (py::isinstance<py::int_>(value)) return std::string(py::str(value));
  std::ostringstream s;
  s.precision(17);
  s << value.cast<double>();
  return s.str();
}

}  // namespace

std::vector<std::pair<std::string, std::string>> RolloutKeywordTexts(const py::dict& given) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const rollouts::RolloutOptionField& f : rollouts::RolloutOptionFields()) {
    const std::string name(f.name);
    if (!given.contains(name) || given[name.c_str()].is_none()) continue;
    const py::object v = given[name.c_str()];
    switch (f.type) {
      case rollouts::RolloutOptionType::kFlag:
        if (!py::isinstance<py::bool_>(v)) BadArgument(name, "expected True or False");
        out.emplace_back(name, v.cast<bool>() ? "true" : "false");
        break;
      case rollouts::RolloutOptionType::kNumber:
        out.emplace_back(name, NumberText(v, name));
        break;
      case rollouts::RolloutOptionType::kList: {
        std::string text;
        for (py::handle x : v) text += (text.empty() ? "" : ",") + NumberText(x, name);
        out.emplace_back(name, text);
        break;
      }
      case rollouts::RolloutOptionType::kText:
        if (py::isinstance<py::str>(v)) BadArgument(name, "expected a sequence of strings");
        for (py::handle x : v) out.emplace_back(name, x.cast<std::string>());
        break;
    }
  }
  return out;
}

namespace {

rollouts::RolloutOptions RolloutKeywords(const py::dict& given) {
  return rollouts::ParseRolloutOptions(RolloutKeywordTexts(given),
                                       rollouts::RolloutSurface::kPython);
}

// Calls the Python policy from a worker thread: the GIL is taken for the call and the result
// converted to nu finite values (else ValueError naming the policy).
rollouts::Policy PythonPolicy(py::object policy) {
  auto shared = std::make_shared<py::object>(std::move(policy));
  auto holder = std::shared_ptr<py::object>(shared.get(), [shared](py::object*) mutable {
    py::gil_scoped_acquire gil;  // drop the reference with the GIL held
    shared.reset();
  });
  return [holder](double t, const VectorXd& q, const VectorXd& v) {
    py::gil_scoped_acquire gil;
    const py::object u = (*holder)(t, ToArray(q), ToArray(v));
    return VectorArg(u, "policy(t, qpos, qvel)");
  };
}

robots::SimulationModel LoadModel(py::object path, const py::dict& mujoco) {
  const std::string p = ExistingFile(path);
  auto get = [&](const char* k) { return mujoco.contains(k) ? py::object(mujoco[k]) : py::none(); };
  auto opt = [&](const char* k) {
    const py::object v = get(k);
    return v.is_none() ? std::optional<std::string>() : v.cast<std::string>();
  };
  robots::MujocoOptions mo = MujocoKeywords(
      opt("keyframe"), get("qpos"), get("qvel"), get("contact_margin").cast<double>(),
      get("friction_directions").cast<int>(), get("ignore_constraints").cast<bool>());
  mo.touchdown = get("touchdown").cast<int>();
  mo.add_floor = get("add_floor").cast<bool>();
  mo.floating_base = get("floating_base").cast<bool>();
  return robots::LoadSimulationModel(p, mo);
}

// The rollout options, with a Python policy when one is given.
rollouts::RolloutOptions RolloutOptionsOf(const py::dict& options, py::object policy) {
  rollouts::RolloutOptions o = RolloutKeywords(options);
  if (!policy.is_none()) {
    if (o.controls != rollouts::Controls::kKeyframe) {
      BadArgument("policy", "give a policy or ctrl / pd_posture, not both");
    }
    o.controls = rollouts::Controls::kPolicy;
    o.policy = PythonPolicy(policy);
  }
  return o;
}

py::dict Falsify(py::object path,
                 const py::dict& mujoco,
                 const py::dict& options,
                 py::object policy,
                 const std::string& metric,
                 bool maximize,
                 int population,
                 int set_steps,
                 int set_events) {
  const robots::SimulationModel model = LoadModel(path, mujoco);
  const rollouts::RolloutOptions o = RolloutOptionsOf(options, std::move(policy));
  rollouts::FalsifyOptions f;
  f.metric = metric;
  f.maximize = maximize;
  f.budget = o.rollouts;
  f.population = population;
  f.set_steps = set_steps;
  f.set_events = set_events;
  rollouts::FalsifyResult r;
  {
    py::gil_scoped_release release;
    r = rollouts::FalsifyRollouts(model, o, f);
  }
  py::dict d;
  d["metric"] = metric;
  d["maximize"] = maximize;
  d["rollouts"] = r.rollouts;
  d["directed"] = r.worst_directed;
  d["iid"] = r.worst_iid;
  d["iid_worst_key"] =
      r.iid_worst_index >= 0 ? rollouts::RolloutKey(o.seed, r.iid_worst_index) : std::string();
  d["directed_trace"] = ToArray(r.directed_trace);
  d["iid_trace"] = ToArray(r.iid_trace);
  d["not_ok_directed"] = r.not_ok_directed;
  d["not_ok_iid"] = r.not_ok_iid;
  py::list draws;
  for (const VectorXd& e : r.worst_draws) draws.append(ToArray(e));
  d["worst_draws"] = draws;
  d["worst_qpos"] = ToArray(r.worst.qpos);
  d["worst_qvel"] = ToArray(r.worst.qvel);
  return d;
}

py::dict Rollout(py::object path,
                 const py::dict& mujoco,
                 const py::dict& options,
                 py::object policy,
                 std::optional<std::string> out,
                 std::optional<std::string> replay) {
  const robots::SimulationModel model = LoadModel(path, mujoco);
  rollouts::RolloutOptions o = RolloutOptionsOf(options, std::move(policy));
  py::dict result;
  const std::vector<std::string> metric_names = rollouts::MetricNames(o);
  rollouts::RolloutReport report;
  if (replay) {
    const auto [seed, index] = rollouts::ParseRolloutKey(*replay);
    o.seed = seed;
    rollouts::RolloutResult r;
    {
      py::gil_scoped_release release;
      r = rollouts::RunRollout(model, o, index);
    }
    report.rollouts.push_back(std::move(r));
  } else {
    py::gil_scoped_release release;
    report = rollouts::RunRollouts(model, o);
  }
  // The result is the file's tree (rollouts/rollout_file.hpp): one gathering of the fields.
  const data::Tree tree = rollouts::RolloutTree(model, o, report);
  if (out) data::WriteTree(*out, tree);
  result["tree"] = TreeDict(tree);
  result["metric_names"] = metric_names;
  result["seconds"] = report.seconds;
  std::vector<std::string> warnings = model.warnings;
  warnings.insert(warnings.end(), report.warnings.begin(), report.warnings.end());
  result["warnings"] = warnings;
  py::dict given;
  for (const rollouts::RolloutOptionField& f : rollouts::RolloutOptionFields()) {
    if (const std::string v = f.get(o); !v.empty()) given[py::str(std::string(f.name))] = v;
  }
  given["metrics"] = o.metrics;
  given["controls"] = std::string(EnumName(o.controls));
  result["options"] = given;
  return result;
}

}  // namespace

void BindRollouts(py::module_& m) {
  m.def(
      "_rollout_option_fields",
      [] {
        py::list rows;
        for (const rollouts::RolloutOptionField& f : rollouts::RolloutOptionFields()) {
          py::dict d;
          d["name"] = std::string(f.name);
          d["flag"] = std::string(f.flag);
          d["type"] = TypeName(f.type);
          d["repeatable"] = f.repeatable;
          d["in_batch"] = f.in_batch;
          d["doc"] = std::string(f.doc);
          d["default"] = rollouts::RolloutDefault(f);
          rows.append(d);
        }
        return rows;
      },
      "The rollout options (impactset.rollout's keywords, the command line's flags).");
  m.def("_rollout", &Rollout, py::arg("path"), py::arg("mujoco"), py::arg("options"),
        py::arg("policy"), py::arg("out"), py::arg("replay"));
  m.def(
      "_falsify_defaults",
      [] {
        const rollouts::FalsifyOptions f;
        return py::dict(py::arg("maximize") = f.maximize, py::arg("population") = f.population,
                        py::arg("set_steps") = f.set_steps, py::arg("set_events") = f.set_events);
      },
      "rollouts::FalsifyOptions{}'s defaults (impactset.falsify's keywords).");
  m.def("_falsify", &Falsify, py::arg("path"), py::arg("mujoco"), py::arg("options"),
        py::arg("policy"), py::arg("metric"), py::arg("maximize"), py::arg("population"),
        py::arg("set_steps"), py::arg("set_events"));
}

}  // namespace impactset::python
