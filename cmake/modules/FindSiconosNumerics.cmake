# Finds Siconos numerics by hand: Debian's SiconosConfig.cmake needs the whole Siconos suite.
# Defines the imported target SiconosNumerics::SiconosNumerics. Both include dirs are needed: the
# headers include each other unprefixed. Installed with impactset's CMake package for static builds.
find_path(SiconosNumerics_INCLUDE_DIR LinearComplementarityProblem.h PATH_SUFFIXES siconos/numerics)
find_library(SiconosNumerics_LIBRARY NAMES siconos_numerics)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SiconosNumerics
  REQUIRED_VARS SiconosNumerics_LIBRARY SiconosNumerics_INCLUDE_DIR)
mark_as_advanced(SiconosNumerics_INCLUDE_DIR SiconosNumerics_LIBRARY)
if(SiconosNumerics_FOUND AND NOT TARGET SiconosNumerics::SiconosNumerics)
  get_filename_component(_siconos_root "${SiconosNumerics_INCLUDE_DIR}" DIRECTORY)
  add_library(SiconosNumerics::SiconosNumerics UNKNOWN IMPORTED)
  set_target_properties(SiconosNumerics::SiconosNumerics PROPERTIES
    IMPORTED_LOCATION "${SiconosNumerics_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${_siconos_root};${SiconosNumerics_INCLUDE_DIR}")
  unset(_siconos_root)
endif()
