#include <impactset/rollouts/metric.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string_view>

#include <impactset/common/error_policy.hpp>

namespace impactset::rollouts {

// The parsed expression: a tree in a vector, children before parents.
struct MetricProgram {
  enum class Aggregate { kMin, kMax, kMean, kInitial, kFinal, kAny, kAll };
  enum class Function { kAbs, kSqrt, kExp, kLog, kSin, kCos };
  enum class Kind { kNumber, kVariable, kAggregate, kNegate, kNot, kBinary, kCall };
  struct Node {
    Kind kind = Kind::kNumber;
    double number = 0;
    int index = 0;       // kVariable: frame index; kAggregate: aggregate slot
    std::string op;      // kBinary
    Function fn{};       // kCall
    int a = -1, b = -1;  // children
    bool truth = false;  // the value is 1 or 0
  };
  struct Slot {
    Aggregate kind;
    int expr;
  };
  std::vector<Node> nodes;
  std::vector<Slot> slots;
  int root = -1;

  static Node Make(Kind kind) {
    Node n;
    n.kind = kind;
    return n;
  }
  double Eval(int i,
              const Eigen::Ref<const Eigen::VectorXd>& frame,
              const double* slot_values) const;
};

namespace {

using Aggregate = MetricProgram::Aggregate;
using Function = MetricProgram::Function;

struct AggregateName {
  std::string_view name;
  Aggregate kind;
};
constexpr AggregateName kAggregates[] = {
    {"min", Aggregate::kMin},         {"max", Aggregate::kMax},     {"mean", Aggregate::kMean},
    {"initial", Aggregate::kInitial}, {"final", Aggregate::kFinal}, {"any", Aggregate::kAny},
    {"all", Aggregate::kAll}};
struct FunctionName {
  std::string_view name;
  Function fn;
};
constexpr FunctionName kFunctions[] = {{"abs", Function::kAbs}, {"sqrt", Function::kSqrt},
                                       {"exp", Function::kExp}, {"log", Function::kLog},
                                       {"sin", Function::kSin}, {"cos", Function::kCos}};

}  // namespace

double MetricProgram::Eval(int i,
                           const Eigen::Ref<const Eigen::VectorXd>& frame,
                           const double* slot_values) const {
  const Node& n = nodes[static_cast<size_t>(i)];
  switch (n.kind) {
    case Kind::kNumber:
      return n.number;
    case Kind::kVariable:
      return frame(n.index);
    case Kind::kAggregate:
      return slot_values[n.index];
    case Kind::kNegate:
      return -Eval(n.a, frame, slot_values);
    case Kind::kNot:
      return Eval(n.a, frame, slot_values) == 0 ? 1.0 : 0.0;
    case Kind::kCall: {
      const double x = Eval(n.a, frame, slot_values);
      switch (n.fn) {
        case Function::kAbs:
          return std::abs(x);
        case Function::kSqrt:
          return std::sqrt(x);
        case Function::kExp:
          return std::exp(x);
        case Function::kLog:
          return std::log(x);
        case Function::kSin:
          return std::sin(x);
        case Function::kCos:
          return std::cos(x);
      }
      return x;
    }
    case Kind::kBinary:
      break;
  }
  const double x = Eval(n.a, frame, slot_values), y = Eval(n.b, frame, slot_values);
  const std::string& op = n.op;
  if (op == "+") return x + y;
  if (op == "-") return x - y;
  if (op == "*") return x * y;
  if (op == "/") return x / y;
  if (op == "^") return std::pow(x, y);
  if (op == "<") return x < y;
  if (op == "<=") return x <= y;
  if (op == ">") return x > y;
  if (op == ">=") return x >= y;
  if (op == "==") return x == y;
  if (op == "!=") return x != y;
  if (op == "&&") return (x != 0 && y != 0) ? 1.0 : 0.0;
  return (x != 0 || y != 0) ? 1.0 : 0.0;  // "||"
}

namespace {

bool NameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool NameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '.';
}

// Recursive descent over the expression text; `offset` is where it starts in the whole spec
// (for the positions messages give).
class Parser {
 public:
  Parser(const std::string& spec, size_t offset, const std::vector<std::string>& variables)
      : spec_(spec),
        text_(std::string_view(spec).substr(offset)),
        offset_(offset),
        variables_(variables) {}

  MetricProgram Parse() {
    program_.root = Or();
    Skip();
    if (pos_ < text_.size()) Fail(pos_, "unexpected '" + std::string(1, text_[pos_]) + "'");
    return std::move(program_);
  }

