#pragma once
// Shared by the fuzz targets: what counts as a finding, and scratch files for readers that take
// a path. A target passes when the library returns or throws one of its documented error types:
// std::invalid_argument (bad input, common/error_policy.hpp) or std::runtime_error (I/O: a file
// that cannot be read or written). Anything else (another exception, a crash, a sanitizer
// report, a hang) escapes to libFuzzer, or to the replay main, as a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace impactset::fuzz {

/// With IMPACTSET_FUZZ_VERBOSE set, the documented errors are printed (what a seed reaches).
inline void Report(const char* kind, const std::exception& e) {
  if (std::getenv("IMPACTSET_FUZZ_VERBOSE")) std::fprintf(stderr, "  %s: %s\n", kind, e.what());
}

template <typename F>
void AllowDocumentedErrors(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    Report("invalid_argument", e);
  } catch (const std::runtime_error& e) {
    Report("runtime_error", e);
  }
}

/// A file holding the input bytes, removed when it goes out of scope: under $TMPDIR (default
/// /tmp), named by process and tag so parallel fuzzers do not share one.
class ScratchFile {
 public:
  ScratchFile(const std::uint8_t* data, std::size_t size, const std::string& name) {
    dir_ =
        std::filesystem::temp_directory_path() / ("impactset-fuzz-" + std::to_string(::getpid()));
    path_ = (dir_ / name).string();
    std::filesystem::create_directories(std::filesystem::path(path_).parent_path());
    std::FILE* f = std::fopen(path_.c_str(), "wb");
    if (!f) throw std::logic_error("fuzz: cannot create " + path_);  // escapes: a broken setup
    if (size > 0) std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  ~ScratchFile() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::filesystem::path dir_;
  std::string path_;
};

inline std::string Text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace impactset::fuzz
