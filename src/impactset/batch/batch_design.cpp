// The states of a batch: designs over parameter ranges, CSV tables, and the sources that turn
// parameter values into impact problems.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <variant>

#include <impactset/batch/batch.hpp>
#include <impactset/batch/batch_design.hpp>
#include <impactset/common/error_policy.hpp>
#include <impactset/common/parse_number.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/sampling/sobol_source.hpp>
#include <impactset/sampling/streams.hpp>
#include <impactset/systems/scene_values.hpp>

namespace impactset::batch {

namespace {

// std::visit over one lambda per alternative.
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;  // clang 14 has no CTAD for aggregates

std::vector<std::string> Split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, sep)) out.push_back(item);
  if (!text.empty() && text.back() == sep) out.emplace_back();
  return out;
}

std::string Trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r");
  const size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

}  // namespace

ParameterRange ParseParameterRange(const std::string& text) {
  const size_t eq = text.find('=');
  const std::string field = "--vary '" + text + "'";
  if (eq == std::string::npos || eq == 0)
    InvalidArgument(field, text, "expected NAME=LOW:HIGH[:POINTS]");
  ParameterRange r;
  r.name = text.substr(0, eq);
  const auto parts = Split(text.substr(eq + 1), ':');
  if (parts.size() != 2 && parts.size() != 3) {
    InvalidArgument(field, text.substr(eq + 1), "expected LOW:HIGH or LOW:HIGH:POINTS");
  }
  r.low = ParseReal(parts[0], r.name + " low");
  r.high = ParseReal(parts[1], r.name + " high");
  if (parts.size() == 3) {
    r.points = ParseInteger(parts[2], r.name + " points");
    if (r.points < 1 || r.points > 1000000000) {
      InvalidArgument(r.name + " points", parts[2], "must be an integer in [1, 1e9]");
    }
  }
  return r;
}

StateDesign ParseStateTable(const std::string& csv_text, const std::string& path) {
  StateDesign d;
  d.kind = StateDesignKind::kTable;
  std::stringstream in(csv_text);
  std::string line;
  std::vector<std::vector<double>> rows;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string t = Trim(line);
    if (t.empty() || t[0] == '#') continue;
    const std::string where = path + ":" + std::to_string(number);
    auto cells = Split(t, ',');
    if (d.table_names.empty()) {
      for (auto& c : cells) {
        c = Trim(c);
        if (c.empty()) throw std::invalid_argument(where + ": empty parameter name in the header");
      }
      d.table_names = cells;
      continue;
    }
    if (cells.size() != d.table_names.size()) {
      throw std::invalid_argument(where + ": " + std::to_string(cells.size()) + " values for " +
                                  std::to_string(d.table_names.size()) + " parameters");
    }
    std::vector<double> row;
    for (size_t j = 0; j < cells.size(); ++j) {
      try {
        row.push_back(ParseReal(Trim(cells[j]), d.table_names[j]));
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(where + ": " + e.what());
      }
    }
    rows.push_back(std::move(row));
  }
  if (d.table_names.empty())
    throw std::invalid_argument(path + ": no header line (parameter names)");
  if (rows.empty()) throw std::invalid_argument(path + ": no state (a header and no rows)");
  d.table.resize(static_cast<Eigen::Index>(rows.size()),
                 static_cast<Eigen::Index>(d.table_names.size()));
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t j = 0; j < rows[i].size(); ++j) d.table(i, j) = rows[i][j];
  }
  d.Validate();
  return d;
}

namespace {

// The resume bitmap and the design's points are held in memory: every design kind, tables too.
void CheckStateCount(long long count) {
  if (count > kMaxStates) {
    InvalidArgument("states", count,
                    "must be at most " + std::to_string(kMaxStates) + " (docs/robustness.md)");
  }
}

}  // namespace

