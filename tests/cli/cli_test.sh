#!/usr/bin/env bash
# End-to-end checks of the impactset command: exit codes, messages, no file on failure, JSON keys.
# Usage: cli_test.sh path/to/impactset
set -u
bin="$(realpath "$1")"
scenes="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../src/impactset/robots/scenes" && pwd)"  # the shipped MuJoCo scenes
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
check() {  # expect; a refused command leaves no file behind; the files are removed
  local name="$1" want="$2"
  expect "$@"
  if ls ./*.h5 ./*.tmp-* >/dev/null 2>&1 && [[ $want -ne 0 ]]; then
    bad "$name: left a file behind: $(ls ./*.h5 ./*.tmp-* 2>/dev/null)"
  fi
  rm -f ./*.h5
}
bad_json() { printf '%s' "$1" >"$2"; }

check "systems lists the default" 0 "rocking-block" -- "$bin" systems
check "unknown system" 2 "unknown built-in system.*known" -- "$bin" run --system nope --samples 10
bad_json '{"M": [[1,0],[0,1]], "Jn": [[0,1]], "mu": [0], "v_minus": [0, -1' bad.json
check "malformed JSON" 2 "malformed JSON" -- "$bin" run --problem bad.json --samples 10
bad_json '{"M": [[1,0],[0,1]], "Jn": [[0,1]], "mu": "x", "v_minus": [0,-1]}' t.json
check "wrongly typed JSON" 2 "/mu: expected a list" -- "$bin" run --problem t.json --samples 10
bad_json '{"M": [[1,0],[0,1]], "Jn": [[0,1]], "mu": [0], "v_minus": [0,-1], "extra": 1}' u.json
check "unknown key" 2 "/extra: unknown key" -- "$bin" run --problem u.json --samples 10
bad_json '{"M": [[1,0],[0,1e999]], "Jn": [[0,1]], "mu": [0], "v_minus": [0,-1]}' nan.json
check "non-finite number" 2 "/M/1/1|finite|malformed" -- "$bin" run --problem nan.json --samples 10
bad_json '{"M": [[1,2],[2,1]], "Jn": [[0,1]], "mu": [0], "v_minus": [0,-1]}' spd.json
check "non-SPD M" 2 "positive definite" -- "$bin" run --problem spd.json --samples 10
bad_json '{"M": [[1,0],[0,1]], "Jn": [[0,1,0]], "mu": [0], "v_minus": [0,-1]}' size.json
check "mismatched sizes" 2 "/Jn" -- "$bin" run --problem size.json --samples 10
bad_json '{"M": [[1,0],[0,1]], "Jn": [[0,1]], "Jf": [[1,0]], "mu": [-0.5], "v_minus": [0,-1]}' mu.json
check "negative mu" 2 "mu\(0\) = -0.5" -- "$bin" run --problem mu.json --samples 10
check "non-positive samples" 2 "samples = 0" -- "$bin" run --samples 0
check "non-positive step" 2 "step \(h\) = -1" -- "$bin" run --step -1 --samples 10
check "bad shard" 2 "shard" -- "$bin" run --shard 3/2 --samples 10
echo "a file, not a folder" >plain
check "unwritable output" 2 "plain/sub/x.h5: cannot write the file there: plain is a file" -- "$bin" run --samples 10 --out plain/sub/x.h5
check "usage error" 2 "" -- "$bin" run --no-such-flag
check "reachable sets are off and said so" 0 "reachable sets: not built \(--reachable\)" -- "$bin" run --samples 200 --holdout 0 --out off.h5
check "--reachable builds them" 0 "reachable +contact +net +[0-9]+ points" -- "$bin" run --samples 200 --holdout 0 --reachable --out on.h5
check "net cap stated" 0 "post_impact contact +net +[0-9]+ points \(eps [0-9.e-]+, [0-9]+ offered, max-net-points reached: radius doubled [0-9]+x\)" -- \
  "$bin" run --samples 500 --threads 1 --epsilon 1e-5 --max-net-points 5 --holdout 0 --out cap5.h5

# MuJoCo models (--mujoco, the shipped scenes): bad input exits 2 naming the problem, no file left.
check "systems lists the MuJoCo scenes" 0 "quadruped" -- "$bin" systems
check "MuJoCo scene runs by name" 0 "terminated 200," -- "$bin" run --system cube-flat --samples 200 --no-sets --out cube.h5
check "missing MuJoCo file" 2 "no/such/robot.xml" -- "$bin" run --mujoco no/such/robot.xml --samples 10
check "unknown keyframe" 2 "keyframe = nope.*known: impact" -- "$bin" run --system cube-flat --keyframe nope --samples 10
check "qpos of wrong length" 2 "qpos = 3 numbers.*needs 7" -- "$bin" run --system cube-flat --qpos 0,0,1 --samples 10
check "no contact found" 2 "no contact" -- "$bin" run --system cube-flat --qpos 0,0,2,1,0,0,0 --samples 10
printf '<mujoco><worldbody><geom type="bogus"/></worldbody></mujoco>' >rejected.xml
check "model MuJoCo rejects" 2 "MuJoCo cannot load.*bogus" -- "$bin" run --mujoco rejected.xml --samples 10
check "MuJoCo options need a MuJoCo model" 2 "apply only to --mujoco" -- "$bin" run --system rocking-block --keyframe x --samples 10
check "bad friction directions" 2 "friction_directions = 6" -- "$bin" info --system cube-flat --friction-directions 6
check "h and N scaled to a MuJoCo model, stated in the file" 0 "^scaled$" -- bash -c "'$bin' run --system cube-flat \
  --samples 100 --no-sets --out sc.h5 | grep -q 'scaled to the largest Anitescu-Potra' && /usr/bin/python3 -c '
import h5py; f = h5py.File(\"sc.h5\"); print(\"scaled\" if \"Anitescu-Potra\" in f.attrs[\"step_rule\"] and f.attrs[\"max_steps\"] == 40 else dict(f.attrs))'"
check "step-cap advice, no inf ranges" 0 "^advised$" -- bash -c "'$bin' run --system cube-flat --step 0.001 --max-steps 2 \
  --samples 100 --no-sets --json --out cap.h5 | /usr/bin/python3 -c '
import json, sys; j = json.load(sys.stdin)
print(\"advised\" if \"--step\" in j[\"advice\"] and j[\"contact_velocity_min\"] is None else j)'"
# Output maps (--output): bad names, files and models exit 2 naming the value, and write nothing.
check "unknown output" 2 "output = speed: must be contact, generalized, com" -- "$bin" run --system cube-flat --samples 10 --output speed
check "MuJoCo output of a planar system" 2 "output = com: needs a MuJoCo model" -- "$bin" run --system rocking-block --samples 10 --output com
check "unknown joint" 2 "joint = knee9: unknown.*trunk:vx" -- "$bin" run --system quadruped --samples 10 --output joints:knee9
check "missing output matrix" 2 "no/C.csv: cannot open" -- "$bin" run --system cube-flat --samples 10 --output matrix:no/C.csv
printf '1,0,0\n' >short.csv
check "output matrix of wrong width" 2 "short.csv: line 1: 3 numbers, but C needs n = 6" -- "$bin" run --system cube-flat --samples 10 --output matrix:short.csv
check "output named twice" 2 "output name = com: appears twice" -- "$bin" run --system cube-flat --samples 10 --output com --output com
check "outputs without sets" 2 "no-sets" -- "$bin" run --system cube-flat --samples 10 --no-sets --output com
printf '# vz only\n0, 0, 1, 0, 0, 0\n' >vz.csv
check "several outputs, stored and reported" 0 "^outputs$" -- bash -c "'$bin' run --system cube-flat --samples 300 \
  --holdout 0 --output com --output base --output up=matrix:vz.csv --json --out o.h5 | /usr/bin/python3 -c '
import json, sys, h5py; j = json.load(sys.stdin); f = h5py.File(\"o.h5\")
names = [o[\"name\"] for o in j[\"outputs\"]]
sets = sorted(f[\"net/post_impact\"].keys())
ok = names == [\"com\", \"base\", \"up\"] and sets == [\"base\", \"com\", \"up\"] and f[\"outputs/up/C\"].shape == (1, 6)
print(\"outputs\" if ok else (names, sets))'"
printf '{"qpos": [0, 0, 0.5, 1, 0, 0, 0], "qvel": [0, 0, -1, 0, 0, 0]}' >state.json
check "MuJoCo file with JSON state" 0 "approaching" -- bash -c "'$bin' info --mujoco '$scenes/cube-flat.xml' --qpos state.json --qvel state.json"
# The same state as HDF5 datasets /qpos and /qvel (.hdf5: check() removes *.h5 files).
/usr/bin/python3 -c 'import h5py
with h5py.File("state.hdf5", "w") as f: f["qpos"] = [0, 0, 0.5, 1, 0, 0, 0]; f["qvel"] = [0, 0, -1.0, 0, 0, 0]
with h5py.File("noqvel.hdf5", "w") as f: f["qpos"] = [0, 0, 0.5, 1, 0, 0, 0]'
cube_xml="$scenes/cube-flat.xml"
check "MuJoCo state from HDF5 equals the JSON state" 0 "^same problem$" -- bash -c "cmp -s \
  <('$bin' info --mujoco '$cube_xml' --qpos state.json --qvel state.json --json) \
  <('$bin' info --mujoco '$cube_xml' --qpos state.hdf5 --qvel state.hdf5 --json) && echo 'same problem'"
check "HDF5 state without /qvel" 2 "noqvel.hdf5:/qvel: missing" -- \
  "$bin" info --mujoco "$cube_xml" --qpos noqvel.hdf5 --qvel noqvel.hdf5
check "missing HDF5 state file" 2 "no/state.hdf5: no such file" -- \
  "$bin" info --mujoco "$cube_xml" --qpos no/state.hdf5 --qvel noqvel.hdf5

# HDF5 matrix input (/problem group), written with Debian's h5py as another simulator would.
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
with h5py.File("ext.hdf5", "w") as f:
    g = f.create_group("problem")
    g["M"] = 2 * np.eye(2); g["Jn"] = [[0.0, 1.0]]; g["D"] = [[1.0, 0.0], [-1.0, 0.0]]
    g["mu"] = [0.5]; g["v_minus"] = [1.0, -1.0]; g.attrs["h"] = 5.0; g.attrs["N"] = 3
with h5py.File("ext_nojn.hdf5", "w") as f:
    g = f.create_group("problem")
    g["M"] = np.eye(2); g["mu"] = [0.0]; g["v_minus"] = [1.0, -1.0]
PY
check "HDF5 matrix input" 0 "samples 50: terminated" -- "$bin" run --problem ext.hdf5 --samples 50 --out ext_out.h5
check "HDF5 input missing Jn" 2 "/problem/Jn: missing required dataset" -- "$bin" run --problem ext_nojn.hdf5 --samples 5

# A good run writes the file and prints the documented JSON keys.
good='{"M": [[2,0],[0,2]], "Jn": [[0,1]], "Jf": [[1,0]], "mu": [0.3], "v_minus": [1,-1], "h": 5, "N": 3}'
printf '%s' "$good" >good.json
"$bin" run --problem good.json --samples 100 --json --out good.h5 >run.json 2>err.txt
rc=$?
keys='system samples terminated step_capped lcp_failures lcp_solves_mean energy_ratio_max contact_velocity_min contact_velocity_max seconds samples_per_second out'
missing=""
for k in $keys; do grep -q "\"$k\"" run.json || missing="$missing $k"; done
if [[ $rc -ne 0 || -n "$missing" || ! -f good.h5 ]]; then
  echo "FAIL good run: exit $rc, missing keys:$missing"; fail=$((fail + 1))
else
  pass=$((pass + 1))
fi

# Set outputs: JSON keys, option errors, and an independent h5py check of the file:
# every terminated kept sample lies within epsilon of the stored net.
check "bad epsilon" 2 "epsilon = -1" -- "$bin" run --samples 10 --epsilon -1
check "bad delta" 2 "delta = 2" -- "$bin" run --samples 10 --delta 2
check "bad holdout" 2 "holdout = -5" -- "$bin" run --samples 10 --holdout -5
"$bin" run --system compass-gait --samples 2000 --keep-samples --holdout 200 --lipschitz 3 \
  --json --out sets.h5 >sets.json 2>err.txt
rc=$?
cp sets.h5 sets.keep 2>/dev/null
missing=""
for k in net_points epsilon hull_dimension hull_status hull_volume coverage holdout lemma1 missed_mass_upper failure_bound; do
  grep -q "\"$k\"" sets.json || missing="$missing $k"
done
if [[ $rc -ne 0 || -n "$missing" ]]; then
  echo "FAIL sets run: exit $rc, missing keys:$missing"; fail=$((fail + 1))
elif ! /usr/bin/python3 - <<'PY'
import h5py, numpy as np, sys
with h5py.File("sets.h5") as f:
    for coords, name in (("contact", "contact_velocity"), ("generalized", "v_plus")):
        net = f[f"/net/post_impact/{coords}/points"][()]
        eps = float(f[f"/net/post_impact/{coords}/epsilon"][()])
        x = f["/samples/" + name][()][f["/samples/status"][()] == 0]
        d = np.sqrt(((x[:, None, :] - net[None, :, :]) ** 2).sum(-1)).min(1)
        if d.max() > eps or len(net) > len(x):
            sys.exit(f"{coords}: a sample is {d.max()} > eps {eps} from the net")
        hull = f[f"/hull/post_impact/{coords}"]
        if hull.attrs["status"] != "computed" or hull["basis"].shape[1] != hull.attrs["dimension"]:
            sys.exit(f"{coords}: hull {hull.attrs['status']}")
    c = f["/coverage/post_impact/contact"].attrs
    if not (0 <= c["missed"] <= c["holdout"] and c["holdout"] + c["holdout_not_terminated"] == 200
            and 0 < c["missed_mass_upper"] <= 1):
        sys.exit("coverage attributes")
PY
then
  echo "FAIL sets file check"; fail=$((fail + 1))
else
  pass=$((pass + 1))
fi
check "distance of different systems" 2 "not the same system" -- bash -c \
  "'$bin' run --problem good.json --samples 100 --out rb.h5 >/dev/null && '$bin' distance sets.keep rb.h5"
check "distance between two runs" 0 "Hausdorff distance" -- bash -c \
  "'$bin' run --system compass-gait --samples 500 --seed 2 --out d2.h5 >/dev/null && '$bin' distance sets.keep d2.h5"
# plan: K' = ceil(log 0.05 / log(1 - 0.001)) = 2995 fresh samples with no miss.
check "plan hold-out size" 0 "hold-out: 2995 fresh samples" -- "$bin" plan --missed-mass 0.001
check "plan bad delta" 2 "delta = 0: must lie in \(0, 1\)" -- "$bin" plan --delta 0
check "compare aghili key" 0 '"aghili".*"adhesive"' -- bash -c \
  "'$bin' compare --system box-wall --samples 16 --json | tr -d '\\n '"
check "systems lists parameters" 0 "billiard .*theta=2.0944" -- "$bin" systems
check "param info" 0 "m = 4 contacts" -- "$bin" info --system cradle --param n=5
check "param run" 0 "" -- "$bin" run --system billiard --param theta=1.5 --samples 10
check "param compare" 0 "aghili" -- "$bin" compare --system rhex --param gamma=0.2 --samples 10
check "param unknown" 2 "unknown parameter 'thet'" -- "$bin" info --system billiard --param thet=1
check "param ill-valued" 2 "theta = 0.5: must be >=" -- "$bin" run --system billiard --param theta=0.5 --samples 10
check "param on a scene system" 2 "takes no parameters" -- "$bin" compare --system rocking-block --param x=1

# uniqueness (Seghete-Murphey diagnostics) and compare's seghete_murphey key: documented JSON keys.
"$bin" uniqueness --system newtons-cradle --json >uniq.json 2>err.txt
rc=$?
missing=""
for k in cosines orthogonal pi_over_k theorem2 theorem3 forced_choice all_orderings_agree distinct_outcomes unpredictability xi xi_argmin_argmax outcomes; do
  grep -q "\"$k\"" uniq.json || missing="$missing $k"
done
if [[ $rc -ne 0 || -n "$missing" ]] || ! /usr/bin/python3 -c "
import json; j = json.load(open('uniq.json'))
assert j['all_orderings_agree'] and j['distinct_outcomes'] == 1 and j['theorem3']
assert [c['k'] for c in j['pi_over_k']] == [3]" 2>/dev/null; then
  echo "FAIL uniqueness json: exit $rc, missing keys:$missing"; fail=$((fail + 1))
else
  pass=$((pass + 1))
fi
check "uniqueness text" 0 "all orderings agree: no" -- "$bin" uniqueness --system rocking-block
check "uniqueness unknown system" 2 "unknown built-in system" -- "$bin" uniqueness --system nope
check "uniqueness bad problem" 2 "/mu: expected a list" -- "$bin" uniqueness --problem t.json
check "uniqueness bad max-sequences" 2 "" -- "$bin" uniqueness --max-sequences 0
"$bin" compare --system newtons-cradle --samples 50 --json >cmp.json 2>err.txt
rc=$?
if [[ $rc -ne 0 ]] || ! /usr/bin/python3 -c "
import json; s = json.load(open('cmp.json'))['seghete_murphey']
labels = {x['label'] for x in s['settings']}
assert {'elastic e=1', 'plastic e=0 cone'} <= labels
assert all('v_plus' in o and 'contact_velocity' in o and 'status' in o for o in s['outcomes'])
assert any(o['setting'] == 'elastic e=1' and 'orderings' in o for o in s['outcomes'])" 2>/dev/null; then
  echo "FAIL compare seghete_murphey key: exit $rc"; fail=$((fail + 1))
else
  pass=$((pass + 1))
fi
# sweep: a point-valued model's runs stored as /samples + /sweep; bad input exits 2
# and leaves no file.
cat >sweep_check.py <<'PY'
import h5py, sys
with h5py.File(sys.argv[1]) as f:
    n = int(sys.argv[2])
    assert f.attrs["model"] == sys.argv[3], f.attrs["model"]
    assert f["/samples/contact_velocity"].shape[0] == n and f["/samples/v_plus"].shape[0] == n
    assert (f["/samples/status"][()] == 0).all()
    assert len(f["/sweep/log10_stiffness_ratio"]) == n and len(f["/sweep/tilt"]) == n
    assert f["/hull/post_impact/contact"].attrs["status"] == "computed"
PY
check "sweep jia" 0 "^ok$" -- bash -c "'$bin' sweep --model jia --system rocking-block --ratios 5 \
  --out sw.h5 >/dev/null && /usr/bin/python3 sweep_check.py sw.h5 5 jia_mason_erdmann && echo ok"
check "sweep compliant with tilts" 0 "^ok$" -- bash -c "'$bin' sweep --model compliant \
  --system rocking-block --ratios 3 --tilt-max 0.01 --tilts 3 --json --out sc.h5 >/dev/null \
  && /usr/bin/python3 sweep_check.py sc.h5 6 compliant && echo ok"
# One outcome vocabulary: a set entry of sweep --json has exactly the keys of run --json's.
check "sweep and run share set keys" 0 "^same$" -- bash -c "'$bin' sweep --model jia --system rocking-block \
  --ratios 3 --out swk.h5 --json >swk.json && /usr/bin/python3 -c '
import json; a = json.load(open(\"sets.json\"))[\"sets\"][0]; b = json.load(open(\"swk.json\"))[\"sets\"][0]
print(\"same\" if set(a) - {\"coverage\"} == set(b) - {\"coverage\"} and len(b) > 5 else (sorted(a), sorted(b)))'"
# merge: the shards of a run join into the single run's file (every dataset and attribute equal,
# except when and by which build it was written, and the threads used).
cat >same_file.py <<'PY'
import sys, h5py, numpy as np
# References to dimension scales are file addresses: compared below by the scales' names instead.
skip = {"created", "git_revision", "version", "threads", "DIMENSION_LIST", "REFERENCE_LIST"}
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
na, nb = [], []
a.visit(na.append); b.visit(nb.append)
assert na == nb and len(na) > 20, (na, nb)
for name in [""] + na:
    x, y = (a[name], b[name]) if name else (a, b)
    assert set(x.attrs) == set(y.attrs), name
    for k in set(x.attrs) - skip:
        assert np.array_equal(np.asarray(x.attrs[k]), np.asarray(y.attrs[k])), (name, k)
    if isinstance(x, h5py.Dataset):
        assert x.dtype == y.dtype and np.array_equal(x[()], y[()]), name
        assert [[s.name for s in d.values()] for d in x.dims] == \
            [[s.name for s in d.values()] for d in y.dims], name
print("same")
PY
check "merge equals the single run" 0 "^same$" -- bash -c "for i in 0 1 2; do '$bin' run --system ramone \
  --samples 900 --seed 4 --keep-samples --keep-trajectories --holdout 100 --shard \$i/3 --out m\$i.h5 \
  >/dev/null || exit 1; done && '$bin' merge m2.h5 m0.h5 m1.h5 --out merged.h5 >/dev/null && \
  '$bin' run --system ramone --samples 900 --seed 4 --keep-samples --keep-trajectories --holdout 100 \
  --threads 1 --out single.h5 >/dev/null && /usr/bin/python3 same_file.py merged.h5 single.h5"
check "merge rejects a missing shard" 2 "all 3 shards" -- bash -c "'$bin' run --system ramone --samples 90 \
  --shard 0/3 --out s0.h5 >/dev/null && '$bin' merge s0.h5 --out x.h5; rc=\$?; rm -f s0.h5; exit \$rc"
check "sweep bad model" 2 "model" -- "$bin" sweep --model nope --out x.h5
check "sweep bad ratio range" 2 "ratio-min.*ratio-max" -- "$bin" sweep --model jia --ratio-min 2 --ratio-max 1 --out x.h5
check "sweep tilt needs compliant" 2 "tilt-max.*compliant" -- "$bin" sweep --model jia --tilt-max 0.01 --tilts 3 --out x.h5
check "sweep tilt needs a scene" 2 "needs a scene" -- "$bin" sweep --model compliant --problem good.json --tilt-max 0.01 --tilts 3 --out x.h5
check "sweep compliant two contacts" 2 "exactly 2 contacts" -- "$bin" sweep --model compliant --problem good.json --out x.h5
check "sweep bad restitution" 2 "restitution = 2" -- "$bin" sweep --model jia --restitution 2 --out x.h5
check "sweep needs out" 2 "out" -- "$bin" sweep --model jia

finish "CLI"
