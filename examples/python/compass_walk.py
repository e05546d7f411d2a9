#!/usr/bin/python3
"""A passive compass gait walking down a slope: how far apart do its step-to-step states spread
when every heel strike is one draw from the set of post-impact velocities? Set-valued rollouts
(impactset.rollout) against MuJoCo's own impacts (docs/rollouts.md "A compass gait walking down a
slope").

The shipped scene compass-gait-slope (src/impactset/robots/scenes/compass-gait-slope.xml) is the
paper's compass gait (legs 1 m, 1 kg point masses at mid-leg, a massless hip, mu = 5) on a 3 degree
slope, each leg on its own lane of stepping stones. Its keyframe `walk` is the state just before a
heel strike on its stable gait. Every heel strike is a two-contact impact (the trailing foot still
stands on its stone), so Routh's law admits a set of outcomes; each rollout draws one at each
strike and MuJoCo carries the swing in between.

The heel strikes are found in the recorded states: a foot stands when it is within 1 mm of its
stone's top and moves slower than 5 cm/s, and a strike is the stance passing to the other foot.
The step-to-step state is read 2 ms after each strike, for both alike: MuJoCo's own soft strike
takes about 2 ms (8 timesteps), and after a set-valued strike MuJoCo's contact pushes the new stance
foot, which the event found sunk up to 0.2 mm into its stone, back out within about 1 ms (the
trailing foot that leaves is released from MuJoCo's contact and keeps its drawn velocity). It is the
inter-leg angle, the angular velocities of the new stance leg and of the swing leg, the step's
duration and its length. A rollout fell when the hip went below 0.8 m (it stays above 0.97 m while
walking); its steps are the strikes before that.

Printed (Markdown): how many rollouts fell and how many steps each made, then per step index the
step-to-step states over the rollouts that made that step (mean +- sd, min, max) beside MuJoCo's
own, and the spread over the rollouts against MuJoCo's own variation from step to step.

Usage: examples/python/compass_walk.py [--rollouts 200] [--horizon 6] [--seed 1] [--threads 0]
                                        [--figure OUT.png]
--figure draws the step-to-step states per step index (needs matplotlib). 200 rollouts of 6 s take
about 20 s on two threads.
"""
import argparse
import pathlib
import warnings

import numpy as np

import impactset

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENE = str(ROOT / "src/impactset/robots/scenes/compass-gait-slope.xml")
FELL_BELOW = 0.8       # m: hip height; walking keeps it above 0.97 m
STANDS_HEIGHT = 1e-3   # m: a standing foot is within this of its stone's top (it sinks < 0.3 mm)
STANDS_SPEED = 0.05    # m/s: ... and this slow (a leaving foot moves faster than 0.2 m/s)
AFTER_STRIKE = 0.002   # s: where the post-strike state is read
MIN_STEP = 0.1         # m: a strike counts as a step when the new foot lands this far ahead
STATES = ("inter-leg angle (rad)", "stance leg angular velocity (rad/s)",
          "swing leg angular velocity (rad/s)", "step time (s)", "step length (m)")


def _trajectory(path, keyframe, horizon, rollouts, seed, threads, record_every, **mujoco_only):
    """Runs rollouts with their states recorded; returns the result and its trajectory's time,
    qpos and qvel."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # "no impact event": MuJoCo alone
        r = impactset.rollout(path, keyframe=keyframe, horizon=horizon, rollouts=rollouts,
                              seed=seed, threads=threads, record_every=record_every,
                              **mujoco_only)
    g = r.trajectory
    return r, g["time"], g["qpos"], g["qvel"]


def simulate(rollouts=200, horizon=6.0, seed=1, threads=0, record_every=4, path=SCENE,
             keyframe="walk"):
    """The set-valued rollouts and MuJoCo's own run (the same start with no impact event: MuJoCo
    bit for bit), each with its recorded states: time (R, T), qpos (R, T, 4), qvel (R, T, 4),
    NaN after a rollout's end."""
    r, t, q, v = _trajectory(path, keyframe, horizon, rollouts, seed, threads, record_every)
    m, mt, mq, mv = _trajectory(path, keyframe, horizon, 1, seed, threads, record_every,
                                impact_speed=1e9, baseline=False)
    np.testing.assert_array_equal(m.qpos[0], r.baseline["qpos"][0])  # the same MuJoCo run
    return {"rollouts": r, "time": t, "qpos": q, "qvel": v,
            "mujoco": {"time": mt[0], "qpos": mq[0], "qvel": mv[0]}, "timestep": r.timestep,
            "record_every": record_every}


