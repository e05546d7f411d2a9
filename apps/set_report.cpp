#include "apps/set_report.hpp"

#include <cstdio>

namespace impactset::app {
namespace {

nlohmann::json CoverageJson(const sets::CoverageResult& c) {
  nlohmann::json j;
  j["delta"] = c.delta;
  if (c.extent) {
    j["extent"] = {{"converged", c.extent_converged},
                   {"moved", c.extent_moved},
                   {"width", c.extent_width},
                   {"statement", c.extent_statement}};
  } else {
    j["extent"] = nullptr;
  }
  if (c.holdout > 0) {
    j["holdout"] = {{"samples", c.holdout},
                    {"missed", c.missed},
                    {"not_terminated", c.holdout_not_terminated},
                    {"missed_mass_upper", c.missed_mass_upper},
                    {"assumptions", c.holdout_assumptions}};
  } else {
    j["holdout"] = nullptr;
  }
  if (c.lemma1) {
    j["lemma1"] = {{"lipschitz", c.lipschitz},
                   {"cube_dimension", c.cube_dimension},
                   {"failure_bound", c.failure_bound},
                   {"samples_needed", c.samples_needed},
                   {"assumptions", c.lemma1_assumptions}};
  } else if (!c.lemma1_assumptions.empty()) {  // asked for, not stated: the reason only
    j["lemma1"] = {{"not_stated", c.lemma1_assumptions}};
  } else {
    j["lemma1"] = nullptr;
  }
  return j;
}

void PrintCoverage(const sets::CoverageResult& c, long long not_terminated) {
  if (c.extent) std::printf("    %s\n", c.extent_statement.c_str());
  if (c.holdout > 0) {
    std::printf(
        "    hold-out (mass under iid sampling, not extent): %lld of %lld fresh terminated "
        "samples farther than eps (%lld did not terminate); missed mass <= %.3g (conf. %g)\n",
        c.missed, c.holdout, c.holdout_not_terminated, c.missed_mass_upper, 1 - c.delta);
  }
  if (c.lemma1 && not_terminated > 0) {
    std::printf(
        "    Lemma 1 (L = %g, d = %lld): no bound: %lld samples did not terminate (the sub-cube "
        "argument needs every sample in the net: choose N so that all terminate)\n",
        c.lipschitz, c.cube_dimension, not_terminated);
  } else if (c.lemma1) {
    std::printf(
        "    Lemma 1 (L = %g, d = %lld): P[all samples terminate and the net is not an "
        "(eps0 + eps)-net] <= %.3g (conf. %g); %.3g iid samples for %g\n",
        c.lipschitz, c.cube_dimension, c.failure_bound, 1 - c.failure_bound, c.samples_needed,
        c.delta);
  } else if (!c.lemma1_assumptions.empty()) {
    std::printf("    %s\n", c.lemma1_assumptions.c_str());
  }
}

}  // namespace

nlohmann::json SetJson(const sets::PointSet& s) {
  nlohmann::json e = {
      {"set", sets::ToString(s.set)},      {"coords", s.output},
      {"net_points", s.net.points.cols()}, {"epsilon", s.net.epsilon},
      {"separation", s.net.separation},    {"coarsenings", s.net.coarsenings},
      {"offered", s.net.offered},          {"hull_status", sets::ToString(s.hull.status)},
      {"hull_detail", s.hull.detail},      {"hull_dimension", s.hull.dimension},
      {"hull_volume", s.hull.volume},      {"hull_margin", s.hull.margin}};
  if (s.coverage) e["coverage"] = CoverageJson(*s.coverage);
  return e;
}

void AddSetsJson(const std::vector<sets::PointSet>& sets, nlohmann::json* j) {
  // The top-level keys: the post-impact contact set's, else the first post-impact set's.
  const sets::PointSet* top = nullptr;
  for (const auto& s : sets) {
    if (s.set != sets::SetKind::kPostImpact) continue;
    if (!top || s.output == "contact") top = &s;
    if (s.output == "contact") break;
  }
  nlohmann::json all = nlohmann::json::array();
  for (const auto& s : sets) {
    nlohmann::json e = SetJson(s);
    if (&s == top) {
      for (const char* key : {"net_points", "epsilon", "hull_status", "hull_detail",
                              "hull_dimension", "hull_volume", "coverage"}) {
        (*j)[key] = e.contains(key) ? e[key] : nlohmann::json(nullptr);
      }
    }
    all.push_back(std::move(e));
  }
  (*j)["sets"] = std::move(all);
}

void PrintSets(const std::vector<sets::PointSet>& sets, long long not_terminated) {
  for (const auto& s : sets) {
    const std::string status = s.hull.detail.substr(0, s.hull.detail.find('\n'));
    // A capped net says so: its eps is the covering radius after the doublings, not the one asked.
    const std::string capped = s.net.coarsenings > 0 ? ", max-net-points reached: radius doubled " +
                                                           std::to_string(s.net.coarsenings) + "x"
                                                     : "";
    std::printf("%-11s %-11s net %6lld points (eps %.3g, %lld offered%s), hull: %s",
                sets::ToString(s.set), s.output.c_str(),
                static_cast<long long>(s.net.points.cols()), s.net.epsilon, s.net.offered,
                capped.c_str(),
                status.size() > 160 ? (status.substr(0, 157) + "...").c_str() : status.c_str());
    if (s.hull.status == sets::HullStatus::kComputed) {
      std::printf(", dim %d, volume %.4g", s.hull.dimension, s.hull.volume);
    }
    std::printf("\n");
    if (s.hull.HasQhullMessages()) {  // one line at most; the whole text is in the dataset
      std::fprintf(stderr, "impactset: Qhull on %s %s: %s\n", sets::ToString(s.set),
                   s.output.c_str(), s.hull.Summary().c_str());
    }
    if (s.coverage) PrintCoverage(*s.coverage, not_terminated);
  }
}

}  // namespace impactset::app
