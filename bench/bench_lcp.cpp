// bench_lcp: ns per LCP solve, native Lemke against the Siconos driver on the same inputs.
// Sizes: 4 (one planar contact, Anitescu-Potra LCP), 10 (two-contact Routh step, rocking block),
// 10c (compass gait), 25 (five-contact Routh step, disk stack), and 3-D step LCPs of m (k + 3):
// 28 and 44 (a cube dropped flat on its four corners, k = 4 and 8), 56 and 88 (a random
// well-posed 8-contact problem, k = 4 and 8). Each input bank holds step LCPs that Algorithm 1
// really visits (recorded from iid samples), so pivot counts are the realistic ones.
// `native-drawn` solves the same banks as Algorithm 1's random selection does: covering vector
// drawn log-uniformly from [e^-5, e^5] and a drawn lexicographic column order. `native-warm` adds
// Algorithm 1's warm start: a table of bases learned from the bank's first half (which basis
// solved the step after which), tried on each step before the drawn path.
#include <benchmark/benchmark.h>

#include <Eigen/QR>

#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <impactset/impact/algorithm1.hpp>
#include <impactset/impact/impact_lcps.hpp>
#include <impactset/impact/step_bases.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/lcp/warm_start.hpp>
#include <impactset/sampling/streams.hpp>
#include <impactset/systems/matrix_input.hpp>

using namespace impactset;

namespace {

struct Bank {
  MatrixXd W;
  std::vector<VectorXd> q;
  std::vector<bool> first;  // q[i] is a sample's first step (Routh banks; empty otherwise)
};

// Records every step LCP's q while delegating the solve to the chain.
class Recorder final : public lcp::Solver {
 public:
  explicit Recorder(std::vector<VectorXd>* out) : out_(out) {}
  lcp::SolverId id() const override { return lcp::SolverId::kChain; }
  lcp::SolveInfo DoSolve(const MatrixRef& M,
                         const VectorRef& q,
                         VectorXd* z,
                         lcp::InputCheck check) override {
    out_->push_back(q);
    return chain_.Solve(M, q, z, check);
  }

