#pragma once
// Algorithm 1 of Halm & Posa: one sample of the post-impact set. The loop, its options and
// statuses are docs/model.md §5; the choice among a step's solutions §9; termination and the step
// cap §10; the authors' MATLAB loop it follows docs/examples.md §1.5.
#include <impactset/common/enum_names.hpp>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include <impactset/impact/checks.hpp>
#include <impactset/impact/impact_lcps.hpp>
#include <impactset/impact/impact_problem.hpp>
#include <impactset/impact/jam.hpp>
#include <impactset/impact/p_source.hpp>
#include <impactset/impact/step_bases.hpp>
#include <impactset/lcp/lemke.hpp>
#include <impactset/lcp/solver.hpp>
#include <impactset/lcp/warm_start.hpp>

namespace impactset::impact {

/// Selection among a step LCP's solutions (docs/model.md §9).
///  - kFirst: whatever the solver returns (Lemke with covering vector 1): deterministic in the
///    problem; on RAMone this collapses the whole post-impact set to one point.
///  - kRandom: each step is solved by the native Lemke with a covering vector whose entries are
///    drawn log-uniformly from [e^-5, e^5] and a uniformly random column order for the
///    lexicographic tie-break (both from the sample's own uniform stream); that answer is kept
///    when accepted, else the run's solver (covering vector 1 first) decides the step. Lemke's
///    path ends on the solution its covering vector leads to, so the kept solution is
///    distributed over the step's solutions in proportion to the measure of covering vectors
///    that lead to each: not uniform over solutions, and solutions no complementary path reaches
///    are never chosen. (A narrow range such as [0.5, 1.5] leaves RAMone's steps on one
///    solution; the wide range reaches all three of its distinct increments.) With
///    detect_non_unique the run's solver also solves every step, and the two answers differing
///    marks the sample as having a non-unique step: a detection, not a proof of uniqueness when
///    they agree.
enum class Selection { kFirst, kRandom };
IMPACTSET_ENUM_NAMES(Selection, "selection", {E::kFirst, "first"}, {E::kRandom, "random"})
inline const char* ToString(Selection s) { return EnumName(s).data(); }
inline Selection ParseSelection(std::string_view name) { return ParseEnum<Selection>(name); }

/// Options of Algorithm 1. The defaults are the authors' (docs/examples.md §1.5) except h and N,
/// which are per system (scene files carry them).
struct Algorithm1Options {
  /// Step size h (impulse units): lambda_max = h p. > 0.
  double step = 1.0;
  /// Step cap N (the paper's trajectory length). >= 1.
  int max_steps = 10;
  /// The impact is over when min_i (Jn v)_i >= -termination_tolerance (authors: 1e-8;
  /// docs/model.md §10). >= 0.
  double termination_tolerance = 1e-8;
  /// Record every intermediate velocity (the reachable set, eqs. 83-86).
  bool keep_trajectory = false;
  /// How a step LCP with several solutions (Assumption 6 fails) is resolved; see Selection.
  Selection selection = Selection::kRandom;
  /// Two velocity increments of one step differ when ||dv1 - dv2||_inf > this * max(1,
  /// ||dv1||_inf). Far above Lemke's roundoff (1e-14), far below physical differences. > 0.
  double distinct_tolerance = 1e-7;
  /// kRandom only: also solve each step with the run's solver (covering vector 1 first) and
  /// compare (SampleResult::non_unique_step). A diagnostic, off by default: it doubles the work,
  /// while the drawn-covering solve alone decides the step and the solver's chain runs only when
  /// that solve fails. The kept solutions are the same either way, except that with detection a
  /// step whose covering-1 solve has no accepted answer ends the sample as kLcpFailure even when
  /// the drawn solve succeeded; lcp_fallbacks and worst_residual count the covering-1 solves only
  /// with detection.
  bool detect_non_unique = false;
  /// Before a step's Lemke path, try the complementary bases that a pilot of the same run saw
  /// solve the step after this sample's previous one (RouthSampler::SetBasisTable; the step matrix
  /// is the same over the whole impact, only w changes; lcp/warm_start.hpp). An answer is kept
  /// when it passes the residual check at lemke.accept_tolerance, as every answer must. Where a
  /// step has one solution this is the path's answer (to roundoff) without the path. Where it
  /// has several, a warm start returns the solution of the first basis tried that solves the
  /// step, the selection deciding only when none does (docs/model.md §9): a solution of the step
  /// like any other, so every sample stays an outcome of the law. What a sample tries depends on
  /// the table and its own history only: runs stay identical at any thread count, shard and rank
  /// split. Without a table nothing is tried (a sample's own previous basis alone solved 0-19 %
  /// of the steps and cost more than it saved; docs/performance.md). Not used with
  /// detect_non_unique, so that detection compares the selection's answer on every step.
  bool warm_start = true;
  /// Run impact/checks.hpp's CheckImpulse on every step (energy never increases, no contact
  /// pushed apart, cone, maximal dissipation, lambda_n <= lambda_max, momentum) and count the
  /// steps that fail in SampleResult::check_violations. Off by default: it costs about as much as
  /// the step's solve.
  bool check_steps = false;
  /// The end-state check every sample that stops colliding must pass to count as terminated
  /// (CheckOutcome: kinetic energy not above the pre-impact energy, total impulse in the friction
  /// cone; no contact approaching holds by termination). Always on: it costs one pass over the
  /// total impulse. A sample that fails it is kNonPhysical and enters no set.
  CheckTolerances outcome_tolerances;
  /// Options of the native Lemke solves: the random selection's drawn-covering solve here, and
  /// (through sampling::SamplerOptions) the native links of the run's solver. Defaults suit
  /// every shipped example.
  lcp::LemkeOptions lemke;
  void Validate() const;
};

enum class SampleStatus {
  kTerminated,  ///< no contact still colliding: v_plus is in the post-impact set
  kStepCap,     ///< max_steps solves and still colliding: never counted as terminated
  kLcpFailure,  ///< a step LCP had no accepted solution (the solver's chain was exhausted)
  kNonPhysical  ///< no contact colliding, but the end state fails CheckOutcome (energy gained,
                ///< total impulse outside the friction cone): kept out of every set
};
IMPACTSET_ENUM_NAMES(SampleStatus,
                     "sample status",
                     {E::kTerminated, "terminated"},
                     {E::kStepCap, "step_cap"},
                     {E::kLcpFailure, "lcp_failure"},
                     {E::kNonPhysical, "non_physical"})
inline const char* ToString(SampleStatus s) { return EnumName(s).data(); }
/// The integer code stored in datasets: 0 terminated, 1 step cap, 2 LCP failure, 3 non-physical.
/// @throws std::invalid_argument for any other code.
SampleStatus SampleStatusFromCode(int code);

/// One sample's outcome (docs/model.md §5.3).
struct SampleResult {
  SampleStatus status = SampleStatus::kTerminated;
  VectorXd v_plus;            ///< final generalized velocity
  VectorXd contact_velocity;  ///< ContactJacobian() v_plus: normal, then tangential velocities
  int lcp_solves = 0;
  int lcp_fallbacks = 0;  ///< solves whose answer came from a link after the first
  int warm_starts =
      0;  ///< of lcp_solves, those a warm start answered (Algorithm1Options::warm_start)
  bool non_unique_step = false;  ///< kRandom: some step's two answers gave different dv
  int check_violations = 0;      ///< steps failing CheckImpulse (only with check_steps)
  /// The end-state check of a sample that stopped colliding (CheckOutcome at
  /// Algorithm1Options::outcome_tolerances); its failure makes the status kNonPhysical. Default
  /// (all passed) for step-capped and failed samples, which are out of the sets anyway.
  CheckReport outcome;
  double worst_residual = 0;         ///< max of Residual::Worst() over the sample's solves
  double energy_ratio = 1;           ///< KE(v_plus) / KE(v-) (1 when KE(v-) = 0)
  std::vector<VectorXd> trajectory;  ///< v-, v_1, ..., v_plus when keep_trajectory
};

/// One step as RouthSampler reports it to a StepObserver.
struct StepRecord {
  int step = 0;       ///< 0-based within the sample
  bool warm = false;  ///< a warm start answered (no path walked)
  /// Verifying (SetBasisTable): each table basis (in the order tried) that solves the step, and
  /// whether its velocity increment differs from the selection's answer by more than
  /// Algorithm1Options::distinct_tolerance.
  std::span<const std::pair<int, bool>> checks;
  int pivots = 0;               ///< pivots of the path(s) walked for this step
  bool has_basis = false;       ///< the answer's complementary basis is known
  std::span<const int> basis;   ///< its z-basic indices (lcp::Solver::FinalBasis)
  const VectorXd* w = nullptr;  ///< the step LCP's vector (its matrix: RouthSampler::StepMatrix())
};

/// Receives every step of the samples a RouthSampler runs: for diagnostics and measurements
/// (bench/basis_census), not for sampling. Called on the sampler's thread.
class StepObserver {
 public:
  virtual ~StepObserver() = default;
  virtual void OnStep(const StepRecord& record) = 0;
};

/// Runs Algorithm 1 on one ImpactProblem. Holds the step LCP matrix (constant over an impact) and
/// all workspaces, so Run allocates nothing beyond the result when keep_trajectory is off.
/// On a jammed problem (impact/jam.hpp: the only velocity with no contact approaching is 0) a
/// colliding sample ends at v+ = 0 without a step: the one outcome the law allows there.
/// Not thread-safe: one per thread, each with its own solver.
class RouthSampler {
 public:
  /// The problem and solver must outlive the sampler.
  RouthSampler(const ImpactProblem& problem, const Algorithm1Options& options, lcp::Solver* solver);
  /// Runs one sample from v- with p-vectors from source; `choices` drives Selection::kRandom
  /// and is required then (std::invalid_argument otherwise).
  const SampleResult& Run(PSource& source, UniformSource* choices = nullptr);
  const ImpactProblem& problem() const { return problem_; }
  const Algorithm1Options& options() const { return options_; }
  /// The step LCP of the last solve (for diagnostics and robustness studies).
  const MatrixXd& StepMatrix() const { return W_; }
  /// Warm starts (Algorithm1Options::warm_start) try this table's bases (StepBasisTable, learned
  /// from a pilot of the same problem); null or empty: no warm start. The table must be built on
  /// this problem and outlive the runs; every sampler of a run must get the same table, so that
  /// each sample tries the same bases wherever it runs.
  /// With verify, nothing is warm started: every step is solved by the selection, and each table
  /// basis that would be tried is checked against its answer (StepRecord::checks): how a pilot
  /// finds the bases that would decide non-unique steps otherwise than the selection.
  void SetBasisTable(const StepBasisTable* table, bool verify = false);
  /// Reports every later step to observer (null: none). The observer must outlive the runs.
  void SetStepObserver(StepObserver* observer) { observer_ = observer; }
  const VectorXd& StepVector() const { return w_; }

