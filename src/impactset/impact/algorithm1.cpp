#include <impactset/impact/algorithm1.hpp>

#include <algorithm>
#include <cmath>

#include <impactset/common/error_policy.hpp>
#include <impactset/impact/checks.hpp>

namespace impactset::impact {

void Algorithm1Options::Validate() const {
  if (!(step > 0) || !std::isfinite(step))
    InvalidArgument("step (h)", step, "must be finite and > 0");
  if (max_steps < 1) InvalidArgument("max_steps (N)", max_steps, "must be >= 1");
  lemke.Validate();
  outcome_tolerances.Validate();
  if (!(distinct_tolerance > 0)) {
    InvalidArgument("distinct_tolerance", distinct_tolerance, "must be > 0");
  }
  if (!(termination_tolerance >= 0)) {
    InvalidArgument("termination_tolerance", termination_tolerance, "must be >= 0");
  }
}

SampleStatus SampleStatusFromCode(int code) {
  if (code < 0 || code > static_cast<int>(SampleStatus::kNonPhysical)) {
    InvalidArgument("sample status", code,
                    "must be 0 (terminated), 1 (step cap), 2 (LCP failure) or 3 (non-physical)");
  }
  return static_cast<SampleStatus>(code);
}

RouthSampler::RouthSampler(const ImpactProblem& problem,
                           const Algorithm1Options& options,
                           lcp::Solver* solver)
    : problem_(problem),
      options_(options),
      solver_(solver),
      random_lemke_(options.lemke),
      layout_(RouthStepLayout(problem)) {
  options_.Validate();
  if (!solver_) InvalidArgument("solver", "null", "a solver is required");
  W_ = RouthStepMatrix(problem_);
  w_.resize(layout_.size());
  z_.resize(layout_.size());
  z2_.resize(layout_.size());
  covering_.resize(layout_.size());
  lex_order_.resize(layout_.size());
  dv_.resize(problem_.n());
  dv2_.resize(problem_.n());
  dv_warm_.resize(problem_.n());
  z3_.resize(layout_.size());
  v_.resize(problem_.n());
  p_.resize(problem_.m());
  jnv_.resize(problem_.m());
  lambda_max_.resize(problem_.m());
  total_impulse_.resize(layout_.impulses());
  jammed_ = DetectJam(problem_).jammed;
  result_.v_plus.resize(problem_.n());
  result_.contact_velocity.resize(problem_.ContactJacobian().rows());
  // With detection off the solver runs only when a drawn solve fails, possibly long after the
  // first sample: its workspace is sized here, not then.
  solver_->Reserve(layout_.size());
  random_lemke_.Reserve(layout_.size());
  basis_.reserve(layout_.size());
}

void RouthSampler::ClearTrajectory() {
  for (VectorXd& v : result_.trajectory) spare_.push_back(std::move(v));
  result_.trajectory.clear();
}

void RouthSampler::RecordTrajectoryPoint() {
  if (spare_.empty()) {
    result_.trajectory.push_back(v_);
    return;
  }
  result_.trajectory.push_back(std::move(spare_.back()));
  spare_.pop_back();
  result_.trajectory.back() = v_;  // same size as before: no allocation
}

// dv = M^-1 J^T (z + z_low) over the impulse block, summed in long double and rounded once: the
// chain answers in two parts only where the impulses cancel so much in J M^-1 J^T that rounding
// them, or summing their images in double, moves the contact velocities by more than the LCP's
// tolerance. Rare: allocates nothing but is not vectorised.
void RouthSampler::IncrementInTwoParts() {
  const MatrixXd& A = problem_.MinvJt();
  const Eigen::Index o = layout_.lambda_n();
  dv_.resize(A.rows());
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    long double acc = 0;
    for (Eigen::Index j = 0; j < A.cols(); ++j) {
      acc += static_cast<long double>(A(i, j)) *
             (static_cast<long double>(z_(o + j)) + static_cast<long double>(z_low_(o + j)));
    }
    dv_(i) = static_cast<double>(acc);
  }
}

