#!/usr/bin/env bash
# `impactset rollout` as a user meets it: the summary, bounds on an event metric next to MuJoCo's
# own outcome, the same rollouts at 1 and 2 threads, a rollout replayed by its key bit for bit,
# and each refusal (metric syntax with its position, T <= 0, --ctrl of the wrong length, controls
# for a model without actuators) with exit 2; `impactset batch --rollouts` over start states (the
# file's layout, the same file at 1 and 2 threads) and its refusals.
# Usage: rollout_test.sh path/to/impactset
set -u
bin="$(realpath "$1")"
data="$(cd "$(dirname "${BASH_SOURCE[0]}")/../data/rollouts" && pwd)"
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cp "$data/box-drop.xml" box.xml
cp "$data/arm.xml" arm.xml
box=(--mujoco box.xml --horizon 0.2 --rollouts 16 --seed 3)
tipped='tipped=max(abs(root:qx)) > 0.01'

expect "summary and bounds" 0 "true in [0-9]+ of 16 rollouts; P\(tipped\) <= [0-9.e-]+ and >= [0-9.e-]+, each at 95 %" -- \
  "$bin" rollout "${box[@]}" --metric "$tipped"
expect "events counted" 0 "ok 16, diverged 0, impact failed 0; [1-9][0-9]* impact events" -- \
  "$bin" rollout "${box[@]}"
expect "MuJoCo's own outcome beside" 0 "MuJoCo's own impacts: [01]" -- \
  "$bin" rollout "${box[@]}" --metric "$tipped"

# The same rollouts at 1 and 2 threads; a key replays its rollout bit for bit.
"$bin" rollout "${box[@]}" --metric "$tipped" --threads 1 --json >one.json 2>/dev/null
"$bin" rollout "${box[@]}" --metric "$tipped" --threads 2 --json >two.json 2>/dev/null
key="$(/usr/bin/python3 -c 'import json; print(json.load(open("one.json"))["rollouts"][9]["key"])')"
"$bin" rollout "${box[@]}" --metric "$tipped" --replay "$key" --json >replay.json 2>/dev/null
if /usr/bin/python3 - <<'EOF'
import json, sys
one, two, rep = (json.load(open(f)) for f in ("one.json", "two.json", "replay.json"))
assert one["rollouts"] == two["rollouts"], "1 and 2 threads differ"
assert rep == one["rollouts"][9], "the replay differs from the run's rollout"
assert len({tuple(r["qvel"]) for r in one["rollouts"]}) > 8, "too few distinct outcomes"
EOF
then pass=$((pass + 1)); else echo "FAIL determinism and replay"; fail=$((fail + 1)); fi

# Refusals: exit 2 naming the option.
expect "metric syntax with position" 2 "at position 16: unknown name 'rot:qx'" -- \
  "$bin" rollout "${box[@]}" --metric "tipped=max(abs(rot:qx)) > 0.01"
expect "horizon <= 0" 2 "horizon = 0: must be > 0" -- "$bin" rollout --mujoco box.xml --horizon 0
expect "ctrl of the wrong length" 2 "ctrl = 2 values: must be nu = 1" -- \
  "$bin" rollout --mujoco arm.xml --ctrl 1,2
expect "controls without actuators" 2 "controls = constant: the model has no actuators" -- \
  "$bin" rollout "${box[@]}" --ctrl 1
expect "pd posture needs two gains" 2 "pd_posture = 100: must be two numbers KP,KD" -- \
  "$bin" rollout --mujoco arm.xml --pd-posture 100
expect "a bad key" 2 "replay = 3-1: must be SEED/INDEX" -- "$bin" rollout "${box[@]}" --replay 3-1
expect "no model" 2 "rollout needs a MuJoCo model" -- "$bin" rollout --horizon 1
expect "PD posture runs" 0 "PD posture \(kp 100, kd 10\)" -- \
  "$bin" rollout --mujoco arm.xml --pd-posture 100,10 --rollouts 2 --horizon 0.1

