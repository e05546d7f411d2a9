#!/usr/bin/env bash
# Runs the standard benchmark set and writes its report: OUT_DIR/README.md (Markdown: what each
# benchmark measures, the command, the figures measured, the targets met or not) and
# OUT_DIR/report.json (the same figures, every command with its wall time, and the machine).
#
# Usage: scripts/bench.sh [--quick] [--out-dir DIR] [--rounds N] [--keep-raw]
#   --quick       every part with small counts, to test the script (the report says so; its
#                 figures are not comparable with a full run's)
#   --out-dir DIR where README.md and report.json go (default: bench/, i.e. bench/README.md)
#   --rounds N    whole runs (impactset run / batch) are repeated N times, alternated, and the
#                 report gives medians (default 1)
#   --keep-raw    keep the programs' raw outputs (the script prints where)
# BUILD_DIR selects the build tree (default: build/). Nothing is built here: build first with
# scripts/build.sh (benchmarks need libbenchmark-dev; the Python part needs the Python module).
# A full run takes about 12 minutes on 2 cores; measure on an otherwise idle machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
build="$(cd "$build" 2>/dev/null && pwd || echo "$build")"
py=/usr/bin/python3
report="$root/scripts/bench_report.py"

quick=0
out_dir="$root/bench"
rounds=1
keep_raw=0
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) quick=1 ;;
    --out-dir) [[ $# -ge 2 ]] || { echo "bench.sh: --out-dir needs a directory" >&2; exit 2; }
               out_dir="$2"; shift ;;
    --out-dir=*) out_dir="${1#*=}" ;;
    --rounds) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] ||
                { echo "bench.sh: --rounds needs a positive integer" >&2; exit 2; }
              rounds="$2"; shift ;;
    --keep-raw) keep_raw=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

# --- What must exist before anything runs ------------------------------------------------------
impactset="$build/apps/impactset"
bench_lcp="$build/bench/bench_lcp"
bench_sampler="$build/bench/bench_sampler"
bench_sets="$build/bench/bench_sets"
bench_compliant="$build/bench/bench_compliant"
lcp_census="$build/bench/lcp_census"
impact_family="$build/bench/impact_family"
missing=()
[[ -x "$py" ]] || missing+=("$py (Python 3, standard library only)")
[[ -f "$build/CMakeCache.txt" ]] || missing+=("$build/CMakeCache.txt (no configured build tree)")
for bin in "$impactset" "$bench_lcp" "$bench_sampler" "$bench_sets" "$bench_compliant" "$lcp_census" \
    "$impact_family"; do
  [[ -x "$bin" ]] || missing+=("$bin")
done
compgen -G "$build/python/impactset/_impactset*.so" >/dev/null ||
  missing+=("$build/python/impactset/_impactset*.so (the Python module)")
