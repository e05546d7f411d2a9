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
    Clopper-Pearson bounds lower and upper on P(event) at confidence 1 - delta (NaN for a number
    metric; min, mean, max NaN when no rollout reached the horizon). trajectory (record_every >
    0): time (R, T), qpos (R, T, nq), qvel (R, T, nv), NaN after a rollout's last record. The
    fields are the rollout file's (docs/dataset-format.md "Rollout files").
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
    trajectory: typing.Optional[typing.Dict[str, np.ndarray]]

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


def _bind(signature, args, kwargs):
    """The call's values by name (defaults applied), then the MuJoCo source's and the rollout
    table's keywords apart, as _impactset takes them."""
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    values = bound.arguments
    return (values, {r["name"]: values[r["name"]] for r in _mujoco_rows()},
            {r["name"]: values[r["name"]] for r in _rollout_rows()})


def rollout(*args, **kwargs):
    values, mujoco, options = _bind(_SIGNATURE, args, kwargs)
    result = _impactset._rollout(values["path"], mujoco, options, values["policy"],
                                 values["out"], values["replay"])
    model = result["tree"]["attributes"]["/"]["model"]
    for w in result["warnings"]:
        warnings.warn(f"{model}: {w}", RuntimeWarning, stacklevel=2)
    return _from_tree(result)


def _strings(a):
    return [str(x) for x in a]


def _rows(arrays, group, metric_names):
    """The per-rollout arrays of /rollouts or /baseline, by name (scales left out)."""
    count = len(arrays[f"{group}/rollout"])
    out = {}
    for name in ("key", "status", "message"):
        out[name] = _strings(arrays[f"{group}/{name}"])
    for name in ("index", "events", "constrained_events", "lcp_solves", "time",
                 "fastest_approach", "qpos", "qvel"):
        out[name] = arrays[f"{group}/{name}" if name != "index" else f"{group}/rollout"]
    out["metrics"] = arrays.get(f"{group}/metrics", np.empty((count, len(metric_names))))
    return out


def _summaries(arrays):
    """Per metric, /metrics' row (as the file has it: NaN where a field does not apply)."""
    if "/metrics/metric" not in arrays:
        return {}
    names = _strings(arrays["/metrics/metric"])
    out = {}
    for j, name in enumerate(names):
        s = {"name": name}
        for field in ("expression", "argmin", "argmax"):
            s[field] = str(arrays[f"/metrics/{field}"][j])
        s["is_event"] = bool(arrays["/metrics/is_event"][j])
        for field in ("counted", "true_count"):
            s[field] = int(arrays[f"/metrics/{field}"][j])
        for field in ("lower", "upper", "min", "mean", "max", "baseline"):
            s[field] = float(arrays[f"/metrics/{field}"][j])
        out[name] = s
    return out


def _from_tree(result):
    """Rollouts from the rollout file's tree (rollouts/rollout_file.hpp): the file's fields, read
    once."""
    tree = result["tree"]
    arrays, root = tree["arrays"], tree["attributes"]["/"]
    names = result["metric_names"]
    rows_ = _rows(arrays, "/rollouts", names)
    trajectory = None
    if "/trajectory/time" in arrays:
        trajectory = {k: arrays[f"/trajectory/{k}"] for k in ("time", "qpos", "qvel")}
    return Rollouts(
        model=str(root["model"]), timestep=float(root["timestep"]),
        qpos_names=_strings(arrays["/rollouts/qpos_coordinate"]),
        qvel_names=_strings(arrays["/rollouts/qvel_coordinate"]), metric_names=names,
        key=rows_["key"], status=rows_["status"], message=rows_["message"],
        events=rows_["events"], constrained_events=rows_["constrained_events"],
        lcp_solves=rows_["lcp_solves"], time=rows_["time"],
        fastest_approach=rows_["fastest_approach"], qpos=rows_["qpos"], qvel=rows_["qvel"],
        metrics=rows_["metrics"], summaries=_summaries(arrays),
        baseline=_rows(arrays, "/baseline", names) if "/baseline/rollout" in arrays else None,
        counts={k: int(root[k]) for k in ("ok", "diverged", "impact_failed", "events")},
        seconds=result["seconds"], options=result["options"], warnings=result["warnings"],
        trajectory=trajectory)


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
    values, mujoco, options = _bind(_FALSIFY_SIGNATURE, args, kwargs)
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
