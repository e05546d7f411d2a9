"""sample() and run(): the arrays equal the CLI's file bit for bit, options are validated, and
runs round-trip through the HDF5 dataset."""
import json
import subprocess

import h5py
import numpy as np
import pytest

import impactset
from conftest import planar_arrays


def same_bits(a, b):
    """Equal dtype-normalised bytes: -0.0 differs from 0.0 and NaN equals NaN only bitwise."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == np.bool_:
        a = a.view(np.uint8)
    if b.dtype == np.bool_:
        b = b.view(np.uint8)
    return a.shape == b.shape and a.dtype.kind == b.dtype.kind and \
        np.ascontiguousarray(a, dtype=b.dtype).tobytes() == np.ascontiguousarray(b).tobytes()


def cli_run(cli, tmp_path, source, *flags):
    out = tmp_path / "cli.h5"
    subprocess.run([cli, "run", *source, "--out", str(out), "--json", *flags], check=True,
                   capture_output=True)
    return out


def compass_gait_from_numpy(tmp_path):
    """numpy -> Problem, and the same arrays as a matrix-input file for the CLI."""
    cg = impactset.Problem.from_system("compass-gait")
    arrays = {"M": cg.M, "Jn": cg.Jn, "D": cg.D, "mu": cg.mu, "v_minus": cg.v_minus}
    p = impactset.Problem(arrays["M"], arrays["Jn"], arrays["mu"], arrays["v_minus"],
                          D=arrays["D"], name="numpy")
    f = tmp_path / "cg.json"
    f.write_text(json.dumps({k: v.tolist() for k, v in arrays.items()}))
    return p, ["--problem", str(f)]


CASES = [
    # (source, sampler options, the same as CLI flags)
    ("numpy", dict(samples=3000, seed=7, step=0.25, max_steps=5),
     ["--samples", "3000", "--seed", "7", "--step", "0.25", "--max-steps", "5"]),
    ("ramone", dict(samples=1500, seed=3, design="sobol", lcp="native"),
     ["--samples", "1500", "--seed", "3", "--design", "sobol", "--lcp", "native"]),
    # No h or N given: both sides scale them to the impact (engine::ProblemRunOptions).
    ("numpy", dict(samples=1000, seed=5), ["--samples", "1000", "--seed", "5"]),
    ("cube-flat", dict(samples=400, seed=9), ["--samples", "400", "--seed", "9"]),
    ("compass-gait", dict(samples=1200, seed=5, design="directed"),
     ["--samples", "1200", "--seed", "5", "--design", "directed"]),
    ("ramone", dict(samples=800, seed=4, lemke_restore_above=1e-13),
     ["--samples", "800", "--seed", "4", "--lemke-restore-above", "1e-13"]),
]


@pytest.mark.parametrize("source,options,flags", CASES,
                         ids=["numpy-compass-gait", "ramone-sobol", "numpy-scaled-steps",
                              "mujoco-cube-scaled-steps", "compass-gait-directed",
                              "ramone-accurate-lemke"])
def test_samples_equal_the_cli_file_bit_for_bit(cli, tmp_path, source, options, flags):
    if source == "numpy":
        p, where = compass_gait_from_numpy(tmp_path)
    else:
        p, where = impactset.Problem.from_system(source), ["--system", source]
    # Different thread counts on purpose: samples depend only on (seed, index).
    f = cli_run(cli, tmp_path, where, *flags, "--threads", "2", "--keep-samples",
                "--keep-trajectories", "--no-sets")
    s = impactset.sample(p, threads=1, keep_trajectories=True, **options)
    with h5py.File(f) as h:
        for name in ("v_plus", "contact_velocity", "status", "lcp_solves", "energy_ratio",
                     "non_unique"):
            assert same_bits(getattr(s, name), h["samples"][name][:]), name
        assert same_bits(s.trajectories, h["reachable/velocities"][:])
        assert same_bits(s.trajectory_offsets, h["reachable/offsets"][:])
        assert s.summary.terminated == h["summary"].attrs["terminated"]
        assert s.summary.lcp_solves == h["summary"].attrs["lcp_solves"]
    assert s.count == options["samples"] and len(s) == s.count
    with h5py.File(f) as h:
        assert s.options["step"] == h.attrs["h"]
        assert s.options["max_steps"] == h.attrs["max_steps"]
        assert s.options["lemke_restore_above"] == h.attrs["lemke_restore_above"]
        assert s.options["detect_non_unique"] == bool(h.attrs["detect_non_unique"])
    # Built-in systems document their h and N; arrays and MuJoCo models without them are scaled.
    scaled = source in ("numpy", "cube-flat") and "step" not in options
    assert bool(s.options["step_rule"]) == scaled


def test_arrays_are_read_only_views_that_outlive_the_samples(rocking_block):
    s = impactset.sample(rocking_block, samples=500, seed=2)
    v = s.v_plus
    with pytest.raises(ValueError):
        v[0, 0] = 1.0
    expected = v.copy()
    del s
    np.testing.assert_array_equal(v, expected)  # the view keeps the run alive
    terminated = impactset.sample(rocking_block, samples=500, seed=2)
    post = terminated.post_impact()
    mask = terminated.status == impactset.SampleStatus.TERMINATED
    np.testing.assert_array_equal(post, terminated.contact_velocity[mask])


def test_run_writes_a_file_the_cli_reads_and_read_run_restores(cli, tmp_path, rocking_block):
    out = tmp_path / "py.h5"
    r = impactset.run(rocking_block, samples=2000, seed=4, keep_samples=True, holdout=512, out=out)
    assert out.exists() and r.options["holdout"] == 512
    # The CLI computes the same run; its sets and samples match the Python file's.
    f = cli_run(cli, tmp_path, ["--system", "rocking-block"], "--samples", "2000", "--seed", "4",
                "--keep-samples", "--holdout", "512")
    d = json.loads(subprocess.run([cli, "distance", str(out), str(f), "--json"], check=True,
                                  capture_output=True, text=True).stdout)
    assert d["hausdorff"] == 0 and d["a"]["from"] == "terminated samples"
    same = impactset.Problem.from_file(out)  # the /problem of a dataset is matrix input
    for name in ("M", "Jn", "D", "mu", "v_minus"):
        np.testing.assert_array_equal(getattr(same, name), getattr(rocking_block, name))
    back = impactset.read_run(out)
    assert back.count == 2000 and back.system == "rocking-block"
    np.testing.assert_array_equal(back.samples.v_plus, r.samples.v_plus)
    cli_run_ = impactset.read_run(f)
    for a, b in zip(r.sets, cli_run_.sets):
        assert (a.set, a.coords) == (b.set, b.coords)
        np.testing.assert_array_equal(a.net.points, b.net.points)
        assert a.hull.volume == b.hull.volume
    assert r.set("post_impact", "contact").coverage.missed == \
        cli_run_.set("post_impact", "contact").coverage.missed


def test_shards_merge_into_the_single_run(rocking_block):
    whole = impactset.run(rocking_block, samples=900, seed=5, keep_samples=True, holdout=0)
    shards = [impactset.run(rocking_block, samples=900, seed=5, keep_samples=True, holdout=0,
                            shard=(i, 3)) for i in (2, 0, 1)]
    merged = impactset.merge(shards)
    np.testing.assert_array_equal(merged.samples.v_plus, whole.samples.v_plus)
    np.testing.assert_array_equal(merged.set().net.points, whole.set().net.points)


def test_progress_is_called_and_can_cancel(rocking_block):
    seen = []
    impactset.sample(rocking_block, samples=10000, threads=1,
                     progress=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1] == (10000, 10000)

    def stop(done, total):
        raise RuntimeError("enough")
    with pytest.raises(RuntimeError, match="enough"):
        impactset.run(rocking_block, samples=10**9, threads=2, sets=False, progress=stop)


BAD_OPTIONS = [
    (dict(samples=0), "samples = 0"),
    (dict(threads=-1), "threads = -1"),
    (dict(design="halton"), "design = halton"),
    (dict(selection="best"), "selection"),
    (dict(lcp="path"), "path"),
    (dict(step=-1.0), "step"),
    (dict(max_steps=0), "max"),
    (dict(shard=(3, 3)), "shard index = 3"),
    (dict(shard=(0, 0)), "shard count = 0"),
    (dict(lemke_restore_above=1e-3), "restore_above = 0.001"),
]


def test_accurate_lemke_lowers_the_worst_residual():
    """The box and wall's steps leave product-form residuals up to ~1e-11 (measured 1.5e-11);
    re-solving every answer above 1e-13 from its final basis brings the worst to ~2e-13. A tenth
    leaves room for roundoff while failing when the option does not reach the solver. The
    default (1e-12) keeps every answer at or below 1e-12. Measured on the iid design's steps."""
    p = impactset.Problem.from_system("box-wall")
    former = impactset.sample(p, samples=2000, seed=2, design="iid", lemke_restore_above=1e-9)
    accurate = impactset.sample(p, samples=2000, seed=2, design="iid", lemke_restore_above=1e-13)
    assert former.summary.worst_residual > 1e-12
    assert accurate.summary.worst_residual < 0.1 * former.summary.worst_residual
    default = impactset.sample(p, samples=2000, seed=2, design="iid")
    assert default.summary.worst_residual <= 1e-12


