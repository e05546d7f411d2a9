#include <impactset/sets/output_map.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <impactset/common/error_policy.hpp>
#include <impactset/common/parse_number.hpp>
#include <impactset/robots/model_outputs.hpp>

namespace impactset::sets {

const char* ToString(Coordinates c) {
  switch (c) {
    case Coordinates::kContact:
      return "contact";
    case Coordinates::kGeneralized:
      return "generalized";
    case Coordinates::kMap:
      return "map";
  }
  return "unknown";
}

Coordinates ParseCoordinates(std::string_view name) {
  if (name == "contact") return Coordinates::kContact;
  if (name == "generalized") return Coordinates::kGeneralized;
  InvalidArgument("coords", std::string(name), "must be one of contact, generalized");
}

MatrixXd OutputMap::Apply(const MatrixXd& velocities) const {
  if (kind == Coordinates::kGeneralized) return velocities;
  return C * velocities;
}

void OutputMap::Validate(std::optional<Eigen::Index> n) const {
  const std::string field = "output " + name;
  if (name.empty()) InvalidArgument("output name", "''", "must not be empty");
  if (name.size() > kMaxOutputName) {
    InvalidArgument(field, name.size(),
                    "name longer than " + std::to_string(kMaxOutputName) + " characters");
  }
  for (char ch : name) {
    if (ch == '/' || static_cast<unsigned char>(ch) < 0x20) {
      InvalidArgument("output name", name, "must not contain '/' or control characters");
    }
  }
  if (name.front() == '.') InvalidArgument("output name", name, "must not start with '.'");
  if (C.rows() < 1) InvalidArgument(field + " rows", C.rows(), "C needs at least one row (d >= 1)");
  if (n && C.cols() != *n) {
    InvalidArgument(field + " columns", C.cols(),
                    "C must have n = " + std::to_string(*n) + " columns (y = C v)");
  }
  if (!C.allFinite()) InvalidArgument(field, "C", "must hold finite numbers only");
  if (coordinate_names.size() != static_cast<size_t>(C.rows())) {
    InvalidArgument(field + " coordinate names", coordinate_names.size(),
                    "must be one per row of C (" + std::to_string(C.rows()) + ")");
  }
}

namespace {

// "c3", "v12": appended, not `"c" + std::to_string(i)`, which GCC 12's -Wrestrict misreads.
std::string Indexed(char letter, int i) {
  std::string s(1, letter);
  s += std::to_string(i);
  return s;
}

std::vector<std::string> ContactNames(const impact::ImpactProblem& p) {
  std::vector<std::string> names;
  for (int i = 0; i < p.m(); ++i) names.push_back(Indexed('c', i) + ":n");
  const Eigen::Index tangential = p.ContactJacobian().rows() - p.m();
  const int per_contact = p.m() > 0 ? static_cast<int>(tangential / p.m()) : 0;
  for (int i = 0; i < p.m(); ++i) {
    const std::string c = Indexed('c', i);
    if (per_contact == 1) names.push_back(c + ":t");
    if (per_contact == 2) {
      names.push_back(c + ":t1");
      names.push_back(c + ":t2");
    }
  }
  return names;
}

}  // namespace

OutputMap ContactOutput(const impact::ImpactProblem& problem, std::vector<std::string> names) {
  OutputMap o{"contact", Coordinates::kContact, "contact", problem.ContactJacobian(),
              std::move(names)};
  if (o.coordinate_names.empty()) o.coordinate_names = ContactNames(problem);
  return o;
}

OutputMap GeneralizedOutput(const impact::ImpactProblem& problem, std::vector<std::string> names) {
  OutputMap o{"generalized", Coordinates::kGeneralized, "generalized",
              MatrixXd::Identity(problem.n(), problem.n()), std::move(names)};
  if (o.coordinate_names.empty()) {
    for (int j = 0; j < problem.n(); ++j) o.coordinate_names.push_back(Indexed('v', j));
  }
  return o;
}

std::vector<OutputMap> DefaultOutputs(const impact::ImpactProblem& problem) {
  return {ContactOutput(problem), GeneralizedOutput(problem)};
}

void ValidateOutputs(const std::vector<OutputMap>& outputs, std::optional<Eigen::Index> n) {
  std::set<std::string> seen;
  for (const OutputMap& o : outputs) {
    o.Validate(n);
    if (!seen.insert(o.name).second) {
      InvalidArgument("output name", o.name,
                      "appears twice (name one of them: NAME=SPEC, e.g. legs=joints:hip,knee)");
    }
  }
}

namespace {

std::vector<std::string> SplitCommas(const std::string& s) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, ',');) {
    const size_t b = part.find_first_not_of(" \t"), e = part.find_last_not_of(" \t");
    parts.push_back(b == std::string::npos ? "" : part.substr(b, e - b + 1));
  }
  if (!s.empty() && s.back() == ',') parts.emplace_back();
  return parts;
}

