// impactset.Problem: from numpy arrays, a built-in system, a scene, or a problem file.
#include <optional>

#include <pybind11/stl.h>

#include <impactset/catalog/problem_file.hpp>
#include <impactset/catalog/system_catalog.hpp>
#include <impactset/common/error_policy.hpp>
#include <impactset/robots/mujoco_model.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/systems/builtin.hpp>
#include <impactset/systems/parametric.hpp>
#include <impactset/systems/scene.hpp>
#include "python/src/bindings.hpp"

namespace impactset::python {
namespace {

systems::ProblemSettings Settings(std::optional<double> step,
                                  std::optional<int> max_steps,
                                  std::optional<long long> samples) {
  if (step && !(*step > 0)) InvalidArgument("step", *step, "must be > 0");
  if (max_steps && *max_steps < 1) InvalidArgument("max_steps", *max_steps, "must be >= 1");
  if (samples && *samples < 1) InvalidArgument("samples", *samples, "must be >= 1");
  // Arrays are matrix input: h and N left out are scaled to the problem, as `--problem` does.
  return {step, max_steps, samples, /*scale_missing_steps=*/true};
}

impact::ImpactProblem FromMatrices(MatrixXd M,
                                   MatrixXd Jn,
                                   VectorXd mu,
                                   VectorXd v_minus,
                                   const py::object& D,
                                   const py::object& Jf,
                                   std::optional<int> k) {
  if (!D.is_none() && !Jf.is_none()) BadArgument("D, Jf", "give D or Jf, not both");
  if (!Jf.is_none()) {
    if (k && *k != 2) InvalidArgument("k", *k, "must be 2 with Jf (D = (+Jf_i, -Jf_i))");
    return impact::ImpactProblem::Planar(std::move(M), std::move(Jn), MatrixArg(Jf, "Jf"),
                                         std::move(mu), std::move(v_minus));
  }
  MatrixXd d(0, M.cols());
  int directions = k.value_or(0);
  if (!D.is_none()) {
    d = MatrixArg(D, "D");
    if (!k) {
      if (Jn.rows() == 0 || d.rows() % Jn.rows() != 0) {
        InvalidArgument(
            "D", std::to_string(d.rows()) + " rows",
            "must be a multiple of m = " + std::to_string(Jn.rows()) + " (k rows per contact)");
      }
      directions = static_cast<int>(d.rows() / Jn.rows());
    }
  }
  return impact::ImpactProblem(std::move(M), std::move(Jn), std::move(d), std::move(mu),
                               std::move(v_minus), directions);
}

std::shared_ptr<Problem> Wrap(systems::LoadedProblem lp,
                              std::string name,
                              std::shared_ptr<const robots::MujocoProblem> model = nullptr) {
  return std::make_shared<Problem>(Problem{std::move(lp), std::move(name), std::move(model)});
}

std::shared_ptr<Problem> Wrap(robots::MujocoProblem model, std::string name) {
  auto shared = std::make_shared<const robots::MujocoProblem>(std::move(model));
  return Wrap(shared->loaded, std::move(name), shared);
}

std::string Repr(const Problem& p) {
  const auto& q = p.problem();
  return "<impactset.Problem '" + p.name + "': n=" + std::to_string(q.n()) +
         ", m=" + std::to_string(q.m()) + ", k=" + std::to_string(q.k()) + ">";
}

using ProblemClass = py::class_<Problem, std::shared_ptr<Problem>>;

constexpr const char* kProblemDoc = R"doc(
An impact state: M (n x n, SPD), Jn (m x n), the friction basis D (m k x n), mu (m), v_minus (n),
plus the sampler settings (step h, max_steps N, samples K) its source carried and a name that
datasets store as the system. Build one from arrays (the constructor) or with from_system,
from_scene, from_file, from_mujoco. Invalid input raises ValueError naming the field and the rule.)doc";

void BindConstructors(ProblemClass& c) {
  c.def(
      py::init([](py::object M, py::object Jn, py::object mu, py::object v_minus, py::object D,
                  py::object Jf, std::optional<int> k, std::string name, std::optional<double> step,
                  std::optional<int> max_steps, std::optional<long long> samples) {
        systems::LoadedProblem lp{
            FromMatrices(MatrixArg(M, "M"), MatrixArg(Jn, "Jn"), VectorArg(mu, "mu"),
                         VectorArg(v_minus, "v_minus"), D, Jf, k),
            Settings(step, max_steps, samples), "arrays"};
        return Wrap(std::move(lp), std::move(name));
      }),
      py::arg("M"), py::arg("Jn"), py::arg("mu"), py::arg("v_minus"), py::kw_only(),
      py::arg("D") = py::none(), py::arg("Jf") = py::none(), py::arg("k") = py::none(),
      py::arg("name") = "problem", py::arg("step") = py::none(), py::arg("max_steps") = py::none(),
      py::arg("samples") = py::none(), R"doc(
Problem from arrays (docs/problem-format.md): M (n, n) symmetric positive definite, Jn (m, n),
mu (m,), v_minus (n,), and either D (m k, n: k rows per contact, closed under negation; k defaults
to D's rows / m) or, for planar problems, Jf (m, n: D = (+Jf_i, -Jf_i), k = 2). Neither when every
mu is 0. step, max_steps and samples are the defaults sample() and run() use for this
problem; step and max_steps left out are scaled to the impact (as the command line's --problem
does; options()["step_rule"] says how).)doc");
  c.def_static(
      "from_system",
      [](const std::string& name, const py::kwargs& params) {
        if (robots::IsMujocoScene(name) && params.empty()) {
          return Wrap(robots::LoadMujocoScene(name), name);
        }
        return Wrap(catalog::LoadSystem(name, SystemParameters(params)), name);
      },
      py::arg("name"), R"doc(
A built-in system (impactset.systems() lists them), with keyword parameters for the parametrised
ones, e.g. Problem.from_system("cradle", masses=[1, 2, 1]).)doc");
  c.def_static(
      "from_scene",
      [](py::object scene, std::optional<std::string> name) {
        if (py::isinstance<py::dict>(scene)) {
          const std::string text =
              py::module_::import("json").attr("dumps")(scene).cast<std::string>();
          return Wrap(systems::ParseSceneJson(text), name.value_or("scene"));
        }
        const std::string path = ExistingFile(scene);
        return Wrap(systems::LoadSceneJson(path), name.value_or(path));
      },
      py::arg("scene"), py::arg("name") = py::none(), R"doc(
A scene (docs/scene-format.md): a path to a scene JSON file, or the scene as a dict.)doc");
  c.def_static(
      "from_file",
      [](py::object path, std::optional<std::string> name) {
        const std::string p = ExistingFile(path);
        return Wrap(catalog::LoadProblemFile(p), name.value_or(p));
      },
      py::arg("path"), py::arg("name") = py::none(), R"doc(
Matrix input from a file (docs/problem-format.md): JSON, or HDF5 (.h5, .hdf5) with a /problem
group, which every impactset dataset has.)doc");
  c.def_static(
      "from_mujoco",
      [](py::object path, std::optional<std::string> keyframe, py::object qpos, py::object qvel,
         double contact_margin, int friction_directions, bool ignore_constraints, int touchdown,
         bool add_floor, bool floating_base, std::optional<std::string> name) {
        const std::string p = ExistingFile(path);
        robots::MujocoOptions o = MujocoKeywords(keyframe, qpos, qvel, contact_margin,
                                                 friction_directions, ignore_constraints);
        o.touchdown = touchdown;
        o.add_floor = add_floor;
        o.floating_base = floating_base;
        robots::MujocoProblem r = robots::LoadMujoco(p, o);
        for (const std::string& w : r.warnings) {
          if (PyErr_WarnEx(PyExc_RuntimeWarning, (p + ": " + w).c_str(), 1) != 0) {
            throw py::error_already_set();  // warnings turned into errors
          }
        }
        return Wrap(std::move(r), name.value_or(p));
      },
      py::arg("path"), py::kw_only(), py::arg("keyframe") = py::none(),
      py::arg("qpos") = py::none(), py::arg("qvel") = py::none(),
      py::arg("contact_margin") = robots::MujocoOptions{}.contact_margin,
      py::arg("friction_directions") = robots::MujocoOptions{}.friction_directions,
      py::arg("ignore_constraints") = robots::MujocoOptions{}.ignore_constraints,
      py::arg("touchdown") = robots::MujocoOptions{}.touchdown,
      py::arg("add_floor") = robots::MujocoOptions{}.add_floor,
      py::arg("floating_base") = robots::MujocoOptions{}.floating_base,
      py::arg("name") = py::none(),
      R"doc(
A MuJoCo model (MJCF or URDF; docs/mujoco.md) at a keyframe (by name) or at qpos (nq,) and qvel
(nv,), which replace the keyframe's; neither: the model's first keyframe. Contacts are the geom
pairs MuJoCo finds closer than contact_margin (m); friction_directions k is 4, 8 or 16. Active
equality constraints, ball-joint and tendon limits raise ValueError unless ignore_constraints;
hinge and slide joints at a stop take part in the impact as frictionless contacts unless
ignore_constraints.
touchdown=c first translates the floating base (a free joint, or slide joints of a top-level
body) along gravity until c geom pairs touch; add_floor
adds the plane z = 0; floating_base gives a URDF's root link a free joint. What is accepted but
should not pass unremarked (qvel not given, a quaternion normalised, no contact approaching)
is a RuntimeWarning. The keywords are the option table's (impactset._impactset._mujoco_option_fields()).)doc");
  c.def(
      "with_velocity",
      [](const Problem& p, py::object v_minus) {
        const auto& q = p.problem();
        systems::LoadedProblem lp{impact::ImpactProblem(q.M(), q.Jn(), q.D(), q.mu(),
                                                        VectorArg(v_minus, "v_minus"), q.k()),
                                  p.loaded.settings, p.loaded.provenance};
        return Wrap(std::move(lp), p.name, p.model);  // its output maps depend on qpos only
      },
      py::arg("v_minus"), "The same configuration with another pre-impact velocity (n,).");
}

// A MuJoCo model's names and output maps (not the model: a worker may not have its file).
py::dict ModelState(const robots::MujocoProblem& m) {
  py::list contacts;
  for (const robots::ContactReport& c : m.contacts) {
    contacts.append(py::make_tuple(
        c.name, c.geom1, c.geom2, c.body1, c.body2, ToArray(VectorXd(c.point)),
        ToArray(VectorXd(c.normal)), ToArray(VectorXd(c.tangent1)), ToArray(VectorXd(c.tangent2)),
        c.distance, c.mu, c.normal_velocity, static_cast<int>(c.motion)));
  }
  py::dict d;
  d["contacts"] = contacts;
  d["dof_names"] = m.dof_names;
  d["contact_coordinate_names"] = m.contact_coordinate_names;
  d["base_body"] = m.base_body;
  d["com_jacobian"] = ToArray(m.com_jacobian);
  d["base_map"] = ToArray(m.base_map);
  return d;
}

std::shared_ptr<const robots::MujocoProblem> ModelFromState(const py::dict& d,
                                                            const systems::LoadedProblem& lp) {
  // Every member named (-Wextra); the maps are filled below.
  auto m =
      std::make_shared<robots::MujocoProblem>(robots::MujocoProblem{.loaded = lp,
                                                                    .contacts = {},
                                                                    .dof_names = {},
                                                                    .contact_coordinate_names = {},
                                                                    .base_body = {},
                                                                    .com_jacobian = MatrixXd(),
                                                                    .base_map = MatrixXd(),
                                                                    .qpos = {},
                                                                    .qvel = {},
                                                                    .qpos_names = {},
                                                                    .touchdown_shift = 0,
                                                                    .warnings = {}});
  for (const py::handle h : d["contacts"].cast<py::list>()) {
    const auto t = h.cast<py::tuple>();
    robots::ContactReport c;
    c.name = t[0].cast<std::string>();
    c.geom1 = t[1].cast<std::string>();
    c.geom2 = t[2].cast<std::string>();
    c.body1 = t[3].cast<std::string>();
    c.body2 = t[4].cast<std::string>();
    c.point = VectorArg(t[5], "point");
    c.normal = VectorArg(t[6], "normal");
    c.tangent1 = VectorArg(t[7], "tangent1");
    c.tangent2 = VectorArg(t[8], "tangent2");
    c.distance = t[9].cast<double>();
    c.mu = t[10].cast<double>();
    c.normal_velocity = t[11].cast<double>();
    c.motion = static_cast<robots::ContactMotion>(t[12].cast<int>());
    m->contacts.push_back(std::move(c));
  }
  m->dof_names = d["dof_names"].cast<std::vector<std::string>>();
  m->contact_coordinate_names = d["contact_coordinate_names"].cast<std::vector<std::string>>();
  m->base_body = d["base_body"].cast<std::string>();
  m->com_jacobian = MatrixArg(d["com_jacobian"], "com_jacobian");
  m->base_map = MatrixArg(d["base_map"], "base_map");
  return m;
}

// Pickling: the matrices as stored (D with its k, not Jf), the settings, the names and a MuJoCo
// model's output maps; a Problem comes back equal array for array.
py::dict ProblemState(const Problem& p) {
  const impact::ImpactProblem& q = p.problem();
  const systems::ProblemSettings& s = p.loaded.settings;
  py::dict d;
  d["M"] = ToArray(q.M());
  d["Jn"] = ToArray(q.Jn());
  d["D"] = ToArray(q.D());
  d["mu"] = ToArray(q.mu());
  d["v_minus"] = ToArray(q.v_minus());
  d["k"] = q.k();
  d["settings"] = py::make_tuple(s.step, s.max_steps, s.samples, s.scale_missing_steps);
  d["provenance"] = p.loaded.provenance;
  d["name"] = p.name;
  d["model"] = p.model ? py::object(ModelState(*p.model)) : py::object(py::none());
  return d;
}

std::shared_ptr<Problem> ProblemFromState(const py::dict& d) {
  const auto t = d["settings"].cast<py::tuple>();
  systems::ProblemSettings s{t[0].cast<std::optional<double>>(), t[1].cast<std::optional<int>>(),
                             t[2].cast<std::optional<long long>>(), t[3].cast<bool>()};
  systems::LoadedProblem lp{
      impact::ImpactProblem(MatrixArg(d["M"], "M"), MatrixArg(d["Jn"], "Jn"),
                            MatrixArg(d["D"], "D"), VectorArg(d["mu"], "mu"),
                            VectorArg(d["v_minus"], "v_minus"), d["k"].cast<int>()),
      s, d["provenance"].cast<std::string>()};
  const py::object model = d["model"];
  auto shared = model.is_none() ? nullptr : ModelFromState(model.cast<py::dict>(), lp);
  return Wrap(std::move(lp), d["name"].cast<std::string>(), std::move(shared));
}

void BindProperties(ProblemClass& c) {
  c.def_property_readonly(
      "name", [](const Problem& p) { return p.name; },
      "the label runs and datasets store as the system");
  c.def_property_readonly(
      "provenance", [](const Problem& p) { return p.loaded.provenance; },
      "where the problem came from (a file and state, \"arrays\", a system)");
  c.def_property_readonly(
      "n", [](const Problem& p) { return p.problem().n(); }, "generalized velocities");
  c.def_property_readonly(
      "m", [](const Problem& p) { return p.problem().m(); }, "contacts");
  c.def_property_readonly(
      "k", [](const Problem& p) { return p.problem().k(); }, "friction directions per contact");
  c.def_property_readonly(
      "M", [](const Problem& p) { return ToArray(p.problem().M()); }, "(n, n) mass matrix");
  c.def_property_readonly(
      "Jn", [](const Problem& p) { return ToArray(p.problem().Jn()); },
      "(m, n) normal Jacobian: Jn @ v are the contacts' normal velocities");
  c.def_property_readonly(
      "D", [](const Problem& p) { return ToArray(p.problem().D()); },
      "(m k, n) friction basis: k rows per contact, closed under negation");
  c.def_property_readonly(
      "mu", [](const Problem& p) { return ToArray(p.problem().mu()); },
      "(m,) friction coefficients");
  c.def_property_readonly(
      "v_minus", [](const Problem& p) { return ToArray(p.problem().v_minus()); },
      "(n,) pre-impact generalized velocity");
  c.def_property_readonly(
      "contact_jacobian", [](const Problem& p) { return ToArray(p.problem().ContactJacobian()); },
      "(c, n): rows of Jn, then each contact's tangential rows; contact velocities are "
      "contact_jacobian @ v");
  c.def_property_readonly(
      "delassus", [](const Problem& p) { return ToArray(p.problem().Delassus()); },
      "J M^-1 J^T with J = [Jn; D]");
  c.def_property_readonly(
      "step", [](const Problem& p) { return p.loaded.settings.step; },
      "h from the problem's source, or None");
  c.def_property_readonly(
      "max_steps", [](const Problem& p) { return p.loaded.settings.max_steps; },
      "N from the problem's source, or None");
  c.def_property_readonly(
      "samples", [](const Problem& p) { return p.loaded.settings.samples; },
      "K from the problem's source, or None");
  c.def("__repr__", &Repr);
  c.def(py::pickle(&ProblemState, &ProblemFromState));
}

}  // namespace

// `impactset systems` parameters from keyword arguments: numbers, strings, lists of numbers.
systems::ParameterValues SystemParameters(const py::dict& kwargs) {
  systems::ParameterValues values;
  for (const auto& [key, value] : kwargs) {
    std::string text;
    if (py::isinstance<py::str>(value)) {
      text = value.cast<std::string>();
    } else if (py::isinstance<py::sequence>(value) || py::hasattr(value, "__array__")) {
      const VectorXd v = VectorArg(value, key.cast<std::string>());
      for (Eigen::Index i = 0; i < v.size(); ++i) {
        if (i > 0) text += ',';
        text += py::str(py::float_(v(i))).cast<std::string>();  // repr: round-trips exactly
      }
    } else {
      text = py::str(value).cast<std::string>();
    }
    values[key.cast<std::string>()] = text;
  }
  return values;
}

robots::MujocoOptions MujocoKeywords(const std::optional<std::string>& keyframe,
                                     py::handle qpos,
                                     py::handle qvel,
                                     double contact_margin,
                                     int friction_directions,
                                     bool ignore_constraints) {
  robots::MujocoOptions o;
  o.state.keyframe = keyframe.value_or("");
  if (!qpos.is_none()) o.state.qpos = VectorArg(qpos, "qpos");
  if (!qvel.is_none()) o.state.qvel = VectorArg(qvel, "qvel");
  o.contact_margin = contact_margin;
  o.friction_directions = friction_directions;
  o.ignore_constraints = ignore_constraints;
  return o;
}

void BindProblem(py::module_& m) {
  ProblemClass c(m, "Problem", kProblemDoc);
  BindConstructors(c);
  BindProperties(c);
  m.def(
      "systems",
      [] {
        py::dict d;
        for (const auto& s : catalog::Systems()) d[py::str(s.name)] = s.description;
        return d;
      },
      "The built-in systems: {name: description}.");
}

}  // namespace impactset::python
