#pragma once
// Step size h and step cap N scaled to the impact when the problem's source gives none (MuJoCo
// models, matrix input without "h"/"N"), and the advice a run's summary gives when too many
// samples hit the step cap (docs/mujoco.md "Choosing h and N").
//
// With caps lambda_max = h p, p ~ U[0, 1]^m, a contact takes at most h/2 per step on average. If
// Lambda = max_i lambda_AP,i is the largest normal impulse of the Anitescu-Potra outcome (the
// simultaneous inelastic impact; when that LCP is not solved, the largest normal part of the
// least-norm impulse that stops the approaching contacts), then
//
//   h = 2 Lambda / kScaledSteps,
//
// so the most loaded contact needs about kScaledSteps steps. N comes from a pilot of the impact
// at that h (kStepPilotSamples samples): twice the most steps one needed, at least
// kScaledStepCapFactor x kScaledSteps, which leaves room for the slow sequences (p small on that
// contact) and for contacts that take more than their AP share, and at most kScaledStepCeiling.
// When twice the most steps would exceed kScaledStepCeiling, h grows kStepPilotGrowth-fold
// (Lambda underestimated the impulse the sequence of steps needs: with condition numbers near
// 1e10 the Anitescu-Potra impulse can be 1e5 times too small) and the pilot runs again. If no
// h lets every pilot sample finish, the one that let the most finish is kept (the smallest of
// equals): a larger h that helps no sample only inflates the step LCPs' impulse caps.
#include <cstdint>
#include <optional>
#include <string>

#include <impactset/engine/run.hpp>
#include <impactset/impact/impact_problem.hpp>
#include <impactset/systems/matrix_input.hpp>

