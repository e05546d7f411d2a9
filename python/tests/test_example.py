"""examples/python/learn_support.py runs end to end at a small size."""
import json
import math
import os
import subprocess
import sys

import impactset
from conftest import ROOT


def test_learning_example_small(tmp_path):
    metrics, plot = tmp_path / "metrics.json", tmp_path / "sets.png"
    subprocess.run([sys.executable, str(ROOT / "examples/python/learn_support.py"),
                    "--states", "40", "--samples", "300", "--metrics", str(metrics),
                    "--plot", str(plot)], check=True, capture_output=True, cwd=tmp_path,
                   env=dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=os.pathsep.join(
                       [os.path.dirname(os.path.dirname(impactset.__file__))]
                       + os.environ.get("PYTHONPATH", "").split(os.pathsep))))
    m = json.loads(metrics.read_text())
    assert m["held_out"] == 8
    r = m["results"]
    for name in ("predicted", "calibrated", "sampled support polygon"):
        assert 0 <= r[name]["coverage"]["min"] <= r[name]["coverage"]["max"] <= 1
        assert 0 <= r[name]["hausdorff_over_omega"]["max"] < math.inf
    # The margin only inflates the polygons: coverage can only grow.
    assert r["calibrated"]["coverage"]["mean"] >= r["predicted"]["coverage"]["mean"]
    # Fresh samples of a state fall in the polygon of its own samples but for the few beyond them.
    assert r["sampled support polygon"]["coverage"]["mean"] > 0.95
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
