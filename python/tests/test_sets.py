"""Nets, hulls and coverage from a run, from samples and from points; distances; the planner."""
import math

import numpy as np
import pytest

import impactset

# Hull containment of points that went through an SVD projection and Qhull's facet arithmetic:
# 1e-9 absolute covers their roundoff on O(1) velocities.
ROUNDOFF = 1e-9


def test_run_sets_cover_every_sample(rocking_block):
    r = impactset.run(rocking_block, samples=4000, seed=3, keep_samples=True, holdout=1024,
                      reachable=True)
    assert [(s.set, s.coords) for s in r.sets] == [
        ("post_impact", "contact"), ("post_impact", "generalized"),
        ("reachable", "contact"), ("reachable", "generalized")]
    post = r.set("post_impact", "contact")
    points = r.samples.post_impact("contact")
    assert len(points) > 0
    assert np.all(post.net.distances(points) <= post.net.epsilon)
    assert post.hull.status == "computed"
    # The hull is the net's: every sample lies within epsilon of it.
    assert np.all(post.hull.distances(points) <= post.net.epsilon + ROUNDOFF)
    assert np.all(post.hull.contains(post.net.points, tolerance=ROUNDOFF + post.hull.flatness))
    assert post.coverage.holdout + post.coverage.holdout_not_terminated == 1024
    assert 0 < post.coverage.missed_mass_upper < 1
    assert r.set("reachable", "contact").coverage is None


def test_sets_from_samples_equal_the_run_sets(rocking_block):
    options = dict(epsilon=0.005, holdout=256, reachable=True)
    r = impactset.run(rocking_block, samples=2000, seed=9, **options)
    s = impactset.sample(rocking_block, samples=2000, seed=9, keep_trajectories=True)
    later = impactset.sets(s, **options)
    assert len(later) == len(r.sets) == 4
    for a, b in zip(later, r.sets):
        np.testing.assert_array_equal(a.net.points, b.net.points)
        assert a.hull.volume == b.hull.volume
    without_trajectories = impactset.sets(impactset.sample(rocking_block, samples=200), holdout=0)
    assert [p.set for p in without_trajectories] == ["post_impact", "post_impact"]
    with pytest.raises(ValueError, match="samples"):
        impactset.sets(impactset.run(rocking_block, samples=100, holdout=0))


def test_points_nets_hulls_and_hausdorff_on_known_sets():
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.5, 0.5]])
    h = impactset.hull(square)
    assert (h.status, h.dimension) == ("computed", 2)
    assert h.volume == pytest.approx(1.0, abs=ROUNDOFF)
    assert len(h.vertices) == 4
    np.testing.assert_allclose(h.distances([[2.0, 0.5], [0.5, 0.5]]), [1.0, 0.0], atol=ROUNDOFF)
    np.testing.assert_array_equal(h.contains([[0.5, 0.2], [1.5, 0.2]]), [True, False])
    segment = impactset.hull([[0.0, 0.0, 1.0], [2.0, 0.0, 1.0]])
    assert segment.dimension == 1 and segment.volume == pytest.approx(2.0, abs=ROUNDOFF)
    assert impactset.hull(np.zeros((0, 2))).status == "empty_net"
    assert impactset.hull(np.random.default_rng(0).normal(size=(50, 8)),
                          max_dimension=6).status == "dimension_too_high"

    line = np.linspace(0, 1, 101)[:, None]
    n = impactset.net(line, epsilon=0.1)
    assert np.all(n.distances(line) <= 0.1) and 5 <= len(n) <= 11
    d = impactset.hausdorff([[0.0], [1.0]], [[0.0], [3.0]])
    assert (d.distance, d.a_to_b.distance, d.b_to_a.distance) == (2.0, 1.0, 2.0)
    assert d.b_to_a.from_index == 1
    np.testing.assert_array_equal(impactset.nearest_distances([[0.5]], [[0.0], [2.0]]), [0.5])