@pytest.mark.parametrize("options,field", BAD_OPTIONS)
def test_bad_sampler_options_raise_value_error_naming_the_field(rocking_block, options, field):
    with pytest.raises(ValueError, match=field):
        impactset.sample(rocking_block, **options)
    with pytest.raises(ValueError, match=field):
        impactset.run(rocking_block, **options)


@pytest.mark.parametrize("options,field", [
    (dict(epsilon=-1.0), "epsilon = -1"),
    (dict(delta=1.0), "delta = 1"),
    (dict(lipschitz=0.0), "lipschitz = 0"),
    (dict(holdout=-1), "holdout = -1"),
    (dict(hull_max_dimension=10), "hull_max_dimension = 10"),
    (dict(max_net_points=0), "max_net_points = 0"),
    (dict(flatness_tolerance=2.0), "flatness_tolerance = 2"),
])
def test_bad_set_options_raise_value_error_naming_the_field(rocking_block, options, field):
    with pytest.raises(ValueError, match=field):
        impactset.run(rocking_block, samples=10, **options)


def test_wrong_types_raise_type_error(rocking_block):
    with pytest.raises(TypeError):
        impactset.sample("rocking-block")
    with pytest.raises(TypeError):
        impactset.sample(rocking_block, samples="many")


def test_summary_as_a_table_row_and_named_columns():
    """Summary.to_dict() holds every statistic (pandas takes a list of them as a table); the
    columns of v_plus and contact_velocity are named as the files name them."""
    p = impactset.Problem.from_system("cube-flat")
    s = impactset.sample(p, samples=64, seed=2)
    d = s.summary.to_dict()
    for name in ("samples", "terminated", "step_capped", "lcp_failures", "worst_residual",
                 "energy_ratio_max", "mean_solves", "solves_histogram"):
        assert d[name] == getattr(s.summary, name), name
    assert d["terminated"] + d["step_capped"] + d["lcp_failures"] == d["samples"] == 64
    np.testing.assert_array_equal(d["contact_velocity_max"], s.summary.contact_velocity_max)
    assert s.velocity_names[0] == "cube:vx" and len(s.velocity_names) == s.v_plus.shape[1]
    assert s.contact_names[0].startswith("c0:") and len(s.contact_names) == \
        s.contact_velocity.shape[1]
    plain = impactset.sample(impactset.Problem.from_system("rocking-block"), samples=8)
    assert plain.velocity_names == ["v0", "v1", "v2"]


