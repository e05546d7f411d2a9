"""Output maps: run(outputs=[...]) builds the sets in y = C v, by the same names as
`impactset run --output`; Samples.post_impact(name) maps the kept samples."""
import numpy as np
import pytest

import impactset


def test_cube_outputs_are_mapped_samples(tmp_path):
    cube = impactset.Problem.from_system("cube-flat")
    np.savetxt(tmp_path / "vz.csv", [[0, 0, 1, 0, 0, 0]], delimiter=",")
    r = impactset.run(cube, samples=300, seed=2, holdout=0, keep_samples=True, reachable=False,
                      outputs=["base", "w=joints:cube:wx,cube:wy,cube:wz",
                               f"matrix:{tmp_path / 'vz.csv'}"])
    assert [(s.set, s.output) for s in r.sets] == [
        ("post_impact", "base"), ("post_impact", "w"), ("post_impact", "matrix:vz")]
    v = r.samples.post_impact("base")  # the free joint's six velocities: v+ itself
    terminated = r.samples.v_plus[r.samples.status == 0]
    assert len(v) > 0
    assert np.array_equal(v, terminated)
    assert np.array_equal(r.samples.post_impact("w"), terminated[:, 3:])
    assert np.array_equal(r.samples.post_impact("matrix:vz"), terminated[:, 2:3])
    up = r.set("post_impact", "matrix:vz")
    assert np.all(up.net.distances(terminated[:, 2:3]) <= up.net.epsilon)
    assert r.set("post_impact", "contact") is None
    r.write(tmp_path / "o.h5")
    back = impactset.read_run(tmp_path / "o.h5")
    assert [s.output for s in back.sets] == [s.output for s in r.sets]
    # Sets rebuilt from the kept samples are in the run's outputs, and equal the run's own.
    again = impactset.sets(r, holdout=0, reachable=False)
    assert [(s.set, s.output) for s in again] == [(s.set, s.output) for s in r.sets]
    assert np.array_equal(again[2].net.points, up.net.points)


def test_bad_outputs_raise_value_error_naming_them(rocking_block):
    with pytest.raises(ValueError, match="output = com: needs a MuJoCo model"):
        impactset.run(rocking_block, samples=10, outputs=["com"])
    with pytest.raises(ValueError, match="output = speed: must be contact, generalized"):
        impactset.sample(rocking_block, samples=10, outputs=["speed"])
    with pytest.raises(ValueError, match="coords = com: the run's outputs are contact"):
        impactset.sample(rocking_block, samples=10).post_impact("com")