if [[ ${#missing[@]} -gt 0 ]]; then
  {
    echo "bench.sh: not built (BUILD_DIR=$build):"
    printf '  %s\n' "${missing[@]}"
    echo "Build with scripts/build.sh (Release; benchmarks need libbenchmark-dev, the Python module"
    echo "IMPACTSET_BUILD_PYTHON=ON), or point BUILD_DIR at a build tree that has them."
  } >&2
  exit 2
fi
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$build/CMakeCache.txt" ||
  echo "bench.sh: warning: $build is not a Release build; the report records its build type" >&2

mkdir -p "$out_dir"
out_dir="$(cd "$out_dir" && pwd)"
raw="$(mktemp -d "${TMPDIR:-/tmp}/impactset-bench.XXXXXX")"
mkdir -p "$raw/work"
finish() {
  local status=$?
  if [[ $keep_raw -eq 1 || $status -ne 0 ]]; then
    echo "bench.sh: raw outputs kept in $raw" >&2
  else
    rm -rf "$raw"
  fi
}
trap finish EXIT

# run NAME [--allow-fail] [--env K=V ...] -- COMMAND...: runs COMMAND in the scratch directory,
# records its output, wall time and peak memory under NAME (bench_report.py reads them back).
run() {
  echo "bench.sh: [$(date +%H:%M:%S)] $1" >&2
  "$py" "$report" exec --raw "$raw" --name "$@"
}

load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)"
if [[ $quick -eq 0 ]] && awk -v l="$load" 'BEGIN { exit !(l > 0.5) }'; then
  echo "bench.sh: warning: load average $load before the run; other load moves the figures" >&2
fi
"$py" "$report" start --raw "$raw" --root "$root" --build "$build" --quick "$quick" --rounds "$rounds"

# --- Counts: full run, or --quick ----------------------------------------------------------------
if [[ $quick -eq 1 ]]; then
  gb_lcp=(--benchmark_repetitions=2 --benchmark_min_time=0.01)
  gb_sampler=(--benchmark_repetitions=1 --benchmark_min_time=0.01
              "--benchmark_filter=^sampler/rocking-block/(native|siconos)/first/|^sampler/rocking-block/native/(random|default|default\+sets)/")
  gb_sets=(--benchmark_min_time=0.01 "--benchmark_filter=^(Support/(2|6)|NetQuery/(2|4)/[01]|Net/(2|4)|Hull/(2|3)/[01]/.*)$")
  gb_compliant=(--benchmark_min_time=0.01)
  paper=(rocking-block:1024 compass-gait:1024 box-wall:1024 ramone:1024 disk-stack:512)
  efficiency=(rocking-block:2048 compass-gait:2048 box-wall:2048 ramone:2048 disk-stack:1024)
  scene_k=1024
  cube_k=2048
  rb_k=16384
  batch_grid=(--vary angle=2.3:2.9:4 --vary rate=0.1:0.6:4 --samples 256)
  batch_eff_grid=(--vary angle=2.3:2.9:3 --vary rate=0.1:0.6:3 --samples 256)
  census_n=20000
  family=(--problems 40 --samples 8)
  family_more=(--problems 40 --samples 8)
  rollouts_n=40
else
  gb_lcp=(--benchmark_repetitions=5 --benchmark_min_time=0.1)
  gb_sampler=(--benchmark_repetitions=3 --benchmark_min_time=0.01 "--benchmark_filter=^sampler/")
  gb_sets=(--benchmark_min_time=0.2 "--benchmark_filter=^(Support|NetQuery|Net|CubeHull|Cube)/|^Hull/([2-5]/[01]|6/0)/")
  gb_compliant=()
  paper=(rocking-block:16384 compass-gait:1048576 box-wall:262144 ramone:1048576 disk-stack:1048576)
  efficiency=(rocking-block:1048576 compass-gait:1048576 box-wall:524288 ramone:524288 disk-stack:65536)
  scene_k=65536
  cube_k=262144
  rb_k=1000000
  batch_grid=(--vary angle=2.3:2.9:100 --vary rate=0.1:0.6:100 --samples 4096)
  batch_eff_grid=(--vary angle=2.3:2.9:20 --vary rate=0.1:0.6:25 --samples 4096)
  census_n=1000000
  family=(--problems 500 --samples 32)
  family_more=(--problems 1000 --samples 32)
  rollouts_n=1000
fi
gb=(--benchmark_format=json --benchmark_enable_random_interleaving=true)
pyenv=(--env "PYTHONPATH=$build/python")

# --- 1. One LCP solve: native Lemke against Siconos (all banks, interleaved in one process) -----
run lcp -- "$bench_lcp" "${gb[@]}" "${gb_lcp[@]}"

# --- 2. The paper's five examples at the paper's counts: sets, none, reachable too, alternated ---
for r in $(seq "$rounds"); do
  for s in "${paper[@]}"; do
    for sets in --sets --no-sets --reachable; do
      run "paper:${s%:*}:${sets#--}:$r" -- "$impactset" run --system "${s%:*}" --samples "${s#*:}" \
        --threads 2 $sets --out run.h5 --json
    done
  done
done
# 2-thread efficiency: the same runs at 1 and 2 threads (counts where the start-up does not count)
for r in $(seq "$rounds"); do
  for s in "${efficiency[@]}"; do
    for sets in --sets --no-sets; do
      for t in 1 2; do
        run "efficiency:${s%:*}:${sets#--}:t$t:$r" -- "$impactset" run --system "${s%:*}" \
          --samples "${s#*:}" --threads $t $sets --out run.h5 --json
      done
    done
  done
done

# --- 3. The 3-D (MuJoCo) scenes ----------------------------------------------------------------
for r in $(seq "$rounds"); do
  for scene in cube-flat cube-edge rocking-block-3d quadruped; do
    for sets in --sets --no-sets --reachable; do
      run "scene:$scene:${sets#--}:$r" -- "$impactset" run --system $scene --samples $scene_k \
        --threads 2 $sets --out run.h5 --json
    done
  done
  for t in 2 1; do
    run "cube-throughput:t$t:$r" -- "$impactset" run --system cube-flat --samples $cube_k \
      --no-sets --threads $t --out run.h5 --json
  done
  run "quadruped-com-base:$r" -- "$impactset" run --system quadruped --samples $scene_k \
    --output com --output base --threads 2 --out run.h5 --json
done

# --- 4. Set outputs by dimension, and the 3-D cube's -------------------------------------------
run sets -- "$bench_sets" "${gb[@]}" "${gb_sets[@]}"

# --- 5. Sampler throughput; whole rocking-block runs --------------------------------------------
run sampler -- "$bench_sampler" "${gb[@]}" "${gb_sampler[@]}"
for r in $(seq "$rounds"); do
  run "rocking-block:default:$r" -- "$impactset" run --system rocking-block --samples $rb_k \
    --threads 2 --out run.h5 --json
  run "rocking-block:detect:$r" -- "$impactset" run --system rocking-block --samples $rb_k \
    --detect-non-unique --threads 2 --out run.h5 --json
  run "rocking-block:first:$r" -- "$impactset" run --system rocking-block --samples $rb_k \
    --selection first --no-sets --threads 2 --out run.h5 --json
done

# --- 6. Batches: compass gait at touchdown over a grid of states --------------------------------
# (a batch refuses to overwrite its file without --resume: each run starts without one)
for r in $(seq "$rounds"); do
  rm -rf "$raw/work/sets.h5" "$raw/work/sets.h5.parts"
  run "batch:$r" -- "$impactset" batch --system compass-touchdown "${batch_grid[@]}" \
    --holdout 0 --threads 2 --out sets.h5 --json
  for t in 1 2; do
    rm -rf "$raw/work/sets.h5" "$raw/work/sets.h5.parts"
    run "batch-efficiency:t$t:$r" -- "$impactset" batch --system compass-touchdown \
      "${batch_eff_grid[@]}" --holdout 0 --threads $t --out sets.h5 --json
  done
done

# --- 7. Python: per-call overhead and the GIL ---------------------------------------------------
if [[ $quick -eq 1 ]]; then
  # The scripts' own loop counts, made small (the full run calls the scripts as they are).
  run python-calls "${pyenv[@]}" -- "$py" -c "import sys; sys.path.insert(0, \"$root/bench\"); \
import bench_python_calls as b; b.CALLS = 200; b.ROUNDS = 1; sys.argv[1:] = [\"$bench_sampler\"]; b.main()"
  run python-gil "${pyenv[@]}" -- "$py" -c "import sys; sys.path.insert(0, \"$root/bench\"); \
import bench_python_gil as b; b.TARGET_SECONDS = 0.1; b.main()"
else
  run python-calls "${pyenv[@]}" -- "$py" "$root/bench/bench_python_calls.py" "$bench_sampler"
  run python-gil "${pyenv[@]}" -- "$py" "$root/bench/bench_python_gil.py"
fi

# --- 8. Compliant-contact runs (CVODE) ----------------------------------------------------------
run compliant -- "$bench_compliant" --benchmark_format=json "${gb_compliant[@]}"

# --- 9. Robustness census of the step LCPs Algorithm 1 visits (exit status 1 = a step failed) --
problems="$root/tests/data/problems"
run census:planar --allow-fail -- "$lcp_census" $census_n 1
run census:planar-more --allow-fail -- "$lcp_census" $census_n 1 "$problems/ramone.json" \
  "$problems/zeno-block.json" "$problems/disk-stack.json" "$problems/disk-stack-authors.json"
humanoid="$(sed -n 's/^IMPACTSET_HUMANOID_XML:FILEPATH=//p' "$build/CMakeCache.txt")"
scenes=(cube-flat cube-edge rocking-block-3d quadruped)
if [[ -n "$humanoid" && -f "$humanoid" ]]; then
  "$py" -c "import json; json.dump({'qpos': [0,0,1.285,1,0,0,0] + [0]*21,
  'qvel': [0,0,-0.5] + [0]*24}, open('$raw/work/humanoid-state.json', 'w'))"
  scenes+=("mujoco:$humanoid:humanoid-state.json")
