#pragma once
// Compiled MuJoCo models kept on disk, so that a process loading a model with large meshes (a
// robot's visual meshes are compiled, convex hulls and all, though the impact never touches
// them) pays for the compile once per model, not once per process (docs/mujoco.md, "Loading
// time"). Private to robots/.
//
// An entry is MuJoCo's own binary model (mj_saveModel), named by a digest of everything the
// compile reads: MuJoCo's version, the text it parses, the path it parses it at (relative file
// names resolve against that path's folder), and every file the text may name, by content. A
// model whose text or any mesh, texture, height field or skin changes gets a new digest, so an
// entry is never stale; what it holds is the model MuJoCo compiled, bit for bit.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include <impactset/robots/internal/mujoco_internal.hpp>

namespace impactset::robots::internal {

/// The environment variable naming the cache's folder. Unset: $XDG_CACHE_HOME/impactset, else
/// $HOME/.cache/impactset. Set to "" or "off": no cache.
inline constexpr const char* kModelCacheVariable = "IMPACTSET_CACHE_DIR";
/// Models whose compile takes less than this (seconds) are not stored: reading the entry back
/// would save next to nothing, and tests and small scenes should not fill the folder.
inline constexpr double kStoreCompilesAbove = 0.2;
/// Bumped when what an entry holds or how it is named changes: older entries are then ignored.
inline constexpr int kModelCacheFormat = 1;

struct ModelCacheOptions {
  std::filesystem::path folder;  ///< entries live in folder/mujoco-<version>/<digest>.mjb
  double store_above = kStoreCompilesAbove;  ///< seconds; 0: store every compile
  /// Keep the last model compiled or read in memory and copy it for the next load of the same
  /// digest: a batch or a Python session loads its model once per process, however many states.
  bool keep_last = true;
};

/// The cache's options from kModelCacheVariable and the home folders; nullopt: no cache.
std::optional<ModelCacheOptions> ModelCacheFromEnvironment();

/// The digest of a compile of `text` as the file `model_path` (hex), or nullopt when the text
/// is not well-formed XML or names a file that exists under none of the folders MuJoCo may look
/// in (MuJoCo's own error then follows from compiling).
///
/// Every attribute whose name starts with "file" names a file (file, filename, fileright, ...);
/// its candidates are the name and its last component (URDF's strippath) under the model's
/// folder and under every <compiler ...dir> folder. Each candidate's path goes into the digest,
/// with its size and a hash of its bytes, or the fact that it does not exist.
std::optional<std::string> ModelDigest(const std::string& text,
                                       const std::filesystem::path& model_path);

/// What the last CachedCompile did, for tests and the census.
enum class CacheOutcome {
  kOff,       ///< no cache (off, or no digest): compiled
  kKept,      ///< copied from the model kept in memory
  kHit,       ///< read from the folder
  kCompiled,  ///< compiled, not stored (quick, or the folder cannot be written)
  kStored     ///< compiled and stored
};

/// The model `compile` gives for `text` at `model_path`: a copy of the one kept in memory, else
/// read from the cache when an entry with the same digest is there, else compiled (and stored when
/// that took more than options.store_above). A missing, unreadable or corrupt entry is compiled
/// anew; a folder that cannot be written only costs the next process the compile. Call under
/// MujocoMutex.
ModelPtr CachedCompile(const std::string& text,
                       const std::filesystem::path& model_path,
                       const std::optional<ModelCacheOptions>& options,
                       const std::function<ModelPtr()>& compile,
                       CacheOutcome* outcome = nullptr);

}  // namespace impactset::robots::internal
