#!/usr/bin/python3
"""Fig. 12 analogue (Halm & Posa §5.4.1): point-model end states over the Routh set.

The authors' settings and our differences are in docs/examples.md §3.7.

Grey: the terminated Routh post-impact samples of `impactset run --keep-samples` in the
contact-normal plane (Jn_A v+, Jn_B v+). Coloured: the outcomes stored by `impactset sweep`
(one or more files, e.g. --model compliant and --model jia): stiffness-ratio runs coloured by
log10(k_A/k_B) (circles: compliant, triangles joined in ratio order: Jia-Mason-Erdmann), tilt runs
(/sweep/kind == 1) as squares coloured by the initial angle. Prints, per sweep file, the largest
distance from a terminated outcome to the nearest Routh sample in that plane.

Usage: scripts/plot_fig12.py ROUTH.h5 OUT.png SWEEP.h5 [SWEEP.h5 ...] [--contacts A B]
Example (rocking block):
  impactset run --system rocking-block --keep-samples --seed 12 --out routh.h5
  impactset sweep --model compliant --system rocking-block --tilt-max 0.01 --tilts 51 --out c.h5
  impactset sweep --model jia --system rocking-block --out j.h5
  scripts/plot_fig12.py routh.h5 fig12.png c.h5 j.h5
Needs python3-h5py, python3-numpy, python3-matplotlib (scripts/install-deps.sh --plot).
"""
import argparse

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

MARKERS = {"compliant": "o", "jia_mason_erdmann": "^"}
NAMES = {"compliant": "compliant", "jia_mason_erdmann": "Jia-Mason-Erdmann"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("routh")
    ap.add_argument("png")
    ap.add_argument("sweeps", nargs="+")
    ap.add_argument("--contacts", nargs=2, type=int, default=[0, 1], help="the two contacts to plot")
    args = ap.parse_args()
    a, b = args.contacts

    with h5py.File(args.routh, "r") as r:
        if "samples" not in r:
            raise SystemExit(f"{args.routh}: no /samples (run `impactset run --keep-samples`)")
        ok = r["samples/status"][()] == 0
        routh = r["samples/contact_velocity"][()][ok][:, [a, b]]
        system = r.attrs.get("system", "")

    fig, ax = plt.subplots(figsize=(6.5, 5.5))
    ax.scatter(routh[:, 0], routh[:, 1], s=40, c="0.8", lw=0, rasterized=True, zorder=1,
               label=f"Routh set ({len(routh)} samples)")
    ratio_mappable = None
    lines = []
    for path in args.sweeps:
        with h5py.File(path, "r") as s:
            if "sweep" not in s:
                raise SystemExit(f"{path}: no /sweep group (write it with `impactset sweep`)")
            model = s.attrs.get("model", "?")
            cv = s["samples/contact_velocity"][()][:, [a, b]]
            status = s["samples/status"][()]
            ratio = s["sweep/log10_stiffness_ratio"][()]
            tilt = s["sweep/tilt"][()]
            kind = s["sweep/kind"][()]
        good = status == 0
        is_ratio = good & (kind == 0)
        is_tilt = good & (kind == 1)
        name = NAMES.get(model, model)
        if is_ratio.any():
            order = np.argsort(ratio[is_ratio])
            if model == "jia_mason_erdmann":
                ax.plot(cv[is_ratio][order, 0], cv[is_ratio][order, 1], "-", c="k", lw=0.6)
            ratio_mappable = ax.scatter(
                cv[is_ratio, 0], cv[is_ratio, 1], c=ratio[is_ratio], cmap="coolwarm", vmin=-5,
                vmax=5, marker=MARKERS.get(model, "D"), s=30, edgecolors="k", linewidths=0.4,
                label=f"{name}, stiffness ratio sweep", zorder=3)
        if is_tilt.any():
            ax.scatter(cv[is_tilt, 0], cv[is_tilt, 1], c=np.degrees(tilt[is_tilt]), cmap="viridis",
                       marker="s", s=22, edgecolors="k", linewidths=0.4,
                       label=f"{name}, initial tilt sweep (colour: angle)", zorder=3)
        if (~good).any():
            ax.plot(cv[~good, 0], cv[~good, 1], "rx", label=f"{name}: run not terminated")
        d = np.sqrt(((cv[good][:, None, :] - routh[None, :, :]) ** 2).sum(-1)).min(1)
        worst = d.max() if len(d) else float("nan")
        line = (f"{name}: {good.sum()} of {len(cv)} runs terminated; worst distance to a Routh "
                f"sample in the (contact {a}, contact {b}) normal plane {worst:.3e}")
        print(line)
        lines.append(f"{name} {worst:.2e}")
    if ratio_mappable is not None:
        fig.colorbar(ratio_mappable, ax=ax, label="log10(k_A / k_B)")
    ax.axhline(0, c="k", lw=0.5)
    ax.axvline(0, c="k", lw=0.5)
    ax.set_xlabel(f"post-impact normal velocity of contact {a}  (Jn v+)")
    ax.set_ylabel(f"post-impact normal velocity of contact {b}  (Jn v+)")
    ax.set_title(f"{system}: point-model end states vs the Routh set\n"
                 f"worst distance to a Routh sample: {', '.join(lines)}", fontsize=9)
    ax.set_aspect("equal", adjustable="datalim")
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(args.png, dpi=150)
    print("wrote", args.png)


if __name__ == "__main__":
    main()