// The warm start on this step's w_ (z_ and dv_ on a hit): the bases the table saw follow the
// previous step's basis, in its order.
bool RouthSampler::TryKnownBases() {
  // A z_Z below -1e-9 ||w||: infeasible by far more than roundoff, rejected before w is formed.
  constexpr double kReject = 1e-9;
  for (const int id : table_->Successors(previous_)) {
    const lcp::KnownBasis& b = table_->Basis(id);
    const lcp::Residual res = b.Try(W_, w_, &z_, kReject, options_.lemke.restore_above, &work_);
    if (!lcp::IsSolution(res, options_.lemke.accept_tolerance)) continue;
    result_.worst_residual = std::max(result_.worst_residual, res.Worst());
    dv_.noalias() = problem_.MinvJt() * z_.segment(layout_.lambda_n(), layout_.impulses());
    previous_ = id;
    if (observer_) {
      basis_ = b.z_basic();
      have_basis_ = true;
    }
    return true;
  }
  return false;
}

// Verifying: every table basis that solves this step against the selection's answer in dv_.
void RouthSampler::VerifyKnownBases() {
  constexpr double kReject = 1e-9;  // as TryKnownBases
  const double tol = options_.distinct_tolerance * std::max(1.0, dv_.cwiseAbs().maxCoeff());
  for (const int id : table_->Successors(previous_)) {
    const lcp::Residual res =
        table_->Basis(id).Try(W_, w_, &z3_, kReject, options_.lemke.restore_above, &work_);
    if (!lcp::IsSolution(res, options_.lemke.accept_tolerance)) continue;
    dv_warm_.noalias() = problem_.MinvJt() * z3_.segment(layout_.lambda_n(), layout_.impulses());
    checks_.push_back({id, (dv_warm_ - dv_).cwiseAbs().maxCoeff() > tol});
  }
}

void RouthSampler::SetBasisTable(const StepBasisTable* table, bool verify) {
  table_ = table;
  verify_ = verify;
  warm_ = options_.warm_start && !options_.detect_non_unique && table_ && !table_->empty();
}

// After a path: the table's id of the basis it ended on.
void RouthSampler::NotePathBasis() {
  previous_ = table_ && have_basis_ ? table_->Id(basis_) : StepBasisTable::kUnknown;
}

// The step LCP (W_, w_) by the selection's solves (z_ or z2_, and dv_): the answer kept, or null
// when no solver accepted one. With the warm start on, the basis of the answer kept is the next
// step's first try.
const VectorXd* RouthSampler::SolveStep(bool random, UniformSource* choices) {
  SampleResult& r = result_;
  bool alt_ok = false;
  if (random) {
    for (Eigen::Index i = 0; i < covering_.size(); ++i)
      covering_(i) = std::exp(10.0 * choices->NextUniform() - 5.0);
    for (size_t i = lex_order_.size(); i > 1; --i) {  // Fisher-Yates from the sample's stream
      const size_t j = std::min(i - 1, static_cast<size_t>(choices->NextUniform() * i));
      std::swap(lex_order_[i - 1], lex_order_[j]);
    }
    // Inputs built here from the validated problem: no per-solve check (lcp::InputCheck).
    const lcp::SolveInfo alt = random_lemke_.SolveWithCovering(W_, w_, covering_, &z2_, &lex_order_,
                                                               lcp::InputCheck::kCallerValidated);
    alt_ok = alt.ok();
    step_pivots_ += alt.pivots;
    if (alt_ok) {
      r.worst_residual = std::max(r.worst_residual, alt.residual.Worst());
      dv2_.noalias() = problem_.MinvJt() * z2_.segment(layout_.lambda_n(), layout_.impulses());
    }
  }
  ++r.lcp_solves;
  if (random && alt_ok && !options_.detect_non_unique) {  // the drawn solve decides the step
    dv_ = dv2_;
    if (warm_ || observer_) have_basis_ = random_lemke_.FinalBasis(&basis_);
    return &z2_;
  }
  const lcp::SolveInfo info =
      solver_->Solve(W_, w_, &z_, &z_low_, lcp::InputCheck::kCallerValidated);
  if (info.attempts > 1) ++r.lcp_fallbacks;
  step_pivots_ += info.pivots;
  r.worst_residual = std::max(r.worst_residual, info.residual.Worst());
  if (!info.ok()) return nullptr;
  if (info.low_part) {
    IncrementInTwoParts();
  } else {
    dv_.noalias() = problem_.MinvJt() * z_.segment(layout_.lambda_n(), layout_.impulses());
  }
  if (!alt_ok) {  // if the drawn path failed, the covering-1 answer stands
    if (warm_ || observer_) have_basis_ = !info.low_part && solver_->FinalBasis(&basis_);
    return &z_;
  }
  if ((dv2_ - dv_).cwiseAbs().maxCoeff() >
      options_.distinct_tolerance * std::max(1.0, dv_.cwiseAbs().maxCoeff())) {
    r.non_unique_step = true;
  }
  dv_ = dv2_;
  have_basis_ = observer_ && random_lemke_.FinalBasis(&basis_);  // warm_ is off here
  return &z2_;
}

