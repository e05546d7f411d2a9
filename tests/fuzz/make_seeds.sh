#!/usr/bin/env bash
# Writes the binary seed inputs of the fuzz targets (tests/fuzz/*/seed-*) with the impactset
# command: small run, shard, sweep and batch files. The text seeds are written by hand.
# Usage: tests/fuzz/make_seeds.sh path/to/impactset
set -euo pipefail
bin="$(realpath "$1")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
ds="$here/dataset_hdf5/seeds"
mkdir -p "$ds" "$here/batch_parts"
run=(run --system rocking-block --samples 8 --threads 1 --holdout 4)
"$bin" "${run[@]}" --no-sets --out "$ds/seed-run-no-sets.h5" >/dev/null
"$bin" "${run[@]}" --keep-samples --keep-trajectories --out "$ds/seed-run-kept.h5" >/dev/null
"$bin" "${run[@]}" --shard 1/2 --out "$ds/seed-shard-1of2.h5" >/dev/null
"$bin" run --system box-wall --samples 8 --threads 1 --holdout 0 --out "$ds/seed-box-wall.h5" >/dev/null
"$bin" sweep --model jia --system rocking-block --ratios 2 --no-sets --out "$ds/seed-sweep.h5" >/dev/null
# The job of fuzz/batch_parts.cpp: its final file has the layout of a part file.
"$bin" batch --system compass-touchdown --vary angle=2.3:2.9:4 --samples 16 --threads 1 \
  --holdout 0 --keep 4 --directions 2 --out "$here/batch_parts/seed-batch.h5" >/dev/null
ls -l "$ds" "$here/batch_parts"
# Matrix input as another simulator would export it: /problem only.
/usr/bin/python3 - "$here/problem_hdf5/seed-matrix-input.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "w") as f:
    p = f.create_group("problem")
    p["M"] = np.array([[2.0, 0], [0, 1]])
    p["Jn"] = np.array([[1.0, 0]])
    p["D"] = np.array([[0.0, 1], [0, -1]])
    p["mu"] = np.array([0.5])
    p["v_minus"] = np.array([-1.0, 0.2])
    p.attrs["k"] = np.int64(2)
    p.attrs["h"] = 0.1
    p.attrs["N"] = np.int64(50)
PY
