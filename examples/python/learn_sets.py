#!/usr/bin/env python3
"""Learning the set of velocities a cube can leave the floor with, from its touchdown state.

The shipped MuJoCo scene `cube-edge` (docs/mujoco.md) is a 1 m, 1 kg cube, mu = 0.5, landing on
one bottom edge: two corners hit at once, so Algorithm 2's post-impact set is a 3-D body, not a
point. This example learns that set as a function of the touchdown state and compares the model
with baselines and with the sampling noise (docs/python.md, "The learning example").

1. States (4-D, uniform): the tilt about the y axis, 5-45 deg (the contact geometry: where the
   edge lies under the centre of mass; the example turns it into the quaternion and into the
   height that puts the lowest edge on the floor), the sink speed, 0.2-1 m/s, and the sliding
   velocity across the edge (x) and along it (y), each in [-0.5, 0.5] m/s.
2. Data: one impactset.batch per split over a table of those states (the keyframe entries
   qpos:2, qpos:3, qpos:5, qvel:0, qvel:1, qvel:2 they replace), each written as a batch file.
   The target is the support function h(u) = max over the post-impact samples y of u . y, y the
   cube's velocity (output `com`), in the batch's 64 fixed directions u, from iid samples.
3. Models, scored on held-out states against their sampled support: the mean of the training
   targets (constant), a linear model, k nearest neighbours and an MLP (scikit-learn); with
   --torch also the same MLP in PyTorch, trained from the batch files through a
   torch.utils.data.Dataset (learn_sets_torch.py). The noise floor is the error between two
   independent sample sets of the same held-out state. At the default size the MLPs come to
   1.7 times the noise floor, k nearest neighbours to 8, the linear model to 15, the constant
   to 64.
4. Sets: the predicted set is the polytope {y : u . y <= h_pred(u) for every u}. On each
   held-out state it is compared with 4x as many fresh samples of the true set: coverage (the
   fraction of them inside) and the Hausdorff distance to their convex hull. A split-conformal
   margin, calibrated on separate states, inflates the MLP's polytope to cover them.
5. Which dimensions matter: a sweep along each state dimension through the centre of the box.
   At the default size every one moves the support by 46-149 times the noise floor; the sink
   speed and the tilt change the set's shape most (by 67 and 48 mm/s), the slides mostly move
   the set as a whole (by 320 mm/s, its shape by 25-45 mm/s).
6. A figure (--plot) shows three held-out states in two projections.

Usage: learn_sets.py [--train N] [--calibration N] [--held-out N] [--samples K] [--torch]
                     [--epochs E] [--data DIR] [--plot FILE] [--metrics FILE]
Defaults: 2000 / 200 / 200 states, 1024 samples each, figure learn_sets.png. Runtime on an idle
2-core machine: 36 s with --torch (sampling 21 s, the scikit-learn MLP 4 s, the PyTorch MLP 3 s;
51 s of CPU time), the same numbers at any thread count. The test runs it at --train 120
--calibration 20 --held-out 20 --samples 128 --torch --epochs 30 (about 15 s).
"""
import argparse
import json
import math
import os
import sys
import tempfile
import time
import warnings

import numpy as np
from scipy.optimize import linprog
from scipy.spatial import ConvexHull, HalfspaceIntersection
from sklearn.compose import TransformedTargetRegressor
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression
from sklearn.neighbors import KNeighborsRegressor
from sklearn.neural_network import MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import impactset

SCENE = "cube-edge"
HALF_SIZE = 0.5  # the cube's half edge (src/impactset/robots/scenes/cube-edge.xml)
OUTPUT = "com"  # the cube's velocity (vx, vy, vz), world frame
COORDINATES = ("vx", "vy", "vz")
EXTRA_DIRECTIONS = 58  # beyond the 6 axes: 64 support directions
# The state: name, unit, range. Feature columns of the models, in this order.
STATE = (("tilt", "deg", 5.0, 45.0), ("sink", "m/s", 0.2, 1.0),
         ("slide_x", "m/s", -0.5, 0.5), ("slide_y", "m/s", -0.5, 0.5))
TRAIN_FILES = 2  # the training states are written as this many batch files
FRESH_FACTOR = 4  # fresh samples per held-out state, in multiples of --samples
# The iid design: the figures in the text above were measured with it. The default (mixed) design
# also reaches the sets' extremes, which moves the targets outward and lowers the noise floor
# (at the test's size, 128 samples a state, to 1.6 mm/s, against which the MLP's 10.6 mm/s is
# 6.5 times the floor).
DESIGN = "iid"
SWEEP_POINTS = 9  # states per dimension of the sensitivity sweep
CONFIDENCE = 0.95  # of the calibrated margin
INSIDE_TOLERANCE = 1e-9  # m/s: absorbs the roundoff of u . y