void StateDesign::Validate() const {
  const auto names = Names();
  if (names.empty()) InvalidArgument("parameters", 0, "a batch varies at least one parameter");
  std::set<std::string> seen;
  for (const std::string& n : names) {
    if (n.empty()) InvalidArgument("parameter name", "''", "must not be empty");
    if (!seen.insert(n).second) InvalidArgument("parameter " + n, n, "is given twice");
  }
  if (kind == StateDesignKind::kTable) {
    if (table.rows() < 1) InvalidArgument("table rows", table.rows(), "must be >= 1");
    for (Eigen::Index i = 0; i < table.rows(); ++i) {
      for (Eigen::Index j = 0; j < table.cols(); ++j) {
        if (std::isfinite(table(i, j))) continue;
        const std::string name =
            static_cast<size_t>(j) < table_names.size() ? table_names[j] : std::to_string(j);
        InvalidArgument(
            "table row " + std::to_string(i) + " (state " + std::to_string(i) + "), column " + name,
            table(i, j), "every value must be finite");
      }
    }
    CheckStateCount(Count());
    return;
  }
  for (const ParameterRange& r : ranges) {
    if (!std::isfinite(r.low) || !std::isfinite(r.high)) {
      InvalidArgument(r.name + " range", std::to_string(r.low) + ":" + std::to_string(r.high),
                      "bounds must be finite");
    }
    if (r.high < r.low) {
      InvalidArgument(r.name + " range", std::to_string(r.low) + ":" + std::to_string(r.high),
                      "empty range (high < low)");
    }
    if (r.points < 1) InvalidArgument(r.name + " points", r.points, "must be >= 1");
    if (kind == StateDesignKind::kGrid && r.low == r.high && r.points > 1) {
      InvalidArgument(r.name + " range", std::to_string(r.low) + ":" + std::to_string(r.high),
                      "empty range: " + std::to_string(r.points) + " grid points in one value");
    }
    if (kind != StateDesignKind::kGrid && r.low == r.high) {
      InvalidArgument(r.name + " range", std::to_string(r.low) + ":" + std::to_string(r.high),
                      "empty range (low == high): hold it fixed with --param instead");
    }
  }
  if (kind != StateDesignKind::kGrid && states < 1) {
    InvalidArgument("states", states, "must be >= 1 for the iid and sobol designs");
  }
  CheckStateCount(Count());
}

std::vector<std::string> StateDesign::Names() const {
  if (kind == StateDesignKind::kTable) return table_names;
  std::vector<std::string> names;
  for (const ParameterRange& r : ranges) names.push_back(r.name);
  return names;
}

long long StateDesign::Count() const {
  if (kind == StateDesignKind::kTable) return table.rows();
  if (kind != StateDesignKind::kGrid) return states;
  long long n = 1;
  for (const ParameterRange& r : ranges) {
    if (r.points > 0 && n > (1LL << 41) / r.points) return 1LL << 41;  // Validate rejects it
    n *= std::max(1LL, r.points);
  }
  return n;
}

MatrixXd StateDesign::Points() const {
  Validate();
  if (kind == StateDesignKind::kTable) return table.transpose();
  const auto p = static_cast<Eigen::Index>(ranges.size());
  const long long s = Count();
  MatrixXd x(p, s);
  auto scale = [&](Eigen::Index j, double u) {
    return ranges[j].low + (ranges[j].high - ranges[j].low) * u;
  };
  if (kind == StateDesignKind::kGrid) {
    for (long long i = 0; i < s; ++i) {
      long long rest = i;  // mixed radix, last parameter fastest
      for (Eigen::Index j = p - 1; j >= 0; --j) {
        const long long n = ranges[j].points, k = rest % n;
        rest /= n;
        x(j, i) =
            n == 1 ? ranges[j].low : scale(j, static_cast<double>(k) / static_cast<double>(n - 1));
      }
    }
  } else if (kind == StateDesignKind::kIid) {
    for (long long i = 0; i < s; ++i) {
      sampling::UniformStream u(state_seed, static_cast<std::uint64_t>(i));
      for (Eigen::Index j = 0; j < p; ++j) x(j, i) = scale(j, u.Next());
    }
  } else {
    sampling::SobolGenerator g({.contacts = static_cast<int>(p),
                                .max_steps = 1,
                                .skip = 1,
                                .leap = 0,
                                .digital_shift = true,
                                .seed = state_seed});
    VectorXd u(p);
    for (long long i = 0; i < s; ++i) {
      g.Point(static_cast<std::uint64_t>(i), u);
      for (Eigen::Index j = 0; j < p; ++j) x(j, i) = scale(j, u(j));
    }
  }
  return x;
}

