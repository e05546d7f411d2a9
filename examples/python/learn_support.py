#!/usr/bin/env python3
"""Learning the post-impact set of a compass gait from its touchdown state (docs/python.md).

1. Dataset: compass-gait touchdown states (inter-leg angle 2 phi, angular velocity omega), each
   sampled with impactset (Algorithm 2) in-process; the target is the support function
   h(u) = max over the post-impact hip velocities v of u . v in 64 fixed directions u.
2. Model: gradient boosting (scikit-learn) from (phi, omega) to h(u) / omega. Algorithm 1 is
   positively homogeneous when its step h scales with the speed (the authors' h = omega), so the
   set scales with omega and the model need not learn that.
3. Held-out states: the predicted set is the polygon {v : u . v <= h_pred(u) for every u}; we
   report the fraction of fresh samples of the true set inside it (coverage) and the Hausdorff
   distance between it and the sampled set's convex hull, for the raw prediction and for one
   inflated by a split-conformal margin calibrated on separate states, next to the sampled sets'
   own polygons in the same directions (what a perfect model would give). The sets carry atoms at
   vertices (many samples end on the same outcome), so a prediction a hair inside a vertex
   loses their whole mass: the raw coverage is low and the calibrated one is the usable figure.
   A plot shows three held-out states.

Usage: learn_support.py [--states N] [--samples K] [--plot FILE] [--metrics FILE]
(defaults: 600 states, 2000 samples each, learn_support.png; about a minute on 2 cores).
"""
import argparse
import concurrent.futures
import json
import math
import os
import time

import numpy as np
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.multioutput import MultiOutputRegressor

import impactset

DIRECTIONS = 64
PHI_RANGE = (75.5, 82.0)  # degrees from the vertical: the band where the set is not a point
OMEGA_RANGE = (0.25, 1.0)  # rad/s about the trailing foot
MAX_STEPS = 5  # the paper's N for the compass gait
CONFIDENCE = 0.95  # of the calibrated margin
# Samples end within Algorithm 1's termination tolerance of exact values; 1e-9 (relative to
# omega) only absorbs the roundoff of u . v.
INSIDE_TOLERANCE = 1e-9


def compass_gait_scene(phi, omega):
    """The built-in compass gait (docs/examples.md 3.3) with legs at -phi and +phi from the
    vertical, rotating rigidly at omega about the trailing foot, so that the leading foot strikes."""
    leg = [("leading", "pelvis_y"), ("trailing", "pelvis_y")]
    shapes = []
    for name, _ in leg:
        shapes.append({"name": f"{name}_rod", "type": "rod", "frame": f"{name}_leg",
                       "pose": [0, -0.5, math.pi / 2], "length": 1})
        shapes.append({"name": f"{name}_mass", "type": "point", "frame": f"{name}_leg",
                       "pose": [0, -0.5, 0], "mass": 1, "inertia": 0})
    shapes.append({"name": "floor", "type": "wall", "normal": [0, 1], "offset": 0})
    return {
        "frames": [{"name": "pelvis_x", "joint": "prismatic_x"},
                   {"name": "pelvis_y", "parent": "pelvis_x", "joint": "prismatic_y"}]
                  + [{"name": f"{n}_leg", "parent": p, "joint": "revolute"} for n, p in leg],
        "shapes": shapes,
        "q": [-math.sin(phi), math.cos(phi), -phi, phi],
        "v_minus": {"rigid_rotation": {"rate": omega,
                                       "about": {"contact": ["trailing_rod", "floor"]}}},
        "friction": {"mu": 5},
        "sampler": {"h": omega, "N": MAX_STEPS},
    }


def directions():
    a = np.linspace(0, 2 * np.pi, DIRECTIONS, endpoint=False)
    return np.stack([np.cos(a), np.sin(a)], axis=1)


def hip_velocities(phi, omega, samples, seed):
    """The post-impact hip velocities (x, y) of one state's terminated samples."""
    p = impactset.Problem.from_scene(compass_gait_scene(phi, omega))
    s = impactset.sample(p, samples=samples, seed=seed, threads=1)
    return s.post_impact("generalized")[:, :2]


