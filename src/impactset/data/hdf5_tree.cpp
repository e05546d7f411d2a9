#include <impactset/data/hdf5_tree.hpp>

#include <algorithm>
#include <stdexcept>

#include <H5Cpp.h>
#include <hdf5_hl.h>

#include <impactset/data/internal/atomic_file.hpp>
#include <impactset/data/internal/hdf5_io.hpp>
#include <impactset/data/internal/isolated_read.hpp>

namespace impactset::data {
namespace {

using Type = TreeArray::Type;

const H5::PredType& NumType(Type t) {
  switch (t) {
    case Type::kInt64:
      return H5::PredType::NATIVE_INT64;
    case Type::kUInt64:
      return H5::PredType::NATIVE_UINT64;
    case Type::kInt32:
      return H5::PredType::NATIVE_INT32;
    case Type::kUInt8:
      return H5::PredType::NATIVE_UINT8;
    default:
      return H5::PredType::NATIVE_DOUBLE;
  }
}

Type TypeOf(const H5::DataSet& ds, const std::string& path) {
  const H5T_class_t c = ds.getTypeClass();
  if (c == H5T_STRING) return Type::kString;
  if (c == H5T_FLOAT) return Type::kFloat64;
  if (c == H5T_INTEGER) {
    const H5::IntType t = ds.getIntType();
    const bool sign = t.getSign() != H5T_SGN_NONE;
    if (t.getSize() == 8) return sign ? Type::kInt64 : Type::kUInt64;
    if (t.getSize() == 4 && sign) return Type::kInt32;
    if (t.getSize() == 1 && !sign) return Type::kUInt8;
  }
  throw std::invalid_argument(path + ": an element type impactset does not write");
}

struct Objects {
  std::vector<std::string> groups, datasets;
};

herr_t Visit(hid_t, const char* name, const H5O_info_t* info, void* data) {
  auto* o = static_cast<Objects*>(data);
  const std::string path = std::string("/") + name;
  if (std::string(name) == ".") return 0;
  if (info->type == H5O_TYPE_GROUP) o->groups.push_back(path);
  if (info->type == H5O_TYPE_DATASET) o->datasets.push_back(path);
  return 0;
}

herr_t ScalePath(hid_t, unsigned, hid_t scale, void* data) {
  char name[1024];
  const ssize_t n = H5Iget_name(scale, name, sizeof name);
  if (n > 0) *static_cast<std::string*>(data) = std::string(name, static_cast<size_t>(n));
  return 1;  // the first scale of the dimension
}

void ReadAttributes(const H5::H5Object& o, const std::string& path, Tree* t) {
  for (Attribute& a : internal::ReadScalarAttributes(o, path)) t->attributes.push_back(a);
  for (int i = 0; i < o.getNumAttrs(); ++i) {
    const H5::Attribute a = o.openAttribute(static_cast<unsigned>(i));
    const std::string name = a.getName();
    if (a.getTypeClass() != H5T_STRING || a.getSpace().getSimpleExtentNdims() != 1) continue;
    t->lists.push_back({path, name, internal::ReadStringsAttribute(o, name)});
  }
}

TreeArray ReadArray(H5::H5File& f, const std::string& path) {
  const H5::DataSet ds = f.openDataSet(path);
  TreeArray a;
  a.path = path;
  a.type = TypeOf(ds, path);
  const std::vector<internal::Extent> dims = internal::Dims(ds);
  a.shape.assign(dims.begin(), dims.end());
  const size_t n = internal::Elements(dims, path);
  if (a.type == Type::kString) {
    std::vector<char*> text(n);
    const H5::StrType s(H5::PredType::C_S1, H5T_VARIABLE);
    if (!ds.getStrType().isVariableStr()) throw std::invalid_argument(path + ": fixed strings");
    if (n > 0) ds.read(text.data(), s);
    for (char* c : text) a.text.emplace_back(c ? c : "");
    if (n > 0) H5::DataSet::vlenReclaim(text.data(), s, ds.getSpace());
  } else if (a.type == Type::kFloat64) {
    a.values.resize(n);
    if (n > 0) ds.read(a.values.data(), H5::PredType::NATIVE_DOUBLE);
  } else {
    a.integers.resize(n);
    const H5::PredType& stored =
        a.type == Type::kUInt64 ? H5::PredType::NATIVE_UINT64 : H5::PredType::NATIVE_INT64;
    if (n > 0) ds.read(a.integers.data(), stored);
  }
  if (H5DSis_scale(ds.getId()) > 0) {
    char name[256] = {0};
    const ssize_t len = H5DSget_scale_name(ds.getId(), name, sizeof name);
    a.scale = len > 0 ? std::string(name) : path.substr(path.rfind('/') + 1);
  }
  for (unsigned d = 0; d < dims.size(); ++d) {
    if (H5DSget_num_scales(ds.getId(), d) <= 0) continue;
    a.dimensions.resize(dims.size());
    H5DSiterate_scales(ds.getId(), d, nullptr, ScalePath, &a.dimensions[d]);
  }
  return a;
}

Tree ReadWhole(const std::string& path) {
  H5::H5File f(path, H5F_ACC_RDONLY);
  Objects o;
  H5Ovisit(f.getId(), H5_INDEX_NAME, H5_ITER_INC, Visit, &o);
  Tree t;
  t.groups = o.groups;
  ReadAttributes(f, "/", &t);
  for (const std::string& g : o.groups) ReadAttributes(f.openGroup(g), g, &t);
  for (const std::string& d : o.datasets) {
    t.arrays.push_back(ReadArray(f, d));
    ReadAttributes(f.openDataSet(d), d, &t);
  }
  return t;
}

void WriteArray(H5::H5File& f, const TreeArray& a) {
  size_t n = 1;
  for (std::uint64_t d : a.shape) n *= d;
  const size_t have = a.type == Type::kString    ? a.text.size()
                      : a.type == Type::kFloat64 ? a.values.size()
                                                 : a.integers.size();
  if (have != n) {
    throw std::invalid_argument(a.path + ": " + std::to_string(have) + " values for " +
                                std::to_string(n) + " elements of its shape");
  }
  const std::vector<hsize_t> dims(a.shape.begin(), a.shape.end());
  const H5::DataSpace space = dims.empty()
                                  ? H5::DataSpace(H5S_SCALAR)
                                  : H5::DataSpace(static_cast<int>(dims.size()), dims.data());
  H5::DSetCreatPropList props;
  if (dims.size() == 2 && n > 0) {
    const hsize_t chunk[2] = {std::min<hsize_t>(dims[0], 4096), dims[1]};
    props.setChunk(2, chunk);
    props.setDeflate(4);
  }
  if (a.type == Type::kString) {
    std::vector<const char*> text;
    for (const std::string& s : a.text) text.push_back(s.c_str());
    const H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
    H5::DataSet ds = f.createDataSet(a.path, t, space, props);
    if (n > 0) ds.write(text.data(), t);
  } else if (a.type == Type::kFloat64) {
    H5::DataSet ds = f.createDataSet(a.path, H5::PredType::NATIVE_DOUBLE, space, props);
    if (n > 0) ds.write(a.values.data(), H5::PredType::NATIVE_DOUBLE);
  } else {
    H5::DataSet ds = f.createDataSet(a.path, NumType(a.type), space, props);
    const H5::PredType& held =
        a.type == Type::kUInt64 ? H5::PredType::NATIVE_UINT64 : H5::PredType::NATIVE_INT64;
    if (n > 0) ds.write(a.integers.data(), held);
  }
}

H5::H5Object* Object(H5::H5File& f, const std::string& path, H5::Group* g, H5::DataSet* d) {
  if (path == "/") {
    *g = f.openGroup("/");
    return g;
  }
  if (f.childObjType(path) == H5O_TYPE_DATASET) {
    *d = f.openDataSet(path);
    return d;
  }
  *g = f.openGroup(path);
  return g;
}

void WriteWhole(H5::H5File& f, const Tree& t) {
  for (const std::string& g : t.groups) f.createGroup(g);
  for (const TreeArray& a : t.arrays) WriteArray(f, a);
  for (const TreeArray& a : t.arrays) {
    if (a.scale.empty()) continue;
    H5::DataSet ds = f.openDataSet(a.path);
    H5DSset_scale(ds.getId(), a.scale.c_str());
  }
  for (const TreeArray& a : t.arrays) {
    for (size_t d = 0; d < a.dimensions.size(); ++d) {
      if (a.dimensions[d].empty()) continue;
      if (!f.nameExists(a.dimensions[d])) {
        throw std::invalid_argument(a.path + ": dimension " + std::to_string(d) + " names " +
                                    a.dimensions[d] + ", which the tree does not hold");
      }
      H5::DataSet ds = f.openDataSet(a.path), scale = f.openDataSet(a.dimensions[d]);
      H5DSattach_scale(ds.getId(), scale.getId(), static_cast<unsigned>(d));
    }
  }
  H5::Group g;
  H5::DataSet d;
  for (const Attribute& a : t.attributes) {
    internal::WriteScalarAttribute(*Object(f, a.group, &g, &d), a.name, a.value);
  }
  for (const Tree::List& l : t.lists) {
    internal::WriteStringsAttribute(*Object(f, l.object, &g, &d), l.name, l.values);
  }
}

}  // namespace

Tree ReadTree(const std::string& path) {
  H5::Exception::dontPrint();
  internal::ProbeInChild(path, [&] { ReadWhole(path); });  // libhdf5 may crash on a corrupt file
  try {
    return ReadWhole(path);
  } catch (const H5::Exception& e) {
    throw std::runtime_error(path + ": HDF5 error at " + e.getFuncName() + ": " + e.getDetailMsg());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ":" + e.what());
  }
}

void WriteTree(const std::string& path, const Tree& tree) {
  internal::WriteHdf5Atomically(path, [&](H5::H5File& f) { WriteWhole(f, tree); });
}

}  // namespace impactset::data
