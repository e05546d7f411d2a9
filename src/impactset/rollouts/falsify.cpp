#include <impactset/rollouts/falsify.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include <impactset/common/error_policy.hpp>
#include <impactset/sampling/streams.hpp>

namespace impactset::rollouts {

namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();
// The search's spread per entry: it starts wide (about uniform on [0, 1] after clipping) and
// never collapses below kSpreadFloor, so a round always tries something new.
constexpr double kSpreadStart = 0.35;
constexpr double kSpreadFloor = 0.03;
// Keeps the search's stream apart from every rollout's (rollouts use Mix64(seed ^ Mix64(i))).
constexpr std::uint64_t kSearchStream = 0xfa151f1ed5eedULL;

// The column of the metric called `name`. @throws std::invalid_argument listing the metrics.
size_t MetricColumn(const RolloutOptions& rollout, const std::string& name) {
  const std::vector<std::string> names = MetricNames(rollout);
  std::string known;
  for (size_t j = 0; j < names.size(); ++j) {
    if (names[j] == name) return j;
    known += (known.empty() ? "" : ", ") + names[j];
  }
  InvalidArgument(
      "falsify", name,
      "names no metric of the rollouts (metrics: " + (known.empty() ? "none" : known) + ")");
}

// How bad a rollout is for the search: larger is worse; -infinity when it stopped early (no
// metric value: it cannot guide the search).
double Badness(const RolloutResult& r, size_t column, bool maximize) {
  if (r.status != RolloutStatus::kOk || std::isnan(r.metrics[column])) {
    return -std::numeric_limits<double>::infinity();
  }
  return maximize ? r.metrics[column] : -r.metrics[column];
}

// The rollouts of one side, round by round: the worst after each round.
struct Side {
  double worst = -std::numeric_limits<double>::infinity();
  long long not_ok = 0;
  std::vector<double> trace;
  // Adds a round; returns the position in it of the first rollout worse than all before, or -1.
  long long Add(const std::vector<RolloutResult>& round, size_t column, bool maximize) {
    long long found = -1;
    for (size_t k = 0; k < round.size(); ++k) {
      not_ok += round[k].status == RolloutStatus::kOk ? 0 : 1;
      const double b = Badness(round[k], column, maximize);
      if (b > worst) {
        worst = b;
        found = static_cast<long long>(k);
      }
    }
    trace.push_back(worst);
    return found;
  }
};

double Value(double badness, bool maximize) {
  if (!std::isfinite(badness)) return kNoValue;
  return maximize ? badness : -badness;
}

// Each genome as its events' entries, `block` each.
std::vector<std::vector<VectorXd>> Split(const std::vector<VectorXd>& genomes, Eigen::Index block) {
  std::vector<std::vector<VectorXd>> out;
  for (const VectorXd& g : genomes) {
    std::vector<VectorXd> events;
    for (Eigen::Index at = 0; at + block <= g.size(); at += block) {
      events.emplace_back(g.segment(at, block));
    }
    out.push_back(std::move(events));
  }
  return out;
}

// Round `round` of the iid comparison: rollouts round x population ... (as RunRollouts runs them).
std::vector<RolloutResult> IidRound(const robots::SimulationModel& model,
                                    const RolloutOptions& options,
                                    long long round,
                                    int population) {
  std::vector<long long> indices(static_cast<size_t>(population));
  std::iota(indices.begin(), indices.end(), round * population);
  return RunRolloutIndices(model, options, indices);
}

}  // namespace

void FalsifyOptions::Validate(const RolloutOptions& rollout) const {
  MetricColumn(rollout, metric);
  if (population < 4) InvalidArgument("population", population, "must be >= 4");
  if (budget < population) {
    InvalidArgument("budget", budget, "must be >= population (" + std::to_string(population) + ")");
  }
  if (!(elite_fraction > 0 && elite_fraction < 1)) {
    InvalidArgument("elite_fraction", elite_fraction, "must be in (0, 1)");
  }
  if (set_steps < 1) InvalidArgument("set_steps", set_steps, "must be >= 1");
  if (set_events < 1) InvalidArgument("set_events", set_events, "must be >= 1");
}

