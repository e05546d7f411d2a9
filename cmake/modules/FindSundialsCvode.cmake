# Finds the four SUNDIALS libraries the compliant-contact simulator uses (CVODE, serial N_Vector,
# dense matrix and dense linear solver) by hand: Debian's SUNDIALSConfig.cmake imports every
# component, MPI, PETSc and hypre ones included. Defines SundialsCvode::SundialsCvode.
# Installed with impactset's CMake package for static builds.
find_path(SundialsCvode_INCLUDE_DIR cvode/cvode.h)
set(_sundials_vars SundialsCvode_INCLUDE_DIR)
foreach(_lib cvode nvecserial sunmatrixdense sunlinsoldense)
  find_library(SundialsCvode_${_lib}_LIBRARY NAMES sundials_${_lib})
  mark_as_advanced(SundialsCvode_${_lib}_LIBRARY)
  list(APPEND _sundials_vars SundialsCvode_${_lib}_LIBRARY)
endforeach()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SundialsCvode REQUIRED_VARS ${_sundials_vars})
mark_as_advanced(SundialsCvode_INCLUDE_DIR)
if(SundialsCvode_FOUND AND NOT TARGET SundialsCvode::SundialsCvode)
  add_library(SundialsCvode::SundialsCvode INTERFACE IMPORTED)
  set_target_properties(SundialsCvode::SundialsCvode PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${SundialsCvode_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${SundialsCvode_cvode_LIBRARY};${SundialsCvode_nvecserial_LIBRARY};${SundialsCvode_sunmatrixdense_LIBRARY};${SundialsCvode_sunlinsoldense_LIBRARY}")
endif()
unset(_sundials_vars)