const SampleResult& RouthSampler::Run(PSource& source, UniformSource* choices) {
  const bool random = options_.selection == Selection::kRandom;
  if (random && !choices)
    InvalidArgument("choices", "null", "Selection::kRandom needs a uniform source");
  SampleResult& r = result_;
  r.non_unique_step = false;
  r.check_violations = 0;
  for (size_t i = 0; i < lex_order_.size(); ++i) lex_order_[i] = static_cast<int>(i);
  r.status = SampleStatus::kTerminated;
  r.lcp_solves = 0;
  r.lcp_fallbacks = 0;
  r.warm_starts = 0;
  have_basis_ = false;
  previous_ = StepBasisTable::kFirstStep;
  r.worst_residual = 0;
  r.outcome = CheckReport{};
  total_impulse_.setZero();
  accepted_scale_ = 0;
  ClearTrajectory();
  v_ = problem_.v_minus();
  if (options_.keep_trajectory) RecordTrajectoryPoint();
  const double tol = options_.termination_tolerance;
  for (int step = 0;; ++step) {
    // Termination is tested before each solve (docs/examples.md §1.5): a non-colliding v- costs
    // nothing.
    jnv_.noalias() = problem_.Jn() * v_;
    if (jnv_.minCoeff() >= -tol) break;
    if (jammed_) {  // v = 0 is the only state the law can end in (impact/jam.hpp)
      v_.setZero();
      if (options_.keep_trajectory) RecordTrajectoryPoint();
      break;
    }
    if (step >= options_.max_steps) {
      r.status = SampleStatus::kStepCap;
      break;
    }
    source.NextInState(step, StepState{jnv_, tol}, p_);
    IMPACTSET_ASSERT(p_.minCoeff() >= 0 && p_.maxCoeff() <= 1);
    lambda_max_ = options_.step * p_;
    RouthStepVector(problem_, v_, lambda_max_, &w_);
    const VectorXd* kept = &z_;  // the step's chosen LCP solution
    step_pivots_ = 0;
    checks_.clear();
    const bool warm = warm_ && !verify_ && TryKnownBases();
    if (warm) {
      ++r.lcp_solves;
      ++r.warm_starts;
    } else {
      kept = SolveStep(random, choices);
      if (!kept) {
        r.status = SampleStatus::kLcpFailure;
        break;
      }
      if (warm_ && verify_) VerifyKnownBases();
      NotePathBasis();
    }
    if (observer_) {
      observer_->OnStep(StepRecord{step, warm, checks_, step_pivots_, have_basis_, basis_, &w_});
    }
    if (options_.check_steps) {
      const VectorXd& z = *kept;
      const CheckReport c =
          CheckImpulse(problem_, v_, v_ + dv_, z.segment(layout_.lambda_n(), problem_.m()),
                       z.segment(layout_.lambda_d(), problem_.m() * problem_.k()),
                       CheckTolerances{}, &lambda_max_);
      if (!c.ok) ++r.check_violations;
    }
    v_ += dv_;
    total_impulse_ += kept->segment(layout_.lambda_n(), layout_.impulses());
    accepted_scale_ += std::max(1.0, w_.cwiseAbs().maxCoeff());
    if (options_.keep_trajectory) RecordTrajectoryPoint();
  }
  if (r.status == SampleStatus::kTerminated) {
    r.outcome =
        CheckOutcome(problem_, v_, total_impulse_, options_.outcome_tolerances, accepted_scale_);
    if (!r.outcome.ok) r.status = SampleStatus::kNonPhysical;
  }
  r.v_plus = v_;
  r.contact_velocity.noalias() = problem_.ContactJacobian() * v_;
  const double ke0 = problem_.KineticEnergy(problem_.v_minus());
  r.energy_ratio = ke0 > 0 ? problem_.KineticEnergy(v_) / ke0 : 1.0;
  return r;
}

}  // namespace impactset::impact
