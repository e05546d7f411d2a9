#!/usr/bin/env bash
# Command 2 of the README: set up everything, build, and run the whole test suite with CTest.
# IMPACTSET_FUZZ_SECONDS=N also builds the libFuzzer targets with clang (build-fuzz/, a second
# sanitized build of the libraries: docs/robustness.md) and fuzzes each for N seconds.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
cd "${BUILD_DIR:-$root/build}"
ctest --output-on-failure -j"$(nproc 2>/dev/null || echo 2)" --timeout 600
if [[ -n ${IMPACTSET_FUZZ_SECONDS:-} ]]; then
  BUILD_DIR="$root/build-fuzz" "$root/scripts/fuzz.sh" --all "$IMPACTSET_FUZZ_SECONDS"
fi
