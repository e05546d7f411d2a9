#include <impactset/data/read_isolation.hpp>

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include <impactset/data/internal/isolated_read.hpp>

namespace impactset::data {

namespace {
#ifdef IMPACTSET_NO_READ_ISOLATION
std::atomic<bool> isolation{false};
#else
std::atomic<bool> isolation{true};
#endif
std::atomic<long long> base_limit_ms{kDefaultReadLimit.count()};

// Generous: a legitimate file is read at hundreds of MB/s; only a looping libhdf5 takes this long.
std::chrono::milliseconds Limit(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return std::chrono::milliseconds(base_limit_ms.load() + (ec ? 0 : size / 20000));
}

// waitpid with a deadline: the child's status, or nothing when it is still running at the end.
bool WaitFor(pid_t pid, std::chrono::milliseconds limit, int* status) {
  const auto end = std::chrono::steady_clock::now() + limit;
  auto nap = std::chrono::microseconds(200);  // most reads end within milliseconds
  for (;;) {
    const pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) return true;  // not ours to wait for any more: read unguarded
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(nap);
    nap = std::min(nap * 2, std::chrono::microseconds(20000));
  }
}

}  // namespace

void SetReadIsolation(bool on, std::chrono::milliseconds base_limit) {
  isolation.store(on);
  base_limit_ms.store(base_limit.count());
}
bool ReadIsolation() { return isolation.load(); }

namespace internal {

void ProbeInChild(const std::string& path, const std::function<void()>& read) {
  if (!ReadIsolation()) return;
  const pid_t pid = fork();
  if (pid < 0) return;  // no child: the caller reads unguarded
  if (pid == 0) {
    try {
      read();
    } catch (...) {
    }
    _exit(0);  // no atexit handlers, no flushing of the parent's buffers
  }
  const std::chrono::milliseconds limit = Limit(path);
  int status = 0;
  if (!WaitFor(pid, limit, &status)) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    throw std::runtime_error(path + ": reading it did not finish in " +
                             std::to_string(limit.count()) +
                             " ms (libhdf5 loops on some corrupt files): the file is corrupt");
  }
  // The child ends with _exit(0) or not at all: a signal, or any other exit (a sanitizer's
  // report on libhdf5's own memory errors ends the process with a status), is the read crashing.
  if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0)) {
    const std::string how = WIFSIGNALED(status)
                                ? "signal " + std::to_string(WTERMSIG(status))
                                : "exit status " + std::to_string(WEXITSTATUS(status));
    throw std::runtime_error(path + ": libhdf5 crashed reading it (" + how +
                             "): the file is corrupt");
  }
}

}  // namespace internal
}  // namespace impactset::data
