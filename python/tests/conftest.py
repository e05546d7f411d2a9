"""Shared fixtures of the Python module's tests (run by CTest: test `python`)."""
import os
import pathlib
import shutil

import numpy as np
import pytest

import impactset

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """The impactset command of the same build (CTest passes it), else one on PATH."""
    path = os.environ.get("IMPACTSET_CLI") or shutil.which("impactset")
    if not path:
        pytest.fail("set IMPACTSET_CLI to the impactset command (CTest does)")
    return path


@pytest.fixture
def rocking_block():
    return impactset.Problem.from_system("rocking-block")


def planar_arrays():
    """A small planar problem as plain arrays: a point mass on a wall and a floor (n = 2, m = 2),
    approaching both at once."""
    M = np.diag([2.0, 3.0])
    Jn = np.array([[1.0, 0.0], [0.0, 1.0]])
    Jf = np.array([[0.0, 1.0], [1.0, 0.0]])
    mu = np.array([0.3, 0.5])
    v_minus = np.array([-1.0, -0.5])
    return M, Jn, Jf, mu, v_minus
