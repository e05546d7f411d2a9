#pragma once
// The one policy for output paths, in every command that writes a file (run, merge, sweep,
// batch and its parts): missing directories above the file are created; a path that cannot
// hold a file (a directory part that is a file, a directory that cannot be created or written)
// is refused before any work is written, naming the path and the reason in words.
#include <string>

namespace impactset::data {

/// Creates the missing directories above the output file `path`.
/// @throws std::invalid_argument "PATH: cannot write the file there: ..." naming the part of
///         the path that is a file, or the directory that cannot be created or written.
void PrepareOutputPath(const std::string& path);

}  // namespace impactset::data
