"""examples/python/learn_sets.py (with its PyTorch variant) runs end to end at a small size."""
import importlib.util
import json
import math
import os
import subprocess
import sys

import pytest

import impactset
from conftest import ROOT

EPOCHS = 30
HAVE_TORCH = importlib.util.find_spec("torch") is not None  # python3-torch: --torch only
MODELS = ("constant (training mean)", "linear", "k nearest neighbours (k = 5)",
          "MLP (scikit-learn)") + (("MLP (PyTorch, from batch files)",) if HAVE_TORCH else ()) \
    + ("MLP + calibrated margin", "another sample set (noise floor)")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("learn_sets")
    metrics, plot, data = tmp / "metrics.json", tmp / "sets.png", tmp / "data"
    torch = ["--torch", "--epochs", str(EPOCHS)] if HAVE_TORCH else []
    r = subprocess.run([sys.executable, str(ROOT / "examples/python/learn_sets.py"),
                        "--train", "120", "--calibration", "20", "--held-out", "20",
                        "--samples", "128", "--data", str(data), "--metrics", str(metrics),
                        "--plot", str(plot)] + torch,
                       capture_output=True, text=True, cwd=tmp,
                       env=dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=os.pathsep.join(
                           [os.path.dirname(os.path.dirname(impactset.__file__))]
                           + os.environ.get("PYTHONPATH", "").split(os.pathsep))))
    assert r.returncode == 0, r.stderr
    return json.loads(metrics.read_text()), plot, data


def test_metrics_are_complete(run):
    m, _, _ = run
    assert m["states"] == {"train": 120, "calibration": 20, "held_out": 20, "sweep": 36}
    assert m["samples"] == 128 and m["directions"] == 64
    assert tuple(m["models"]) == MODELS
    for name, r in m["models"].items():
        assert 0 <= r["coverage"]["min"] <= r["coverage"]["max"] <= 1, name
        assert 0 <= r["hausdorff"]["median"] <= r["hausdorff"]["max"], name
        assert r["support_mae"] is None or 0 <= r["support_mae"] < math.inf, name


def test_noise_floor_and_model_against_baselines(run):
    m, _, _ = run
    mae = {name: r["support_mae"] for name, r in m["models"].items()}
    floor = m["noise_floor"]
    assert floor == mae["another sample set (noise floor)"]
    # Resampling the same state is far closer than predicting every state by the mean.
    assert 0 < floor < mae["constant (training mean)"] / 5
    # The MLP beats the constant and the linear baselines, and is within 5x the noise floor.
    assert mae["MLP (scikit-learn)"] < mae["linear"] < mae["constant (training mean)"]
    assert mae["MLP (scikit-learn)"] < 5 * floor


def test_sets(run):
    r = run[0]["models"]
    # Fresh samples of a state fall in the polytope of its own samples but for the few beyond.
    assert r["another sample set (noise floor)"]["coverage"]["mean"] > 0.9
    # The margin only inflates the polytopes: coverage can only grow, and it covers.
    assert (r["MLP + calibrated margin"]["coverage"]["mean"]
            >= r["MLP (scikit-learn)"]["coverage"]["mean"])
    assert r["MLP + calibrated margin"]["coverage"]["mean"] > 0.8
    assert r["MLP (scikit-learn)"]["hausdorff"]["median"] < \
        r["constant (training mean)"]["hausdorff"]["median"]


def test_every_state_dimension_matters(run):
    m = run[0]
    assert set(m["sensitivity"]) == {"tilt", "sink", "slide_x", "slide_y"}
    for name, s in m["sensitivity"].items():
        assert s["support_range"] > 5 * m["noise_floor"], name
        assert s["shape_range"] > 2 * m["noise_floor"], name


@pytest.mark.skipif(not HAVE_TORCH, reason="PyTorch (python3-torch) is not installed")
def test_torch_variant_learns_from_the_batch_files(run):
    m, _, data = run
    assert sorted(p.name for p in data.glob("train-*.h5")) == ["train-0.h5", "train-1.h5"]
    loss = m["torch"]["loss"]
    assert len(loss) == EPOCHS and all(math.isfinite(x) for x in loss)
    assert loss[-1] < 0.5 * loss[0]
    mae = m["models"]["MLP (PyTorch, from batch files)"]["support_mae"]
    assert mae < m["models"]["constant (training mean)"]["support_mae"]


def test_figure_is_a_png(run):
    assert run[1].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
