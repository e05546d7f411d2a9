#include <impactset/sampling/basis_pilot.hpp>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include <impactset/sampling/sampler.hpp>
#include <impactset/sampling/streams.hpp>

namespace impactset::sampling {
namespace {

// Interns every step's basis into each table and records it after the previous step's; counts
// the steps and the warm starts.
class TableLearner final : public impact::StepObserver {
 public:
  explicit TableLearner(std::vector<impact::StepBasisTable*> tables)
      : tables_(std::move(tables)), previous_(tables_.size()) {}
  void OnStep(const impact::StepRecord& r) override {
    ++steps;
    checks.emplace_back(r.checks.begin(), r.checks.end());
    for (const auto& [id, differ] : r.checks) {
      if (differ) differs.insert(id);
    }
    for (size_t t = 0; t < tables_.size(); ++t) {
      int& previous = previous_[t];
      if (r.step == 0) previous = impact::StepBasisTable::kFirstStep;
      if (!r.has_basis) {
        previous = impact::StepBasisTable::kUnknown;
        continue;
      }
      const int id = tables_[t]->Intern(r.basis);
      if (previous != impact::StepBasisTable::kUnknown) tables_[t]->Record(previous, id);
      previous = id;
    }
  }
  long long steps = 0;
  std::vector<std::vector<std::pair<int, bool>>> checks;  // by step
  std::set<int> differs;  // table ids whose answer differed from the selection's on some step

 private:
  std::vector<impact::StepBasisTable*> tables_;
  std::vector<int> previous_;
};

}  // namespace

long long BasisPilotSamples(long long samples) {
  const long long p = std::min(kBasisPilotMax, samples / 8);
  return p < kBasisPilotMin ? 0 : p;
}

void RunMixedSamples(impact::RouthSampler& sampler,
                     std::uint64_t seed,
                     long long first,
                     long long end) {
  const impact::ImpactProblem& problem = sampler.problem();
  for (long long k = first; k < end; ++k) {
    const auto i = static_cast<std::uint64_t>(k);
    SampleChoices choices(seed, i);
    if (i & 1U) {
      OrderedPSource src(seed, i, problem.m(), sampler.options().max_steps);
      sampler.Run(src, &choices);
    } else {
      IidPSource src(seed, i);
      sampler.Run(src, &choices);
    }
  }
}

impact::StepBasisTable LearnStepBases(const impact::ImpactProblem& problem,
                                      const impact::Algorithm1Options& algorithm,
                                      lcp::SolverKind solver,
                                      std::uint64_t seed,
                                      long long pilot) {
  impact::Algorithm1Options o = algorithm;
  o.warm_start = true;
  o.keep_trajectory = false;
  const std::unique_ptr<lcp::Solver> s = lcp::MakeSolver(solver, o.lemke);
  impact::RouthSampler sampler(problem, o, s.get());
  // The first half learns a table. The second half verifies it: each step a table basis solves
  // is solved by the selection too; a basis whose answer differed on some step (a non-unique
  // step it would decide otherwise) is removed. A table that answers too few of the second
  // half's steps alike costs more in tries than it saves.
  impact::StepBasisTable table;
  TableLearner learner({&table});
  sampler.SetStepObserver(&learner);
  RunMixedSamples(sampler, seed, 0, pilot / 2);
  table.Finish(sampler.StepMatrix());
  TableLearner trial({});
  sampler.SetStepObserver(&trial);
  sampler.SetBasisTable(&table, /*verify=*/true);
  RunMixedSamples(sampler, seed, pilot / 2, pilot);
  long long answered = 0;  // steps some kept basis solves
  for (const auto& step : trial.checks) {
    answered += std::any_of(step.begin(), step.end(),
                            [&](const auto& c) { return !trial.differs.count(c.first); });
  }
  for (const int id : trial.differs) table.Remove(id);
  if (static_cast<double>(answered) < kMinPilotWarmShare * static_cast<double>(trial.steps)) {
    return {};
  }
  return table;
}

std::shared_ptr<const impact::StepBasisTable> LearnRunStepBases(
    const impact::ImpactProblem& problem, const SamplerOptions& options) {
  const long long pilot = BasisPilotSamples(options.samples);
  if (!options.algorithm.warm_start || options.algorithm.detect_non_unique || pilot == 0) {
    return nullptr;
  }
  return std::make_shared<const impact::StepBasisTable>(
      LearnStepBases(problem, options.algorithm, options.solver, kBasisPilotSeed, pilot));
}

}  // namespace impactset::sampling
