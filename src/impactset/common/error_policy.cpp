#include <impactset/common/error_policy.hpp>

#include <cstdio>
#include <cstdlib>

namespace impactset::internal {

void AssertFailed(const char* cond, const char* file, int line) {
  std::fprintf(stderr, "impactset internal invariant violated: %s at %s:%d\n", cond, file, line);
  std::abort();
}

bool AssertsArmedInLibrary() { return IMPACTSET_ASSERTS_ARMED == 1; }

}  // namespace impactset::internal
