"""impactset.batch and BatchJob: the command line's batch bit for bit, state tables from pandas
and dicts, the split over processes (run_states, assemble; a Dask cluster), resume, pickling,
the labelled views and the errors; batches of rollouts (rollouts=)."""
import pathlib
import pickle
import subprocess

import numpy as np
import pandas as pd
import pytest

import impactset

COMPASS = dict(system="compass-touchdown", vary={"angle": (2.6, 2.8, 3), "rate": (0.2, 0.4, 2)},
               samples=128, holdout=256)
COMPASS_FLAGS = ["--system", "compass-touchdown", "--vary", "angle=2.6:2.8:3",
                 "--vary", "rate=0.2:0.4:2", "--samples", "128", "--holdout", "256"]


def assert_same_arrays(a, b):
    """Every array of two batches equal (NaN where the other has NaN: an undefined bound)."""
    x, y = a.to_dict()["arrays"], b.to_dict()["arrays"]
    assert x.keys() == y.keys()
    assert len(x) > 20  # the whole layout, not an empty one
    for path, u in x.items():
        v = y[path]
        if u.dtype == object:
            assert list(u) == list(v), path
        else:
            assert u.dtype == v.dtype and np.array_equal(u, v, equal_nan=u.dtype.kind == "f"), path


@pytest.fixture(scope="module")
def compass():
    return impactset.batch(**COMPASS)


def test_batch_equals_the_command_line(cli, tmp_path, compass):
    out = tmp_path / "cli.h5"
    subprocess.run([cli, "batch", *COMPASS_FLAGS, "--out", str(out)], check=True,
                   capture_output=True)
    assert_same_arrays(compass, impactset.read_batch(out))
    assert compass.count == 6 and list(compass.status) == [0] * 6
    assert compass.parameter_names == ["angle", "rate"]
    np.testing.assert_array_equal(compass.parameters[:, 1], [0.2, 0.4] * 3)


def test_batch_writes_the_file_it_returns(tmp_path, compass):
    out = tmp_path / "b.h5"
    r = impactset.batch(**COMPASS, out=out)
    assert_same_arrays(r, impactset.read_batch(out))
    assert_same_arrays(r, compass)
    assert not (tmp_path / "b.h5.parts").exists()


def test_a_state_table_from_pandas_a_dict_or_a_csv_file(cli, tmp_path):
    angles, rates = [2.61, 2.75, 2.7], [0.3, 0.25, 0.4]
    csv = tmp_path / "states.csv"
    csv.write_text("angle,rate\n" + "".join(f"{a!r},{r!r}\n" for a, r in zip(angles, rates)))
    out = tmp_path / "cli.h5"
    subprocess.run([cli, "batch", "--system", "compass-touchdown", "--state-table", str(csv),
                    "--samples", "64", "--holdout", "0", "--out", str(out)], check=True,
                   capture_output=True)
    expected = impactset.read_batch(out)
    common = dict(system="compass-touchdown", samples=64, holdout=0)
    for table in (pd.DataFrame({"angle": angles, "rate": rates}),
                  {"angle": np.array(angles), "rate": rates}, csv):
        assert_same_arrays(impactset.batch(table=table, **common), expected)


def test_states_computed_apart_assemble_to_the_same_batch(compass):
    job = impactset.BatchJob(**COMPASS)
    records = job.run_states([5, 1]) + job.run_states([0, 4, 2]) + job.run_states([3])
    assert all(isinstance(r, bytes) for r in records)
    assert_same_arrays(job.assemble(reversed(records)), compass)
    with pytest.raises(ValueError, match=r"state = 3: missing \(1 of 6"):
        job.assemble(records[:-1])
    with pytest.raises(ValueError, match="state = 3: given twice"):
        job.assemble(records + records[-1:])
    with pytest.raises(ValueError, match=r"indices = 6: not a state of this batch \(0 \.\.\. 5\)"):
        job.run_states([6])


def test_job_and_result_pickle(compass):
    job = pickle.loads(pickle.dumps(impactset.BatchJob(**COMPASS)))
    assert job.count == 6 and job.options == {"samples": 128, "holdout": 256}
    assert_same_arrays(job.run(), compass)
    again = pickle.loads(pickle.dumps(compass))
    assert_same_arrays(again, compass)
    assert again.options == compass.options


