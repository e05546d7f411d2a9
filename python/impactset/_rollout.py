"""impactset.rollout: set-valued rollouts of a MuJoCo model (docs/rollouts.md). The keywords are
two tables' rows: the MuJoCo source's (as Problem.from_mujoco) and the rollout's (as the command
line's `impactset rollout`), so the three surfaces cannot drift apart."""
import dataclasses
import inspect
import typing
import warnings

import numpy as np

from . import _impactset

_NUMBER = typing.Union[int, float]
_TYPES = {"bool": bool, "number": _NUMBER, "list": typing.Optional[typing.Sequence[float]],
          "str": typing.Sequence[str]}


@dataclasses.dataclass
class Rollouts:
    """What impactset.rollout returns: one row per rollout (arrays indexed by rollout), the
    metrics' summaries, MuJoCo's own outcome (baseline) and the options. Plain data: it pickles.

    qpos (R, nq), qvel (R, nv): the final states, columns named by qpos_names and qvel_names.
    metrics (R, K): each rollout's metric values (NaN for a rollout that stopped early), columns
    metric_names. summaries: per metric, its counts and, for an event metric, one-sided
    Clopper-Pearson bounds lower and upper on P(event) at confidence 1 - delta.
    """
    model: str
    timestep: float
    qpos_names: typing.List[str]
    qvel_names: typing.List[str]
    metric_names: typing.List[str]
    key: typing.List[str]
    status: typing.List[str]
    message: typing.List[str]
    events: np.ndarray
    constrained_events: np.ndarray
    lcp_solves: np.ndarray
    time: np.ndarray
    fastest_approach: np.ndarray
    qpos: np.ndarray
    qvel: np.ndarray
    metrics: np.ndarray
    summaries: typing.Dict[str, dict]
    baseline: typing.Optional[dict]
    counts: typing.Dict[str, int]
    seconds: float
    options: dict
    warnings: typing.List[str]

    def metric(self, name):
        """One metric's values over the rollouts."""
        return self.metrics[:, self.metric_names.index(name)]

    def to_xarray(self):
        """The rollouts as an xarray.Dataset with the file's dimensions (rollout,
        qpos_coordinate, qvel_coordinate, metric) and the same variable names."""
        import xarray as xr
        coords = {"rollout": np.arange(len(self.key)), "qpos_coordinate": self.qpos_names,
                  "qvel_coordinate": self.qvel_names, "metric": self.metric_names}
        data = {"key": ("rollout", np.array(self.key)),
                "status": ("rollout", np.array(self.status)),
                "events": ("rollout", self.events), "time": ("rollout", self.time),
                "fastest_approach": ("rollout", self.fastest_approach),
                "qpos": (("rollout", "qpos_coordinate"), self.qpos),
                "qvel": (("rollout", "qvel_coordinate"), self.qvel),
                "metrics": (("rollout", "metric"), self.metrics)}
        attrs = {"model": self.model, "timestep": self.timestep,
                 **{k: int(v) for k, v in self.counts.items()}}
        return xr.Dataset(data, coords=coords, attrs=attrs)

    def to_dataframe(self):
        """One row per rollout (pandas): key, status, events, time and every metric."""
        import pandas as pd
        frame = pd.DataFrame({"key": self.key, "status": self.status, "events": self.events,
                              "time": self.time})
        for j, name in enumerate(self.metric_names):
            frame[name] = self.metrics[:, j]
        return frame


def _mujoco_rows():
    return list(_impactset._mujoco_option_fields())


def _rollout_rows():
    return list(_impactset._rollout_option_fields())


def _mujoco_default(row):
    text = row["default"]
    if text in ("", "true", "false"):
        return {"": None, "true": True, "false": False}[text]
    return float(text) if any(c in text for c in ".e") else int(text)


def _default(row):
    text = row["default"]
    if row["type"] == "bool":
        return text == "true"
    if row["type"] == "number":
        number = float(text)
        return int(number) if number.is_integer() and "." not in text and "e" not in text else number
    if row["type"] == "str":
        return ()
    return None


def _signature():
    p = [inspect.Parameter("path", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str)]
    kw = inspect.Parameter.KEYWORD_ONLY
    for row in _mujoco_rows():
        default = _mujoco_default(row)
        kind = typing.Any if default is None else type(default)
        p.append(inspect.Parameter(row["name"], kw, default=default, annotation=kind))
    for row in _rollout_rows():
        p.append(inspect.Parameter(row["name"], kw, default=_default(row),
                                   annotation=_TYPES[row["type"]]))
    p.append(inspect.Parameter("policy", kw, default=None,
                               annotation=typing.Optional[typing.Callable]))
    p.append(inspect.Parameter("out", kw, default=None, annotation=typing.Optional[str]))
    p.append(inspect.Parameter("replay", kw, default=None, annotation=typing.Optional[str]))
    return inspect.Signature(p, return_annotation=Rollouts)