def test_summary_pickles():
    import pickle
    s = impactset.sample(impactset.Problem.from_system("rocking-block"), samples=32, seed=4)
    back = pickle.loads(pickle.dumps(s.summary))
    a, b = s.summary.to_dict(), back.to_dict()
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(np.asarray(a[k]), np.asarray(b[k]), err_msg=k)


def planar_problem(**keywords):
    M, Jn, Jf, mu, v = planar_arrays()
    return impactset.Problem(M, Jn, mu, v, Jf=Jf, **keywords)


def assert_same_problem(a, b):
    for name in ("M", "Jn", "D", "mu", "v_minus"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y), name
    for name in ("name", "provenance", "k", "step", "max_steps", "samples"):
        assert getattr(a, name) == getattr(b, name), name


@pytest.mark.parametrize("make", [
    lambda: impactset.Problem.from_system("compass-gait"),
    lambda: planar_problem(name="arrays", max_steps=7),
    lambda: impactset.Problem.from_system("cube-edge"),
])
def test_problems_pickle_and_sample_the_same(make):
    """A problem comes back array for array, a MuJoCo model's names and output maps with it
    (com and base outputs work on the copy, whose model file is not read again)."""
    import pickle
    p = make()
    q = pickle.loads(pickle.dumps(p))
    assert_same_problem(p, q)
    outputs = ["com", "base"] if p.name == "cube-edge" else []
    a = impactset.sample(p, samples=50, seed=3, outputs=outputs)
    b = impactset.sample(q, samples=50, seed=3, outputs=outputs)
    assert same_bits(a.v_plus, b.v_plus)
    assert a.velocity_names == b.velocity_names and a.contact_names == b.contact_names
    for name in outputs:
        assert same_bits(a.post_impact(name), b.post_impact(name))


