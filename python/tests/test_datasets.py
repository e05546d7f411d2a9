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
        return value
    if parts[0] == "sweep":
        return d["sweep"]["parameters"][parts[1]]
    return d[parts[0]][parts[1]]


def every_dataset(f):
    """Every dataset but the dimension scales (their labels are problem.velocity_names and
    problem.contact_names, and an output's coordinate_names)."""
    out = {}
    f.visititems(lambda name, o: out.__setitem__(name, o[()])
                 if isinstance(o, h5py.Dataset) and o.attrs.get("CLASS") != b"DIMENSION_SCALE"
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
            if key in ("schema_version", "file_kind"):  # the layout's (docs/dataset-format.md)
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


def same_files(a_path, b_path):
    """Every group, dataset, attribute and dimension scale of two files equal (references to
    scales are file addresses: compared by the scales' names)."""
    skip = {"DIMENSION_LIST", "REFERENCE_LIST"}
    with h5py.File(a_path) as a, h5py.File(b_path) as b:
        na, nb = [], []
        a.visit(na.append)
        b.visit(nb.append)
        assert sorted(na) == sorted(nb), set(na) ^ set(nb)
        assert len(na) > 5  # a comparison over nothing proves nothing
        for name in [""] + na:
            x, y = (a[name], b[name]) if name else (a, b)
            assert set(x.attrs) == set(y.attrs), (name, set(x.attrs) ^ set(y.attrs))
            for k in set(x.attrs) - skip:
                assert np.array_equal(np.asarray(x.attrs[k]), np.asarray(y.attrs[k])), (name, k)
            if isinstance(x, h5py.Dataset):
                assert x.dtype == y.dtype, (name, x.dtype, y.dtype)
                assert np.array_equal(x[()], y[()], equal_nan=x.dtype.kind == "f"), name
                assert [[s.name for s in d.values()] for d in x.dims] == \
                    [[s.name for s in d.values()] for d in y.dims], name


@pytest.fixture(scope="module")
def every_kind(cli, files, tmp_path_factory):
    """One file of every kind the command line writes."""
    tmp = tmp_path_factory.mktemp("kinds")
    out = dict(files)

    def cmd(*args):
        subprocess.run([cli, *map(str, args)], check=True, capture_output=True)

    out["mujoco"] = tmp / "cube.h5"
    cmd("run", "--system", "cube-flat", "--samples", "400", "--output", "com", "--output", "base",
        "--keep-samples", "--holdout", "0", "--out", out["mujoco"])
    for i in range(2):
        cmd("run", "--system", "box-wall", "--samples", "300", "--keep-samples", "--holdout", "50",
            "--shard", f"{i}/2", "--out", tmp / f"s{i}.h5")
    out["merged"] = tmp / "merged.h5"
    cmd("merge", tmp / "s0.h5", tmp / "s1.h5", "--out", out["merged"])
    out["no_sets"] = tmp / "bare.h5"
    cmd("run", "--system", "rocking-block", "--samples", "100", "--no-sets", "--out", out["no_sets"])
    out["batch"] = tmp / "batch.h5"
    cmd("batch", "--system", "billiard", "--vary", "theta=1.2:2.8:3", "--samples", "64",
        "--holdout", "0", "--reachable", "--out", out["batch"])
    return out


@pytest.mark.parametrize("kind", ["run", "sweep", "mujoco", "merged", "no_sets", "batch"])
def test_round_trip_loses_nothing(cli, every_kind, kind, tmp_path):
    """C++ writes, Python reads and writes, C++ reads: every dataset and attribute equal."""
    d = impactset.read_dataset(every_kind[kind])
    copy = tmp_path / "copy.h5"
    impactset.write_dataset(copy, d)
    same_files(every_kind[kind], copy)
    again = impactset.read_dataset(copy)  # the C++ reader, on what Python wrote
    if kind == "batch":
        assert again["arrays"].keys() == d["arrays"].keys()
        subprocess.run([cli, "batch", "--system", "billiard", "--state-table", copy,
                        "--samples", "64", "--holdout", "0", "--reachable",
                        "--out", tmp_path / "rerun.h5"], check=True, capture_output=True)
        rerun = impactset.read_dataset(tmp_path / "rerun.h5")
        np.testing.assert_array_equal(rerun["arrays"]["/features/contact/support"],
                                      d["arrays"]["/features/contact/support"])
        return
    assert again["run"] == d["run"] and again["set_settings"] == d["set_settings"]
    if kind != "sweep":
        r = impactset.read_run(copy)
        assert r.count == d["run"]["sample_count"]
    if kind == "mujoco":
        assert [o["name"] for o in d["outputs"]] == ["com", "base"]
        assert d["problem"]["velocity_names"][0] == "cube:vx"


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
    with pytest.raises(FileNotFoundError, match="nope.h5"):
        impactset.read_dataset(tmp_path / "nope.h5")


def test_xarray_opens_run_and_batch_files_with_named_dimensions(every_kind):
    """docs/dataset-format.md "Labelled arrays": the session shown there, run."""
    xr = pytest.importorskip("xarray")  # Debian's python3-xarray (scripts/install-deps.sh)
    pytest.importorskip("h5netcdf")
    s = xr.open_dataset(every_kind["mujoco"], group="samples", engine="h5netcdf")
    assert s["v_plus"].dims == ("sample", "velocity")
    assert s["contact_velocity"].dims == ("sample", "contact_coordinate")
    assert list(s["velocity"].values) == ["cube:vx", "cube:vy", "cube:vz", "cube:wx", "cube:wy",
                                          "cube:wz"]
    assert s.sizes["sample"] == 400 and s["status"].dims == ("sample",)
    com = xr.open_dataset(every_kind["mujoco"], group="net/post_impact/com", engine="h5netcdf")
    assert com["points"].dims == ("point", "coordinate")
    assert list(com["coordinate"].values) == ["com:vx", "com:vy", "com:vz"]
    states = xr.open_dataset(every_kind["batch"], group="states", engine="h5netcdf")
    assert states["parameters"].dims == ("state", "parameter")
    assert list(states["parameter"].values) == ["theta"]
    features = xr.open_dataset(every_kind["batch"], group="features/contact", engine="h5netcdf")
    assert features["box_max"].dims == ("state", "coordinate")
    assert features.sizes["state"] == 3
    # Selecting by label: the first state's largest normal velocity of contact 0.
    assert float(features["box_max"].isel(state=0).sel(coordinate="c0:n")) == \
        features["box_max"].values[0, 0]


def as_version_1(src, dst):
    """The file as schema version 1 wrote it: no schema_version or file_kind, the hull's status in
    words and its facets in the affine hull's coordinates, epsilon a 1-element vector, no labels,
    no hull_max_points."""
    import shutil
    shutil.copy(src, dst)
    with h5py.File(dst, "r+") as f:
        for key in ("schema_version", "file_kind"):
            del f.attrs[key]
        del f["net"].attrs["hull_max_points"]
        for name in ("M", "contact_jacobian"):
            for key in ("columns", "rows"):
                if key in f["problem"][name].attrs:
                    del f["problem"][name].attrs[key]
        groups = []
        f.visititems(lambda n, o: groups.append(n) if isinstance(o, h5py.Group) else None)
        for g in groups:
            if g.startswith("hull/") and "status" in f[g].attrs:
                h = f[g]
                detail = h.attrs["detail"]
                del h.attrs["detail"]
                h.attrs["status"] = detail
                a, b = h["facet_normals"][()], h["facet_bounds"][()]
                basis, center = h["basis"][()], h["center"][()]
                del h["facet_normals"], h["facet_bounds"]
                h["facet_normals"] = a @ basis if a.size else np.zeros((0, basis.shape[1]))
                h["facet_offsets"] = a @ center - b if a.size else np.zeros(0)
            if g.startswith("net/") and "epsilon" in f[g]:
                e = f[g]["epsilon"][()]
                for scale in ("point", "coordinate"):
                    if scale in f[g]:
                        f[g]["points"].dims[0 if scale == "point" else 1].detach_scale(f[g][scale])
                        del f[g][scale]
                del f[g]["epsilon"]
                f[g]["epsilon"] = np.array([e])


def test_reads_schema_version_1(every_kind, tmp_path):
    old = tmp_path / "v1.h5"
    as_version_1(every_kind["merged"], old)
    r_old, r_new = impactset.read_run(old), impactset.read_run(every_kind["merged"])
    for x, y in zip(r_old.sets, r_new.sets):
        assert x.hull.status == y.hull.status and x.hull.detail == y.hull.detail
        np.testing.assert_allclose(x.hull.facet_offsets, y.hull.facet_offsets, atol=1e-12)
        assert x.net.epsilon == y.net.epsilon
    assert r_old.options["hull_max_points"] == 20000
    d = impactset.read_dataset(old)
    # The dict is the file as stored: version 1 had the status only in words.
    hull = d["sets"][0]["hull"]
    assert d["problem"]["velocity_names"] == [] and hull["status"] == ""
    assert hull["detail"].startswith("computed")


def test_refuses_a_newer_schema_naming_both_versions(every_kind, tmp_path):
    import shutil
    for kind in ("run", "batch"):
        new = tmp_path / f"{kind}.h5"
        shutil.copy(every_kind[kind], new)
        with h5py.File(new, "r+") as f:
            f.attrs["schema_version"] = 99
        with pytest.raises(ValueError, match=r"99: written by a newer impactset .*versions 1 to 2"):
            impactset.read_dataset(new)
