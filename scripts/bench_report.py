#!/usr/bin/python3
"""The report side of scripts/bench.sh (standard library only).

    bench_report.py start --raw DIR --root ROOT --build BUILD --quick 0|1 --rounds N
        records the machine, the build and the revision (DIR/meta.json)
    bench_report.py exec --raw DIR --name NAME [--allow-fail] [--env K=V ...] -- COMMAND...
        runs COMMAND in DIR/work, keeps its stdout and stderr, and appends its wall time, peak
        memory and exit status to DIR/records.jsonl; a failure stops the run unless --allow-fail
    bench_report.py write --raw DIR --out-dir OUT
        reads DIR back and writes OUT/README.md and OUT/report.json

Record names are NAME[:ROUND]; repeated rounds of a name are reduced to medians. bench.sh decides
what runs and with which counts; this file knows how to read each program's output and what the
targets are (the constants below and the sections' text).
"""
import argparse
import datetime
import glob
import json
import os
import platform
import re
import resource
import shlex
import statistics
import subprocess
import sys
import time

# --- Targets (the figures bench/README.md states) -----------------------------------------------
LCP_TARGET_RATIO = 10.0           # native >= 10x Siconos per solve
LCP_WARM_TARGET_BANKS = ("10", "10c", "25")  # the paper examples' step LCPs, warm-started
SAMPLER_TARGET_RATE = 1.5e6       # rocking block >= 1.5 M samples/s (sampling) on 2 cores, native solver
SAMPLER_TARGET_VS_SICONOS = 5.0   # native >= 5x the Siconos build (whole sampler)
EFFICIENCY_TARGET = 0.9           # 2-thread parallel efficiency
PEAK_MEMORY_TARGET_MB = 200.0     # peak resident memory of a run without --keep-samples
PAPER_TOTAL_TARGET_S = 10.0       # the five paper examples at the paper's counts, with sets
SETS_RATIO_TARGET = 1.20          # whole run with sets / --no-sets
CUBE_RATE_TARGET = 1e5            # cube-flat --no-sets, 2 threads
CUBE_SETS_TARGET = 1.0            # cube-flat: (time with sets - time without) / time without
QUADRUPED_TARGET_S = 10.0         # quadruped 2^16 samples with com and base sets
BATCH_TARGET_S = 300.0            # 10^4 states x 4096 samples with sets and features
PY_ONE_SAMPLE_TARGET_US = 50.0    # impactset.sample(p, samples=1)
PY_OVERHEAD_64_TARGET = 0.10      # Python over C++ at 64 samples
COMPLIANT_TARGET_S = 1.0          # one compliant run, any stiffness 1e6 ... 1e11 ("in seconds")
CENSUS_FALLBACK_TARGET = 0.001    # < 0.1 % fallbacks, no unresolved step
FAMILY_CAPPED_TARGET = 0.001      # random impact problems: <= 0.1 % of samples step-capped

PAPER_SYSTEMS = ["rocking-block", "compass-gait", "box-wall", "ramone", "disk-stack"]
PAPER_LABELS = {"rocking-block": "rocking block", "compass-gait": "compass gait",
                "box-wall": "box–wall", "ramone": "RAMone", "disk-stack": "disk stack"}
SCENES = ["cube-flat", "cube-edge", "rocking-block-3d", "quadruped"]
LCP_BANKS = [("4", "1,024 Anitescu–Potra LCPs of one rocking-block corner, random approach and slip"),
             ("10", "Routh steps of the rocking block (h = 0.3), iid p"),
             ("10c", "Routh steps of the compass gait, iid p"),
             ("25", "Routh steps of the disk stack (h = 1)"),
             ("28", "a unit cube (mass 1, inertia 1/6) falling flat on its four corners while "
                    "tilting and sliding, k = 4, μ = 0.6, h = 0.1, N = 40 (built in the program)"),
             ("44", "the same cube with k = 8"),
             ("56", "a random well-posed 8-contact, 12-dof problem (M = R Rᵀ + I), k = 4, μ = 0.5, "
                    "h = 0.1, N = 60"),
             ("88", "the same 8-contact problem with k = 8")]
CENSUS_SIZES = {"rocking-block": 10, "compass-gait": 10, "disk-stack": 25, "disk-stack-authors": 25,
                "cube-flat": 28, "cube-edge": 14, "rocking-block-3d": 28, "quadruped": 28,
                "humanoid": 56}
CENSUS_3D = {"cube-flat", "cube-edge", "rocking-block-3d", "quadruped", "humanoid"}


# =================================================================================================
# start / exec
# =================================================================================================
def read_file(path, default=""):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return default


def cmake_cache(build):
    cache = {}
    for line in read_file(os.path.join(build, "CMakeCache.txt")).splitlines():
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_\-]*):[A-Z]+=(.*)$", line)
        if m:
            cache[m.group(1)] = m.group(2)
    return cache


def compiler_description(build, cache):
    path = cache.get("CMAKE_CXX_COMPILER", "")
    ident = version = ""
    for f in sorted(glob.glob(os.path.join(build, "CMakeFiles", "*", "CMakeCXXCompiler.cmake"))):
        text = read_file(f)
        m = re.search(r'set\(CMAKE_CXX_COMPILER_ID "([^"]*)"\)', text)
        ident = m.group(1) if m else ident
        m = re.search(r'set\(CMAKE_CXX_COMPILER_VERSION "([^"]*)"\)', text)
        version = m.group(1) if m else version
    if not version and path:
        try:
            version = subprocess.run([path, "--version"], capture_output=True, text=True,
                                     timeout=10).stdout.splitlines()[0]
        except (OSError, IndexError, subprocess.SubprocessError):
            pass
    names = {"GNU": "g++", "Clang": "clang++", "AppleClang": "Apple clang++", "IntelLLVM": "icpx"}
    label = f"{names.get(ident, ident or path)} {version}".strip()
    return {"path": path, "id": ident, "version": version, "label": label}


def machine_description():
    cpuinfo = read_file("/proc/cpuinfo")
    models = re.findall(r"^model name\s*:\s*(.*)$", cpuinfo, re.M)
    mhz = re.findall(r"^cpu MHz\s*:\s*([0-9.]+)$", cpuinfo, re.M)
    mem = re.search(r"^MemTotal:\s*(\d+) kB", read_file("/proc/meminfo"), re.M)
    os_release = dict(re.findall(r'^([A-Z_]+)="?([^"\n]*)"?$', read_file("/etc/os-release"), re.M))
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {
        "cpu_model": models[0].strip() if models else platform.processor() or "unknown",
        "cpu_mhz": round(float(mhz[0])) if mhz else None,
        "logical_cpus": len(models) or os.cpu_count(),
        "usable_cpus": usable,
        "memory_gib": round(int(mem.group(1)) / 1048576, 1) if mem else None,
        "os": os_release.get("PRETTY_NAME", platform.system()),
        "kernel": platform.release(),
        "python": platform.python_version(),
    }


def git_description(root):
    def git(*args):
        try:
            r = subprocess.run(["git", "--no-optional-locks", "-C", root, *args],
                               capture_output=True, text=True, timeout=30)
            return r.stdout.strip() if r.returncode == 0 else None
        except (OSError, subprocess.SubprocessError):
            return None
    rev = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no")
    return {"revision": rev, "short": rev[:10] if rev else None,
            "dirty": bool(status) if status is not None else None,
            "modified_files": len(status.splitlines()) if status else 0}


