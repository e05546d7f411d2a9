// Rollout metrics (rollouts/metric.hpp): values over hand-made frame sequences, the grammar's
// precedence, and every refusal with its position.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <impactset/rollouts/metric.hpp>

namespace impactset::rollouts {
namespace {

const std::vector<std::string> kVariables{"t", "root:z", "qvel:root:vz"};

// The metric over frames (t, z, vz) = (i, z[i], vz[i]); the last frame is the final one.
double Evaluate(const std::string& spec,
                const std::vector<double>& z,
                const std::vector<double>& vz) {
  const Metric m = ParseMetric(spec, kVariables);
  MetricState s = m.Start();
  Eigen::VectorXd frame(3);
  for (size_t i = 0; i < z.size(); ++i) {
    frame << static_cast<double>(i), z[i], vz[i];
    s.Observe(frame);
  }
  return s.Value(frame);
}

std::string ErrorOf(const std::string& spec) {
  try {
    ParseMetric(spec, kVariables);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(RolloutMetric, AggregatesSeeEveryStep) {
  const std::vector<double> z{1.0, 0.4, 0.7, 0.9}, vz{0, -2, 1, 0.5};
  EXPECT_EQ(Evaluate("a=min(root:z)", z, vz), 0.4);
  EXPECT_EQ(Evaluate("a=max(root:z)", z, vz), 1.0);
  EXPECT_DOUBLE_EQ(Evaluate("a=mean(root:z)", z, vz), 3.0 / 4);
  EXPECT_EQ(Evaluate("a=initial(root:z)", z, vz), 1.0);
  EXPECT_EQ(Evaluate("a=final(root:z)", z, vz), 0.9);
  EXPECT_EQ(Evaluate("a=root:z", z, vz), 0.9);  // outside aggregates: the final state
  EXPECT_EQ(Evaluate("a=max(abs(qvel:root:vz))", z, vz), 2.0);
  EXPECT_EQ(Evaluate("a=any(root:z < 0.5)", z, vz), 1.0);
  EXPECT_EQ(Evaluate("a=all(root:z < 0.95)", z, vz), 0.0);
  EXPECT_EQ(Evaluate("a=all(root:z > 0.3)", z, vz), 1.0);
  // The time at which the minimum is reached is not an aggregate; the minimum of an expression
  // of time is.
  EXPECT_EQ(Evaluate("a=min(t + root:z)", z, vz), 1.0);
}

TEST(RolloutMetric, PrecedenceAndLogic) {
  const std::vector<double> z{2.0}, vz{3.0};
  EXPECT_EQ(Evaluate("a=1 + 2 * 3", z, vz), 7.0);
  EXPECT_EQ(Evaluate("a=(1 + 2) * 3", z, vz), 9.0);
  EXPECT_EQ(Evaluate("a=2 ^ 3 ^ 2", z, vz), 512.0);  // right to left
  EXPECT_EQ(Evaluate("a=-2 ^ 2", z, vz), -4.0);      // the power before the sign
  EXPECT_EQ(Evaluate("a=10 - 4 - 3", z, vz), 3.0);   // left to right
  EXPECT_EQ(Evaluate("a=8 / 4 / 2", z, vz), 1.0);
  EXPECT_EQ(Evaluate("a=root:z < 3 && qvel:root:vz >= 3", z, vz), 1.0);
  EXPECT_EQ(Evaluate("a=root:z > 3 or not qvel:root:vz != 3", z, vz), 1.0);
  EXPECT_EQ(Evaluate("a=!(root:z == 2)", z, vz), 0.0);
  EXPECT_DOUBLE_EQ(Evaluate("a=sqrt(16) + log(exp(2)) + cos(0) - sin(0)", z, vz), 7.0);
}

TEST(RolloutMetric, EventsAreComparisonsAndLogic) {
  EXPECT_TRUE(ParseMetric("fell=min(root:z) < 0.6", kVariables).is_event());
  EXPECT_TRUE(ParseMetric("x=any(root:z < 0)", kVariables).is_event());
  EXPECT_TRUE(ParseMetric("x=not root:z", kVariables).is_event());
  EXPECT_FALSE(ParseMetric("drop=min(root:z)", kVariables).is_event());
  EXPECT_FALSE(ParseMetric("x=(root:z < 1) + 1", kVariables).is_event());
  const Metric m = ParseMetric(" fell = min(root:z) < 0.6", kVariables);
  EXPECT_EQ(m.name(), "fell");
  EXPECT_EQ(m.expression(), "min(root:z) < 0.6");
}

TEST(RolloutMetric, RefusalsNameTheProblemAndItsPosition) {
  std::string e = ErrorOf("fell=min(rot:z) < 0.6");
  EXPECT_NE(e.find("unknown name 'rot:z'"), std::string::npos) << e;
  EXPECT_NE(e.find("at position 10"), std::string::npos) << e;
  EXPECT_NE(e.find("known: t, root:z, qvel:root:vz"), std::string::npos) << e;
  EXPECT_NE(e.find("\n  fell=min(rot:z) < 0.6\n           ^"), std::string::npos) << e;
  e = ErrorOf("x=minimum(root:z)");
  EXPECT_NE(e.find("unknown function 'minimum'"), std::string::npos) << e;
  EXPECT_NE(e.find("position 3"), std::string::npos) << e;
  e = ErrorOf("x=max(min(root:z))");
  EXPECT_NE(e.find("inside another"), std::string::npos) << e;
  EXPECT_NE(e.find("position 7"), std::string::npos) << e;
  e = ErrorOf("x=(root:z + 1");
  EXPECT_NE(e.find("missing ')'"), std::string::npos) << e;
  EXPECT_NE(e.find("position 14"), std::string::npos) << e;
  e = ErrorOf("x=root:z 1");
  EXPECT_NE(e.find("at position 10: unexpected '1'"), std::string::npos) << e;
  e = ErrorOf("x=root:z <");
  EXPECT_NE(e.find("ends where a value is expected"), std::string::npos) << e;
  e = ErrorOf("min(root:z)=1");
  EXPECT_NE(e.find("the name 'min(root:z)' must be"), std::string::npos) << e;
  e = ErrorOf("x=1 < 2 < 3");  // comparisons do not chain
  EXPECT_NE(e.find("at position 9: unexpected '<'"), std::string::npos) << e;
  e = ErrorOf("x");
  EXPECT_NE(e.find("expected NAME=EXPR"), std::string::npos) << e;
  e = ErrorOf("x==1");
  EXPECT_NE(e.find("unexpected '='"), std::string::npos) << e;
  e = ErrorOf("x=root:z $ 1");
  EXPECT_NE(e.find("at position 10: unexpected '$'"), std::string::npos) << e;
}

TEST(RolloutMetric, NoStepGivesNaNForAggregates) {
  const Metric m = ParseMetric("a=min(root:z)", kVariables);
  const MetricState s = m.Start();
  EXPECT_TRUE(std::isnan(s.Value(Eigen::VectorXd::Zero(3))));
}

}  // namespace
}  // namespace impactset::rollouts
