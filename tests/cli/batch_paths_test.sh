#!/usr/bin/env bash
# `impactset batch --resume` on a finished file says so and leaves it untouched; a refused
# resume names the setting that differs and both values; a batch's default hold-out follows its
# samples per state; every command's output path follows one policy (missing directories are
# created, a path under a file is refused by name before any work); a state table's non-finite
# value names the file, row and column.
# Usage: batch_paths_test.sh path/to/impactset
set -u
bin="$(realpath "$1")"
py=/usr/bin/python3  # Debian's, with h5py
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# ---- --resume on a finished file: exit 0, a message, the file untouched (bytes and mtime)
job=(batch --system compass-touchdown --vary angle=2.3:2.9:3 --samples 64 --threads 1)
"$bin" "${job[@]}" --out done.h5 >/dev/null 2>err.txt || bad "batch: $(cat err.txt)"
cp done.h5 copy.h5
stamp="$(stat -c %y done.h5)"
sleep 0.05  # a rewrite would change the modification time
expect "resume of a finished file" 0 "done.h5 is complete \(3 states, the same command line\): nothing to resume" -- \
  "$bin" "${job[@]}" --out done.h5 --resume
cmp -s done.h5 copy.h5 || bad "resume of a finished file changed its bytes"
[[ "$(stat -c %y done.h5)" == "$stamp" ]] || bad "resume of a finished file rewrote it"
[[ -e done.h5.parts ]] && bad "resume of a finished file left a parts directory"
expect "resume of a finished file, JSON" 0 '"finished_before": true' -- \
  "$bin" "${job[@]}" --out done.h5 --resume --json
grep -q '"computed": 0' out.txt || bad "JSON of a finished file's resume: $(cat out.txt)"

# ---- a refused resume names the setting and both values; nothing is changed
expect "resume with other samples" 2 \
  "done.h5: --resume, but the file holds another batch: --samples = 64 in the file, 128 in this command" -- \
  "$bin" "${job[@]/64/128}" --out done.h5 --resume
cmp -s done.h5 copy.h5 || bad "a refused resume changed the file"
expect "resume with another range" 2 "the states' parameter values \(points_checksum\) = [0-9]+ in the file, [0-9]+ in this command" -- \
  "$bin" "${job[@]/2.9/2.8}" --out done.h5 --resume
mkdir -p part.h5.parts && cp done.h5 part.h5.parts/part-000000.h5  # a part of the 64-sample job
expect "parts of another batch" 2 \
  "part.h5.parts/part-000000.h5: written by another batch: --samples = 64 in the parts, 128 in this command" -- \
  "$bin" "${job[@]/64/128}" --out part.h5 --resume
rm -rf part.h5.parts

# ---- the default hold-out follows the samples: K/4 within [64, 4096], at most K
"$bin" batch --system compass-touchdown --vary angle=2.3:2.9:2 --samples 512 --threads 1 \
  --out holdout.h5 >/dev/null 2>err.txt || bad "hold-out batch: $(cat err.txt)"
"$py" - holdout.h5 <<'PY' || bad "default hold-out of 512 samples per state"
import sys, h5py
with h5py.File(sys.argv[1]) as f:
    stored = int(f["options"].attrs["holdout"])
    used = f["sets/post_impact/contact/holdout"][()] + f["sets/post_impact/contact/holdout_not_terminated"][()]
    assert stored == 128, stored
    assert (used == 128).all(), used
PY
"$bin" batch --help >help.txt
grep -q "(default: K/4 of a state's K samples, within \[64, 4096\], at most K)" help.txt ||
  bad "batch --help does not state the hold-out rule: $(grep -- --holdout help.txt)"

# ---- output paths: one policy in run and batch
small_run=(run --system rocking-block --samples 64 --holdout 0 --threads 1)
expect "run creates a missing directory" 0 "wrote new/run/out.h5" -- \
  "$bin" "${small_run[@]}" --out new/run/out.h5
[[ -f new/run/out.h5 ]] || bad "run: no file in the created directory"
expect "batch creates a missing directory" 0 "wrote new/batch/out.h5" -- \
  "$bin" "${job[@]}" --out new/batch/out.h5
touch plain
for cmd in run batch; do
  args=("${small_run[@]}")
  [[ $cmd == batch ]] && args=("${job[@]}")
  expect "$cmd under a file" 2 \
    "^impactset: plain/sub/out.h5: cannot write the file there: plain is a file, not a directory$" -- \
    "$bin" "${args[@]}" --out plain/sub/out.h5
  expect "$cmd under /dev/null" 2 \
    "/dev/null/x/out.h5: cannot write the file there: /dev/null is a file, not a directory" -- \
    "$bin" "${args[@]}" --out /dev/null/x/out.h5
  grep -q "filesystem error" err.txt && bad "$cmd: raw filesystem error: $(cat err.txt)"
done
if [[ $(id -u) -ne 0 ]]; then  # root writes anywhere: only a regular user sees the refusal
  mkdir locked && chmod 555 locked
  expect "run into a read-only directory" 2 "locked/out.h5: cannot write the file there: the directory locked is not writable" -- \
    "$bin" "${small_run[@]}" --out locked/out.h5
  chmod 755 locked
fi

# ---- a state table's non-finite value: the file, the row and the column
"$py" - table.h5 <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "w") as f:
    f["states/parameters"] = np.array([[2.5, 0.3], [2.6, np.inf], [2.7, 0.4]])
    f["design/parameters"] = np.array([b"angle", b"rate"])
PY
expect "table with inf" 2 "table.h5:/states/parameters: table row 1 \(state 1\), column rate = inf: every value must be finite" -- \
  "$bin" batch --system compass-touchdown --state-table table.h5 --samples 64 --out t.h5
printf 'angle,rate\n2.5,0.3\n2.6,nan\n' >table.csv
expect "CSV table with nan" 2 "table.csv:3: rate = 'nan': not a finite number" -- \
  "$bin" batch --system compass-touchdown --state-table table.csv --samples 64 --out t.h5
printf 'angle,rate\n2.5,0.3\n2.6,1e400\n' >table.csv
expect "1e400 out of range" 2 "table.csv:3: rate = '1e400': out of the range of a double" -- \
  "$bin" batch --system compass-touchdown --state-table table.csv --samples 64 --out t.h5

finish "batch paths and resume"
