#pragma once
// The compass gait's touchdown state as a parametrised built-in (`--system compass-touchdown`):
// the scene of src/impactset/systems/scenes/compass-gait.json (docs/examples.md §3.3) with the
// inter-leg angle, the angular velocity and the dimensions as parameters, so batches can range over
// touchdown states.
#include <numbers>

#include <impactset/systems/scene.hpp>

namespace impactset::systems {

/// Two legs of length l with a point mass m at mid-leg, hinged at the pelvis, rotating rigidly
/// at `rate` about the trailing foot (at the origin) at the instant the leading foot touches the
/// floor. q = (-l sin phi, l cos phi, -phi, phi) with phi = angle / 2; h = |rate|, N = 5 as in
/// the scene file. The defaults reproduce the built-in `compass-gait` scene.
struct CompassTouchdownParams {
  double angle = 156 * std::numbers::pi / 180;  ///< inter-leg angle 2 phi [rad], in (0, pi)
  double rate = 0.25;     ///< angular velocity about the trailing foot [rad/s], finite, != 0
  double leg_length = 1;  ///< l > 0 [m]
  double mass = 1;        ///< m > 0 [kg], at mid-leg
  double mu = 5;          ///< >= 0, friction at both feet
  /// @throws std::invalid_argument naming the field.
  void Validate() const;
};
/// @throws std::invalid_argument from Validate, or "/v_minus: ..." from the scene parser when
///         the leading foot does not approach the floor (rate < 0).
LoadedScene MakeCompassTouchdown(const CompassTouchdownParams& params);

}  // namespace impactset::systems