def feet(qpos, qvel):
    """Each foot's x, z and velocity (..., 2 legs): foot = hip + (sin theta, -cos theta)."""
    th, w = qpos[..., 2:4], qvel[..., 2:4]
    x = qpos[..., :1] + np.sin(th)
    z = qpos[..., 1:2] - np.cos(th)
    vx = qvel[..., :1] + np.cos(th) * w
    vz = qvel[..., 1:2] + np.sin(th) * w
    return x, z, np.hypot(vx, vz)


def step_states(time, qpos, qvel, record_dt):
    """One rollout's heel strikes: returns (states (S, 5) in the order of STATES, fell). The
    stance starts on the rear foot (the first record may already follow the first strike)."""
    n = int(np.isfinite(time).sum())
    time, qpos, qvel = time[:n], qpos[:n], qvel[:n]
    low = np.nonzero(qpos[:, 1] < FELL_BELOW)[0]
    end = low[0] if len(low) else n
    x, z, speed = feet(qpos, qvel)
    stands = (np.abs(z) < STANDS_HEIGHT) & (speed < STANDS_SPEED)
    lag = max(1, int(round(AFTER_STRIKE / record_dt)))
    stance = int(np.argmin(x[0]))
    last_x, last_t, rows = x[0, stance], np.nan, []  # no step time for the first
    for i in range(end):
        new = 1 - stance
        if not (stands[i, new] and not stands[i, stance]):
            continue
        if x[i, new] - last_x > MIN_STEP and i + lag < end:
            j = i + lag
            rows.append((qpos[j, 2 + new] - qpos[j, 2 + stance], qvel[j, 2 + new],
                         qvel[j, 2 + stance], time[i] - last_t, x[i, new] - last_x))
            last_t = time[i]
        stance, last_x = new, x[i, new]
    return np.array(rows).reshape(-1, len(STATES)), bool(len(low))


def study(sim):
    """Per rollout its step-to-step states and whether it fell; the same for MuJoCo alone."""
    dt = sim["timestep"] * sim["record_every"]
    runs = [step_states(sim["time"][i], sim["qpos"][i], sim["qvel"][i], dt)
            for i in range(len(sim["time"]))]
    m = sim["mujoco"]
    return runs, step_states(m["time"], m["qpos"], m["qvel"], dt)


def per_step(runs, k):
    """The states at step k (1-based) of every rollout that made it: (n, 5)."""
    return np.array([s[k - 1] for s, _ in runs if len(s) >= k]).reshape(-1, len(STATES))


def summary_table(sim, runs, mujoco):
    r = sim["rollouts"]
    steps = np.array([len(s) for s, _ in runs])
    fell = sum(f for _, f in runs)
    horizon = float(r.options["horizon"]) if "horizon" in r.options else np.nanmax(sim["time"])
    lines = [f"| impacts | rollouts | fell (hip below {FELL_BELOW} m) | steps in {horizon:g} s: "
             "min / mean / max | impact events per rollout |", "|---|---|---|---|---|",
             f"| set-valued (seed {r.key[0].split('/')[0]}) | {len(runs)} | {fell} | "
             f"{steps.min()} / {steps.mean():.1f} / {steps.max()} | {r.events.mean():.1f} |",
             f"| MuJoCo's own | 1 | {int(mujoco[1])} | {len(mujoco[0])} | 0 |"]
    return "\n".join(lines)


