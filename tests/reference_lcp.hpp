#pragma once
// The bank of reference LCPs in tests/data/lcp (format and families: tests/data/lcp/README.md),
// read by the LCP tests.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <impactset/common/eigen_types.hpp>

namespace impactset::testing {

// One reference LCP as read from tests/data/lcp/<name>.lcp.
struct ReferenceLcp {
  std::string family;       // "# family: <family>"
  bool unique = false;      // "# unique: yes": M is a P-matrix, exactly one solution listed
  bool list_known = false;  // false for "solutions unknown" (n > 12: the oracle was not run)
  MatrixXd M;
  VectorXd q;
  std::vector<VectorXd> solutions;  // every solution on a non-singular complementary basis
  // A solution exists when one is listed; the script writes `unknown` only for impact LCPs (ap,
  // routh), which always have one (Anitescu & Potra 1997; Halm & Posa Theorem 6).
  bool HasSolution() const { return list_known ? !solutions.empty() : true; }
};

inline std::filesystem::path BankDir() {
  return std::filesystem::path(IMPACTSET_TEST_DATA_DIR) / "lcp";
}

// File stems of every *.lcp in the bank, sorted (the order of the instantiated tests).
inline std::vector<std::string> BankFileNames() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(BankDir(), ec)) {
    if (entry.path().extension() == ".lcp") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

[[noreturn]] inline void Malformed(const std::string& name, int line, const std::string& what) {
  throw std::runtime_error(name + ".lcp:" + std::to_string(line) + ": " + what);
}

inline ReferenceLcp LoadReferenceLcp(const std::string& name) {
  std::ifstream in(BankDir() / (name + ".lcp"));
  if (!in) throw std::runtime_error("cannot open " + (BankDir() / (name + ".lcp")).string());
  ReferenceLcp lcp;
  // The data lines in order, comments dropped (the keyed ones read on the way).
  std::vector<std::pair<int, std::string>> lines;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (line.rfind("# family: ", 0) == 0) lcp.family = line.substr(10);
      if (line.rfind("# unique: yes", 0) == 0) lcp.unique = true;
      continue;
    }
    lines.emplace_back(number, line);
  }
  size_t at = 0;
  int number = 0;  // file line of the data line read last, for messages
  auto next = [&](const char* what) -> std::istringstream {
    if (at >= lines.size()) Malformed(name, number, "missing " + std::string(what));
    number = lines[at].first;
    return std::istringstream(lines[at++].second);
  };
  auto read_vector = [&](Eigen::Index n, const char* what) {
    std::istringstream is = next(what);
    VectorXd v(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      if (!(is >> v(i))) Malformed(name, number, std::string(what) + " has fewer than n numbers");
    }
    std::string extra;
    if (is >> extra) Malformed(name, number, std::string(what) + " has more than n numbers");
    return v;
  };
  std::string key;
  Eigen::Index n = 0;
  std::istringstream header = next("n");
  if (!(header >> key >> n) || key != "n" || n < 1) Malformed(name, number, "expected 'n <n>'");
  lcp.M.resize(n, n);
  for (Eigen::Index r = 0; r < n; ++r) lcp.M.row(r) = read_vector(n, "row of M").transpose();
  std::istringstream q_line = next("q");
  if (!(q_line >> key) || key != "q") Malformed(name, number, "expected 'q'");
  lcp.q = read_vector(n, "q");
  std::string count;
  std::istringstream count_line = next("solutions");
  if (!(count_line >> key >> count) || key != "solutions") {
    Malformed(name, number, "expected 'solutions <count|unknown>'");
  }
  if (count != "unknown") {
    lcp.list_known = true;
    const int k = std::stoi(count);
    for (int i = 0; i < k; ++i) lcp.solutions.push_back(read_vector(n, "solution"));
  } else if (lcp.family != "ap" && lcp.family != "routh") {
    Malformed(name, number, "'solutions unknown' outside the impact families (ap, routh)");
  }
  if (at != lines.size()) Malformed(name, lines[at].first, "trailing data");
  if (lcp.unique && lcp.solutions.size() != 1) {
    Malformed(name, number, "'# unique: yes' but not exactly one solution listed");
  }
  return lcp;
}

}  // namespace impactset::testing
