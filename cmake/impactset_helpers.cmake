# impactset_add_library(<module> SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# One library per module (src/impactset/<module>/), aliased impactset::<module>; every file
# includes headers as <impactset/<module>/x.hpp>, in the source tree and installed alike. The
# module's top-level headers are installed under include/impactset/<module>/ (subfolders such as
# common/internal/ are private) and the target joins the impactsetTargets export set.
# Header-only private dependencies go in $<BUILD_INTERFACE:...>: a static library's private link
# dependencies are exported, and consumers would otherwise have to find them too.
function(impactset_add_library module)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(impactset_${module} ${ARG_SOURCES})
  add_library(impactset::${module} ALIAS impactset_${module})
  # Shared builds: 0.x minor versions may break the ABI, so the soname carries MAJOR.MINOR.
  set_target_properties(impactset_${module} PROPERTIES EXPORT_NAME ${module}
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  target_include_directories(impactset_${module} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(impactset_${module} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  target_compile_features(impactset_${module} PUBLIC cxx_std_20)  # the headers are C++20
  # PUBLIC in the build tree: the project's own inline header code sees the libraries' setting.
  # Not exported: an installed package's consumers arm IMPACTSET_ASSERT in their own code as
  # they choose (their NDEBUG, or -DIMPACTSET_ENABLE_ASSERTS=1); docs/cpp-library.md.
  if(IMPACTSET_ENABLE_ASSERTS)
    target_compile_definitions(impactset_${module} PUBLIC
                               $<BUILD_INTERFACE:IMPACTSET_ENABLE_ASSERTS=1>)
  endif()
  if(IMPACTSET_SANITIZE)  # a sanitized library links only into a sanitized program
    target_link_options(impactset_${module} INTERFACE -fsanitize=address,undefined)
    # and its consumers compile sanitized too: Eigen allocates its own way under ASan
    # (__SANITIZE_ADDRESS__ turns off its trust in malloc's alignment), so an Eigen object made in
    # the library and freed in an unsanitized consumer is a bad free.
    target_compile_options(impactset_${module} INTERFACE
                           $<INSTALL_INTERFACE:-fsanitize=address,undefined>)
  endif()
  impactset_warnings(impactset_${module})
  file(GLOB headers CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.hpp")
  install(FILES ${headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/impactset/${module})
  install(TARGETS impactset_${module} EXPORT impactsetTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()

function(impactset_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  # GCC and clang note that a function returning a 32-byte vector type has another ABI without
  # AVX; ours are always-inlined helpers inside .cpp files (common/internal/simd.hpp), never an
  # interface.
  target_compile_options(${target} PRIVATE -Wno-psabi)
  if(IMPACTSET_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# impactset_add_test(<name> [OPTIMIZED] [COST seconds] SOURCES ... LIBS ...): a GoogleTest
# executable registered with CTest. COST (seconds per test case) makes a fresh build directory,
# which has no timing history, start the program's long cases first.
function(impactset_add_test name)
  cmake_parse_arguments(ARG "OPTIMIZED" "COST" "SOURCES;LIBS" ${ARGN})
  set(cost_property)
  if(ARG_COST)
    set(cost_property COST ${ARG_COST})
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${name} PRIVATE IMPACTSET_ENABLE_ASSERTS=1
                                             IMPACTSET_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data")
  impactset_warnings(${name})
  if(IMPACTSET_SANITIZE AND NOT ARG_OPTIMIZED)
    # The tests' own code at -O0 (the libraries they test stay at -O1): it compiles in half the
    # time. OPTIMIZED tests keep -O1: their checks do heavy work in Eigen or in the libraries'
    # header templates, 4 to 15 times slower at -O0.
    target_compile_options(${name} PRIVATE -O0)
  endif()
  if(IMPACTSET_SANITIZE)
    # One CTest test per program: a sanitized process takes 0.15 to 0.25 s to start and to check
    # for leaks at exit, which 731 test cases, each in its own process, paid 731 times.
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES LABELS unit ${cost_property})
  else()
    gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS unit ${cost_property})
  endif()
endfunction()

# impactset_full_leak_stacks(<test>...): in the sanitized build, these tests record each
# allocation's whole stack (the slow unwinder), so that lsan.supp's third-party entries (libhdf5,
# Open MPI: libraries without frame pointers) can match. Only for the tests that meet those
# leaks: the slow unwinder makes malloc-heavy tests up to twice as slow.
function(impactset_full_leak_stacks)
  if(IMPACTSET_SANITIZE)
    set_property(TEST ${ARGN} APPEND PROPERTY ENVIRONMENT "ASAN_OPTIONS=fast_unwind_on_malloc=0")
  endif()
endfunction()

# impactset_sanitizer_defaults(): in the sanitized build, links tests/sanitizers/defaults.cpp (the
# sanitizers' default options and the suppression files) into every executable defined so far
# under the top directory, so that ctest, a test run by hand and the command line behave alike.
function(impactset_sanitizer_defaults)
  add_library(impactset_sanitizer_defaults OBJECT ${PROJECT_SOURCE_DIR}/tests/sanitizers/defaults.cpp)
  target_compile_definitions(impactset_sanitizer_defaults PRIVATE
                             IMPACTSET_SANITIZER_DIR="${PROJECT_SOURCE_DIR}/tests/sanitizers")
  # the libraries loaded with the program (libopen-pal's dlclose) must find the executable's own
  target_link_options(impactset_sanitizer_defaults INTERFACE -Wl,--export-dynamic-symbol=dlclose)
  set(dirs ${PROJECT_SOURCE_DIR})
  while(dirs)
    list(POP_FRONT dirs dir)
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    list(APPEND dirs ${subdirs})
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(t ${targets})
      get_target_property(type ${t} TYPE)
      if(type STREQUAL "EXECUTABLE")
        target_link_libraries(${t} PRIVATE impactset_sanitizer_defaults)
      endif()
    endforeach()
  endwhile()
endfunction()