namespace impactset::engine {

/// Steps the most loaded contact needs on average with the scaled h.
inline constexpr int kScaledSteps = 4;
/// The least N: kScaledStepCapFactor x kScaledSteps.
inline constexpr int kScaledStepCapFactor = 10;
/// The pilot that sets N: this many samples of the mixed design at the scaled h, from
/// kStepPilotSeed; N =
/// kStepPilotMargin x the most steps one of them needed, clamped to [kScaledStepCapFactor x
/// kScaledSteps, kScaledStepCeiling]. On the random problem family of docs/robustness.md no
/// sample is capped, where N = 40 left 1.5 %.
inline constexpr int kStepPilotSamples = 64;
inline constexpr int kStepPilotMargin = 2;
inline constexpr std::uint64_t kStepPilotSeed = 0x5eed;
/// While a pilot sample needs more than kScaledStepCeiling / kStepPilotMargin steps, h (and the
/// impulse it is scaled to) grows by kStepPilotGrowth and the pilot runs again, at most
/// kStepPilotRounds times (8^8 = 1.7e7 in all; kStepPilotRoundsWhileNoneFinish while no pilot
/// sample has finished); the h kept is the first at which every pilot sample finished or,
/// failing that, the one at which the most did.
inline constexpr double kStepPilotGrowth = 8;
inline constexpr int kStepPilotRounds = 8;
/// While no pilot sample has finished at any h tried, growth goes on up to this many rounds
/// (8^16 = 2.8e14): with a condition number near 1e10 the least-norm impulse can be 1e9 times
/// smaller than what the steps need, and a round where the first sample does not finish costs
/// one sample's kScaledStepCeiling / kStepPilotMargin steps.
inline constexpr int kStepPilotRoundsWhileNoneFinish = 16;
/// The hard ceiling of the scaled N. Samples that need more are capped and the run says so
/// (StepCapAdvice). 300 keeps a Sobol design's m N dimensions within Boost's table for up to 12
/// contacts.
inline constexpr int kScaledStepCeiling = 300;
/// The summary warns when more than this fraction of samples hit the step cap or failed (the
/// command's summary, a Python RuntimeWarning, the file's /summary@advice).
inline constexpr double kStepCapWarningFraction = 0.001;

struct ScaledStep {
  double step = kDefaultStep;
  int max_steps = kDefaultMaxSteps;
  double impulse = 0;  ///< Lambda (as the pilot raised it); 0 when no contact approaches
  /// The factor the pilot raised h by (a power of kStepPilotGrowth; 1: not raised, and always 1
  /// when h was given).
  double growth = 1;
  std::string rule;  ///< one line saying how h and N were chosen (stored as "step_rule")
};

/// Lambda of the formulas above, without the pilot: the largest Anitescu-Potra normal impulse,
/// else the least-norm estimate; 0 when no contact approaches. For callers that draw one sample
/// of many different impacts (rollouts), where a pilot per impact would cost more than the sample.
double ImpulseScale(const impact::ImpactProblem& problem);
/// h and N from the impulse and the pilot (the formulas above). When no contact approaches (no
/// impulse), kDefaultStep and kDefaultMaxSteps, and `rule` says so. With `given_step`, h is that
/// and N comes from the pilot at that h (never raised).
ScaledStep ScaleStepToProblem(const impact::ImpactProblem& problem,
                              std::optional<double> given_step = std::nullopt);

/// The pilot raising h by more than this factor makes the run warn (StepGrowthWarning): each
/// step then caps impulses this many times above the rule's 2 Lambda / kScaledSteps, a coarser
/// discretisation of the impulse sequence than the rule is designed for. 1: any raise warns.
inline constexpr double kStepGrowthWarningFactor = 1;
/// Words for the summary when the pilot raised h by more than kStepGrowthWarningFactor
/// (RunOptions::step_growth); empty otherwise. The command line prints it on stderr, Python warns.
std::optional<std::string> StepGrowthWarning(const RunOptions& options);

/// DefaultRunOptions, except that h and N missing from `settings` are scaled to the problem
/// (ScaleStepToProblem: a given h is kept and N piloted at it) and RunOptions::step_rule and
/// step_growth record it. For sources with no h and N of
/// their own: the built-in systems keep their documented h and N through DefaultRunOptions.
RunOptions ScaledRunOptions(const impact::ImpactProblem& problem,
                            const systems::ProblemSettings& settings);

/// The options a run of `loaded` starts from, the one resolution behind the command line, the
/// batch's states and the Python module: h, N and K given by the caller (each optional) take
/// precedence over the problem's own settings; h and N still missing are then scaled to the
/// problem when its source asks for it (ProblemSettings::scale_missing_steps: matrix input,
/// MuJoCo models), else kDefaultStep and kDefaultMaxSteps (the built-in systems and scenes
/// document their own).
RunOptions ProblemRunOptions(const systems::LoadedProblem& loaded,
                             const systems::ProblemSettings& caller = {});

/// Words for the summary when more than kStepCapWarningFraction of the samples hit the step cap
/// or failed: how many, and the suggested h (the scaled one when larger than the run's, else
/// twice the run's) or N for the run's h (kScaledStepCapFactor x ceil(2 Lambda / h), at least
/// twice the run's N); empty otherwise.
/// When the LCP failures outnumber the step caps, the words name M's condition number instead
/// (above kIllConditionedMass: too ill-conditioned for double precision) or another solver.
std::optional<std::string> StepCapAdvice(const RunResult& run);

/// Most samples did not finish: the command line prints this on stderr and Python warns
/// (RuntimeWarning), since a set built from the few that did is not the problem's set.
inline constexpr double kFailureWarningFraction = 0.5;
/// A condition number of M beyond which the step LCPs lose most digits: pivots on J M^-1 J^T
/// then carry relative errors above 1e-7, beyond the residual acceptance tolerances.
inline constexpr double kIllConditionedMass = 1e9;
/// StepCapAdvice when more than kFailureWarningFraction of the samples did not finish, else
/// empty.
std::optional<std::string> FailureWarning(const RunResult& run);
/// Words for the summary when some sample stopped colliding but failed the end-state check
/// (impact::CheckOutcome: energy gained, total impulse outside the friction cone): how many, the
/// largest KE+/KE- among them, and that they are in no set (status non_physical). Empty when none.
/// The command line prints it on stderr, Python warns (RuntimeWarning), a batch state's message
/// holds it.
std::optional<std::string> PhysicsWarning(const RunResult& run);
/// Words for the summary when the contacts jam the problem (impact::DetectJam): every colliding
/// sample ends at v+ = 0, so the post-impact set is that one point. Empty otherwise.
std::optional<std::string> JamNote(const impact::ImpactProblem& problem);
/// lambda_max / lambda_min of M (infinity when M is not positive definite).
double MassConditionNumber(const impact::ImpactProblem& problem);

}  // namespace impactset::engine
