// impact_family: the random impact-problem family of bench/random_family.hpp sampled as a user's
// run samples it (h and N from the default step rule, engine::ScaledRunOptions; the default mixed
// design, or iid with --iid; random selection, the fallback chain), reporting per problem class:
// LCP failures, step-capped samples, fallbacks by link, the worst accepted residual, terminated
// samples that gained energy or still approach (none can: the end-state check makes them
// non_physical), non-physical samples and jammed problems (impact/jam.hpp).
// Usage: impact_family [--problems 3000] [--samples 128] [--k 4] [--seed 1] [--threads 2]
//                      [--dump DIR] [--list] [--only P] [--trace] [--jammed] [--iid]
// --dump writes each failing step LCP as DIR/fail-<problem>-<sample>.txt (n, M, q);
// --list prints every problem with a failure or a capped sample; --only P runs problem P alone;
// --jammed draws more contacts than velocities (family::Shape::kJammed);
// --trace prints, for each sample, min (Jn v) and the kinetic energy after every step.
// Exit status 1 when some sample failed, exceeded 0.1 % capped, gained energy or ended approaching.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <impactset/engine/step_scaling.hpp>
#include <impactset/impact/algorithm1.hpp>
#include <impactset/impact/impact_lcps.hpp>
#include <impactset/impact/jam.hpp>
#include <impactset/lcp/extended_lemke.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/lcp/internal/equilibrate.hpp>
#include <impactset/lcp/proximal_lemke.hpp>
#include <impactset/sampling/streams.hpp>
#include "bench/random_family.hpp"

using namespace impactset;

