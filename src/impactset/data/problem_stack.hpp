#pragma once
// Many impact states in one HDF5 file, the inputs of `impactset batch` (docs/problem-format.md,
// "Stacks of problems" and docs/dataset-format.md, "Batch files"):
//
//   stacked problems   /problems/M        (S, n, n)
//                      /problems/Jn       (S, m, n)
//                      /problems/D        (S, m k, n)   optional when every mu is 0
//                      /problems/mu       (S, m)
//                      /problems/v_minus  (S, n)
//                      attributes of /problems (optional): k, h, N
//   state table        /states/parameters (S, P), names in /design/parameters (P strings):
//                      what a batch file stores, so a batch's states can be run again.
//
// Every problem of a stack has the same n, m and k: a batch needs one layout for all states.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <impactset/data/dataset.hpp>

namespace impactset::data {

/// The shapes and settings of a stack of problems; the matrices stay in the file.
struct ProblemStack {
  std::string path;
  std::int64_t count = 0;  ///< S
  std::int64_t n = 0, m = 0, k = 0;
  std::optional<double> h;                ///< attribute h of /problems
  std::optional<std::int64_t> max_steps;  ///< attribute N of /problems
};

/// Opens a stack and checks every dataset's shape against M's and Jn's (S, n, m) and D's rows
/// against m (k = rows / m, or the attribute k, which must agree).
/// @throws std::invalid_argument "path:/problems/NAME: what is wrong" (missing group or dataset,
///         wrong rank or shape, S = 0); std::runtime_error for files HDF5 cannot read.
ProblemStack OpenProblemStack(const std::string& path);

/// Problem `index` of the stack (reads only its slices). The arrays are not validated as an
/// impact problem here (ImpactProblem's constructor does that).
/// @throws std::invalid_argument for index outside [0, S); std::runtime_error for read errors.
ProblemArrays ReadStackedProblem(const ProblemStack& stack, std::int64_t index);

/// Writes a stack (every problem the same shapes; D may have 0 rows when k = 0) atomically.
/// @throws std::invalid_argument for mismatched shapes; std::runtime_error for HDF5 errors.
void WriteProblemStack(const std::string& path, const std::vector<ProblemArrays>& problems);

/// A table of states: names (P) and values (S x P).
struct StateTable {
  std::vector<std::string> names;
  Eigen::MatrixXd values;
};

/// Reads /states/parameters and /design/parameters.
/// @throws std::invalid_argument naming the path and dataset (missing, wrong rank, a name count
///         other than P); std::runtime_error for files HDF5 cannot read.
StateTable ReadStateTable(const std::string& path);

/// A state vector (a MuJoCo model's qpos or qvel, `impactset run --mujoco ... --qpos F.h5`):
/// the rank-1 dataset /NAME of the file, e.g. /qpos, read as doubles.
/// @throws std::invalid_argument "path:/NAME: what is wrong" (missing, not rank 1, empty);
///         std::runtime_error for files HDF5 cannot read.
Eigen::VectorXd ReadStateVector(const std::string& path, const std::string& name);

}  // namespace impactset::data
