#pragma once
// The authors' initial-angle sweep state for the compliant comparison (Halm & Posa §5.4.1,
// docs/examples.md §3.7, sweep 2): a dropped body tilted by a small angle so that its contacts no
// longer touch at the same instant.
#include <string>

#include <impactset/impact/impact_problem.hpp>
#include <impactset/systems/scene.hpp>

namespace impactset::simulators {

/// A tilted drop: the scene's impact contacts at the tilted configuration.
struct TiltedDrop {
  impact::ImpactProblem problem;  ///< M, Jn, Jf at q; the scene's contacts in the scene's order
  VectorXd gap;                   ///< phi_i at q; the lowest contact has phi = 0
  VectorXd q;                     ///< the tilted, lifted configuration
};

/// Rotates the scene's first frame (which must have a floating joint) by `angle` (rad) about its
/// origin, lifts it along its y coordinate by the penetration depth of the lowest of the scene's
/// active contacts, and scales v- so that kinetic plus gravitational energy (gravity g, m/s^2,
/// along -y) equal the untilted drop's: for a vertical drop, v_y = -sqrt(v0^2 - 2 g depth)
/// (the authors' CompareCompliantContact).
/// @throws std::invalid_argument if frame 0 is not floating, |angle| >= 0.1 (this is a small-tilt
///         helper) or the lift costs more energy than the drop has.
TiltedDrop TiltScene(const systems::LoadedScene& scene, double angle, double gravity = 9.81);

}  // namespace impactset::simulators