namespace {

// Energy may grow by roundoff only; a contact "still approaches" beyond the termination tolerance.
constexpr double kEnergyGainTolerance = 1e-9;

struct Tally {
  long long problems = 0, samples = 0, failures = 0, failing_problems = 0, capped = 0;
  long long capped_problems = 0, energy_gains = 0, approaching = 0, solves = 0, steps = 0;
  long long non_physical = 0, jammed_problems = 0;
  std::string first_non_physical;  // CheckReport::Describe of the first non-physical sample
  lcp::FallbackCounters chain;
  double worst_residual = 0, worst_energy_ratio = 0;
  void Add(const Tally& o) {
    problems += o.problems, samples += o.samples, failures += o.failures;
    failing_problems += o.failing_problems, capped += o.capped;
    capped_problems += o.capped_problems, energy_gains += o.energy_gains;
    approaching += o.approaching, solves += o.solves, steps += o.steps;
    non_physical += o.non_physical, jammed_problems += o.jammed_problems;
    chain.Add(o.chain);
    worst_residual = std::max(worst_residual, o.worst_residual);
    worst_energy_ratio = std::max(worst_energy_ratio, o.worst_energy_ratio);
  }
};

struct Args {
  int problems = 3000, samples = 128, k = 4, threads = 2;
  unsigned long long seed = 1;
  int max_steps = 0;  // 0: the step rule's N
  bool diagnose = false;
  std::string dump;
  bool list = false;
  int only = -1;
  bool trace = false;
  family::Shape shape = family::Shape::kDefault;
  bool iid = false;  // every sample iid (the design before the mixed default)
};

void Dump(const std::string& dir, int problem, int sample, const impact::RouthSampler& s) {
  const std::string path =
      dir + "/fail-" + std::to_string(problem) + "-" + std::to_string(sample) + ".txt";
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return;
  const MatrixXd& W = s.StepMatrix();
  const VectorXd& w = s.StepVector();
  std::fprintf(f, "%d\n", static_cast<int>(w.size()));
  for (Eigen::Index i = 0; i < W.rows(); ++i) {
    for (Eigen::Index j = 0; j < W.cols(); ++j) std::fprintf(f, "%.17g ", W(i, j));
    std::fprintf(f, "\n");
  }
  for (Eigen::Index i = 0; i < w.size(); ++i) std::fprintf(f, "%.17g ", w(i));
  std::fprintf(f, "\n");
  std::fclose(f);
}

// Every link of the chain alone on a step LCP the chain gave up on: status and residual of each.
std::string Diagnose(const MatrixXd& W, const VectorXd& w) {
  std::string out;
  char buf[160];
  auto run = [&](const char* name, lcp::Solver& s) {
    if (std::string(name) == "enum" && w.size() > 20) return;
    VectorXd z;
    const lcp::SolveInfo i = s.Solve(W, w, &z);
    // The residual's floor in double: roundoff of w = M z + q, relative to the residual's scale.
    double floor = 0;
    if (z.size() == w.size() && z.allFinite()) {
      const VectorXd terms = W.cwiseAbs() * z.cwiseAbs() + w.cwiseAbs();
      floor = 1.1e-16 * static_cast<double>(w.size()) * terms.maxCoeff() /
              std::max(1.0, w.cwiseAbs().maxCoeff());
    }
    std::snprintf(buf, sizeof buf, " %s:%s(%d,%.0e,floor %.0e)", name,
                  std::string(ToString(i.status)).c_str(), i.pivots, i.residual.Worst(), floor);
    out += buf;
  };
  lcp::LemkeSolver native;
  run("native", native);
  for (double c : {1.0, 0.5, 3.0}) {
    lcp::LemkeSolver alt({.covering_perturbation = c});
    run("alt", alt);
  }
  lcp::SiconosLemkeSolver siconos;
  run("siconos", siconos);
  lcp::EnumerationSolver enumeration;
  run("enum", enumeration);
  lcp::ProximalLemkeSolver proximal;
  run("proximal", proximal);
  lcp::ExtendedLemkeSolver extended;
  run("extended", extended);
  lcp::ExtendedLemkeSolver unscaled({.equilibrate = false});
  run("ext-unscaled", unscaled);
  // The native Lemke in double on the equilibrated LCP, scaled as the later links scale it.
  MatrixXd S = W;
  VectorXd r(w.size()), c(w.size());
  lcp::internal::EquilibrateByPowersOfTwo(S.data(), static_cast<int>(w.size()),
                                          lcp::internal::kRuizSweeps, r.data(), c.data());
  const VectorXd sq = r.cwiseProduct(w);
  VectorXd y;
  lcp::LemkeSolver scaled_native;
  const lcp::SolveInfo si = scaled_native.Solve(S, sq, &y);
  const VectorXd zz = c.cwiseProduct(y);
  std::snprintf(buf, sizeof buf, " eqnative:%s(%.0e)", std::string(ToString(si.status)).c_str(),
                lcp::ComputeResidual(W, w, zz).Worst());
  out += buf;
  return out;
}

void Trace(const impact::ImpactProblem& p, int sample, const impact::SampleResult& r) {
  std::printf("sample %d: %s after %d solves\n", sample, ToString(r.status), r.lcp_solves);
  for (size_t k = 0; k < r.trajectory.size(); ++k) {
    const VectorXd& v = r.trajectory[k];
    std::printf("  step %3zu min(Jn v) %+.3e KE %.6e\n", k, (p.Jn() * v).minCoeff(),
                p.KineticEnergy(v));
  }
}

// Samples 0..samples-1 of one problem exactly as sampling::RunSampler's iid design runs them.
Tally RunProblem(const family::FamilyProblem& fp,
                 const Args& a,
                 std::string* line,
                 std::vector<int>* steps) {
  const impact::ImpactProblem& p = fp.problem;
  engine::RunOptions o =
      engine::ScaledRunOptions(p, {.samples = a.samples, .scale_missing_steps = true});
  if (a.max_steps > 0) o.sampler.algorithm.max_steps = a.max_steps;
  o.sampler.algorithm.keep_trajectory = a.trace;
  if (a.trace) std::printf("problem %d: %s\n", fp.index, o.step_rule.c_str());
  if (a.diagnose && o.step_rule.find("defaults") != std::string::npos) {
    const MatrixXd W = impact::AnitescuPotraMatrix(p);
    const VectorXd w = impact::AnitescuPotraVector(p, p.v_minus());
    std::printf("diag-ap problem %d size %d:%s\n", fp.index, static_cast<int>(w.size()),
                Diagnose(W, w).c_str());
  }
  lcp::FallbackOptions chain;
  chain.native = o.sampler.algorithm.lemke;
  lcp::FallbackSolver solver(chain);
  impact::RouthSampler sampler(p, o.sampler.algorithm, &solver);
  Tally t;
  t.problems = 1;
  for (int i = 0; i < a.samples; ++i) {
    // The default (mixed) design: even samples iid, odd samples ordered (sampling/sampler.hpp).
    sampling::IidPSource iid(o.sampler.seed, i);
    sampling::OrderedPSource ordered(o.sampler.seed, i, p.m(), o.sampler.algorithm.max_steps);
    impact::PSource& src = i % 2 == 0 || a.iid ? static_cast<impact::PSource&>(iid) : ordered;
    sampling::SampleChoices choices(o.sampler.seed, i);
    const impact::SampleResult& r = sampler.Run(src, &choices);
    ++t.samples;
    t.steps += r.lcp_solves;
    if (steps) steps->push_back(r.lcp_solves);
    if (a.trace) Trace(p, i, r);
    if (r.status == impact::SampleStatus::kLcpFailure) {
      ++t.failures;
      if (!a.dump.empty()) Dump(a.dump, fp.index, i, sampler);
      if (a.diagnose) {
        std::printf("diag problem %d sample %d size %d:%s\n", fp.index, i,
                    static_cast<int>(sampler.StepVector().size()),
                    Diagnose(sampler.StepMatrix(), sampler.StepVector()).c_str());
      }
      continue;
    }
    t.worst_residual = std::max(t.worst_residual, r.worst_residual);
    if (r.status == impact::SampleStatus::kStepCap) {
      ++t.capped;
      continue;
    }
    // Kept out of every set by the end-state check: counted, and not a terminated sample.
    if (r.status == impact::SampleStatus::kNonPhysical) {
      if (t.non_physical++ == 0) t.first_non_physical = r.outcome.Describe();
      continue;
    }
    if (r.energy_ratio > 1 + kEnergyGainTolerance) ++t.energy_gains;
    t.worst_energy_ratio = std::max(t.worst_energy_ratio, r.energy_ratio);
    if ((p.Jn() * r.v_plus).minCoeff() < -o.sampler.algorithm.termination_tolerance) {
      ++t.approaching;
    }
  }
  t.chain = solver.counters();
  t.solves = t.chain.solves;
  t.failing_problems = t.failures > 0;
  t.jammed_problems = impact::DetectJam(p).jammed;
  t.capped_problems = t.capped > 0;
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "problem %5d %-8s n=%2d m=%2d %s %-9s %-14s cond=%.1e h=%.3g N=%d: fail %lld "
                "capped %lld fallbacks %lld two-part %lld worst %.1e egain %lld (KE+/KE- %.3g) "
                "nphys %lld%s%s",
                fp.index, fp.Geometry().c_str(), p.n(), p.m(), fp.dependent ? "dep  " : "indep",
                ToString(fp.mu_class), fp.ConditionClass().c_str(), fp.condition,
                o.sampler.algorithm.step, o.sampler.algorithm.max_steps, t.failures, t.capped,
                t.chain.solves - t.chain.SolvedBy(lcp::SolverId::kNative), t.chain.two_part,
                t.worst_residual, t.energy_gains, t.worst_energy_ratio, t.non_physical,
                t.non_physical ? ": " : "", t.first_non_physical.c_str());
  *line = buf;
  return t;
}