fbox=(--mujoco box.xml --horizon 0.2 --seed 3 --metric "spin=max(abs(qvel:root:wx))")
expect "falsification beside iid" 0 "directed search of the first 4 impacts: [0-9.]+" -- \
  "$bin" rollout "${fbox[@]}" --rollouts 40 --falsify spin
expect "falsify needs a round" 2 "--rollouts = 16: with --falsify must be >= 20" -- \
  "$bin" rollout "${fbox[@]}" --rollouts 16 --falsify spin
expect "falsify names an unknown metric" 2 "falsify = spun: names no metric of the rollouts \(metrics: spin\)" -- \
  "$bin" rollout "${fbox[@]}" --rollouts 40 --falsify spun:max

warned="$("$bin" rollout --mujoco box.xml --qpos 0,0,0.3,2,0,0,0 --qvel 0,0,-1,0,0,0 --horizon 0.05 \
          --rollouts 2 2>&1 >/dev/null | grep -c "warning: .*normalised")"
if [[ $warned == 1 ]]; then pass=$((pass + 1)); else
  echo "FAIL a model warning printed $warned times"; fail=$((fail + 1)); fi

# A batch of rollouts: three fall speeds, 8 rollouts each.
rbatch=(batch --mujoco box.xml --keyframe drop --vary qvel:2=-2:-0.5:3 --rollouts 8 --horizon 0.2
        --metric "$tipped" --metric "spin=max(abs(qvel:root:wx))")
expect "batch of rollouts" 0 "3 states \(0 resumed, 0 not ok\).*" -- \
  "$bin" "${rbatch[@]}" --threads 1 --out rb1.h5
expect "batch of rollouts, 2 threads" 0 "[0-9]+ rollouts/s" -- \
  "$bin" "${rbatch[@]}" --threads 2 --out rb2.h5
if /usr/bin/python3 - <<'PY'
import h5py, numpy as np
with h5py.File("rb1.h5") as a, h5py.File("rb2.h5") as b:
    assert a.attrs["per_state"] == "rollouts" and a.attrs["states"] == 3
    assert a["rollouts/metrics/tipped"].shape == (3, 8) and a["rollouts/status"].shape == (3, 8)
    assert list(a["states/qvel"][:, 2]) == [-2.0, -1.25, -0.5]
    assert (a["states/summary/ok"][()] == 8).all()
    assert a["metrics/tipped"].attrs["is_event"] == 1
    assert a["metrics/tipped/upper"][()].max() <= 1 and np.isnan(a["metrics/spin/upper"][()]).all()
    for name in ("rollouts/metrics/spin", "rollouts/events", "metrics/tipped/upper", "states/seed"):
        assert np.array_equal(a[name][()], b[name][()]), name  # threads change nothing
PY
then pass=$((pass + 1)); else echo "FAIL the batch of rollouts' file"; fail=$((fail + 1)); fi
expect "batch: rollout options need --rollouts" 2 "--horizon is an option of a batch of rollouts: give --rollouts N" -- \
  "$bin" batch --mujoco box.xml --keyframe drop --vary qvel:2=-2:-1:2 --horizon 1 --out x.h5
expect "batch of rollouts: no sampling options" 2 "--samples belongs to Algorithm 2 .* takes --seed, --threads, --delta and --part-states" -- \
  "$bin" batch --mujoco box.xml --keyframe drop --vary qvel:2=-2:-1:2 --rollouts 4 --samples 9 --out x.h5
expect "batch of rollouts: a MuJoCo model" 2 "source = system: a batch of rollouts needs a MuJoCo model" -- \
  "$bin" batch --system rocking-block --vary mu=0.1:1:2 --rollouts 4 --out x.h5
expect "batch of rollouts: a bad metric at entry" 2 "at position 7: unknown name 'root:q'" -- \
  "$bin" batch --mujoco box.xml --keyframe drop --vary qvel:2=-2:-1:2 --rollouts 4 --metric "a=min(root:q)" --out x.h5

finish "rollout CLI"