def sample_states(states, samples, seed_offset):
    """Every state sampled on its own Python thread (the GIL is released while sampling)."""
    workers = os.cpu_count() or 1
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        jobs = [pool.submit(hip_velocities, phi, omega, samples, seed_offset + k)
                for k, (phi, omega) in enumerate(states)]
        return [j.result() for j in jobs]


def polygon(U, h):
    """Vertices (in order) of {v : U v <= h}; empty when the half-planes do not intersect."""
    box = max(1.0, float(np.abs(h).max())) * 4
    poly = [np.array(p, float) for p in ((-box, -box), (box, -box), (box, box), (-box, box))]
    for u, b in zip(U, h):
        out = []
        for k, p in enumerate(poly):
            q = poly[(k + 1) % len(poly)]
            fp, fq = u @ p - b, u @ q - b
            if fp <= 0:
                out.append(p)
            if fp * fq < 0:
                out.append(p + (q - p) * fp / (fp - fq))
        poly = out
        if not poly:
            break
    return np.array(poly).reshape(-1, 2)


def hausdorff_to_hull(vertices, hull):
    """Hausdorff distance between conv(vertices) and a Hull of the sampled set: attained at
    vertices for convex sets."""
    if len(vertices) == 0:
        return math.inf
    return max(float(hull.distances(vertices).max()),
               float(impactset.hull(vertices).distances(hull.vertices).max()))


def evaluate(U, support, omega, fresh, hull):
    """Coverage of the fresh samples and Hausdorff error of one predicted polygon."""
    inside = np.all(fresh @ U.T <= support + INSIDE_TOLERANCE * omega, axis=1)
    return float(inside.mean()), hausdorff_to_hull(polygon(U, support), hull)


def fit(X, Y):
    model = MultiOutputRegressor(GradientBoostingRegressor(random_state=0))
    return model.fit(X, Y)


def summary(values):
    v = np.asarray(values, float)
    return {"mean": float(v.mean()), "median": float(np.median(v)), "min": float(v.min()),
            "max": float(v.max())}