 private:
  void ClearTrajectory();  // keeps the points' storage in spare_ for the next sample
  void RecordTrajectoryPoint();
  void IncrementInTwoParts();  // dv_ from z_ + z_low_ (a step answered in two parts)
  bool TryKnownBases();        // the warm start: z_ and dv_ on a hit
  void NotePathBasis();        // previous_ after a path
  void VerifyKnownBases();     // checks_ of the current step
  const VectorXd* SolveStep(bool random, UniformSource* choices);

  const ImpactProblem& problem_;
  Algorithm1Options options_;
  lcp::Solver* solver_;
  lcp::LemkeSolver random_lemke_;  // kRandom: the run with a drawn covering vector
  std::vector<int> lex_order_;     // kRandom: drawn tie-break order
  LcpLayout layout_;
  MatrixXd W_;
  VectorXd w_, z_, z2_, v_, p_, lambda_max_, covering_, dv_, dv2_, jnv_;
  VectorXd total_impulse_;     // sum of the kept steps' (lambda_n, lambda_D): CheckOutcome's input
  bool jammed_ = false;        // DetectJam: every approaching sample ends at v+ = 0
  double accepted_scale_ = 0;  // sum of the steps' max(1, ||w_R||_inf): CheckOutcome's cone scale
  VectorXd z_low_;       // the low part of a step answered in two parts (lcp::SolveInfo::low_part)
  bool warm_ = false;    // warm_start, no detection, and a table with bases
  bool verify_ = false;  // SetBasisTable's verify
  VectorXd z3_, dv_warm_;                     // verifying: a table basis's answer and its increment
  std::vector<std::pair<int, bool>> checks_;  // verifying: StepRecord::checks
  bool have_basis_ = false;                   // basis_ holds the basis of this sample's last step
  std::vector<int> basis_;                    // its z-basic indices (lcp::Solver::FinalBasis)
  const StepBasisTable* table_ = nullptr;
  int previous_ = StepBasisTable::kFirstStep;  // table_'s id of the previous step's basis
  lcp::KnownBasis::Workspace work_;
  StepObserver* observer_ = nullptr;
  int step_pivots_ = 0;  // pivots of the current step's paths (for observer_)
  SampleResult result_;
  std::vector<VectorXd> spare_;  // trajectory points of earlier samples, reused (no allocation)
};

}  // namespace impactset::impact
