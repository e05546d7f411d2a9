#pragma once
// qpos and qvel as users write them: comma lists or JSON files.
#include <string>

#include <impactset/common/eigen_types.hpp>

namespace impactset::robots {

/// A qpos or qvel vector as users write it: a comma list ("0, 0, 0.5, 1, 0, 0, 0"), or the path
/// of a JSON file holding either a list of numbers or an object with the key `field` ("qpos" or
/// "qvel") whose value is that list (one file can carry both). Decided by content: a text whose
/// every comma-separated item is a number is a list, whatever its length; anything else is a
/// file's path (a missing one is refused as such), or a list with a bad entry when it has commas
/// and names no file.
/// @throws std::invalid_argument naming the field and what is wrong (unparsable number, missing
///         key, unreadable file).
VectorXd ParseStateVector(const std::string& text, const std::string& field);

/// Whether every comma-separated item of `text` is a number (ParseReal): the text is then a list.
bool IsNumberList(const std::string& text);

}  // namespace impactset::robots
