"""One option table, every surface: the keywords of sample(), run() and sets(), their stubs, the
command line's help of run and batch, the options of a Run and the files' attributes all list the
table's rows with the table's defaults (the table itself: impactset._option_fields())."""
import ast
import inspect
import pathlib
import subprocess

import h5py
import pytest

import impactset
from impactset import _impactset

FIELDS = _impactset._option_fields()
FUNCTIONS = {"sample": impactset.sample, "run": impactset.run, "sets": impactset.sets,
             "batch": impactset.batch}
# The keywords of batch() that say where the states come from, not how each runs.
BATCH_SOURCE = {"system", "params", "scene", "problems", "mujoco", "keyframe", "qpos", "qvel",
                "contact_margin", "friction_directions", "ignore_constraints", "vary",
                "state_design", "states", "state_seed", "table", "resume"}
STUB = pathlib.Path(impactset.__file__).with_name("__init__.pyi")


def rows(surface):
    found = [f for f in FIELDS if surface in f["surfaces"]]
    assert found, surface  # an empty table would make every loop below vacuous
    return found


def stub_defaults(name):
    node = next(n for n in ast.parse(STUB.read_text()).body
                if isinstance(n, ast.FunctionDef) and n.name == name)
    args = node.args
    return {a.arg: ast.literal_eval(d) for a, d in zip(args.kwonlyargs, args.kw_defaults)}


def cli_text(value):
    """The default as the command line prints it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return f"{value[0]}/{value[1]}"
    return str(value)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_keywords_and_stub_follow_the_table(name):
    signature = inspect.signature(FUNCTIONS[name]).parameters
    stub = stub_defaults(name)
    key = "batch_default" if name == "batch" else "default"
    for f in rows(name):
        assert f["name"] in signature, f["name"]
        assert signature[f["name"]].default == f[key], f["name"]
        assert f["name"] in stub, f"{name}: {f['name']} missing from the stub"
        default = stub[f["name"]]
        assert (list(default) if isinstance(default, tuple) else default) == \
            (list(f[key]) if isinstance(f[key], tuple) else f[key]), f["name"]
        assert f["doc"] in FUNCTIONS[name].__doc__, f["name"]
    table = {f["name"] for f in rows(name)}
    extra = set(signature) - table - {"problem", "source", "outputs", "out", "progress"}
    if name == "batch":
        extra -= BATCH_SOURCE
        # A batch of rollouts: the rollout table's batch rows, not given unless set.
        for r in impactset._impactset._rollout_option_fields():
            if r["in_batch"]:
                assert signature[r["name"]].default is None, r["name"]
                assert r["doc"] in FUNCTIONS[name].__doc__, r["name"]
                extra.discard(r["name"])
    assert not extra, f"{name}() takes options the table does not have: {extra}"


@pytest.mark.parametrize("command", ["run", "batch"])
def test_command_help_follows_the_table(cli, command):
    text = subprocess.run([cli, command, "--help"], check=True, capture_output=True,
                          text=True).stdout
    key = "default" if command == "run" else "batch_default"
    for f in rows(f"{command}_command"):
        assert f["flag"] in text, f["flag"]
        if f[key] is not None:
            assert f"{f['doc']} (default: {cli_text(f[key])})" in " ".join(text.split()), \
                f["name"]


def test_run_options_name_every_row(rocking_block):
    r = impactset.run(rocking_block, samples=64, holdout=0, seed=3, lemke_restore_above=1e-13)
    for f in rows("run"):
        assert f["name"] in r.options, f["name"]
    assert r.options["lemke_restore_above"] == 1e-13 and r.options["seed"] == 3


def test_files_store_every_row_with_an_attribute(cli, tmp_path):
    out = tmp_path / "run.h5"
    subprocess.run([cli, "run", "--system", "rocking-block", "--samples", "64", "--holdout", "0",
                    "--lemke-restore-above", "1e-13", "--out", str(out)], check=True,
                   capture_output=True)
    with h5py.File(out) as f:
        for row in (f for f in FIELDS if f["attribute"]):
            group, name = row["attribute"].rsplit("/", 1)
            assert name in f[group or "/"].attrs, row["attribute"]
            if row["name"] not in ("samples", "step", "max_steps", "epsilon", "lipschitz",
                                   "lemke_restore_above", "holdout"):
                stored = f[group or "/"].attrs[name]
                assert stored == row["default"], row["name"]  # the defaults, as run writes them
        assert f.attrs["lemke_restore_above"] == 1e-13


def test_batch_files_store_every_identity_row(cli, tmp_path):
    out = tmp_path / "batch.h5"
    subprocess.run([cli, "batch", "--system", "billiard", "--vary", "theta=1.2:2.8:2",
                    "--samples", "32", "--holdout", "0", "--out", str(out)], check=True,
                   capture_output=True)
    with h5py.File(out) as f:
        for row in rows("batch_command"):
            if row["identity"] and row["batch_default"] is not None:
                assert row["name"] in f["options"].attrs, row["name"]
        assert f.attrs["schema_version"] >= 2 and f.attrs["file_kind"] == "batch"


def test_bad_keywords_name_the_option(rocking_block):
    with pytest.raises(TypeError, match="samples = 2.5: must be an integer"):
        impactset.sample(rocking_block, samples=2.5)
    with pytest.raises(TypeError, match="detect_non_unique = 1: must be True or False"):
        impactset.sample(rocking_block, samples=8, detect_non_unique=1)
    with pytest.raises(ValueError, match="seed = -1: must be >= 0"):
        impactset.sample(rocking_block, samples=8, seed=-1)
    with pytest.raises(ValueError, match="design = lhs: must be one of"):
        impactset.sample(rocking_block, samples=8, design="lhs")
    with pytest.raises(TypeError, match="nope"):
        impactset.sample(rocking_block, nope=1)


@pytest.mark.parametrize("call, message", [
    (lambda p: impactset.sample(p, p), r"sample\(\) takes 1 positional argument but 2 were given"),
    (lambda p: impactset.sample(), r"sample\(\) missing 1 required positional argument: 'problem'"),
    (lambda p: impactset.run(p, samplez=1), r"run\(\) got an unexpected keyword argument 'samplez'"),
    (lambda p: impactset.sets(p, keep=3), r"sets\(\) got an unexpected keyword argument 'keep'"),
    (lambda p: impactset.sample(p, problem=p), r"sample\(\) got multiple values for argument"),
])
def test_calls_bind_like_python_functions(rocking_block, call, message):
    """The fast binding of sample/run/sets raises what Signature.bind would."""
    with pytest.raises(TypeError, match=message):
        call(rocking_block)