 private:
  std::vector<VectorXd>* out_;
  lcp::FallbackSolver chain_;
};

systems::LoadedProblem Load(const char* name) {
  return systems::LoadProblemJson(std::string(IMPACTSET_PROBLEMS_DIR "/") + name + ".json");
}

Bank RouthBank(const impact::ImpactProblem& problem, double step, int max_steps, size_t count) {
  impact::Algorithm1Options o;
  o.step = step;
  o.max_steps = max_steps;
  o.selection = impact::Selection::kFirst;  // one recorded LCP per step
  Bank b;
  Recorder rec(&b.q);
  impact::RouthSampler sampler(problem, o, &rec);
  for (std::uint64_t i = 0; b.q.size() < count; ++i) {
    sampling::IidPSource src(7, i);
    const size_t before = b.q.size();
    sampler.Run(src);
    b.first.resize(b.q.size(), false);
    if (b.q.size() > before) b.first[before] = true;
  }
  b.q.resize(count);
  b.first.resize(count);
  b.W = sampler.StepMatrix();
  return b;
}

Bank RouthBank(const char* name, size_t count) {
  const auto lp = Load(name);
  return RouthBank(lp.problem, *lp.settings.step, *lp.settings.max_steps, count);
}

// k friction directions spanning the plane of t1, t2 (closed under negation for even k).
MatrixXd FrictionRows(const MatrixXd& t1, const MatrixXd& t2, int k) {
  const Eigen::Index m = t1.rows();
  MatrixXd D(m * k, t1.cols());
  for (Eigen::Index i = 0; i < m; ++i) {
    for (int j = 0; j < k; ++j) {
      const double a = 2 * M_PI * j / k;
      D.row(i * k + j) = std::cos(a) * t1.row(i) + std::sin(a) * t2.row(i);
    }
  }
  return D;
}

// A unit cube (mass 1, side 1) falling flat onto the floor z = 0 with all four bottom corners in
// contact, tilting and sliding: n = 6 (linear velocity, angular velocity, world frame), m = 4.
impact::ImpactProblem Cube(int k) {
  MatrixXd M = MatrixXd::Identity(6, 6);
  M.bottomRightCorner(3, 3) *= 1.0 / 6.0;
  MatrixXd Jn(4, 6), t1(4, 6), t2(4, 6);
  const double rz = -0.5;
  int i = 0;
  for (double rx : {-0.5, 0.5}) {
    for (double ry : {-0.5, 0.5}) {  // point velocity v + w x r, by component
      Jn.row(i) << 0, 0, 1, ry, -rx, 0;
      t1.row(i) << 1, 0, 0, 0, rz, -ry;
      t2.row(i) << 0, 1, 0, -rz, 0, rx;
      ++i;
    }
  }
  VectorXd v(6);
  v << 0.4, -0.2, -1.0, 0.3, -0.2, 0.5;
  return impact::ImpactProblem(M, Jn, FrictionRows(t1, t2, k), VectorXd::Constant(4, 0.6), v, k);
}

// Eight contacts on a random 12-dof system: M = R R^T + I, random unit normals and tangents,
// every contact approaching at speed 1 (v- = -Jn^+ 1).
impact::ImpactProblem RandomEightContacts(int k) {
  sampling::UniformStream u(5, 0);
  auto random = [&](Eigen::Index r, Eigen::Index c) {
    MatrixXd X(r, c);
    for (Eigen::Index j = 0; j < c; ++j)
      for (Eigen::Index i = 0; i < r; ++i) X(i, j) = 2 * u.Next() - 1;
    return X;
  };
  const int n = 12, m = 8;
  const MatrixXd R = random(n, n);
  const MatrixXd M = R * R.transpose() + MatrixXd::Identity(n, n);
  const MatrixXd Jn = random(m, n), t1 = random(m, n), t2 = random(m, n);
  const VectorXd v = -Jn.completeOrthogonalDecomposition().solve(VectorXd::Ones(m));
  return impact::ImpactProblem(M, Jn, FrictionRows(t1, t2, k), VectorXd::Constant(m, 0.5), v, k);
}

// The 4x4 Anitescu-Potra LCP of one rocking-block corner, at pre-impact velocities with random
// normal approach speed and slip (both sticking and sliding impacts occur).
Bank SingleContactBank(size_t count) {
  const auto lp = Load("rocking-block");
  const auto& p = lp.problem;
  const impact::ImpactProblem one(p.M(), p.Jn().topRows(1), p.D().topRows(2), p.mu().head(1),
                                  p.v_minus(), 2);
  Bank b;
  b.W = impact::AnitescuPotraMatrix(one);
  sampling::UniformStream u(11, 0);
  for (size_t i = 0; i < count; ++i) {
    VectorXd v(3);
    v << 2 * u.Next() - 1, -0.1 - u.Next(), 2 * u.Next() - 1;
    b.q.push_back(impact::AnitescuPotraVector(one, v));
  }
  return b;
}

// Algorithm 1's random selection: covering vector and column order drawn per solve, from a
// stream fixed per bank entry so that every run solves the same problems.
struct Drawn {
  std::vector<VectorXd> covering;
  std::vector<std::vector<int>> order;
};

Drawn DrawCoverings(const Bank& bank) {
  Drawn d;
  for (size_t i = 0; i < bank.q.size(); ++i) {
    sampling::UniformStream u(13, i);
    const Eigen::Index n = bank.W.rows();
    VectorXd c(n);
    for (Eigen::Index j = 0; j < n; ++j) c(j) = std::exp(10.0 * u.Next() - 5.0);
    std::vector<int> order(static_cast<size_t>(n));
    for (size_t j = 0; j < order.size(); ++j) order[j] = static_cast<int>(j);
    for (size_t j = order.size(); j > 1; --j)
      std::swap(order[j - 1], order[std::min(j - 1, static_cast<size_t>(u.Next() * j))]);
    d.covering.push_back(c);
    d.order.push_back(order);
  }
  return d;
}

// One solve of bank entry i by `solver` (native, native-drawn, native-warm or siconos).
struct Solving {
  Solving(const Bank& b, const std::string& solver)
      : bank(b),
        warm(solver == "native-warm"),
        drawn(warm || solver == "native-drawn"),
        s(lcp::MakeSolver(drawn ? "native" : solver)),
        lemke(dynamic_cast<lcp::LemkeSolver*>(s.get())),
        d(drawn ? DrawCoverings(b) : Drawn{}),
        z(b.W.rows()) {
    if (warm) Learn();
  }
  lcp::SolveInfo Solve(size_t i) {
    if (warm) {  // the second half only: the table learned nothing from it
      const size_t half = bank.q.size() / 2;
      return SolveWarm(half + i % (bank.q.size() - half));
    }
    return drawn ? lemke->SolveWithCovering(bank.W, bank.q[i], d.covering[i], &z, &d.order[i])
                 : s->Solve(bank.W, bank.q[i], &z);
  }