 private:
  [[noreturn]] void Fail(size_t at, const std::string& what) const {
    const size_t column = offset_ + at;
    throw std::invalid_argument("metric \"" + spec_ + "\" at position " +
                                std::to_string(column + 1) + ": " + what + "\n  " + spec_ + "\n  " +
                                std::string(column, ' ') + "^");
  }
  void Skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  // Consumes `token` (a word must not run on into a name) if it comes next.
  bool Accept(std::string_view token) {
    Skip();
    if (text_.substr(pos_, token.size()) != token) return false;
    const size_t end = pos_ + token.size();
    if (NameStart(token[0]) && end < text_.size() && NameChar(text_[end])) return false;
    // '<' must not take the '<' of "<=", nor '!' the '!' of "!=", nor '=' stand alone.
    if ((token == "<" || token == ">" || token == "!") && end < text_.size() && text_[end] == '=') {
      return false;
    }
    pos_ = end;
    return true;
  }
  int Add(MetricProgram::Node n) {
    program_.nodes.push_back(std::move(n));
    return static_cast<int>(program_.nodes.size()) - 1;
  }
  int Binary(const std::string& op, int a, int b, bool truth) {
    MetricProgram::Node n = MetricProgram::Make(MetricProgram::Kind::kBinary);
    n.op = op;
    n.a = a;
    n.b = b;
    n.truth = truth;
    return Add(std::move(n));
  }
  int Or() {
    int a = And();
    while (Accept("||") || Accept("or")) a = Binary("||", a, And(), true);
    return a;
  }
  int And() {
    int a = Not();
    while (Accept("&&") || Accept("and")) a = Binary("&&", a, Not(), true);
    return a;
  }
  int Not() {
    if (Accept("!") || Accept("not")) {
      MetricProgram::Node n = MetricProgram::Make(MetricProgram::Kind::kNot);
      n.a = Not();
      n.truth = true;
      return Add(std::move(n));
    }
    return Compare();
  }
  int Compare() {
    const int a = Sum();
    for (const char* op : {"<=", ">=", "==", "!=", "<", ">"}) {
      if (Accept(op)) return Binary(op, a, Sum(), true);
    }
    return a;
  }
  int Sum() {
    int a = Product();
    for (;;) {
      if (Accept("+")) {
        a = Binary("+", a, Product(), false);
      } else if (Accept("-")) {
        a = Binary("-", a, Product(), false);
      } else {
        return a;
      }
    }
  }
  int Product() {
    int a = Unary();
    for (;;) {
      if (Accept("*")) {
        a = Binary("*", a, Unary(), false);
      } else if (Accept("/")) {
        a = Binary("/", a, Unary(), false);
      } else {
        return a;
      }
    }
  }
  int Unary() {
    if (Accept("-")) {
      MetricProgram::Node n = MetricProgram::Make(MetricProgram::Kind::kNegate);
      n.a = Unary();
      return Add(std::move(n));
    }
    const int a = Atom();
    if (Accept("^")) return Binary("^", a, Unary(), false);
    return a;
  }
  int Atom();
  int Number();
  int Call(const std::string& name, size_t at);
  int Variable(const std::string& name, size_t at);

  std::string spec_;
  std::string_view text_;
  size_t offset_;
  const std::vector<std::string>& variables_;
  size_t pos_ = 0;
  bool in_aggregate_ = false;
  MetricProgram program_;
};

int Parser::Atom() {
  Skip();
  if (pos_ >= text_.size()) Fail(pos_, "the expression ends where a value is expected");
  const size_t at = pos_;
  if (Accept("(")) {
    const int a = Or();
    if (!Accept(")"))
      Fail(pos_, "missing ')' (the '(' is at position " + std::to_string(offset_ + at + 1) + ")");
    return a;
  }
  const char c = text_[pos_];
  if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return Number();
  if (!NameStart(c)) Fail(pos_, "unexpected '" + std::string(1, c) + "'");
  size_t end = pos_;
  while (end < text_.size() && NameChar(text_[end])) ++end;
  const std::string name(text_.substr(pos_, end - pos_));
  pos_ = end;
  Skip();
  if (pos_ < text_.size() && text_[pos_] == '(') return Call(name, at);
  return Variable(name, at);
}

int Parser::Number() {
  const std::string rest(text_.substr(pos_));
  char* end = nullptr;
  const double x = std::strtod(rest.c_str(), &end);
  if (end == rest.c_str()) Fail(pos_, "malformed number");
  MetricProgram::Node n = MetricProgram::Make(MetricProgram::Kind::kNumber);
  n.number = x;
  pos_ += static_cast<size_t>(end - rest.c_str());
  return Add(std::move(n));
}

int Parser::Call(const std::string& name, size_t at) {
  ++pos_;  // '('
  const auto aggregate = std::find_if(std::begin(kAggregates), std::end(kAggregates),
                                      [&](const AggregateName& a) { return a.name == name; });
  const auto function = std::find_if(std::begin(kFunctions), std::end(kFunctions),
                                     [&](const FunctionName& f) { return f.name == name; });
  if (aggregate == std::end(kAggregates) && function == std::end(kFunctions)) {
    Fail(at, "unknown function '" + name +
                 "' (time aggregates: min, max, mean, initial, final, any, all; pointwise: abs, "
                 "sqrt, exp, log, sin, cos)");
  }
  if (aggregate != std::end(kAggregates) && in_aggregate_) {
    Fail(at, "time aggregate '" + name + "' inside another (they do not nest)");
  }
  const bool outer = in_aggregate_;
  in_aggregate_ = in_aggregate_ || aggregate != std::end(kAggregates);
  const int arg = Or();
  in_aggregate_ = outer;
  if (!Accept(")")) Fail(pos_, "missing ')' closing " + name + "(");
  if (aggregate != std::end(kAggregates)) {
    program_.slots.push_back({aggregate->kind, arg});
    MetricProgram::Node n = MetricProgram::Make(MetricProgram::Kind::kAggregate);
    n.index = static_cast<int>(program_.slots.size()) - 1;
    n.truth = aggregate->kind == Aggregate::kAny || aggregate->kind == Aggregate::kAll;
    return Add(std::move(n));
  }
  MetricProgram::Node n = MetricProgram::Make(MetricProgram::Kind::kCall);
  n.fn = function->fn;
  n.a = arg;
  return Add(std::move(n));
}

int Parser::Variable(const std::string& name, size_t at) {
  const auto it = std::find(variables_.begin(), variables_.end(), name);
  if (it == variables_.end()) {
    std::string known;
    for (const std::string& v : variables_) known += (known.empty() ? "" : ", ") + v;
    Fail(at, "unknown name '" + name + "' (known: " + known + ")");
  }
  MetricProgram::Node n = MetricProgram::Make(MetricProgram::Kind::kVariable);
  n.index = static_cast<int>(it - variables_.begin());
  return Add(std::move(n));
}

}  // namespace

