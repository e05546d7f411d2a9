#!/usr/bin/env bash
# Open MPI: `mpirun -n R impactset batch` for R = 1..4 writes the single-process file (every
# dataset equal); more ranks than states fail clearly with no file; `mpirun -n R impactset run`
# writes the file of `impactset run` alone and reports ranks and merge time; more ranks than
# samples, an unwritable output and a resumed finished batch stop every rank with a message.
# Usage: batch_mpi_test.sh path/to/impactset path/to/compare_h5.py
set -u
bin="$(realpath "$1")"
compare="$(realpath "$2")"
py=/usr/bin/python3  # Debian's, with h5py
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mpi=(mpirun --oversubscribe -n)

# IMPACTSET_TEST_SAMPLE_DIVISOR (CTest sets 8 in the sanitized build, where a process runs
# several times slower) divides the long jobs' sample counts: the same code paths, shorter.
div=${IMPACTSET_TEST_SAMPLE_DIVISOR:-1}
job=(batch --system compass-touchdown --vary angle=2.3:2.9:4 --vary rate=0.1:0.6:3
     --samples $((1024 / div)) --threads 1 --holdout $((128 / div)) --keep 4 --part-states 2
     --seed 5)
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

run=(run --system rocking-block --samples $((3000 / div)) --seed 9 --holdout $((200 / div)))
"$bin" "${run[@]}" --out run1.h5 >/dev/null 2>err.txt || bad "run: $(cat err.txt)"
for r in 2 3; do
  if "${mpi[@]}" "$r" "$bin" "${run[@]}" --out "run$r.h5" >/dev/null 2>err.txt; then
    if "$py" "$compare" run1.h5 "run$r.h5"; then ok; else bad "run on $r ranks: file differs"; fi
  else
    bad "run on $r ranks: $(head -3 err.txt)"
  fi
done

# run under mpirun reports its ranks and rank 0's merge, in the summary and in JSON.
if "${mpi[@]}" 2 "$bin" "${run[@]}" --out runtext.h5 >out.txt 2>err.txt &&
   grep -qE "on 2 ranks x 1 thread \(receiving and merging on rank 0: [0-9.]+ s\)" out.txt; then ok
else bad "run on 2 ranks, summary: $(tail -2 out.txt) $(head -2 err.txt)"; fi
if "${mpi[@]}" 2 "$bin" "${run[@]}" --out runjson.h5 --json >out.txt 2>err.txt &&
   "$py" -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["ranks"] == 2 and j["merge_seconds"] > 0 and j["wall_seconds"] > 0, j' out.txt; then ok
else bad "run on 2 ranks, JSON: $(head -3 err.txt)"; fi
# More ranks than samples: said in the user's words (no "shard count" nobody gave), no file.
if timeout 120 "${mpi[@]}" 2 "$bin" run --system rocking-block --samples 1 --out one.h5 >out.txt 2>err.txt; then
  bad "run --samples 1 on 2 ranks succeeded"
elif ! grep -q "mpirun -n 2 for 1 sample: use at most as many ranks as samples" err.txt ||
     grep -q "shard" err.txt; then
  bad "run --samples 1 on 2 ranks: $(head -3 err.txt)"
elif [[ -e one.h5 ]]; then bad "run --samples 1 on 2 ranks wrote a file"
else ok; fi
# An output path rank 0 cannot write: refused before the run on every rank (no hang).
touch plain
if timeout 120 "${mpi[@]}" 2 "$bin" "${run[@]}" --out plain/x.h5 >out.txt 2>err.txt; then
  bad "run into plain/x.h5 on 2 ranks succeeded"
elif ! grep -q "plain/x.h5: cannot write the file there: plain is a file, not a directory" err.txt; then
  bad "run into plain/x.h5 on 2 ranks: $(head -3 err.txt)"
else ok; fi
# --resume of a finished batch on 2 ranks: every rank stops, the file stays as it was.
cp r2.h5 r2-copy.h5
if timeout 120 "${mpi[@]}" 2 "$bin" "${job[@]}" --out r2.h5 --resume >out.txt 2>err.txt &&
   grep -q "r2.h5 is complete (12 states" out.txt && cmp -s r2.h5 r2-copy.h5; then ok
else bad "resume of a finished batch on 2 ranks: $(cat out.txt) $(head -3 err.txt)"; fi

finish "batch MPI"