def touchdown_table(states):
    """The batch's state table: each state (tilt deg, sink, slide_x, slide_y) as the entries of
    MuJoCo's qpos and qvel it replaces in the scene's keyframe (free joint: qpos = x, y, z, qw,
    qx, qy, qz; qvel = vx, vy, vz, then body-frame rates, left at 0)."""
    tilt = np.radians(states[:, 0])
    return {  # columns by parameter name (a pandas DataFrame would do as well)
        # Rotated by the tilt about y, the corners (+h, +-h, -h) are lowest, at
        # z - h (sin + cos): this height puts that edge on the floor.
        "qpos:2": HALF_SIZE * (np.sin(tilt) + np.cos(tilt)),
        "qpos:3": np.cos(tilt / 2),  # the quaternion of a rotation about y
        "qpos:5": np.sin(tilt / 2),
        "qvel:0": states[:, 2],
        "qvel:1": states[:, 3],
        "qvel:2": -states[:, 1],
    }


def state_features(names, parameters):
    """The inverse of touchdown_table: a batch's parameter columns back to the state."""
    p = dict(zip(names, np.asarray(parameters, float).T))
    tilt = np.degrees(2 * np.arctan2(p["qpos:5"], p["qpos:3"]))
    return np.stack([tilt, -p["qvel:2"], p["qvel:0"], p["qvel:1"]], axis=1)


def draw_states(count, rng):
    return np.stack([rng.uniform(lo, hi, count) for _, _, lo, hi in STATE], axis=1)


def sample_states(states, samples, seed, keep, out):
    """Algorithm 2 at every state (impactset.batch), written to the batch file `out`."""
    r = impactset.batch(mujoco=SCENE, table=touchdown_table(states), outputs=[OUTPUT],
                        samples=samples, seed=seed, keep=keep, design=DESIGN,
                        extra_directions=EXTRA_DIRECTIONS, sets=False, threads=0, out=out)
    bad = np.flatnonzero(r.status != 0)
    if len(bad):
        raise RuntimeError(f"{out}: {len(bad)} states failed, e.g. state {bad[0]}: "
                           f"{r.messages[bad[0]]}")
    return r


def support(r):
    return r.features[OUTPUT]["support"]


def kept_samples(r):
    """Every state's kept post-impact samples, (count, d) each (the subsample's rows past a
    state's terminated samples are NaN)."""
    f = r.features[OUTPUT]
    rows = f["subsample"].reshape(len(r), -1, f["directions"].shape[1])
    return [y[~np.isnan(y).any(axis=1)] for y in rows]


# ---- the predicted set: a polytope ----

def polytope_vertices(U, h):
    """Vertices of {y : U y <= h} (U's rows unit vectors), or none when it is empty or flat."""
    d = U.shape[1]
    # Chebyshev centre: the deepest point, max r with U y + r <= h; needed as an interior point.
    lp = linprog(np.r_[np.zeros(d), -1.0], A_ub=np.c_[U, np.ones(len(U))], b_ub=h,
                 bounds=[(None, None)] * d + [(0, None)], method="highs")
    if not lp.success or lp.x[-1] <= 1e-9:
        return np.empty((0, d))
    return HalfspaceIntersection(np.c_[U, -h], lp.x[:d]).intersections


def hausdorff(vertices, hull):
    """Hausdorff distance between conv(vertices) and an impactset Hull (attained at vertices)."""
    if len(vertices) == 0:
        return math.inf
    return max(float(hull.distances(vertices).max()),
               float(impactset.hull(vertices).distances(hull.vertices).max()))


def set_metrics(U, predicted, fresh, hulls):
    """Per held-out state: coverage of its fresh samples and Hausdorff distance to their hull."""
    coverage, distance = [], []
    for h, y, hull in zip(predicted, fresh, hulls):
        coverage.append(float(np.all(y @ U.T <= h + INSIDE_TOLERANCE, axis=1).mean()))
        distance.append(hausdorff(polytope_vertices(U, h), hull))
    return np.array(coverage), np.array(distance)


# ---- models ----

