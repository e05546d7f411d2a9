#pragma once
// Helpers of the batch tests: state records compared cell by cell.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/data/batch_file.hpp>

namespace impactset::testing {

/// Two cells are equal when their values are equal bit for bit up to NaN == NaN.
inline bool SameValues(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  }
  return true;
}

/// Every state's every cell equal (SameValues, integers, text); no states at all is a failure.
inline void ExpectSameStates(const std::vector<data::StateRecord>& a,
                             const std::vector<data::StateRecord>& b) {
  ASSERT_FALSE(a.empty());  // a comparison over no state proves nothing
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    ASSERT_EQ(a[i].cells.size(), b[i].cells.size());
    for (size_t k = 0; k < a[i].cells.size(); ++k) {
      EXPECT_TRUE(SameValues(a[i].cells[k].values, b[i].cells[k].values)) << i << " " << k;
      EXPECT_EQ(a[i].cells[k].integers, b[i].cells[k].integers) << i << " " << k;
      EXPECT_EQ(a[i].cells[k].text, b[i].cells[k].text) << i << " " << k;
    }
  }
}

}  // namespace impactset::testing
