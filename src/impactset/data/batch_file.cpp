#include <impactset/data/batch_file.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <list>
#include <map>
#include <stdexcept>

#include <H5Cpp.h>

#include <impactset/data/internal/atomic_file.hpp>
#include <impactset/data/internal/hdf5_io.hpp>

namespace impactset::data {

namespace {

constexpr hsize_t kStateChunk = 1024;   // states per chunk of a fixed column: reads by state
constexpr hsize_t kRaggedChunk = 4096;  // rows per chunk of a ragged column
constexpr int kDeflateLevel = 4;        // as the run datasets (data/dataset.cpp)

const H5::PredType& NumType(ColumnType t) {
  switch (t) {
    case ColumnType::kInt64:
      return H5::PredType::NATIVE_INT64;
    case ColumnType::kUInt64:
      return H5::PredType::NATIVE_UINT64;
    default:
      return H5::PredType::NATIVE_DOUBLE;
  }
}

H5::Group OpenOrCreate(H5::H5File& f, const std::string& path) {
  size_t pos = 1;
  while (pos <= path.size()) {
    const size_t end = path.find('/', pos);
    const std::string at = path.substr(0, end);
    if (!at.empty() && at != "/" && !f.nameExists(at)) f.createGroup(at);
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return f.openGroup(path.empty() ? "/" : path);
}

std::string Parent(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == 0 ? "/" : path.substr(0, slash);
}

// A dataset of rows x width (rank 1 when scalar), chunked along rows, not yet written.
H5::DataSet CreateArray(H5::H5File& f,
                        const std::string& path,
                        ColumnType type,
                        hsize_t rows,
                        hsize_t width,
                        bool scalar,
                        hsize_t chunk_rows) {
  OpenOrCreate(f, Parent(path));
  const int rank = scalar ? 1 : 2;
  const hsize_t dims[2] = {rows, width};
  H5::DataSpace space(rank, dims);
  H5::DSetCreatPropList props;
  if (rows > 0 && width > 0) {
    const hsize_t chunk[2] = {std::min(rows, chunk_rows), width};
    props.setChunk(rank, chunk);
    props.setDeflate(kDeflateLevel);
  }
  try {
    if (type == ColumnType::kString) {
      return f.createDataSet(path, H5::StrType(H5::PredType::C_S1, H5T_VARIABLE), space, props);
    }
    return f.createDataSet(path, NumType(type), space, props);
  } catch (const H5::Exception& e) {
    throw H5::Exception(e.getFuncName() + " (dataset " + path + ")", e.getDetailMsg());
  }
}

// Writes rows [first, first + count) of a dataset CreateArray made (strings: const char*).
void WriteRows(H5::DataSet& ds,
               const std::string& path,
               ColumnType type,
               const void* data,
               hsize_t first,
               hsize_t count,
               hsize_t width) {
  if (count == 0 || width == 0) return;
  try {
    H5::DataSpace file = ds.getSpace();
    const int rank = file.getSimpleExtentNdims();
    const hsize_t start[2] = {first, 0}, size[2] = {count, width};
    file.selectHyperslab(H5S_SELECT_SET, size, start);
    H5::DataSpace memory(rank, size);
    if (type == ColumnType::kString) {
      ds.write(data, H5::StrType(H5::PredType::C_S1, H5T_VARIABLE), memory, file);
    } else {
      ds.write(data, NumType(type), memory, file);
    }
  } catch (const H5::Exception& e) {
    throw H5::Exception(e.getFuncName() + " (dataset " + path + ")", e.getDetailMsg());
  }
}

// A dataset of rows x width (rank 1 when scalar), chunked along rows.
void WriteArray(H5::H5File& f,
                const std::string& path,
                ColumnType type,
                const void* data,
                hsize_t rows,
                hsize_t width,
                bool scalar,
                hsize_t chunk_rows) {
  H5::DataSet ds = CreateArray(f, path, type, rows, width, scalar, chunk_rows);
  if (rows == 0 || (width == 0 && type != ColumnType::kString)) return;
  try {
    if (type == ColumnType::kString) {
      ds.write(data, H5::StrType(H5::PredType::C_S1, H5T_VARIABLE));
    } else {
      ds.write(data, NumType(type));
    }
  } catch (const H5::Exception& e) {
    throw H5::Exception(e.getFuncName() + " (dataset " + path + ")", e.getDetailMsg());
  }
}

void WriteColumn(H5::H5File& f, const ColumnSpec& c, size_t k, const std::vector<StateRecord>& s) {
  const hsize_t width = static_cast<hsize_t>(c.width);
  if (c.type == ColumnType::kString) {
    std::vector<const char*> text;
    for (const StateRecord& r : s) text.push_back(r.cells[k].text.c_str());
    WriteArray(f, c.path, c.type, text.data(), text.size(), 1, true, kStateChunk);
    return;
  }
  const bool is_float = c.type == ColumnType::kFloat64;
  std::vector<double> values;
  std::vector<std::int64_t> integers, offsets{0};
  for (const StateRecord& r : s) {
    const Cell& cell = r.cells[k];
    if (is_float)
      values.insert(values.end(), cell.values.begin(), cell.values.end());
    else
      integers.insert(integers.end(), cell.integers.begin(), cell.integers.end());
    offsets.push_back(static_cast<std::int64_t>((is_float ? values.size() : integers.size()) /
                                                std::max<hsize_t>(width, 1)));
  }
  const void* data = is_float ? static_cast<const void*>(values.data()) : integers.data();
  const hsize_t rows = static_cast<hsize_t>(offsets.back());
  WriteArray(f, c.path, c.type, data, rows, width, c.scalar && !c.ragged,
             c.ragged ? kRaggedChunk : kStateChunk);
  if (c.ragged) {
    WriteArray(f, c.path + "_offsets", ColumnType::kInt64, offsets.data(), offsets.size(), 1, true,
               kStateChunk);
  }
}

void WriteAttribute(H5::H5File& f, const Attribute& a) {
  H5::Group g = OpenOrCreate(f, a.group);
  internal::WriteScalarAttribute(g, a.name, a.value);
}

// The scales (kStateScale from the stored states' indices), attached to the datasets that name
// them, and the descriptions.
void WriteDimensions(H5::H5File& f, const BatchFile& b, const std::vector<std::int64_t>& index) {
  std::map<std::string, H5::DataSet> scales;
  auto make = [&](const std::string& path, internal::Dimension d) {
    const size_t slash = path.rfind('/');
    H5::Group g = OpenOrCreate(f, slash == 0 ? "/" : path.substr(0, slash));
    d.name = path.substr(slash + 1);
    scales[path] = internal::WriteScale(g, d);
  };
  internal::Dimension state;
  state.count = static_cast<long long>(index.size());
  make(kStateScale, state);
  if (!index.empty()) scales[kStateScale].write(index.data(), H5::PredType::NATIVE_INT64);
  {
    H5::Group states = f.openGroup("/states");
    internal::AttachScales(states, "index", {scales[kStateScale]});
  }
  for (const ScaleSpec& s : b.scales) make(s.path, internal::Dimension{"", s.labels, 0, s.count});
  for (const auto& [path, dims] : b.dimensions) {
    std::vector<H5::DataSet> attach;
    for (const std::string& d : dims) attach.push_back(scales.at(d));
    const size_t slash = path.rfind('/');
    H5::Group g = f.openGroup(slash == 0 ? "/" : path.substr(0, slash));
    internal::AttachScales(g, path.substr(slash + 1), attach);
    const auto labels = dims.size() == 2
                            ? std::find_if(b.scales.begin(), b.scales.end(),
                                           [&second = dims[1]](const ScaleSpec& s) {
                                             return s.path == second;  // clang 14 cannot capture
                                           })                          // a structured binding
                            : b.scales.end();
    if (labels != b.scales.end() && !labels->labels.empty()) {
      H5::DataSet ds = f.openDataSet(path);
      internal::WriteStringsAttribute(ds, "columns", labels->labels);
    }
  }
  for (const auto& [path, text] : b.descriptions) {
    H5::H5Object* at = nullptr;
    H5::DataSet ds;
    H5::Group g;
    if (f.nameExists(path) && f.childObjType(path) == H5O_TYPE_DATASET) {
      ds = f.openDataSet(path);
      at = &ds;
    } else {
      g = OpenOrCreate(f, path);
      at = &g;
    }
    internal::WriteScalarAttribute(*at, "description", text);
  }
}

// Everything but the states: attributes, constants, vectors and names.
void WriteHeader(H5::H5File& f, const BatchFile& b) {
  for (const Attribute& a : b.attributes) WriteAttribute(f, a);
  for (const auto& [path, m] : b.constants) {
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> r = m;
    WriteArray(f, path, ColumnType::kFloat64, r.data(), static_cast<hsize_t>(m.rows()),
               static_cast<hsize_t>(m.cols()), false, kStateChunk);
  }
  for (const auto& [path, v] : b.vectors) {
    WriteArray(f, path, ColumnType::kFloat64, v.data(), static_cast<hsize_t>(v.size()), 1, true,
               kStateChunk);
  }
  for (const auto& [path, list] : b.names) {
    std::vector<const char*> text;
    for (const std::string& s : list) text.push_back(s.c_str());
    WriteArray(f, path, ColumnType::kString, text.data(), text.size(), 1, true, kStateChunk);
  }
}

void WriteAll(H5::H5File& f, const BatchFile& b) {
  WriteHeader(f, b);
  std::vector<std::int64_t> index;
  for (const StateRecord& r : b.states) index.push_back(r.index);
  WriteArray(f, "/states/index", ColumnType::kInt64, index.data(), index.size(), 1, true,
             kStateChunk);
  for (size_t k = 0; k < b.columns.size(); ++k) WriteColumn(f, b.columns[k], k, b.states);
  WriteDimensions(f, b, index);
}

// Elements in a dataset; a corrupt header claiming more than internal::kMaxReadElements is
// refused before anything is allocated.
hsize_t Elements(const H5::DataSet& ds, const std::string& path) {
  return internal::Elements(internal::Dims(ds), path);
}

// The dataset at path; HDF5's own message for a missing one does not name it.
H5::DataSet OpenDataSet(H5::H5File& f, const std::string& path) {
  try {
    return f.openDataSet(path);
  } catch (const H5::Exception& e) {
    throw H5::Exception(e.getFuncName() + " (dataset " + path + ")", e.getDetailMsg());
  }
}

template <typename T>
std::vector<T> ReadAll(H5::H5File& f, const std::string& path, const H5::PredType& type) {
  H5::DataSet ds = OpenDataSet(f, path);
  std::vector<T> v(Elements(ds, path));
  if (!v.empty()) ds.read(v.data(), type);
  return v;
}

void ReadStrings(H5::H5File& f, const ColumnSpec& c, size_t k, std::vector<StateRecord>* s) {
  H5::DataSet ds = OpenDataSet(f, c.path);
  if (Elements(ds, c.path) != s->size()) {
    throw std::runtime_error(c.path + ": sizes do not match /states/index");
  }
  std::vector<char*> text(s->size());
  H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
  if (!text.empty()) ds.read(text.data(), t);
  for (size_t i = 0; i < s->size(); ++i) (*s)[i].cells[k].text = text[i] ? text[i] : "";
  if (!text.empty()) H5::DataSet::vlenReclaim(text.data(), t, ds.getSpace());
}

// Row offsets of a column: states + 1 non-decreasing values from 0 to rows.
void CheckOffsets(const ColumnSpec& c,
                  const std::vector<std::int64_t>& offsets,
                  size_t states,
                  size_t total) {
  // Width 0 (the features of a batch in which no state was valid: d = 0) holds no value.
  const auto width = static_cast<size_t>(c.width);
  bool ok = offsets.size() == states + 1 && offsets[0] == 0 &&
            (width == 0 ? total == 0
                        : total % width == 0 &&
                              static_cast<std::uint64_t>(offsets.back()) == total / width);
  for (size_t i = 1; ok && i < offsets.size(); ++i) ok = offsets[i] >= offsets[i - 1];
  if (!ok) throw std::runtime_error(c.path + ": sizes do not match /states/index");
}

void ReadColumn(H5::H5File& f, const ColumnSpec& c, size_t k, std::vector<StateRecord>* s) {
  if (c.type == ColumnType::kString) return ReadStrings(f, c, k, s);
  const bool is_float = c.type == ColumnType::kFloat64;
  std::vector<double> values;
  std::vector<std::int64_t> integers;
  if (is_float)
    values = ReadAll<double>(f, c.path, H5::PredType::NATIVE_DOUBLE);
  else
    integers = ReadAll<std::int64_t>(f, c.path, NumType(c.type));
  std::vector<std::int64_t> offsets;
  if (c.ragged) {
    offsets = ReadAll<std::int64_t>(f, c.path + "_offsets", H5::PredType::NATIVE_INT64);
  } else {
    for (size_t i = 0; i <= s->size(); ++i) offsets.push_back(static_cast<std::int64_t>(i));
  }
  const size_t total = is_float ? values.size() : integers.size();
  CheckOffsets(c, offsets, s->size(), total);
  for (size_t i = 0; i < s->size(); ++i) {
    const size_t a = static_cast<size_t>(offsets[i] * c.width);
    const size_t b = static_cast<size_t>(offsets[i + 1] * c.width);
    Cell& cell = (*s)[i].cells[k];
    if (is_float)
      cell.values.assign(values.begin() + a, values.begin() + b);
    else
      cell.integers.assign(integers.begin() + a, integers.begin() + b);
  }
}

// ---- a file assembled from parts, a few parts in memory at a time ----

// The states of the parts, read a whole part at a time and kept for the next few lookups: a
// file's states come from the parts nearly in order (states finish roughly in index order).
class PartCache {
 public:
  PartCache(const std::vector<std::string>& parts, const std::vector<ColumnSpec>& columns)
      : parts_(parts), columns_(columns) {}
  const StateRecord& Get(PartRow at) {
    auto hit = std::find_if(cache_.begin(), cache_.end(),
                            [&](const auto& entry) { return entry.first == at.part; });
    if (hit == cache_.end()) {
      if (at.part < 0 || static_cast<size_t>(at.part) >= parts_.size()) {
        throw std::invalid_argument("part " + std::to_string(at.part) + " of " +
                                    std::to_string(parts_.size()) + ": no such part");
      }
      std::vector<StateRecord> states = ReadBatchStates(parts_[at.part], columns_);
      ValidateStates(columns_, states);
      cached_states_ += states.size();
      cache_.emplace_front(at.part, std::move(states));
      // Least recently used parts go first; the one just read always stays.
      while (cache_.size() > 1 && cached_states_ > kCachedStates) {
        cached_states_ -= cache_.back().second.size();
        cache_.pop_back();
      }
      hit = cache_.begin();
    } else if (hit != cache_.begin()) {
      cache_.splice(cache_.begin(), cache_, hit);  // most recently used first
    }
    const std::vector<StateRecord>& states = hit->second;
    if (at.row < 0 || static_cast<size_t>(at.row) >= states.size()) {
      throw std::invalid_argument(parts_[at.part] + ": no row " + std::to_string(at.row));
    }
    return states[at.row];
  }

 private:
  // States kept: 16 parts of the default 64 states, enough for the states of ranks and threads
  // that finish out of order; bounded whatever --part-states is (beyond one part).
  static constexpr size_t kCachedStates = 1024;
  const std::vector<std::string>& parts_;
  const std::vector<ColumnSpec>& columns_;
  std::list<std::pair<int, std::vector<StateRecord>>> cache_;
  size_t cached_states_ = 0;
};

// One column of the file being streamed: rows buffered until a whole chunk can be written, so
// that every chunk is written once, in order, as WriteColumn's single write does.
class StreamedColumn {
 public:
  StreamedColumn(H5::H5File& f, const ColumnSpec& c, hsize_t states, hsize_t ragged_rows)
      : spec_(c), width_(static_cast<hsize_t>(c.width)) {
    const hsize_t rows = c.ragged ? ragged_rows : states;
    chunk_ = c.ragged ? kRaggedChunk : kStateChunk;
    const bool text = c.type == ColumnType::kString;
    data_ = CreateArray(f, c.path, c.type, rows, text ? 1 : width_, text || (c.scalar && !c.ragged),
                        chunk_);
    if (c.ragged) {
      offsets_ =
          CreateArray(f, c.path + "_offsets", ColumnType::kInt64, states + 1, 1, true, kStateChunk);
      offset_buffer_.push_back(0);
    }
  }
  void Add(const Cell& cell) {
    if (spec_.type == ColumnType::kString) {
      text_.push_back(cell.text);
    } else if (spec_.type == ColumnType::kFloat64) {
      values_.insert(values_.end(), cell.values.begin(), cell.values.end());
    } else {
      integers_.insert(integers_.end(), cell.integers.begin(), cell.integers.end());
    }
    if (spec_.ragged) {
      const size_t n = spec_.type == ColumnType::kFloat64 ? values_.size() : integers_.size();
      offset_buffer_.push_back(
          static_cast<std::int64_t>(written_ + (width_ > 0 ? n / width_ : 0)));  // rows so far
    }
    Write(false);
  }
  void Finish() { Write(true); }

 private:
  hsize_t Buffered() const {
    if (spec_.type == ColumnType::kString) return text_.size();
    if (width_ == 0) return 0;
    return (spec_.type == ColumnType::kFloat64 ? values_.size() : integers_.size()) / width_;
  }
  // Writes the buffered whole chunks (all rows at the end) and the offsets likewise.
  void Write(bool all) {
    const hsize_t buffered = Buffered();
    const hsize_t rows = all ? buffered : buffered / chunk_ * chunk_;
    if (rows > 0) {
      const hsize_t w = spec_.type == ColumnType::kString ? 1 : width_;
      if (spec_.type == ColumnType::kString) {
        std::vector<const char*> pointers;
        for (hsize_t i = 0; i < rows; ++i) pointers.push_back(text_[i].c_str());
        WriteRows(data_, spec_.path, spec_.type, pointers.data(), written_, rows, w);
        text_.erase(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(rows));
      } else if (spec_.type == ColumnType::kFloat64) {
        WriteRows(data_, spec_.path, spec_.type, values_.data(), written_, rows, w);
        values_.erase(values_.begin(), values_.begin() + static_cast<std::ptrdiff_t>(rows * w));
      } else {
        WriteRows(data_, spec_.path, spec_.type, integers_.data(), written_, rows, w);
        integers_.erase(integers_.begin(),
                        integers_.begin() + static_cast<std::ptrdiff_t>(rows * w));
      }
      written_ += rows;
    }
    if (!spec_.ragged) return;
    const hsize_t n = offset_buffer_.size();
    const hsize_t offsets = all ? n : n / kStateChunk * kStateChunk;
    if (offsets == 0) return;
    WriteRows(offsets_, spec_.path + "_offsets", ColumnType::kInt64, offset_buffer_.data(),
              offsets_written_, offsets, 1);
    offset_buffer_.erase(offset_buffer_.begin(),
                         offset_buffer_.begin() + static_cast<std::ptrdiff_t>(offsets));
    offsets_written_ += offsets;
  }

  const ColumnSpec& spec_;
  hsize_t width_ = 0, chunk_ = 0, written_ = 0, offsets_written_ = 0;
  H5::DataSet data_, offsets_;
  std::vector<double> values_;
  std::vector<std::int64_t> integers_, offset_buffer_;
  std::vector<std::string> text_;
};

// Rows of each ragged column over every part (the datasets' sizes are fixed when created).
std::vector<hsize_t> RaggedRows(const std::vector<std::string>& parts,
                                const std::vector<ColumnSpec>& columns) {
  std::vector<hsize_t> rows(columns.size(), 0);
  for (const std::string& part : parts) {
    H5::H5File f(part, H5F_ACC_RDONLY);
    for (size_t k = 0; k < columns.size(); ++k) {
      if (!columns[k].ragged) continue;
      H5::DataSet ds = OpenDataSet(f, columns[k].path);
      const std::vector<internal::Extent> dims = internal::Dims(ds);
      rows[k] += dims.empty() ? 0 : dims[0];
    }
  }
  return rows;
}

void WriteFromParts(H5::H5File& f,
                    const BatchFile& b,
                    const std::vector<std::string>& parts,
                    const std::vector<PartRow>& rows) {
  const std::vector<hsize_t> ragged_rows = RaggedRows(parts, b.columns);
  WriteHeader(f, b);
  const auto states = static_cast<hsize_t>(rows.size());
  // Created in WriteAll's order: the index, then each column (and its offsets).
  H5::DataSet index_set =
      CreateArray(f, "/states/index", ColumnType::kInt64, states, 1, true, kStateChunk);
  std::list<StreamedColumn> columns;  // a list: each column refers to its own members
  for (size_t k = 0; k < b.columns.size(); ++k) {
    columns.emplace_back(f, b.columns[k], states, ragged_rows[k]);
  }
  PartCache cache(parts, b.columns);
  std::vector<std::int64_t> index;
  index.reserve(rows.size());
  for (const PartRow& at : rows) {
    const StateRecord& r = cache.Get(at);
    index.push_back(r.index);
    auto column = columns.begin();
    for (size_t k = 0; k < b.columns.size(); ++k, ++column) column->Add(r.cells[k]);
  }
  for (StreamedColumn& c : columns) c.Finish();
  WriteRows(index_set, "/states/index", ColumnType::kInt64, index.data(), 0, states, 1);
  WriteDimensions(f, b, index);
}

}  // namespace

void ValidateStates(const std::vector<ColumnSpec>& columns,
                    const std::vector<StateRecord>& states) {
  for (const StateRecord& r : states) {
    const std::string which = "state " + std::to_string(r.index);
    if (r.cells.size() != columns.size()) {
      throw std::invalid_argument(which + ": has " + std::to_string(r.cells.size()) +
                                  " cells for " + std::to_string(columns.size()) + " columns");
    }
    for (size_t k = 0; k < columns.size(); ++k) {
      const ColumnSpec& c = columns[k];
      if (c.type == ColumnType::kString) continue;
      const size_t n =
          c.type == ColumnType::kFloat64 ? r.cells[k].values.size() : r.cells[k].integers.size();
      const bool ok =
          c.ragged ? n % static_cast<size_t>(c.width) == 0 : n == static_cast<size_t>(c.width);
      if (!ok) {
        throw std::invalid_argument(which + ": " + c.path + " has " + std::to_string(n) +
                                    " values, width " + std::to_string(c.width));
      }
    }
  }
}

void WriteBatchFile(const std::string& path, const BatchFile& file) {
  ValidateStates(file.columns, file.states);
  internal::WriteHdf5Atomically(path, [&](H5::H5File& f) { WriteAll(f, file); });
}

void WriteBatchFileFromParts(const std::string& path,
                             const BatchFile& header,
                             const std::vector<std::string>& parts,
                             const std::vector<PartRow>& rows) {
  std::uintmax_t bytes = 0;  // the file takes about what its parts take (the same compression)
  for (const std::string& part : parts) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(part, ec);
    if (!ec) bytes += size;
  }
  internal::WriteHdf5OnDisk(path, bytes,
                            [&](H5::H5File& f) { WriteFromParts(f, header, parts, rows); });
}

std::vector<std::int64_t> ReadBatchIndex(const std::string& path) {
  H5::Exception::dontPrint();
  try {
    H5::H5File f(path, H5F_ACC_RDONLY);
    return ReadAll<std::int64_t>(f, "/states/index", H5::PredType::NATIVE_INT64);
  } catch (const H5::Exception& e) {
    throw std::runtime_error(path + ": HDF5 error at " + e.getFuncName() + ": " + e.getDetailMsg());
  }
}

std::vector<StateRecord> ReadBatchStates(const std::string& path,
                                         const std::vector<ColumnSpec>& columns) {
  H5::Exception::dontPrint();
  try {
    H5::H5File f(path, H5F_ACC_RDONLY);
    const auto index = ReadAll<std::int64_t>(f, "/states/index", H5::PredType::NATIVE_INT64);
    std::vector<StateRecord> states(index.size());
    for (size_t i = 0; i < index.size(); ++i) {
      states[i].index = index[i];
      states[i].cells.resize(columns.size());
    }
    for (size_t k = 0; k < columns.size(); ++k) ReadColumn(f, columns[k], k, &states);
    return states;
  } catch (const H5::Exception& e) {
    throw std::runtime_error(path + ": HDF5 error at " + e.getFuncName() + ": " + e.getDetailMsg());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

std::string ReadRootStringAttribute(const std::string& path, const std::string& name) {
  H5::Exception::dontPrint();
  try {
    H5::H5File f(path, H5F_ACC_RDONLY);
    if (!f.attrExists(name)) return "";
    H5::Attribute a = f.openAttribute(name);
    // Read as a string, a number's bytes would come back as text (found by fuzz_batch_parts).
    if (a.getTypeClass() != H5T_STRING) {
      throw std::runtime_error(path + ":/" + name + ": not a string attribute");
    }
    std::string s;
    a.read(a.getStrType(), s);
    return s;
  } catch (const H5::Exception& e) {
    throw std::runtime_error(path + ": HDF5 error at " + e.getFuncName() + ": " + e.getDetailMsg());
  }
}

// ---- byte encoding: little-endian host layout, length-prefixed ----

namespace {
template <typename T>
void Put(std::string* out, const T& v) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(T));
}
template <typename T>
T Take(const std::string& in, size_t* at) {
  if (*at + sizeof(T) > in.size()) throw std::invalid_argument("state record: truncated bytes");
  T v;
  std::memcpy(&v, in.data() + *at, sizeof(T));
  *at += sizeof(T);
  return v;
}
template <typename T>
void PutVector(std::string* out, const std::vector<T>& v) {
  Put<std::uint64_t>(out, v.size());
  out->append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}
template <typename T>
std::vector<T> TakeVector(const std::string& in, size_t* at) {
  const auto n = Take<std::uint64_t>(in, at);
  if (n > (in.size() - *at) / sizeof(T)) throw std::invalid_argument("state record: bad length");
  std::vector<T> v(n);
  if (n > 0) std::memcpy(v.data(), in.data() + *at, n * sizeof(T));
  *at += n * sizeof(T);
  return v;
}
}  // namespace

std::string EncodeState(const StateRecord& state) {
  std::string out;
  Put<std::int64_t>(&out, state.index);
  Put<std::uint64_t>(&out, state.cells.size());
  for (const Cell& c : state.cells) {
    PutVector(&out, c.values);
    PutVector(&out, c.integers);
    PutVector(&out, std::vector<char>(c.text.begin(), c.text.end()));
  }
  return out;
}

StateRecord DecodeState(const std::string& bytes) {
  size_t at = 0;
  StateRecord r;
  r.index = Take<std::int64_t>(bytes, &at);
  const auto cells = Take<std::uint64_t>(bytes, &at);
  if (cells > bytes.size()) throw std::invalid_argument("state record: bad cell count");
  r.cells.resize(cells);
  for (Cell& c : r.cells) {
    c.values = TakeVector<double>(bytes, &at);
    c.integers = TakeVector<std::int64_t>(bytes, &at);
    const auto text = TakeVector<char>(bytes, &at);
    c.text.assign(text.begin(), text.end());
  }
  if (at != bytes.size()) throw std::invalid_argument("state record: trailing bytes");
  return r;
}

}  // namespace impactset::data
