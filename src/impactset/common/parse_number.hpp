#pragma once
// Numbers from text: the one reader behind every number the library parses from a string
// (--vary ranges, --param values, CSV state tables and output matrices, --qpos/--qvel lists), so
// that every surface accepts the same spellings and names a bad one the same way.
//
// Contract. The whole text must be the number: no surrounding whitespace (callers that split a
// list, e.g. at commas, strip each item with StripBlanks first), nothing after it.
//  * ParseReal: std::from_chars' general format ("2.5", "-1e-3", ".5", "3.", "1E5"), optionally
//    after one '+' ("+2.5"). Refused: hexadecimal ("0x1p3"), "inf", "nan", values beyond the
//    range of a double ("1e999") and values too small to be told from 0 ("1e-400"; subnormal
//    values such as "1e-310" are read).
//  * ParseInteger: optional '+' or '-', decimal digits, within the range of long long. Refused:
//    a fraction or an exponent ("3.0", "1e3").
// Errors follow common/error_policy.hpp: std::invalid_argument "WHAT = 'TEXT': RULE", WHAT being
// the caller's name for the text (e.g. "angle low", "qpos[2]").
#include <string>
#include <string_view>

namespace impactset {

/// The finite double spelled by `text` (see the contract above).
/// @throws std::invalid_argument "WHAT = 'TEXT': not a number" (or "not a finite number", or
///         "out of the range of a double").
double ParseReal(std::string_view text, const std::string& what);

/// The integer spelled by `text` (see the contract above).
/// @throws std::invalid_argument "WHAT = 'TEXT': not an integer" (or "out of the range of a
///         64-bit integer").
long long ParseInteger(std::string_view text, const std::string& what);

/// `value` as an int: an integer read as 64 bits (an option's value, a file's attribute) that the
/// library holds as an int.
/// @throws std::invalid_argument "FIELD = VALUE: out of the range of int".
int NarrowToInt(long long value, std::string_view field);

/// `text` without the spaces and tabs at either end: a list item before ParseReal.
std::string_view StripBlanks(std::string_view text);

}  // namespace impactset
