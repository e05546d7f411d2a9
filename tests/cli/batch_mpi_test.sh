#!/usr/bin/env bash
# Open MPI: `mpirun -n R impactset batch` for R = 1..4 writes the single-process file (every
# dataset equal); more ranks than states fail clearly with no file; `mpirun -n R impactset run`
# writes the file of `impactset run` alone.
# Usage: batch_mpi_test.sh path/to/impactset path/to/compare_h5.py
set -u
bin="$(realpath "$1")"
compare="$(realpath "$2")"
py=/usr/bin/python3  # Debian's, with h5py
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
mpi=(mpirun --oversubscribe -n)

job=(batch --system compass-touchdown --vary angle=2.3:2.9:4 --vary rate=0.1:0.6:3
     --samples 1024 --threads 1 --holdout 128 --keep 4 --part-states 2 --seed 5)
"$bin" "${job[@]}" --out single.h5 >/dev/null 2>err.txt || bad "single process: $(cat err.txt)"
for r in 1 2 3 4; do
  if "${mpi[@]}" "$r" "$bin" "${job[@]}" --out "r$r.h5" >out.txt 2>err.txt; then
    grep -q "on $r rank" out.txt || bad "$r ranks: $(cat out.txt)"
    if "$py" "$compare" single.h5 "r$r.h5"; then ok; else bad "$r ranks: file differs"; fi
  else
    bad "$r ranks: exit $?: $(head -3 err.txt)"
  fi
done

three=(batch --system compass-touchdown --vary angle=2.3:2.9:3 --samples 64 --holdout 0)
if "${mpi[@]}" 4 "$bin" "${three[@]}" --out many.h5 >out.txt 2>err.txt; then
  bad "4 ranks for 3 states succeeded"
elif ! grep -q "mpirun -n 4 for 3 states: use at most as many ranks as states" err.txt; then
  bad "4 ranks for 3 states: $(head -3 err.txt)"
elif [[ -e many.h5 || -e many.h5.parts ]]; then
  bad "4 ranks for 3 states left a file"
else
  ok
fi

run=(run --system rocking-block --samples 3000 --seed 9 --holdout 200)
"$bin" "${run[@]}" --out run1.h5 >/dev/null 2>err.txt || bad "run: $(cat err.txt)"
for r in 2 3; do
  if "${mpi[@]}" "$r" "$bin" "${run[@]}" --out "run$r.h5" >/dev/null 2>err.txt; then
    if "$py" "$compare" run1.h5 "run$r.h5"; then ok; else bad "run on $r ranks: file differs"; fi
  else
    bad "run on $r ranks: $(head -3 err.txt)"
  fi
done

echo "batch MPI: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