// "line L: rule" for the CSV reader.
[[noreturn]] void BadCsv(const std::string& path, int line, const std::string& rule) {
  throw std::invalid_argument(path + ": line " + std::to_string(line) + ": " + rule);
}

VectorXd CsvRow(const std::string& path, int line, const std::string& text) {
  const std::vector<std::string> fields = SplitCommas(text);
  VectorXd row(static_cast<Eigen::Index>(fields.size()));
  for (size_t j = 0; j < fields.size(); ++j) {
    try {
      row(static_cast<Eigen::Index>(j)) = ParseReal(fields[j], "field " + std::to_string(j + 1));
    } catch (const std::invalid_argument& e) {
      BadCsv(path, line, e.what());
    }
  }
  return row;
}

const robots::MujocoProblem& NeedModel(const robots::MujocoProblem* model,
                                       const std::string& spec) {
  if (!model) {
    InvalidArgument("output", spec,
                    "needs a MuJoCo model (--mujoco FILE or a MuJoCo scene); this problem offers "
                    "contact, generalized and matrix:FILE");
  }
  return *model;
}

OutputMap FromLinear(robots::LinearOutput l) {
  return OutputMap{"", Coordinates::kMap, "", std::move(l.C), std::move(l.coordinate_names)};
}

// The output of a spec without its NAME= prefix, named by its default name.
OutputMap Resolve(const std::string& spec,
                  const impact::ImpactProblem& problem,
                  const robots::MujocoProblem* model) {
  if (spec == "contact") {
    return ContactOutput(problem,
                         model ? model->contact_coordinate_names : std::vector<std::string>{});
  }
  if (spec == "generalized") {
    return GeneralizedOutput(problem, model ? model->dof_names : std::vector<std::string>{});
  }
  OutputMap o;
  if (spec == "com") {
    o = FromLinear(robots::ComOutput(NeedModel(model, spec)));
  } else if (spec == "base") {
    o = FromLinear(robots::BaseOutput(NeedModel(model, spec), "output"));
  } else if (spec.rfind("joints:", 0) == 0) {
    const std::vector<std::string> joints = SplitCommas(spec.substr(7));
    o = FromLinear(robots::JointsOutput(NeedModel(model, spec), joints));
  } else if (spec.rfind("matrix:", 0) == 0 && spec.size() > 7) {
    const std::string path = spec.substr(7);
    o.C = ReadOutputMatrix(path, problem.n());
    const std::string stem = std::filesystem::path(path).stem().string();
    for (Eigen::Index i = 0; i < o.C.rows(); ++i) {
      o.coordinate_names.push_back(stem + "[" + std::to_string(i) + "]");
    }
    o.name = "matrix:" + stem;
  } else {
    InvalidArgument("output", spec,
                    "must be contact, generalized, com, base, joints:NAME,... or matrix:FILE, "
                    "optionally named NAME=SPEC");
  }
  if (o.name.empty()) o.name = spec;
  o.spec = spec;
  return o;
}

}  // namespace

OutputMap ParseOutput(const std::string& spec,
                      const impact::ImpactProblem& problem,
                      const robots::MujocoProblem* model) {
  const size_t eq = spec.find('='), colon = spec.find(':');
  const bool named = eq != std::string::npos && (colon == std::string::npos || eq < colon);
  OutputMap o = Resolve(named ? spec.substr(eq + 1) : spec, problem, model);
  if (named) o.name = spec.substr(0, eq);
  o.Validate(problem.n());
  return o;
}

std::vector<OutputMap> ParseOutputs(const std::vector<std::string>& specs,
                                    const impact::ImpactProblem& problem,
                                    const robots::MujocoProblem* model) {
  std::vector<OutputMap> outputs;
  for (const std::string& s : specs) outputs.push_back(ParseOutput(s, problem, model));
  ValidateOutputs(outputs, problem.n());
  return outputs;
}

MatrixXd ReadOutputMatrix(const std::string& path, Eigen::Index n) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open the output matrix file");
  std::vector<VectorXd> rows;
  int line = 0;
  for (std::string text; std::getline(in, text);) {
    ++line;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    const size_t first = text.find_first_not_of(" \t");
    if (first == std::string::npos || text[first] == '#') continue;
    rows.push_back(CsvRow(path, line, text));
    if (rows.back().size() != n) {
      BadCsv(path, line,
             std::to_string(rows.back().size()) + " numbers, but C needs n = " + std::to_string(n) +
                 " columns (one per generalized velocity)");
    }
  }
  if (rows.empty()) BadCsv(path, line, "no row of C (a CSV file, one row of C per line)");
  MatrixXd C(static_cast<Eigen::Index>(rows.size()), n);
  for (size_t i = 0; i < rows.size(); ++i) C.row(static_cast<Eigen::Index>(i)) = rows[i];
  return C;
}

}  // namespace impactset::sets
