#!/usr/bin/env bash
# Corrupt, truncated, future and misshapen HDF5 input to `merge`, `distance` and
# `run --problem`: exit 2 with a message naming the file and the dataset (or HDF5's reason).
# Usage: corrupt_input_test.sh path/to/impactset
set -u
bin="$(realpath "$1")"
py=/usr/bin/python3
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
"$bin" run --system rocking-block --samples 64 --threads 1 --keep-samples --out good.h5 >/dev/null
head -c 9000 good.h5 >truncated.h5
echo "not an HDF5 file" >text.h5
"$py" - <<'PY'
import shutil, h5py, numpy as np
def variant(name, edit):
    shutil.copy("good.h5", name)
    with h5py.File(name, "r+") as f:
        edit(f)
def replace(path, value):
    def edit(f):
        del f[path]
        f[path] = value
    return edit
variant("future.h5", lambda f: f.attrs.__setitem__("schema_version", np.int64(99)))
variant("v_minus.h5", replace("/problem/v_minus", np.zeros(5)))
variant("rank3.h5", replace("/samples/status", np.zeros((64, 1, 2), dtype=np.int32)))
variant("samples.h5", replace("/samples/v_plus", np.zeros((63, 3))))
variant("nomatrix.h5", lambda f: f["/problem"].__delitem__("M"))
variant("net.h5", replace("/net/post_impact/contact/points", np.zeros((4, 7))))
variant("status.h5", replace("/samples/status", np.full(64, 7, dtype=np.int32)))
PY
check() {  # check <file> <pattern>: every reader of the file exits 2 and prints the pattern
  local file="$1" pattern="$2" cmd
  for cmd in "merge $file --out m.h5" "distance $file good.h5" "run --problem $file --samples 8"; do
    # shellcheck disable=SC2086
    "$bin" $cmd >out.txt 2>err.txt
    local rc=$?
    if [[ $rc -ne 2 ]] || ! grep -qE -- "$pattern" err.txt; then
      echo "FAIL $cmd: exit $rc (want 2), pattern '$pattern'"; sed 's/^/  | /' err.txt | head -3
      fail=$((fail + 1))
    else
      pass=$((pass + 1))
    fi
    [[ -e m.h5 ]] && { echo "FAIL $cmd: wrote m.h5"; fail=$((fail + 1)); rm -f m.h5; }
  done
}
check truncated.h5 "truncated.h5: HDF5 error"
check text.h5 "text.h5: HDF5 error"
check future.h5 "future.h5:/schema_version: 99: written by a newer impactset"
check v_minus.h5 "v_minus.h5:/problem/v_minus: 5 values, expected n = 3|v_minus.h5:/problem: "
check nomatrix.h5 "nomatrix.h5:/problem/M: missing|nomatrix.h5: HDF5 error at .*\(/problem/M\)"
# Sample and net arrays: only merge and distance read them (run --problem reads /problem only).
for f in rank3.h5 samples.h5 net.h5 status.h5; do
  for cmd in "merge $f --out m.h5" "distance $f good.h5"; do
    # shellcheck disable=SC2086
    "$bin" $cmd >out.txt 2>err.txt
    rc=$?
    if [[ $rc -ne 2 ]] || ! grep -qE "$f(:/samples/|:/net/post_impact/contact/points|: sample status = 7|:/samples/status: sample status = 7)" err.txt; then
      echo "FAIL $cmd: exit $rc (want 2)"; sed 's/^/  | /' err.txt | head -3; fail=$((fail + 1))
    else
      pass=$((pass + 1))
    fi
  done
done
# Files on which libhdf5 itself corrupts memory (found by fuzzing): every reader exits 2 naming
# the file, never a crash (the read runs first in a child process, data/read_isolation.hpp).
crash_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../fuzz/libhdf5-crash" && pwd)"
found=0
for src in "$crash_dir"/*.h5; do
  [[ -e $src ]] || continue
  found=$((found + 1))
  cp "$src" crash.h5
  check crash.h5 "crash.h5: (libhdf5 crashed reading it \((signal|exit status) [0-9]+\): the file is corrupt|HDF5 error)"
done
if ((found == 0)); then echo "FAIL no input in $crash_dir"; fail=$((fail + 1)); fi
if ((fail > 0)); then echo "$fail failures, $pass passed"; exit 1; fi
echo "corrupt input: $pass checks passed"
