#pragma once
// Helpers shared by the test programs: Eigen comparisons, the paper examples' impact states and
// test names.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Core>

#include <impactset/systems/matrix_input.hpp>

namespace impactset::testing {

/// IMPACTSET_TEST_SAMPLE_DIVISOR (CTest sets 8 in the sanitized build, where a process runs
/// several times slower; else 1): long property loops divide their case counts by it, running
/// the same code paths on fewer cases. Their seeds are fixed, so each count's outcome is too.
inline int TestSampleDivisor() {
  const char* d = std::getenv("IMPACTSET_TEST_SAMPLE_DIVISOR");
  return d && std::atoi(d) > 1 ? std::atoi(d) : 1;
}

/// CompareMatrices' check on plain double matrices. One non-template body: the template below
/// only converts, so that each of a test file's many expression types does not instantiate the
/// loop and the failure message again.
inline ::testing::AssertionResult CompareDense(const Eigen::MatrixXd& actual,
                                               const Eigen::MatrixXd& expected,
                                               double tolerance) {
  if (actual.rows() != expected.rows() || actual.cols() != expected.cols()) {
    return ::testing::AssertionFailure()
           << "shapes differ: actual " << actual.rows() << "x" << actual.cols() << ", expected "
           << expected.rows() << "x" << expected.cols();
  }
  bool ok = true;
  double worst = 0;
  Eigen::Index wi = 0, wj = 0;
  for (Eigen::Index j = 0; j < actual.cols(); ++j) {
    for (Eigen::Index i = 0; i < actual.rows(); ++i) {
      const double a = actual(i, j), e = expected(i, j);
      const double d = a == e ? 0.0 : std::abs(a - e);
      if (d <= tolerance) continue;
      if (ok || std::isnan(d) || d > worst) {
        worst = d;
        wi = i;
        wj = j;
      }
      ok = false;
    }
  }
  if (ok) return ::testing::AssertionSuccess();
  const Eigen::IOFormat full(Eigen::FullPrecision, 0, ", ", "\n", "  [", "]");
  return ::testing::AssertionFailure()
         << "|actual - expected| = " << worst << " > tolerance " << tolerance << " at (" << wi
         << ", " << wj << "): actual " << actual(wi, wj) << ", expected " << expected(wi, wj)
         << "\nactual (" << actual.rows() << "x" << actual.cols() << ") =\n"
         << actual.format(full) << "\nexpected =\n"
         << expected.format(full);
}

/// Like Drake's CompareMatrices: success when `actual` and `expected` have the same shape and
/// |actual(i, j) - expected(i, j)| <= tolerance for every entry (an absolute tolerance: scale it
/// by MaxAbsOrOne(expected) for a relative one). A NaN entry never passes; equal infinities do.
/// On failure the message names the shapes, or the worst entry, and prints both in full precision.
/// Both sides are evaluated once into double matrices (integer ones exactly).
template <class Actual, class Expected>
::testing::AssertionResult CompareMatrices(const Eigen::MatrixBase<Actual>& actual,
                                           const Eigen::MatrixBase<Expected>& expected,
                                           double tolerance) {
  return CompareDense(actual.template cast<double>(), expected.template cast<double>(), tolerance);
}

/// max(1, max_ij |m(i, j)|): the scale that turns a relative tolerance into CompareMatrices'
/// absolute one without shrinking it below the absolute value on small data.
template <class Derived>
double MaxAbsOrOne(const Eigen::MatrixBase<Derived>& m) {
  return m.size() == 0 ? 1.0 : std::max(1.0, m.cwiseAbs().maxCoeff());
}

/// The impact state of a paper example from tests/data/problems/<name>.json (docs/examples.md §3).
inline systems::LoadedProblem Example(const std::string& name) {
  return systems::LoadProblemJson(std::string(IMPACTSET_TEST_DATA_DIR) + "/problems/" + name +
                                  ".json");
}

/// The paper's examples that every per-example test runs on (docs/examples.md §3).
inline const std::vector<std::string> kPaperExamples = {
    "rocking-block", "compass-gait", "box-wall", "ramone", "zeno-block", "disk-stack"};

/// "compass-gait" -> "compass_gait": GoogleTest names allow only [A-Za-z0-9_].
inline std::string TestName(std::string s) {
  for (char& c : s) {
    if (c == '-') c = '_';
  }
  return s;
}

/// Whether call() throws std::invalid_argument whose message names `field` (the house rule for
/// bad options: the exception names the field, its value and the rule broken).
template <class Call>
bool ThrowsNaming(Call&& call, const std::string& field) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return std::string(e.what()).find(field) != std::string::npos;
  }
  return false;
}

}  // namespace impactset::testing
