# Sourced by the build scripts. quiet_build ARGS...: `cmake --build ARGS`, without its progress
# lines. Under `set -o pipefail` the pipeline's status is the build's, so a failed build stops the
# calling script (set -e) before any test runs.
quiet_build() {
  cmake --build "$@" 2>&1 |
    { grep -vE '^\[ *[0-9]+%\]|^(Consolidate|Scanning|Built target)' || true; }
}