StateDesign EveryProblem(const data::ProblemStack& stack) {
  StateDesign d;
  d.kind = StateDesignKind::kTable;
  d.table_names = {kProblemParameter};
  d.table = VectorXd::LinSpaced(stack.count, 0.0, static_cast<double>(stack.count - 1));
  return d;
}

StateDesign ReadStateTableFile(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".h5" || ext == ".hdf5") {
    data::StateTable t = data::ReadStateTable(path);
    StateDesign d;
    d.kind = StateDesignKind::kTable;
    d.table_names = std::move(t.names);
    d.table = std::move(t.values);
    try {
      d.Validate();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(path + ":/states/parameters: " + e.what());
    }
    return d;
  }
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open");
  std::stringstream text;
  text << in.rdbuf();
  return ParseStateTable(text.str(), path);
}

const char* KindName(const StateSource& source) {
  return std::visit([](const auto& s) { return s.kKind; }, source);
}

std::string Label(const StateSource& source) {
  return std::visit(Overloaded{[](const SystemSource& s) { return s.system; },
                               [](const SceneSource& s) { return s.label; },
                               [](const ProblemStackSource& s) { return s.problems.path; },
                               [](const MujocoSource& s) { return s.model; }},
                    source);
}

std::uint64_t StateSourceChecksum(const StateSource& source) {
  std::uint64_t sum = sampling::Mix64(static_cast<std::uint64_t>(source.index()));
  auto add = [&sum](const char* bytes, size_t n) {
    for (size_t i = 0; i < n; i += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, bytes + i, std::min<size_t>(8, n - i));
      sum = sampling::Mix64(sum ^ word);
    }
  };
  auto add_file = [&add](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> buffer(1 << 16);
    while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
      add(buffer.data(), static_cast<size_t>(in.gcount()));
    }
  };
  if (const auto* scene = std::get_if<SceneSource>(&source)) {
    add(scene->text.data(), scene->text.size());
  }
  if (const auto* stack = std::get_if<ProblemStackSource>(&source)) add_file(stack->problems.path);
  if (const auto* m = std::get_if<MujocoSource>(&source)) {
    if (robots::IsMujocoScene(m->model)) {
      const std::string& xml = robots::MujocoSceneXml(m->model);
      add(xml.data(), xml.size());
    } else {
      add_file(m->model);
    }
    std::ostringstream options;  // the base state and the contact options
    options.precision(17);
    options << m->options.state.keyframe << "|" << m->options.contact_margin << "|"
            << m->options.friction_directions << "|" << m->options.ignore_constraints;
    if (m->options.touchdown || m->options.add_floor || m->options.floating_base) {
      options << "|touchdown " << m->options.touchdown << " floor " << m->options.add_floor
              << " floating " << m->options.floating_base;  // absent from files before them
    }
    for (const auto* v : {&m->options.state.qpos, &m->options.state.qvel}) {
      options << "|";
      if (*v) options << v->value().transpose();
    }
    const std::string text = options.str();
    add(text.data(), text.size());
  }
  return sum;
}

