#pragma once
// Matrix input from a file (docs/problem-format.md): JSON, or HDF5 with a /problem group (an
// impactset dataset or another simulator's export), chosen by the file's extension.
#include <string>

#include "systems/matrix_input.hpp"

namespace impactset::engine {

/// Reads a problem file: ".h5" or ".hdf5" as HDF5 (data::ReadProblemInput, with the optional
/// h, N and samples attributes as settings), anything else as JSON (systems::LoadProblemJson).
/// @throws std::invalid_argument whose message starts with the path (and, for HDF5,
///         ":/problem"), naming the bad field; std::runtime_error for files HDF5 cannot read.
systems::LoadedProblem LoadProblemFile(const std::string& path);

}  // namespace impactset::engine
