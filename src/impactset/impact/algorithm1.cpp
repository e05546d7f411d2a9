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
    bool alt_ok = false;
    if (random) {
      for (Eigen::Index i = 0; i < covering_.size(); ++i)
        covering_(i) = std::exp(10.0 * choices->NextUniform() - 5.0);
      for (size_t i = lex_order_.size(); i > 1; --i) {  // Fisher-Yates from the sample's stream
        const size_t j = std::min(i - 1, static_cast<size_t>(choices->NextUniform() * i));
        std::swap(lex_order_[i - 1], lex_order_[j]);
      }
      // Inputs built here from the validated problem: no per-solve check (lcp::InputCheck).
      const lcp::SolveInfo alt = random_lemke_.SolveWithCovering(
          W_, w_, covering_, &z2_, &lex_order_, lcp::InputCheck::kCallerValidated);
      alt_ok = alt.ok();
      if (alt_ok) {
        r.worst_residual = std::max(r.worst_residual, alt.residual.Worst());
        dv2_.noalias() = problem_.MinvJt() * z2_.segment(layout_.lambda_n(), layout_.impulses());
      }
    }
    if (random && alt_ok && !options_.detect_non_unique) {
      ++r.lcp_solves;  // the drawn solve decided the step
      dv_ = dv2_;
      kept = &z2_;
    } else {
      const lcp::SolveInfo info =
          solver_->Solve(W_, w_, &z_, &z_low_, lcp::InputCheck::kCallerValidated);
      ++r.lcp_solves;
      if (info.attempts > 1) ++r.lcp_fallbacks;
      r.worst_residual = std::max(r.worst_residual, info.residual.Worst());
      if (!info.ok()) {
        r.status = SampleStatus::kLcpFailure;
        break;
      }
      if (info.low_part) {
        IncrementInTwoParts();
      } else {
        dv_.noalias() = problem_.MinvJt() * z_.segment(layout_.lambda_n(), layout_.impulses());
      }
      if (alt_ok) {  // if the drawn path failed, the covering-1 answer stands
        if ((dv2_ - dv_).cwiseAbs().maxCoeff() >
            options_.distinct_tolerance * std::max(1.0, dv_.cwiseAbs().maxCoeff())) {
          r.non_unique_step = true;
        }
        dv_ = dv2_;
        kept = &z2_;
      }
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
