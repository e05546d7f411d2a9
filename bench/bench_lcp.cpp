// bench_lcp: ns per LCP solve, native Lemke against the Siconos driver on the same inputs.
// Sizes: 4 (one planar contact, Anitescu-Potra LCP), 10 (two-contact Routh step, rocking block),
// 25 (five-contact Routh step, disk stack). Each input bank holds step LCPs that Algorithm 1
// really visits (recorded from iid samples), so pivot counts are the realistic ones.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "impact/algorithm1.hpp"
#include "impact/impact_lcps.hpp"
#include "lcp/fallback.hpp"
#include "sampling/streams.hpp"
#include "systems/matrix_input.hpp"

using namespace impactset;

namespace {

struct Bank {
  MatrixXd W;
  std::vector<VectorXd> q;
};

// Records every step LCP's q while delegating the solve to the chain.
class Recorder final : public lcp::Solver {
 public:
  explicit Recorder(std::vector<VectorXd>* out) : out_(out) {}
  lcp::SolverId id() const override { return lcp::SolverId::kChain; }
  lcp::SolveInfo Solve(const MatrixRef& M, const VectorRef& q, VectorXd* z) override {
    out_->push_back(q);
    return chain_.Solve(M, q, z);
  }

 private:
  std::vector<VectorXd>* out_;
  lcp::FallbackSolver chain_;
};

systems::LoadedProblem Load(const char* name) {
  return systems::LoadProblemJson(std::string(IMPACTSET_PROBLEMS_DIR "/") + name + ".json");
}

Bank RouthBank(const char* name, size_t count) {
  const auto lp = Load(name);
  impact::Algorithm1Options o;
  o.step = *lp.settings.step;
  o.max_steps = *lp.settings.max_steps;
  o.selection = impact::Selection::kFirst;  // one recorded LCP per step
  Bank b;
  Recorder rec(&b.q);
  impact::RouthSampler sampler(lp.problem, o, &rec);
  for (std::uint64_t i = 0; b.q.size() < count; ++i) {
    sampling::IidPSource src(7, i);
    sampler.Run(src);
  }
  b.W = sampler.StepMatrix();
  return b;
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

void Run(benchmark::State& state, const Bank& bank, const char* solver) {
  std::unique_ptr<lcp::Solver> s = lcp::MakeSolver(solver);
  VectorXd z(bank.W.rows());
  size_t i = 0, failures = 0;
  long pivots = 0;
  for (auto _ : state) {
    const lcp::SolveInfo info = s->Solve(bank.W, bank.q[i], &z);
    failures += !info.ok();
    pivots += info.pivots;
    benchmark::DoNotOptimize(z.data());
    if (++i == bank.q.size()) i = 0;
  }
  state.counters["failures"] = static_cast<double>(failures);
  state.counters["pivots/solve"] =
      benchmark::Counter(static_cast<double>(pivots), benchmark::Counter::kAvgIterations);
}

}  // namespace

int main(int argc, char** argv) {
  static const Bank b4 = SingleContactBank(1024);
  static const Bank b10 = RouthBank("rocking-block", 4096);
  static const Bank b25 = RouthBank("disk-stack", 4096);
  for (const char* solver : {"native", "siconos"}) {
    for (const auto& [size, bank] : {std::pair{4, &b4}, {10, &b10}, {25, &b25}}) {
      const std::string name = std::string("lcp/") + solver + "/" + std::to_string(size);
      const Bank* bk = bank;
      benchmark::RegisterBenchmark(name.c_str(),
                                   [bk, solver](benchmark::State& st) { Run(st, *bk, solver); });
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