namespace {

void CheckStackParameters(const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    if (n != kProblemParameter) {
      throw std::invalid_argument("problem stack: unknown parameter '" + n +
                                  "' (a stack has one parameter, '" + kProblemParameter +
                                  "', the index of a problem in /problems)");
    }
  }
}

systems::LoadedProblem LoadStacked(const data::ProblemStack& stack, double value) {
  const std::string where = stack.path + ":/problems";
  if (!(value >= 0 && value < static_cast<double>(stack.count) && value == std::floor(value))) {
    throw std::invalid_argument(where + ": problem " + std::to_string(value) +
                                " is not an index in [0, " + std::to_string(stack.count) + ")");
  }
  const auto index = static_cast<std::int64_t>(value);
  data::ProblemArrays a = data::ReadStackedProblem(stack, index);
  systems::ProblemSettings s;
  s.scale_missing_steps = true;
  if (stack.h) s.step = *stack.h;
  if (stack.max_steps) s.max_steps = static_cast<int>(*stack.max_steps);
  try {
    return {engine::FromProblemArrays(a), s,
            "problem " + std::to_string(index) + " of " + stack.path};
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(where + " problem " + std::to_string(index) + ": " + e.what());
  }
}

// A MuJoCo source's parameter: entry `index` of qpos (velocity = false) or qvel.
struct StateEntry {
  bool velocity = false;
  Eigen::Index index = 0;
};

// "qpos:I" or "qvel:I" with 0 <= I < the vector's length; nothing for any other name.
std::optional<StateEntry> ParseStateEntry(const std::string& name, const robots::MujocoState& s) {
  const bool velocity = name.rfind("qvel:", 0) == 0;
  if (!velocity && name.rfind("qpos:", 0) != 0) return std::nullopt;
  const std::string digits = name.substr(5);
  if (digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const Eigen::Index index = std::stol(digits);
  const auto& v = velocity ? s.qvel : s.qpos;
  if (!v || index >= v->size()) return std::nullopt;
  return StateEntry{velocity, index};
}

void CheckMujocoParameters(const MujocoSource& source, const std::vector<std::string>& names) {
  const robots::MujocoState& s = source.options.state;
  if (!s.qpos || !s.qvel) {
    InvalidArgument("mujoco.state", source.model,
                    "a batch needs the base qpos and qvel written out (ResolveMujocoSource)");
  }
  for (const std::string& n : names) {
    if (!ParseStateEntry(n, s)) {
      throw std::invalid_argument(
          "mujoco " + source.model + ": unknown parameter '" + n +
          "' (known: qpos:0 ... qpos:" + std::to_string(s.qpos->size() - 1) +
          ", qvel:0 ... qvel:" + std::to_string(s.qvel->size() - 1) + ")");
    }
  }
}

// The source's MuJoCo options with the parameters' entries of qpos and qvel replaced.
robots::MujocoOptions StateOptions(const MujocoSource& source,
                                   const std::vector<std::string>& names,
                                   const VectorXd& values) {
  CheckMujocoParameters(source, names);  // every name is an entry of the base state
  robots::MujocoOptions o = source.options;
  for (size_t j = 0; j < names.size(); ++j) {
    const StateEntry e = *ParseStateEntry(names[j], o.state);
    (e.velocity ? *o.state.qvel : *o.state.qpos)(e.index) = values(static_cast<Eigen::Index>(j));
  }
  return o;
}

systems::LoadedProblem LoadMujocoState(const MujocoSource& source,
                                       const std::vector<std::string>& names,
                                       const VectorXd& values,
                                       std::optional<robots::MujocoProblem>* model) {
  const robots::MujocoOptions o = StateOptions(source, names, values);
  const std::string& file = source.model;
  robots::MujocoProblem r =
      robots::IsMujocoScene(file) ? robots::LoadMujocoScene(file, o) : robots::LoadMujoco(file, o);
  systems::LoadedProblem lp = r.loaded;
  if (model) *model = std::move(r);
  return lp;
}

void CheckSystemParameters(const SystemSource& source, const std::vector<std::string>& names) {
  const systems::ParametricInfo* info = nullptr;
  for (const auto& s : systems::ParametricSystems()) {
    if (s.name == source.system) info = &s;
  }
  if (!info) {
    InvalidArgument("system", source.system,
                    "a batch needs a parametrised system (see `impactset "
                    "systems`) or a scene file with /json/pointer parameters");
  }
  const std::string known = systems::ParameterNames(*info);
  // Fixed ones too: otherwise every state fails on its own and the batch "succeeds".
  for (const auto& [n, value] : source.fixed) {
    if (!systems::HasParameter(*info, n)) {
      throw std::invalid_argument("system " + source.system + ": --param " + n + "=" + value +
                                  ": unknown parameter '" + n + "' (known: " + known + ")");
    }
  }
  for (const std::string& n : names) {
    if (!systems::HasParameter(*info, n)) {
      throw std::invalid_argument("system " + source.system + ": unknown parameter '" + n +
                                  "' (known: " + known + ")");
    }
    if (source.fixed.count(n)) {
      throw std::invalid_argument("parameter '" + n + "' is both varied and fixed (--param)");
    }
  }
}

systems::LoadedProblem LoadParametricState(const SystemSource& source,
                                           const std::vector<std::string>& names,
                                           const VectorXd& values) {
  systems::ParameterValues all = source.fixed;
  for (size_t j = 0; j < names.size(); ++j) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", values(static_cast<Eigen::Index>(j)));
    all[names[j]] = text;  // %.17g: the double round-trips exactly through the text
  }
  return systems::LoadParametric(source.system, all);
}

}  // namespace

