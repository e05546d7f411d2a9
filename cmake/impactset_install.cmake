# Installation and the CMake package: find_package(impactset) gives the imported targets
# impactset::<module> (docs/cpp-library.md). Included at the end of the top-level CMakeLists.txt,
# once every library has joined the impactsetTargets export set (impactset_add_library).
include(CMakePackageConfigHelpers)
set(IMPACTSET_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/impactset")

install(TARGETS impactset RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT impactsetTargets NAMESPACE impactset:: DESTINATION ${IMPACTSET_CMAKE_DIR})

configure_package_config_file(cmake/impactsetConfig.cmake.in
  "${PROJECT_BINARY_DIR}/impactsetConfig.cmake" INSTALL_DESTINATION ${IMPACTSET_CMAKE_DIR})
# 0.x: minor versions may break the API, so a request for 0.1 accepts 0.1.z only.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/impactsetConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/impactsetConfig.cmake"
              "${PROJECT_BINARY_DIR}/impactsetConfigVersion.cmake"
        DESTINATION ${IMPACTSET_CMAKE_DIR})
if(NOT BUILD_SHARED_LIBS)
  # Static libraries carry their private link dependencies to the consumer, which finds these
  # three by hand as this build does.
  install(FILES cmake/modules/FindSiconosNumerics.cmake cmake/modules/FindSundialsCvode.cmake
                cmake/modules/FindMuJoCo.cmake
          DESTINATION ${IMPACTSET_CMAKE_DIR})
endif()
