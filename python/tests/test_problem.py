"""Problems from arrays, built-in systems, scenes and files; every bad input raises ValueError
naming the field (the documented exception)."""
import json
import re
import warnings

import numpy as np
import pytest

import impactset
from conftest import ROOT, planar_arrays


def test_arrays_give_the_same_problem_as_the_matrix_input_file(tmp_path):
    M, Jn, Jf, mu, v = planar_arrays()
    p = impactset.Problem(M, Jn, mu, v, Jf=Jf, step=0.5, max_steps=7)
    assert (p.n, p.m, p.k) == (2, 2, 2)
    np.testing.assert_array_equal(p.M, M)
    # D interleaves (+Jf_i, -Jf_i) per contact.
    np.testing.assert_array_equal(p.D, [Jf[0], -Jf[0], Jf[1], -Jf[1]])
    assert (p.step, p.max_steps, p.samples) == (0.5, 7, None)
    f = tmp_path / "p.json"
    f.write_text(json.dumps({"M": M.tolist(), "Jn": Jn.tolist(), "Jf": Jf.tolist(),
                             "mu": mu.tolist(), "v_minus": v.tolist()}))
    q = impactset.Problem.from_file(f)
    for name in ("M", "Jn", "D", "mu", "v_minus", "contact_jacobian", "delassus"):
        np.testing.assert_array_equal(getattr(p, name), getattr(q, name))
    same_with_d = impactset.Problem(M, Jn, mu, v, D=p.D)
    np.testing.assert_array_equal(same_with_d.D, p.D)
    assert same_with_d.k == 2


def test_builtin_scene_and_parametric_systems():
    assert "rocking-block" in impactset.systems()
    cg = impactset.Problem.from_system("compass-gait")
    assert (cg.n, cg.m, cg.step, cg.max_steps) == (4, 2, 0.25, 5)
    cradle = impactset.Problem.from_system("cradle", masses=[1, 2, 1, 1], radii=[0.5] * 4,
                                           velocities=np.array([1.0, 0, 0, 0]))
    assert (cradle.n, cradle.m, cradle.k) == (4, 3, 0)
    scene = json.loads((ROOT / "src/impactset/systems/scenes/compass-gait.json").read_text())
    from_dict = impactset.Problem.from_scene(scene, name="cg")
    from_path = impactset.Problem.from_scene(ROOT / "src/impactset/systems/scenes/compass-gait.json")
    np.testing.assert_array_equal(from_dict.M, cg.M)
    np.testing.assert_array_equal(from_path.Jn, cg.Jn)
    assert from_dict.name == "cg"
    faster = cg.with_velocity(2 * cg.v_minus)
    np.testing.assert_array_equal(faster.v_minus, 2 * cg.v_minus)
    np.testing.assert_array_equal(faster.M, cg.M)


def bad_problems():
    M, Jn, Jf, mu, v = planar_arrays()
    return [
        # (arguments, keyword arguments, text the ValueError must contain)
        ((M[:1], Jn, mu, v), {"Jf": Jf}, "M"),
        # Jn and v_minus agree on n = 2: the 3 x 3 M is the one at fault.
        ((np.eye(3), Jn, mu, v), {"Jf": Jf}, "M = 3x3: must be n x n with n = 2"),
        ((M.astype(complex), Jn, mu, v), {"Jf": Jf}, "M: expected a 2-D array of real numbers, "
                                                     "got dtype complex128"),
        ((M, Jn, np.array([True, False]), v), {"Jf": Jf}, "mu: .* got dtype bool"),
        ((M, Jn, True, v), {"Jf": Jf}, "mu: .* got dtype bool"),
        ((M, Jn, mu, np.array([1.0, None], dtype=object)), {"Jf": Jf}, "v_minus: .* dtype object"),
        ((M, Jn, np.array([np.nan, 0.5]), v), {"Jf": Jf}, "mu(0) = nan"),
        ((np.array([[1.0, 2.0], [2.0, 1.0]]), Jn, mu, v), {"Jf": Jf}, "positive definite"),
        ((M, Jn[:, :1], mu, v), {"Jf": Jf}, "Jn"),
        ((M, Jn, mu[:1], v), {"Jf": Jf}, "mu.size()"),
        ((M, Jn, -mu, v), {"Jf": Jf}, "mu(0)"),
        ((M, Jn, mu, v[:1]), {"Jf": Jf}, "v_minus.size()"),
        ((M, Jn, mu, np.array([np.nan, 1.0])), {"Jf": Jf}, "v_minus"),
        ((M, Jn, mu, "fast"), {"Jf": Jf}, "v_minus"),
        ((M, Jn, mu, [[1.0, 2.0]]), {"Jf": Jf}, "v_minus: expected a 1-D array"),
        ((M, Jn, mu, v), {"Jf": Jf[:1]}, "Jf"),
        ((M, Jn, mu, v), {"Jf": Jf, "D": np.zeros((4, 2))}, "D, Jf"),
        ((M, Jn, mu, v), {"D": np.zeros((3, 2))}, "D"),
        ((M, Jn, mu, v), {}, "D"),  # friction without a friction basis
        ((M, Jn, mu, v), {"Jf": Jf, "k": 4}, "k = 4"),
        ((M, Jn, mu, v), {"Jf": Jf, "step": 0.0}, "step = 0"),
        ((M, Jn, mu, v), {"Jf": Jf, "max_steps": 0}, "max_steps = 0"),
    ]