std::string MetricName(const std::string& spec) {
  std::string name = spec.substr(0, spec.find('='));
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front()))) name.erase(0, 1);
  return name;
}

Metric ParseMetric(const std::string& spec, const std::vector<std::string>& variables) {
  const size_t eq = spec.find('=');
  auto fail = [&](const std::string& what) {
    throw std::invalid_argument("metric \"" + spec + "\": " + what);
  };
  if (eq == std::string::npos) fail("expected NAME=EXPR (for instance fell=min(com:z) < 0.6)");
  const std::string name = MetricName(spec);
  if (name.empty() || !NameStart(name[0]) || !std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      })) {
    fail("the name '" + name + "' must be a letter or _ followed by letters, digits or _");
  }
  // "a==b" after the name: the first '=' is the name's, so "x==1" is refused as a name "x" with
  // the expression "=1" (the parser reports the stray '=').
  Metric m;
  m.name_ = name;
  const size_t first = spec.find_first_not_of(" \t", eq + 1);
  const size_t last = spec.find_last_not_of(" \t");
  m.expression_ = first == std::string::npos ? "" : spec.substr(first, last - first + 1);
  m.program_ = std::make_shared<const MetricProgram>(Parser(spec, eq + 1, variables).Parse());
  return m;
}

bool Metric::is_event() const { return program_->nodes[static_cast<size_t>(program_->root)].truth; }

MetricState Metric::Start() const {
  MetricState s;
  s.program_ = program_;
  s.acc_.assign(program_->slots.size(), 0.0);
  s.first_.assign(program_->slots.size(), 0.0);
  return s;
}

void MetricState::Observe(const Eigen::Ref<const Eigen::VectorXd>& frame) {
  const MetricProgram& p = *program_;
  for (size_t i = 0; i < p.slots.size(); ++i) {
    const double x = p.Eval(p.slots[i].expr, frame, acc_.data());
    double& a = acc_[i];
    const bool first = steps_ == 0;
    switch (p.slots[i].kind) {
      case Aggregate::kMin:
        a = first ? x : std::min(a, x);
        break;
      case Aggregate::kMax:
        a = first ? x : std::max(a, x);
        break;
      case Aggregate::kMean:
        a = first ? x : a + x;
        break;
      case Aggregate::kInitial:
        a = first ? x : a;
        break;
      case Aggregate::kFinal:
        a = x;
        break;
      case Aggregate::kAny:
        a = (first ? false : a != 0) || x != 0 ? 1.0 : 0.0;
        break;
      case Aggregate::kAll:
        a = (first ? true : a != 0) && x != 0 ? 1.0 : 0.0;
        break;
    }
  }
  ++steps_;
}

double MetricState::Value(const Eigen::Ref<const Eigen::VectorXd>& final_frame) const {
  const MetricProgram& p = *program_;
  if (steps_ == 0 && !p.slots.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> values = acc_;
  for (size_t i = 0; i < p.slots.size(); ++i) {
    if (p.slots[i].kind == Aggregate::kMean) values[i] /= static_cast<double>(steps_);
  }
  return p.Eval(p.root, final_frame, values.data());
}

}  // namespace impactset::rollouts
