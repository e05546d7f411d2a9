#pragma once
// Edits of a model's text before MuJoCo compiles it (docs/mujoco.md, "Getting to a touchdown
// state"): includes inlined against the model's own folder, a floor added, a URDF's base made
// floating. Text only: no MuJoCo call.
#include <filesystem>
#include <string>

namespace impactset::robots::internal {

/// Whether the text has an <include> element (outside comments).
bool HasInclude(const std::string& text);

/// The text with every <include file="F"/> replaced by the children of F's <mujoco> root,
/// recursively. F relative: against `folder` (the model's own folder, MuJoCo's rule for every
/// include of a model); absolute: as it is (MuJoCo 2.2 prefixes the model's folder to it).
/// @throws std::invalid_argument "LABEL: <include file=\"F\">: ..." for a file that cannot be
///         read, one without a <mujoco> root, an include without `file`, or nesting deeper than
///         kMaxIncludeDepth (a cycle).
std::string ExpandIncludes(const std::string& text,
                           const std::filesystem::path& folder,
                           const std::string& label);
inline constexpr int kMaxIncludeDepth = 32;

/// Whether the text's root element is a URDF <robot>.
bool IsUrdf(const std::string& text);

/// The name of the geom AddFloor adds.
inline constexpr const char* kFloorName = "floor";
/// The MJCF text with a plane z = 0 (normal +z, condim 3, friction 1, contype and conaffinity 1)
/// named kFloorName as the first child of <worldbody>.
/// @throws std::invalid_argument "LABEL: ..." when the text has no <worldbody>.
std::string AddFloor(const std::string& mjcf, const std::string& label);

/// The name of the joint AddFloatingBase adds.
inline constexpr const char* kFloatingJointName = "floating_base";
/// The URDF text with a link named "world" (MuJoCo's world body) and a floating joint
/// kFloatingJointName from it to the root link: MuJoCo then gives the root link a free joint.
/// @throws std::invalid_argument "LABEL: ..." when the root link cannot be told (no link, or
///         none that is not some joint's child) or a link is already named "world".
std::string AddFloatingBase(const std::string& urdf, const std::string& label);

}  // namespace impactset::robots::internal
