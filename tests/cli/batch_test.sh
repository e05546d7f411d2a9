#!/usr/bin/env bash
# `impactset batch` end to end: kill -9 at three moments then --resume gives a file equal in
# every dataset to the uninterrupted one; bad input fails with a clear message and no file;
# an invalid state is recorded, not fatal.
# Usage: batch_test.sh path/to/impactset path/to/compare_h5.py
set -u
bin="$(realpath "$1")"
compare="$(realpath "$2")"
py=/usr/bin/python3  # Debian's, with h5py
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
check() {  # expect, and a refused command leaves no file behind
  local name="$1" want="$2"
  expect "$@"
  if [[ $want -ne 0 ]] && ls ./*.h5 ./*.parts >/dev/null 2>&1; then
    bad "$name: left a file behind: $(ls -d ./*.h5 ./*.parts 2>/dev/null)"
  fi
}

# IMPACTSET_TEST_SAMPLE_DIVISOR (CTest sets 8 in the sanitized build, where a process runs
# several times slower) divides the long jobs' sample counts: the same code paths, shorter.
div=${IMPACTSET_TEST_SAMPLE_DIVISOR:-1}
# 120 states x 2048 samples on one thread: several seconds, 30 part files of 4 states.
job=(batch --system compass-touchdown --vary angle=2.3:2.9:12 --vary rate=0.1:0.6:10
     --samples $((2048 / div)) --threads 1 --holdout $((128 / div)) --keep 8 --part-states 4
     --seed 3)
"$bin" "${job[@]}" --out whole.h5 >/dev/null 2>err.txt || bad "uninterrupted batch: $(cat err.txt)"
# Two threads run two states at a time, finished in any order: the same file.
job2=("${job[@]}")
for k in "${!job2[@]}"; do [[ ${job2[k]} == --threads ]] && job2[k + 1]=2; done
"$bin" "${job2[@]}" --out threads2.h5 >/dev/null 2>err.txt \
  || bad "two-thread batch: $(cat err.txt)"
if "$py" "$compare" whole.h5 threads2.h5; then ok; else bad "the two-thread batch's file differs"; fi
rm -f threads2.h5

parts() { ls resumed.h5.parts/part-*.h5 2>/dev/null | wc -l; }
for moment in 1 5 15; do  # kill -9 once this many part files exist, plus a random delay
  rm -rf resumed.h5 resumed.h5.parts
  "$bin" "${job[@]}" --out resumed.h5 >/dev/null 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null && (($(parts) < moment)); do sleep 0.02; done
  sleep "0.0$((RANDOM % 10))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  if [[ -e resumed.h5 ]]; then bad "kill at $moment parts: the batch had already finished"; fi
  if "$bin" "${job[@]}" --out resumed.h5 >/dev/null 2>err.txt; then
    bad "an interrupted batch restarted without --resume"
  fi
  "$bin" "${job[@]}" --out resumed.h5 --resume >/dev/null 2>err.txt \
    || bad "resume after kill at $moment parts: $(head -3 err.txt)"
  if "$py" "$compare" whole.h5 resumed.h5; then ok; else bad "resumed file differs (kill at $moment)"; fi
  [[ -e resumed.h5.parts ]] && bad "parts left after the resumed batch"
done
rm -rf ./*.h5 ./*.parts

base=(batch --system compass-touchdown --samples 64 --holdout 0 --out b.h5)
check "unknown parameter" 2 "unknown parameter 'angel' \(known: angle, rate" -- \
  "$bin" "${base[@]}" --vary angel=1:2:3
check "unknown fixed parameter" 2 "--param bogus=1: unknown parameter 'bogus' \(known: angle" -- \
  "$bin" "${base[@]}" --vary angle=2.4:2.8:2 --param bogus=1
check "no state ran: said, with the first reason" 0 "warning: no state ran \(2 of 2 not ok\); state 0: invalid_problem: .*angle = 'abc': not a number" -- \
  "$bin" "${base[@]}" --vary rate=0.1:0.2:2 --param angle=abc
check "empty range" 2 "angle range = .*empty range" -- "$bin" "${base[@]}" --vary angle=2.8:2.4:3
check "one value, many points" 2 "empty range" -- "$bin" "${base[@]}" --vary angle=2.5:2.5:3
check "iid without states" 2 "states = 0" -- \
  "$bin" "${base[@]}" --state-design iid --vary angle=2.4:2.8
check "not parametrised" 2 "parametrised system" -- \
  "$bin" batch --system rocking-block --vary x=0:1:2 --out b.h5
printf 'angle,rate\n2.5,0.3\n2.6\n' >t.csv
check "malformed table" 2 "t.csv:3: 1 values for 2 parameters" -- \
  "$bin" "${base[@]}" --state-table t.csv
printf 'angle,rate\n2.5,x\n' >t.csv
check "table with a word" 2 "t.csv:2: rate = 'x': not a number" -- \
  "$bin" "${base[@]}" --state-table t.csv
check "missing table" 2 "nope.csv: cannot open" -- "$bin" "${base[@]}" --state-table nope.csv
printf '{"q": [0, 1], "v_minus": [0, 1]}' >s.json
check "scene pointer to nothing" 2 "scene parameter '/q/7': no such value" -- \
  "$bin" batch --scene s.json --vary /q/7=0:1:2 --samples 8 --out b.h5
# The rules shared with Python (batch::ResolveBatchStates), named as the command line spells them.
check "param with a scene" 2 "--param = angle=2: only with --system, not with --scene" -- \
  "$bin" batch --scene s.json --param angle=2 --vary /q/1=0:1:2 --samples 8 --out b.h5
check "vary with a table" 2 "--vary = angle=2.4:2.8:2: not with --state-table" -- \
  "$bin" "${base[@]}" --vary angle=2.4:2.8:2 --state-table t.csv
check "states of a grid" 2 "--states = 4: only for the iid and sobol designs" -- \
  "$bin" "${base[@]}" --vary angle=2.4:2.8:2 --states 4
check "no states" 2 "--vary: give the varied parameters" -- "$bin" "${base[@]}"
check "MuJoCo option of a system" 2 "--qvel: given, but the source is not a MuJoCo model" -- \
  "$bin" "${base[@]}" --vary angle=2.4:2.8:2 --qvel 0,1

# A state whose problem is invalid (rate < 0: the leading foot leaves the floor) is recorded.
printf 'angle,rate\n2.5,0.3\n2.5,-0.3\n2.7,0.2\n' >t.csv
check "invalid state recorded" 0 "3 states \(0 resumed, 1 not ok\)" -- \
  "$bin" "${base[@]}" --state-table t.csv
"$py" - <<'PY' || bad "invalid state not recorded as such"
import h5py
f = h5py.File("b.h5", "r")
names = [s.decode() for s in f["states/status_names"][()]]
status = [names[s] for s in f["states/status"][()]]
assert status == ["ok", "invalid_problem", "ok"], status
assert "/v_minus" in f["states/message"][1].decode()
import numpy as np
assert np.isnan(f["features/contact/mean"][1]).all() and not np.isnan(f["features/contact/mean"][0]).any()
off = f["sets/post_impact/contact/net_points_offsets"][()]
assert off[2] == off[1] and off[1] > 0  # no net for the invalid state
PY
rm -f b.h5
mkdir b.h5.parts
check "parts without --resume" 2 "add --resume" -- "$bin" "${base[@]}" --vary angle=2.4:2.8:2
rmdir b.h5.parts

# A stack of matrix problems (docs/problem-format.md): every problem a state; a bad M recorded;
# wrong shapes refused before any work; the batch file itself is an HDF5 state table.
mkdir -p in
"$bin" run --system rocking-block --samples 8 --out in/rb.h5 >/dev/null 2>&1 || bad "run for the stack"
"$py" - <<'PY' || bad "writing the stack"
import h5py, numpy as np
p = h5py.File("in/rb.h5", "r")["problem"]
M, Jn, D, mu, v = (p[k][()] for k in ("M", "Jn", "D", "mu", "v_minus"))
for name, bad_jn in (("in/stack.h5", False), ("in/wrong.h5", True)):
    with h5py.File(name, "w") as f:
        g = f.create_group("problems")
        g["M"] = np.stack([M, M, -M])
        g["Jn"] = np.stack([Jn] * 3)[:, :, :2] if bad_jn else np.stack([Jn] * 3)
        g["D"], g["mu"] = np.stack([D] * 3), np.stack([mu] * 3)
        g["v_minus"] = np.stack([v, 2 * v, v])
PY
check "stack of problems" 0 "3 states \(0 resumed, 1 not ok\)" -- \
  "$bin" batch --problems in/stack.h5 --samples 64 --holdout 0 --out b.h5
"$py" - <<'PY' || bad "stack states not as stored"
import h5py, numpy as np
f, s = h5py.File("b.h5", "r"), h5py.File("in/stack.h5", "r")
assert f["states/status"][()].tolist() == [0, 0, 2], f["states/status"][()]
assert (f["states/v_minus"][:2] == s["problems/v_minus"][:2]).all()
assert f["states/parameters"][()].ravel().tolist() == [0, 1, 2]
assert "problem 2" in f["states/message"][2].decode()
PY
mv b.h5 in/table.h5
check "an HDF5 state table" 0 "3 states \(0 resumed, 1 not ok\)" -- \
  "$bin" batch --problems in/stack.h5 --state-table in/table.h5 --samples 64 --holdout 0 --out b.h5
rm -f b.h5
"$py" -c "import h5py; f = h5py.File('in/table.h5', 'r+'); del f['design/parameters']"
check "state table without names" 2 "in/table.h5:/design/parameters: missing names" -- \
  "$bin" batch --problems in/stack.h5 --state-table in/table.h5 --out b.h5
check "stack with wrong shapes" 2 "in/wrong.h5:/problems/Jn: shape \(3, 2, 2\), expected \(3, \*, 3\)" -- \
  "$bin" batch --problems in/wrong.h5 --out b.h5
check "stack parameter" 2 "unknown parameter 'angle'" -- \
  "$bin" batch --problems in/stack.h5 --vary angle=0:1:2 --out b.h5
rm -rf in

# MuJoCo models: entries of the keyframe's state varied; the shipped scene by name and its file
# give the same file; a lifted cube (no contact) is recorded; unknown entries fail early.
scenes="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../src/impactset/robots/scenes" && pwd)"
mj=(--vary qvel:2=-1.5:-0.5:3 --vary qpos:2=0.5:0.7:2 --samples 256 --holdout 0 --threads 2)
check "MuJoCo scene batch" 0 "6 states \(0 resumed, 3 not ok\)" -- \
  "$bin" batch --system cube-flat "${mj[@]}" --out mj1.h5
check "MuJoCo file batch" 0 "6 states \(0 resumed, 3 not ok\)" -- \
  "$bin" batch --mujoco "$scenes/cube-flat.xml" "${mj[@]}" --out mj2.h5
# (the invalid states' messages name the source: the scene's name or the file's path)
if "$py" "$compare" mj1.h5 mj2.h5 --ignore states/message; then ok; else bad "scene by name and by file differ"; fi
rm -f mj1.h5 mj2.h5
check "MuJoCo entry out of range" 2 "unknown parameter 'qpos:7' \(known: qpos:0 ... qpos:6" -- \
  "$bin" batch --system cube-flat --vary qpos:7=0:1:2 --out b.h5
check "MuJoCo batch with outputs" 0 "2 states \(0 resumed, 0 not ok\)" -- bash -c "'$bin' batch \
  --system cube-flat --vary qvel:0=-0.3:0.3:2 --output com --output base --samples 128 --holdout 0 \
  --out o.h5 && /usr/bin/python3 -c 'import h5py; f = h5py.File(\"o.h5\")
assert f[\"features/com/box_min\"].shape == (2, 3) and f[\"features/base/support\"].shape[0] == 2'"
rm -f o.h5
check "MuJoCo output of a planar system" 2 "output = com" -- \
  "$bin" batch --system compass-touchdown --vary angle=2.4:2.6:2 --output com --out b.h5
check "MuJoCo options without a model" 2 "apply only to --mujoco" -- \
  "$bin" batch --system compass-touchdown --vary angle=2.4:2.6:2 --keyframe k --out b.h5

finish "batch CLI"
