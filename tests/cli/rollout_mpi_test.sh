#!/usr/bin/env bash
# Open MPI: `mpirun -n R impactset rollout` for R = 1..3 gives the single process's rollouts (the
# JSON's rollouts and baseline equal, the HDF5 files' datasets equal) and prints once; a batch of
# rollouts over start states (`impactset batch --rollouts`) writes the single process's file at
# 1-3 ranks; a MuJoCo model's warnings are printed once under `rollout` and `run`.
# Usage: rollout_mpi_test.sh path/to/impactset path/to/compare_h5.py
set -u
bin="$(realpath "$1")"
compare="$(realpath "$2")"
py=/usr/bin/python3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
data="$(cd "$(dirname "${BASH_SOURCE[0]}")/../data/rollouts" && pwd)"
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cp "$data/box-drop.xml" box.xml
job=(rollout --mujoco box.xml --horizon 0.2 --rollouts 10 --seed 4 --threads 1 --record-every 20
     --metric "tipped=max(abs(root:qx)) > 0.01")
"$bin" "${job[@]}" --json --out single.h5 >single.json 2>err.txt || {
  echo "FAIL single process: $(cat err.txt)"; exit 1; }
for r in 1 2 3; do
  if mpirun --oversubscribe -n "$r" "$bin" "${job[@]}" --json --out "r$r.h5" >"r$r.json" 2>err.txt; then
    if "$py" - "$r" <<'PY'
import json, sys
r = sys.argv[1]
a, b = json.load(open("single.json")), json.load(open(f"r{r}.json"))  # one object: printed once
assert a["rollouts"] == b["rollouts"], "rollouts differ"
assert a["baseline"] == b["baseline"] and a["metrics"] == b["metrics"], "summaries differ"
PY
    then pass=$((pass + 1)); else echo "FAIL $r ranks: JSON differs"; fail=$((fail + 1)); fi
    if "$py" "$compare" single.h5 "r$r.h5"; then pass=$((pass + 1));
    else echo "FAIL $r ranks: file differs"; fail=$((fail + 1)); fi
  else
    echo "FAIL $r ranks: exit $?: $(head -3 err.txt)"
    fail=$((fail + 1))
  fi
done
batch=(batch --mujoco box.xml --keyframe drop --vary qvel:2=-2:-0.5:4 --rollouts 6 --horizon 0.2
       --threads 1 --part-states 1 --metric "tipped=max(abs(root:qx)) > 0.01")
"$bin" "${batch[@]}" --out batch-single.h5 >/dev/null 2>err.txt || {
  echo "FAIL batch of rollouts, single process: $(cat err.txt)"; exit 1; }
for r in 1 2 3; do
  if mpirun --oversubscribe -n "$r" "$bin" "${batch[@]}" --out "batch-r$r.h5" >/dev/null 2>err.txt &&
     "$py" "$compare" batch-single.h5 "batch-r$r.h5"; then pass=$((pass + 1)); else
    echo "FAIL batch of rollouts on $r ranks: $(head -3 err.txt)"; fail=$((fail + 1)); fi
done
# A MuJoCo source's warning (here a quaternion normalised) is printed once, not once per rank.
warned="$(mpirun --oversubscribe -n 2 "$bin" rollout --mujoco box.xml --qpos 0,0,0.3,2,0,0,0 \
          --qvel 0,0,-1,0,0,0 --horizon 0.05 --rollouts 2 --threads 1 2>&1 >/dev/null |
          grep -c "warning: .*normalised")"
if [[ $warned == 1 ]]; then pass=$((pass + 1)); else
  echo "FAIL the warning printed $warned times under 2 ranks"; fail=$((fail + 1)); fi
warned="$(mpirun --oversubscribe -n 2 "$bin" run --mujoco box.xml --qpos 0,0,0.05,2,0,0,0 \
          --qvel 0,0,-1,0,0,0 --samples 8 --no-sets --out run.h5 2>&1 >/dev/null |
          grep -c "warning: .*normalised")"
if [[ $warned == 1 ]]; then pass=$((pass + 1)); else
  echo "FAIL run: the warning printed $warned times under 2 ranks"; fail=$((fail + 1)); fi

finish "rollout MPI"