def test_resume_after_an_interruption(tmp_path, compass):
    out = tmp_path / "b.h5"

    def stop_after_two(done, total):
        if done == 2:
            raise KeyError("stop")

    with pytest.raises(KeyError):
        impactset.batch(**COMPASS, threads=1, part_states=1, out=out, progress=stop_after_two)
    assert not out.exists() and len(list((tmp_path / "b.h5.parts").iterdir())) == 2
    seen = []
    r = impactset.batch(**COMPASS, threads=1, part_states=1, out=out, resume=True,
                        progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (3, 6) and seen[-1] == (6, 6)  # the two stored states were not re-run
    assert_same_arrays(r, compass)


def test_a_mujoco_scene_over_a_table_of_qpos_entries():
    base = impactset.Problem.from_system("cube-flat")
    table = pd.DataFrame({"qvel:0": [0.0, 0.2], "qvel:2": [-0.3, -0.5]})
    r = impactset.batch(system="cube-flat", table=table, samples=64, holdout=0, sets=False,
                        outputs=["base"])
    assert list(r.status) == [0, 0] and r.outputs == ["base"]
    names = impactset.sample(base, samples=1, outputs=["base"]).velocity_names
    assert r.velocity_names == names and names[0].endswith(":vx")  # the model's names
    np.testing.assert_array_equal(r.v_minus[:, [0, 2]], table.to_numpy())
    np.testing.assert_array_equal(r.v_minus[:, 3:], np.tile(base.v_minus[3:], (2, 1)))
    assert len(r.coordinate_names("base")) == 6


def test_labelled_views(compass):
    df = compass.to_dataframe()
    assert list(df.index) == list(range(6)) and df.index.name == "state"
    assert list(df.columns[:3]) == ["angle", "rate", "status"]
    assert set(df["status"]) == {"ok"}
    np.testing.assert_array_equal(df["terminated"], compass.summary["terminated"])
    ds = compass.to_xarray()
    support = ds["features/contact/support"]
    assert support.dims == ("state", "features/contact/direction")
    np.testing.assert_array_equal(support.values, compass.features["contact"]["support"])
    mean = ds["features/generalized/mean"]
    assert list(mean["features/generalized/coordinate"].values) == \
        compass.coordinate_names("generalized")
    assert ds["sets/post_impact/contact/hull_volume"].dims == ("state",)
    sets = compass.sets("contact")
    assert len(sets["net_points"]) == 6 and sets["net_points"][0].shape[1] == 4
    assert ds.attrs["option_samples"] == 128


@pytest.mark.parametrize("keywords, error, message", [
    (dict(vary={"angle": (2.6, 2.8, 2)}), ValueError, "give exactly one source"),
    (dict(system="compass-touchdown", scene={"x": 1}, vary={"angle": (2.6, 2.8, 2)}),
     ValueError, r"got system=, scene="),
    (dict(system="compass-touchdown"), ValueError, "vary: give the varied parameters"),
    (dict(system="compass-touchdown", vary={"angle": (2.6,)}), ValueError,
     r"vary\['angle'\]: expected \(low, high\)"),
    (dict(system="compass-touchdown", vary={"angle": (2.6, 2.8, 2.5)}), TypeError,
     r"vary\['angle'\]\[2\] = 2.5: must be an integer"),
    (dict(system="compass-touchdown", vary={"angle": (2.6, 2.8, 2)}, table={"rate": [1]}),
     ValueError, "vary = angle=2.6:2.8:2: not with table="),
    (dict(scene={"x": 1}, params={"angle": 2}, vary={"/x": (0, 1, 2)}), ValueError,
     "params = angle=2: only with system=, not with scene="),
    (dict(system="compass-touchdown", vary={"angle": (2.6, 2.8)}, states=4), ValueError,
     "states = 4: only for the iid and sobol designs"),
    (dict(system="compass-touchdown", vary={"angle": (2.6, 2.8, 2)}, state_design="table"),
     ValueError, "state_design = table: give the states as table="),
    (dict(system="compass-touchdown", vary={"angle": (2.6, 2.8, 2)}, qpos=[0.0]), ValueError,
     "qpos: given, but the source is not a MuJoCo model"),
    (dict(system="compass-touchdown", vary={"nope": (0, 1, 2)}), ValueError, "nope"),
    (dict(system="compass-touchdown", vary={"angle": (2.6, 2.8, 2)}, samples=0), ValueError,
     "samples = 0"),
    (dict(system="compass-touchdown", vary={"angle": (2.6, 2.8, 2)}, samples=2.5), TypeError,
     "samples = 2.5: must be an integer"),
    (dict(system="compass-touchdown", table={"angle": [2.6, 2.7], "rate": [0.1]}), ValueError,
     r"table\['rate'\]: 1 rows, but table\['angle'\] has 2"),
    (dict(problems="/nonexistent/stack.h5"), FileNotFoundError, "/nonexistent/stack.h5"),
])
def test_bad_keywords_are_named(keywords, error, message):
    with pytest.raises(error, match=message):
        impactset.BatchJob(**keywords)


def test_a_batch_where_no_state_ran_says_why():
    with pytest.warns(RuntimeWarning, match="no state ran .*state 0: invalid_problem: .*'abc'"):
        r = impactset.batch(system="compass-touchdown", params={"angle": "abc"},
                            vary={"rate": (0.1, 0.2, 2)}, samples=16)
    assert list(r.status) == [2, 2]


def test_unknown_keywords_and_resume_without_a_file():
    with pytest.raises(TypeError, match="samplez"):
        impactset.batch(system="compass-touchdown", vary={"angle": (2.6, 2.8, 2)}, samplez=3)
    with pytest.raises(ValueError, match="resume = True: needs out="):
        impactset.batch(**COMPASS, resume=True)
    with pytest.raises(FileNotFoundError):
        impactset.read_batch("/nonexistent/batch.h5")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # tornado, inside distributed
def test_a_dask_cluster_gives_the_same_batch(compass):
    distributed = pytest.importorskip("distributed")
    job = impactset.BatchJob(**COMPASS, threads=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        chunks = np.array_split(np.arange(job.count), 3)
        futures = client.map(job.run_states, [c.tolist() for c in chunks])
        records = [r for part in client.gather(futures) for r in part]
    assert_same_arrays(job.assemble(records), compass)


# A batch of rollouts: the box of the rollout tests at three fall speeds, 8 rollouts each.
BOX = str(pathlib.Path(__file__).resolve().parents[2] / "tests/data/rollouts/box-drop.xml")
TIPPED = "tipped=max(abs(root:qx)) > 0.01"
SPIN = "spin=max(abs(qvel:root:wx))"
BOX_ROLLOUTS = dict(mujoco=BOX, keyframe="drop", vary={"qvel:2": (-2, -0.5, 3)}, rollouts=8,
                    horizon=0.2, metrics=[TIPPED, SPIN], threads=2)
BOX_FLAGS = ["--mujoco", BOX, "--keyframe", "drop", "--vary", "qvel:2=-2:-0.5:3", "--rollouts",
             "8", "--horizon", "0.2", "--metric", TIPPED, "--metric", SPIN]


def test_a_batch_of_rollouts_equals_the_command_line_and_splits(cli, tmp_path):
    out = tmp_path / "cli.h5"
    subprocess.run([cli, "batch", *BOX_FLAGS, "--out", str(out)], check=True,
                   capture_output=True)
    r = impactset.batch(**BOX_ROLLOUTS)
    assert_same_arrays(r, impactset.read_batch(out))
    assert r.per_state == "rollouts" and r.metric_names == ["tipped", "spin"]
    assert r.rollout_metrics["spin"].shape == (3, 8) and r.rollout_status.shape == (3, 8)
    np.testing.assert_array_equal(r.qvel[:, 2], [-2, -1.25, -0.5])
    assert r.metrics["tipped"]["is_event"] and r.metrics["tipped"]["expression"] in TIPPED
    spin = r.rollout_metrics["spin"]
    np.testing.assert_array_equal(r.metrics["spin"]["max"], spin.max(axis=1))
    assert (spin.max(axis=1) > spin.min(axis=1)).all()  # set-valued landings: rollouts differ
    frame = r.to_dataframe()
    assert "tipped:upper" in frame and "step" not in frame
    with pytest.raises(ValueError, match="a batch of rollouts has none"):
        r.step
    job = pickle.loads(pickle.dumps(impactset.BatchJob(**BOX_ROLLOUTS)))
    assert_same_arrays(job.assemble(job.run_states([2, 0]) + job.run_states([1])), r)


@pytest.mark.parametrize("keywords, message", [
    (dict(horizon=1.0), "horizon is an option of a batch of rollouts: give rollouts=N"),
    (dict(rollouts=4, samples=9), "samples belongs to Algorithm 2"),
    (dict(rollouts=4, outputs=["com"]), "outputs belongs to Algorithm 2"),
    (dict(rollouts=4, ctrl=[1.0], pd_posture=[1, 1]), "ctrl and pd_posture: give one of them"),
    (dict(rollouts=4, metrics=["a=min(root:q)"]), "at position 7: unknown name 'root:q'"),
])
def test_a_batch_of_rollouts_refuses_bad_keywords(keywords, message):
    with pytest.raises(ValueError, match=message):
        impactset.BatchJob(mujoco=BOX, keyframe="drop", vary={"qvel:2": (-2, -1, 2)}, **keywords)
