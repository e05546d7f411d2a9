#pragma once
// User metrics of a rollout: `NAME=EXPR` over named coordinates and time, evaluated while the
// rollout runs (docs/rollouts.md "Metrics").
//
//   const Metric fell = ParseMetric("fell=min(com:z) < 0.6", variables);
//   MetricState s = fell.Start();
//   for (each step) s.Observe(frame);          // frame: one value per variable
//   const double v = s.Value(final_frame);     // 1 or 0 for a comparison
//
// EXPR is arithmetic (+ - * / ^, unary -), comparisons (< <= > >= == !=), logic (&& || !, or
// `and`, `or`, `not`) and calls. Time aggregates see the whole rollout, one value per step:
// min, max, mean, initial, final, any (nonzero somewhere), all (nonzero everywhere); they do not
// nest. Pointwise functions: abs, sqrt, exp, log, sin, cos. A name outside every aggregate is
// its value at the end of the rollout. A metric whose outermost operation is a comparison or a
// logical operation is an event (its value is 1 or 0) and gets counts and confidence bounds.
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace impactset::rollouts {

struct MetricProgram;  // the parsed expression (metric.cpp)

/// A metric's running state for one rollout (its aggregates' accumulators).
class MetricState {
 public:
  /// One step's values, indexed like the variables the metric was parsed against.
  void Observe(const Eigen::Ref<const Eigen::VectorXd>& frame);
  /// The metric at the end; `final_frame` gives names outside aggregates their values. NaN
  /// when an aggregate saw no step.
  double Value(const Eigen::Ref<const Eigen::VectorXd>& final_frame) const;

 private:
  friend class Metric;
  std::shared_ptr<const MetricProgram> program_;
  std::vector<double> acc_;  // per aggregate: running value
  std::vector<double> first_;
  long long steps_ = 0;
};

/// A parsed metric.
class Metric {
 public:
  const std::string& name() const { return name_; }
  const std::string& expression() const { return expression_; }
  /// Whether the value is 1 or 0 (the outermost operation compares or combines truth values).
  bool is_event() const;
  MetricState Start() const;

 private:
  friend Metric ParseMetric(const std::string&, const std::vector<std::string>&);
  std::string name_, expression_;
  std::shared_ptr<const MetricProgram> program_;
};

/// The NAME of "NAME=EXPR" as ParseMetric reads it: the text before the first '=' without the
/// blanks around it (the whole text when there is no '='). Not checked: ParseMetric checks it.
std::string MetricName(const std::string& spec);

/// Parses "NAME=EXPR" (NAME: a letter or _, then letters, digits, _), resolving names against
/// `variables` (each a name a frame carries, such as "root:z" or "t").
/// @throws std::invalid_argument quoting the metric, naming what is wrong and where (its
///         character position, 1-based, and a caret under it): a missing '=', an unknown name
///         (with the known ones), an unknown function, an aggregate inside another, a stray or
///         missing token.
Metric ParseMetric(const std::string& spec, const std::vector<std::string>& variables);

}  // namespace impactset::rollouts
