#pragma once
// Matrix input from a file (docs/problem-format.md): JSON, or HDF5 with a /problem group (an
// impactset dataset or another simulator's export), chosen by the file's extension.
#include <string>

#include <impactset/common/eigen_types.hpp>
#include <impactset/robots/state_vector.hpp>
#include <impactset/systems/matrix_input.hpp>

namespace impactset::catalog {

/// Reads a problem file: ".h5" or ".hdf5" as HDF5 (data::ReadProblemInput, with the optional
/// h, N and samples attributes as settings), anything else as JSON (systems::LoadProblemJson).
/// @throws std::invalid_argument whose message starts with the path (and, for HDF5,
///         ":/problem"), naming the bad field; std::runtime_error for files HDF5 cannot read.
systems::LoadedProblem LoadProblemFile(const std::string& path);

/// A MuJoCo model's qpos or qvel (`field`) as given by a user: a ".h5" or ".hdf5" file holds it
/// as the rank-1 dataset /FIELD (data::ReadStateVector); anything else is a comma list or a JSON
/// file (robots::ParseStateVector).
/// @throws std::invalid_argument naming the field or the file's dataset; std::runtime_error for
///         files HDF5 cannot read.
VectorXd ReadStateVector(const std::string& text, const std::string& field);

}  // namespace impactset::catalog
