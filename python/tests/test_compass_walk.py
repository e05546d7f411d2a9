"""The compass gait walking down a slope (scene compass-gait-slope, examples/python/compass_walk.py,
docs/rollouts.md "A compass gait walking down a slope"): MuJoCo alone and set-valued rollouts walk
several steps without falling, the states after the heel strikes spread over the rollouts while
staying near MuJoCo's gait, the foot that leaves a set-valued strike is free of MuJoCo's contact,
and the same seed gives the same records."""
import importlib.util
import warnings

import numpy as np
import pytest

import impactset

from conftest import ROOT

# By its path: the Python module takes a file (the command line also takes the shipped name).
SCENE = str(ROOT / "src/impactset/robots/scenes/compass-gait-slope.xml")
HORIZON = 4.5      # s: the first heel strike comes at once, then one every 0.48 s: 10 strikes
ROLLOUTS = 6
RECORD_EVERY = 4   # 1 ms between records at the scene's 0.25 ms timestep
MIN_STEPS = 8      # what the scene is for: several steps, not just a fall after the first
STEPS = range(1, MIN_STEPS + 1)
# The post-strike states of 200 rollouts (the example, docs/rollouts.md): over the rollouts at one
# strike the swing leg's angular velocity has a sd of 0.18-0.19 rad/s, the stance leg's 0.06-0.07
# rad/s; over 6 rollouts (seeds 1-30) the smallest sd at one of the first 8 strikes was 0.059 and
# 0.013 rad/s. Over the first 8 strikes of 200 rollouts of 4.5 s (none fell), against MuJoCo's means
# over its first 8 (0.296 rad, -1.00 rad/s, 0.472 s), the inter-leg angles lie within 0.035 rad,
# the stance leg's angular velocities within 0.19 rad/s and the step times within 0.037 s.
SPREAD_SWING = 0.03   # rad/s: no spread (a single outcome) would be 0
SPREAD_STANCE = 0.01  # rad/s
NEAR_ANGLE = 0.05     # rad
NEAR_STANCE = 0.3     # rad/s
NEAR_TIME = 0.06      # s
WALKING_HIP = 0.95    # m: the hip stays above 0.97 m while the walker walks


def _example():
    path = ROOT / "examples/python/compass_walk.py"
    spec = importlib.util.spec_from_file_location("compass_walk", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def walk():
    cw = _example()
    sim = cw.simulate(ROLLOUTS, HORIZON, seed=1, threads=2, record_every=RECORD_EVERY, path=SCENE)
    runs, mujoco = cw.study(sim)
    return cw, sim, runs, mujoco


def test_mujoco_alone_walks(walk):
    cw, sim, _, (states, fell) = walk
    assert not fell
    assert len(states) >= MIN_STEPS
    hip = sim["mujoco"]["qpos"][:, 1]
    assert np.nanmin(hip) > WALKING_HIP
    assert np.all(states[:, cw.STATES.index("step length (m)")] > 0.25)


def test_set_valued_rollouts_walk(walk):
    cw, sim, runs, _ = walk
    r = sim["rollouts"]
    assert r.status == ["ok"] * ROLLOUTS
    for i, (states, fell) in enumerate(runs):
        assert not fell, r.key[i]
        assert len(states) >= MIN_STEPS, r.key[i]
        assert r.events[i] >= MIN_STEPS, r.key[i]  # a set-valued impact at every heel strike
        assert np.nanmin(sim["qpos"][i, :, 1]) > WALKING_HIP, r.key[i]


def test_post_strike_states_spread_near_mujocos_gait(walk):
    cw, _, runs, (mujoco, _) = walk
    angle, stance, swing, time = range(4)  # cw.STATES
    ref = mujoco[:MIN_STEPS]
    for k in STEPS:
        s = cw.per_step(runs, k)
        assert len(s) == ROLLOUTS
        assert s[:, swing].std() > SPREAD_SWING, k
        assert s[:, stance].std() > SPREAD_STANCE, k
        assert np.all(np.abs(s[:, angle] - ref[:, angle].mean()) < NEAR_ANGLE), k
        assert np.all(np.abs(s[:, stance] - ref[:, stance].mean()) < NEAR_STANCE), k
        if k > 1:  # the first strike ends no step
            assert np.all(np.abs(s[:, time] - np.nanmean(ref[:, time])) < NEAR_TIME), k


def test_same_seed_same_records(walk):
    cw, *_ = walk
    one = cw.simulate(2, 1.0, seed=5, threads=1, record_every=RECORD_EVERY, path=SCENE)
    two = cw.simulate(2, 1.0, seed=5, threads=2, record_every=RECORD_EVERY, path=SCENE)
    other = cw.simulate(2, 1.0, seed=6, threads=2, record_every=RECORD_EVERY, path=SCENE)
    np.testing.assert_array_equal(one["qpos"], two["qpos"])
    np.testing.assert_array_equal(one["qvel"], two["qvel"])
    assert not np.array_equal(one["qvel"], other["qvel"], equal_nan=True)


def _foot_velocity(qpos, qvel, leg):
    """A foot's velocity (..., 2: x, z): foot = hip + (sin th, -cos th), so its velocity is the
    hip's + th_dot (cos th, sin th)."""
    th, w = qpos[..., 2 + leg], qvel[..., 2 + leg]
    return np.stack([qvel[..., 0] + np.cos(th) * w, qvel[..., 1] + np.sin(th) * w], axis=-1)


def test_leaving_foot_is_released():
    """At the keyframe leg_b stands and leg_a's foot strikes: the event is the first step, so the
    first record holds the drawn post-impact velocity, with leg_b's foot leaving its stone at
    0.7-1.1 m/s. Released from MuJoCo's contact, that foot keeps its velocity over the next 2 ms up
    to what gravity and the legs' swing change (by 0.024-0.026 m/s over 50 rollouts). MuJoCo
    stepping on from the same post-impact states, its contact still on the leaving foot, takes
    0.3-0.5 m/s of it (about half its speed) in the first timestep."""
    after = 8                                 # records: 2 ms at the 0.25 ms timestep
    bound = 3 * 9.81 * 0.002                  # m/s: 3 g over 2 ms
    r = impactset.rollout(SCENE, keyframe="walk", horizon=0.004, rollouts=8, seed=1, threads=2,
                          record_every=1)
    assert r.status == ["ok"] * 8
    assert np.all(r.events >= 1)
    q, v = r.trajectory["qpos"], r.trajectory["qvel"]
    foot = _foot_velocity(q, v, 1)            # leg_b: the trailing foot, standing before
    speed = np.linalg.norm(foot[:, 0], axis=-1)
    assert np.all(speed > 0.5), speed         # the strike happened at the first step
    change = np.linalg.norm(foot[:, after] - foot[:, 0], axis=-1)
    assert np.all(change < bound), change
    # The same quantity when MuJoCo's contact acts on the leaving foot: MuJoCo alone from each
    # drawn post-impact state (no event, so nothing is released).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # "no impact event"
        for i in range(2):
            m = impactset.rollout(SCENE, qpos=q[i, 0], qvel=v[i, 0], horizon=0.004, rollouts=1,
                                  impact_speed=1e9, baseline=False, threads=1, record_every=1)
            mf = _foot_velocity(m.trajectory["qpos"][0], m.trajectory["qvel"][0], 1)
            np.testing.assert_array_equal(mf[0], foot[i, 0])
            assert np.linalg.norm(mf[after] - mf[0]) > 3 * bound, i