_SIGNATURE = _signature()


def rollout(*args, **kwargs):
    bound = _SIGNATURE.bind(*args, **kwargs)
    bound.apply_defaults()
    values = bound.arguments
    mujoco = {r["name"]: values[r["name"]] for r in _mujoco_rows()}
    options = {r["name"]: values[r["name"]] for r in _rollout_rows()}
    result = _impactset._rollout(values["path"], mujoco, options, values["policy"],
                                 values["out"], values["replay"])
    for w in result["warnings"]:
        warnings.warn(f"{result['model']}: {w}", RuntimeWarning, stacklevel=2)
    rows_ = result["rollouts"]
    return Rollouts(
        model=result["model"], timestep=result["timestep"], qpos_names=result["qpos_names"],
        qvel_names=result["qvel_names"], metric_names=result["metric_names"], key=rows_["key"],
        status=rows_["status"], message=rows_["message"], events=rows_["events"],
        constrained_events=rows_["constrained_events"], lcp_solves=rows_["lcp_solves"],
        time=rows_["time"], fastest_approach=rows_["fastest_approach"], qpos=rows_["qpos"],
        qvel=rows_["qvel"], metrics=rows_["metrics"],
        summaries={s["name"]: s for s in result["summaries"]}, baseline=result["baseline"],
        counts=result["counts"], seconds=result["seconds"], options=result["options"],
        warnings=result["warnings"])


def _help():
    lines = ["Set-valued rollouts of a MuJoCo model (docs/rollouts.md): MuJoCo's own stepping up",
             "to horizon T with every impact event resolved by one Algorithm-1 sample.",
             "policy(t, qpos, qvel) -> ctrl (nu,) drives the actuators at every step (called from",
             "worker threads, with the GIL). replay='SEED/INDEX' runs that one rollout again.",
             "", "MuJoCo source (as Problem.from_mujoco):"]
    for row in _mujoco_rows():
        lines.append(f"  {row['name']}: {row['doc']}")
    lines.append("")
    lines.append("Rollout options (the command line's `impactset rollout` flags):")
    for row in _rollout_rows():
        default = row["default"] or "none"
        lines.append(f"  {row['name']}: {row['doc']} (default: {default})")
    return "\n".join(lines)


rollout.__signature__ = _SIGNATURE
rollout.__doc__ = _help()


def _falsify_signature():
    defaults = _impactset._falsify_defaults()
    kw = inspect.Parameter.KEYWORD_ONLY
    head = [inspect.Parameter("path", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str),
            inspect.Parameter("metric", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str),
            inspect.Parameter("maximize", kw, default=defaults["maximize"], annotation=bool),
            inspect.Parameter("population", kw, default=defaults["population"], annotation=int),
            inspect.Parameter("set_steps", kw, default=defaults["set_steps"], annotation=int),
            inspect.Parameter("set_events", kw, default=defaults["set_events"], annotation=int)]
    rest = [p for p in _SIGNATURE.parameters.values()
            if p.name not in ("path", "out", "replay")]
    return inspect.Signature(head + rest, return_annotation=dict)


_FALSIFY_SIGNATURE = _falsify_signature()


def falsify(*args, **kwargs):
    bound = _FALSIFY_SIGNATURE.bind(*args, **kwargs)
    bound.apply_defaults()
    values = bound.arguments
    mujoco = {r["name"]: values[r["name"]] for r in _mujoco_rows()}
    options = {r["name"]: values[r["name"]] for r in _rollout_rows()}
    return _impactset._falsify(values["path"], mujoco, options, values["policy"], values["metric"],
                               values["maximize"], values["population"], values["set_steps"],
                               values["set_events"])


falsify.__signature__ = _FALSIFY_SIGNATURE
falsify.__doc__ = """Searches the first set_events impacts of a MuJoCo model's rollouts for the worst
value of one metric (the largest, or the smallest with maximize=False) with `rollouts` rollouts,
beside as many iid rollouts (docs/rollouts.md "Falsification"). The keywords after set_events are
rollout()'s. Returns a dict: directed and iid (the worst values found), their traces after each
round of `population`, the iid side's worst key, the search's worst rollout's set entries per
event (worst_draws) and final state."""
