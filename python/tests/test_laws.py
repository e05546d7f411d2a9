"""The other impact laws give typed results equal to what `impactset compare --json` prints."""
import json
import subprocess

import numpy as np
import pytest

import impactset


@pytest.fixture(scope="module")
def compare(cli):
    out = subprocess.run([cli, "compare", "--system", "rocking-block", "--samples", "100",
                          "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def test_anitescu_potra_and_sequential_match_compare(compare, rocking_block):
    every = impactset.anitescu_potra_all(rocking_block)
    assert every.status == "solved"
    assert len(every.outcomes) == len(compare["anitescu_potra"])
    for o, c in zip(every.outcomes, compare["anitescu_potra"]):
        np.testing.assert_array_equal(o.v_plus, c["v_plus"])
        np.testing.assert_array_equal(o.lambda_n, c["lambda_n"])
        assert o.status == "solved"
    one = impactset.anitescu_potra(rocking_block)
    assert one.status == "solved" and one.v_plus.shape == (3,)
    seq = impactset.sequential(rocking_block)
    assert [s.ordering for s in seq] == [c["ordering"] for c in compare["sequential"]]
    for s, c in zip(seq, compare["sequential"]):
        assert s.status == c["status"]
        np.testing.assert_array_equal(s.v_plus, c["v_plus"])
        assert s.energy_ratio == c["energy_ratio"]
    only = impactset.sequential(rocking_block, ordering=[1, 0], keep_trajectory=True)
    assert len(only) == 1 and only[0].ordering == [1, 0]
    np.testing.assert_array_equal(only[0].trajectory[0], rocking_block.v_minus)
    np.testing.assert_array_equal(only[0].trajectory[-1], only[0].v_plus)


def test_seghete_murphey_aghili_and_jme_match_compare(compare, rocking_block):
    sm = compare["seghete_murphey"]["outcomes"]
    elastic = [o for o in sm if o["setting"] == "elastic e=1"]
    found = impactset.propagative_outcomes(rocking_block, e=1.0)
    assert found.status == "complete" and len(found.outcomes) == len(elastic)
    for o, c in zip(found.outcomes, elastic):
        np.testing.assert_array_equal(o.v_plus, c["v_plus"])
        np.testing.assert_array_equal(o.lambda_, c["lambda"])
        assert o.sequences == c["orderings"]
    cone = [o for o in sm if o["setting"] == "plastic e=0 cone"][0]
    plastic = impactset.plastic(rocking_block)
    assert (plastic.mode, plastic.status) == ("cone", "solved")
    np.testing.assert_array_equal(plastic.v_plus, cone["v_plus"])
    single = impactset.propagative(rocking_block, policy="least_violated")
    assert single.status == "feasible" and single.reflections == len(single.sequence)

    aghili = [o for o in compare["aghili"]["outcomes"] if o["e"] == 0.0][0]
    a = impactset.aghili(rocking_block, e=0.0)
    assert a.status == "solved"
    np.testing.assert_array_equal(a.v_plus, aghili["v_plus"])
    np.testing.assert_array_equal(a.impulse, aghili["normal_impulse"])

    jme = next(o for o in compare["jia_mason_erdmann"]["outcomes"]
               if o["label"] == "equal stiffness")
    j = impactset.jia_mason_erdmann(rocking_block, record_trace=True)
    assert j.status == "terminated" and j.states == jme["states"]
    np.testing.assert_array_equal(j.v_plus, jme["v_plus"])
    assert j.trace_impulse.shape[1] == rocking_block.m
    np.testing.assert_array_equal(j.trace_impulse[-1], j.impulse)  # the curve ends at I


@pytest.mark.parametrize("call,field", [
    (lambda p: impactset.anitescu_potra(p, velocity=[1.0]), "v"),
    (lambda p: impactset.anitescu_potra(p, lcp="fast"), "fast"),
    (lambda p: impactset.anitescu_potra_all(p, distinct_tolerance=2.0), "distinct_tolerance"),
    (lambda p: impactset.sequential(p, ordering=[0, 0]), "ordering"),
    (lambda p: impactset.sequential(p, max_impacts=0), "max_impacts"),
    (lambda p: impactset.propagative(p, policy="sideways"), "policy = sideways"),
    (lambda p: impactset.propagative(p, e=2.0), "e = 2"),
    (lambda p: impactset.propagative_outcomes(p, max_sequences=0), "max_sequences"),
    (lambda p: impactset.plastic(p, mode="soft"), "mode = soft"),
    (lambda p: impactset.aghili(p, per_contact=[0.5]), "per_contact|restitution"),
    (lambda p: impactset.jia_mason_erdmann(p, stiffness=[1.0, -1.0]), "stiffness"),
    (lambda p: impactset.jia_mason_erdmann(p, step_fraction=0.0), "step_fraction"),
])
def test_bad_law_options_raise_value_error_naming_the_field(rocking_block, call, field):
    with pytest.raises(ValueError, match=field):
        call(rocking_block)