def cmd_start(a):
    os.makedirs(a.raw, exist_ok=True)
    cache = cmake_cache(a.build)
    build_type = cache.get("CMAKE_BUILD_TYPE", "")
    flags = " ".join(x for x in (cache.get("CMAKE_CXX_FLAGS", ""),
                                 cache.get(f"CMAKE_CXX_FLAGS_{build_type.upper()}", "")) if x)
    meta = {
        "quick": a.quick == "1",
        "rounds": a.rounds,
        "root": os.path.realpath(a.root),
        "build": os.path.realpath(a.build),
        "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "started_monotonic": time.monotonic(),
        "load_average_start": list(os.getloadavg()),
        "machine": machine_description(),
        "build_info": {
            "build_type": build_type,
            "cxx_flags": flags,
            "compiler": compiler_description(a.build, cache),
            "options": {k: v for k, v in sorted(cache.items())
                        if k.startswith("IMPACTSET_") and v in ("ON", "OFF")},
        },
        "git": git_description(a.root),
    }
    with open(os.path.join(a.raw, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)


def cmd_exec(a):
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not command:
        sys.exit("bench_report.py exec: no command")
    out_dir = os.path.join(a.raw, "out")
    work = os.path.join(a.raw, "work")
    os.makedirs(out_dir, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", a.name)
    index = len(read_file(os.path.join(a.raw, "records.jsonl")).splitlines())
    stdout_path = os.path.join(out_dir, f"{index:03d}-{stem}.stdout")
    stderr_path = os.path.join(out_dir, f"{index:03d}-{stem}.stderr")
    env = dict(os.environ)
    extra = dict(e.split("=", 1) for e in a.env)
    env.update(extra)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        t0 = time.perf_counter()
        try:
            p = subprocess.Popen(command, stdout=out, stderr=err, cwd=work, env=env)
        except OSError as e:
            sys.exit(f"bench.sh: cannot run {command[0]}: {e}")
        rc = p.wait()
        wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    record = {"name": a.name, "argv": command, "env": extra, "rc": rc, "wall_s": wall,
              "user_s": after.ru_utime - before.ru_utime, "sys_s": after.ru_stime - before.ru_stime,
              "max_rss_kib": after.ru_maxrss, "load_average": list(os.getloadavg()),
              "stdout": os.path.relpath(stdout_path, a.raw),
              "stderr": os.path.relpath(stderr_path, a.raw)}
    with open(os.path.join(a.raw, "records.jsonl"), "a") as f:
        f.write(json.dumps(record) + "\n")
    if rc != 0 and not a.allow_fail:
        tail = read_file(stderr_path).strip().splitlines()[-15:]
        print(f"bench.sh: '{a.name}' failed (exit status {rc}): {shlex.join(command)}",
              file=sys.stderr)
        for line in tail:
            print(f"  | {line}", file=sys.stderr)
        sys.exit(1)


# =================================================================================================
# Reading the outputs back
# =================================================================================================
class Run:
    """Everything bench.sh recorded, grouped by name (rounds together)."""

    def __init__(self, raw):
        self.raw = raw
        with open(os.path.join(raw, "meta.json")) as f:
            self.meta = json.load(f)
        self.records = []
        for line in read_file(os.path.join(raw, "records.jsonl")).splitlines():
            if line.strip():
                r = json.loads(line)
                r["stdout_text"] = read_file(os.path.join(raw, r["stdout"]))
                r["group"] = re.sub(r":\d+$", "", r["name"])
                self.records.append(r)
        self.quick = self.meta["quick"]
        self.root = self.meta["root"]
        self.build = self.meta["build"]

    def group(self, name):
        return [r for r in self.records if r["group"] == name]

    def one(self, name):
        g = self.group(name)
        return g[0] if g else None

    def display(self, record):
        """The command as a reader types it from the repository root."""
        rel_build = os.path.relpath(self.build, self.root)
        build = rel_build if not rel_build.startswith("..") else "$BUILD_DIR"

        def fix(s):
            s = s.replace(self.build + "/", build + "/").replace(self.build, build)
            return s.replace(self.root + "/", "")
        env = " ".join(f"{k}={fix(v)}" for k, v in record.get("env", {}).items())
        text = shlex.join(fix(x) for x in record["argv"])
        text = text.replace("'$BUILD_DIR/", "\"$BUILD_DIR\"'/")
        return f"{env} {text}".strip()

    def json_run(self, record):
        try:
            return json.loads(record["stdout_text"])
        except (json.JSONDecodeError, KeyError):
            return None


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def gbench(record):
    """Google Benchmark JSON -> {run_name: {ns, reps, iterations, counters{...}, failures}} from
    the per-repetition rows (medians over repetitions; failure counts summed)."""
    if record is None:
        return {}, {}
    try:
        data = json.loads(record["stdout_text"])
    except json.JSONDecodeError:
        return {}, {}
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    rows = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration":
            continue
        rows.setdefault(b["run_name"], []).append(b)
    out = {}
    for name, reps in rows.items():
        ok = [b for b in reps if not b.get("error_occurred")]
        if not ok:
            out[name] = {"error": reps[0].get("error_message", "error")}
            continue
        fixed = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
                 "repetitions", "repetition_index", "threads", "iterations", "real_time",
                 "cpu_time", "time_unit", "error_occurred", "error_message"}
        counters = {}
        for key in sorted({k for b in ok for k in b if k not in fixed}):
            vals = [b[key] for b in ok
                    if isinstance(b.get(key), (int, float)) and b[key] == b[key]]  # not NaN
            counters[key] = median(vals)
        row = {"ns": median([b["real_time"] * scale.get(b.get("time_unit", "ns"), 1.0) for b in ok]),
               "cpu_ns": median([b["cpu_time"] * scale.get(b.get("time_unit", "ns"), 1.0)
                                 for b in ok]),
               "repetitions": len(ok), "iterations": sum(b["iterations"] for b in ok),
               "counters": counters}
        if "failures" in counters:
            row["failures"] = sum(b.get("failures", 0) for b in ok)
        out[name] = row
    return out, data.get("context", {})


# =================================================================================================
# Formatting
# =================================================================================================
DASH = "–"


def f_ns(x):
    if x is None:
        return DASH
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def f_rate(x):
    if x is None:
        return DASH
    if x >= 1e6:
        return f"{x / 1e6:.2f} M/s"
    if x >= 1e4:
        return f"{x / 1e3:.0f} k/s"
    if x >= 1e3:
        return f"{x / 1e3:.1f} k/s"
    return f"{x:.0f}/s"


def f_s(x):
    if x is None:
        return DASH
    if x >= 100:
        return f"{x:.0f} s"
    return f"{x:.1f} s" if x >= 10 else f"{x:.2f} s"


def f_ms(x):
    if x is None:
        return DASH
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.1f}" if x >= 1 else f"{x:.2f}"


def f_ratio(x, digits=2):
    return DASH if x is None else f"{x:.{digits}f}"


def f_int(x):
    return DASH if x is None else f"{x:,.0f}"


def pow2(k):
    if k and k & (k - 1) == 0:
        return f"2^{k.bit_length() - 1}"
    if k and k % 10 == 0 and re.fullmatch(r"10*", str(k)) and k >= 1000:
        return f"10^{len(str(k)) - 1}"
    return f"{k:,}"


def div(a, b):
    return a / b if a is not None and b not in (None, 0) else None


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