def test_samples_and_runs_pickle_bit_for_bit(rocking_block):
    import pickle
    s = impactset.sample(rocking_block, samples=100, seed=5, keep_trajectories=True,
                         outputs=["generalized"])
    t = pickle.loads(pickle.dumps(s))
    for name in ("v_plus", "contact_velocity", "status", "lcp_solves", "energy_ratio",
                 "non_unique", "trajectories", "trajectory_offsets"):
        x, y = getattr(s, name), getattr(t, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    for name in ("count", "first_sample", "seconds", "threads_used", "options", "velocity_names",
                 "contact_names"):
        assert getattr(s, name) == getattr(t, name), name
    assert s.summary.to_dict().keys() == t.summary.to_dict().keys()
    assert same_bits(s.post_impact("generalized"), t.post_impact("generalized"))
    r = impactset.run(rocking_block, samples=300, seed=2, keep_samples=True)
    u = pickle.loads(pickle.dumps(r))
    for name in ("system", "count", "seconds", "sets_seconds", "threads_used", "options",
                 "version", "created"):
        assert getattr(r, name) == getattr(u, name), name
    assert len(r.sets) == len(u.sets) > 0
    for a, b in zip(r.sets, u.sets):
        assert same_bits(a.net.points, b.net.points)
        assert same_bits(a.hull.vertices, b.hull.vertices)
    assert same_bits(r.samples.v_plus, u.samples.v_plus)


def test_samples_as_a_table_and_labelled_arrays():
    p = impactset.Problem.from_system("cube-flat")
    s = impactset.sample(p, samples=40, seed=2, shard=(1, 2))
    df = s.to_dataframe()
    assert df.index.name == "sample" and list(df.index) == list(range(20, 40))
    assert f"v_plus[{s.velocity_names[2]}]" in df.columns
    np.testing.assert_array_equal(df[f"contact_velocity[{s.contact_names[0]}]"],
                                  s.contact_velocity[:, 0])
    assert list(df["status"].cat.categories) == [
        "terminated",
        "step_cap",
        "lcp_failure",
        "non_physical",
    ]
    assert (df["status"] == "terminated").sum() == s.summary.terminated
    ds = s.to_xarray()
    assert ds["v_plus"].dims == ("sample", "velocity")
    assert list(ds["velocity"].values) == s.velocity_names
    np.testing.assert_array_equal(ds["contact_velocity"].sel(contact=s.contact_names[1]).values,
                                  s.contact_velocity[:, 1])
    assert ds.attrs["seed"] == 2
