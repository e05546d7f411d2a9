#include <impactset/laws/seghete_murphey_enumeration.hpp>

#include <cmath>
#include <numbers>
#include <string>

#include <impactset/common/error_policy.hpp>
#include <impactset/laws/seghete_murphey_maps.hpp>

namespace impactset::laws {

void PropagativeEnumerationOptions::Validate() const {
  const std::string s = "PropagativeEnumerationOptions.";
  if (!(e >= 0 && e <= 1)) InvalidArgument(s + "e", e, "must lie in [0, 1]");
  if (!(violation_tolerance >= 0)) {
    InvalidArgument(s + "violation_tolerance", violation_tolerance, "must be >= 0");
  }
  if (max_reflections < 1) InvalidArgument(s + "max_reflections", max_reflections, "must be >= 1");
  if (max_sequences < 1) InvalidArgument(s + "max_sequences", max_sequences, "must be >= 1");
  if (!(distinct_tolerance > 0 && distinct_tolerance < 1)) {
    InvalidArgument(s + "distinct_tolerance", distinct_tolerance, "must lie in (0, 1)");
  }
  if (max_minimality_length < 1 || max_minimality_length > 24) {
    InvalidArgument(s + "max_minimality_length", max_minimality_length, "must lie in [1, 24]");
  }
  if (max_stored_sequences < 0) {
    InvalidArgument(s + "max_stored_sequences", max_stored_sequences, "must be >= 0");
  }
}

namespace {

constexpr int kMaxSubsequenceLength = 24;  // 2^24 products: the most a check may cost

// Def. 1 (2): no proper non-empty subsequence, reflections applied unconditionally, is feasible.
bool Minimal(const impact::ImpactProblem& problem,
             const Cometric& cometric,
             const VectorRef& v_minus,
             const std::vector<int>& sequence,
             double e,
             double tol) {
  const int L = static_cast<int>(sequence.size());
  IMPACTSET_ASSERT(L <= kMaxSubsequenceLength);
  const unsigned long full = (1UL << L) - 1;
  for (unsigned long mask = 1; mask < full; ++mask) {
    VectorXd v = v_minus;
    for (int k = 0; k < L; ++k) {
      if (mask & (1UL << k)) v = ReflectOverContact(problem, cometric, v, sequence[k], e);
    }
    if (cometric.UnitComponents(problem, v).minCoeff() >= -tol) return false;
  }
  return true;
}

class Dfs {
 public:
  Dfs(const impact::ImpactProblem& problem,
      const VectorRef& v_minus,
      const PropagativeEnumerationOptions& options,
      PropagativeOutcomeSet* set)
      : problem_(problem),
        cometric_(problem),
        v_minus_(v_minus),
        options_(options),
        p_norm_(CometricNorm(problem, v_minus)),
        tol_(options.violation_tolerance * p_norm_),
        set_(*set) {}

  void Visit(const VectorXd& v) {
    // Every node leads to at least one more sequence: stop here only if that one would exceed
    // the cap (a tree with exactly max_sequences sequences is complete).
    if (sequences_ >= options_.max_sequences) stop_ = true;
    if (stop_) return;
    const VectorXd c = cometric_.UnitComponents(problem_, v);
    std::vector<int> colliding;
    for (int i = 0; i < problem_.m(); ++i) {
      if (c[i] < -tol_) colliding.push_back(i);
    }
    if (colliding.empty()) {
      Leaf(v);
      return;
    }
    if (colliding.size() > 1) set_.forced_choice = false;
    if (static_cast<int>(sequence_.size()) == options_.max_reflections) {
      ++set_.capped_sequences;
      CountSequence();
      return;
    }
    for (int i : colliding) {
      double lambda = 0;
      const VectorXd w = ReflectOverContact(problem_, cometric_, v, i, options_.e, &lambda);
      ++set_.nodes;
      sequence_.push_back(i);
      multipliers_.push_back(lambda);
      Visit(w);
      sequence_.pop_back();
      multipliers_.pop_back();
      if (stop_) return;
    }
  }

 private:
  void CountSequence() { ++sequences_; }

