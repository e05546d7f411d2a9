"""read_dataset() gives every array of a file exactly as h5py does; write_dataset() writes it
back; bad dicts raise ValueError naming the entry."""
import subprocess

import h5py
import numpy as np
import pytest

import impactset


def lookup(d, path):
    """The dict entry of an HDF5 dataset path (docs/dataset-format.md layout)."""
    parts = path.split("/")
    if parts[:2] == ["support", "directions"]:  # stored once per dimension
        d_ = int(parts[2][1:])
        return next(s["support"]["directions"] for s in d["sets"]
                    if s["support"] is not None and s["support"]["directions"].shape[1] == d_)
    if parts[0] in ("net", "hull", "coverage", "support"):
        group, set_, coords, name = parts
        entry = next(s for s in d["sets"] if (s["set"], s["coords"]) == (set_, coords))
        value = entry[group][name]
        return np.array([value]) if name == "epsilon" else value
    if parts[0] == "sweep":
        return d["sweep"]["parameters"][parts[1]]
    return d[parts[0]][parts[1]]


def every_dataset(f):
    out = {}
    f.visititems(lambda name, o: out.__setitem__(name, o[()]) if isinstance(o, h5py.Dataset)
                 else None)
    return out


@pytest.fixture(scope="module")
def files(cli, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("datasets")
    run = tmp / "run.h5"
    sweep = tmp / "sweep.h5"
    subprocess.run([cli, "run", "--system", "rocking-block", "--samples", "600",
                    "--keep-samples", "--keep-trajectories", "--lipschitz", "3", "--out", str(run),
                    "--json"], check=True, capture_output=True)
    subprocess.run([cli, "sweep", "--model", "jia", "--system", "rocking-block", "--ratios", "3",
                    "--out", str(sweep), "--json"], check=True, capture_output=True)
    return {"run": run, "sweep": sweep}


@pytest.mark.parametrize("kind", ["run", "sweep"])
def test_read_dataset_equals_h5py(files, kind):
    d = impactset.read_dataset(files[kind])
    with h5py.File(files[kind]) as f:
        datasets = every_dataset(f)
        assert datasets  # a comparison over an empty list proves nothing
        for path, value in datasets.items():
            ours = np.asarray(lookup(d, path))
            assert ours.shape == value.shape, path
            np.testing.assert_array_equal(ours, value, err_msg=path)
        for key, value in f.attrs.items():
            if key == "schema_version":  # the file layout's, not the run's (docs/dataset-format.md)
                continue
            name = "version" if key == "impactset_version" else key
            if name == "model":  # a sweep's model is also /sweep's attribute
                assert d["sweep"]["model"] == value
                continue
            assert d["run"][name] == value, key
    assert (d["sweep"] is None) == (kind == "run")
    if kind == "run":
        assert d["sets"][0]["coverage"]["lemma1"]
        assert d["set_settings"]["lipschitz"] == 3


@pytest.mark.parametrize("kind", ["run", "sweep"])
def test_write_dataset_round_trips(files, kind, tmp_path):
    d = impactset.read_dataset(files[kind])
    out = tmp_path / "copy.h5"
    impactset.write_dataset(out, d)
    with h5py.File(files[kind]) as a, h5py.File(out) as b:
        da, db = every_dataset(a), every_dataset(b)
        assert sorted(da) == sorted(db)
        for path in da:
            np.testing.assert_array_equal(da[path], db[path], err_msg=path)
        assert dict(a.attrs) == dict(b.attrs)
    if kind == "run":
        r = impactset.read_run(out)
        assert r.count == 600 and r.samples.trajectories is not None


def test_bad_datasets_raise_value_error_naming_the_entry(files, tmp_path):
    d = impactset.read_dataset(files["run"])
    missing = dict(d)
    del missing["run"]
    with pytest.raises(ValueError, match="run: missing"):
        impactset.write_dataset(tmp_path / "x.h5", missing)
    bad = dict(d, samples=dict(d["samples"], status="zero"))
    with pytest.raises(ValueError, match="samples.status"):
        impactset.write_dataset(tmp_path / "x.h5", bad)
    bad = dict(d, problem=dict(d["problem"], M=np.zeros(3)))
    with pytest.raises(ValueError, match="problem.M: expected a 2-D array"):
        impactset.write_dataset(tmp_path / "x.h5", bad)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(RuntimeError, match="nope.h5"):
        impactset.read_dataset(tmp_path / "nope.h5")
