#include <impactset/data/batch_file.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
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

// A dataset of rows x width (rank 1 when scalar), chunked along rows.
void WriteArray(H5::H5File& f,
                const std::string& path,
                ColumnType type,
                const void* data,
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
      H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
      H5::DataSet ds = f.createDataSet(path, t, space, props);
      if (rows > 0) ds.write(data, t);
      return;
    }
    H5::DataSet ds = f.createDataSet(path, NumType(type), space, props);
    if (rows > 0 && width > 0) ds.write(data, NumType(type));
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

void WriteAll(H5::H5File& f, const BatchFile& b) {
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
