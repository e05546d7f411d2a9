#!/usr/bin/env bash
# MuJoCo sources from the command line as a new user meets them: lists never taken for files,
# the silent cases remarked or refused with the entry's index and name, the touchdown helpers
# (gaps, the nearest pair, --touchdown, --add-floor, --floating-base, includes), labelled
# contacts, a fixed tangent frame, info's summary first, and each output's own net radius.
# Usage: mujoco_test.sh path/to/impactset [humanoid_body.xml]
set -u
bin="$(realpath "$1")"
humanoid="${2:-/usr/share/mujoco/model/humanoid100/humanoid_body.xml}"
scenes="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../src/impactset/robots/scenes" && pwd)"
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
check() {  # expect (lib.sh), then the files are removed
  expect "$@"
  rm -f ./*.h5
}
cube="$scenes/cube-flat.xml"
down="0,0,-0.5,0,0,0"

# --- lists by content: a long list is a list, a missing file is said in words
long="$(printf '0.%040d,' 0 0)0.5$(printf '%040d' 0),1.$(printf '%040d' 0),$(printf '0.%040d,' 0 0)0.$(printf '%040d' 0)"
[[ ${#long} -gt 255 ]] || { echo "FAIL: the long list is only ${#long} characters"; fail=$((fail + 1)); }
check "a 255+ character list is a list" 0 "approaching" -- "$bin" info --mujoco "$cube" --qpos "$long" --qvel "$down"
check "no filesystem words for a long list" 0 "!filesystem|File name too long" -- "$bin" info --mujoco "$cube" --qpos "$long" --qvel "$down"
check "a missing file is said so" 2 "qpos = no/such.json: no such file" -- "$bin" info --mujoco "$cube" --qpos no/such.json --qvel "$down"
check "a bad entry is named by its index" 2 "qpos\[2\] = 'x'" -- "$bin" info --mujoco "$cube" --qpos 0,0,x,1,0,0,0 --qvel "$down"

# --- the silent cases
check "qpos without qvel is remarked" 0 "warning: .*qvel not given.*v- = 0" -- "$bin" info --mujoco "$cube" --qpos 0,0,0.5,1,0,0,0
check "no approaching contact is remarked" 0 "warning: .*no contact is approaching \(4 resting, 0 separating\)" -- "$bin" info --mujoco "$cube" --qpos 0,0,0.5,1,0,0,0
check "a zero quaternion is refused" 2 "qpos\[3\.\.6\] \(joint cube: qw, qx, qy, qz\) = \(0, 0, 0, 0\): a zero quaternion" -- "$bin" info --mujoco "$cube" --qpos 0,0,0.5,0,0,0,0 --qvel "$down"
check "a non-unit quaternion is normalised with a warning" 0 "warning: .*qpos\[3\.\.6\] \(joint cube.*has norm 2, not 1: normalised to \(1, 0, 0, 0\)" -- "$bin" info --mujoco "$cube" --qpos 0,0,0.5,2,0,0,0 --qvel "$down"
/usr/bin/python3 -c 'import h5py, math; f = h5py.File("nan.hdf5", "w"); f["qvel"] = [0, 0, math.nan, 0, 0, 0]'
check "a non-finite entry is named" 2 "qvel\[2\] \(cube:vz\) = nan: must be finite" -- "$bin" info --mujoco "$cube" --qpos 0,0,0.5,1,0,0,0 --qvel nan.hdf5
check "no terminated sample: no KE ratio" 0 "max KE\+/KE-: none \(no sample terminated\)" -- "$bin" run --system cube-flat --samples 50 --step 1e-6 --max-steps 1 --no-sets --out capped.h5

# --- getting to a touchdown state
check "info shows each contact's gap" 0 "c0:floor/cube +bodies world/cube +gap [+-][0-9.]+e[+-][0-9]+ m" -- "$bin" info --system cube-flat
check "info: summary first, matrices on request" 0 "!^M =" -- "$bin" info --system cube-flat
check "info --matrices prints them after the summary" 0 "^M =" -- "$bin" info --system cube-flat --matrices
check "no contact: the nearest pair and its gap" 2 "nearest pair, floor/cube, is 1\.5 m apart" -- "$bin" info --mujoco "$cube" --qpos 0,0,2,1,0,0,0 --qvel "$down"
check "--touchdown lands the cube flat" 0 "m = 4 contacts" -- "$bin" info --mujoco "$cube" --qpos 0,0,2,1,0,0,0 --qvel "$down" --touchdown 1
check "--touchdown says how far it moved" 0 "touchdown: the floating base moved 1\.5 m along gravity; qpos = 0,0,0\.5,1,0,0,0" -- "$bin" info --mujoco "$cube" --qpos 0,0,2,1,0,0,0 --qvel "$down" --touchdown 1
cat >floorless.xml <<'XML'
<mujoco><worldbody><body name="box" pos="0 0 1"><freejoint name="box"/>
<geom name="box" type="box" size="0.1 0.2 0.3" mass="1"/></body></worldbody></mujoco>
XML
check "floorless: no pair at all" 2 "no geom pair within .* m \(a floorless model: add_floor\)" -- "$bin" info --mujoco floorless.xml --qpos 0,0,1,1,0,0,0 --qvel "$down"
check "--add-floor with --touchdown" 0 "c0:floor/box" -- "$bin" info --mujoco floorless.xml --qpos 0,0,1,1,0,0,0 --qvel "$down" --add-floor --touchdown 1
cat >leg.urdf <<'XML'
<robot name="leg"><link name="base"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link></robot>
XML
check "a URDF is fixed to the world" 2 "touchdown = 1: needs a floating base" -- "$bin" info --mujoco leg.urdf --add-floor --touchdown 1
check "--floating-base gives a URDF a free joint" 0 "n = 6 generalized velocities, m = 4 contacts" -- "$bin" info --mujoco leg.urdf --floating-base --add-floor --touchdown 1 --qpos 0,0,1,1,0,0,0 --qvel "$down"
check "--floating-base refuses MJCF" 2 "floating_base = true: applies to URDF files" -- "$bin" info --mujoco floorless.xml --floating-base --qpos 0,0,1,1,0,0,0 --qvel "$down"
mkdir -p models/parts elsewhere
cat >models/parts/box.xml <<'XML'
<mujoco><body name="box" pos="0 0 1"><freejoint name="box"/><geom name="box" type="box" size="0.1 0.2 0.3" mass="1"/></body></mujoco>
XML
cat >models/robot.xml <<XML
<mujoco><worldbody><geom name="ground" type="plane" size="0 0 1"/>
<include file="$work/models/parts/box.xml"/></worldbody></mujoco>
XML
cat >models/relative.xml <<'XML'
<mujoco><worldbody><geom name="ground" type="plane" size="0 0 1"/>
<!-- <include file="nowhere.xml"/> -->
<include file="parts/box.xml"/></worldbody></mujoco>
XML
check "an absolute include from another folder" 0 "c0:ground/box" -- bash -c "cd elsewhere && '$bin' info --mujoco ../models/robot.xml --qpos 0,0,0.3,1,0,0,0 --qvel $down"
check "a relative include against the model's folder" 0 "c0:ground/box" -- bash -c "cd elsewhere && '$bin' info --mujoco ../models/relative.xml --qpos 0,0,0.3,1,0,0,0 --qvel $down"
check "a missing include is named" 2 "<include file=\"parts/none.xml\">: cannot read" -- bash -c "sed 's/box.xml/none.xml/' models/relative.xml >models/broken.xml && '$bin' info --mujoco models/broken.xml"

# --- labels and frames
check "run names the contacts as info does" 0 "normal +c0:floor/cube:n: \[" -- "$bin" run --system cube-flat --samples 100 --no-sets --out labels.h5
check "run: tangents named too" 0 "tangent t1 +c0:floor/cube:t1: \[" -- "$bin" run --system cube-flat --samples 100 --no-sets --out labels.h5
check "tangent t1 is world x on a flat floor" 0 '"tangents": \[\s*\[\s*1\.0,\s*0\.0,\s*0\.0\s*\]' -- bash -c "'$bin' info --system cube-flat --json | tr -d '\n'"

# --- each output's own net radius; a radius beyond a set's extent is said
check "eps beyond a set's extent is a warning" 0 "warning: post_impact contact: net radius eps 100 exceeds the set's extent" -- "$bin" run --system cube-flat --samples 200 --epsilon 100 --holdout 0 --no-reachable --out big.h5
if [[ -f "$humanoid" ]]; then
  # The right heel: rolled 0.05 rad about x onto the right foot, pitched 0.2 rad about y (heels
  # down): q = q_y(0.2) q_x(0.05); --touchdown 2 lands both of the right foot's heel ends.
  q="0,0,1.5,0.9946932426707683,0.024872513056242676,0.09980222032898502,-0.0024955754414391963$(printf ',0%.0s' $(seq 21))"
  v="0.3,0,-0.5$(printf ',0%.0s' $(seq 24))"
  "$bin" run --mujoco "$humanoid" --add-floor --touchdown 2 --qpos "$q" --qvel "$v" --samples 2048 \
    --threads 1 --output com --output base --no-reachable --holdout 0 --out heel.h5 >out.txt 2>err.txt
  for set in com base; do
    points=$(grep -E "^post_impact +$set +net" out.txt | sed -E 's/.*net +([0-9]+) points.*/\1/')
    if [[ -z "$points" || "$points" -le 1 ]]; then
      echo "FAIL heel strike: the $set net has '${points}' points"; sed 's/^/  | /' out.txt err.txt | head -30
      fail=$((fail + 1))
    else
      pass=$((pass + 1))
    fi
  done
  check "a one-point set is no warning" 0 "!exceeds the set's extent" -- "$bin" run --mujoco "$humanoid" \
    --add-floor --touchdown 1 --qpos "$q" --qvel "$v" --samples 256 --output com --no-reachable --holdout 0 --out one.h5
fi

# --- compare's Routh set is run's: the same step rule (h and N scaled by the pilot), seed and
# design give the same terminated count and contact-velocity ranges on every shipped scene.
# Under sanitizers (IMPACTSET_TEST_SAMPLE_DIVISOR > 1) these loops and compare's checks are left
# out: compare runs every law (CVODE, Jia-Mason-Erdmann, Seghete-Murphey enumerations), minutes
# per scene there; the sanitized build runs the same states in fuzz_replay_impact_state and
# StateFuzz.
divisor="${IMPACTSET_TEST_SAMPLE_DIVISOR:-1}"
every=1
((divisor > 1)) && every=1000
index=0
for xml in "$scenes"/*.xml; do
  index=$((index + 1))
  ((index % every == 0)) || continue
  scene="$(basename "$xml" .xml)"
  "$bin" compare --system "$scene" --samples 256 --threads 2 --json >c.json 2>/dev/null
  rc_c=$?
  "$bin" run --system "$scene" --samples 256 --threads 2 --no-sets --json --out r.h5 >r.json 2>/dev/null
  rc_r=$?
  if [[ $rc_c -ne 0 || $rc_r -ne 0 ]]; then
    bad "$scene: compare exit $rc_c, run exit $rc_r"
  elif /usr/bin/python3 - <<'PY'
import json, math, sys
c = json.load(open("c.json"))["routh"]; r = json.load(open("r.json"))
same = (c["terminated"] == r["terminated"] > 0 and c["h"] == r["h"] and
        c["max_steps"] == r["max_steps"] and
        c["contact_velocity_min"] == r["contact_velocity_min"] and
        c["contact_velocity_max"] == r["contact_velocity_max"] and
        all(math.isfinite(x) for x in c["contact_velocity_min"] + c["contact_velocity_max"]))
sys.exit(0 if same else 1)
PY
  then
    ok
  else
    bad "$scene: compare's Routh set differs from run's"
  fi
  rm -f c.json r.json r.h5
done
if ((divisor == 1)); then
  check "compare with no terminated Routh sample says so and exits 4" 4 \
    "no Routh sample terminated.*no range" -- "$bin" compare --system cube-flat --samples 64 --step 1e-9 --max-steps 1
  check "compare's text shows no infinite range" 4 "!inf" -- "$bin" compare --system cube-flat --samples 64 --step 1e-9 --max-steps 1
fi

# --- every shipped scene at rest, moving away and 100 times faster: run (and rollout, moving away)
# end with a result or a message (exit 2 with words on stderr: a state a scene refuses), never a signal
no_signal() {  # no_signal NAME COMMAND...
  local name="$1"
  shift
  "$@" >out.txt 2>err.txt
  local rc=$?
  if ((rc >= 128)) || { ((rc != 0)) && [[ ! -s err.txt ]]; }; then
    bad "$name: exit $rc"
    sed 's/^/  | /' err.txt | head -4
  else
    ok
  fi
}
index=0
for xml in "$scenes"/*.xml; do
  index=$((index + 1))
  ((index % every == 0)) || continue
  scene="$(basename "$xml" .xml)"
  v=$("$bin" info --system "$scene" --json 2>/dev/null | /usr/bin/python3 -c \
    'import json, sys; print(",".join(repr(x) for x in json.load(sys.stdin)["qvel"]))')
  for scale in 0 -1 100; do
    q=$(/usr/bin/python3 -c "print(','.join(repr($scale * float(x)) for x in '$v'.split(',')))")
    no_signal "$scene x$scale: run" "$bin" run --system "$scene" --qvel "$q" --samples 16 \
      --threads 1 --no-sets --out state.h5
    [[ $scale == -1 ]] || continue  # rollouts: one state each (they cost more under sanitizers)
    no_signal "$scene x$scale: rollout" "$bin" rollout --system "$scene" --qvel "$q" \
      --horizon 0.05 --rollouts 2 --threads 1
  done
  rm -f state.h5
done

# --- a batch whose velocities cross zero (approaching, resting, separating states): a result for
# every state and no .parts folder left behind
check "a batch across v = 0 finishes" 0 "" -- "$bin" batch --system cube-flat \
  --vary qvel:2=-0.5:0.5:5 --samples 32 --threads 1 --out cross.h5
if [[ -d cross.h5.parts ]]; then bad "a finished batch left cross.h5.parts"; else ok; fi
rm -rf cross.h5 cross.h5.parts

finish "mujoco CLI"
