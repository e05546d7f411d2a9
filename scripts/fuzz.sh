#!/usr/bin/env bash
# Fuzzing with clang + libFuzzer under ASan+UBSan (docs/robustness.md).
#   scripts/fuzz.sh TARGET MINUTES   one campaign: corpus in build-fuzz/corpus/TARGET (seeded from
#                                    tests/fuzz and the targets' seed directories), findings
#                                    (crash-*, timeout-*, oom-*) in build-fuzz/findings/TARGET
#   scripts/fuzz.sh --all SECONDS    every target for SECONDS each (the CI-sized run)
#   scripts/fuzz.sh --build          configure and build the targets only
# Targets: scene_json problem_json problem_hdf5 dataset_hdf5 dataset_fields state_table
# batch_parts mujoco_xml cli_args impact_state. BUILD_DIR (default build-fuzz) and JOBS (default
# nproc) override.
# A finding: minimise it (./build-fuzz/fuzz/fuzz_TARGET -minimize_crash=1 -runs=10000 FILE), fix
# the library, and add the input to tests/fuzz/TARGET/ (the replay tests of every build run it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib/quiet-build.sh"
build="${BUILD_DIR:-$root/build-fuzz}"
jobs="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
targets=(scene_json problem_json problem_hdf5 dataset_hdf5 dataset_fields state_table batch_parts
         mujoco_xml cli_args impact_state)
usage() { sed -n '2,13p' "${BASH_SOURCE[0]}" >&2; exit 2; }
(($# >= 1)) || usage

build_targets() {  # build_targets TARGET...
  "$root/scripts/install-deps.sh" --fuzz
  if [[ ! -f "$build/CMakeCache.txt" ]]; then
    CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug \
      -DIMPACTSET_FUZZ=ON -DIMPACTSET_BUILD_TESTS=OFF -DIMPACTSET_BUILD_BENCHMARKS=OFF \
      -DIMPACTSET_BUILD_PYTHON=OFF >"$build.configure.log" 2>&1 ||
      { cat "$build.configure.log" >&2; exit 1; }
  fi
  quiet_build "$build" -j"$jobs" --target "${@/#/fuzz_}"
}

seed_dirs() {  # the directories the replay test of TARGET reads (fuzz/CMakeLists.txt)
  case "$1" in
    scene_json) echo "$root/src/impactset/systems/scenes $root/tests/fuzz/scene_json" ;;
    problem_json) echo "$root/tests/data/problems $root/tests/fuzz/problem_json" ;;
    problem_hdf5) echo "$root/tests/fuzz/problem_hdf5 $root/tests/fuzz/dataset_hdf5/seeds" ;;
    mujoco_xml) echo "$root/src/impactset/robots/scenes $root/tests/fuzz/mujoco_xml" ;;
    *) echo "$root/tests/fuzz/$1" ;;
  esac
}

campaign() {  # campaign TARGET SECONDS
  local t="$1" seconds="$2"
  local corpus="$build/corpus/$t" findings="$build/findings/$t"
  mkdir -p "$corpus" "$findings"
  # -timeout=1: an input running over a second is a hang; the clock is wall time, so on a loaded
  # machine rerun a timeout-* alone (fuzz_TARGET -timeout=60 FILE) before calling it one.
  # -rss_limit_mb: a memory blow-up is a finding, not an OOM kill of the machine.
  # fast_unwind_on_malloc=0: libhdf5 has no frame pointers, so the fast unwinder stops inside it
  # and a leak of libhdf5's own (tests/sanitizers/lsan.supp names its functions) goes unrecognised.
  # impact_state runs a step pilot and a small run per input: seconds under ASan, not a hang.
  local timeout=1
  [[ "$t" == impact_state ]] && timeout=20
  # shellcheck disable=SC2046
  ASAN_OPTIONS="fast_unwind_on_malloc=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
  LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp" "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" $(seed_dirs "$t") \
    2>"$build/findings/$t.log" || { tail -40 "$build/findings/$t.log" >&2; return 1; }
  grep -E '^stat::number_of_executed_units|^stat::peak_rss|cov: .*ft:' "$build/findings/$t.log" |
    tail -3 | sed "s/^/$t: /"
}

case "$1" in
  --build) build_targets "${targets[@]}" ;;
  --all)
    (($# == 2)) || usage
    build_targets "${targets[@]}"
    failed=0
    for t in "${targets[@]}"; do campaign "$t" "$2" || failed=1; done
    exit "$failed" ;;
  *)
    (($# == 2)) || usage
    [[ " ${targets[*]} " == *" $1 "* ]] || { echo "fuzz.sh: unknown target $1" >&2; usage; }
    build_targets "$1"
    campaign "$1" $(($2 * 60)) ;;
esac
