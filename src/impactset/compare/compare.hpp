#pragma once
// The impact laws of the literature side by side on one impact state, with the settings
// `impactset compare` shows them at: Anitescu-Potra (every solution), sequential single-contact
// impacts (every ordering), compliant Kelvin-Voigt contacts, Aghili's projection law,
// Seghete & Murphey's propagative law, the Jia-Mason-Erdmann model, and the Routh set sampled.
//
//   const systems::LoadedProblem lp = systems::LoadBuiltin("rocking-block");
//   compare::CompareOptions options;
//   options.laws = {compare::Law::kAghili, compare::Law::kRouth};
//   options.samples = 4096;
//   const compare::CompareResult r = compare::Compare(lp, options);
//   for (const compare::Outcome& o : compare::Outcomes(lp.problem, r)) Use(o.law, o.v_plus);
//
// Each law keeps its own typed result (its status enum, impulses, diagnostics) in CompareResult;
// Outcomes() (compare/outcomes.hpp) flattens every law's post-impact velocities into one table.
// A law that does not converge reports it in its status; only invalid options throw
// (std::invalid_argument naming the field, its value and the rule).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/common/enum_names.hpp>
#include <impactset/impact/impact_problem.hpp>
#include <impactset/laws/aghili.hpp>
#include <impactset/laws/anitescu_potra.hpp>
#include <impactset/laws/jia_mason_erdmann.hpp>
#include <impactset/laws/seghete_murphey.hpp>
#include <impactset/laws/sequential.hpp>
#include <impactset/sampling/sampler.hpp>
#include <impactset/simulators/compliant.hpp>
#include <impactset/systems/matrix_input.hpp>

namespace impactset::compare {

/// The compared laws, in the order they run and are reported.
enum class Law {
  kAnitescuPotra,    ///< every distinct Anitescu-Potra LCP solution (laws/anitescu_potra.hpp)
  kSequential,       ///< single-contact impacts in every cyclic ordering (laws/sequential.hpp)
  kCompliant,        ///< Kelvin-Voigt contacts integrated with CVODE (simulators/compliant.hpp)
  kAghili,           ///< Aghili's frictionless projection law (laws/aghili.hpp)
  kSegheteMurphey,   ///< Seghete & Murphey's propagative law (laws/seghete_murphey.hpp)
  kJiaMasonErdmann,  ///< the Jia-Mason-Erdmann multiple-impact model (laws/jia_mason_erdmann.hpp)
  kRouth,            ///< the Routh set, sampled with Algorithm 2 (sampling/sampler.hpp)
};
IMPACTSET_ENUM_NAMES(Law,
                     "law",
                     {E::kAnitescuPotra, "anitescu_potra"},
                     {E::kSequential, "sequential"},
                     {E::kCompliant, "compliant"},
                     {E::kAghili, "aghili"},
                     {E::kSegheteMurphey, "seghete_murphey"},
                     {E::kJiaMasonErdmann, "jia_mason_erdmann"},
                     {E::kRouth, "routh"})

/// The law's name ("anitescu_potra", ...): the key of `impactset compare --json`.
inline std::string_view ToString(Law law) { return EnumName(law); }
/// Every law, in Law order.
std::vector<Law> AllLaws();

/// What to compare and each law's settings. Validated at entry of Compare (Validate).
struct CompareOptions {
  /// The laws to run, each at most once, not empty. They run and are reported in Law order
  /// whatever the order here. Default: every law.
  std::vector<Law> laws = AllLaws();

  /// Routh set: samples K. Default: the problem's setting, else 16384. >= 1.
  std::optional<long long> samples;
  /// Routh set: step h of Algorithm 1. Default: as `impactset run` resolves it (the problem's
  /// setting; scaled to the impact for matrix input and MuJoCo models, engine/step_scaling.hpp;
  /// else 1). Finite, > 0.
  std::optional<double> step;
  /// Routh set: at most N steps per sample. Default: as for step (else 10). >= 1.
  std::optional<int> max_steps;
  /// Routh set: seed of the samples.
  std::uint64_t seed = 1;
  /// Routh set: worker threads, 0 = every hardware thread. >= 0.
  int threads = 0;

  /// Aghili: one run per global restitution coefficient e, in this order. Not empty, each in
  /// [0, 1].
  std::vector<double> aghili_restitution = {0.0, 0.5, 1.0};
  /// Compliant: runs at equal stiffness, then with each contact in turn this many times stiffer
  /// than the others. Finite, > 0.
  double compliant_stiffness_contrast = 100;
  /// Jia-Mason-Erdmann: runs at equal stiffness, then with each contact in turn this many times
  /// stiffer and this many times softer than the others. Finite, >= 1.
  double jia_mason_erdmann_stiffness_contrast = 100;
  /// Seghete-Murphey: most sequences each enumeration explores (the outcome tree grows
  /// exponentially with the contact count; a capped setting reports "sequence_cap"). >= 1.
  long long seghete_murphey_max_sequences = 20000;
  /// Seghete-Murphey: R of the energetic blend R v_elastic + (1 - R) v_plastic ([S-J] eq. 17;
  /// 0.7 is the paper's Fig. 2 value). In [0, 1].
  double seghete_murphey_blend_ratio = 0.7;

