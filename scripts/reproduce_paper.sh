#!/usr/bin/env bash
# Runs the paper's five examples with the authors' settings (h, N and sample counts from the
# built-in systems; the authors' unscrambled Sobol design) and draws each figure with
# scripts/plot_sets.py. Output: out/paper/<system>.{h5,json,png}.
# Usage: scripts/reproduce_paper.sh [extra impactset run options, e.g. --samples 65536]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh" --plot
"$root/scripts/build.sh" >&2
bin="${BUILD_DIR:-$root/build}/apps/impactset"
out="$root/out/paper"
mkdir -p "$out"
for system in rocking-block compass-gait box-wall ramone disk-stack; do
  echo "== $system" >&2
  "$bin" run --system "$system" --design sobol-plain --keep-samples --keep-trajectories \
    --out "$out/$system.h5" --json "$@" >"$out/$system.json"
  compare=()
  if "$bin" compare --system "$system" --json >"$out/$system.compare.json" 2>/dev/null; then
    compare=(--compare "$out/$system.compare.json")
  else
    rm -f "$out/$system.compare.json"
  fi
  /usr/bin/python3 "$root/scripts/plot_sets.py" "$out/$system.h5" "$out/$system.png" "${compare[@]}"
done