robots::SimulationModel LoadSimulationState(const MujocoSource& source,
                                            const std::vector<std::string>& names,
                                            const VectorXd& values) {
  const robots::MujocoOptions o = StateOptions(source, names, values);
  const std::string& file = source.model;
  return robots::IsMujocoScene(file)
             ? robots::LoadSimulationModelXml(robots::MujocoSceneXml(file), file, o)
             : robots::LoadSimulationModel(file, o);
}

StateSource ResolveMujocoSource(StateSource source) {
  auto* m = std::get_if<MujocoSource>(&source);
  if (!m) return source;
  m->options.state = robots::IsMujocoScene(m->model)
                         ? robots::ResolveMujocoStateXmlWith(robots::MujocoSceneXml(m->model),
                                                             m->model, m->options)
                         : robots::ResolveMujocoStateWith(m->model, m->options);
  return source;
}

void CheckParameters(const StateSource& source, const std::vector<std::string>& names) {
  std::visit(Overloaded{[&](const SystemSource& s) { CheckSystemParameters(s, names); },
                        [&](const SceneSource& s) {
                          for (const std::string& n : names) systems::CheckSceneValue(s.text, n);
                        },
                        [&](const ProblemStackSource&) { CheckStackParameters(names); },
                        [&](const MujocoSource& s) { CheckMujocoParameters(s, names); }},
             source);
}

systems::LoadedProblem LoadState(const StateSource& source,
                                 const std::vector<std::string>& names,
                                 const VectorXd& values,
                                 std::optional<robots::MujocoProblem>* model) {
  return std::visit(
      Overloaded{[&](const SystemSource& s) { return LoadParametricState(s, names, values); },
                 [&](const SceneSource& s) -> systems::LoadedProblem {
                   std::vector<std::pair<std::string, double>> v;
                   for (size_t j = 0; j < names.size(); ++j) v.emplace_back(names[j], values(j));
                   return systems::LoadSceneWithValues(s.text, v);
                 },
                 [&](const ProblemStackSource& s) { return LoadStacked(s.problems, values(0)); },
                 [&](const MujocoSource& s) { return LoadMujocoState(s, names, values, model); }},
      source);
}

}  // namespace impactset::batch
