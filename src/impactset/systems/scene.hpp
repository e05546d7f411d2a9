#pragma once
// Scene files: a planar system described by its frames, joints, shapes and walls plus an impact
// state (q, v-), friction and sampler settings; loading one builds the ImpactProblem
// (docs/scene-format.md, the geometry conventions of docs/examples.md §2).
#include <string>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/systems/matrix_input.hpp>
#include <impactset/systems/planar_tree.hpp>

namespace impactset::systems {

/// A loaded scene: the LoadedProblem (ImpactProblem, sampler settings, the scene's
/// "description" as provenance; it slices to a plain LoadedProblem) plus the geometry it came
/// from, for plotting and checks.
struct LoadedScene : LoadedProblem {
  PlanarTree tree;
  VectorXd q;                      ///< the impact configuration
  ContactOptions contact_options;  ///< gap tolerance and tangent convention used
  std::vector<Contact> contacts;   ///< the active contacts; contacts[i] is row i of Jn and Jf
};

/// Parses a scene document (schema: docs/scene-format.md). The problem's contacts are the active
/// candidates (phi <= gap tolerance) in the authors' loop order (docs/examples.md §2.3); D is
/// (+Jf_i, -Jf_i) per contact (k = 2), or empty (k = 0, frictionless scenes).
/// @throws std::invalid_argument whose message starts with the JSON path of the offending
///         value ("/shapes/2/radius: must be > 0"): malformed JSON or a number overflowing a
///         double, duplicate or unknown keys, missing fields, wrong types, non-finite or
///         out-of-range numbers, unknown or duplicate names, wrong vector sizes; "/q" for a
///         penetration beyond the gap tolerance (phi < -gap_tolerance) or no active contact;
///         "/v_minus" when no active contact is approaching (Jn v- < -1e-8 nowhere, so
///         Algorithm 1 would have nothing to do) or a velocity recipe that the joints cannot
///         realise; "/shapes" when M(q) is not positive definite.
LoadedScene ParseSceneJson(const std::string& text);

/// Reads a file and parses it with ParseSceneJson; the message is prefixed with the file path
/// ("scenes/x.json:/q: ...").
LoadedScene LoadSceneJson(const std::string& path);

}  // namespace impactset::systems
