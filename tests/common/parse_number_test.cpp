// common/parse_number.hpp: exact values of the accepted spellings, and each refusal with the
// message that names the text and the rule.
#include <impactset/common/parse_number.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace impactset {
namespace {

// The message of the refusal, or "" when the text was accepted.
template <typename Parse>
std::string Refusal(Parse parse, const std::string& text) {
  try {
    parse(text, "x");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string RealRefusal(const std::string& text) { return Refusal(ParseReal, text); }
std::string IntegerRefusal(const std::string& text) { return Refusal(ParseInteger, text); }

TEST(ParseReal, ReadsDecimalSpellingsExactly) {
  EXPECT_EQ(ParseReal("2.5", "x"), 2.5);
  EXPECT_EQ(ParseReal("-1e-3", "x"), -1e-3);
  EXPECT_EQ(ParseReal("+0.1", "x"), 0.1);  // the nearest double, as the compiler reads 0.1
  EXPECT_EQ(ParseReal(".5", "x"), 0.5);
  EXPECT_EQ(ParseReal("3.", "x"), 3.0);
  EXPECT_EQ(ParseReal("1E5", "x"), 1e5);
  EXPECT_EQ(ParseReal("7", "x"), 7.0);
  EXPECT_EQ(ParseReal("0.30000000000000004", "x"), 0.1 + 0.2);  // every digit counts
  EXPECT_EQ(ParseReal("1.7976931348623157e308", "x"), std::numeric_limits<double>::max());
  EXPECT_EQ(ParseReal("1e-310", "x"), 1e-310);  // subnormal: read, not refused
  const double negative_zero = ParseReal("-0", "x");
  EXPECT_EQ(negative_zero, 0.0);
  EXPECT_TRUE(std::signbit(negative_zero));
}

TEST(ParseReal, RefusesAnythingElseNamingTextAndRule) {
  EXPECT_EQ(RealRefusal("abc"), "x = 'abc': not a number");
  EXPECT_EQ(RealRefusal(""), "x = '': not a number");
  EXPECT_EQ(RealRefusal("1e3 "), "x = '1e3 ': not a number");
  EXPECT_EQ(RealRefusal(" 1"), "x = ' 1': not a number");
  EXPECT_EQ(RealRefusal("1x"), "x = '1x': not a number");
  EXPECT_EQ(RealRefusal("1e"), "x = '1e': not a number");
  EXPECT_EQ(RealRefusal("+"), "x = '+': not a number");
  EXPECT_EQ(RealRefusal("+-1"), "x = '+-1': not a number");
  EXPECT_EQ(RealRefusal("++1"), "x = '++1': not a number");
  EXPECT_EQ(RealRefusal("0x1p3"), "x = '0x1p3': not a number");
  EXPECT_EQ(RealRefusal("1,5"), "x = '1,5': not a number");
  EXPECT_EQ(RealRefusal("inf"), "x = 'inf': not a finite number");
  EXPECT_EQ(RealRefusal("-infinity"), "x = '-infinity': not a finite number");
  EXPECT_EQ(RealRefusal("nan"), "x = 'nan': not a finite number");
  EXPECT_EQ(RealRefusal("1e999"), "x = '1e999': out of the range of a double");
  EXPECT_EQ(RealRefusal("-1e999"), "x = '-1e999': out of the range of a double");
  EXPECT_EQ(RealRefusal("1e-400"), "x = '1e-400': out of the range of a double");
  try {
    ParseReal("two", "t.csv:3: angle");
    ADD_FAILURE() << "'two' was read as a number";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "t.csv:3: angle = 'two': not a number");
  }
}

TEST(ParseInteger, ReadsDecimalIntegersExactly) {
  EXPECT_EQ(ParseInteger("0", "x"), 0);
  EXPECT_EQ(ParseInteger("42", "x"), 42);
  EXPECT_EQ(ParseInteger("+7", "x"), 7);
  EXPECT_EQ(ParseInteger("-3", "x"), -3);
  EXPECT_EQ(ParseInteger("9223372036854775807", "x"), std::numeric_limits<long long>::max());
  EXPECT_EQ(ParseInteger("-9223372036854775808", "x"), std::numeric_limits<long long>::min());
}

TEST(ParseInteger, RefusesFractionsExponentsAndOverflow) {
  EXPECT_EQ(IntegerRefusal("3.0"), "x = '3.0': not an integer");
  EXPECT_EQ(IntegerRefusal("1e3"), "x = '1e3': not an integer");
  EXPECT_EQ(IntegerRefusal(" 3"), "x = ' 3': not an integer");
  EXPECT_EQ(IntegerRefusal("3 "), "x = '3 ': not an integer");
  EXPECT_EQ(IntegerRefusal(""), "x = '': not an integer");
  EXPECT_EQ(IntegerRefusal("+-3"), "x = '+-3': not an integer");
  EXPECT_EQ(IntegerRefusal("0x10"), "x = '0x10': not an integer");
  EXPECT_EQ(IntegerRefusal("9223372036854775808"),
            "x = '9223372036854775808': out of the range of a 64-bit integer");
}

TEST(StripBlanks, RemovesSpacesAndTabsAtTheEndsOnly) {
  EXPECT_EQ(StripBlanks(" \t1.5 \t"), "1.5");
  EXPECT_EQ(StripBlanks("1 5"), "1 5");
  EXPECT_EQ(StripBlanks("   "), "");
  EXPECT_EQ(StripBlanks(""), "");
  EXPECT_EQ(StripBlanks("\n1"), "\n1");  // other whitespace stays, and ParseReal refuses it
}

}  // namespace
}  // namespace impactset