@pytest.mark.parametrize("call,field", [
    (lambda: impactset.hull(np.zeros(3)), "points: expected a 2-D array"),
    (lambda: impactset.hull([[np.inf, 0.0], [0.0, 1.0]]), "finite"),
    (lambda: impactset.hull([[0.0, 0.0]], max_dimension=0), "hull_max_dimension = 0"),
    (lambda: impactset.net([[0.0]], epsilon=0.0), "epsilon"),
    (lambda: impactset.net(np.zeros((0, 2)), epsilon=0.1), "points"),
    (lambda: impactset.hausdorff([[0.0, 1.0]], [[0.0]]), "rows|dimension"),
    (lambda: impactset.holdout_bound(10, 11, 0.05), "missed"),
    (lambda: impactset.lemma1_bound(-1.0, 2, 0.1, 100), "lipschitz"),
])
def test_bad_set_inputs_raise_value_error(call, field):
    with pytest.raises(ValueError, match=field):
        call()


def test_distance_between_runs_samples_and_files(rocking_block, tmp_path):
    a = impactset.sample(rocking_block, samples=1500, seed=1)
    b = impactset.run(rocking_block, samples=1500, seed=2)
    b.write(tmp_path / "b.h5")
    d = impactset.distance(a, tmp_path / "b.h5")
    assert d.hausdorff == max(d.a_to_b, d.b_to_a)
    assert d.net_slack == b.set().net.epsilon
    assert d.hausdorff < 10 * d.net_slack  # two seeds sample the same set
    assert impactset.distance(a, a).hausdorff == 0
    with pytest.raises(ValueError, match="neither kept samples nor a net"):
        impactset.distance(a, impactset.run(rocking_block, samples=100, sets=False))
    with pytest.raises(ValueError, match="--keep-trajectories or --reachable"):
        impactset.distance(a, b, set="reachable")  # the default builds no reachable sets
    with pytest.raises(ValueError, match="not the same system"):
        impactset.distance(a, impactset.sample(impactset.Problem.from_system("cradle"),
                                               samples=100))


def test_plan_and_bounds(rocking_block):
    p = impactset.plan(rocking_block)
    assert p.holdout.samples == 2995  # ceil(log 0.05 / log(1 - 0.001)), docs/coverage.md
    assert p.lemma1 is None and p.max_steps == rocking_block.max_steps
    l = impactset.plan(rocking_block, lipschitz=2.0, epsilon=0.1, max_steps=3).lemma1
    assert l.cube_dimension == rocking_block.m * 3
    assert l.log_cells == pytest.approx(6 * math.log(math.ceil(2 * math.sqrt(6) / 0.1)))
    with pytest.raises(ValueError, match="missed_mass = 2"):
        impactset.plan(rocking_block, missed_mass=2.0)
    b = impactset.holdout_bound(2995, 0, 0.05)
    assert b.missed_mass_upper == pytest.approx(1 - 0.05 ** (1 / 2995))
    assert impactset.lemma1_bound(2.0, 6, 0.1, l.samples).failure_bound <= 0.05


def test_ranges_hold_every_sample_and_the_polish():
    # The 3-D rocking block: the polish reaches ends that the run's own samples miss.
    p = impactset.Problem.from_system("rocking-block-3d")
    plain = impactset.run(p, samples=2048, seed=5, keep_samples=True, holdout=0, polish=0)
    polished = impactset.run(p, samples=2048, seed=5, keep_samples=True, holdout=0)
    assert polished.options["polish"] == 4096 and plain.options["polish"] == 0
    y = plain.samples.post_impact("contact")
    exact = plain.set("post_impact", "contact").ranges
    assert exact.shape == (y.shape[1], 2)
    # Without a polish the ranges are the samples' own, exactly.
    np.testing.assert_array_equal(exact[:, 0], y.min(0))
    np.testing.assert_array_equal(exact[:, 1], y.max(0))
    # The polish adds outcomes (the same samples, then more): the ranges only widen, somewhere.
    wider = polished.set("post_impact", "contact").ranges
    np.testing.assert_array_equal(polished.samples.post_impact("contact"), y)
    assert np.all(wider[:, 0] <= exact[:, 0]) and np.all(wider[:, 1] >= exact[:, 1])
    assert np.any(wider[:, 1] - wider[:, 0] > (exact[:, 1] - exact[:, 0]) * 1.001)
    statement = polished.set("post_impact", "contact").coverage.extent_statement
    assert "polish" in statement
