#!/usr/bin/env bash
# Command 2 of the README: set up everything, build, and run the whole test suite with CTest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
cd "${BUILD_DIR:-$root/build}"
ctest --output-on-failure -j"$(nproc 2>/dev/null || echo 2)" --timeout 600
