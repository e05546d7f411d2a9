#include <impactset/sampling/lcp_census.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include <impactset/sampling/basis_pilot.hpp>
#include <impactset/sampling/streams.hpp>

namespace impactset::sampling {

LcpCensus RunLcpCensus(const impact::ImpactProblem& problem,
                       const impact::Algorithm1Options& options,
                       std::uint64_t seed,
                       long long min_solves) {
  lcp::FallbackOptions chain_options;
  chain_options.native = options.lemke;
  lcp::FallbackSolver chain(chain_options);
  impact::Algorithm1Options o = options;
  o.selection = impact::Selection::kFirst;  // count the chain's own answers, one per step
  impact::RouthSampler sampler(problem, o, &chain);
  LcpCensus c;
  for (long long i = 0; chain.counters().solves < min_solves; ++i) {
    IidPSource source(seed, static_cast<std::uint64_t>(i));
    const impact::SampleResult& r = sampler.Run(source);
    ++c.samples;
    switch (r.status) {
      case impact::SampleStatus::kTerminated:
        ++c.terminated;
        break;
      case impact::SampleStatus::kStepCap:
        ++c.step_capped;
        break;
      case impact::SampleStatus::kLcpFailure:
        ++c.lcp_failures;
        break;
      case impact::SampleStatus::kNonPhysical:
        ++c.non_physical;
        break;
    }
    if (r.status != impact::SampleStatus::kLcpFailure) {
      c.worst_residual = std::max(c.worst_residual, r.worst_residual);
    }
    if (r.lcp_solves == 0) break;  // v- is not colliding: no step LCP to count
  }
  c.chain = chain.counters();
  return c;
}

namespace {

// Every step's basis, pivots and warm hits.
class BasisLog final : public impact::StepObserver {
 public:
  void OnStep(const impact::StepRecord& r) override {
    ++steps;
    if (r.step > 0) ++later;
    pivots += r.pivots;
    if (r.warm) ++hits;
    if (r.has_basis) {
      ++known;
      ++count[std::vector<int>(r.basis.begin(), r.basis.end())];
    }
  }
  long long steps = 0, later = 0, pivots = 0, hits = 0, known = 0;
  std::map<std::vector<int>, long long> count;
};

// Share of the steps that the `top` most frequent bases end.
double TopShare(const std::map<std::vector<int>, long long>& count, size_t top, long long steps) {
  std::vector<long long> c;
  for (const auto& [key, n] : count) c.push_back(n);
  std::sort(c.rbegin(), c.rend());
  long long in = 0;
  for (size_t j = 0; j < c.size() && j < top; ++j) in += c[j];
  return steps > 0 ? static_cast<double>(in) / static_cast<double>(steps) : 0.0;
}

// Samples [first, end) of the mixed design with the warm start as `o` says and that table.
BasisLog Pass(const impact::ImpactProblem& problem,
              const impact::Algorithm1Options& o,
              const impact::StepBasisTable* table,
              std::uint64_t seed,
              long long first,
              long long end) {
  const std::unique_ptr<lcp::Solver> chain = lcp::MakeSolver(lcp::SolverKind::kChain, o.lemke);
  impact::RouthSampler sampler(problem, o, chain.get());
  sampler.SetBasisTable(table);
  BasisLog log;
  sampler.SetStepObserver(&log);
  RunMixedSamples(sampler, seed, first, end);
  return log;
}

}  // namespace

BasisCensus RunBasisCensus(const impact::ImpactProblem& problem,
                           const impact::Algorithm1Options& options,
                           std::uint64_t seed,
                           long long samples) {
  BasisCensus c;
  c.samples = samples;
  c.pilot = BasisPilotSamples(samples);
  impact::Algorithm1Options o = options;
  o.warm_start = false;
  const BasisLog cold = Pass(problem, o, nullptr, seed, c.pilot, samples);
  c.steps = cold.steps;
  c.later_steps = cold.later;
  c.known_bases = cold.known;
  c.pivots_cold = cold.pivots;
  c.distinct = static_cast<long long>(cold.count.size());
  c.top1 = TopShare(cold.count, 1, c.steps);
  c.top4 = TopShare(cold.count, 4, c.steps);
  c.top16 = TopShare(cold.count, 16, c.steps);
  o.warm_start = true;
  const impact::StepBasisTable table =
      LearnStepBases(problem, options, lcp::SolverKind::kChain, seed, c.pilot);
  c.table_bases = table.tried_bases();
  const BasisLog warm = Pass(problem, o, &table, seed, c.pilot, samples);
  c.table_hits = warm.hits;
  c.pivots_table = warm.pivots;
  return c;
}

}  // namespace impactset::sampling
