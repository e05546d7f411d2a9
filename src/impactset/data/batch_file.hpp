#pragma once
// The batch file of `impactset batch` (schema: docs/dataset-format.md, "Batch files"): per-state
// arrays indexed by state, as columns that the engine declares. A column is either fixed-size
// (a dataset of states x width, or of states when scalar) or ragged (the rows of every state
// stacked in one dataset of total x width, plus PATH_offsets with states + 1 row offsets).
// This module knows nothing of impact states: it stores what it is given.
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <Eigen/Core>

#include <impactset/data/attributes.hpp>

namespace impactset::data {

/// The layout version of batch files (root attribute "schema_version"; files without it are
/// version 1). Readers refuse files of a higher version, naming it.
constexpr std::int64_t kBatchSchemaVersion = 2;

enum class ColumnType { kFloat64, kInt64, kUInt64, kString };

/// One per-state array. path is absolute ("/features/contact/mean").
struct ColumnSpec {
  std::string path;
  ColumnType type = ColumnType::kFloat64;
  std::int64_t width = 1;  ///< values per row (1 for strings)
  bool scalar = false;     ///< one value per state: a 1-D dataset of states
  bool ragged = false;     ///< any number of rows per state (PATH_offsets gives them)
};

/// One state's value of one column: `values` (kFloat64), `integers` (kInt64, and kUInt64 bit
/// for bit) or `text` (kString). Fixed columns hold exactly width values; ragged ones a multiple
/// of width (rows x width, row-major).
struct Cell {
  std::vector<double> values;
  std::vector<std::int64_t> integers;
  std::string text;
};

/// One state's values, cells[k] for column k.
struct StateRecord {
  std::int64_t index = 0;  ///< the state's index in the design (stored in /states/index)
  std::vector<Cell> cells;
};

/// A dimension of the file's arrays (netCDF-4 conventions, docs/dataset-format.md): a dataset at
/// `path` holding its labels (strings), or without labels the indices 0 ... count - 1, made an HDF5
/// dimension scale named after the last part of its path.
struct ScaleSpec {
  std::string path;
  std::vector<std::string> labels;
  std::int64_t count = 0;
};

/// The dimension scale of the states: "/state", holding the stored states' indices (as
/// /states/index). The writer makes it; a BatchFile's `dimensions` may name it.
inline constexpr const char* kStateScale = "/state";

/// A whole batch file (or a part of one: the same layout with a subset of the states).
struct BatchFile {
  std::vector<Attribute> attributes;
  /// Arrays stored once (the support directions): path and matrix, stored row by row.
  std::vector<std::pair<std::string, Eigen::MatrixXd>> constants;
  /// Vectors stored once (the design's bounds): path and a 1-D dataset.
  std::vector<std::pair<std::string, Eigen::VectorXd>> vectors;
  /// Lists of names stored once (parameter names, status names): path and entries.
  std::vector<std::pair<std::string, std::vector<std::string>>> names;
  std::vector<ColumnSpec> columns;
  std::vector<StateRecord> states;  ///< in the order they are stored
  /// Dimension scales (besides kStateScale, which the writer makes from the states).
  std::vector<ScaleSpec> scales;
  /// For a dataset (column, constant) its scales, one per dimension; a labelled scale on the
  /// second dimension also names the dataset's columns (its attribute "columns").
  std::vector<std::pair<std::string, std::vector<std::string>>> dimensions;
  /// A dataset's or group's attribute "description": what it holds, or derives from.
  std::vector<std::pair<std::string, std::string>> descriptions;
};

/// Checks that every state has one cell per column of the right size and type.
/// @throws std::invalid_argument naming the state and the column.
void ValidateStates(const std::vector<ColumnSpec>& columns, const std::vector<StateRecord>& states);

/// Writes the file to path.tmp-<host>-<pid>, flushes it to disk and renames it to path once
/// complete, so a killed writer or a full disk never leaves a file that looks complete. Fixed
/// columns are chunked by state, ragged ones by rows; both deflate-compressed (deterministic: equal
/// inputs, equal datasets).
/// @throws std::runtime_error naming the path and the failing HDF5 object.
void WriteBatchFile(const std::string& path, const BatchFile& file);

/// Where a state of a file assembled from parts comes from: row `row` of part `part` (an index
/// into the list of part files).
struct PartRow {
  std::int32_t part = -1;
  std::int32_t row = -1;
};

/// The /states/index of a file written by WriteBatchFile (a part: which states it holds).
/// @throws std::runtime_error naming the path (unreadable file, missing dataset).
std::vector<std::int64_t> ReadBatchIndex(const std::string& path);

/// Writes the file WriteBatchFile would write from `header` with the states
/// rows[0], rows[1], ... read from the part files `parts` (each written by WriteBatchFile with
/// header.columns; header.states is ignored): the same datasets, chunks and compression. Only a
/// few parts' states are in memory at a time, so memory does not grow with the number of states.
/// The file is built on disk under path.tmp-<host>-<pid> and renamed once complete; when the
/// directory has less free space than the parts take, nothing is written.
/// @throws std::runtime_error naming the path (HDF5 errors, a full disk, an unreadable part);
///         std::invalid_argument for a row outside its part or a state that breaks the columns.
void WriteBatchFileFromParts(const std::string& path,
                             const BatchFile& header,
                             const std::vector<std::string>& parts,
                             const std::vector<PartRow>& rows);

/// The states of a file written by WriteBatchFile, read with the columns the caller declares,
/// and the string attribute `name` of the root group (empty when absent).
/// @throws std::runtime_error naming the path and object (unreadable file, missing column).
std::vector<StateRecord> ReadBatchStates(const std::string& path,
                                         const std::vector<ColumnSpec>& columns);
std::string ReadRootStringAttribute(const std::string& path, const std::string& name);

/// A state record as bytes and back (to ship it between processes).
std::string EncodeState(const StateRecord& state);
/// @throws std::invalid_argument for bytes that EncodeState did not produce.
StateRecord DecodeState(const std::string& bytes);

}  // namespace impactset::data
