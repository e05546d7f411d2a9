"""impactset.compare(): the laws side by side, equal to `impactset compare --json` for the same
problem and settings."""
import json
import math
import pickle
import subprocess

import numpy as np
import pytest

import impactset


def floats(values):
    """A JSON list of numbers (null for a non-finite value) as a float array."""
    return np.array([math.nan if x is None else x for x in values], dtype=float)


@pytest.fixture(scope="module")
def cli_json(cli):
    out = subprocess.run([cli, "compare", "--system", "rocking-block", "--samples", "100",
                          "--seed", "3", "--json"], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


@pytest.fixture(scope="module")
def comparison():
    return impactset.compare(impactset.Problem.from_system("rocking-block"), samples=100, seed=3)


def json_rows(j):
    """The CLI's outcomes as (law, setting, status, v_plus, contact_velocity) in its print order."""
    rows = [("anitescu_potra", "", "solved", o["v_plus"], o["contact_velocity"])
            for o in j["anitescu_potra"]]
    rows += [("sequential", "order " + " ".join(map(str, o["ordering"])), o["status"],
              o["v_plus"], o["contact_velocity"]) for o in j["sequential"]]
    rows += [("compliant", o["label"], o["status"], o["v_plus"], o["contact_velocity"])
             for o in j["compliant"]["outcomes"]]
    rows += [("aghili", f"e={o['e']:g}", o["status"], o["v_plus"], o["contact_velocity"])
             for o in j["aghili"]["outcomes"]]
    rows += [("seghete_murphey", o["setting"], o["status"], o["v_plus"], o["contact_velocity"])
             for o in j["seghete_murphey"]["outcomes"]]
    rows += [("jia_mason_erdmann", o["label"], o["status"], o["v_plus"], o["contact_velocity"])
             for o in j["jia_mason_erdmann"]["outcomes"]]
    return rows


def test_equals_the_command_line(comparison, cli_json):
    rows = json_rows(cli_json)
    assert len(comparison) == len(rows)
    for i, (law, setting, status, v_plus, contact_velocity) in enumerate(rows):
        assert (comparison.law[i], comparison.setting[i], comparison.status[i]) == \
            (law, setting, status), i
        np.testing.assert_array_equal(comparison.v_plus[i], floats(v_plus))
        np.testing.assert_array_equal(comparison.contact_velocity[i], floats(contact_velocity))
    assert comparison.anitescu_potra_complete == cli_json["anitescu_potra_complete"]
    routh, summary = cli_json["routh"], comparison.routh
    assert (summary.samples, summary.terminated, summary.lcp_failures) == \
        (routh["samples"], routh["terminated"], routh["lcp_failures"])
    np.testing.assert_array_equal(summary.contact_velocity_min,
                                  floats(routh["contact_velocity_min"]))
    np.testing.assert_array_equal(summary.contact_velocity_max,
                                  floats(routh["contact_velocity_max"]))
    assert (comparison.options["step"], comparison.options["max_steps"],
            comparison.options["seed"]) == (routh["h"], routh["max_steps"], routh["seed"])


def test_table_shapes_and_properties(comparison):
    p = impactset.Problem.from_system("rocking-block")
    R = len(comparison)
    assert comparison.laws == [law.name.lower() for law in impactset.CompareLaw]
    assert comparison.v_plus.shape == (R, p.n)
    assert comparison.contact_velocity.shape == (R, p.contact_jacobian.shape[0])
    assert comparison.energy_ratio.shape == (R,) and comparison.converged.dtype == bool
    np.testing.assert_allclose(comparison.v_plus @ p.contact_jacobian.T,
                               comparison.contact_velocity, atol=1e-9)
    # The laws appear in CompareLaw order, each law's rows together.
    order = [impactset.CompareLaw[name.upper()] for name in comparison.law]
    assert order == sorted(order)
    # Anitescu-Potra and sequential outcomes dissipate and leave no contact approaching.
    for law in ("anitescu_potra", "sequential"):
        rows = comparison.rows(law)
        assert len(rows) >= 1 and comparison.converged[rows].all()
        assert (comparison.energy_ratio[rows] <= 1 + 1e-9).all()
        assert (comparison.v_plus[rows] @ p.Jn.T >= -1e-9).all()
    assert len(comparison.rows("aghili")) == 3
    assert comparison.routh.samples == 100 and comparison.routh.energy_ratio_max <= 1 + 1e-9


def test_laws_and_settings_as_keywords():
    p = impactset.Problem.from_system("rocking-block")
    c = impactset.compare(p, [impactset.CompareLaw.AGHILI, "anitescu_potra"],
                          aghili_restitution=[0.25])
    assert c.laws == ["anitescu_potra", "aghili"]
    assert c.routh is None and c.options["samples"] is None
    assert c.setting[c.rows("aghili")[0]] == "e=0.25"
    one = impactset.compare(p, impactset.CompareLaw.JIA_MASON_ERDMANN,
                            jia_mason_erdmann_stiffness_contrast=4)
    assert one.setting == ["equal stiffness", "contact 0 x4 stiffer", "contact 0 x4 softer",
                           "contact 1 x4 stiffer", "contact 1 x4 softer"]
    routh = impactset.compare(p, "ROUTH", samples=16, step=0.5, max_steps=3, threads=1)
    assert len(routh) == 0 and routh.routh.samples == 16
    assert (routh.options["step"], routh.options["max_steps"]) == (0.5, 3)


@pytest.mark.parametrize("keywords, field", [
    ({"laws": []}, "laws"),
    ({"laws": ["nope"]}, "laws"),
    ({"laws": [1.5]}, "laws"),
    ({"laws": ["aghili", "aghili"]}, "laws"),
    ({"samples": 0}, "samples"),
    ({"step": -1.0}, "step"),
    ({"aghili_restitution": [2.0]}, "aghili_restitution"),
    ({"compliant_stiffness_contrast": 0.0}, "compliant_stiffness_contrast"),
    ({"seghete_murphey_max_sequences": 0}, "seghete_murphey_max_sequences"),
    ({"seghete_murphey_blend_ratio": -0.5}, "seghete_murphey_blend_ratio"),
])
def test_bad_options_name_their_field(rocking_block, keywords, field):
    with pytest.raises(ValueError, match=f"^{field}"):
        impactset.compare(rocking_block, **keywords)


def test_pickles(comparison):
    back = pickle.loads(pickle.dumps(comparison))
    for name in ("system", "laws", "law", "setting", "status", "anitescu_potra_complete",
                 "options"):
        assert getattr(back, name) == getattr(comparison, name), name
    for name in ("converged", "v_plus", "contact_velocity", "energy_ratio"):
        np.testing.assert_array_equal(getattr(back, name), getattr(comparison, name))
    assert back.routh.to_dict().keys() == comparison.routh.to_dict().keys()
    assert back.routh.terminated == comparison.routh.terminated
    assert repr(back) == repr(comparison)


def test_an_empty_routh_set_warns_and_uses_the_runs_step_rule():
    """No Routh sample terminated: a RuntimeWarning, not a silent +-inf range; and a MuJoCo
    scene's Routh set is sample()'s (the same step rule, h and N)."""
    cube = impactset.Problem.from_system("cube-flat")
    with pytest.warns(RuntimeWarning, match="no Routh sample terminated"):
        c = impactset.compare(cube, laws=["routh"], samples=16, step=1e-9, max_steps=1)
    assert c.routh.terminated == 0
    full = impactset.compare(cube, laws=["routh"], samples=64, seed=2, threads=1)
    s = impactset.sample(cube, samples=64, seed=2, threads=1)
    assert full.options["step"] == s.options["step"]
    assert full.options["max_steps"] == s.options["max_steps"]
    assert full.options["step_rule"] == s.options["step_rule"]
    assert full.routh.terminated == int((s.status == impactset.SampleStatus.TERMINATED).sum())