  void Leaf(const VectorXd& v) {
    CountSequence();
    const int L = static_cast<int>(sequence_.size());
    if (options_.minimal_only && L > 1) {
      if (L > options_.max_minimality_length) {
        ++set_.unchecked_minimality;
      } else if (!Minimal(problem_, cometric_, v_minus_, sequence_, options_.e, tol_)) {
        ++set_.non_minimal_dropped;
        return;
      }
    }
    ++set_.feasible_sequences;
    set_.longest = std::max(set_.longest, L);
    for (PropagativeOutcome& o : set_.outcomes) {
      if (CometricNorm(problem_, v - o.v_plus) <= options_.distinct_tolerance * p_norm_) {
        Add(&o);
        return;
      }
    }
    PropagativeOutcome o;
    o.v_plus = v;
    o.contact_velocity = problem_.ContactJacobian() * v;
    o.lambda = VectorXd::Zero(problem_.m());
    for (int k = 0; k < L; ++k) o.lambda[sequence_[k]] += multipliers_[k];
    o.min_reflections = L;
    o.max_reflections = L;
    const VectorXd c = cometric_.UnitComponents(problem_, v);
    o.residual = p_norm_ > 0 && c.size() > 0 ? std::max(0.0, -c.minCoeff()) / p_norm_ : 0.0;
    const double ke = problem_.KineticEnergy(v_minus_);
    o.energy_ratio = ke > 0 ? problem_.KineticEnergy(v) / ke : 1.0;
    Add(&o);
    set_.outcomes.push_back(std::move(o));
  }

  void Add(PropagativeOutcome* o) {
    const int L = static_cast<int>(sequence_.size());
    ++o->sequence_count;
    o->min_reflections = std::min(o->min_reflections, L);
    o->max_reflections = std::max(o->max_reflections, L);
    if (static_cast<int>(o->sequences.size()) < options_.max_stored_sequences) {
      o->sequences.push_back(sequence_);
    }
  }

  const impact::ImpactProblem& problem_;
  const Cometric cometric_;
  const VectorXd v_minus_;
  const PropagativeEnumerationOptions& options_;
  const double p_norm_;
  const double tol_;
  PropagativeOutcomeSet& set_;
  std::vector<int> sequence_;
  std::vector<double> multipliers_;
  long long sequences_ = 0;

 public:
  bool stop_ = false;
};

}  // namespace

PropagativeOutcomeSet EnumeratePropagative(const impact::ImpactProblem& problem,
                                           const VectorRef& v_minus,
                                           const PropagativeEnumerationOptions& options) {
  options.Validate();
  if (v_minus.size() != problem.n()) {
    InvalidArgument("v_minus size", v_minus.size(), "must be n = " + std::to_string(problem.n()));
  }
  PropagativeOutcomeSet set;
  Dfs dfs(problem, v_minus, options, &set);
  dfs.Visit(v_minus);
  if (dfs.stop_) {
    set.status = EnumerationStatus::kSequenceCap;
  } else if (set.capped_sequences > 0) {
    set.status = EnumerationStatus::kReflectionCap;
  }
  return set;
}

PropagativeOutcomeSet EnumeratePropagative(const impact::ImpactProblem& problem,
                                           const PropagativeEnumerationOptions& options) {
  return EnumeratePropagative(problem, problem.v_minus(), options);
}

bool IsMinimalSequence(const impact::ImpactProblem& problem,
                       const VectorRef& v_minus,
                       const std::vector<int>& sequence,
                       double e,
                       double violation_tolerance) {
  if (static_cast<int>(sequence.size()) > kMaxSubsequenceLength) {
    InvalidArgument("sequence length", sequence.size(),
                    "must be <= " + std::to_string(kMaxSubsequenceLength));
  }
  for (int i : sequence) {
    if (i < 0 || i >= problem.m()) {
      InvalidArgument("sequence entry", i, "must lie in [0, " + std::to_string(problem.m()) + ")");
    }
  }
  if (v_minus.size() != problem.n()) {
    InvalidArgument("v_minus size", v_minus.size(), "must be n = " + std::to_string(problem.n()));
  }
  if (!(violation_tolerance >= 0)) {
    InvalidArgument("violation_tolerance", violation_tolerance, "must be >= 0");
  }
  const Cometric cometric(problem);
  return Minimal(problem, cometric, v_minus, sequence, e,
                 violation_tolerance * CometricNorm(problem, v_minus));
}

namespace {

double Gamma(double s) {
  if (!(s > -1 && s < 1)) InvalidArgument("s", s, "must lie in (-1, 1)");
  return (std::numbers::pi - std::acos(s)) / 2;  // Lemma 4: s = -cos(2 gamma)
}

// ceil that forgives the roundoff of an exact integer ratio (s = 0, -1/2, -cos(pi/k)).
int Ceil(double x) { return static_cast<int>(std::ceil(x * (1 - 1e-12))); }

}  // namespace

int TightReflectionBound(double s) { return Ceil(std::numbers::pi / (2 * Gamma(s))); }

int PaperReflectionBound(double s) { return Ceil(std::numbers::pi / Gamma(s)); }

}  // namespace impactset::laws