def fit_mlp(X, Y):
    """Two hidden layers of 64, inputs and targets standardised, L-BFGS (small data)."""
    mlp = MLPRegressor((64, 64), solver="lbfgs", max_iter=1000, random_state=0)
    model = TransformedTargetRegressor(make_pipeline(StandardScaler(), mlp),
                                       transformer=StandardScaler())
    with warnings.catch_warnings():  # it stops at max_iter, by design
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, Y)


def fit_baselines(X, Y):
    mean = Y.mean(axis=0)
    linear = make_pipeline(StandardScaler(), LinearRegression()).fit(X, Y)
    knn = make_pipeline(StandardScaler(), KNeighborsRegressor(5, weights="distance")).fit(X, Y)
    return {"constant (training mean)": lambda Z: np.tile(mean, (len(Z), 1)),
            "linear": linear.predict,
            "k nearest neighbours (k = 5)": knn.predict}


def conformal_margin(worst, confidence):
    """Split-conformal: the finite-sample-corrected quantile of the calibration states' worst
    under-prediction. For exchangeable states, the polytope inflated by it contains a new
    state's sampled polytope with probability >= confidence."""
    n = len(worst)
    level = min(1.0, math.ceil((n + 1) * confidence) / n)
    return max(float(np.quantile(worst, level)), 0.0)


# ---- sensitivity: do the targets depend on every dimension? ----

def sweep_states():
    """SWEEP_POINTS states along each dimension through the centre of the state box."""
    centre = np.array([(lo + hi) / 2 for _, _, lo, hi in STATE])
    rows = []
    for k, (_, _, lo, hi) in enumerate(STATE):
        line = np.tile(centre, (SWEEP_POINTS, 1))
        line[:, k] = np.linspace(lo, hi, SWEEP_POINTS)
        rows.append(line)
    return np.concatenate(rows)


def sensitivity(r, U):
    """Per dimension, the mean over directions of the range of h(u) along its line, and the
    same for the set's shape: h(u) - u . mean (the support about the samples' mean)."""
    H = support(r).reshape(len(STATE), SWEEP_POINTS, -1)
    mean = r.features[OUTPUT]["mean"].reshape(len(STATE), SWEEP_POINTS, -1)
    shape = H - mean @ U.T
    return {name: {"support_range": float(np.ptp(H[k], axis=0).mean()),
                   "shape_range": float(np.ptp(shape[k], axis=0).mean())}
            for k, (name, _, _, _) in enumerate(STATE)}


# ---- report ----

def summary(values):
    v = np.asarray(values, float)
    return {"mean": float(v.mean()), "median": float(np.median(v)), "min": float(v.min()),
            "max": float(v.max())}


def outline(points):
    """Closed outline of the 2-D convex hull of points."""
    if len(points) < 3:
        return points
    ring = points[ConvexHull(points).vertices]
    return np.vstack([ring, ring[:1]])


