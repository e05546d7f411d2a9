#pragma once
// Each compared law at the settings of CompareOptions (compare/compare.hpp). Options are
// validated by Compare before any of these runs.
#include <impactset/compare/compare.hpp>

namespace impactset::compare::internal {

AnitescuPotraComparison RunAnitescuPotra(const impact::ImpactProblem& problem);
CompliantComparison RunCompliant(const impact::ImpactProblem& problem, const CompareOptions& o);
AghiliComparison RunAghili(const impact::ImpactProblem& problem, const CompareOptions& o);
JiaMasonErdmannComparison RunJiaMasonErdmann(const impact::ImpactProblem& problem,
                                             const CompareOptions& o);
RouthComparison RunRouth(const impact::ImpactProblem& problem,
                         const CompareOptions& o,
                         const systems::ProblemSettings& settings,
                         const sampling::ProgressCallback& progress);
/// "x100": a stiffness contrast as the labels show it.
std::string ContrastLabel(double contrast);

}  // namespace impactset::compare::internal
