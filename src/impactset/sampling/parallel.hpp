#pragma once
// A parallel loop for the modules above sampling/ (sampling/ is the one module that wraps oneTBB):
// the set outputs compute independent hulls and net queries with it.
#include <functional>

namespace impactset::sampling {

/// Calls body(i) for every i in [0, count), on up to `threads` worker threads (0 = every hardware
/// thread, 1 = inline in the caller, in increasing i). The calls may run concurrently and in any
/// order, so body must write only to what index i owns; the results are then the same at any
/// thread count. An exception thrown by body is rethrown after the loop stops.
/// @throws std::invalid_argument for count < 0 or threads < 0.
void ParallelFor(long long count, int threads, const std::function<void(long long)>& body);

}  // namespace impactset::sampling
