#include <impactset/common/git_revision.hpp>  // generated at every build by cmake/git_revision.cmake
#include <impactset/common/version.hpp>  // generated at configure time from common/version.hpp.in

namespace impactset {

const char* GitRevision() { return IMPACTSET_GIT_REVISION; }

}  // namespace impactset
