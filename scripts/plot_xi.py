#!/usr/bin/python3
"""Billiard unpredictability xi(theta): the analogue of Seghete & Murphey's Fig. 5.

Drives `impactset uniqueness --system billiard --param theta=... --json` over a sweep of the
angle theta at the cue ball (theta_min, pi) and plots xi = ||p_ab - p_ba||_g / ||p0||_g, the
diameter of the elastic outcome set relative to the incoming momentum (Seghete & Murphey
T-ASE 2014 §VII-A). For equal balls it overlays the closed form derived in
docs/parametric-systems.md and prints the largest deviation; it also checks the curve's shape:
zero at theta = pi/2 and towards pi, 0.75 at theta_min = 60 degrees, the 2 -> 3 reflection switch at
128.17 degrees with xi = (sqrt 5 - 1)/2.

Usage: plot_xi.py IMPACTSET [--ra 1 --rb 1 --rc 1] [--points 90] [--out xi.png]
Exit status 1 if the equal-ball curve deviates from the closed form by more than --tolerance.
"""
import argparse
import json
import math
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def min_angle(ra, rb, rc):
    """theta at which a and b touch (law of cosines at c)."""
    da, db, dab = ra + rc, rb + rc, ra + rb
    return math.acos(max(-1.0, min(1.0, (da * da + db * db - dab * dab) / (2 * da * db))))


def xi_closed_form(theta):
    """docs/parametric-systems.md, equal masses: two reflections up to theta_sw, three after."""
    theta_sw = math.acos((1 - math.sqrt(5)) / 2)
    common = math.sqrt(2) * math.cos(theta / 2) * math.sqrt(2 - math.cos(theta))
    if theta <= theta_sw:
        return abs(math.cos(theta)) * common
    return math.sin(theta) ** 2 * common


def run_xi(binary, theta, ra, rb, rc):
    cmd = [binary, "uniqueness", "--system", "billiard", "--json",
           "--param", f"theta={theta!r}", "--param", f"ra={ra!r}",
           "--param", f"rb={rb!r}", "--param", f"rc={rc!r}"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    j = json.loads(out)
    return j["unpredictability"]["xi"], j["distinct_outcomes"]


def sweep(binary, ra, rb, rc, points):
    lo = min_angle(ra, rb, rc)
    # theta_min itself adds the a-b contact; pi is grazing (no impact): stay inside.
    thetas = np.linspace(lo + 1e-6, math.pi - 1e-4, points)
    # Include the landmark angles (90, 120, 128.17, 135, 150 degrees) so the check sees them
    # exactly.
    extra = [math.pi / 2, math.acos((1 - math.sqrt(5)) / 2), 2 * math.pi / 3, 3 * math.pi / 4,
             5 * math.pi / 6]
    thetas = np.unique(np.concatenate([thetas, [t for t in extra if lo < t < math.pi]]))
    xs, counts = [], []
    for t in thetas:
        x, c = run_xi(binary, float(t), ra, rb, rc)
        xs.append(x)
        counts.append(c)
    return thetas, np.array(xs), np.array(counts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("impactset", help="path of the built impactset binary")
    ap.add_argument("--ra", type=float, default=1.0)
    ap.add_argument("--rb", type=float, default=1.0)
    ap.add_argument("--rc", type=float, default=1.0)
    ap.add_argument("--points", type=int, default=90)
    ap.add_argument("--large-cue", action="store_true",
                    help="also plot the speculative large-cue variant (rc = 2.8637)")
    ap.add_argument("--tolerance", type=float, default=1e-9,
                    help="allowed deviation from the equal-ball closed form")
    ap.add_argument("--out", default="xi.png")
    a = ap.parse_args()

    thetas, xs, counts = sweep(a.impactset, a.ra, a.rb, a.rc, a.points)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot(np.degrees(thetas), 100 * xs, "o", ms=3,
            label=f"impactset uniqueness (ra={a.ra:g}, rb={a.rb:g}, rc={a.rc:g})")
    status = 0
    if a.ra == a.rb == a.rc:
        fine = np.linspace(thetas[0], thetas[-1], 600)
        ax.plot(np.degrees(fine), [100 * xi_closed_form(t) for t in fine], "-", lw=1,
                label="closed form (docs/parametric-systems.md)")
        dev = max(abs(x - xi_closed_form(t)) for t, x in zip(thetas, xs))
        print(f"max |xi - closed form| over {len(thetas)} angles: {dev:.3g}")
        checks = {
            "xi(90 deg) = 0": abs(xs[np.argmin(abs(thetas - math.pi / 2))]) < 1e-9,
            "xi(theta_min) ~ 0.75": abs(xs[0] - 0.75) < 1e-4,
            "xi(128.17 deg) = 0.618034": abs(
                xs[np.argmin(abs(thetas - math.acos((1 - math.sqrt(5)) / 2)))] -
                (math.sqrt(5) - 1) / 2) < 1e-9,
            "xi -> 0 towards 180 deg": xs[-1] < 1e-6,
            "max closed-form deviation": dev <= a.tolerance,
        }
        for k, ok in checks.items():
            print(f"  {'ok  ' if ok else 'FAIL'} {k}")
            status |= 0 if ok else 1
    left = thetas[0]
    if a.large_cue:
        lt, lx, _ = sweep(a.impactset, 1.0, 1.0, 2.8637, a.points)
        left = min(left, lt[0])
        ax.plot(np.degrees(lt), 100 * lx, "s", ms=2.5, label="large cue ball rc = 2.8637")
        print(f"large cue: max xi {lx.max():.4f} at {math.degrees(lt[lx.argmax()]):.1f} deg")
    ax.axvline(90, color="0.7", lw=0.8, ls=":")
    ax.set_xlabel("theta: angle at the cue ball between a and b [deg]")
    ax.set_ylabel("xi [% of ||p0||_g]")
    ax.set_title("Billiard break: ordering unpredictability xi(theta) (cf. [S-J] Fig. 5)")
    ax.set_xlim(np.degrees(left) - 2, 182)
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print(f"wrote {a.out}; distinct outcomes per angle: {sorted(set(counts.tolist()))}")
    return status


if __name__ == "__main__":
    sys.exit(main())
