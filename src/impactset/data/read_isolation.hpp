#pragma once
// Reads of HDF5 files that come from outside run first in a child process. Debian 12's libhdf5
// (1.10) crashes (heap overflows, overlapping memcpy) or loops forever on some corrupt files
// (found by fuzzing, docs/robustness.md); inside the caller's process that would be a crash or a
// hang of impactset, not a message. The child (fork) does the whole read and exits; the caller
// then reads for real only if the child did not crash or run out of time:
//   - child killed by a signal, or exiting with a status (a sanitizer's report in a sanitized
//     build): std::runtime_error "FILE: libhdf5 crashed reading it (signal N | exit status N):
//     the file is corrupt";
//   - child still reading after the limit (kDefaultReadLimit + 1 s per 20 MB of file): it is
//     killed and std::runtime_error "FILE: reading it did not finish in T s: ...".
// A read that merely fails (an HDF5 error, a misshapen dataset) fails again in the caller, with
// its own message. The cost is one fork and a second read of the file.
#include <chrono>

namespace impactset::data {

/// The time a read may take before the child is killed: this plus 1 s per 20 MB of file.
inline constexpr std::chrono::milliseconds kDefaultReadLimit{30000};

/// On (the default) or off for the whole process, and the base time limit. The libFuzzer build
/// turns it off so that the fuzzer sees every fault in its own process.
void SetReadIsolation(bool on, std::chrono::milliseconds base_limit = kDefaultReadLimit);
bool ReadIsolation();

}  // namespace impactset::data
