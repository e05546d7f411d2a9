#include <impactset/sampling/parallel.hpp>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <impactset/common/error_policy.hpp>

namespace impactset::sampling {

void ParallelFor(long long count, int threads, const std::function<void(long long)>& body) {
  if (count < 0) InvalidArgument("count", count, "must be >= 0");
  if (threads < 0) InvalidArgument("threads", threads, "must be >= 0 (0 = all hardware threads)");
  if (threads == 1 || count <= 1) {
    for (long long i = 0; i < count; ++i) body(i);
    return;
  }
  tbb::task_arena arena(threads == 0 ? tbb::task_arena::automatic : threads);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<long long>(0, count), [&](const auto& range) {
      for (long long i = range.begin(); i != range.end(); ++i) body(i);
    });
  });
}

}  // namespace impactset::sampling
