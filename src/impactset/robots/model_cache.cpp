#include <impactset/robots/internal/model_cache.hpp>

#include <mujoco/mujoco.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <set>
#include <sstream>
#include <string_view>
#include <system_error>
#include <vector>

#include <unistd.h>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <boost/uuid/name_generator_sha1.hpp>
#include <boost/uuid/uuid_io.hpp>

namespace impactset::robots::internal {
namespace {

namespace fs = std::filesystem;
using boost::property_tree::ptree;

// The file names and the <compiler> folders a model's text names.
struct References {
  std::vector<std::string> files;
  std::vector<std::string> folders;
};

void Collect(const ptree& node, const std::string& element, References* out) {
  for (const auto& [key, child] : node) {
    if (key != "<xmlattr>") {
      if (key != "<xmlcomment>") Collect(child, key, out);
      continue;
    }
    for (const auto& [name, value] : child) {
      if (name.starts_with("file")) out->files.push_back(value.data());
      if (element == "compiler" && name.ends_with("dir")) out->folders.push_back(value.data());
    }
  }
}

std::optional<References> Referenced(const std::string& text) {
  ptree tree;
  std::istringstream in(text);
  try {
    boost::property_tree::read_xml(in, tree);
  } catch (const boost::property_tree::xml_parser_error&) {
    return std::nullopt;
  }
  References refs;
  Collect(tree, "", &refs);
  return refs;
}

// Where MuJoCo may look for a file the text names: under the model's folder, under each
// <compiler> folder (relative ones against the model's), as given; with the name as written
// and with its last component only. Paths are joined both ways MuJoCo may join them.
std::set<std::string> Candidates(const std::string& file,
                                 const fs::path& folder,
                                 const std::vector<std::string>& folders) {
  std::vector<std::string> bases = {"", folder.string() + "/"};
  for (const std::string& f : folders) {
    bases.push_back(f);
    bases.push_back(folder.string() + "/" + f);
  }
  std::set<std::string> out;
  for (const std::string& name : {file, fs::path(file).filename().string()}) {
    for (const std::string& base : bases) {
      out.insert(fs::path(base + name).lexically_normal().string());
      out.insert((fs::path(base) / name).lexically_normal().string());
    }
  }
  return out;
}

// "size hash" of a file's bytes, or nullopt when it cannot be read. Read straight into an
// uninitialised buffer: meshes run to tens of megabytes.
std::optional<std::string> Fingerprint(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  const std::uintmax_t size = fs::file_size(path, ec);
  std::ifstream in(path, std::ios::binary);
  if (ec || !in) return std::nullopt;
  const auto bytes = std::make_unique_for_overwrite<char[]>(size);
  in.read(bytes.get(), static_cast<std::streamsize>(size));
  if (static_cast<std::uintmax_t>(in.gcount()) != size) return std::nullopt;
  const std::size_t hash = std::hash<std::string_view>{}(std::string_view(bytes.get(), size));
  return std::to_string(size) + " " + std::to_string(hash);
}

fs::path EntryFolder(const ModelCacheOptions& o) {
  return o.folder / ("mujoco-" + std::to_string(mj_version()));
}

ModelPtr ReadEntry(const fs::path& entry) {
  std::error_code ec;
  if (!fs::is_regular_file(entry, ec)) return nullptr;
  try {
    return ModelPtr(mj_loadModel(entry.c_str(), nullptr));
  } catch (const std::exception&) {  // MuJoCo's errors, thrown by the caller's hooks
    return nullptr;
  }
}

// Written under a name of this process's, then renamed: readers in other processes see a whole
// entry or none.
bool WriteEntry(const fs::path& entry, const mjModel* m) {
  std::error_code ec;
  fs::create_directories(entry.parent_path(), ec);
  static int counter = 0;  // under MujocoMutex
  const fs::path scratch =
      entry.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(++counter);
  try {
    mj_saveModel(m, scratch.c_str(), nullptr, 0);
  } catch (const std::exception&) {
  }
  // mj_saveModel reports no failure, and mj_sizeModel is not the file's size: read it back.
  const ModelPtr back = ReadEntry(scratch);
  const bool whole = back && mj_sizeModel(back.get()) == mj_sizeModel(m);
  if (whole) fs::rename(scratch, entry, ec);
  if (!whole || ec) fs::remove(scratch, ec);
  return whole && !ec;
}

// The last model this process compiled or read, by digest: a batch or a Python session that loads
// the same model for every state copies it instead of reading or compiling it again.
struct LastModel {
  std::string digest;
  ModelPtr model;
};
LastModel& Last() {  // under MujocoMutex
  static LastModel last;
  return last;
}

ModelPtr Copy(const mjModel* m) { return ModelPtr(mj_copyModel(nullptr, m)); }

ModelPtr Remember(const ModelCacheOptions& o, const std::string& digest, ModelPtr m) {
  if (m && o.keep_last) Last() = LastModel{digest, Copy(m.get())};
  return m;
}

}  // namespace

std::optional<ModelCacheOptions> ModelCacheFromEnvironment() {
  if (const char* dir = std::getenv(kModelCacheVariable)) {
    const std::string_view d(dir);
    if (d.empty() || d == "off") return std::nullopt;
    return ModelCacheOptions{.folder = fs::path(d)};
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return ModelCacheOptions{.folder = fs::path(xdg) / "impactset"};
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return ModelCacheOptions{.folder = fs::path(home) / ".cache" / "impactset"};
  }
  return std::nullopt;
}

std::optional<std::string> ModelDigest(const std::string& text, const fs::path& model_path) {
  const std::optional<References> refs = Referenced(text);
  if (!refs) return std::nullopt;
  const fs::path path = fs::absolute(model_path).lexically_normal();
  std::ostringstream manifest;
  manifest << "impactset model cache " << kModelCacheFormat << "\nmujoco " << mj_version()
           << "\nmodel " << path.string() << "\ntext " << text.size() << "\n"
           << text << "\n";
  for (const std::string& file : refs->files) {
    bool found = false;
    manifest << "file " << file << "\n";
    for (const std::string& candidate : Candidates(file, path.parent_path(), refs->folders)) {
      const std::optional<std::string> print = Fingerprint(candidate);
      found = found || print.has_value();
      manifest << candidate << '\0' << print.value_or("absent") << "\n";
    }
    if (!found) return std::nullopt;
  }
  const std::string m = std::move(manifest).str();
  const boost::uuids::name_generator_sha1 sha1(boost::uuids::ns::url());
  return boost::uuids::to_string(sha1(m.data(), m.size()));
}

ModelPtr CachedCompile(const std::string& text,
                       const fs::path& model_path,
                       const std::optional<ModelCacheOptions>& options,
                       const std::function<ModelPtr()>& compile,
                       CacheOutcome* outcome) {
  CacheOutcome unused;
  CacheOutcome& did = outcome ? *outcome : unused;
  did = CacheOutcome::kOff;
  const std::optional<std::string> digest = options ? ModelDigest(text, model_path) : std::nullopt;
  if (!digest) return compile();
  if (options->keep_last && Last().digest == *digest && Last().model) {
    did = CacheOutcome::kKept;
    return Copy(Last().model.get());
  }
  const fs::path entry = EntryFolder(*options) / (*digest + ".mjb");
  if (ModelPtr m = ReadEntry(entry)) {
    did = CacheOutcome::kHit;
    return Remember(*options, *digest, std::move(m));
  }
  const auto start = std::chrono::steady_clock::now();
  ModelPtr m = compile();
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  did = CacheOutcome::kCompiled;
  if (m && took.count() >= options->store_above && WriteEntry(entry, m.get())) {
    did = CacheOutcome::kStored;
  }
  return Remember(*options, *digest, std::move(m));
}

}  // namespace impactset::robots::internal
