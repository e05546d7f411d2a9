#!/usr/bin/env bash
# Command 1 of the README: set up everything, then run the main job on the built-in default
# example (rocking-block, the paper's settings) and print its summary. Extra arguments go to
# `impactset run`, e.g. scripts/run-example.sh --system compass-gait --json
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh" >&2
exec "${BUILD_DIR:-$root/build}/apps/impactset" run "$@"
