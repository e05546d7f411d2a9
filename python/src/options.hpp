#pragma once
// Keyword arguments of sample(), run() and sets() through the option table.
#include <pybind11/pybind11.h>

#include <impactset/engine/option_table.hpp>

namespace impactset::python {

namespace py = pybind11;

/// A Python integer (int or numpy integer, not bool) or TypeError "FIELD = VALUE: must be an
/// integer"; ValueError beyond 64 bits.
long long IntegerArg(py::handle value, const std::string& field);
/// A real number (float, int or numpy number, not bool) or TypeError naming the field.
double RealArg(py::handle value, const std::string& field);
/// The given keywords as option values: unknown names, options of another surface and values of
/// the wrong type raise ValueError naming the option; None leaves an optional option unset.
engine::OptionValues KeywordOptions(const py::dict& keywords, engine::OptionSurface surface);
/// Every Python option of these run options by name (None: unset), and step_rule.
py::dict OptionsDict(const engine::RunOptions& options);
/// impactset._option_fields().
void BindOptions(py::module_& m);

}  // namespace impactset::python