void PrintRow(const std::string& name, const Tally& t) {
  const auto& c = t.chain;
  std::printf(
      "%-16s %6lld %7lld %6lld %5lld %7lld %6.3f%% %8lld %7lld %6lld %7lld %6lld %6lld %6lld "
      "%8.1e %5lld %5lld %5lld %5lld\n",
      name.c_str(), t.problems, t.samples, t.failures, t.failing_problems, t.capped,
      t.samples ? 100.0 * t.capped / t.samples : 0.0, c.solves, c.SolvedBy(lcp::SolverId::kNative),
      c.SolvedBy(lcp::SolverId::kNativeAlt), c.SolvedBy(lcp::SolverId::kSiconos),
      c.SolvedBy(lcp::SolverId::kProximal), c.SolvedBy(lcp::SolverId::kExtended),
      c.SolvedBy(lcp::SolverId::kEnumeration), t.worst_residual, t.energy_gains, t.approaching,
      t.non_physical, t.jammed_problems);
}

Args Parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (s == "--problems")
      a.problems = std::atoi(next().c_str());
    else if (s == "--samples")
      a.samples = std::atoi(next().c_str());
    else if (s == "--k")
      a.k = std::atoi(next().c_str());
    else if (s == "--seed")
      a.seed = std::strtoull(next().c_str(), nullptr, 10);
    else if (s == "--threads")
      a.threads = std::max(1, std::atoi(next().c_str()));
    else if (s == "--dump")
      a.dump = next();
    else if (s == "--max-steps")
      a.max_steps = std::atoi(next().c_str());
    else if (s == "--list")
      a.list = true;
    else if (s == "--diagnose")
      a.diagnose = true;
    else if (s == "--only")
      a.only = std::atoi(next().c_str());
    else if (s == "--trace")
      a.trace = true;
    else if (s == "--iid")
      a.iid = true;
    else if (s == "--jammed")
      a.shape = family::Shape::kJammed;
    else {
      std::fprintf(stderr, "impact_family: unknown argument %s\n", s.c_str());
      std::exit(2);
    }
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = Parse(argc, argv);
  std::map<std::string, Tally> classes;
  Tally all;
  std::vector<int> all_steps, problem_max_steps;
  std::mutex mu;
  std::atomic<int> next{0};
  auto work = [&] {
    for (int i; (i = next++) < a.problems;) {
      if (a.only >= 0 && i != a.only) continue;
      const family::FamilyProblem fp = family::DrawProblem(a.seed, i, a.k, a.shape);
      std::string line;
      std::vector<int> steps;
      const Tally t = RunProblem(fp, a, &line, &steps);
      std::lock_guard<std::mutex> lock(mu);
      all_steps.insert(all_steps.end(), steps.begin(), steps.end());
      problem_max_steps.push_back(*std::max_element(steps.begin(), steps.end()));
      all.Add(t);
      for (const std::string& c :
           {fp.Geometry(), std::string(fp.dependent ? "dependent" : "independent"),
            std::string(ToString(fp.mu_class)), fp.ConditionClass()}) {
        classes[c].Add(t);
      }
      if (a.list && (t.failures > 0 || t.capped > 0 || t.energy_gains > 0 || t.non_physical > 0))
        std::printf("%s\n", line.c_str());
    }
  };
  std::vector<std::thread> pool;
  for (int i = 0; i < a.threads; ++i) pool.emplace_back(work);
  for (std::thread& t : pool) t.join();
  std::printf("family seed %llu, %d problems x %d samples, spatial k = %d\n", a.seed, a.problems,
              a.samples, a.k);
  std::printf("%-16s %6s %7s %6s %5s %7s %7s %8s %7s %6s %7s %6s %6s %6s %8s %5s %5s %5s %5s\n",
              "class", "probs", "samples", "fail", "fprob", "capped", "cap%", "solves", "native",
              "alt", "siconos", "prox", "ext", "enum", "worst", "egain", "appr", "nphys", "jam");
  for (const auto& [name, t] : classes) PrintRow(name, t);
  PrintRow("all", all);
  std::sort(all_steps.begin(), all_steps.end());
  std::sort(problem_max_steps.begin(), problem_max_steps.end());
  auto quantile = [](const std::vector<int>& v, double f) {
    return v.empty() ? 0 : v[std::min(v.size() - 1, static_cast<size_t>(f * v.size()))];
  };
  std::printf(
      "solves per sample: median %d, 99%% %d, 99.9%% %d, max %d; per problem max: "
      "median %d, 99%% %d\n",
      quantile(all_steps, 0.5), quantile(all_steps, 0.99), quantile(all_steps, 0.999),
      all_steps.empty() ? 0 : all_steps.back(), quantile(problem_max_steps, 0.5),
      quantile(problem_max_steps, 0.99));
  std::printf("answers in two parts (extended link, lcp::SolveInfo::low_part): %lld\n",
              all.chain.two_part);
  const bool bad = all.failures > 0 || all.capped > 0.001 * all.samples || all.energy_gains > 0 ||
                   all.approaching > 0 || all.non_physical > 0;
  return bad ? 1 : 0;
}
