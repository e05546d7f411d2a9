#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, builds examples/cpp-consumer against it (a copy
# outside the source tree) and checks: every module's headers and imported target are installed,
# the consumer's volume equals `impactset run --json`'s hull_volume for the same seed and samples,
# no private dependency reaches the consumer's include paths or definitions (nor the build's
# IMPACTSET_ENABLE_ASSERTS), no private header
# (internal/) is installed, and every installed header compiles alone, as a consumer's first
# include, with -Wall -Wextra -Wconversion -Werror.
# Usage: install_test.sh <cmake> <build dir> <source dir> <C compiler> <C++ compiler> [headers]
# With `headers`, only the installed headers are checked (a second CTest test, so that the two
# halves run side by side).
set -euo pipefail
cmake="$1"
build="$(realpath "$2")"
src="$(realpath "$3")"
cc="$4"
cxx="$5"
mode="${6:-consumer}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
samples=2048  # a few thousand: a 2-D hull of a few dozen net points, in well under a second
seed=11
modules=(common lcp impact laws systems robots simulators sampling setapprox data sets catalog engine
         compare rollouts batch distributed)
fail() { echo "FAIL: $*" >&2; exit 1; }
quiet() { "$@" >"$work/log" 2>&1 || { cat "$work/log" >&2; fail "$*"; }; }
# Every installed header alone, with the consumer's own compile flags (its compile command for
# main.cpp: the installed include path, C++20, Eigen as a system header).
check_headers() {
  local flags
  flags="$(/usr/bin/python3 -c '
import json, shlex, sys
entry = json.load(open(sys.argv[1]))[0]
args, keep, skip = shlex.split(entry["command"]), [], False
for a in args[1:]:
    if skip:
        skip = False
    elif a in ("-o", "-c"):  # the object and the source
        skip = True
    else:
        keep.append(a)
print(shlex.join([args[0]] + keep))' "$work/consumer-build/compile_commands.json")"
  (cd "$prefix/include" && find impactset -name '*.hpp' | sort) >"$work/headers.txt"
  [[ -s "$work/headers.txt" ]] || fail "no headers installed"
  export flags work
  # shellcheck disable=SC2016  # expanded by the inner shell
  xargs -P "$(nproc)" -I{} bash -c 'tu="$work/$(echo {} | tr / _).cpp"
    echo "#include <{}>" >"$tu"
    $flags -Wall -Wextra -Wconversion -Werror -fsyntax-only "$tu" >"$tu.log" 2>&1 ||
      { echo "FAIL: {} does not compile alone:" >&2; head -20 "$tu.log" >&2; exit 255; }' \
    <"$work/headers.txt" || fail "installed headers that do not compile alone"
  echo "$(wc -l <"$work/headers.txt") installed headers compile alone"
}

quiet "$cmake" --install "$build" --prefix "$prefix"
targets="$(ls "$prefix"/lib*/cmake/impactset/impactsetTargets.cmake)"
for m in "${modules[@]}"; do
  grep -q "^add_library(impactset::$m " "$targets" || fail "no imported target impactset::$m"
  for h in "$src/src/impactset/$m"/*.hpp; do
    [[ -f "$prefix/include/impactset/$m/$(basename "$h")" ]] || fail "$m/$(basename "$h") not installed"
  done
done
[[ -f "$prefix/include/impactset/common/version.hpp" ]] || fail "common/version.hpp not installed"
# The build's assertion setting stays the build's: no exported target forces it on consumers.
if grep -q "IMPACTSET_ENABLE_ASSERTS" "$(dirname "$targets")"/impactsetTargets*.cmake; then
  fail "the exported targets define IMPACTSET_ENABLE_ASSERTS for consumers"
fi
for d in "$prefix"/include/impactset/*/internal; do
  [[ ! -e "$d" ]] || fail "private headers installed: ${d#"$prefix/include/"}"
done

cp -r "$src/examples/cpp-consumer" "$work/consumer"
quiet "$cmake" -S "$work/consumer" -B "$work/consumer-build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
grep -qx "impactset_DIR:PATH=$prefix/lib.*/cmake/impactset" "$work/consumer-build/CMakeCache.txt" ||
  fail "the consumer did not find the installed package"
if [[ $mode == headers ]]; then
  check_headers
  exit 0
fi
quiet "$cmake" --build "$work/consumer-build"
"$work/consumer-build/rocking_block_volume" "$samples" "$seed" >"$work/consumer.txt" ||
  fail "consumer exited with $?"
(cd "$work" && "$prefix/bin/impactset" run --system rocking-block --samples "$samples" \
  --seed "$seed" --json --out run.h5 >run.json) || fail "impactset run exited with $?"

/usr/bin/python3 - "$work" "$prefix" "$src" <<'PY'
import json, os, re, shlex, sys
work, prefix, src = sys.argv[1:4]
errors = []
# The volume: the same library, seed and samples give the same double.
line = [l for l in open(f"{work}/consumer.txt") if l.startswith("post-impact contact hull volume:")]
run = json.load(open(f"{work}/run.json"))
if len(line) != 1 or run["hull_status"] != "computed" or not run["hull_volume"] > 0:
    errors.append(f"consumer printed {line}, run gave {run['hull_status']} {run['hull_volume']}")
elif float(line[0].split(":")[1]) != run["hull_volume"]:
    errors.append(f"consumer volume {line[0].split(':')[1].strip()} != run {run['hull_volume']!r}")
# Include paths and definitions of the consumer's compile commands.
commands = json.load(open(f"{work}/consumer-build/compile_commands.json"))
if not commands:
    errors.append("empty compile_commands.json")
private = re.compile(r"siconos|qhull|hdf5|h5_|sundials|cvode|nvector|tbb", re.I)
for entry in commands:
    args = shlex.split(entry["command"])
    includes, defines = [], []
    for i, a in enumerate(args):
        for flag in ("-I", "-isystem", "-iquote", "-idirafter"):
            if a == flag:
                includes.append(args[i + 1])
        if a.startswith("-I") and len(a) > 2:
            includes.append(a[2:])
        if a.startswith("-D"):
            defines.append(a[2:])
    real = [os.path.realpath(p) for p in includes]
    if os.path.realpath(f"{prefix}/include") not in real:
        errors.append(f"{entry['file']}: no -I of the installed headers in {includes}")
    for p in real:
        outside = p[len(work):] if p.startswith(work) else p
        if p == src or p.startswith(src + "/"):
            errors.append(f"{entry['file']}: include path into the source tree: {p}")
        if private.search(outside) or p == "/usr/include":
            errors.append(f"{entry['file']}: include path of a private dependency: {p}")
    errors += [f"{entry['file']}: private definition -D{d}" for d in defines
               if private.search(d) or d.startswith("IMPACTSET_ENABLE_ASSERTS")]
for e in errors:
    print("FAIL:", e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY

