#!/usr/bin/env bash
# kill -9 of `run`, `merge`, `sweep` and `batch` at random moments: afterwards the output path
# holds nothing or a complete file (equal in every dataset to an uninterrupted run's: the
# previous file, or the new one when the command had finished), never a truncated one; the next
# run (batch: --resume) succeeds and leaves no temporary file (*.tmp-*) and no parts directory.
# Usage: kill_test.sh path/to/impactset path/to/compare_h5.py [TRIALS per command, default 20]
set -u
bin="$(realpath "$1")"
compare="$(realpath "$2")"
trials="${3:-20}"
py=/usr/bin/python3  # Debian's, with h5py
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# IMPACTSET_TEST_SAMPLE_DIVISOR (CTest sets 8 in the sanitized build, where a process runs
# several times slower) divides the long jobs' sample counts: the same code paths, shorter.
div=${IMPACTSET_TEST_SAMPLE_DIVISOR:-1}
"$bin" run --system compass-gait --samples $((3000 / div)) --threads 1 --shard 0/2 --out s0.h5 >/dev/null
"$bin" run --system compass-gait --samples $((3000 / div)) --threads 1 --shard 1/2 --out s1.h5 >/dev/null
declare -A cmd
cmd[run]="run --system compass-gait --samples $((20000 / div)) --threads 1 --keep-samples"
cmd[merge]="merge s0.h5 s1.h5"
cmd[sweep]="sweep --model jia --system rocking-block --ratios 40"
cmd[batch]="batch --system compass-touchdown --vary angle=2.3:2.9:6 --samples $((1024 / div)) \
--threads 1 --holdout $((64 / div)) --part-states 1"
declare -A outcomes
for name in run merge sweep batch; do
  read -r -a args <<<"${cmd[$name]}"
  t0=$(date +%s%N)
  "$bin" "${args[@]}" --out "ref-$name.h5" >/dev/null 2>&1 || bad "$name: the reference run failed"
  ms=$((($(date +%s%N) - t0) / 1000000 + 1))
  absent=0 previous_or_new=0
  for ((i = 0; i < trials; i++)); do
    rm -rf "out.h5" "out.h5.parts"
    ((i % 2)) && cp "ref-$name.h5" out.h5  # odd trials: a previous complete file is in place
    "$bin" "${args[@]}" --out out.h5 >/dev/null 2>&1 &
    pid=$!
    sleep "$(awk -v r="$RANDOM" -v ms="$ms" 'BEGIN { printf "%.3f", r / 32767 * ms * 1.1 / 1000 }')"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    if [[ -e out.h5 ]]; then
      "$py" "$compare" "ref-$name.h5" out.h5 >/dev/null || bad "$name trial $i: out.h5 is not complete"
      previous_or_new=$((previous_or_new + 1))
    else
      absent=$((absent + 1))
    fi
    resume=()
    [[ $name == batch ]] && resume=(--resume)
    "$bin" "${args[@]}" "${resume[@]}" --out out.h5 >/dev/null 2>err.txt ||
      bad "$name trial $i: the next run failed: $(head -2 err.txt)"
    "$py" "$compare" "ref-$name.h5" out.h5 >/dev/null || bad "$name trial $i: next run's file differs"
    left="$(ls -d ./*.tmp-* out.h5.parts 2>/dev/null)"
    [[ -z $left ]] || bad "$name trial $i: left behind after the next run: $left"
  done
  outcomes[$name]="$trials trials ($ms ms uninterrupted): $absent left no file, $previous_or_new a complete file"
done
for name in run merge sweep batch; do echo "kill -9 $name: ${outcomes[$name]}"; done
if ((fail > 0)); then echo "$fail failures"; exit 1; fi
echo "kill test: all $((4 * trials)) trials passed"