  // The table from the first half of the bank, as the sampler's pilot builds it.
  void Learn() {
    int previous = impact::StepBasisTable::kFirstStep;
    for (size_t i = 0; i < bank.q.size() / 2; ++i) {
      if (!bank.first.empty() && bank.first[i]) previous = impact::StepBasisTable::kFirstStep;
      const bool ok =
          lemke->SolveWithCovering(bank.W, bank.q[i], d.covering[i], &z, &d.order[i]).ok();
      if (!ok || !lemke->FinalBasis(&basis)) {
        previous = impact::StepBasisTable::kUnknown;
        continue;
      }
      const int id = table.Intern(basis);
      if (previous != impact::StepBasisTable::kUnknown) table.Record(previous, id);
      previous = id;
    }
    table.Finish(bank.W);
  }

  // The successors of the previous entry's basis, then the drawn path (pivots 0 on a hit).
  lcp::SolveInfo SolveWarm(size_t i) {
    if (!bank.first.empty() && bank.first[i]) previous = impact::StepBasisTable::kFirstStep;
    for (const int id : table.Successors(previous)) {
      ++tries;
      const lcp::Residual r =
          table.Basis(id).Try(bank.W, bank.q[i], &z, 1e-9, lcp::kRestoreAbove, &work);
      if (!lcp::IsSolution(r, lcp::kAcceptTolerance)) continue;
      previous = id;
      ++hits;
      lcp::SolveInfo info;
      info.status = lcp::Status::kSolved;
      info.residual = r;
      return info;
    }
    const lcp::SolveInfo info =
        lemke->SolveWithCovering(bank.W, bank.q[i], d.covering[i], &z, &d.order[i]);
    previous =
        info.ok() && lemke->FinalBasis(&basis) ? table.Id(basis) : impact::StepBasisTable::kUnknown;
    return info;
  }