def plot(path, cases):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(cases), figsize=(4.2 * len(cases), 4))
    for ax, c in zip(np.atleast_1d(axes), cases):
        ax.scatter(*c["fresh"].T, s=2, color="0.6", label="sampled v+ (held-out)")
        h = c["hull"].vertices
        order = np.argsort(np.arctan2(*(h - h.mean(0)).T[::-1]))
        ring = np.vstack([h[order], h[order][:1]])
        ax.plot(*ring.T, color="k", lw=1.2, label="sampled set (hull)")
        for poly, style, label in ((c["predicted"], "-", "predicted"),
                                   (c["calibrated"], "--", "predicted + margin")):
            if len(poly):
                ax.plot(*np.vstack([poly, poly[:1]]).T, style, color="tab:red", lw=1.2,
                        label=label)
        ax.set_title(f"phi {c['phi']:.1f} deg, omega {c['omega']:.2f} rad/s\n"
                     f"coverage {c['coverage']:.3f} ({c['coverage_calibrated']:.3f} + margin), "
                     f"Hausdorff {c['hausdorff']:.4f}", fontsize=9)
        ax.set_xlabel("hip velocity x (m/s)")
        ax.set_ylabel("hip velocity y (m/s)")
        ax.set_aspect("equal", adjustable="datalim")
    np.atleast_1d(axes)[0].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=600, help="touchdown states (>= 10)")
    ap.add_argument("--samples", type=int, default=2000, help="samples per state")
    ap.add_argument("--plot", default="learn_support.png", help="plot file ('' = none)")
    ap.add_argument("--metrics", default="", help="also write the metrics as JSON here")
    args = ap.parse_args()
    if args.states < 10:
        ap.error("--states must be >= 10")
    t0 = time.perf_counter()
    rng = np.random.default_rng(0)
    phi_deg = rng.uniform(*PHI_RANGE, args.states)
    omega = rng.uniform(*OMEGA_RANGE, args.states)
    states = list(zip(np.radians(phi_deg), omega))
    U = directions()

    points = sample_states(states, args.samples, seed_offset=1)
    H = np.array([(v @ U.T).max(axis=0) for v in points])  # support function per state
    n_train, n_cal = int(0.6 * args.states), int(0.2 * args.states)
    train = slice(0, n_train)
    cal = slice(n_train, n_train + n_cal)
    test = np.arange(n_train + n_cal, args.states)
    X = np.stack([phi_deg, omega], axis=1)
    Y = H / omega[:, None]
    t_sample = time.perf_counter() - t0

    model = fit(X[train], Y[train])
    # Split-conformal margin: the worst under-prediction over the directions of each calibration
    # state, at the finite-sample-corrected quantile. For exchangeable states, the polygon
    # inflated by it contains the true support polygon with probability >= CONFIDENCE.
    worst = (Y[cal] - model.predict(X[cal])).max(axis=1)
    level = min(1.0, math.ceil((n_cal + 1) * CONFIDENCE) / n_cal)
    margin = max(float(np.quantile(worst, level)), 0.0)
    predicted = model.predict(X[test]) * omega[test, None]
    calibrated = predicted + margin * omega[test, None]

    # Fresh samples of every held-out state (other seeds) judge the predictions.
    fresh = sample_states([states[k] for k in test], args.samples, seed_offset=10**6)
    rows = {"predicted": ([], []), "calibrated": ([], []), "sampled support polygon": ([], [])}
    cases = []
    for j, k in enumerate(test):
        hull = impactset.hull(fresh[j])
        for name, support in (("predicted", predicted[j]), ("calibrated", calibrated[j]),
                              ("sampled support polygon", H[k])):
            cov, dist = evaluate(U, support, omega[k], fresh[j], hull)
            rows[name][0].append(cov)
            rows[name][1].append(dist / omega[k])
        if j < 3:
            cases.append({"phi": phi_deg[k], "omega": omega[k], "fresh": fresh[j], "hull": hull,
                          "predicted": polygon(U, predicted[j]),
                          "calibrated": polygon(U, calibrated[j]),
                          "coverage": rows["predicted"][0][-1],
                          "coverage_calibrated": rows["calibrated"][0][-1],
                          "hausdorff": rows["predicted"][1][-1] * omega[k]})
    metrics = {"states": args.states, "samples": args.samples, "held_out": len(test),
               "train": n_train, "calibration": n_cal, "sampling_seconds": t_sample,
               "margin_over_omega": margin,
               "support_error_over_omega": summary(
                   np.abs(predicted - H[test]).mean(axis=1) / omega[test]),
               "set_diameter_over_omega": summary([np.ptp(p, axis=0).max() / omega[k]
                                                    for k, p in zip(test, fresh)]),
               "results": {name: {"coverage": summary(c), "hausdorff_over_omega": summary(d)}
                           for name, (c, d) in rows.items()}}
    if args.plot:
        plot(args.plot, cases)
    metrics["seconds"] = time.perf_counter() - t0

    print(f"{args.states} states x {args.samples} samples ({n_train} train, {n_cal} calibration, "
          f"{len(test)} held out), {metrics['seconds']:.1f} s")
    print(f"{'held-out states':32s} {'coverage mean':>14s} {'min':>7s} "
          f"{'Hausdorff/omega median':>23s} {'max':>8s}")
    for name, r in metrics["results"].items():
        print(f"{name:32s} {r['coverage']['mean']:14.4f} {r['coverage']['min']:7.3f} "
              f"{r['hausdorff_over_omega']['median']:23.5f} "
              f"{r['hausdorff_over_omega']['max']:8.5f}")
    print(f"support error / omega: mean {metrics['support_error_over_omega']['mean']:.5f}; "
          f"calibrated margin {margin:.5f} omega; held-out set extent / omega: median "
          f"{metrics['set_diameter_over_omega']['median']:.3f}")
    if args.plot:
        print(f"plot: {args.plot}")
    if args.metrics:
        with open(args.metrics, "w") as f:
            json.dump(metrics, f, indent=1)


if __name__ == "__main__":
    main()