def step_table(runs, mujoco):
    ms = mujoco[0]
    kmax = max(len(s) for s, _ in runs)
    head = "| step | rollouts | " + " | ".join(STATES[:4]) + " |"
    lines = [head, "|---" * 6 + "|"]
    for k in range(1, kmax + 1):
        s = per_step(runs, k)
        cells = []
        for c in range(4):
            base = f"{ms[k - 1, c]:+.3f}" if len(ms) >= k else "—"
            if np.isnan(s[:, c]).all():
                cells.append("—")
                continue
            cells.append(f"{np.nanmean(s[:, c]):+.3f} ± {np.nanstd(s[:, c]):.3f} "
                         f"[{np.nanmin(s[:, c]):+.3f}, {np.nanmax(s[:, c]):+.3f}] · {base}")
        lines.append(f"| {k} | {len(s)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def spread_table(runs, mujoco, first=3):
    """From step `first` on: the spread over the rollouts at a step (the sd at each step, its
    median over the steps) against MuJoCo's own variation from step to step (its sd over steps)
    and the offset of the rollouts' mean from MuJoCo's mean."""
    ms = mujoco[0][first - 1:]
    kmax = min(max(len(s) for s, _ in runs), first - 1 + len(ms))
    per = [per_step(runs, k) for k in range(first, kmax + 1)]
    lines = [f"| state (steps {first}-{kmax}) | spread over rollouts (median sd) | "
             "MuJoCo alone: sd over its steps | rollouts' mean - MuJoCo's mean |",
             "|---|---|---|---|"]
    for c, name in enumerate(STATES):
        sd = np.median([p[:, c].std() for p in per])
        mean = np.mean(np.concatenate([p[:, c] for p in per]))
        offset = mean - ms[:, c].mean()
        lines.append(f"| {name} | {sd:.4f} | {ms[:, c].std():.4f} | {offset:+.4f} |")
    return "\n".join(lines)


def figure(runs, mujoco, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(9, 5.6), sharex=True)
    kmax = max(len(s) for s, _ in runs)
    ms = mujoco[0]
    for c, ax in enumerate(axes.flat):
        for k in range(1, kmax + 1):
            s = per_step(runs, k)[:, c]
            jitter = ((np.arange(len(s)) % 21) - 10) * 0.012
            ax.scatter(k + jitter, s, s=3, color="0.55", lw=0,
                       label="set-valued rollouts" if k == 1 else None)
        means = [np.nanmean(per_step(runs, k)[:, c]) if k > 1 or c < 3 else np.nan
                 for k in range(1, kmax + 1)]
        ax.plot(range(1, kmax + 1), means, color="black", lw=1, label="their mean")
        ax.plot(range(1, len(ms) + 1), ms[:, c], color="tab:red", marker="x", lw=1,
                label="MuJoCo's own impacts")
        ax.set_ylabel(STATES[c], fontsize=8)
        ax.tick_params(labelsize=8)
    for ax in axes[1]:
        ax.set_xlabel("heel strike")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8, markerscale=2)
    fig.suptitle("compass gait on a 3° slope: the state 2 ms after each heel strike", fontsize=9)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    fig.savefig(path, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=200)
    parser.add_argument("--horizon", type=float, default=6.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--record-every", type=int, default=4)
    parser.add_argument("--figure")
    args = parser.parse_args()
    sim = simulate(args.rollouts, args.horizon, args.seed, args.threads, args.record_every)
    runs, mujoco = study(sim)
    print(summary_table(sim, runs, mujoco))
    print()
    print(step_table(runs, mujoco))
    print()
    print(spread_table(runs, mujoco))
    if args.figure:
        figure(runs, mujoco, args.figure)


if __name__ == "__main__":
    main()
