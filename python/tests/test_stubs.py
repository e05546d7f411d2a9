"""The type stubs (impactset/__init__.pyi) name every public name of the module, every method
and property of its classes, and every parameter of its functions, as the module spells them."""
import ast
import inspect
import pathlib
import re

import pytest

import impactset

STUB = pathlib.Path(impactset.__file__).with_name("__init__.pyi")


def stub_tree():
    return ast.parse(STUB.read_text())


def stub_functions(body):
    return {n.name: n for n in body if isinstance(n, ast.FunctionDef)}


def stub_parameters(node):
    a = node.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    names += [x.arg for x in (a.vararg, a.kwarg) if x is not None]
    return [n for n in names if n != "self"]


def runtime_parameters(function):
    """Parameter names: a Python function's signature, or pybind11's signature line
    "name(a: T, *, b: T = ...) -> R"."""
    if inspect.isfunction(function) or hasattr(function, "__signature__"):
        return [n for n in inspect.signature(function).parameters if n != "self"]
    line = function.__doc__.splitlines()[0]
    inside = line[line.index("(") + 1:line.rindex(") ->")]
    names = re.findall(r"(?:^|, )\*?\*?(\w+)(?=:|$|,)", inside)
    return [n for n in names if n != "self"]


def public_names():
    names = [n for n in impactset.__all__ if n != "__version__"]
    assert names  # an empty list would prove nothing
    return names


def test_every_public_name_is_in_the_stub():
    tree = stub_tree()
    declared = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    declared |= {t.target.id for t in tree.body if isinstance(t, ast.AnnAssign)}
    missing = [n for n in impactset.__all__ if n not in declared]
    assert not missing
    exported = {n for n in dir(impactset._impactset) if not n.startswith("_")}
    assert exported <= set(impactset.__all__), exported - set(impactset.__all__)


@pytest.mark.parametrize("name", public_names())
def test_members_and_parameters_match(name):
    tree = stub_tree()
    obj = getattr(impactset, name)
    if inspect.isclass(obj):
        if issubclass(obj, impactset.SampleStatus.__mro__[1]):  # an enum.IntEnum: values only
            return
        node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
        in_stub = stub_functions(node.body)
        # Problem's constructor is checked below, BatchJob's and BatchResult's here.
        members = [m for m in vars(obj) if not m.startswith("_") or m in ("__len__", "__float__")]
        if obj in (impactset.BatchJob, impactset.BatchResult):
            members.append("__init__")
        missing = [m for m in members if m not in in_stub]
        assert not missing, f"{name}: {missing}"
        for m in members:
            value = getattr(obj, m)
            if callable(value) and not isinstance(value, property) and value.__doc__:
                assert stub_parameters(in_stub[m]) == runtime_parameters(value), f"{name}.{m}"
        return
    node = stub_functions(tree.body)[name]
    assert stub_parameters(node) == runtime_parameters(obj), name


def test_constructor_parameters():
    node = stub_functions(next(n for n in stub_tree().body if isinstance(n, ast.ClassDef)
                               and n.name == "Problem").body)["__init__"]
    doc = impactset.Problem.__init__.__doc__.splitlines()[0]
    assert stub_parameters(node) == runtime_parameters(type("f", (), {"__doc__": doc}))


def test_help_reads_well():
    text = impactset.sample.__doc__
    assert text.startswith("sample(problem: ")
    for option in ("samples", "seed", "threads", "design", "step", "max_steps", "selection",
                   "keep_trajectories", "KeyboardInterrupt", "ValueError"):
        assert option in text
    for name in public_names():
        assert getattr(impactset, name).__doc__, name


def test_every_property_is_documented():
    """Every public property of every public class says what it holds (help() and IDEs show it)."""
    checked, missing = 0, []
    for name in public_names():
        obj = getattr(impactset, name)
        if not inspect.isclass(obj):
            continue
        for member, value in vars(obj).items():
            if member.startswith("_") or not isinstance(value, property):
                continue
            checked += 1
            if not (value.__doc__ or "").strip():
                missing.append(f"{name}.{member}")
    print("\n".join(missing))
    assert checked > 100  # the module's classes have their properties (an empty pass proves nothing)
    assert not missing, f"{len(missing)} properties without a docstring: {missing}"
