#pragma once
// impactset's three-tier error policy, written down once:
//  1. bad user input            -> std::invalid_argument naming the field, its value and the rule
//                                  (use InvalidArgument below);
//  2. broken internal invariant -> IMPACTSET_ASSERT, armed in Debug builds and wherever
//                                  IMPACTSET_ENABLE_ASSERTS is defined (CMake option, default ON);
//  3. numerical non-convergence -> a status in the solver's result struct, never an exception.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

namespace impactset {

/// Builds "<field> = <value>: <rule>" and throws std::invalid_argument with it.
template <typename Value>
[[noreturn]] void InvalidArgument(const std::string& field,
                                  const Value& value,
                                  const std::string& rule) {
  std::ostringstream os;
  os << field << " = " << value << ": " << rule;
  throw std::invalid_argument(os.str());
}

namespace internal {
/// Prints the broken invariant to stderr and aborts. Out of line and cold (error_policy.cpp), so
/// an armed IMPACTSET_ASSERT costs a compare and a never-taken branch where it stands.
[[noreturn, gnu::cold]] void AssertFailed(const char* cond, const char* file, int line);
/// Whether IMPACTSET_ASSERT is armed inside the impactset libraries (their build setting, not the
/// caller's): lets a test fail when the code it checks was built with the invariants disarmed.
bool AssertsArmedInLibrary();
}  // namespace internal
}  // namespace impactset

#if !defined(NDEBUG) || defined(IMPACTSET_ENABLE_ASSERTS)
#define IMPACTSET_ASSERTS_ARMED 1
#define IMPACTSET_ASSERT(cond) \
  ((cond) ? static_cast<void>(0) : ::impactset::internal::AssertFailed(#cond, __FILE__, __LINE__))
#else
#define IMPACTSET_ASSERTS_ARMED 0
#define IMPACTSET_ASSERT(cond) static_cast<void>(0)
#endif
