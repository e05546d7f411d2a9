#include <impactset/common/parse_number.hpp>

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

#include <impactset/common/error_policy.hpp>

namespace impactset {

namespace {

// The text after one leading '+' that from_chars does not take; a '+' before a sign stays (and
// is refused): "+-1" is not a number.
std::string_view WithoutPlus(std::string_view text) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+') {
    return text.substr(1);
  }
  return text;
}

[[noreturn]] void Refuse(std::string_view text, const std::string& what, const char* rule) {
  std::string quoted(1, '\'');  // appended, not "'" + std::string: GCC 12's -Wrestrict misreads it
  quoted.append(text).push_back('\'');
  InvalidArgument(what, quoted, rule);
}

}  // namespace

double ParseReal(std::string_view text, const std::string& what) {
  const std::string_view digits = WithoutPlus(text);
  double x = 0;
  const char* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, x, std::chars_format::general);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    Refuse(text, what, "out of the range of a double");
  }
  if (ec != std::errc() || ptr != end || digits.empty()) Refuse(text, what, "not a number");
  if (!std::isfinite(x)) Refuse(text, what, "not a finite number");
  return x;
}

long long ParseInteger(std::string_view text, const std::string& what) {
  const std::string_view digits = WithoutPlus(text);
  long long x = 0;
  const char* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, x, 10);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    Refuse(text, what, "out of the range of a 64-bit integer");
  }
  if (ec != std::errc() || ptr != end || digits.empty()) Refuse(text, what, "not an integer");
  return x;
}

std::string_view StripBlanks(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

int NarrowToInt(long long value, std::string_view field) {
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
    InvalidArgument(std::string(field), value, "out of the range of int");
  }
  return static_cast<int>(value);
}

}  // namespace impactset
