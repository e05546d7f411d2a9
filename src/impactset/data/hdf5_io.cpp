#include <impactset/data/internal/hdf5_io.hpp>

#include <stdexcept>
#include <type_traits>

#include <H5Cpp.h>
#include <hdf5_hl.h>

namespace impactset::data::internal {

static_assert(std::is_same_v<Extent, hsize_t>);

std::vector<Extent> Dims(const H5::DataSet& ds) {
  H5::DataSpace sp = ds.getSpace();
  std::vector<Extent> dims(static_cast<size_t>(sp.getSimpleExtentNdims()));
  sp.getSimpleExtentDims(dims.data());
  return dims;
}

std::string Shape(const std::vector<Extent>& dims, bool any) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    s += i ? ", " : "";
    s += any && dims[i] == 0 ? std::string("*") : std::to_string(dims[i]);
  }
  return s + ")";
}

Extent Elements(const std::vector<Extent>& dims, const std::string& object) {
  Extent n = 1;
  for (Extent d : dims) {
    if (d > 0 && n > kMaxReadElements / d) {
      throw std::invalid_argument(object + ": more than " + std::to_string(kMaxReadElements) +
                                  " elements");
    }
    n *= d;
  }
  return n;
}

void WriteScalarAttribute(H5::H5Object& object, const std::string& name, const AttributeValue& v) {
  const H5::DataSpace scalar(H5S_SCALAR);
  if (const auto* s = std::get_if<std::string>(&v)) {
    const H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
    object.createAttribute(name, t, scalar).write(t, *s);
  } else if (const auto* d = std::get_if<double>(&v)) {
    object.createAttribute(name, H5::PredType::NATIVE_DOUBLE, scalar)
        .write(H5::PredType::NATIVE_DOUBLE, d);
  } else if (const auto* i = std::get_if<std::int64_t>(&v)) {
    object.createAttribute(name, H5::PredType::NATIVE_INT64, scalar)
        .write(H5::PredType::NATIVE_INT64, i);
  } else {
    const std::uint64_t u = std::get<std::uint64_t>(v);
    object.createAttribute(name, H5::PredType::NATIVE_UINT64, scalar)
        .write(H5::PredType::NATIVE_UINT64, &u);
  }
}

namespace {
bool IsScaleBookkeeping(const std::string& name) {
  return name == "CLASS" || name == "NAME" || name == "DIMENSION_LIST" ||
         name == "REFERENCE_LIST" || name == "_Netcdf4Dimid" || name == "_Netcdf4Coordinates";
}
}  // namespace

std::vector<Attribute> ReadScalarAttributes(const H5::H5Object& object, const std::string& group) {
  std::vector<Attribute> out;
  const int count = object.getNumAttrs();
  for (int i = 0; i < count; ++i) {
    const H5::Attribute a = object.openAttribute(static_cast<unsigned>(i));
    const std::string name = a.getName();
    if (IsScaleBookkeeping(name) || a.getSpace().getSimpleExtentNpoints() != 1) continue;
    const H5T_class_t type = a.getTypeClass();
    if (type == H5T_STRING) {
      std::string s;
      a.read(a.getStrType(), s);
      out.push_back({group, name, s});
    } else if (type == H5T_FLOAT) {
      double d = 0;
      a.read(H5::PredType::NATIVE_DOUBLE, &d);
      out.push_back({group, name, d});
    } else if (type == H5T_INTEGER && a.getIntType().getSign() == H5T_SGN_NONE &&
               a.getIntType().getSize() == 8) {
      std::uint64_t u = 0;
      a.read(H5::PredType::NATIVE_UINT64, &u);
      out.push_back({group, name, u});
    } else if (type == H5T_INTEGER) {
      std::int64_t v = 0;
      a.read(H5::PredType::NATIVE_INT64, &v);
      out.push_back({group, name, v});
    }
  }
  return out;
}

void WriteStringsAttribute(H5::H5Object& object,
                           const std::string& name,
                           const std::vector<std::string>& values) {
  std::vector<const char*> text;
  for (const std::string& s : values) text.push_back(s.c_str());
  const hsize_t dims[1] = {text.size()};
  const H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
  H5::Attribute a = object.createAttribute(name, t, H5::DataSpace(1, dims));
  if (!text.empty()) a.write(t, text.data());
}

std::vector<std::string> ReadStringsAttribute(const H5::H5Object& object, const std::string& name) {
  if (!object.attrExists(name)) return {};
  const H5::Attribute a = object.openAttribute(name);
  if (a.getTypeClass() != H5T_STRING || !a.getStrType().isVariableStr()) return {};
  const hssize_t n = a.getSpace().getSimpleExtentNpoints();
  if (n < 0 || static_cast<Extent>(n) > kMaxReadElements) return {};
  std::vector<char*> text(static_cast<size_t>(n));
  const H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
  if (!text.empty()) a.read(t, text.data());
  std::vector<std::string> out;
  for (char* s : text) out.emplace_back(s ? s : "");
  if (!text.empty()) H5Dvlen_reclaim(t.getId(), a.getSpace().getId(), H5P_DEFAULT, text.data());
  return out;
}

H5::DataSet WriteScale(H5::Group& group, const Dimension& d) {
  H5::DataSet ds;
  if (!d.labels.empty()) {
    std::vector<const char*> text;
    for (const std::string& s : d.labels) text.push_back(s.c_str());
    const hsize_t dims[1] = {text.size()};
    const H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
    ds = group.createDataSet(d.name, t, H5::DataSpace(1, dims));
    ds.write(text.data(), t);
  } else {
    std::vector<std::int64_t> index(static_cast<size_t>(d.count));
    for (size_t i = 0; i < index.size(); ++i) index[i] = d.first + static_cast<long long>(i);
    const hsize_t dims[1] = {index.size()};
    ds = group.createDataSet(d.name, H5::PredType::NATIVE_INT64, H5::DataSpace(1, dims));
    if (!index.empty()) ds.write(index.data(), H5::PredType::NATIVE_INT64);
  }
  if (H5DSset_scale(ds.getId(), d.name.c_str()) < 0) {
    throw H5::Exception("H5DSset_scale (" + d.name + ")", "cannot make a dimension scale");
  }
  return ds;
}

void AttachScales(H5::Group& group,
                  const std::string& name,
                  const std::vector<H5::DataSet>& scales) {
  const H5::DataSet ds = group.openDataSet(name);
  for (size_t i = 0; i < scales.size(); ++i) {
    if (H5DSattach_scale(ds.getId(), scales[i].getId(), static_cast<unsigned>(i)) < 0) {
      throw H5::Exception("H5DSattach_scale (" + name + ")", "cannot attach a dimension scale");
    }
  }
}

}  // namespace impactset::data::internal