class Report:
    def __init__(self, run):
        self.run = run
        self.quick = run.quick
        self.targets = []   # {section, target, measured, met}
        self.data = {}      # report.json's "results"

    # A target's verdict: True / False / None (not measured).
    def target(self, section, text, measured, met):
        self.targets.append({"section": section, "target": text, "measured": measured,
                             "met": met})
        return self.verdict(met)

    @staticmethod
    def verdict(met):
        if met is None:
            return "not measured"
        return "met" if met else "**not met**"

    def commands(self, records, note=None):
        seen, lines = set(), []
        for r in records:
            if r is None:
                continue
            c = self.run.display(r)
            if c not in seen:
                seen.add(c)
                lines.append(c)
        if not lines:
            return "(not run)"
        block = "```sh\n" + "\n".join(lines) + "\n```"
        if len(lines) > 12:  # long lists of near-identical runs fold away on GitHub
            block = (f"<details><summary>{len(lines)} commands</summary>\n\n{block}\n\n"
                     "</details>")
        return block + (f"\n\n{note}" if note else "")

    # ---------------------------------------------------------------------------------------------
    def whole(self, group):
        """Median over rounds of a group of impactset runs: wall, samples/s, ..."""
        rs = [(r, self.run.json_run(r)) for r in self.run.group(group)]
        rs = [(r, j) for r, j in rs if j is not None]
        if not rs:
            return None
        j0 = rs[0][1]
        return {"records": [r for r, _ in rs], "rounds": len(rs),
                "wall_s": median([r["wall_s"] for r, _ in rs]),
                "seconds": median([j.get("seconds") for _, j in rs]),
                "sets_seconds": median([j.get("sets_seconds") for _, j in rs]),
                "samples_per_second": median([j.get("samples_per_second") for _, j in rs]),
                "samples": j0.get("samples"), "threads": j0.get("threads"),
                "lcp_solves_mean": j0.get("lcp_solves_mean"),
                "max_rss_mib": max(r["max_rss_kib"] for r, _ in rs) / 1024,
                "states": j0.get("states")}

    def paired_ratio(self, a, b):
        """Median of per-round ratios wall(a)/wall(b) (rounds alternate the two)."""
        ra, rb = self.run.group(a), self.run.group(b)
        ratios = [x["wall_s"] / y["wall_s"] for x, y in zip(ra, rb) if y["wall_s"] > 0]
        return median(ratios)

    # =============================================================================================
    def header(self):
        m = self.run.meta
        mach, b, g = m["machine"], m["build_info"], m["git"]
        date = m["started"][:10]
        rev = g.get("short") or "unknown revision"
        dirty = {True: ", with uncommitted changes", False: ", clean tree", None: ""}[g.get("dirty")]
        mhz = f" ({mach['cpu_mhz'] / 1000:.1f} GHz)" if mach.get("cpu_mhz") else ""
        cpus = mach.get("usable_cpus") or mach.get("logical_cpus")
        opts = b.get("options", {})
        extra = []
        if opts.get("IMPACTSET_ENABLE_ASSERTS") == "ON":
            extra.append("IMPACTSET_ENABLE_ASSERTS on")
        if opts.get("IMPACTSET_SANITIZE") == "ON":
            extra.append("sanitizers on")
        flags = f" `{b['cxx_flags']}`" if b.get("cxx_flags") else ""
        load = "/".join(f"{x:.2f}" for x in m["load_average_start"])
        duration = self.data.get("duration_s")
        lines = [
            "# Benchmarks",
            "",
            "This file is written by `scripts/bench.sh`, which runs the standard set below and "
            "writes it with `bench/report.json` (the same figures, every command with its wall "
            "time, and the machine). Do not edit it by hand: change the script or "
            "`scripts/bench_report.py` and rerun it. The programs in `bench/` measure; they are "
            "not regression tests and nothing here fails a build.",
            "",
            f"**Measured on {date}** on {mach['cpu_model']}{mhz}, {cpus} cores, "
            f"{mach.get('memory_gib')} GiB, {mach['os']} (Linux {mach['kernel']}); "
            f"{b['compiler']['label']}, {b['build_type'] or 'no build type'}{flags}"
            f"{', ' + ', '.join(extra) if extra else ''}; revision `{rev}`{dirty}. "
            f"Load average at the start: {load}."
            + (f" The run took {duration / 60:.1f} minutes." if duration else ""),
        ]
        if self.quick:
            lines += ["", "> **Quick run (`scripts/bench.sh --quick`): every part ran with small "
                      "counts to test the script. The figures are not comparable with a full "
                      "run's and the targets' verdicts below do not judge the code.**"]
        lines += [
            "",
            "To regenerate (from the repository root, Release build in `build/`, otherwise idle "
            "machine):",
            "",
            "```sh",
            "scripts/build.sh                 # builds the benchmarks when libbenchmark-dev is installed",
            "scripts/bench.sh                 # full run: bench/README.md and bench/report.json",
            "scripts/bench.sh --quick --out-dir /tmp/bench-out    # a test of the script, small counts",
            "```",
            "",
            "`BUILD_DIR` selects another build tree; `--rounds N` repeats the whole runs N times "
            "(alternated) and reports medians. Every command below runs from the repository root; "
            "`--out` files are scratch (the script runs them in a temporary directory). On a "
            "2-core machine other load moves wall times by 2–3× and parallel efficiencies by 0.1 or "
            "more: check `uptime` first, and for a comparison of two builds follow "
            "[Comparing two builds fairly](#comparing-two-builds-fairly).",
            "",
            table(["program or script", "measures", "kind"], [
                ["`bench_lcp`", "ns, pivots and failures per LCP solve: native Lemke against "
                 "Siconos", "Google Benchmark"],
                ["`impactset run`", "whole runs: the paper's examples, the 3-D scenes, the "
                 "rocking block at scale", "command line"],
                ["`bench_sets`", "ε-nets, support polytopes, hulls by dimension; the 3-D cube's "
                 "set outputs", "Google Benchmark"],
                ["`bench_sampler`", "samples/s of the sampler; the small call Python makes",
                 "Google Benchmark"],
                ["`impactset batch`", "states/s of a batch over a grid of impact states",
                 "command line"],
                ["`bench_python_calls.py`", "per-call cost of `impactset.sample` against the same "
                 "C++ call", "Python script"],
                ["`bench_python_gil.py`", "two Python threads sampling at once against one (GIL "
                 "released?)", "Python script"],
                ["`bench_compliant`", "wall time of CVODE compliant-contact runs, stiffness 1e6 … "
                 "1e11", "Google Benchmark"],
                ["`lcp_census`", "which link of the fallback chain solves the step LCPs "
                 "Algorithm 1 visits", "plain executable"],
                ["`impact_family`", "LCP failures and step-capped samples on random valid "
                 "impact problems, by problem class", "plain executable"],
                ["`convergence` (with `hull_study.cpp`)", "how fast sampled sets approach the set, "
                 "per LCP solve (not run by the script)", "plain executable"],
                ["`data/cube-flat.json`", "the hand-written 3-D cube used by `bench_sets`",
                 "input"],
            ]),
        ]
        return "\n".join(lines)

    def targets_section(self):
        rows = [[t["section"], t["target"], t["measured"], self.verdict(t["met"])]
                for t in self.targets]
        return "\n".join([
            "## Targets",
            "",
            "Each target with the figure this run measured (details in the sections below)."
            + (" **Quick run: the verdicts judge small counts, not the code.**"
               if self.quick else ""),
            "",
            table(["part", "target", "measured", ""], rows),
        ])

    @staticmethod
    def comparing_section():
        return """## Comparing two builds fairly

1. Build the baseline in its own tree: `git worktree add ../impactset-base REV` and
   `cmake -S ../impactset-base -B build-base -DCMAKE_BUILD_TYPE=Release && cmake --build build-base -j2`.
   `BUILD_DIR=build-base scripts/bench.sh --out-dir /tmp/bench-base` gives the baseline's whole
   report, but two reports taken at different times are not a fair comparison on a shared machine.
2. Check that the change keeps results (when it should): run both binaries with the same seed
   and `--keep-samples --keep-trajectories`, then `tests/cli/compare_h5.py A.h5 B.h5` (it compares
   every dataset's values, not attributes such as the creation time and version).
3. Alternate the two binaries (A B A B …), at least 5 pairs for whole runs, and report the
   median of the per-pair ratios with its min–max, not a ratio of two single runs. For example:

   ```sh
   cmd='apps/impactset run --system rocking-block --samples 1000000 --seed 3 --threads 2 --out cmp.h5'
   for i in 1 2 3 4 5; do
     for b in build-base build; do /usr/bin/time -f "$b %e s %U user" $b/$cmd >/dev/null; done
   done
   ```

   For Google Benchmark programs do the same with one repetition per round
   (`--benchmark_repetitions=1 --benchmark_min_time=0.2 --benchmark_filter=...`) and take medians.
4. For the LCP solver, instruction counts are exact and need no alternation (callgrind, in
   [`bench_lcp`](#bench_lcp-one-lcp-solve-native-lemke-against-siconos)).
5. Parallel efficiency is t1 / (2 t2) from the median of paired ratios of the same binary at
   `--threads 1` and `--threads 2`."""

    # =============================================================================================
    def lcp_section(self):
        rec = self.run.one("lcp")
        rows, _ = gbench(rec)
        self.data["lcp"] = rows
        reps = max((r.get("repetitions", 0) for r in rows.values()), default=0)
        body, met, not_met, warm_met, warm_not_met = [], [], [], [], []
        for bank, what in LCP_BANKS:
            n = rows.get(f"lcp/native/{bank}", {})
            d = rows.get(f"lcp/native-drawn/{bank}", {})
            w = rows.get(f"lcp/native-warm/{bank}", {})
            s = rows.get(f"lcp/siconos/{bank}", {})
            ratio = div(s.get("ns"), n.get("ns"))
            if ratio is not None:
                (met if ratio >= LCP_TARGET_RATIO else not_met).append(f"{bank} ({ratio:.1f}×)")
            warm_ratio = div(s.get("ns"), w.get("ns"))
            if warm_ratio is not None and bank in LCP_WARM_TARGET_BANKS:
                (warm_met if warm_ratio >= LCP_TARGET_RATIO else warm_not_met).append(
                    f"{bank} ({warm_ratio:.1f}×)")
            share = w.get("counters", {}).get("warm")

            def piv(x):
                v = x.get("counters", {}).get("pivots/solve")
                return DASH if v is None else f"{v:.1f}"

            def fails(x):
                if "failures" not in x:
                    return DASH
                return f"{100 * x['failures'] / x['iterations']:.2f} %" if x["failures"] else "0"
            body.append([bank, f_ns(n.get("ns")), f_ns(d.get("ns")), f_ns(w.get("ns")),
                         f_ns(s.get("ns")), f_ratio(ratio, 1), f_ratio(warm_ratio, 1),
                         DASH if share is None else f"{100 * share:.0f} %",
                         f"{piv(n)} / {piv(d)} / {piv(w)} / {piv(s)}",
                         f"{fails(n)} / {fails(d)} / {fails(w)} / {fails(s)}"])

        def outcome(good, bad):
            return "; ".join(x for x in [
                ("≥ 10× at " + ", ".join(good)) if good else "",
                ("below at " + ", ".join(bad)) if bad else ""] if x) or DASH
        verdict_met = None if not (met or not_met) else not not_met
        measured = outcome(met, not_met)
        v = self.target("LCP solve", "native ≥ 10× Siconos (every bank)", measured, verdict_met)
        warm_verdict = None if not (warm_met or warm_not_met) else not warm_not_met
        warm_measured = outcome(warm_met, warm_not_met)
        wv = self.target("LCP solve", "warm-started ≥ 10× Siconos on the paper examples' steps "
                         "(" + ", ".join(LCP_WARM_TARGET_BANKS) + ")", warm_measured, warm_verdict)
        return "\n".join([
            "## `bench_lcp`: one LCP solve, native Lemke against Siconos",
            "",
            "The step LCP is solved millions of times per run, so its cost sets the sampler's speed. "
            "Benchmarks are `lcp/<solver>/<bank>`, each solver timed through the same "
            "`lcp::Solver` interface on the same inputs, input validation and the residual check "
            "of every answer included: `native` is `lcp::LemkeSolver` with covering vector 1; "
            "`native-drawn` solves as Algorithm 1's `random` selection does (covering vector drawn "
            "log-uniformly from [e^-5, e^5], drawn column order); `native-warm` adds Algorithm "
            "1's warm start (a table of bases learned from the bank's first half, which basis "
            "solved the step after which; each step of the second half tries the successors of "
            "the previous step's basis before the drawn path; unlike the sampler's pilot, the "
            "table is not checked against non-unique steps, so a bank whose run drops its table "
            "(the compass gait's) shows what a table could give; counter `warm`: the share of steps "
            "a known basis solved); `siconos` is Siconos' "
            "`linearComplementarity_driver` with `SICONOS_LCP_LEMKE`. Banks are built at start-up "
            "and solved round robin (4,096 recorded step LCPs each unless stated):",
            "",
            table(["bank (LCP size)", "step LCPs of"], [[b, w] for b, w in LCP_BANKS]),
            "",
            "The four solvers run in one process with Google Benchmark's random interleaving of "
            "repetitions, so the ratios are measured side by side:",
            "",
            self.commands([rec]),
            "",
            f"Median ns per solve over {reps} repetition{'s' if reps != 1 else ''}; pivots per "
            "solve; failures are the answers the residual check refuses (no fallback here; "
            "Algorithm 1 then keeps the covering-1 answer), as a share of the solves:",
            "",
            table(["bank", "native", "native-drawn", "native-warm", "Siconos", "Siconos / native",
                   "Siconos / warm", "warm", "pivots per solve (native / drawn / warm / Siconos)",
                   "failures (native / drawn / warm / Siconos)"], body),
            "",
            f"**Target: native ≥ 10× Siconos per solve:** {v}"
            + (f" ({measured})." if verdict_met is not None else "."),
            "",
            "**Target: warm-started ≥ 10× Siconos per step on the paper examples' banks "
            f"({', '.join(LCP_WARM_TARGET_BANKS)}):** {wv}"
            + (f" ({warm_measured})." if warm_verdict is not None else "."),
            "",
            "Other uses of the program (not run by the script):",
            "",
            "```sh",
            "build/bench/bench_lcp --benchmark_filter='lcp/(native|siconos)/(10|25)$'      # a subset",
            "build/bench/bench_lcp --count=native-drawn/28:4096     # SOLVER/BANK:N: N solves, "
            "failures by status",
            "valgrind --tool=callgrind --toggle-collect='*SolveMany*' --callgrind-out-file=/dev/null \\",
            "  build/bench/bench_lcp --count=native/10:8192        # instructions per solve: total / N",
            "```",
            "",
            "Instruction counts (callgrind) are exact and do not depend on the machine's load; use "
            "them to compare two versions of the solver.",
        ])

    # =============================================================================================
    def paper_section(self):
        rows, data = [], {}
        total_sets, total_nosets, total_reach, complete = 0.0, 0.0, 0.0, True
        for system in PAPER_SYSTEMS:
            w = self.whole(f"paper:{system}:sets")
            wo = self.whole(f"paper:{system}:no-sets")
            wr = self.whole(f"paper:{system}:reachable")
            ratio = self.paired_ratio(f"paper:{system}:sets", f"paper:{system}:no-sets")
            eff = {}
            for sets in ("sets", "no-sets"):
                t1 = self.whole(f"efficiency:{system}:{sets}:t1")
                t2 = self.whole(f"efficiency:{system}:{sets}:t2")
                eff[sets] = div(t1 and t1["seconds"], 2 * t2["seconds"] if t2 else None)
                eff[sets + ":k"] = t1["samples"] if t1 else None
            if w is None or wo is None:
                complete = False
            total_sets += w["wall_s"] if w else 0
            total_nosets += wo["wall_s"] if wo else 0
            total_reach += wr["wall_s"] if wr else 0
            k = w["samples"] if w else None
            data[system] = {"with_sets": strip(w), "no_sets": strip(wo),
                            "with_reachable": strip(wr), "ratio": ratio,
                            "efficiency_sets": eff["sets"], "efficiency_no_sets": eff["no-sets"],
                            "efficiency_samples": eff["sets:k"]}
            rmet = None if ratio is None else ratio <= SETS_RATIO_TARGET
            rows.append([f"{PAPER_LABELS[system]}, {pow2(k) if k else DASH}",
                         f_s(w and w["wall_s"]), f_rate(w and w["samples_per_second"]),
                         f_s(wo and wo["wall_s"]), f_rate(wo and wo["samples_per_second"]),
                         f"{f_ratio(ratio)}, {self.verdict(rmet)}" if ratio else DASH,
                         f_s(wr and wr["wall_s"]),
                         f"{f_ratio(eff['sets'])} / {f_ratio(eff['no-sets'])}"
                         + (f" (at {pow2(eff['sets:k'])})" if eff["sets:k"] else ""),
                         f_ratio(w and w["lcp_solves_mean"])])
            self.target("whole runs", f"{PAPER_LABELS[system]}: with sets / `--no-sets` ≤ "
                        f"{SETS_RATIO_TARGET:.2f}", f_ratio(ratio), rmet)
            effs = [e for e in (eff["sets"], eff["no-sets"]) if e is not None]
            self.target("whole runs", f"{PAPER_LABELS[system]}: 2-thread efficiency ≥ "
                        f"{EFFICIENCY_TARGET} with and without sets",
                        f"{f_ratio(eff['sets'])} / {f_ratio(eff['no-sets'])}",
                        None if len(effs) < 2 else min(effs) >= EFFICIENCY_TARGET)
        self.data["paper"] = data
        self.data["paper_total_s"] = {"with_sets": total_sets, "no_sets": total_nosets,
                                      "with_reachable": total_reach}
        tmet = total_sets < PAPER_TOTAL_TARGET_S if complete else None
        v = self.target("whole runs", "the five paper examples at the paper's counts, with sets, "
                        f"< {PAPER_TOTAL_TARGET_S:.0f} s in total", f_s(total_sets), tmet)
        recs = [r for r in self.run.records if r["group"].startswith("paper:")]
        eff_recs = [r for r in self.run.records if r["group"].startswith("efficiency:")]
        return "\n".join([
            "## Whole runs: the paper's examples",
            "",
            "The five examples of the paper at its sample counts, as a user runs them: the "
            "defaults (random selection, no detection of non-unique steps, the post-impact sets: "
            "nets, hulls, hold-out coverage), iid design, 2 threads; then with `--no-sets` and "
            "with `--reachable` (the reachable sets' nets and hulls as well), the three back to "
            "back. Wall time is the whole process (start-up, "
            "sampling, sets, HDF5 output); samples/s is the command's own `samples_per_second` "
            "(sampling only, from `--json`).",
            "",
            self.commands(recs),
            "",
            table(["system, K", "with sets", "samples/s", "`--no-sets`", "samples/s",
                   f"ratio (target ≤ {SETS_RATIO_TARGET:.2f})", "`--reachable`",
                   "2-thread efficiency with sets / without", "LCP solves per sample"], rows),
            "",
            f"The five at the paper's counts take {f_s(total_sets)} with sets "
            f"({f_s(total_nosets)} with `--no-sets`, {f_s(total_reach)} with `--reachable`). "
            f"**Target < {PAPER_TOTAL_TARGET_S:.0f} s:** {v}.",
            "",
            "The 2-thread efficiency is t1 / (2 t2) of the sampling time (`seconds` in `--json`) at "
            "the counts shown, where start-up does not dominate; **target ≥ 0.9** with and without "
            "sets. Its runs:",
            "",
            self.commands(eff_recs),
            "",
            "The reachable sets take one point per step of every sample, so they cost more than "
            "the post-impact sets (docs/performance.md). With `--design sobol-plain` (the "
            "authors' design, "
            "`scripts/reproduce_paper.sh`) the LCP solves per sample can be compared with the "
            "paper's Table 3 (docs/model.md §10).",
        ])

    # =============================================================================================
    def scenes_section(self):
        rows, data = [], {}
        cube_ratio = cube_ratio_post = None
        for scene in SCENES:
            w = self.whole(f"scene:{scene}:sets")
            wo = self.whole(f"scene:{scene}:no-sets")
            wr = self.whole(f"scene:{scene}:reachable")
            ratio = self.paired_ratio(f"scene:{scene}:sets", f"scene:{scene}:no-sets")
            ratio_r = self.paired_ratio(f"scene:{scene}:reachable", f"scene:{scene}:no-sets")
            cost = None if ratio is None else ratio - 1
            cost_r = None if ratio_r is None else ratio_r - 1
            if scene == "cube-flat":
                cube_ratio, cube_ratio_post = cost_r, cost
            data[scene] = {"with_sets": strip(w), "no_sets": strip(wo),
                           "with_reachable": strip(wr), "sets_over_sampling": cost,
                           "four_sets_over_sampling": cost_r}
            k = w["samples"] if w else None
            rows.append([f"{scene}, {pow2(k) if k else DASH}", f_s(w and w["wall_s"]),
                         f_rate(w and w["samples_per_second"]), f_s(w and w["sets_seconds"]),
                         f_s(wo and wo["wall_s"]), f_rate(wo and wo["samples_per_second"]),
                         f_ratio(cost), f_s(wr and wr["wall_s"]), f_ratio(cost_r),
                         f_ratio(w and w["lcp_solves_mean"])])
        t2, t1 = self.whole("cube-throughput:t2"), self.whole("cube-throughput:t1")
        eff = div(t1 and t1["seconds"], 2 * t2["seconds"] if t2 else None)
        quad = self.whole("quadruped-com-base")
        data["cube_throughput"] = {"t1": strip(t1), "t2": strip(t2), "efficiency": eff}
        data["quadruped_com_base"] = strip(quad)
        self.data["scenes"] = data
        rate = t2 and t2["samples_per_second"]
        v1 = self.target("3-D scenes", "cube-flat ≥ 100 k samples/s, `--no-sets`, 2 threads",
                         f_rate(rate), None if rate is None else rate >= CUBE_RATE_TARGET)
        v2 = self.target("3-D scenes", "cube-flat: its four 6-D sets (`--reachable`) no slower "
                         "than sampling ((with sets − without) / without ≤ 1)",
                         f_ratio(cube_ratio),
                         None if cube_ratio is None else cube_ratio <= CUBE_SETS_TARGET)
        qt = quad and quad["wall_s"]
        v3 = self.target("3-D scenes", f"quadruped, {pow2(quad['samples']) if quad else '2^16'} "
                         "samples with `com` and `base` sets, < 10 s", f_s(qt),
                         None if qt is None else qt < QUADRUPED_TARGET_S)
        recs = [r for r in self.run.records if r["group"].startswith("scene:")]
        recs2 = self.run.group("cube-throughput:t2") + self.run.group("cube-throughput:t1")
        recs3 = self.run.group("quadruped-com-base")
        return "\n".join([
            "## The 3-D scenes",
            "",
            "The shipped MuJoCo scenes (`impactset systems`): step LCPs of 14 to 28 rows and sets "
            "of 6 and more dimensions (hulls above `--hull-max-dim`, 6, are skipped), so they show "
            "what the planar examples cannot: the LCP's size and the hulls' dimension. The defaults "
            "(random selection, no detection), 2 threads, with the default sets (post-impact), "
            "without sets and "
            "with `--reachable` (post-impact and reachable sets) back to back; \"sets (finish)\" "
            "is the command's `sets_seconds` (hulls and hold-out after sampling; the nets are "
            "built while sampling), and \"sets / sampling\" is (wall with sets − wall without) / "
            "wall without.",
            "",
            self.commands(recs),
            "",
            table(["scene, K", "with sets", "samples/s", "sets (finish)", "`--no-sets`",
                   "samples/s", "sets / sampling", "`--reachable`", "sets / sampling",
                   "LCP solves per sample"], rows),
            "",
            self.commands(recs2 + recs3),
            "",
            table(["target", "measured", ""], [
                ["cube-flat ≥ 100 k samples/s, `--no-sets`, 2 threads",
                 f"{pow2(t2['samples']) + ' samples, ' if t2 else ''}{f_rate(rate)} "
                 f"({f_s(t2 and t2['wall_s'])} wall); 1 thread {f_rate(t1 and t1['samples_per_second'])}, "
                 f"efficiency {f_ratio(eff)}", v1],
                ["6-D set outputs no slower than sampling (cube-flat, four sets with "
                 "`--reachable`: sets / sampling ≤ 1)",
                 f"{f_ratio(cube_ratio)} (the default's two post-impact sets: "
                 f"{f_ratio(cube_ratio_post)})", v2],
                ["quadruped with `com` and `base` sets < 10 s",
                 f"{f_s(qt)} wall, {f_rate(quad and quad['samples_per_second'])}", v3],
            ]),
            "",
            "What limits the cube: each of its 28×28 step LCPs is solved with a drawn covering "
            "vector (a longer Lemke path than covering 1); `--detect-non-unique` would add a "
            "second, covering-1 solve per step.",
        ])

    # =============================================================================================
    def sets_section(self):
        rec = self.run.one("sets")
        rows, _ = gbench(rec)
        self.data["sets"] = rows

        def find(prefix):
            for name, row in rows.items():
                if name == prefix or name.startswith(prefix + "/"):
                    return row
            return {}

        def counter(row, key, scale=1.0):
            v = row.get("counters", {}).get(key)
            return None if v is None else v * scale
        dims = sorted({int(m.group(1)) for n in rows
                       if (m := re.match(r"^(?:Support|NetQuery|Net|Hull)/(\d+)", n))})
        support = [f_ns(counter(find(f"Support/{d}"), "ns_per_point", 1e9)) for d in dims]
        kd = [counter(find(f"NetQuery/{d}/0"), "ns_per_query", 1e9) for d in dims]
        grid = [counter(find(f"NetQuery/{d}/1"), "ns_per_query", 1e9) for d in dims]
        net_ms = [f_ms(div(find(f"Net/{d}").get("ns"), 1e6)) for d in dims]
        net_pts = [f_int(counter(find(f"Net/{d}"), "net_points")) for d in dims]
        wins = [str(d) for d, a, b in zip(dims, kd, grid) if a and b and b < a]
        loses = [f"{d}-D {b / a:.1f}×" for d, a, b in zip(dims, kd, grid) if a and b and b >= a]
        grid_line = ""
        if wins or loses:
            grid_line = ("The grid hash is faster than the k-d tree in "
                         + (", ".join(f"{d}-D" for d in wins) if wins else "no dimension")
                         + (f" and slower in {', '.join(loses)} (grid / k-d tree)" if loses else "")
                         + "; the paper examples' sets are 3- to 9-dimensional, which is why the "
                         "library keeps the k-d tree.")
        set_names = ["post-impact contact", "post-impact generalized", "reachable contact",
                     "reachable generalized"]
        cube_rows = []
        for i, label in enumerate(set_names):
            cells = []
            for cap in (0, 4000, 1000):
                row = find(f"CubeHull/{i}/{cap}")
                if not row:
                    cells.append(DASH)
                    continue
                cells.append(f"{f_ms(div(row.get('ns'), 1e6))} ms "
                             f"({f_int(counter(row, 'qhull_points'))} pts, "
                             f"{f_int(counter(row, 'vertices'))} vertices)")
            npts = counter(find(f"CubeHull/{i}/0") or find(f"CubeHull/{i}/4000"), "net_points")
            if any(c != DASH for c in cells):
                cube_rows.append([f"{label} ({f_int(npts)} net points)"] + cells)
        cube = [div(find(f"Cube/{m}").get("ns"), 1e9) for m in range(3)]
        hd = [d for d in dims if find(f"Hull/{d}/0") or find(f"Hull/{d}/1")]
        hull_rows = [[f"{d}", f_ms(div(find(f'Hull/{d}/0').get('ns'), 1e6)),
                      f_ms(div(find(f'Hull/{d}/1').get('ns'), 1e6)),
                      f"{f_int(counter(find(f'Hull/{d}/0'), 'vertices'))} / "
                      f"{f_int(counter(find(f'Hull/{d}/1') or find(f'Hull/{d}/0'), 'qhull_points'))}"]
                     for d in hd]
        out = [
            "## `bench_sets`: set outputs by dimension, and the 3-D cube",
            "",
            "The set outputs (ε-nets, support polytopes, hulls, coverage) run on every sample and "
            "every trajectory point; their cost grows with the sets' dimension. Synthetic clouds "
            "are 2^16 outcome-like points (a bent zonotope) in d dimensions, ε = 2 % of the "
            "extent. `Net/d` builds an ε-net; `Support/d` offers 2^16 points to a support polytope "
            "of 2 d + 64 directions in blocks of 4,096; `NetQuery/d/0` asks \"is x within ε of "
            "the net?\" of 2^16 fresh points against the k-d tree snapshot, `/1` against a "
            "grid-hash prototype (cells of side ε, own cell then the 3^d − 1 neighbours); "
            "`Hull/d/p` hulls the net with the candidate-vertex prefilter off (0) or on (1). "
            "`bench/data/cube-flat.json` is a unit cube (mass 1) on four bottom corners, μ = 0.5, "
            "k = 8: step LCP 44×44, generalized sets 6-D, contact sets 12-D of rank 6; "
            "`CubeHull/<set>/<cap>` hulls one of its four nets (2^16 samples) with "
            "`hull_max_points` = cap (0 = never thin), `Cube/<mode>` times its sampling (0), "
            "sampling with the streamed nets of its four sets (1) and the finishing step alone "
            "(2).",
            "",
            self.commands([rec]),
            "",
            table(["d"] + [str(d) for d in dims], [
                ["`Support`, ns per point"] + support,
                ["`NetQuery/d/0` (k-d tree), ns per query"] + [f_ns(x) for x in kd],
                ["`NetQuery/d/1` (grid hash), ns per query"] + [f_ns(x) for x in grid],
                ["`Net`, ms per net"] + net_ms,
                ["`Net`, net points"] + net_pts,
            ]),
        ]
        if grid_line:
            out += ["", grid_line]
        if hull_rows:
            out += ["", "Hull of the cloud's net, ms (prefilter off / on) and vertices / points "
                    "Qhull received with the prefilter:", "",
                    table(["d", "prefilter off", "prefilter on", "vertices / Qhull points"],
                          hull_rows),
                    "",
                    "The prefilter (`ConvexHullOptions::prefilter`, off by default) drops most of "
                    "a net's points but Qhull's work is in the points near the boundary, which it "
                    "keeps."]
            if not self.quick and not any(find(f"Hull/{d}/1") for d in dims if d >= 6):
                out[-1] += " (`Hull/6/1` is left out of the standard run: it takes tens of seconds.)"
        if cube_rows:
            out += ["", "The cube's four hulls by `hull_max_points` (ms; points given to Qhull, "
                    "vertices):", "",
                    table(["set", "cap 0 (never thin)", "cap 4,000", "cap 1,000"], cube_rows),
                    "",
                    "Qhull on 6-D nets spends its time merging nearly coplanar facets; joggled "
                    "input (`QJ`) goes first for hulls of more than 1,000 points in 5 or more "
                    "dimensions (`src/impactset/setapprox/qhull_run.cpp`), nets above `--hull-max-points` "
                    "(20,000) are hulled from a thinned copy, and the four hulls run in parallel."]
        if any(c is not None for c in cube):
            ratio = div(cube[1], cube[0])
            out += ["", table(["cube, 2^16 samples, 2 threads", "sampling (`Cube/0`)",
                               "sampling + nets (`Cube/1`)", "finish only (`Cube/2`)"],
                              [["seconds", f_s(cube[0]), f_s(cube[1]), f_s(cube[2])]])]
            if ratio:
                out[-1] += f"\n\nSampling with nets / sampling alone: {ratio:.2f}."
        return "\n".join(out)

    # =============================================================================================
    def sampler_section(self):
        rec = self.run.one("sampler")
        rows, _ = gbench(rec)
        self.data["sampler"] = rows

        def rate(system, lcp, sel, threads):
            for name, row in rows.items():
                if name.startswith(f"sampler/{system}/{lcp}/{sel}/threads:{threads}"):
                    return row.get("counters", {}).get("samples/s"), row
            return None, {}
        table_rows = []
        for system in ("rocking-block", "compass-gait"):
            for lcp in ("native", "siconos"):
                for sel in ("first", "random", "random-nodetect", "random-nodetect+sets"):
                    r1, _ = rate(system, lcp, sel, 1)
                    r2, _ = rate(system, lcp, sel, 2)
                    if r1 is None and r2 is None:
                        continue
                    table_rows.append([system, lcp, sel, f_rate(r1), f_rate(r2),
                                       f_ratio(div(r2, 2 * r1) if r1 else None)])
        default_rows = []
        for system in ("rocking-block", "compass-gait", "box-wall", "ramone"):
            _, a = rate(system, "native", "default", 2)
            _, b = rate(system, "native", "default+sets", 2)
            if a or b:
                default_rows.append([system, f_ms(div(a.get("ns"), 1e6)),
                                     f_ms(div(b.get("ns"), 1e6)),
                                     f_ratio(div(b.get("ns"), a.get("ns")))])
        n2, _ = rate("rocking-block", "native", "first", 2)
        s2, _ = rate("rocking-block", "siconos", "first", 2)
        vs = div(n2, s2)
        effs = []
        for system in ("rocking-block", "compass-gait"):
            for lcp in ("native", "siconos"):
                for sel in ("first", "random"):
                    r1, _ = rate(system, lcp, sel, 1)
                    r2, _ = rate(system, lcp, sel, 2)
                    if r1 and r2:
                        effs.append(r2 / (2 * r1))

        whole = {k: self.whole(f"rocking-block:{k}") for k in ("default", "detect", "first")}
        self.data["rocking_block_runs"] = {k: strip(v) for k, v in whole.items()}
        first_rate = whole["first"] and whole["first"]["samples_per_second"]
        default_rate = whole["default"] and whole["default"]["samples_per_second"]
        v1 = self.target("sampler", f"rocking block ≥ {SAMPLER_TARGET_RATE / 1e6:g} M samples/s on 2 cores, native "
                         "solver, `--selection first --no-sets` (`samples_per_second`)", f_rate(first_rate),
                         None if first_rate is None else first_rate >= SAMPLER_TARGET_RATE)
        v1b = self.target("sampler", f"rocking block ≥ {SAMPLER_TARGET_RATE / 1e6:g} M samples/s on 2 cores, "
                          "default options (random selection, sets; `samples_per_second`)", f_rate(default_rate),
                          None if default_rate is None else default_rate >= SAMPLER_TARGET_RATE)
        v2 = self.target("sampler", "native ≥ 5× the Siconos build (rocking block, `first`, "
                         "2 threads)", f"{f_ratio(vs, 1)}×" if vs else DASH,
                         None if vs is None else vs >= SAMPLER_TARGET_VS_SICONOS)
        v3 = self.target("sampler", "2-thread efficiency ≥ 0.9 (`bench_sampler` rows)",
                         f"{min(effs):.2f} – {max(effs):.2f}" if effs else DASH,
                         min(effs) >= EFFICIENCY_TARGET if effs else None)
        # Peak memory: every impactset run without --keep-samples.
        peak, peak_rec = None, None
        for r in self.run.records:
            argv = r["argv"]
            if len(argv) > 1 and argv[1] == "run" and argv[0].endswith("impactset") \
                    and "--keep-samples" not in argv:
                if peak is None or r["max_rss_kib"] > peak:
                    peak, peak_rec = r["max_rss_kib"], r
        peak_mib = peak / 1024 if peak is not None else None
        self.data["peak_memory_mib"] = {"value": peak_mib,
                                        "command": self.run.display(peak_rec) if peak_rec else None}
        rb_mem = whole["first"] and whole["first"]["max_rss_mib"]
        v4 = self.target("sampler", "peak memory of a run without `--keep-samples` < 200 MB "
                         "(largest of every `impactset run` above)",
                         f"{peak_mib:.1f} MiB" if peak_mib is not None else DASH,
                         None if peak_mib is None
                         else peak_mib * 1048576 < PEAK_MEMORY_TARGET_MB * 1e6)
        whole_rows = []
        labels = {"default": "defaults (random selection, sets)",
                  "detect": "`--detect-non-unique`",
                  "first": "`--selection first --no-sets`"}
        for k, w in whole.items():
            if w:
                whole_rows.append([labels[k], f_rate(w["samples_per_second"]), f_s(w["wall_s"]),
                                   f"{w['max_rss_mib']:.1f} MiB"])
        k = next((w["samples"] for w in whole.values() if w), None)
        return "\n".join([
            "## `bench_sampler`: samples per second",
            "",
            "How fast Algorithm 2 samples, by LCP solver, selection and threads, without the "
            "command line around it. `sampler/<system>/<lcp>/<selection>/threads:T` runs "
            "`sampling::RunSampler` on 2^18 samples (iid, the paper's h and N) for the rocking "
            "block and the compass gait, native or Siconos, `first` or `random` (with detection), "
            "1 or 2 threads; `random-nodetect[+sets]` is the random selection without the "
            "detection solve, with the run's sets when `+sets`; `default[+sets]/threads:2` is the "
            "random selection with detection and the native chain on the rocking block, compass "
            "gait, box–wall and RAMone, with and without the set builder. Counter `samples/s` "
            "(wall clock). `call/rocking-block/samples:K` (one small call as `impactset.sample` "
            "makes it) is run by the Python part.",
            "",
            self.commands([rec]),
            "",
            f"Medians over the repetitions (one run of 2^18 samples each):",
            "",
            table(["system", "lcp", "selection", "1 thread", "2 threads", "efficiency"],
                  table_rows),
            "",
            "The set builder's cost in the sampler (`default` against `default+sets`, 2 threads, "
            "ms per 2^18 samples):",
            "",
            table(["system", "without sets", "with sets", "ratio"], default_rows),
            "",
            f"Whole runs of the rocking block, {pow2(k) if k else DASH} samples, 2 threads "
            "(samples/s is `samples_per_second` from `--json`; peak memory is the process's "
            "maximum resident set):",
            "",
            self.commands(self.run.group("rocking-block:default")
                          + self.run.group("rocking-block:detect")
                          + self.run.group("rocking-block:first")),
            "",
            table(["options", "samples/s", "wall", "peak memory"], whole_rows),
            "",
            "Targets:",
            f"- Rocking block ≥ 1 M samples/s on 2 cores, native solver: with `--selection first "
            f"--no-sets` {f_rate(first_rate)}, {v1}; with the defaults {f_rate(default_rate)}, "
            f"{v1b}.",
            f"- Native ≥ 5× the Siconos build (rocking block, `first`, 2 threads): "
            f"{f_ratio(vs, 1)}×, {v2}. The rest of a sample (Delassus blocks, velocity updates) "
            "is common to both.",
            f"- Parallel efficiency ≥ 0.9 at 2 threads: {v3} "
            f"({min(effs):.2f} – {max(effs):.2f} over the rows above)." if effs else
            f"- Parallel efficiency ≥ 0.9 at 2 threads: {v3}.",
            f"- Peak memory without `--keep-samples` < 200 MB: "
            f"{f'{peak_mib:.1f} MiB' if peak_mib is not None else DASH}, the largest over every "
            f"`impactset run` of this report, {v4}"
            + (f" (rocking block {rb_mem:.1f} MiB)" if rb_mem else "")
            + ". A sample allocates nothing once a thread's workspaces are sized (test "
            "`sampling_no_allocation_tests`).",
            "",
            "The random selection solves each step with a drawn covering vector, whose Lemke path "
            "is longer than the covering-1 path and decides which solution is kept "
            "(docs/model.md §9); `--detect-non-unique` adds a covering-1 solve per step to flag "
            "non-unique steps.",
        ])

    # =============================================================================================
    def batch_section(self):
        main = self.whole("batch")
        t1, t2 = self.whole("batch-efficiency:t1"), self.whole("batch-efficiency:t2")
        eff = div(t1 and t1["wall_s"], 2 * t2["wall_s"] if t2 else None)

        def row(label, w):
            if not w:
                return [label, DASH, DASH, DASH, DASH, DASH]
            per_state = div(w["samples"], w["states"])
            return [label, f"{f_int(w['states'])} × {f_int(per_state)}", f_s(w["wall_s"]),
                    f"{w['states'] / w['wall_s']:.1f}/s", f_rate(div(w["samples"], w["wall_s"])),
                    f"{w['max_rss_mib']:.0f} MiB"]
        self.data["batch"] = {"main": strip(main), "t1": strip(t1), "t2": strip(t2),
                              "efficiency": eff}
        wall = main and main["wall_s"]
        is_target = bool(main and main["states"] == 10000 and
                         div(main["samples"], main["states"]) == 4096)
        measured = f_s(wall) + ("" if is_target or not main else
                                f" ({f_int(main['states'])} states)")
        v = self.target("batches", "10^4 states × 4,096 samples with sets and features, 2 threads, "
                        "< 5 minutes", measured,
                        None if wall is None else wall < BATCH_TARGET_S)
        recs = self.run.group("batch") + self.run.group("batch-efficiency:t1") \
            + self.run.group("batch-efficiency:t2")
        return "\n".join([
            "## Batches",
            "",
            "`impactset batch` runs Algorithm 2 over a design of impact states into one file "
            "(sets and the learning features per state), the workload of docs/cluster.md and "
            "docs/python.md's learning example. The compass gait at touchdown over a grid of "
            "inter-leg angles and angular rates, no hold-out; timed as whole processes:",
            "",
            self.commands(recs),
            "",
            table(["run", "states × samples", "wall", "states/s", "samples/s", "peak memory"],
                  [row("grid, 2 threads", main), row("efficiency grid, 1 thread", t1),
                   row("efficiency grid, 2 threads", t2)]),
            "",
            f"Threads 1 → 2 in one process: efficiency {f_ratio(eff)}. **Target: 10^4 states × "
            f"4,096 samples in 5 minutes:** {v}"
            + (f" ({f_s(wall)})." if wall is not None else "."),
            "docs/cluster.md has the scaling over MPI ranks (`mpirun -n 1` → `-n 2`).",
        ])

    # =============================================================================================
    def python_section(self):
        calls, gil = self.run.one("python-calls"), self.run.one("python-gil")
        rows, one, over = [], None, None
        if calls:
            for line in calls["stdout_text"].splitlines():
                m = re.match(r"^\|\s*(\d+)\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|",
                             line)
                if m:
                    rows.append([m.group(1), m.group(2), m.group(3), m.group(4)])
                    if m.group(1) == "1":
                        one = float(m.group(3))
                    if m.group(1) == "64":
                        over = float(m.group(3)) / float(m.group(2)) - 1
        speedup, ratios = None, []
        if gil:
            m = re.search(r"speedup ([\d.]+).*?one: ([\d., ]+)", gil["stdout_text"])
            if m:
                speedup = float(m.group(1))
                ratios = [float(x) for x in m.group(2).replace(" ", "").split(",") if x]
        self.data["python"] = {"calls": rows, "one_sample_us": one, "overhead_64": over,
                               "gil": {"library_speedup": speedup, "two_over_one": ratios}}
        v1 = self.target("Python", "`impactset.sample(p, samples=1)` ≤ 50 µs",
                         f"{one:.1f} µs" if one is not None else DASH,
                         None if one is None else one <= PY_ONE_SAMPLE_TARGET_US)
        v2 = self.target("Python", "at 64 samples ≤ 10 % over the C++ call",
                         f"{100 * over:.1f} %" if over is not None else DASH,
                         None if over is None else over <= PY_OVERHEAD_64_TARGET)
        out = [
            "## Python overhead",
            "",
            "Small calls from Python (the learning and planning use) must cost little more than "
            "the same C++ call. `bench_python_calls.py` alternates `impactset.sample(p, "
            "samples=K)` with `bench_sampler`'s `call/rocking-block/samples:K` (the problem's "
            "options, kept samples, no sets; mean time per call, medians of the rounds) and prints "
            "the table below; `bench_python_gil.py` times two Python threads sampling at once "
            "against one: about 1 when the GIL is released, 2 when it is held.",
            "",
            self.commands([calls, gil], note="(A `--quick` run imports the scripts and lowers "
                          "their loop counts.)" if self.quick else None),
            "",
            table(["samples", "C++ call (us)", "Python call (us)", "Python / C++"], rows)
            if rows else "(no table: the script's output was not understood)",
            "",
            f"**Targets:** one sample in ≤ 50 µs: {v1}"
            + (f" ({one:.1f} µs)" if one is not None else "")
            + f"; ≤ 10 % over C++ at 64 samples: {v2}"
            + (f" ({100 * over:.1f} %)" if over is not None else "") + ". The Python side adds a fixed "
            "few µs per call, so the 64-sample margin is small.",
            "",
            (f"Two Python threads / one: {', '.join(f'{x:.2f}' for x in ratios)} (the library's "
             f"own 2-thread speedup on this machine, its ceiling: {speedup:.2f})."
             if ratios and speedup is not None else "(GIL: no figures)"),
            "docs/python.md has both.",
        ]
        return "\n".join(out)

    # =============================================================================================
    def compliant_section(self):
        rec = self.run.one("compliant")
        rows, _ = gbench(rec)
        self.data["compliant"] = rows

        def cell(e, r):
            row = rows.get(f"BM_CompliantRun/{e}/{r}")
            if not row:
                return DASH
            if "error" in row:
                return f"failed: {row['error']}"
            steps = row.get("counters", {}).get("steps")
            return f"{f_ms(div(row['ns'], 1e6))} ({f_int(steps)})"
        body = [[f"1e{e}", cell(e, 0), cell(e, 5)] for e in range(6, 12)]
        times = [row["ns"] / 1e9 for name, row in rows.items()
                 if name.startswith("BM_CompliantRun/") and "ns" in row]
        errors = [name for name, row in rows.items() if "error" in row]
        sweep = {e: rows.get(f"BM_StiffnessRatioSweep/{e}", {}).get("ns") for e in (6, 11)}
        worst = max(times) if times else None
        v = self.target("compliant", "one compliant run at stiffness 1e6 … 1e11 in seconds "
                        "(every run < 1 s, none fails)",
                        f"slowest {f_ms(worst * 1e3)} ms" if worst is not None else DASH,
                        None if worst is None else worst < COMPLIANT_TARGET_S and not errors)
        return "\n".join([
            "## `bench_compliant`: compliant-contact runs (CVODE)",
            "",
            "The compliant-contact model (`impactset compare`'s reference for the rigid sets) "
            "integrates a stiff ODE; its cost must not grow with the stiffness. One "
            "`simulators::SimulateCompliantImpact` run on the rocking block with the authors' "
            "settings (docs/examples.md §3.7) except v_reg = 1e-6, by log10 stiffness of the "
            "softer corner and log10(k_A/k_B), and the authors' 51-run stiffness-ratio sweep "
            "10^-5 … 10^5. Counters: CVODE steps, right-hand-side evaluations, restarts at "
            "force-law kinks.",
            "",
            self.commands([rec]),
            "",
            table(["stiffness", "k_A/k_B = 1: ms (steps)", "k_A/k_B = 1e5: ms (steps)"], body),
            "",
            f"The 51-run sweep: {f_s(div(sweep[6], 1e9))} at 1e6, {f_s(div(sweep[11], 1e9))} at "
            f"1e11. **Target \"stiffness 1e6–1e11 in seconds\":** {v}.",
        ])

    # =============================================================================================
    def census_section(self):
        recs = [self.run.one(n) for n in ("census:planar", "census:planar-more", "census:scenes")]
        rows, data, fails = [], [], []
        for r in recs:
            if r is None:
                continue
            for line in r["stdout_text"].splitlines():
                f = line.split()
                if len(f) != 13 or f[0] == "problem":
                    continue
                name = f[0]
                name = "humanoid" if "humanoid" in name else re.sub(r"\.json$", "", name)
                solves, native, alt, sic, prox, ext, enum, failed = (int(x) for x in f[2:10])
                fallbacks = solves - native - failed  # every link after the first
                data.append({"problem": name, "samples": int(f[1]), "solves": solves,
                             "native": native, "alt": alt, "siconos": sic, "proximal": prox,
                             "extended": ext, "enum": enum, "failed": failed,
                             "fallbacks": fallbacks, "worst_residual": float(f[11]),
                             "seconds": float(f[12])})
                size = CENSUS_SIZES.get(name)
                rows.append([f"{name}{f' ({size})' if size else ''}", f_int(solves),
                             f"{100 * native / solves:.3f} %" if solves else DASH,
                             f_int(fallbacks), f_int(failed), f[11]])
                if name in CENSUS_3D and (failed or (solves and fallbacks / solves
                                                     >= CENSUS_FALLBACK_TARGET)):
                    fails.append(name)
        self.data["census"] = data
        scenes = [d for d in data if d["problem"] in CENSUS_3D]
        worst = max(d["fallbacks"] / d["solves"] for d in scenes) if scenes else None
        unresolved = sum(d["failed"] for d in scenes)
        v = self.target("LCP census", "< 0.1 % fallbacks and no unresolved step on every shipped "
                        "3-D scene and the humanoid",
                        f"worst {100 * worst:.3f} % fallbacks, {unresolved} unresolved"
                        if worst is not None else DASH,
                        None if not scenes else not fails)
        n = data[0]["solves"] if data else None
        return "\n".join([
            "## `lcp_census`: robustness on the step LCPs Algorithm 1 visits",
            "",
            "A speed figure means nothing if the solver falls back or fails on the LCPs a run "
            "actually meets. Arguments: solves per example, seed, then sources (a problem file, a "
            "MuJoCo scene name, or `mujoco:MODEL.xml:STATE.json` with qpos and qvel). It runs "
            "Algorithm 1 (iid p, the problem's h and N, MuJoCo sources at their scaled h and N, "
            "`first` selection) until that many step LCPs were solved, each through "
            "`lcp::FallbackSolver`, and counts the link that produced the accepted answer: "
            "`native` (Lemke, covering 1), `alt` (perturbed coverings), `siconos`, `prox` (the "
            "proximal link), `ext` (the extended link), `enum` (enumeration, n ≤ 20), `failed`. "
            "Every accepted answer passes `lcp::IsSolution` at "
            "`kAcceptTolerance` = 1e-9; the exit status is 1 on a failure. The humanoid's state "
            "file (docs/mujoco.md's recipe) is written first:",
            "",
            "```sh",
            "python3 -c \"import json; json.dump({'qpos': [0,0,1.285,1,0,0,0] + [0]*21,",
            "  'qvel': [0,0,-0.5] + [0]*24}, open('humanoid-state.json', 'w'))\"",
            "```",
            "",
            self.commands(recs),
            "",
            f"Seed 1, {f_int(n)} solves each (LCP size in parentheses; fallbacks are the solves "
            "of every link after the first: `alt`, `siconos`, `enum`, the proximal and the "
            "extended one):",
            "",
            table(["problem", "solves", "native first link", "fallbacks", "failed",
                   "worst residual"], rows),
            "",
            f"**Target: < 0.1 % fallbacks and no unresolved step on every shipped 3-D scene and the "
            f"humanoid:** {v}.",
            "",
            "Pivot entries below `LemkeOptions::pivot_floor` (default `lcp::kPivotFloor` = 1e-11) "
            "of the column's largest are treated as zero; the test `sampling_tests` runs the same "
            "census with 10^4 solves.",
        ])

    # =============================================================================================
    @staticmethod
    def family_rows(text):
        """impact_family's class table: {class: {column: value}} (the last len(cols) fields are
        numbers; a class name may hold spaces)."""
        cols = ["probs", "samples", "fail", "fprob", "capped", "cap%", "solves", "native", "alt",
                "siconos", "prox", "ext", "enum", "worst", "egain", "appr", "nphys", "jam"]
        rows = {}
        for line in text.splitlines():
            f = line.split()
            if len(f) < len(cols) + 1 or f[0] in ("class", "problem", "family"):
                continue
            vals = f[-len(cols):]
            vals[5] = vals[5].rstrip("%")
            try:
                rows[" ".join(f[:-len(cols)])] = {c: float(v) for c, v in zip(cols, vals)}
            except ValueError:  # not a row of the class table
                continue
        return rows

    def family_section(self):
        recs = [self.run.one(n) for n in ("family:k4", "family:k8", "family:k4:seed7")]
        body, data, failed, capped, samples, checks = [], {}, 0, 0, 0, 0
        for name, r in zip(("k = 4", "k = 8", "k = 4, seed 7"), recs):
            if r is None:
                continue
            rows = self.family_rows(r["stdout_text"])
            data[name] = rows
            for cls, v in rows.items():
                if name.endswith("seed 7") and cls != "all" and not (v["fail"] or v["capped"]):
                    continue  # the second seed: only the classes that lose samples
                body.append([f"{name}: {cls}" if cls != "all" else f"**{name}: all**",
                             f_int(int(v["probs"])), f_int(int(v["samples"])),
                             f"{f_int(int(v['fail']))} ({f_int(int(v['fprob']))})",
                             f"{f_int(int(v['capped']))} ({v['cap%']:.3f} %)",
                             f_int(int(v["solves"])), f_int(int(v["alt"])),
                             f_int(int(v["siconos"])), f_int(int(v["prox"])),
                             f_int(int(v["ext"] + v["enum"])), f"{v['worst']:.1e}"])
            a = rows.get("all")
            if a:
                failed += int(a["fail"])
                capped += int(a["capped"])
                samples += int(a["samples"])
                checks += int(a["egain"] + a["appr"])
        self.data["family"] = data
        measured = (f"{f_int(failed)} LCP-failed, {f_int(capped)} capped "
                    f"({100 * capped / samples:.3f} %) of {f_int(samples)} samples"
                    if samples else DASH)
        v1 = self.target("random problems", "0 LCP failures on the random impact-problem family "
                         "(k = 4 and k = 8)", measured, failed == 0 if samples else None)
        v2 = self.target("random problems", "≤ 0.1 % of samples step-capped there", measured,
                         capped <= FAMILY_CAPPED_TARGET * samples if samples else None)
        v3 = self.target("random problems", "no energy gain, no contact left approaching",
                         f"{checks} samples" if samples else DASH,
                         checks == 0 if samples else None)
        return "\n".join([
            "## `impact_family`: random valid impact problems",
            "",
            "Users bring their own matrices. `impact_family` draws the family of docs/robustness.md "
            "(n 3–18, m 1–10 contacts, planar or 3-D with k = 4 or 8 friction directions, SPD mass "
            "matrices with condition numbers up to 1e10, μ from {0, 0.3, 1, 5, 1000} or U(0, 2), "
            "dependent contact rows in 40 % of the problems with m ≥ 3), each problem a function "
            "of (seed, index, k), and samples each as matrix input is sampled: the default step "
            "rule (h and N from the problem and a pilot), iid design, random selection, the "
            "fallback chain. Per class: LCP-failed samples (in how many problems), step-capped "
            "samples, step LCPs solved, those solved by perturbed coverings (`alt`), by Siconos' "
            "Lemke, by proximal steps on regularised LCPs (`proximal`) and by the last links "
            "(extended precision, enumeration), the worst accepted residual. Every "
            "accepted answer passes `lcp::IsSolution` at 1e-9. `--list` names each problem with "
            "a failed or capped sample, `--diagnose` runs every link alone on each failed step "
            "LCP. Seed 1 at k = 4 and 8 in full; a second seed (7, twice the problems) shows only "
            "its classes that lose samples, and counts in the targets.",
            "",
            self.commands(recs),
            "",
            table(["class", "problems", "samples", "failed (problems)", "capped",
                   "step LCPs", "alt", "Siconos", "proximal", "extended, enum.", "worst residual"],
                  body),
            "",
            f"**Targets: 0 LCP failures:** {v1}; **≤ 0.1 % capped:** {v2}; **no energy gain and "
            f"no contact left approaching:** {v3}.",
        ])

    def rollout_section(self):
        recs = [self.run.one(n) for n in ("rollout:humanoid:t2", "rollout:humanoid:t1")]
        if recs[0] is None:
            return ("## `impactset rollout`: the humanoid landing\n\nNot run (MuJoCo's humanoid.xml "
                    "not found).")
        outs = [json.loads(r["stdout_text"]) if r else None for r in recs]
        body = []
        for t, o in zip((2, 1), outs):
            if o is None:
                continue
            n = len(o["rollouts"])
            body.append([str(t), f_int(n), f"{o['seconds']:.2f} s", f"{n / o['seconds']:.0f}",
                         f_int(o["events"]), f"{o['ok']} ok, {o['diverged']} diverged, "
                         f"{o['impact_failed']} impact failed"])
        rate = len(outs[0]["rollouts"]) / outs[0]["seconds"]
        same = outs[1] is not None and outs[0]["rollouts"] == outs[1]["rollouts"]
        self.data["rollouts"] = {"rollouts_per_second_2_threads": rate, "same_at_1_and_2": same}
        v1 = self.target("rollouts", "humanoid landing, 1 s at the model's timestep: ≥ 100 "
                         "rollouts/s on 2 threads", f"{rate:.0f} rollouts/s", rate >= 100)
        v2 = self.target("rollouts", "the same rollouts at 1 and 2 threads",
                         "identical" if same else "differ", same)
        return "\n".join([
            "## `impactset rollout`: the humanoid landing",
            "",
            "MuJoCo's humanoid (docs/mujoco.md's landing state raised to 1.30 m, falling at "
            "0.5 m/s) simulated for 1 s at its 5 ms timestep under the PD posture controller "
            "(kp 100, kd 10), every impact event an Algorithm-1 sample (docs/rollouts.md). "
            "Rollouts per second are the command's own figure (the rollouts and the baseline, "
            "without loading).",
            "",
            self.commands(recs),
            "",
            table(["threads", "rollouts", "time", "rollouts/s", "impact events", "statuses"], body),
            "",
            f"**Targets: ≥ 100 rollouts/s:** {v1}; **the same at 1 and 2 threads:** {v2}.",
        ])

    @staticmethod
    def convergence_section():
        return """## `convergence`: how fast sampled sets approach the set (not run by the script)

```sh
build/bench/convergence rocking-block compass-gait --kmin 10 --kmax 20 --kref 22      # points mode
build/bench/convergence --hull compass-gait --kmin 10 --kmax 19 --directed-kmax 17 --kref 22 --threads 2
build/bench/convergence --help
```

Points mode: Hausdorff distances in contact coordinates between K = 2^kmin … 2^kmax samples (iid
and Sobol) and a 2^kref-sample iid reference (minutes per system). Hull mode (`--hull`,
`hull_study.cpp`): for iid, Sobol and the directed design, the LCP solves of K samples, the
distance between their convex hull and the reference's (relative to its diameter) and the volume
ratio; the goal is h ≤ 1 % of the diameter and ≥ 99 % of the volume with ≥ 10× fewer LCP solves
than iid. It counts LCP solves, not seconds, so it does not depend on the machine and is not part
of this timed set; its tables, the commands for every system and what they show are in
docs/convergence.md. References are cached in `build/convergence-cache/`."""

    # =============================================================================================
    def build(self):
        m = self.run.meta
        self.data["duration_s"] = time.monotonic() - m["started_monotonic"]
        sections = [self.lcp_section(), self.paper_section(), self.scenes_section(),
                    self.sets_section(), self.sampler_section(), self.batch_section(),
                    self.python_section(), self.compliant_section(), self.census_section(),
                    self.family_section(), self.rollout_section(), self.convergence_section()]
        doc = "\n\n".join([self.header(), self.targets_section(), self.comparing_section()]
                          + sections) + "\n"
        return doc

    def json_report(self):
        m = self.run.meta
        return {
            "generator": "scripts/bench.sh",
            "quick": self.quick,
            "comparable": not self.quick,
            "rounds": m["rounds"],
            "started": m["started"],
            "duration_s": self.data.get("duration_s"),
            "load_average": {"start": m["load_average_start"], "end": list(os.getloadavg())},
            "machine": m["machine"],
            "build": m["build_info"],
            "git": m["git"],
            "targets": self.targets,
            "results": {k: v for k, v in self.data.items() if k != "duration_s"},
            "commands": [{"name": r["name"], "command": self.run.display(r), "rc": r["rc"],
                          "wall_s": r["wall_s"], "user_s": r["user_s"], "sys_s": r["sys_s"],
                          "max_rss_kib": r["max_rss_kib"], "load_average": r["load_average"]}
                         for r in self.run.records],
        }


