# Checks the module dependency arrows (run as a CTest test, script mode), in src/impactset/:
#   common <- lcp <- impact <- {laws, systems, sampling};  {laws, systems} <- simulators;
#   systems <- robots (the only MuJoCo user);  {sampling, robots, setapprox} <- sets;
#   {systems, robots, data} <- catalog;  {sets, data} <- engine <- rollouts (MuJoCo simulations
#   with set-valued impacts) <- batch <- distributed (the only MPI user);  setapprox and data
#   stand alone (common only);
#   {laws, simulators, engine and what they include} <- compare (the laws side by side);
#   everything <- apps, python (the module), fuzz, tests, bench;
# that every file includes the library's headers as <impactset/MODULE/...>, that no public header
# includes a private one (internal/) or a wrapped C library (Siconos, Qhull, HDF5, TBB, SUNDIALS,
# MuJoCo, MPI).
set(allowed_common common)
set(allowed_lcp common lcp)
set(allowed_impact common lcp impact)
set(allowed_laws common lcp impact laws)
set(allowed_systems common lcp impact systems)
set(allowed_robots common lcp impact systems robots)
set(allowed_simulators common lcp impact laws systems simulators)
set(allowed_sampling common lcp impact sampling)
set(allowed_setapprox common setapprox)
set(allowed_data common data)
set(allowed_sets common lcp impact systems robots sampling setapprox sets)
set(allowed_catalog common lcp impact systems robots data catalog)
set(allowed_engine common lcp impact systems robots sampling setapprox data sets engine)
set(allowed_rollouts common lcp impact systems robots sampling setapprox data sets engine rollouts)
set(allowed_batch ${allowed_rollouts} batch)
set(allowed_distributed ${allowed_batch} distributed)
set(allowed_compare ${allowed_simulators} ${allowed_engine} compare)
set(modules common lcp impact laws systems robots simulators sampling setapprox data sets catalog
            engine compare rollouts batch distributed)
set(failures "")
foreach(module ${modules})
  file(GLOB_RECURSE files "${ROOT}/src/impactset/${module}/*.hpp" "${ROOT}/src/impactset/${module}/*.cpp")
  foreach(f ${files})
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include")
    foreach(line ${lines})
      if(line MATCHES "#[ \t]*include[ \t]*<impactset/([a-z_]+)/")
        set(dep "${CMAKE_MATCH_1}")
        list(FIND allowed_${module} "${dep}" ok)
        if(ok EQUAL -1)
          list(APPEND failures "${f}: ${module}/ must not include ${dep}/ (${line})")
        endif()
      endif()
      if(line MATCHES "#[ \t]*include[ \t]*\"(apps|python|fuzz|tests|bench)/")
        list(APPEND failures "${f}: the library must not include ${CMAKE_MATCH_1}/ (${line})")
      endif()
      if(NOT module STREQUAL "distributed" AND line MATCHES "<mpi\\.h>")
        list(APPEND failures "${f}: only distributed/ may include <mpi.h> (${line})")
      endif()
      # A public header: a module's top-level .hpp, installed for consumers.
      get_filename_component(dir "${f}" DIRECTORY)
      if(f MATCHES "\\.hpp$" AND dir STREQUAL "${ROOT}/src/impactset/${module}")
        if(line MATCHES "<(SiconosConfig|LCP_|NumericsMatrix|SolverOptions|libqhull|H5Cpp|hdf5|tbb/|oneapi/tbb|cvode/|sundials/|nvector/|sunmatrix/|sunlinsol/|mujoco|mpi\\.h)")
          list(APPEND failures "${f}: public header includes a wrapped C library (${line})")
        endif()
        if(line MATCHES "/internal/")
          list(APPEND failures "${f}: public header includes a private one (${line})")
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()
# Every C++ file of the repository includes the library by its installed name.
file(GLOB_RECURSE all_files "${ROOT}/src/*.hpp" "${ROOT}/src/*.cpp" "${ROOT}/apps/*.?pp"
     "${ROOT}/python/src/*.?pp" "${ROOT}/tests/*.?pp" "${ROOT}/fuzz/*.?pp" "${ROOT}/bench/*.?pp"
     "${ROOT}/examples/*.?pp")
string(REPLACE ";" "|" module_alternatives "${modules}")
foreach(f ${all_files})
  file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"(${module_alternatives})/")
  foreach(line ${lines})
    list(APPEND failures "${f}: include the library as <impactset/...> (${line})")
  endforeach()
endforeach()
if(failures)
  list(JOIN failures "\n" msg)
  message(FATAL_ERROR "include direction violated:\n${msg}")
endif()
message(STATUS "include direction OK")
