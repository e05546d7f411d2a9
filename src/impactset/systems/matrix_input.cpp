#include <impactset/systems/matrix_input.hpp>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace impactset::systems {

namespace {

using nlohmann::json;

[[noreturn]] void Fail(const std::string& path, const std::string& what) {
  throw std::invalid_argument(path + ": " + what);
}

double Number(const json& j, const std::string& path) {
  if (!j.is_number()) Fail(path, std::string("expected a number, found ") + j.type_name());
  const double x = j.get<double>();
  if (!std::isfinite(x)) Fail(path, "must be finite");
  return x;
}

VectorXd Vector(const json& j, const std::string& path) {
  if (!j.is_array()) Fail(path, std::string("expected a list of numbers, found ") + j.type_name());
  VectorXd v(j.size());
  for (size_t i = 0; i < j.size(); ++i) v(i) = Number(j[i], path + "/" + std::to_string(i));
  return v;
}

MatrixXd Matrix(const json& j, const std::string& path) {
  if (!j.is_array()) Fail(path, std::string("expected a list of rows, found ") + j.type_name());
  if (j.empty()) return MatrixXd(0, 0);
  MatrixXd a;
  for (size_t r = 0; r < j.size(); ++r) {
    const std::string rp = path + "/" + std::to_string(r);
    const VectorXd row = Vector(j[r], rp);
    if (r == 0) a.resize(j.size(), row.size());
    if (row.size() != a.cols()) {
      Fail(rp, "row has " + std::to_string(row.size()) + " entries, row 0 has " +
                   std::to_string(a.cols()));
    }
    a.row(r) = row.transpose();
  }
  return a;
}

const json& Require(const json& doc, const char* key) {
  if (!doc.contains(key)) Fail(std::string("/") + key, "missing required field");
  return doc.at(key);
}

}  // namespace

LoadedProblem ParseProblemJson(const std::string& text) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // parse errors, and numbers that overflow a double
    Fail("/", std::string("malformed JSON: ") + e.what());
  }
  if (!doc.is_object()) Fail("/", std::string("expected an object, found ") + doc.type_name());
  static const std::set<std::string> kKeys = {"M", "Jn", "D", "Jf",      "mu",        "v_minus",
                                              "k", "h",  "N", "samples", "provenance"};
  for (const auto& [key, value] : doc.items()) {
    if (!kKeys.count(key)) {
      Fail("/" + key,
           "unknown key (allowed: M, Jn, D, Jf, mu, v_minus, k, h, N, samples, provenance)");
    }
  }
  MatrixXd M = Matrix(Require(doc, "M"), "/M");
  MatrixXd Jn = Matrix(Require(doc, "Jn"), "/Jn");
  VectorXd mu = Vector(Require(doc, "mu"), "/mu");
  VectorXd v = Vector(Require(doc, "v_minus"), "/v_minus");
  const Eigen::Index m = Jn.rows();
  if (m == 0) Fail("/Jn", "needs at least one contact row");
  if (Jn.cols() != M.cols())
    Fail("/Jn", "rows must have n = " + std::to_string(M.cols()) + " entries");

  MatrixXd D(0, M.cols());
  int k = 0;
  if (doc.contains("D")) {
    D = Matrix(doc["D"], "/D");
    if (D.rows() % m != 0) {
      Fail("/D", std::to_string(D.rows()) + " rows is not a multiple of m = " + std::to_string(m));
    }
    k = static_cast<int>(D.rows() / m);
  }
  if (doc.contains("Jf")) {
    const MatrixXd Jf = Matrix(doc["Jf"], "/Jf");
    if (Jf.rows() != m || Jf.cols() != M.cols()) Fail("/Jf", "must be m x n like Jn");
    MatrixXd Dp(2 * m, Jf.cols());
    for (Eigen::Index i = 0; i < m; ++i) {
      Dp.row(2 * i) = Jf.row(i);
      Dp.row(2 * i + 1) = -Jf.row(i);
    }
    if (doc.contains("D") && (D.rows() != Dp.rows() || (D - Dp).cwiseAbs().maxCoeff() > 1e-12)) {
      Fail("/Jf", "disagrees with /D (D must be (+Jf_i, -Jf_i) per contact)");
    }
    D = Dp;
    k = 2;
  }
  if (doc.contains("k")) {
    const json& jk = doc["k"];
    if (!jk.is_number_integer())
      Fail("/k", std::string("expected an integer, found ") + jk.type_name());
    if (jk.get<int>() != k)
      Fail("/k", "says " + std::to_string(jk.get<int>()) + " but D has " + std::to_string(k) +
                     " rows per contact");
  }
  if (D.cols() == 0 && D.rows() == 0) D.resize(0, M.cols());

  ProblemSettings s;
  s.scale_missing_steps = true;
  if (doc.contains("h")) {
    s.step = Number(doc["h"], "/h");
    if (!(*s.step > 0)) Fail("/h", "must be > 0");
  }
  if (doc.contains("N")) {
    if (!doc["N"].is_number_integer() || doc["N"].get<long long>() < 1)
      Fail("/N", "must be an integer >= 1");
    s.max_steps = doc["N"].get<int>();
  }
  if (doc.contains("samples")) {
    if (!doc["samples"].is_number_integer() || doc["samples"].get<long long>() < 1) {
      Fail("/samples", "must be an integer >= 1");
    }
    s.samples = doc["samples"].get<long long>();
  }
  std::string provenance;
  if (doc.contains("provenance")) {
    if (!doc["provenance"].is_string()) Fail("/provenance", "expected a string");
    provenance = doc["provenance"].get<std::string>();
  }
  return LoadedProblem{impact::ImpactProblem(std::move(M), std::move(Jn), std::move(D),
                                             std::move(mu), std::move(v), k),
                       s, provenance};
}

LoadedProblem LoadProblemJson(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open file");
  std::ostringstream os;
  os << in.rdbuf();
  try {
    return ParseProblemJson(os.str());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ":" + e.what());  // "file.json:/M/2/1: ..."
  }
}

}  // namespace impactset::systems