fi
run census:scenes --allow-fail -- "$lcp_census" $census_n 1 "${scenes[@]}"

# --- 10. Random valid impact problems (exit status 1 = a sample failed, > 0.1 % capped, ...) ---
run family:k4 --allow-fail -- "$impact_family" "${family[@]}" --k 4 --seed 1 --threads 2 --list
run family:k8 --allow-fail -- "$impact_family" "${family[@]}" --k 8 --seed 1 --threads 2 --list
run family:k4:seed7 --allow-fail -- "$impact_family" "${family_more[@]}" --k 4 --seed 7 --threads 2 --list

# --- 11. Rollouts: MuJoCo's humanoid landing under a PD posture controller, 1 s -------------------
# (the recipe's state of docs/mujoco.md raised to 1.30 m; the same rollouts at 2 and 1 threads)
if [[ -n "$humanoid" && -f "$humanoid" ]]; then
  rq="0,0,1.30,1,0,0,0$(printf ',0%.0s' $(seq 21))"
  rv="0,0,-0.5$(printf ',0%.0s' $(seq 24))"
  for t in 2 1; do
    run "rollout:humanoid:t$t" -- "$impactset" rollout --mujoco "$humanoid" --qpos "$rq" \
      --qvel "$rv" --horizon 1 --rollouts $rollouts_n --pd-posture 100,10 --threads $t \
      --metric "fell=min(com:z) < 0.6" --json
  done
fi

# --- The report -----------------------------------------------------------------------------------
"$py" "$report" write --raw "$raw" --out-dir "$out_dir"
