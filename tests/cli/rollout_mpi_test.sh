#!/usr/bin/env bash
# Open MPI: `mpirun -n R impactset rollout` for R = 1..3 gives the single process's rollouts (the
# JSON's rollouts and baseline equal, the HDF5 files' datasets equal) and prints once.
# Usage: rollout_mpi_test.sh path/to/impactset path/to/compare_h5.py
set -u
bin="$(realpath "$1")"
compare="$(realpath "$2")"
py=/usr/bin/python3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
pass=0
fail=0
cat >box.xml <<'XML'
<mujoco model="box-drop">
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" friction="0.5"/>
    <body name="box" pos="0 0 0.3">
      <freejoint name="root"/>
      <geom name="box" type="box" size="0.1 0.05 0.05" mass="1" friction="0.5"/>
    </body>
  </worldbody>
  <keyframe>
    <key name="drop" qpos="0 0 0.06 0.99904822 0 0.04361939 0" qvel="0 0 -1 0 0 0"/>
  </keyframe>
</mujoco>
XML
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
echo "rollout MPI: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