  /// @throws std::invalid_argument naming the field, its value and the rule.
  void Validate() const;
};

/// Anitescu-Potra: every distinct outcome when the LCP is small enough to enumerate, else the
/// LCP fallback chain's one solution (if it found one).
struct AnitescuPotraComparison {
  std::vector<laws::AnitescuPotraOutcome> outcomes;
  bool complete = false;  ///< outcomes are every solution (the enumeration solved)
};

/// One compliant run; result.status says whether the end condition was met.
struct CompliantRun {
  std::string label;         ///< "equal stiffness" or "contact 1 x100"
  int stiffer_contact = -1;  ///< the contact made stiffer, -1 for equal stiffness
  simulators::CompliantResult result;
};
struct CompliantComparison {
  simulators::CompliantOptions options;  ///< every run's options but stiffness_ratio
  std::vector<CompliantRun> runs;        ///< equal stiffness, then contact 0, 1, ... stiffer
};

/// One Aghili run with one global restitution coefficient.
struct AghiliRun {
  double e = 0;
  laws::AghiliResult result;
  VectorXd contact_velocity;  ///< problem.ContactJacobian() v_plus: normal, then tangential
};
struct AghiliComparison {
  laws::AghiliOptions options;
  std::vector<AghiliRun> runs;  ///< in CompareOptions::aghili_restitution order
};

/// One Jia-Mason-Erdmann run.
struct JiaMasonErdmannRun {
  std::string label;   ///< "equal stiffness", "contact 0 x100 stiffer", "contact 0 x100 softer"
  VectorXd stiffness;  ///< the stiffness per contact it ran with
  laws::JmeResult result;
};
struct JiaMasonErdmannComparison {
  laws::JmeOptions options;  ///< every run's options but stiffness
  std::vector<JiaMasonErdmannRun> runs;
};

/// The Seghete-Murphey settings compared.
enum class SegheteMurpheyLaw {
  kPropagative,  ///< every admissible propagation with per-reflection restitution e
  kPlastic,      ///< the simultaneous plastic law, cone or equality projection
  kBlend,        ///< the energetic blend of each elastic outcome with the cone plastic one
};
IMPACTSET_ENUM_NAMES(SegheteMurpheyLaw,
                     "seghete_murphey law",
                     {E::kPropagative, "propagative"},
                     {E::kPlastic, "plastic"},
                     {E::kBlend, "blend"})

/// A blended outcome R v_elastic + (1 - R) v_plastic of one elastic outcome.
struct BlendedOutcome {
  VectorXd v_plus, contact_velocity;
  double energy_ratio = 1;  ///< KE(v_plus) / KE(v-) (1 when KE(v-) = 0)
  int elastic = 0;          ///< index of the elastic outcome in enumeration.outcomes
};

/// One Seghete-Murphey setting: which parts are filled depends on law.
struct SegheteMurpheySetting {
  std::string label;  ///< "elastic e=1", "plastic e=0 cone", "blend R=0.7", ...
  SegheteMurpheyLaw law = SegheteMurpheyLaw::kPropagative;
  double e = 0;                                       ///< kPropagative, kPlastic (0)
  laws::PlasticMode mode = laws::PlasticMode::kCone;  ///< kPlastic
  double blend_ratio = 0;                             ///< kBlend: R
  laws::PropagativeOutcomeSet enumeration;  ///< kPropagative; kBlend: the elastic enumeration
  laws::PlasticResult plastic;              ///< kPlastic; kBlend: the cone plastic outcome
  std::vector<BlendedOutcome> blended;      ///< kBlend, empty when the plastic one failed
  /// The setting's status name: the enumeration's ("complete", "sequence_cap", ...) or the
  /// plastic law's ("solved", "lcp_failure"; a blend's when its plastic outcome failed).
  std::string_view Status() const;
  /// Distinct outcomes of the setting.
  int DistinctOutcomes() const;
};
struct SegheteMurpheyComparison {
  laws::PropagativeEnumerationOptions options;  ///< every enumeration's options but e
  /// elastic e=1, plastic e=0 propagative, plastic e=0 cone, plastic e=0 equality, the blend.
  std::vector<SegheteMurpheySetting> settings;
};

/// The Routh set sampled: the summary and the settings resolved.
struct RouthComparison {
  sampling::SampleSummary summary;
  long long samples = 0;
  double step = 0;
  int max_steps = 0;
  std::uint64_t seed = 0;
  int threads_used = 0;
  /// How h and N were scaled to the impact (the run's step_rule); empty when given or the
  /// problem's own.
  std::string step_rule;
};

/// Every law's result; a law not asked for is empty.
struct CompareResult {
  std::vector<Law> laws;  ///< the laws run, in Law order
  std::optional<AnitescuPotraComparison> anitescu_potra;
  std::optional<std::vector<laws::SequentialOutcome>> sequential;
  std::optional<CompliantComparison> compliant;
  std::optional<AghiliComparison> aghili;
  std::optional<SegheteMurpheyComparison> seghete_murphey;
  std::optional<JiaMasonErdmannComparison> jia_mason_erdmann;
  std::optional<RouthComparison> routh;
  /// Some Routh sample stopped at a step LCP no solver solved (`impactset compare` exits 3).
  bool HasLcpFailures() const { return routh && routh->summary.lcp_failures > 0; }
  /// The Routh set was sampled and no sample terminated: it has no range to report.
  bool RouthEmpty() const { return routh && routh->summary.terminated == 0; }
};

/// Runs the laws of options.laws on the problem. The Routh set's unset samples, step and
/// max_steps come from `settings` (a problem file's or built-in system's), else the defaults.
/// progress: the Routh sampling's (sampling::ProgressCallback; an exception from it cancels).
/// @throws std::invalid_argument for invalid options (CompareOptions::Validate).
CompareResult Compare(const impact::ImpactProblem& problem,
                      const CompareOptions& options = {},
                      const systems::ProblemSettings& settings = {},
                      const sampling::ProgressCallback& progress = {});
/// The same with a loaded problem's settings.
CompareResult Compare(const systems::LoadedProblem& problem,
                      const CompareOptions& options = {},
                      const sampling::ProgressCallback& progress = {});

}  // namespace impactset::compare
