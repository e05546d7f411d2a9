// The option table (engine/option_table.hpp) in Python: keyword arguments checked and converted
// by the table, and the table itself (impactset._option_fields) from which __init__.py builds the
// signatures and help of sample(), run() and sets().
#include "python/src/options.hpp"

#include <pybind11/stl.h>

#include <impactset/common/error_policy.hpp>

namespace impactset::python {
namespace {

// numpy scalars count by their dtype's kind: b (bool), i/u (integers), f (floating).
std::string NumpyKind(py::handle o) {
  if (!py::hasattr(o, "dtype") || !py::hasattr(o.attr("dtype"), "kind")) return "";
  return o.attr("dtype").attr("kind").cast<std::string>();
}
bool IsBool(py::handle o) { return py::isinstance<py::bool_>(o) || NumpyKind(o) == "b"; }
bool IsInteger(py::handle o) {
  if (IsBool(o)) return false;
  const std::string kind = NumpyKind(o);
  return py::isinstance<py::int_>(o) || kind == "i" || kind == "u";
}
bool IsReal(py::handle o) { return PyFloat_Check(o.ptr()) || NumpyKind(o) == "f" || IsInteger(o); }

// A value of the wrong type: TypeError, as Python's own functions raise, naming the field.
[[noreturn]] void Wrong(const std::string& field, py::handle value, const char* rule) {
  throw py::type_error(field + " = " + py::repr(value).cast<std::string>() + ": " + rule);
}
[[noreturn]] void Wrong(const engine::OptionField& f, py::handle value, const char* rule) {
  Wrong(std::string(f.name), value, rule);
}

}  // namespace

long long IntegerArg(py::handle v, const std::string& field) {
  if (!IsInteger(v)) Wrong(field, v, "must be an integer");
  try {
    return py::reinterpret_steal<py::int_>(PyNumber_Index(v.ptr())).cast<long long>();
  } catch (const py::cast_error&) {
    InvalidArgument(field, py::repr(v).cast<std::string>(), "out of the range of a 64-bit integer");
  }
}

double RealArg(py::handle v, const std::string& field) {
  if (!IsReal(v)) Wrong(field, v, "must be a real number");
  return py::float_(py::reinterpret_borrow<py::object>(v)).cast<double>();
}

namespace {

engine::OptionValue Convert(const engine::OptionField& f, py::handle v) {
  switch (f.type) {
    case engine::OptionType::kFlag:
      if (!IsBool(v)) Wrong(f, v, "must be True or False");
      return v.cast<bool>();
    case engine::OptionType::kInteger:
      return IntegerArg(v, std::string(f.name));
    case engine::OptionType::kReal:
      return RealArg(v, std::string(f.name));
    case engine::OptionType::kChoice:
      if (!py::isinstance<py::str>(v)) Wrong(f, v, "must be a string");
      return v.cast<std::string>();
    case engine::OptionType::kShard: {
      if (!py::isinstance<py::tuple>(v) && !py::isinstance<py::list>(v)) {
        Wrong(f, v, "must be a pair (i, n)");
      }
      const py::sequence s = py::reinterpret_borrow<py::sequence>(v);
      if (s.size() != 2 || !IsInteger(s[0]) || !IsInteger(s[1])) {
        Wrong(f, v, "must be a pair of integers (i, n)");
      }
      return std::to_string(s[0].cast<long long>()) + "/" + std::to_string(s[1].cast<long long>());
    }
  }
  Wrong(f, v, "has an unknown type");
}

py::object ToPython(const std::optional<engine::OptionValue>& v, const engine::OptionField& f) {
  if (!v) return py::none();
  if (f.type == engine::OptionType::kShard) {
    const std::string& s = std::get<std::string>(*v);
    const size_t slash = s.find('/');
    return py::make_tuple(std::stoll(s.substr(0, slash)), std::stoll(s.substr(slash + 1)));
  }
  return std::visit([](const auto& x) { return py::cast(x); }, *v);
}

const char* TypeName(engine::OptionType t) {
  switch (t) {
    case engine::OptionType::kFlag:
      return "bool";
    case engine::OptionType::kInteger:
      return "int";
    case engine::OptionType::kReal:
      return "float";
    case engine::OptionType::kChoice:
      return "str";
    case engine::OptionType::kShard:
      return "tuple[int, int]";
  }
  return "object";
}

}  // namespace

engine::OptionValues KeywordOptions(const py::dict& keywords, engine::OptionSurface surface) {
  engine::OptionValues given;
  for (const auto& [key, value] : keywords) {
    const std::string name = key.cast<std::string>();
    const engine::OptionField& f = engine::FindOption(name);
    if (!(f.surfaces & surface)) InvalidArgument(name, "given", "is not an option of this call");
    if (value.is_none()) {
      // Unset: the problem's, the default, or a batch's derived default (holdout).
      if (f.may_be_unset || f.from_problem) continue;
      if (surface == engine::kPythonBatch && !engine::BatchDefault(f)) continue;
      InvalidArgument(name, "None", "must be set");
    }
    given.emplace_back(name, Convert(f, value));
  }
  return given;
}

py::dict OptionsDict(const engine::RunOptions& o) {
  py::dict d;
  for (const engine::OptionField& f : engine::RunOptionFields()) {
    if (f.surfaces & (engine::kPythonRun | engine::kPythonSample)) {
      d[py::str(std::string(f.name))] = ToPython(engine::GetOption(f, o), f);
    }
  }
  d["step_rule"] = o.step_rule;
  return d;
}

void BindOptions(py::module_& m) {
  m.def(
      "_mujoco_option_fields",
      [] {
        py::list rows;
        for (const engine::MujocoOptionField& f : engine::MujocoOptionFields()) {
          py::dict d;
          d["name"] = std::string(f.name);
          d["flag"] = std::string(f.flag);
          d["doc"] = std::string(f.doc);
          d["default"] = f.default_text();
          rows.append(d);
        }
        return rows;
      },
      "The MuJoCo source options (Problem.from_mujoco's keywords, the command line's flags).");
  m.def(
      "_option_fields",
      [] {
        py::list rows;
        for (const engine::OptionField& f : engine::RunOptionFields()) {
          py::list surfaces;
          for (const auto& [bit, word] : {std::pair{engine::kRunCommand, "run_command"},
                                          {engine::kBatchCommand, "batch_command"},
                                          {engine::kPythonSample, "sample"},
                                          {engine::kPythonRun, "run"},
                                          {engine::kPythonSets, "sets"},
                                          {engine::kPythonBatch, "batch"}}) {
            if (f.surfaces & bit) surfaces.append(word);
          }
          py::dict row;
          row["name"] = std::string(f.name);
          row["flag"] = std::string(f.flag);
          row["attribute"] = std::string(f.attribute);
          row["type"] = TypeName(f.type);
          row["optional"] = f.may_be_unset || f.from_problem;
          row["unset"] = std::string(f.unset);
          row["from_problem"] = f.from_problem;
          row["identity"] = f.identity;
          row["doc"] = std::string(f.doc);
          row["surfaces"] = surfaces;
          row["choices"] = f.choices ? py::cast(f.choices()) : py::object(py::none());
          row["default"] = ToPython(engine::RunDefault(f), f);
          row["batch_default"] = ToPython(engine::BatchDefault(f), f);
          rows.append(row);
        }
        return rows;
      },
      "The option table: one dict per option (name, type, default, doc, surfaces, ...).");
}

}  // namespace impactset::python
