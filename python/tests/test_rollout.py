"""impactset.rollout: the same rollouts as the command line's, at any thread count, replayable,
with a policy callback, picklable, written to a labelled file, and refusals naming the field."""
import pickle

import h5py
import numpy as np
import pytest

import impactset
from conftest import ROOT

TIPPED = "tipped=max(abs(root:qx)) > 0.01"


@pytest.fixture
def box():
    return str(ROOT / "tests/data/rollouts/box-drop.xml")


@pytest.fixture
def arm():
    return str(ROOT / "tests/data/rollouts/arm.xml")


def test_rollouts_are_the_same_at_any_thread_count_and_replay(box):
    one = impactset.rollout(box, horizon=0.2, rollouts=12, seed=3, threads=1, metrics=[TIPPED])
    two = impactset.rollout(box, horizon=0.2, rollouts=12, seed=3, threads=2, metrics=[TIPPED])
    np.testing.assert_array_equal(one.qvel, two.qvel)
    np.testing.assert_array_equal(one.metrics, two.metrics)
    assert one.key[5] == "3/5"
    again = impactset.rollout(box, horizon=0.2, seed=99, metrics=[TIPPED], replay=one.key[5])
    np.testing.assert_array_equal(again.qvel[0], one.qvel[5])
    assert len({tuple(v) for v in one.qvel}) > 6  # the two-corner landing has many outcomes
    s = one.summaries["tipped"]
    assert s["is_event"] and s["counted"] == 12
    assert s["lower"] <= s["true_count"] / 12 <= s["upper"]
    assert one.baseline["key"] == ["mujoco"]
    assert one.counts["ok"] == 12 and one.counts["events"] >= 12


@pytest.mark.filterwarnings("ignore:.*no impact event in any rollout")
def test_a_policy_drives_the_actuators(arm):
    hold = dict(horizon=0.5, rollouts=1, threads=2, metrics=["sag=max(abs(shoulder - 0.3))"])
    pd = impactset.rollout(arm, pd_posture=(200, 20), **hold)

    def policy(t, qpos, qvel):
        assert qpos.shape == (1,) and qvel.shape == (1,)
        return [(200 * (0.3 - qpos[0]) - 20 * qvel[0]) / 2]  # gear 2

    mine = impactset.rollout(arm, policy=policy, **hold)
    assert mine.metric("sag")[0] == pytest.approx(pd.metric("sag")[0], rel=1e-12)
    free = impactset.rollout(arm, **hold)
    assert free.metric("sag")[0] > 0.3 > pd.metric("sag")[0]
    with pytest.raises(ZeroDivisionError):
        impactset.rollout(arm, policy=lambda t, q, v: 1 / 0, **hold)


def test_the_result_pickles_and_the_file_is_labelled(box, tmp_path):
    out = tmp_path / "r.h5"
    r = impactset.rollout(box, horizon=0.2, rollouts=4, metrics=[TIPPED], out=str(out),
                          record_every=20)
    back = pickle.loads(pickle.dumps(r))
    np.testing.assert_array_equal(back.qpos, r.qpos)
    assert back.summaries.keys() == r.summaries.keys()
    for name, s in r.summaries.items():  # NaN where a field does not apply, as in the file
        assert {k: str(v) for k, v in back.summaries[name].items()} == \
            {k: str(v) for k, v in s.items()}
    xr = pytest.importorskip("xarray")
    ds = xr.open_dataset(out, group="rollouts", engine="h5netcdf")
    assert ds["qpos"].dims == ("rollout", "qpos_coordinate")
    assert list(ds["qpos_coordinate"].values) == r.qpos_names
    np.testing.assert_array_equal(ds["qpos"].values, r.qpos)
    with h5py.File(out) as f:  # the result's fields are the file's, the records too
        np.testing.assert_array_equal(f["trajectory/qpos"][()], r.trajectory["qpos"])
        assert list(f["rollouts/key"].asstr()[()]) == r.key
    assert r.trajectory["time"].shape == (4, 6)  # 100 steps of 2 ms: steps 0, 20, ..., 100
    mine = r.to_xarray()  # the same labels as the file's group
    assert mine["qpos"].dims == ds["qpos"].dims
    np.testing.assert_array_equal(mine["metrics"].values, ds["metrics"].values)
    assert list(mine["metric"].values) == ["tipped"]
    frame = r.to_dataframe()
    assert list(frame.columns) == ["key", "status", "events", "time", "tipped"]


def test_bad_input_names_the_field(box, arm):
    with pytest.raises(ValueError, match="at position 16: unknown name 'rot:qx'"):
        impactset.rollout(box, metrics=["tipped=max(abs(rot:qx)) > 0.01"])
    with pytest.raises(ValueError, match="horizon = 0: must be > 0"):
        impactset.rollout(box, horizon=0)
    with pytest.raises(ValueError, match="ctrl = 2 values: must be nu = 1"):
        impactset.rollout(arm, ctrl=[1, 2])
    with pytest.raises(ValueError, match="policy"):
        impactset.rollout(arm, rollouts=1, horizon=0.01, policy=lambda t, q, v: [1, 2])
    with pytest.raises(TypeError):
        impactset.rollout(box, horizons=1)


def test_the_humanoid_example_runs(tmp_path):
    import os
    import subprocess
    import sys
    if not os.path.exists("/usr/share/mujoco/model/humanoid/humanoid.xml"):
        pytest.skip("Debian's libmujoco-samples is not installed")
    figure = tmp_path / "landing.png"
    r = subprocess.run([sys.executable, str(ROOT / "examples/python/humanoid_landing.py"),
                        "--rollouts", "4", "--threads", "2", "--figure", str(figure)],
                       capture_output=True, text=True, env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    rows = [line for line in r.stdout.splitlines() if line.startswith("| ")]
    assert len(rows) == 1 + 6  # the header and one row per controller
    assert "| PD kp 200, kd 20 | " in r.stdout
    assert figure.stat().st_size > 0


def test_falsify_searches_the_first_impact(box):
    f = impactset.falsify(box, "spin", horizon=0.2, rollouts=80, threads=2,
                          metrics=["spin=max(abs(qvel:root:wx))"])
    assert f["rollouts"] == 80 and len(f["directed_trace"]) == 4
    assert f["directed"] >= f["iid_trace"][0]  # beats at least the first iid round
    assert np.all(np.diff(f["directed_trace"]) >= 0)
    with pytest.raises(ValueError, match="falsify = spun: names no metric"):
        impactset.falsify(box, "spun", rollouts=40, metrics=["spin=max(abs(qvel:root:wx))"])
