#!/usr/bin/env bash
# The test suite under AddressSanitizer and UBSan (README "Sanitizers"): configures and builds
# build-asan/ (IMPACTSET_SANITIZE=ON: -O1, asserts armed, any finding aborts its test) and runs
# CTest there. Third-party findings are suppressed only by tests/sanitizers/*.supp.
# Usage: scripts/run-sanitized-tests.sh [--ci]
#   --ci   the stage CI runs after the test command: without the Python module and the
#          benchmarks (not built), and without the Python and install tests, to stay within CI's
#          time; the library's unit tests, the command-line tests, the fuzz replays and the MPI
#          tests all run. Without --ci everything is built and every test runs.
# BUILD_DIR (default build-asan) overrides the build directory.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib/quiet-build.sh"
build="${BUILD_DIR:-$root/build-asan}"
jobs="$(nproc 2>/dev/null || echo 2)"
# clang 14: it compiles the instrumented code in three quarters of GCC 12's time (the Release
# build stays GCC's, so the two stages also see two compilers' warnings and sanitizers). Unity
# build: merged files share their template instantiations (about half the build time).
options=(-DCMAKE_BUILD_TYPE=Debug -DIMPACTSET_SANITIZE=ON -DCMAKE_UNITY_BUILD=ON
         -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14)
exclude=()
if [[ ${1:-} == --ci ]]; then
  options+=(-DIMPACTSET_BUILD_PYTHON=OFF -DIMPACTSET_BUILD_BENCHMARKS=OFF)
  exclude=(-LE "python|install")
elif (($# > 0)); then
  sed -n '2,10p' "${BASH_SOURCE[0]}" >&2
  exit 2
else  # set both again: a --ci run before left them off in the cache
  options+=(-DIMPACTSET_BUILD_PYTHON=ON -DIMPACTSET_BUILD_BENCHMARKS=ON)
fi
"$root/scripts/install-deps.sh" --clang
# A build directory configured with another compiler cannot be switched: start it afresh.
if [[ -f $build/CMakeCache.txt ]] &&
   ! grep -q '^CMAKE_CXX_COMPILER:.*clang++-14$' "$build/CMakeCache.txt"; then
  rm -rf "$build"
fi
cmake -S "$root" -B "$build" "${options[@]}" >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log" >&2; exit 1; }
quiet_build "$build" -j"$jobs"
cd "$build"
ctest --output-on-failure -j"$jobs" --timeout 900 "${exclude[@]}"
