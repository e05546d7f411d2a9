#pragma once
// Where Algorithm 1 gets its impulse-cap fractions p in [0,1]^m (the step's normal-impulse cap
// is lambda_max = h p; docs/model.md §5.1).
#include <vector>

#include <impactset/common/eigen_types.hpp>

namespace impactset::impact {

/// What Algorithm 1 knows when it asks for a step's p: the contacts' normal velocities Jn v at
/// the start of the step and the termination tolerance (contact i still approaches iff
/// normal_velocity(i) < -tolerance).
struct StepState {
  const VectorXd& normal_velocity;
  double tolerance = 0;
  bool Approaching(Eigen::Index i) const { return normal_velocity(i) < -tolerance; }
};

/// A source of p-vectors. Implementations: iid and Sobol streams (sampling/), the ordered
/// sequences of the mixed design (sampling/streams.hpp), a fixed schedule.
class PSource {
 public:
  virtual ~PSource() = default;
  /// Writes p for the given step (0-based) into p (size m); every entry must lie in [0, 1].
  virtual void Next(int step, Eigen::Ref<VectorXd> p) = 0;
  /// What Algorithm 1 calls. A source may choose p from the state (which contacts still
  /// approach): the p it writes is still a point of the cube, so the outcome is one of the
  /// law's (the set is the image of every p-sequence), and replaying the p-sequence it wrote
  /// reproduces the sample. The default ignores the state.
  virtual void NextInState(int step, const StepState& /*state*/, Eigen::Ref<VectorXd> p) {
    Next(step, p);
  }
};

/// Uniform numbers in [0, 1) for choices inside a sample (e.g. which solution of a non-unique
/// step LCP to keep). Implementations must be deterministic functions of the sample.
class UniformSource {
 public:
  virtual ~UniformSource() = default;
  virtual double NextUniform() = 0;
};

/// Replays a fixed list of p-vectors (a deterministic ordering such as p = (1, 0), (0, 1), ...),
/// repeating the last one when the steps outrun the list.
class FixedSchedule final : public PSource {
 public:
  /// @throws std::invalid_argument if the list is empty, sizes differ or an entry is outside [0,1].
  explicit FixedSchedule(std::vector<VectorXd> schedule);
  void Next(int step, Eigen::Ref<VectorXd> p) override;

 private:
  std::vector<VectorXd> schedule_;
};

}  // namespace impactset::impact
