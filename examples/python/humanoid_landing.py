#!/usr/bin/python3
"""Does a PD posture controller hold MuJoCo's humanoid through a two-footed landing, for every
outcome of the impact? Set-valued rollouts (impactset.rollout) against MuJoCo's own impact, for a
few gains (docs/rollouts.md "A controller question").

The humanoid (Debian's libmujoco-samples humanoid.xml) starts 1.30 m up (the torso; feet 1.5 cm
above the floor), level, falling at 0.5 m/s and moving forward at 0.3 m/s, and is simulated for
1 s at its 5 ms timestep. The controller holds the start's joint angles through the motors
(impactset's PD posture law, torque limited by the motors' ctrlrange). The question: does the
torso fall below 0.7 m within 1 s? For each gain: how many rollouts fall, one-sided 95 %
Clopper-Pearson bounds on P(fell) under the sampled impacts, MuJoCo's own outcome, and the spread
of the lowest torso height.

Usage: examples/python/humanoid_landing.py [--rollouts 200] [--threads 2] [--figure OUT.png]
Prints a Markdown table; --figure draws the lowest torso height per gain (needs matplotlib).
"""
import argparse
import math

import impactset

HUMANOID = "/usr/share/mujoco/model/humanoid/humanoid.xml"
QPOS = [0, 0, 1.30, 1, 0, 0, 0] + [0] * 21
QVEL = [0.3, 0, -0.5] + [0] * 24
FELL = "fell=min(root:z) < 0.7"
LOWEST = "lowest=min(root:z)"
GAINS = [None, (25, 2.5), (50, 5), (100, 10), (200, 20), (400, 40)]


def study(rollouts, threads):
    rows = []
    for gains in GAINS:
        control = {"pd_posture": gains} if gains else {}
        r = impactset.rollout(HUMANOID, qpos=QPOS, qvel=QVEL, horizon=1.0, rollouts=rollouts,
                              threads=threads, seed=1, metrics=[FELL, LOWEST], **control)
        rows.append((gains, r))
    return rows


def table(rows):
    lines = ["| controller | fell (of rollouts) | P(fell) at 95 % | MuJoCo alone | "
             "lowest torso z: min / mean / max | MuJoCo alone | events per rollout |",
             "|---|---|---|---|---|---|---|"]
    for gains, r in rows:
        b, low = r.summaries["fell"], r.summaries["lowest"]
        name = f"PD kp {gains[0]:g}, kd {gains[1]:g}" if gains else "motors off"
        lines.append(
            f"| {name} | {b['true_count']} of {b['counted']} | {b['lower']:.3f} – {b['upper']:.3f} "
            f"| {'fell' if b['baseline'] else 'stood'} | {low['min']:.3f} / {low['mean']:.3f} / "
            f"{low['max']:.3f} m | {low['baseline']:.3f} m | {r.events.mean():.1f} |")
    return "\n".join(lines)


def figure(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 3.6))
    labels = []
    for i, (gains, r) in enumerate(rows):
        low = r.metric("lowest")
        jitter = [(k % 21 - 10) * 0.012 for k in range(len(low))]
        ax.scatter([i + j for j in jitter], low, s=5, color="0.4", label="set-valued" if i == 0 else None)
        ax.scatter([i], [r.summaries["lowest"]["baseline"]], s=40, marker="x", color="tab:red",
                   label="MuJoCo alone" if i == 0 else None)
        labels.append(f"kp {gains[0]:g}" if gains else "off")
    ax.axhline(0.7, color="tab:blue", lw=0.8, ls="--", label="fell below")
    ax.set_xticks(range(len(rows)), labels)
    ax.set_xlabel("PD posture gain (kd = kp / 10)")
    ax.set_ylabel("lowest torso height in 1 s (m)")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=200)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--figure")
    args = parser.parse_args()
    rows = study(args.rollouts, args.threads)
    print(table(rows))
    if args.figure:
        figure(rows, args.figure)
    assert all(not math.isnan(r.summaries["lowest"]["mean"]) for _, r in rows)


if __name__ == "__main__":
    main()
