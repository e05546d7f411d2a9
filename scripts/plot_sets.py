#!/usr/bin/python3
"""Paper-style picture of an impactset dataset in the contact-normal plane (Halm & Posa Figs 9-14).

Light grey: every intermediate velocity of the kept trajectories (the reachable set, /reachable).
Dark grey: terminated post-impact samples (/samples). Optional markers: the outcomes of other
impact laws from `impactset compare --json` (keys anitescu_potra, sequential, ... each a list of
outcomes with "contact_velocity").

Usage: scripts/plot_sets.py FILE.h5 OUT.png [--compare compare.json] [--contacts A B]
Needs python3-h5py, python3-numpy, python3-matplotlib (scripts/install-deps.sh --plot).
"""
import argparse
import json

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("h5")
    ap.add_argument("png")
    ap.add_argument("--compare", help="JSON printed by `impactset compare --json`")
    ap.add_argument("--contacts", nargs=2, type=int,
                    help="the two contacts to plot (default: the two approaching fastest before impact)")
    args = ap.parse_args()

    f = h5py.File(args.h5, "r")
    Jn = f["problem/Jn"][:]
    if args.contacts:
        a, b = args.contacts
    else:  # e.g. the disk stack's floor contacts start at rest; its discs' contacts C, D approach
        a, b = sorted(np.argsort(Jn @ f["problem/v_minus"][:], kind="stable")[:2])
    fig, ax = plt.subplots(figsize=(5.5, 5))
    if "reachable" in f:
        vn = f["reachable/velocities"][:] @ Jn.T
        ax.scatter(vn[:, a], vn[:, b], s=1, c="0.85", lw=0, label="reachable (intermediate)", rasterized=True)
    if "samples" in f:
        ok = f["samples/status"][:] == 0
        cv = f["samples/contact_velocity"][:][ok]
        ax.scatter(cv[:, a], cv[:, b], s=1, c="0.35", lw=0, label="post-impact samples", rasterized=True)
    else:
        lo, hi = f["summary/contact_velocity_min"][:], f["summary/contact_velocity_max"][:]
        ax.add_patch(plt.Rectangle((lo[a], lo[b]), hi[a] - lo[a], hi[b] - lo[b], fc="0.6", ec="k",
                                   label="post-impact bounding box (run with --keep-samples for points)"))
    vm = f["problem/v_minus"][:] @ Jn.T
    ax.plot(vm[a], vm[b], "kx", ms=8, label="pre-impact")
    if args.compare:
        markers = {"anitescu_potra": ("o", "tab:red"), "sequential": ("s", "tab:blue")}
        comp = json.load(open(args.compare))
        for key, outcomes in comp.items():
            if not isinstance(outcomes, list):
                continue
            mk, col = markers.get(key, ("^", None))
            for ended in (True, False):  # outcomes stopped by a round/iteration cap drawn dashed
                pts = np.array([o["contact_velocity"][:Jn.shape[0]] for o in outcomes if "contact_velocity" in o
                                and (o.get("status", "terminated") == "terminated") == ended])
                if len(pts):
                    ax.plot(pts[:, a], pts[:, b], mk, mfc="none", color=col, ms=9, mew=1.5,
                            alpha=1 if ended else 0.45,
                            label=key.replace("_", " ") + ("" if ended else " (not terminated)"))
    ax.axhline(0, c="k", lw=0.5)
    ax.axvline(0, c="k", lw=0.5)
    ax.set_xlabel(f"normal velocity of contact {a}  (Jn v)")
    ax.set_ylabel(f"normal velocity of contact {b}  (Jn v)")
    ax.set_title(f"{f.attrs['system']}: {int(f.attrs['samples'])} samples, h = {f.attrs['h']:g}, N = {int(f.attrs['max_steps'])}")
    leg = ax.legend(fontsize=7, loc="best")
    for h in getattr(leg, "legend_handles", None) or getattr(leg, "legendHandles", []):
        if hasattr(h, "set_sizes"):  # the 1-pixel scatter dots: visible in the legend
            h.set_sizes([12])
    fig.tight_layout()
    fig.savefig(args.png, dpi=150)
    print("wrote", args.png)


if __name__ == "__main__":
    main()
