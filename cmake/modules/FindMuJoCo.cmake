# Finds MuJoCo's C library (Debian: libmujoco-dev; header mujoco/mujoco.h, library libmujoco) by
# hand, as the other wrapped C libraries, and checks that it is the 2.x API robots/ is written
# against. Defines MuJoCo::MuJoCo and MuJoCo_VERSION. Installed with impactset's CMake package for
# static builds.
find_path(MuJoCo_INCLUDE_DIR mujoco/mujoco.h)
find_library(MuJoCo_LIBRARY NAMES mujoco)
if(MuJoCo_INCLUDE_DIR AND EXISTS "${MuJoCo_INCLUDE_DIR}/mujoco/mujoco.h")
  # mjVERSION_HEADER is major * 100 + minor * 10 + patch (222 for 2.2.2).
  file(STRINGS "${MuJoCo_INCLUDE_DIR}/mujoco/mujoco.h" _mujoco_version_line
       REGEX "^#define mjVERSION_HEADER [0-9]+")
  if(_mujoco_version_line MATCHES "mjVERSION_HEADER ([0-9]+)")
    math(EXPR _mujoco_major "${CMAKE_MATCH_1} / 100")
    math(EXPR _mujoco_minor "(${CMAKE_MATCH_1} / 10) % 10")
    math(EXPR _mujoco_patch "${CMAKE_MATCH_1} % 10")
    set(MuJoCo_VERSION "${_mujoco_major}.${_mujoco_minor}.${_mujoco_patch}")
  endif()
  unset(_mujoco_version_line)
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(MuJoCo REQUIRED_VARS MuJoCo_LIBRARY MuJoCo_INCLUDE_DIR
                                  VERSION_VAR MuJoCo_VERSION)
mark_as_advanced(MuJoCo_INCLUDE_DIR MuJoCo_LIBRARY)
if(MuJoCo_FOUND AND NOT TARGET MuJoCo::MuJoCo)
  add_library(MuJoCo::MuJoCo UNKNOWN IMPORTED)
  set_target_properties(MuJoCo::MuJoCo PROPERTIES
    IMPORTED_LOCATION "${MuJoCo_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${MuJoCo_INCLUDE_DIR}")
endif()
