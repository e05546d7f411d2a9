#include <impactset/data/internal/atomic_file.hpp>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include <H5Cpp.h>

#include <impactset/data/output_path.hpp>

namespace impactset::data::internal {

namespace fs = std::filesystem;

namespace {

constexpr size_t kCoreIncrement = size_t{1} << 20;  // the in-memory file grows by 1 MiB steps

std::string HostName() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) return "host";
  for (char* c = host; *c; ++c) {
    if (*c == '/' || *c == '-') *c = '_';  // the pid follows the last '-'
  }
  return host;
}

fs::path Directory(const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  return dir.empty() ? fs::path(".") : dir;
}

std::string NoSpace(std::uintmax_t bytes) {
  return "no space left on the device (" + std::to_string(bytes) +
         " bytes to write): nothing was written, free space and run again";
}

// Stale: PATH.tmp-<this host>-<pid> where no process <pid> exists.
void RemoveStaleTemporaries(const std::string& path) {
  const std::string prefix = fs::path(path).filename().string() + ".tmp-" + HostName() + "-";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(Directory(path), ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string pid_text = name.substr(prefix.size());
    if (pid_text.empty() || pid_text.size() > 9 ||
        pid_text.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    const long pid = std::strtol(pid_text.c_str(), nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      fs::remove(e.path(), ec);
    }
  }
}

std::vector<char> InMemoryFile(const std::string& name,
                               const std::function<void(H5::H5File&)>& fill) {
  H5::FileAccPropList access;
  access.setCore(kCoreIncrement, /*backing_store=*/false);
  H5::H5File f(name, H5F_ACC_TRUNC, H5::FileCreatPropList::DEFAULT, access);
  fill(f);
  f.flush(H5F_SCOPE_GLOBAL);
  const ssize_t size = H5Fget_file_image(f.getId(), nullptr, 0);
  std::vector<char> bytes(size > 0 ? static_cast<size_t>(size) : 0);
  if (size <= 0 || H5Fget_file_image(f.getId(), bytes.data(), bytes.size()) != size) {
    throw H5::FileIException("H5Fget_file_image", "cannot copy the in-memory file");
  }
  f.close();
  return bytes;
}

// Writes and fsyncs tmp; "" on success, else the system's reason.
std::string WriteBytes(const std::string& tmp, const std::vector<char>& bytes) {
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return std::string("cannot create ") + tmp + ": " + std::strerror(errno);
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  int error = done == bytes.size() ? 0 : (errno ? errno : EIO);
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0) return "";
  if (error == ENOSPC || error == EDQUOT) return NoSpace(bytes.size());
  return std::string("cannot write ") + tmp + ": " + std::strerror(error);
}

}  // namespace

namespace {

// Renames the complete tmp over path and flushes the directory entry; on error removes tmp and
// throws "path: error".
void Publish(const std::string& path, const std::string& tmp, std::string error) {
  if (error.empty() && std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = "cannot rename " + tmp + " into place: " + std::strerror(errno);
  }
  if (!error.empty()) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw std::runtime_error(path + ": " + error);
  }
  const int dir = ::open(Directory(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {  // best effort: the rename is done; this makes it survive a power loss
    ::fsync(dir);
    ::close(dir);
  }
}

std::string TemporaryName(const std::string& path) {
  return path + ".tmp-" + HostName() + "-" + std::to_string(::getpid());
}

}  // namespace

void WriteHdf5Atomically(const std::string& path, const std::function<void(H5::H5File&)>& fill) {
  PrepareOutputPath(path);
  H5::Exception::dontPrint();
  RemoveStaleTemporaries(path);
  const std::string tmp = TemporaryName(path);
  std::vector<char> bytes;
  try {
    bytes = InMemoryFile(tmp, fill);
  } catch (const H5::Exception& e) {
    throw std::runtime_error(path + ": HDF5 error at " + e.getFuncName() + ": " + e.getDetailMsg());
  }
  Publish(path, tmp, WriteBytes(tmp, bytes));
}

void WriteHdf5OnDisk(const std::string& path,
                     std::uintmax_t bytes,
                     const std::function<void(H5::H5File&)>& fill) {
  PrepareOutputPath(path);
  H5::Exception::dontPrint();
  RemoveStaleTemporaries(path);
  std::error_code ec;
  const fs::space_info space = fs::space(Directory(path), ec);
  if (!ec && space.available < bytes) throw std::runtime_error(path + ": " + NoSpace(bytes));
  const std::string tmp = TemporaryName(path);
  try {
    H5::H5File f(tmp, H5F_ACC_TRUNC);
    fill(f);
    f.close();
  } catch (...) {
    fs::remove(tmp, ec);
    try {
      throw;
    } catch (const H5::Exception& e) {
      throw std::runtime_error(path + ": HDF5 error at " + e.getFuncName() + ": " +
                               e.getDetailMsg());
    }
  }
  std::string error;
  const int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    error = errno == ENOSPC || errno == EDQUOT
                ? NoSpace(bytes)
                : "cannot write " + tmp + ": " + std::strerror(errno);
  }
  if (fd >= 0) ::close(fd);
  Publish(path, tmp, error);
}

}  // namespace impactset::data::internal
