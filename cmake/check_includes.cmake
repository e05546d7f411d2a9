# Checks the module dependency arrows (run as a CTest test, script mode):
#   common <- lcp <- impact <- {laws, systems, sampling};  {laws, systems} <- simulators;
#   systems <- robots (the only MuJoCo user);  {sampling, systems, robots, setapprox, data} <- engine;
#   {laws, simulators, engine and what they include} <- compare (the laws side by side);
#   everything <- apps, python (the module), fuzz;
#   setapprox and data stand alone (common only);  engine <- distributed (the only MPI user);
# and that third-party C libraries (Siconos, Qhull, HDF5, TBB, SUNDIALS, MuJoCo, MPI) appear in no
# public header.
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
set(allowed_engine common lcp impact systems robots sampling setapprox data engine)
set(allowed_distributed common lcp impact systems robots sampling setapprox data engine distributed)
set(allowed_compare common lcp impact laws systems robots simulators sampling setapprox data engine
    compare)
set(modules common lcp impact laws systems robots simulators sampling setapprox data engine distributed
    compare)
set(failures "")
foreach(module ${modules})
  file(GLOB_RECURSE files "${ROOT}/${module}/*.hpp" "${ROOT}/${module}/*.cpp")
  foreach(f ${files})
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include")
    foreach(line ${lines})
      if(line MATCHES "#[ \t]*include[ \t]*\"([a-z_]+)/")
        set(dep "${CMAKE_MATCH_1}")
        list(FIND modules "${dep}" is_module)
        list(FIND allowed_${module} "${dep}" ok)
        if((is_module GREATER -1 OR dep STREQUAL "apps" OR dep STREQUAL "python" OR dep STREQUAL "fuzz")
           AND ok EQUAL -1)
          list(APPEND failures "${f}: ${module}/ must not include ${dep}/ (${line})")
        endif()
      endif()
      if(NOT module STREQUAL "distributed" AND line MATCHES "<mpi\\.h>")
        list(APPEND failures "${f}: only distributed/ may include <mpi.h> (${line})")
      endif()
      if(f MATCHES "\\.hpp$" AND line MATCHES "<(SiconosConfig|LCP_|NumericsMatrix|SolverOptions|libqhull|H5Cpp|hdf5|tbb/|oneapi/tbb|cvode/|sundials/|nvector/|sunmatrix/|sunlinsol/|mujoco|mpi\\.h)")
        list(APPEND failures "${f}: public header includes a wrapped C library (${line})")
      endif()
    endforeach()
  endforeach()
endforeach()
if(failures)
  list(JOIN failures "\n" msg)
  message(FATAL_ERROR "include direction violated:\n${msg}")
endif()
message(STATUS "include direction OK")
