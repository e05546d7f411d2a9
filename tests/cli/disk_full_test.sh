#!/usr/bin/env bash
# A full disk: `run`, `merge`, `sweep` and `batch` writing into a 64 KiB tmpfs exit 2 with a
# message saying the device is full, and leave no temporary file and no new file: the output
# path holds nothing, or the previous complete file untouched. A batch keeps its finished part
# files; after the file system grows, --resume completes it. Needs root (mount); skips (exit 77,
# CTest's SKIP_RETURN_CODE) otherwise.
# Usage: disk_full_test.sh path/to/impactset path/to/compare_h5.py
set -u
bin="$(realpath "$1")"
compare="$(realpath "$2")"
py=/usr/bin/python3
if [[ $(id -u) -ne 0 ]]; then echo "SKIP: mounting a small tmpfs needs root"; exit 77; fi
work="$(mktemp -d)"
full="$work/full"
mkdir -p "$full"
if ! mount -t tmpfs -o size=64k tmpfs "$full" 2>/dev/null; then
  rmdir "$full"; rm -rf "$work"
  echo "SKIP: cannot mount a tmpfs here (a container without CAP_SYS_ADMIN?)"; exit 77
fi
trap 'umount "$full"; rm -rf "$work"' EXIT
cd "$work"
fail=0 trials=0
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

"$bin" run --system compass-gait --samples 20000 --threads 1 --keep-samples --shard 0/2 --out s0.h5 >/dev/null
"$bin" run --system compass-gait --samples 20000 --threads 1 --keep-samples --shard 1/2 --out s1.h5 >/dev/null
small=(run --system rocking-block --samples 64 --threads 1 --no-sets)
declare -A cmd
cmd[run]="run --system compass-gait --samples 20000 --threads 1 --keep-samples"
cmd[merge]="merge s0.h5 s1.h5"
cmd[sweep]="sweep --model jia --system ramone --ratios 3000"
for name in run merge sweep; do
  read -r -a args <<<"${cmd[$name]}"
  for previous in no yes; do
    trials=$((trials + 1))
    rm -f "$full"/*
    [[ $previous == yes ]] && "$bin" "${small[@]}" --out "$full/out.h5" >/dev/null && cp "$full/out.h5" prev.h5
    "$bin" "${args[@]}" --out "$full/out.h5" >out.txt 2>err.txt
    rc=$?
    [[ $rc -eq 2 ]] || bad "$name (previous file: $previous): exit $rc, want 2"
    grep -q "out.h5: no space left on the device" err.txt || bad "$name: message: $(head -2 err.txt)"
    if [[ $previous == yes ]]; then
      cmp -s prev.h5 "$full/out.h5" || bad "$name: the previous file was changed"
    fi
    left="$(cd "$full" && ls | grep -v '^out.h5$')"
    [[ -z $left ]] || bad "$name (previous file: $previous): left behind: $left"
    [[ $previous == no && -e $full/out.h5 ]] && bad "$name: wrote a file on a full disk"
  done
done

# batch: the parts written before the disk filled stay complete; more space, --resume finishes.
trials=$((trials + 1))
rm -f "$full"/*
mount -o remount,size=512k "$full"  # room for a few part files
job=(batch --system compass-touchdown --vary angle=2.3:2.9:40 --samples 256 --threads 1
     --holdout 0 --part-states 2 --out "$full/b.h5")
"$bin" "${job[@]}" >out.txt 2>err.txt
rc=$?
[[ $rc -eq 2 ]] || bad "batch: exit $rc, want 2"
grep -q "no space left on the device" err.txt || bad "batch: message: $(head -2 err.txt)"
ls "$full"/b.h5.parts/*.tmp-* >/dev/null 2>&1 && bad "batch: a temporary part left behind"
parts=("$full"/b.h5.parts/part-*.h5)
[[ -e ${parts[0]} ]] || bad "batch: no part file was written before the disk filled"
for p in "${parts[@]}"; do
  "$py" -c "import h5py, sys; h5py.File(sys.argv[1], 'r')['/states/index'][()]" "$p" ||
    bad "batch: part $p is not a complete file"
done
mount -o remount,size=64m "$full"
"$bin" "${job[@]}" --resume >/dev/null 2>err.txt || bad "batch: --resume after freeing space: $(head -2 err.txt)"
"$bin" "${job[@]/$full\/b.h5/ref.h5}" >/dev/null 2>&1
"$py" "$compare" ref.h5 "$full/b.h5" >/dev/null || bad "batch: the resumed file differs from a whole run"
if ((fail > 0)); then echo "$fail failures"; exit 1; fi
echo "disk full: all $trials trials exit 2 with the message and leave no partial file"
