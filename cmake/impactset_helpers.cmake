# impactset_add_library(<module> SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# One library per module, aliased impactset::<module>; includes by module path ("lcp/lemke.hpp").
function(impactset_add_library module)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(impactset_${module} ${ARG_SOURCES})
  add_library(impactset::${module} ALIAS impactset_${module})
  target_include_directories(impactset_${module} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)
  target_link_libraries(impactset_${module} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  if(IMPACTSET_ENABLE_ASSERTS)  # PUBLIC: inline code in the headers sees the same setting
    target_compile_definitions(impactset_${module} PUBLIC IMPACTSET_ENABLE_ASSERTS=1)
  endif()
  impactset_warnings(impactset_${module})
endfunction()

function(impactset_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(IMPACTSET_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# impactset_add_test(<name> SOURCES ... LIBS ...): a GoogleTest executable registered with CTest.
function(impactset_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${name} PRIVATE IMPACTSET_ENABLE_ASSERTS=1
                                             IMPACTSET_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data")
  impactset_warnings(${name})
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS unit)
endfunction()
