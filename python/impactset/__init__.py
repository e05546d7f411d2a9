"""impactset: the set of post-impact velocities of rigid systems with simultaneous frictional
inelastic impacts (Halm & Posa), in-process, with numpy arrays in and out.

    import impactset
    p = impactset.Problem.from_system("rocking-block")
    s = impactset.sample(p, samples=10_000, seed=1)
    s.contact_velocity[s.status == impactset.SampleStatus.TERMINATED]

See docs/python.md for the tour: problems, sample() and run(), sets, the other impact laws and
the HDF5 dataset.
"""
import enum
import inspect
import typing

from ._impactset import (
    AghiliResult,
    AnitescuPotraOutcome,
    AnitescuPotraSet,
    Coverage,
    DirectedDistance,
    Hausdorff,
    HoldoutBound,
    HoldoutPlan,
    Hull,
    HullDistance,
    JiaMasonErdmannResult,
    Lemma1Bound,
    Lemma1Plan,
    Net,
    Plan,
    PlasticResult,
    PointSet,
    Problem,
    PropagativeOutcome,
    PropagativeOutcomeSet,
    PropagativeResult,
    Run,
    Samples,
    SequentialOutcome,
    SetDistance,
    Summary,
    __version__,
    aghili,
    anitescu_potra,
    anitescu_potra_all,
    distance,
    hausdorff,
    holdout_bound,
    hull,
    jia_mason_erdmann,
    lemma1_bound,
    merge,
    nearest_distances,
    net,
    plan,
    plastic,
    propagative,
    propagative_outcomes,
    read_dataset,
    read_run,
    sequential,
    systems,
    write_dataset,
)
from . import _impactset


_TYPES = {"bool": bool, "int": int, "float": float, "str": str,
          "tuple[int, int]": typing.Tuple[int, int]}


def _option_parameters(surface):
    """The keyword-only parameters of one surface, in the option table's order."""
    rows = [f for f in _impactset._option_fields() if surface in f["surfaces"]]
    params = []
    for f in rows:
        kind = _TYPES[f["type"]]
        if f["choices"]:
            kind = typing.Literal[tuple(f["choices"])]
        if f["optional"]:
            kind = typing.Optional[kind]
        params.append(inspect.Parameter(f["name"], inspect.Parameter.KEYWORD_ONLY,
                                        default=f["default"], annotation=kind))
    return rows, params


def _option_help(rows):
    lines = ["", "Options (one table drives these keywords, the command line and the files):"]
    for f in rows:
        default = f["unset"] if f["default"] is None and f["unset"] else repr(f["default"])
        if f["from_problem"]:
            default = "the problem's"
        lines.append(f"  {f['name']}: {f['doc']} (default: {default})")
    return "\n".join(lines)


def _with_options(name, call, head, surface, extras, returns):
    """A function `name(head, *, <the surface's options>, <extras>)` that checks its keywords
    like any Python function and hands the options given to `call` as a dict."""
    rows, params = _option_parameters(surface)
    head, head_type = head
    params = ([inspect.Parameter(head, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                 annotation=head_type)] + params
              + [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=d, annotation=a)
                 for k, a, d in extras])
    signature = inspect.Signature(params, return_annotation=returns)
    names = {f["name"] for f in rows}

    def function(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        options = {k: v for k, v in bound.arguments.items() if k in names}
        rest = [bound.arguments.get(k, d) for k, _, d in extras]
        return call(bound.arguments[head], options, *rest)

    function.__name__ = function.__qualname__ = name
    function.__module__ = __name__
    function.__signature__ = signature
    text = str(signature).replace("typing.", "").replace("impactset._impactset.", "")
    function.__doc__ = f"{name}{text}\n" + call.__doc__.split("\n", 1)[1] + _option_help(rows)
    return function


_Progress = typing.Optional[typing.Callable[[int, int], None]]
sample = _with_options("sample", _impactset._sample, ("problem", Problem), "sample",
                       [("outputs", typing.Sequence[str], ()), ("progress", _Progress, None)],
                       Samples)
run = _with_options("run", _impactset._run, ("problem", Problem), "run",
                    [("outputs", typing.Sequence[str], ()), ("out", typing.Optional[str], None),
                     ("progress", _Progress, None)], Run)
sets = _with_options("sets", _impactset._sets, ("source", typing.Union[Samples, Run]), "sets", [],
                     typing.List[PointSet])


class SampleStatus(enum.IntEnum):
    """The codes of Samples.status (and of a dataset's /samples/status)."""

    TERMINATED = 0  #: no contact still colliding: the row is in the post-impact set
    STEP_CAP = 1  #: max_steps solves and still colliding
    LCP_FAILURE = 2  #: a step LCP had no accepted solution


__all__ = [
    "AghiliResult",
    "AnitescuPotraOutcome",
    "AnitescuPotraSet",
    "Coverage",
    "DirectedDistance",
    "Hausdorff",
    "HoldoutBound",
    "HoldoutPlan",
    "Hull",
    "HullDistance",
    "JiaMasonErdmannResult",
    "Lemma1Bound",
    "Lemma1Plan",
    "Net",
    "Plan",
    "PlasticResult",
    "PointSet",
    "Problem",
    "PropagativeOutcome",
    "PropagativeOutcomeSet",
    "PropagativeResult",
    "Run",
    "SampleStatus",
    "Samples",
    "SequentialOutcome",
    "SetDistance",
    "Summary",
    "__version__",
    "aghili",
    "anitescu_potra",
    "anitescu_potra_all",
    "distance",
    "hausdorff",
    "holdout_bound",
    "hull",
    "jia_mason_erdmann",
    "lemma1_bound",
    "merge",
    "nearest_distances",
    "net",
    "plan",
    "plastic",
    "propagative",
    "propagative_outcomes",
    "read_dataset",
    "read_run",
    "run",
    "sample",
    "sequential",
    "sets",
    "systems",
    "write_dataset",
]
