#include <impactset/data/output_path.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace impactset::data {

namespace fs = std::filesystem;

void PrepareOutputPath(const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  auto refuse = [&](const std::string& why) {
    throw std::invalid_argument(path + ": cannot write the file there: " + why);
  };
  if (path.empty()) throw std::invalid_argument("output path: empty");
  std::error_code ec;
  if (fs::is_directory(path, ec)) refuse(path + " is a directory");
  if (dir.empty()) return;  // the working directory
  // The deepest part of the path that exists must be a directory (not /dev/null in
  // /dev/null/x/out.h5): create_directories' own message would say only "Not a directory".
  for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
    const fs::file_status s = fs::status(p, ec);
    if (fs::exists(s)) {
      if (!fs::is_directory(s)) refuse(p.string() + " is a file, not a directory");
      break;
    }
    if (p == p.parent_path()) break;
  }
  fs::create_directories(dir, ec);
  if (ec) refuse("cannot create the directory " + dir.string() + " (" + ec.message() + ")");
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    refuse("the directory " + dir.string() + " is not writable (" + std::strerror(errno) + ")");
  }
}

}  // namespace impactset::data
