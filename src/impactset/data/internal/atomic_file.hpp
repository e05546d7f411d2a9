#pragma once
// Output files that are either absent, the previous complete file, or the new complete file,
// whatever happens to the writer (kill -9, power loss, a full disk). The file is built in memory
// (HDF5's core driver: a full disk cannot fail HDF5 half way, and HDF5 1.10 crashes when closing
// a file whose disk writes failed), written under a temporary name in the same directory, flushed
// to disk (fsync), renamed over the output, and the directory entry flushed. Temporary names are
// PATH.tmp-<host>-<pid>; the next write of PATH on the same host removes those whose process is
// gone (a killed writer's).
#include <cstdint>
#include <functional>
#include <string>

namespace H5 {
class H5File;
}

namespace impactset::data::internal {

/// Builds the file with fill(file) and writes it to path as above.
/// @throws std::runtime_error "path: ..." for HDF5 errors and for system errors (a full disk is
///         named as such); no temporary file is left behind.
void WriteHdf5Atomically(const std::string& path, const std::function<void(H5::H5File&)>& fill);

/// The same for a file too large to build in memory: fill(file) writes it on disk, under the
/// temporary name. A full disk could fail HDF5 half way, so the directory must have `bytes` (the
/// expected size) free first; else "path: no space left on the device" and nothing is written.
/// @throws std::runtime_error as WriteHdf5Atomically; no temporary file is left behind.
void WriteHdf5OnDisk(const std::string& path,
                     std::uintmax_t bytes,
                     const std::function<void(H5::H5File&)>& fill);

}  // namespace impactset::data::internal
