#pragma once
// Step LCPs kept as text files under tests/data/<dir>/: n, then M row by row, then q (17
// significant digits), as bench/impact_family's --dump writes them.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <impactset/common/eigen_types.hpp>

namespace impactset::lcp {

struct StepLcpFile {
  std::string name;
  MatrixXd M;
  VectorXd q;
};

/// Every file of tests/data/<dir>, sorted by name; a file that does not parse fails the test.
inline std::vector<StepLcpFile> LoadStepLcps(const std::string& dir) {
  std::vector<StepLcpFile> out;
  const std::filesystem::path path = std::filesystem::path(IMPACTSET_TEST_DATA_DIR) / dir;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    std::ifstream in(entry.path());
    int n = 0;
    in >> n;
    StepLcpFile lcp{entry.path().filename().string(), MatrixXd(n, n), VectorXd(n)};
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) in >> lcp.M(i, j);
    for (int i = 0; i < n; ++i) in >> lcp.q(i);
    EXPECT_TRUE(in && n > 0) << entry.path();
    out.push_back(std::move(lcp));
  }
  std::sort(out.begin(), out.end(),
            [](const StepLcpFile& a, const StepLcpFile& b) { return a.name < b.name; });
  return out;
}

}  // namespace impactset::lcp