def plot(path, U, cases):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    planes = ((0, 1), (0, 2))
    fig, axes = plt.subplots(len(planes), len(cases), figsize=(4.2 * len(cases), 7.6),
                             squeeze=False)
    for col, c in enumerate(cases):
        for row, (a, b) in enumerate(planes):
            ax = axes[row, col]
            y = c["fresh"][:, [a, b]]
            ax.scatter(*y[:2000].T, s=2, color="0.6", label="fresh samples")
            ax.plot(*outline(y).T, color="k", lw=1.2, label="their hull")
            for key, style, label in (("predicted", "-", "MLP"),
                                      ("calibrated", "--", "MLP + margin")):
                v = polytope_vertices(U, c[key])
                if len(v):
                    ax.plot(*outline(v[:, [a, b]]).T, style, color="tab:red", lw=1.2,
                            label=label)
            ax.set_xlabel(f"{COORDINATES[a]} (m/s)")
            ax.set_ylabel(f"{COORDINATES[b]} (m/s)")
            if row == 0:
                t, s, x, yy = c["state"]
                ax.set_title(f"tilt {t:.0f} deg, sink {s:.2f}, slide ({x:+.2f}, {yy:+.2f}) m/s\n"
                             f"MLP: coverage {c['coverage']:.3f}, Hausdorff "
                             f"{1e3 * c['hausdorff']:.1f} mm/s", fontsize=9)
    axes[0, 0].legend(fontsize=7, loc="best")
    fig.suptitle("cube-edge: predicted vs sampled post-impact velocity sets (held-out states)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def print_table(metrics):
    floor = metrics["noise_floor"]
    print(f"\n{'held-out states':36s} {'support MAE':>12s} {'/ floor':>8s} {'coverage':>9s} "
          f"{'Hausdorff':>10s}")
    print(f"{'':36s} {'(mm/s)':>12s} {'':>8s} {'(mean)':>9s} {'(median)':>10s}")
    for name, m in metrics["models"].items():
        mae = m.get("support_mae")
        mae_text = f"{1e3 * mae:12.2f} {mae / floor:8.2f}" if mae is not None else f"{'':21s}"
        print(f"{name:36s} {mae_text} {m['coverage']['mean']:9.3f} "
              f"{1e3 * m['hausdorff']['median']:10.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", type=int, default=2000, help="training states")
    ap.add_argument("--calibration", type=int, default=200, help="calibration states")
    ap.add_argument("--held-out", type=int, default=200, help="held-out (test) states")
    ap.add_argument("--samples", type=int, default=1024, help="samples per state")
    ap.add_argument("--torch", action="store_true",
                    help="also train the PyTorch MLP from the batch files")
    ap.add_argument("--epochs", type=int, default=300, help="PyTorch: training epochs")
    ap.add_argument("--data", default="", help="keep the batch files in this directory "
                    "(default: a temporary one, removed at the end)")
    ap.add_argument("--plot", default="learn_sets.png", help="figure file ('' = none)")
    ap.add_argument("--metrics", default="", help="also write the metrics as JSON here")
    args = ap.parse_args()
    if min(args.train, args.calibration, args.held_out) < 10:
        ap.error("--train, --calibration and --held-out must be >= 10")
    if args.samples < 16:
        ap.error("--samples must be >= 16")
    t0 = time.perf_counter()
    tmp = None
    if args.data:
        os.makedirs(args.data, exist_ok=True)
        data = args.data
    else:
        tmp = tempfile.TemporaryDirectory(prefix="learn_sets.")
        data = tmp.name

    # ---- data: one impactset.batch per split, each written as a batch file ----
    rng = np.random.default_rng(0)
    K = args.samples
    train_states = draw_states(args.train, rng)
    train_files = [os.path.join(data, f"train-{i}.h5") for i in range(TRAIN_FILES)]
    train = [sample_states(part, K, 10 + i, 16, path) for i, (part, path) in
             enumerate(zip(np.array_split(train_states, TRAIN_FILES), train_files))]
    cal = sample_states(draw_states(args.calibration, rng), K, 20, 16,
                        os.path.join(data, "calibration.h5"))
    test_file = os.path.join(data, "held-out.h5")
    test_states = draw_states(args.held_out, rng)
    test = sample_states(test_states, K, 30, 16, test_file)
    # The same held-out states again: another sample set of the same size (the noise floor),
    # and fresh samples, all kept, to judge the predicted sets.
    again = sample_states(test_states, K, 31, 16, os.path.join(data, "held-out-again.h5"))
    fresh_n = FRESH_FACTOR * K
    fresh = sample_states(test_states, fresh_n, 32, fresh_n,
                          os.path.join(data, "held-out-fresh.h5"))
    sweep = sample_states(sweep_states(), fresh_n, 40, 16, os.path.join(data, "sweep.h5"))
    t_sample = time.perf_counter() - t0

    U = test.features[OUTPUT]["directions"]
    X = np.concatenate([state_features(r.parameter_names, r.parameters) for r in train])
    Y = np.concatenate([support(r) for r in train])
    X_cal, Y_cal = state_features(cal.parameter_names, cal.parameters), support(cal)
    X_test, Y_test = state_features(test.parameter_names, test.parameters), support(test)
    noise_floor = float(np.abs(support(again) - Y_test).mean())

    # ---- models ----
    t1 = time.perf_counter()
    predictors = fit_baselines(X, Y)
    mlp = fit_mlp(X, Y)
    predictors["MLP (scikit-learn)"] = mlp.predict
    t_mlp = time.perf_counter() - t1
    margin = conformal_margin((Y_cal - mlp.predict(X_cal)).max(axis=1), CONFIDENCE)
    torch_report = None
    if args.torch:
        import learn_sets_torch  # imported here: PyTorch only when asked for
        t2 = time.perf_counter()
        net, losses = learn_sets_torch.train(train_files, epochs=args.epochs)
        predictors["MLP (PyTorch, from batch files)"] = lambda Z: learn_sets_torch.predict(net, Z)
        torch_report = {"epochs": args.epochs, "loss": losses,
                        "seconds": time.perf_counter() - t2}

    # ---- evaluation on the held-out states ----
    Y_fresh = kept_samples(fresh)
    hulls = [impactset.hull(y) for y in Y_fresh]
    predictions = {name: p(X_test) for name, p in predictors.items()}
    predictions["MLP + calibrated margin"] = predictions["MLP (scikit-learn)"] + margin
    predictions["another sample set (noise floor)"] = support(again)
    models, per_state = {}, {}
    for name, P in predictions.items():
        per_state[name] = set_metrics(U, P, Y_fresh, hulls)
        coverage, distance = per_state[name]
        models[name] = {"support_mae": float(np.abs(P - Y_test).mean()),
                        "coverage": summary(coverage), "hausdorff": summary(distance)}
    models["MLP + calibrated margin"]["support_mae"] = None  # shifted on purpose: not h
    extent = np.array([np.ptp(y, axis=0).max() for y in Y_fresh])  # largest coordinate extent
    # How much of each set's mass lies near the boundary of its own polytope (why a prediction
    # a little inside loses coverage fast).
    near = np.mean([np.mean((h - y @ U.T).min(axis=1) < noise_floor)
                    for h, y in zip(support(fresh), Y_fresh)])
    metrics = {
        "scene": SCENE, "output": OUTPUT, "directions": len(U),
        "state": {name: {"unit": unit, "low": lo, "high": hi} for name, unit, lo, hi in STATE},
        "states": {"train": args.train, "calibration": args.calibration,
                   "held_out": args.held_out, "sweep": len(STATE) * SWEEP_POINTS},
        "train_files": TRAIN_FILES, "samples": K, "fresh_samples": fresh_n,
        "noise_floor": noise_floor, "margin": margin,
        "set_extent": summary(extent), "fresh_near_boundary": float(near),
        "models": models,
        "sensitivity": sensitivity(sweep, U),
        "sampling_seconds": t_sample, "mlp_seconds": t_mlp,
    }
    if torch_report:
        metrics["torch"] = torch_report
    if args.plot:
        P = predictions["MLP (scikit-learn)"]
        coverage, distance = per_state["MLP (scikit-learn)"]
        plot(args.plot, U, [{"state": X_test[k], "fresh": Y_fresh[k], "predicted": P[k],
                             "calibrated": P[k] + margin, "coverage": coverage[k],
                             "hausdorff": distance[k]} for k in range(3)])
    metrics["seconds"] = time.perf_counter() - t0

    print(f"{SCENE}: {args.train} training states ({TRAIN_FILES} batch files), "
          f"{args.calibration} calibration, {args.held_out} held out\n{K} samples per state, "
          f"{fresh_n} fresh per held-out state; {len(U)} support directions of {OUTPUT}")
    print(f"time {metrics['seconds']:.1f} s (sampling {t_sample:.1f} s, scikit-learn MLP "
          f"{t_mlp:.1f} s" + (f", PyTorch MLP {torch_report['seconds']:.1f} s" if torch_report
                              else "") + ")")
    print_table(metrics)
    print(f"\nnoise floor {1e3 * noise_floor:.2f} mm/s; held-out sets' extent: median "
          f"{1e3 * np.median(extent):.1f} mm/s; calibrated margin {1e3 * margin:.2f} mm/s\n"
          f"{100 * near:.0f} % of the fresh samples lie within the noise floor of their own "
          "polytope's boundary")
    print("\nalong each state dimension through the centre (mean over directions, "
          f"{fresh_n} samples per state)")
    print(f"{'':10s} {'support range':>14s} {'/ floor':>8s} {'shape range':>12s}")
    for name, s in metrics["sensitivity"].items():
        print(f"{name:10s} {1e3 * s['support_range']:9.1f} mm/s "
              f"{s['support_range'] / noise_floor:8.1f} {1e3 * s['shape_range']:7.1f} mm/s")
    if torch_report:
        loss = torch_report["loss"]
        print(f"\nPyTorch: training loss {loss[0]:.4f} (epoch 1) -> {loss[-1]:.4f} "
              f"(epoch {len(loss)}), standardised targets")
    if args.plot:
        print(f"plot: {args.plot}")
    if args.data:
        print(f"batch files: {args.data}")
    if args.metrics:
        with open(args.metrics, "w") as f:
            json.dump(metrics, f, indent=1)
    if tmp:
        tmp.cleanup()


if __name__ == "__main__":
    sys.exit(main())
