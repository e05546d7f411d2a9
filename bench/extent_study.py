#!/usr/bin/env python3
"""How far a run's post-impact set reaches: each design's per-coordinate ranges against a reference.

For every system, the reference range of each coordinate of each output is the union of an iid run
of --ref-iid samples and a directed run of --ref-directed samples (the extremes either finds). Each
design listed in --designs then runs at the system's own sample count (or --samples), and the
table gives, per output, the smallest and the median over coordinates of

    reach = (hi - lo) / (ref_hi - ref_lo)

(>= 1 when the design goes beyond the reference). Coordinates whose reference width is below
FLAT_FRACTION of the output's widest coordinate are flat up to roundoff and left out. Two times
per design, measured in this process one after the other: the sampler's own (sets off) and a
whole run() with sets, hold-out and polish, as `impactset run` does it, whose sets' exact ranges
join the sampler's; the extent statement of that run's post-impact sets is reported beside them,
and the run's time against a plain iid run without polish (the default before the mixed design).

    PYTHONPATH=build/python /usr/bin/python3 bench/extent_study.py --out /tmp/extent.json
"""
import argparse
import json
import os
import sys
import time
import warnings

import numpy as np

import impactset

# A coordinate whose reference width is below this fraction of its output's widest is flat up to
# the samples' roundoff (1e-12 ... 1e-9 of the impact speed): its "range" is noise.
FLAT_FRACTION = 1e-6
# Samples per call when a run is split into shards, which bounds the memory of kept samples.
CHUNK = 1 << 18

# What a run takes when the problem names no count (engine::kDefaultSamples).
DEFAULT_SAMPLES = 16384

PAPER = ["rocking-block", "compass-gait", "box-wall", "ramone", "disk-stack"]
SCENES = ["cube-flat", "cube-edge", "rocking-block-3d", "quadruped", "planar-hopper",
          "planar-biped"]


def outputs_of(problem):
    outs = ["contact", "generalized"]
    try:
        impactset.sample(problem, samples=2, outputs=["com"])
        outs.append("com")
    except (ValueError, RuntimeError):
        pass
    return outs


def ranges(problem, samples, design, outputs):
    """Per-output (lo, hi) over the terminated samples and the sampler's seconds."""
    lo, hi, seconds = {}, {}, 0.0
    shards = 1 if design == "directed" else max(1, samples // CHUNK)
    for shard in range(shards):
        s = impactset.sample(problem, samples=samples, design=design, outputs=outputs,
                             shard=(shard, shards))
        seconds += s.seconds
        for o in outputs:
            y = np.asarray(s.post_impact(o))
            if y.shape[0] == 0:
                continue
            a, b = y.min(0), y.max(0)
            lo[o] = a if o not in lo else np.minimum(lo[o], a)
            hi[o] = b if o not in hi else np.maximum(hi[o], b)
    return lo, hi, seconds


def reach(lo, hi, ref_lo, ref_hi):
    width = ref_hi - ref_lo
    keep = width > FLAT_FRACTION * width.max() if width.size else width > 0
    return (hi[keep] - lo[keep]) / width[keep]


def reference(name, problem, outs, args):
    """The union of the iid and directed reference runs' ranges, from --cache when it has them."""
    path = None
    if args.cache:
        os.makedirs(args.cache, exist_ok=True)
        path = os.path.join(args.cache, f"{name}-{args.ref_iid}-{args.ref_directed}.npz")
        if os.path.exists(path):
            z = np.load(path)
            return ({o: z["lo_" + o] for o in outs}, {o: z["hi_" + o] for o in outs},
                    float(z["seconds"]))
    ref = [ranges(problem, args.ref_iid, "iid", outs),
           ranges(problem, args.ref_directed, "directed", outs)]
    ref_lo = {o: np.minimum(ref[0][0][o], ref[1][0][o]) for o in outs}
    ref_hi = {o: np.maximum(ref[0][1][o], ref[1][1][o]) for o in outs}
    seconds = ref[0][2] + ref[1][2]
    if path:
        np.savez(path, seconds=seconds, **{"lo_" + o: ref_lo[o] for o in outs},
                 **{"hi_" + o: ref_hi[o] for o in outs})
    return ref_lo, ref_hi, seconds


def study(name, args):
    problem = impactset.Problem.from_system(name)
    outs = outputs_of(problem)
    ref_lo, ref_hi, ref_seconds = reference(name, problem, outs, args)
    row = {"system": name, "reference_seconds": ref_seconds, "designs": {}}
    samples = args.samples or problem.samples or DEFAULT_SAMPLES
    # What the default was measured against: a plain iid run (no polish) with sets, timed alike.
    t0 = time.perf_counter()
    impactset.run(problem, samples=samples, design="iid", polish=0, outputs=outs)
    row["baseline_run_seconds"] = time.perf_counter() - t0
    for design in args.designs:
        lo, hi, seconds = ranges(problem, samples, design, outs)
        t0 = time.perf_counter()
        run = impactset.run(problem, samples=samples, design=design, outputs=outs)
        run_seconds = time.perf_counter() - t0
        # The run's sets hold every sample and what the run adds to them (its polish): their
        # ranges, exact from the support polytopes, are what a user reads.
        for s in run.sets:
            if s.set == "post_impact" and s.output in lo:
                lo[s.output] = np.minimum(lo[s.output], s.ranges[:, 0])
                hi[s.output] = np.maximum(hi[s.output], s.ranges[:, 1])
        r = {o: reach(lo[o], hi[o], ref_lo[o], ref_hi[o]) for o in outs}
        extent = {s.output: s.coverage.extent_converged for s in run.sets
                  if s.set == "post_impact" and s.coverage is not None}
        row["designs"][design] = {
            "samples": samples, "seconds": seconds, "run_seconds": run_seconds,
            "extent_converged": extent,
            "reach": {o: {"min": float(r[o].min()) if r[o].size else 1.0,
                          "median": float(np.median(r[o])) if r[o].size else 1.0,
                          "coordinates": int(r[o].size)} for o in outs}}
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--systems", nargs="*", default=PAPER + SCENES)
    ap.add_argument("--designs", nargs="*", default=["iid", "mixed"])
    ap.add_argument("--samples", type=int, default=0, help="0: each system's own count")
    ap.add_argument("--ref-iid", type=int, default=1 << 22)
    ap.add_argument("--ref-directed", type=int, default=1 << 18)
    ap.add_argument("--out", default="")
    ap.add_argument("--cache", default="", help="directory keeping the reference ranges")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    rows = []
    for name in args.systems:
        t0 = time.time()
        row = study(name, args)
        rows.append(row)
        for design, d in row["designs"].items():
            cells = "  ".join(
                f"{o} {v['min'] * 100:.1f}/{v['median'] * 100:.1f} %"
                f"{'' if d['extent_converged'].get(o, True) else ' (not conv.)'}"
                for o, v in d["reach"].items())
            print(f"{name:18s} {design:8s} K={d['samples']:<8d} {d['seconds']:7.2f} s "
                  f"run {d['run_seconds']:7.2f} s ({d['run_seconds'] / row['baseline_run_seconds']:.1f}x"
                  f" iid without polish)  {cells}")
        print(f"{'':18s} ({time.time() - t0:.0f} s with the reference)", flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"ref_iid": args.ref_iid, "ref_directed": args.ref_directed,
                       "rows": rows}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