FalsifyResult FalsifyRollouts(const robots::SimulationModel& model,
                              const RolloutOptions& options,
                              const FalsifyOptions& falsify) {
  options.Validate(model);
  falsify.Validate(options);
  const size_t column = MetricColumn(options, falsify.metric);
  // The search's block per event is sized by the first event's contacts in rollout 0.
  std::vector<RolloutResult> drawn = IidRound(model, options, 0, falsify.population);
  const int m = std::max(1, drawn.front().first_event_contacts);
  const auto block = static_cast<Eigen::Index>(falsify.set_steps) * m;  // per event
  const Eigen::Index dims = block * falsify.set_events;
  const long long rounds = falsify.budget / falsify.population;
  const auto elite = std::max<size_t>(
      2, static_cast<size_t>(std::ceil(falsify.elite_fraction * falsify.population)));
  std::mt19937_64 rng(sampling::Mix64(options.seed ^ kSearchStream));
  std::normal_distribution<double> normal;
  VectorXd mean = VectorXd::Constant(dims, 0.5), spread = VectorXd::Constant(dims, kSpreadStart);
  Side directed, iid;
  FalsifyResult out;
  for (long long round = 0; round < rounds; ++round) {
    if (round > 0) drawn = IidRound(model, options, round, falsify.population);
    if (const long long k = iid.Add(drawn, column, falsify.maximize); k >= 0) {
      out.iid_worst_index = drawn[static_cast<size_t>(k)].index;
    }
    std::vector<long long> indices(static_cast<size_t>(falsify.population));
    std::vector<VectorXd> genomes(indices.size());
    for (size_t k = 0; k < indices.size(); ++k) {
      // Later events draw from streams no iid rollout of the comparison uses.
      indices[k] = falsify.budget + round * falsify.population + static_cast<long long>(k);
      genomes[k].resize(dims);
      for (Eigen::Index d = 0; d < dims; ++d) {
        genomes[k](d) = std::clamp(mean(d) + spread(d) * normal(rng), 0.0, 1.0);
      }
    }
    const std::vector<RolloutResult> tried =
        RunRolloutsWithDraws(model, options, indices, Split(genomes, block));
    if (const long long k = directed.Add(tried, column, falsify.maximize); k >= 0) {
      out.worst = tried[static_cast<size_t>(k)];
      out.worst_draws = Split({genomes[static_cast<size_t>(k)]}, block).front();
    }
    std::vector<size_t> order(tried.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return Badness(tried[a], column, falsify.maximize) >
             Badness(tried[b], column, falsify.maximize);
    });
    // The Gaussian moves to the elite (kept only if it finished: others carry no value).
    std::vector<size_t> kept;
    for (size_t k = 0; k < elite && k < order.size(); ++k) {
      if (std::isfinite(Badness(tried[order[k]], column, falsify.maximize)))
        kept.push_back(order[k]);
    }
    if (kept.size() >= 2) {
      VectorXd mu = VectorXd::Zero(dims), var = VectorXd::Zero(dims);
      for (size_t k : kept) mu += genomes[k];
      mu /= static_cast<double>(kept.size());
      for (size_t k : kept) var += (genomes[k] - mu).cwiseAbs2();
      mean = mu;
      spread = (var / static_cast<double>(kept.size() - 1)).cwiseSqrt().cwiseMax(kSpreadFloor);
    }
  }
  out.rollouts = rounds * falsify.population;
  out.worst_directed = Value(directed.worst, falsify.maximize);
  out.worst_iid = Value(iid.worst, falsify.maximize);
  for (double x : directed.trace) out.directed_trace.push_back(Value(x, falsify.maximize));
  for (double x : iid.trace) out.iid_trace.push_back(Value(x, falsify.maximize));
  out.not_ok_directed = directed.not_ok;
  out.not_ok_iid = iid.not_ok;
  return out;
}

}  // namespace impactset::rollouts