  const Bank& bank;
  bool warm;
  bool drawn;
  std::unique_ptr<lcp::Solver> s;
  lcp::LemkeSolver* lemke;
  Drawn d;
  VectorXd z;
  impact::StepBasisTable table;
  lcp::KnownBasis::Workspace work;
  std::vector<int> basis;
  int previous = impact::StepBasisTable::kFirstStep;
  long hits = 0;
  long tries = 0;
};

void Run(benchmark::State& state, const Bank& bank, const std::string& solver) {
  Solving sv(bank, solver);
  size_t i = 0, failures = 0;
  long pivots = 0;
  for (auto _ : state) {
    const lcp::SolveInfo info = sv.Solve(i);
    failures += !info.ok();
    pivots += info.pivots;
    benchmark::DoNotOptimize(sv.z.data());
    if (++i == bank.q.size()) i = 0;
  }
  state.counters["failures"] = static_cast<double>(failures);
  if (sv.warm) {
    state.counters["warm"] =
        benchmark::Counter(static_cast<double>(sv.hits), benchmark::Counter::kAvgIterations);
    state.counters["tries"] =
        benchmark::Counter(static_cast<double>(sv.tries), benchmark::Counter::kAvgIterations);
  }
  state.counters["pivots/solve"] =
      benchmark::Counter(static_cast<double>(pivots), benchmark::Counter::kAvgIterations);
}

// Exactly `count` solves, round robin: run under callgrind with --toggle-collect='*SolveMany*'
// for instructions per solve (bench/README.md).
__attribute__((noinline)) long SolveMany(Solving& sv, long count, long* by_status) {
  long failures = 0;
  for (long k = 0; k < count; ++k) {
    const lcp::SolveInfo info = sv.Solve(static_cast<size_t>(k) % sv.bank.q.size());
    failures += !info.ok();
    ++by_status[static_cast<int>(info.status)];
  }
  return failures;
}

const Bank& GetBank(const std::string& size) {
  static const std::pair<const char*, Bank (*)()> makers[] = {
      {"4", [] { return SingleContactBank(1024); }},
      {"10", [] { return RouthBank("rocking-block", 4096); }},
      {"10c", [] { return RouthBank("compass-gait", 4096); }},
      {"25", [] { return RouthBank("disk-stack", 4096); }},
      {"28", [] { return RouthBank(Cube(4), 0.1, 40, 4096); }},
      {"44", [] { return RouthBank(Cube(8), 0.1, 40, 4096); }},
      {"56", [] { return RouthBank(RandomEightContacts(4), 0.1, 60, 4096); }},
      {"88", [] { return RouthBank(RandomEightContacts(8), 0.1, 60, 4096); }}};
  static std::vector<std::pair<std::string, std::unique_ptr<Bank>>> built;
  for (auto& [name, bank] : built) {
    if (name == size) return *bank;
  }
  for (const auto& [name, make] : makers) {
    if (size == name) {
      built.emplace_back(size, std::make_unique<Bank>(make()));
      return *built.back().second;
    }
  }
  throw std::invalid_argument("unknown bank " + size);
}

}  // namespace

// `bench_lcp --count=SOLVER/SIZE:N` (e.g. native/10:100000) runs N solves and prints the
// failures; anything else goes to Google Benchmark.
int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]).rfind("--count=", 0) == 0) {
    const std::string arg = std::string(argv[1]).substr(8);
    const size_t slash = arg.find('/'), colon = arg.find(':');
    Solving sv(GetBank(arg.substr(slash + 1, colon - slash - 1)), arg.substr(0, slash));
    const long n = std::stol(arg.substr(colon + 1));
    long by_status[6] = {};
    const long failures = SolveMany(sv, n, by_status);
    std::printf("%s: %ld solves, %ld failures (", arg.c_str(), n, failures);
    for (int st = 1; st < 6; ++st) {
      if (by_status[st] == 0) continue;
      const auto name = lcp::ToString(static_cast<lcp::Status>(st));
      std::printf(" %.*s %ld", static_cast<int>(name.size()), name.data(), by_status[st]);
    }
    std::printf(" )\n");
    return 0;
  }
  const char* sizes[] = {"4", "10", "10c", "25", "28", "44", "56", "88"};
  for (const char* solver : {"native", "native-drawn", "native-warm", "siconos"}) {
    for (const char* size : sizes) {
      const std::string name = std::string("lcp/") + solver + "/" + size;
      benchmark::RegisterBenchmark(
          name.c_str(), [size, solver](benchmark::State& st) { Run(st, GetBank(size), solver); });
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