@pytest.mark.parametrize("args,kwargs,field", bad_problems())
def test_bad_arrays_raise_value_error_naming_the_field(args, kwargs, field):
    with pytest.raises(ValueError, match=field.replace("(", r"\(").replace(")", r"\)")):
        impactset.Problem(*args, **kwargs)


@pytest.mark.parametrize("call,field", [
    (lambda: impactset.Problem.from_system("nope"), "unknown built-in system"),
    (lambda: impactset.Problem.from_system("rocking-block", masses=[1]), "masses"),
    (lambda: impactset.Problem.from_system("cradle", masses=[1, -2, 1]), "masses"),
    (lambda: impactset.Problem.from_scene({"frames": []}), "/frames"),
])
def test_bad_sources_raise_value_error(call, field):
    with pytest.raises(ValueError, match=field):
        call()


@pytest.mark.parametrize("read", [
    impactset.Problem.from_file, impactset.Problem.from_scene, impactset.Problem.from_mujoco,
    impactset.read_dataset, impactset.read_run, impactset.read_batch,
    lambda path: impactset.distance(path, path),
])
def test_missing_files_raise_file_not_found(read, tmp_path):
    missing = tmp_path / "nope.h5"
    with pytest.raises(FileNotFoundError, match="nope.h5") as e:
        read(missing)
    assert e.value.filename == str(missing)


def test_a_run_where_most_samples_fail_warns_with_the_cause(rocking_block):
    p = rocking_block
    # The block's rotational inertia 1e-14: the native Lemke alone loses every step LCP to
    # roundoff (the default chain's later links save 118 of the 200 samples).
    bad = impactset.Problem(np.diag([1.0, 1.0, 1e-14]), p.Jn, p.mu, p.v_minus, D=p.D)
    with pytest.warns(RuntimeWarning, match=r"(\d+) of 200 samples \(\d+\.\d %\) did not finish: "
                                            r"\1 had an LCP failure.*condition number is 1.0e\+14"):
        s = impactset.sample(bad, samples=200, threads=1, lcp="native")
    assert s.summary.lcp_failures > 100
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the block itself: no warning
        impactset.sample(p, samples=200)


def test_mujoco_models_by_file_and_by_name():
    path = ROOT / "src/impactset/robots/scenes/cube-flat.xml"
    p = impactset.Problem.from_mujoco(path)
    assert (p.n, p.m, p.k) == (6, 4, 4)
    by_name = impactset.Problem.from_system("cube-flat")
    np.testing.assert_array_equal(p.Jn, by_name.Jn)
    assert "quadruped" in impactset.systems()
    v = np.array([0.0, 0, -1, 0, 0, 0])
    with pytest.warns(RuntimeWarning, match="qpos not given"):  # qvel alone: qpos0, remarked
        q = impactset.Problem.from_mujoco(path, qvel=v, friction_directions=8, name="cube")
    assert (q.k, q.name) == (8, "cube")
    np.testing.assert_array_equal(q.v_minus, v)
    with pytest.raises(ValueError, match="keyframe = nope"):
        impactset.Problem.from_mujoco(path, keyframe="nope")
    with pytest.raises(ValueError, match="qpos = 2 numbers"):
        impactset.Problem.from_mujoco(path, qpos=[0.0, 1.0])


def test_mujoco_keywords_are_the_option_tables():
    """Problem.from_mujoco's keywords and the command line's flags are the rows of one table."""
    rows = impactset._impactset._mujoco_option_fields()
    names = [r["name"] for r in rows]
    assert {"touchdown", "add_floor", "floating_base"} <= set(names)
    # pybind11 functions have no inspect.signature: their docstring's first line is it.
    first = impactset.Problem.from_mujoco.__doc__.splitlines()[0]
    keywords = [k for k in re.findall(r"(\w+): ", first) if k not in ("path", "name")]
    assert keywords == names, first
    for r in rows:
        assert r["flag"] == "--" + r["name"].replace("_", "-")


def test_mujoco_silent_cases_warn_and_touchdown(tmp_path):
    path = ROOT / "src/impactset/robots/scenes/cube-flat.xml"
    with pytest.warns(RuntimeWarning, match=r"qvel not given.*v- = 0"):
        impactset.Problem.from_mujoco(path, qpos=[0, 0, 0.5, 1, 0, 0, 0])
    with pytest.warns(RuntimeWarning, match=r"has norm 2, not 1"):
        impactset.Problem.from_mujoco(path, qpos=[0, 0, 0.5, 2, 0, 0, 0], qvel=[0, 0, -1, 0, 0, 0])
    with pytest.raises(ValueError, match="zero quaternion"):
        impactset.Problem.from_mujoco(path, qpos=[0, 0, 0.5, 0, 0, 0, 0], qvel=[0, 0, -1, 0, 0, 0])
    body = tmp_path / "box.xml"
    body.write_text('<mujoco><worldbody><body name="box" pos="0 0 1"><freejoint name="box"/>'
                    '<geom name="box" type="box" size="0.1 0.2 0.3" mass="1"/></body>'
                    '</worldbody></mujoco>')
    p = impactset.Problem.from_mujoco(body, qpos=[0, 0, 1, 1, 0, 0, 0], qvel=[0, 0, -1, 0, 0, 0],
                                      add_floor=True, touchdown=1)
    assert (p.n, p.m) == (6, 4)


def test_a_radius_beyond_a_sets_extent_warns(rocking_block):
    with pytest.warns(RuntimeWarning, match=r"post_impact contact: net radius eps 1e\+03 exceeds"):
        impactset.run(rocking_block, samples=200, epsilon=1e3, holdout=0, reachable=False)