def clean(x):
    """NaN and infinities (Google Benchmark writes some) become null in report.json."""
    if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf"))):
        return None
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [clean(v) for v in x]
    return x


def strip(w):
    """A whole-run summary without its records (for report.json)."""
    return None if w is None else {k: v for k, v in w.items() if k != "records"}


def cmd_write(a):
    run = Run(a.raw)
    report = Report(run)
    doc = report.build()
    os.makedirs(a.out_dir, exist_ok=True)
    md, js = os.path.join(a.out_dir, "README.md"), os.path.join(a.out_dir, "report.json")
    with open(md + ".tmp", "w", encoding="utf-8") as f:
        f.write(doc)
    with open(js + ".tmp", "w", encoding="utf-8") as f:
        json.dump(clean(report.json_report()), f, indent=1, allow_nan=False, default=str)
        f.write("\n")
    os.replace(md + ".tmp", md)
    os.replace(js + ".tmp", js)
    duration = report.data.get("duration_s") or 0
    print(f"bench.sh: wrote {md} and {js} ({duration / 60:.1f} minutes"
          f"{', quick run' if run.quick else ''})", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("start")
    s.add_argument("--raw", required=True)
    s.add_argument("--root", required=True)
    s.add_argument("--build", required=True)
    s.add_argument("--quick", default="0")
    s.add_argument("--rounds", type=int, default=1)
    e = sub.add_parser("exec")
    e.add_argument("--raw", required=True)
    e.add_argument("--name", required=True)
    e.add_argument("--allow-fail", action="store_true")
    e.add_argument("--env", action="append", default=[])
    e.add_argument("command", nargs=argparse.REMAINDER)
    w = sub.add_parser("write")
    w.add_argument("--raw", required=True)
    w.add_argument("--out-dir", required=True)
    a = p.parse_args()
    {"start": cmd_start, "exec": cmd_exec, "write": cmd_write}[a.cmd](a)


if __name__ == "__main__":
    main()
