#pragma once
// The child-process probe behind data/read_isolation.hpp. Included only by data/*.cpp.
#include <functional>
#include <string>

namespace impactset::data::internal {

/// Runs read() in a forked child when ReadIsolation() is on; returns when the child exited
/// (whatever read() threw), throws std::runtime_error naming `path` when it was killed by a signal
/// or did not finish in time. Without isolation, or when fork fails, it returns at once.
void ProbeInChild(const std::string& path, const std::function<void()>& read);

}  // namespace impactset::data::internal
