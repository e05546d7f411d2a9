#include <impactset/compare/compare.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

#include <impactset/common/error_policy.hpp>
#include <impactset/compare/internal/runners.hpp>
#include <impactset/compare/internal/seghete_murphey.hpp>

namespace impactset::compare {

std::vector<Law> AllLaws() {
  std::vector<Law> laws;
  for (const auto& entry : EnumNamesOf(Law{}).names) laws.push_back(entry.first);
  return laws;
}

namespace {

std::string LawList(const std::vector<Law>& laws) {
  std::string text;
  for (Law law : laws) {
    if (!text.empty()) text += ',';
    text += ToString(law);
  }
  return text.empty() ? "(none)" : text;
}

std::string NumberList(const std::vector<double>& values) {
  std::ostringstream os;
  for (size_t i = 0; i < values.size(); ++i) os << (i ? "," : "") << values[i];
  return values.empty() ? "(none)" : os.str();
}

void CheckLaws(const std::vector<Law>& laws) {
  if (laws.empty()) InvalidArgument("laws", LawList(laws), "must name at least one law");
  const std::vector<Law> all = AllLaws();
  for (size_t i = 0; i < laws.size(); ++i) {
    if (std::find(all.begin(), all.end(), laws[i]) == all.end()) {
      InvalidArgument("laws", static_cast<int>(laws[i]), "must be " + EnumChoices<Law>());
    }
    if (std::find(laws.begin(), laws.begin() + static_cast<long>(i), laws[i]) !=
        laws.begin() + static_cast<long>(i)) {
      InvalidArgument("laws", LawList(laws), "must name each law at most once");
    }
  }
}

}  // namespace

void CompareOptions::Validate() const {
  CheckLaws(laws);
  if (samples && *samples < 1) InvalidArgument("samples", *samples, "must be >= 1");
  if (step && !(std::isfinite(*step) && *step > 0)) {
    InvalidArgument("step", *step, "must be finite and > 0");
  }
  if (max_steps && *max_steps < 1) InvalidArgument("max_steps", *max_steps, "must be >= 1");
  if (threads < 0) InvalidArgument("threads", threads, "must be >= 0 (0 = every core)");
  if (aghili_restitution.empty()) {
    InvalidArgument("aghili_restitution", NumberList(aghili_restitution), "must not be empty");
  }
  for (double e : aghili_restitution) {
    if (!(e >= 0 && e <= 1)) {
      InvalidArgument("aghili_restitution", NumberList(aghili_restitution),
                      "each must lie in [0, 1]");
    }
  }
  if (!(std::isfinite(compliant_stiffness_contrast) && compliant_stiffness_contrast > 0)) {
    InvalidArgument("compliant_stiffness_contrast", compliant_stiffness_contrast,
                    "must be finite and > 0");
  }
  if (!(std::isfinite(jia_mason_erdmann_stiffness_contrast) &&
        jia_mason_erdmann_stiffness_contrast >= 1)) {
    InvalidArgument("jia_mason_erdmann_stiffness_contrast", jia_mason_erdmann_stiffness_contrast,
                    "must be finite and >= 1 (each contact runs that much stiffer and softer)");
  }
  if (seghete_murphey_max_sequences < 1) {
    InvalidArgument("seghete_murphey_max_sequences", seghete_murphey_max_sequences, "must be >= 1");
  }
  if (!(seghete_murphey_blend_ratio >= 0 && seghete_murphey_blend_ratio <= 1)) {
    InvalidArgument("seghete_murphey_blend_ratio", seghete_murphey_blend_ratio,
                    "must lie in [0, 1]");
  }
}

std::string_view SegheteMurpheySetting::Status() const {
  const bool plastic_failed = plastic.status != laws::PlasticStatus::kSolved;
  if (law == SegheteMurpheyLaw::kPlastic || (law == SegheteMurpheyLaw::kBlend && plastic_failed)) {
    return laws::ToString(plastic.status);
  }
  return laws::ToString(enumeration.status);
}

int SegheteMurpheySetting::DistinctOutcomes() const {
  switch (law) {
    case SegheteMurpheyLaw::kPropagative:
      return static_cast<int>(enumeration.outcomes.size());
    case SegheteMurpheyLaw::kPlastic:
      return 1;
    case SegheteMurpheyLaw::kBlend:
      return static_cast<int>(blended.size());
  }
  return 0;
}

CompareResult Compare(const impact::ImpactProblem& problem,
                      const CompareOptions& options,
                      const systems::ProblemSettings& settings,
                      const sampling::ProgressCallback& progress) {
  options.Validate();
  CompareResult r;
  for (Law law : AllLaws()) {
    if (std::find(options.laws.begin(), options.laws.end(), law) == options.laws.end()) continue;
    r.laws.push_back(law);
    switch (law) {
      case Law::kAnitescuPotra:
        r.anitescu_potra = internal::RunAnitescuPotra(problem);
        break;
      case Law::kSequential:
        r.sequential = laws::SequentialOutcomes(problem);
        break;
      case Law::kCompliant:
        r.compliant = internal::RunCompliant(problem, options);
        break;
      case Law::kAghili:
        r.aghili = internal::RunAghili(problem, options);
        break;
      case Law::kSegheteMurphey:
        r.seghete_murphey = internal::RunSegheteMurphey(problem, options);
        break;
      case Law::kJiaMasonErdmann:
        r.jia_mason_erdmann = internal::RunJiaMasonErdmann(problem, options);
        break;
      case Law::kRouth:
        r.routh = internal::RunRouth(problem, options, settings, progress);
        break;
    }
  }
  return r;
}

CompareResult Compare(const systems::LoadedProblem& problem,
                      const CompareOptions& options,
                      const sampling::ProgressCallback& progress) {
  return Compare(problem.problem, options, problem.settings, progress);
}

}  // namespace impactset::compare
