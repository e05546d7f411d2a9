"""Batches of impact states from Python: the command line's `impactset batch` (the same states,
seeds and arrays, bit for bit), its results as labelled arrays, and the split of one batch over
processes (BatchJob.run_states on workers, BatchJob.assemble on the client). With rollouts=, a
batch of rollouts: each state of a MuJoCo model is the start of that many rollouts."""
import inspect
import os
import shutil
import tempfile
import typing
import warnings

import numpy as np

from . import _impactset
from ._options import option_help, option_parameters
from ._rollout import _TYPES as _ROLLOUT_TYPES

_Path = typing.Union[str, "os.PathLike[str]"]
_Progress = typing.Optional[typing.Callable[[int, int], None]]
_Range = typing.Union[typing.Tuple[float, float], typing.Tuple[float, float, int]]

# The source and design keywords (the command line's --system ... --state-table): name, type,
# default, help. The run options come from the option table.
_SOURCE = [
    ("system", typing.Optional[str], None,
     "a parametrised built-in system or a shipped MuJoCo scene (impactset.systems())"),
    ("params", typing.Optional[typing.Dict[str, typing.Any]], None,
     "system parameters held fixed, as Problem.from_system's keywords"),
    ("scene", typing.Optional[typing.Union[_Path, typing.Dict[str, typing.Any]]], None,
     "a scene (a dict or a JSON file); its parameters are JSON pointers such as '/q/2'"),
    ("problems", typing.Optional[_Path], None,
     "an HDF5 stack of matrix problems; the parameter 'problem' is the index "
     "(without vary or table: every problem)"),
    ("mujoco", typing.Optional[_Path], None,
     "a MuJoCo model (MJCF or URDF file, or a shipped scene's name) at a base state; "
     "its parameters are 'qpos:I' and 'qvel:I' (0-based entries replacing the base state's)"),
    ("keyframe", typing.Optional[str], None, "MuJoCo: the base state's keyframe"),
    ("qpos", typing.Optional[typing.Any], None, "MuJoCo: the base state's qpos (nq,)"),
    ("qvel", typing.Optional[typing.Any], None, "MuJoCo: the base state's qvel (nv,)"),
    ("contact_margin", typing.Optional[float], None,
     "MuJoCo: contacts are geom pairs closer than this (m; default Problem.from_mujoco's)"),
    ("friction_directions", typing.Optional[int], None, "MuJoCo: k = 4, 8 or 16 (default 4)"),
    ("ignore_constraints", typing.Optional[bool], None,
     "MuJoCo: accept active equality constraints and limits (default False)"),
    ("vary", typing.Optional[typing.Dict[str, _Range]], None,
     "the varied parameters: {name: (low, high, points)} for the grid, "
     "{name: (low, high)} for iid and sobol"),
    ("state_design", typing.Literal["grid", "iid", "sobol"], "grid",
     "how the states cover the vary ranges"),
    ("states", typing.Optional[int], None, "the number of states (iid, sobol)"),
    ("state_seed", int, 1, "the seed of the iid or sobol state design"),
    ("table", typing.Optional[typing.Any], None,
     "the states as a table instead of vary: a pandas DataFrame or a dict of columns named by "
     "parameter, or a CSV or HDF5 file"),
    ("outputs", typing.Sequence[str], (),
     "coordinates of the features and sets: contact, generalized, com, base, joints:A,B, "
     "matrix:C.csv or NAME=SPEC (default: contact and generalized)"),
]
_SOURCE_NAMES = [s[0] for s in _SOURCE]
_OPTION_ROWS, _OPTION_PARAMETERS = option_parameters("batch")
_OPTION_NAMES = [f["name"] for f in _OPTION_ROWS]
# The rollout options a batch takes (the rollout option table's in_batch rows); None: not given.
# rollouts= makes the batch one of rollouts.
_ROLLOUT_ROWS = [r for r in _impactset._rollout_option_fields() if r["in_batch"]]
_ROLLOUT_NAMES = [r["name"] for r in _ROLLOUT_ROWS]
_ROLLOUT_HELP = "\n".join(
    ["", "Rollout options (with rollouts=N: a batch of rollouts of a MuJoCo model, "
     "docs/rollouts.md; each state's seed is its run seed, threads and delta the batch's):"]
    + [f"  {r['name']}: {r['doc']} (default: {r['default'] or 'none'})" for r in _ROLLOUT_ROWS])


def _keyword(name, annotation, default):
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                             annotation=annotation)


_JOB_PARAMETERS = ([_keyword(n, a, d) for n, a, d, _ in _SOURCE] + _OPTION_PARAMETERS
                   + [_keyword(r["name"], typing.Optional[_ROLLOUT_TYPES[r["type"]]], None)
                      for r in _ROLLOUT_ROWS])
_JOB_SIGNATURE = inspect.Signature(_JOB_PARAMETERS)
_KEYWORD_HELP = "\n".join(f"  {n}: {h}" for n, _, _, h in _SOURCE)


def _signature_text(signature):
    return str(signature).replace("typing.", "").replace("impactset._batch.", "")


class BatchJob:
    """A validated batch of impact states: where they come from (one of system=, scene=,
    problems=, mujoco=), which states (vary= and state_design=, or table=) and what each state
    runs (the option table's keywords, the command line's flags). Bad input raises ValueError or
    TypeError naming the keyword, before any work.

    run() computes every state in this process (as `impactset batch`, resumable with out=);
    run_states(indices) computes some of them and returns their records (bytes, picklable), and
    assemble(records) makes the batch from records computed anywhere: the same arrays as run().
    A BatchJob pickles (its keywords), so it can be shipped to joblib, multiprocessing or Dask
    workers; a file it names must be readable there too.
    """

    def __init__(self, **keywords):
        bound = _JOB_SIGNATURE.bind(**keywords)
        bound.apply_defaults()
        given = bound.arguments
        self._arguments = {k: given[k] for k in _SOURCE_NAMES}
        self._options = {k: v for k, v in keywords.items() if k in _OPTION_NAMES}
        self._rollout = {k: v for k, v in keywords.items()
                         if k in _ROLLOUT_NAMES and v is not None}
        self._job = _impactset._batch_job(dict(self._arguments, outputs=list(given["outputs"])),
                                          self._options, self._rollout)

    def __getstate__(self):
        return {"arguments": self._arguments, "options": self._options,
                "rollout": self._rollout}

    def __setstate__(self, state):
        self.__init__(**state["arguments"], **state["options"], **state.get("rollout", {}))

    @property
    def count(self) -> int:
        """The number of states S."""
        return self._job.count

    def __len__(self):
        return self._job.count

    @property
    def parameter_names(self) -> typing.List[str]:
        """The varied parameters' names (the columns of parameters)."""
        return self._job.parameter_names

    @property
    def parameters(self) -> np.ndarray:
        """(S, P): state i's parameter values in row i."""
        return self._job.parameters

    @property
    def velocity_names(self) -> typing.List[str]:
        """The generalized velocities' names (a MuJoCo model's, else v0, v1, ...)."""
        return self._job.velocity_names

    @property
    def outputs(self) -> typing.List[str]:
        """The names of the outputs whose features and sets each state computes."""
        return self._job.outputs

    @property
    def options(self) -> typing.Dict[str, typing.Any]:
        """The option keywords given (the others are the batch defaults), the rollout options
        among them."""
        return dict(self._options, **self._rollout)

    def __repr__(self):
        return (f"<impactset.BatchJob '{self._job.label}': {self.count} states over "
                f"{', '.join(self.parameter_names)}>")

    def run(self, out: typing.Optional[_Path] = None, *, resume: bool = False,
            progress: _Progress = None) -> "BatchResult":
        """Every state in this process, on up to `threads` threads; returns the BatchResult.

        out: also write the batch file there (parts go to OUT.parts until it is complete; with
        resume=True an interrupted batch of the same job continues from them). progress: called
        as progress(done, total) after every state; an exception from it, or Ctrl-C, stops the
        batch (parts written so far stay for resume) and is raised."""
        if out is None and resume:
            raise ValueError("resume = True: needs out= (the file whose parts to resume)")
        return _through_file(out, lambda path: self._job.run(path, resume, progress))

    def run_states(self, indices: typing.Iterable[int]) -> typing.List[bytes]:
        """Computes these states (each on up to `threads` threads) and returns one record per
        index, in the order given: picklable bytes for assemble(). A state's record depends only
        on the job and its index, never on the process that computed it."""
        return self._job.run_states([int(i) for i in indices])

    def assemble(self, records: typing.Iterable[bytes],
                 out: typing.Optional[_Path] = None) -> "BatchResult":
        """The batch from every state's record (from run_states, in any order and grouping):
        the arrays run() gives. ValueError names a state missing, given twice or of another
        batch. out: also write the batch file there."""
        records = list(records)
        return _through_file(out, lambda path: self._job.assemble(records, path))


def _through_file(out, write):
    """write(path) a batch file at out (or in a scratch directory when out is None) and read it
    back: a result is always what its file holds. A batch where no state is ok says so (a
    RuntimeWarning with the first state's reason)."""
    if out is not None:
        write(out)
        result = read_batch(out)
    else:
        with tempfile.TemporaryDirectory(prefix="impactset-batch-") as scratch:
            path = os.path.join(scratch, "batch.h5")
            write(path)
            result = read_batch(path)
    status = result.status
    if len(status) and not (status == 0).any():
        first = int(np.argmin(result.index))
        warnings.warn(f"no state ran ({len(status)} of {len(status)} not ok); state "
                      f"{result.index[first]}: {result.status_names[status[first]]}: "
                      f"{result.messages[first]}", RuntimeWarning, stacklevel=3)
    return result


BatchJob.__init__.__signature__ = inspect.Signature(
    [inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)] + _JOB_PARAMETERS)
BatchJob.__doc__ += ("\nKeywords:\n" + _KEYWORD_HELP + "\n"
                     + option_help(_OPTION_ROWS, "batch") + "\n" + _ROLLOUT_HELP)


def batch(**keywords) -> "BatchResult":
    out = keywords.pop("out", None)
    resume = keywords.pop("resume", False)
    progress = keywords.pop("progress", None)
    return BatchJob(**keywords).run(out, resume=resume, progress=progress)


batch.__signature__ = inspect.Signature(
    _JOB_PARAMETERS + [_keyword("out", typing.Optional[_Path], None),
                       _keyword("resume", bool, False), _keyword("progress", _Progress, None)],
    return_annotation="BatchResult")
batch.__doc__ = (f"batch{_signature_text(batch.__signature__)}\n\n"
                 "Algorithm 2 over a design of impact states, as `impactset batch`: "
                 "BatchJob(**keywords).run(out, resume=, progress=). Returns a BatchResult; "
                 "out= also writes the batch file (resumable with resume=True).\n\nKeywords:\n"
                 + _KEYWORD_HELP + "\n" + option_help(_OPTION_ROWS, "batch") + "\n"
                 + _ROLLOUT_HELP)
batch.__module__ = "impactset"
BatchJob.__module__ = "impactset"


def read_batch(path: _Path) -> "BatchResult":
    """A batch file (`impactset batch`, BatchJob.run, BatchResult.write) as a BatchResult.
    FileNotFoundError for a missing file; ValueError for a file of a newer layout."""
    return BatchResult(_impactset._read_batch(path))


class BatchResult:
    """A batch's states and results, laid out as its file (docs/dataset-format.md "Batch
    files"): one row per state in every per-state array, columns named by the file's labels.

    Per state: index, parameters (S, P), status (0 ok; status_names), messages, seeds, step,
    max_steps, v_minus (S, n), summary (each run statistic, (S,)), and per output the features
    (box_min, box_max, mean (S, d); support (S, D) in the directions (D, d); count (S,);
    subsample (S, keep d)) and the sets (net points, hull, coverage per state). to_dataframe()
    and to_xarray() label them; to_dict() is the file's layout (write_dataset takes it). A
    BatchResult pickles.
    """

    def __init__(self, tree):
        if tree.get("file_kind") != "batch":
            raise ValueError("BatchResult: expected a batch file's layout (file_kind 'batch')")
        self._tree = tree

    def _array(self, path):
        return self._tree["arrays"][path]

    def _names(self, path):
        return [str(s) for s in self._array(path)]

    def _group(self, prefix, leave_out=()):
        """The arrays under prefix, by their names relative to it."""
        return {p[len(prefix):]: a for p, a in self._tree["arrays"].items()
                if p.startswith(prefix) and p[len(prefix):] not in leave_out}

    @property
    def count(self) -> int:
        """The number of states S."""
        return len(self._array("/states/index"))

    def __len__(self):
        return self.count

    @property
    def attributes(self) -> typing.Dict[str, typing.Any]:
        """The file's root attributes (source, system, schema_version, created, ...)."""
        return dict(self._tree["attributes"].get("/", {}))

    @property
    def options(self) -> typing.Dict[str, typing.Any]:
        """Every option of the batch by name (the file's /options)."""
        return dict(self._tree["attributes"].get("/options", {}))

    @property
    def index(self) -> np.ndarray:
        """(S,) each row's state index in the design."""
        return self._array("/states/index")

    @property
    def parameter_names(self) -> typing.List[str]:
        """The varied parameters' names: the columns of parameters."""
        return self._names("/states/parameter")

    @property
    def parameters(self) -> np.ndarray:
        """(S, P) each state's parameter values."""
        return self._array("/states/parameters")

    @property
    def status(self) -> np.ndarray:
        """(S,) int64: 0 ok, else status_names[status] (lcp_failures, invalid_problem, ...)."""
        return self._array("/states/status")

    @property
    def status_names(self) -> typing.List[str]:
        """The names of the status codes, by code."""
        return self._names("/states/status_names")

    @property
    def messages(self) -> typing.List[str]:
        """Per state: why it is not ok (empty when it is)."""
        return self._names("/states/message")

    @property
    def seeds(self) -> np.ndarray:
        """(S,) uint64 each state's run seed (a function of the batch seed and its index)."""
        return self._array("/states/seed")

    @property
    def per_state(self) -> str:
        """What each state ran: "impact" (Algorithm 2 at its impact) or "rollouts" (a batch of
        rollouts from it)."""
        return str(self.attributes.get("per_state", "impact"))

    def _impact_array(self, path):
        if self.per_state != "impact":
            raise ValueError(f"{path}: a batch of rollouts has none (its states ran rollouts: "
                             "see metrics, rollout_metrics, qpos and qvel)")
        return self._array(path)

    def _rollout_array(self, path):
        if self.per_state != "rollouts":
            raise ValueError(f"{path}: only a batch of rollouts has it (rollouts=N)")
        return self._array(path)

    @property
    def step(self) -> np.ndarray:
        """(S,) the step h each state ran with."""
        return self._impact_array("/states/step")

    @property
    def max_steps(self) -> np.ndarray:
        """(S,) the step cap N each state ran with."""
        return self._impact_array("/states/max_steps")

    @property
    def velocity_names(self) -> typing.List[str]:
        """The generalized velocities' names: the columns of v_minus (a batch of rollouts: of
        qvel)."""
        if self.per_state == "rollouts":
            return self._names("/states/qvel_coordinate")
        return self._names("/states/velocity")

    @property
    def v_minus(self) -> np.ndarray:
        """(S, n) each state's pre-impact velocity."""
        return self._impact_array("/states/v_minus")

    @property
    def summary(self) -> typing.Dict[str, np.ndarray]:
        """Each state's statistics, name -> (S,): a run's (terminated, step_capped,
        lcp_failures, ...) or, in a batch of rollouts, its rollouts' (ok, diverged,
        impact_failed, events, constrained_events, lcp_solves)."""
        return self._group("/states/summary/")

    # A batch of rollouts (per_state "rollouts"): docs/dataset-format.md "Batches of rollouts".
    @property
    def qpos_names(self) -> typing.List[str]:
        """A batch of rollouts: the model's qpos names (the columns of qpos)."""
        return [str(x) for x in self._rollout_array("/states/qpos_coordinate")]

    @property
    def qpos(self) -> np.ndarray:
        """A batch of rollouts: (S, nq) each state's start qpos."""
        return self._rollout_array("/states/qpos")

    @property
    def qvel(self) -> np.ndarray:
        """A batch of rollouts: (S, nv) each state's start qvel."""
        return self._rollout_array("/states/qvel")

    @property
    def metric_names(self) -> typing.List[str]:
        """A batch of rollouts: the metrics' names, in the order given."""
        self._rollout_array("/states/qpos")
        return [str(x) for x in self._tree["arrays"].get("/rollouts/metric_names", [])]

    @property
    def metrics(self) -> typing.Dict[str, typing.Dict[str, typing.Any]]:
        """A batch of rollouts: per metric its expression, is_event and per state (S,) counted,
        true_count, lower and upper (events: one-sided Clopper-Pearson bounds at 1 - delta),
        min, mean, max (NaN when no rollout is ok), argmin and argmax (rollout indices, -1:
        none), baseline (MuJoCo's own impacts)."""
        out = {}
        for name in self.metric_names:
            entry = dict(self._tree["attributes"][f"/metrics/{name}"])
            entry["is_event"] = bool(entry["is_event"])
            entry.update(self._group(f"/metrics/{name}/"))
            out[name] = entry
        return out

    @property
    def rollout_metrics(self) -> typing.Dict[str, np.ndarray]:
        """A batch of rollouts: per metric (S, R) its value in every rollout of every state (NaN
        where a rollout stopped early; an event's 1 or 0)."""
        self._rollout_array("/states/qpos")
        return self._group("/rollouts/metrics/")

    @property
    def rollout_status(self) -> np.ndarray:
        """A batch of rollouts: (S, R) int64 each rollout's status code (rollout_status_names)."""
        return self._rollout_array("/rollouts/status")

    @property
    def rollout_status_names(self) -> typing.List[str]:
        """A batch of rollouts: the names of the rollout status codes (ok, diverged,
        impact_failed)."""
        return [str(x) for x in self._rollout_array("/rollouts/status_names")]

    @property
    def rollout_events(self) -> np.ndarray:
        """A batch of rollouts: (S, R) impact events in each rollout."""
        return self._rollout_array("/rollouts/events")

    @property
    def outputs(self) -> typing.List[str]:
        """The outputs' names (features and sets are stored per output)."""
        return sorted({p.split("/")[2] for p in self._tree["arrays"]
                       if p.startswith("/features/")},
                      key=lambda name: self._tree["groups"].index("/features/" + name))

    def coordinate_names(self, output: str) -> typing.List[str]:
        """The names of an output's coordinates: the columns of its features."""
        return self._names(f"/features/{output}/coordinate")

    @property
    def features(self) -> typing.Dict[str, typing.Dict[str, np.ndarray]]:
        """{output: {box_min, box_max, mean, count, support, directions, subsample}}: arrays
        with one row per state (directions (D, d): the support's directions)."""
        scales = ("coordinate", "direction", "subsample_entry")
        return {name: self._group(f"/features/{name}/", scales) for name in self.outputs}

    def sets(self, output: str, set: str = "post_impact") -> typing.Dict[str, typing.Any]:
        """One output's sets, per state: scalars as (S,) arrays (epsilon, hull_volume, ...) and
        point lists (net_points, hull_vertices, hull_facet_normals, hull_facet_bounds) as lists
        of S arrays."""
        arrays = self._group(f"/sets/{set}/{output}/")
        if not arrays:
            raise KeyError(f"{set}/{output}: not in this batch (sets off, or another output)")
        out = {}
        for name, a in arrays.items():
            if name.endswith("_offsets"):
                continue
            offsets = arrays.get(name + "_offsets")
            out[name] = a if offsets is None else [a[offsets[i]:offsets[i + 1]]
                                                   for i in range(len(offsets) - 1)]
        return out

    def to_dict(self) -> typing.Dict[str, typing.Any]:
        """The file's layout (read_dataset's dict of a batch file; write_dataset writes it)."""
        return self._tree

    def write(self, path: _Path) -> None:
        """Writes the batch file (atomically)."""
        _impactset.write_dataset(path, self._tree)

    def to_dataframe(self):
        """A pandas DataFrame, one row per state (indexed by state): the parameters, status
        (as its name), message, seed, step, max_steps and the summary statistics; a batch of
        rollouts has, instead of step and max_steps, its rollouts' counts and each metric's
        summary as columns "NAME:FIELD" (fell:upper, lowest:min, ...)."""
        import pandas as pd
        columns = {name: self.parameters[:, j] for j, name in enumerate(self.parameter_names)}
        names = self.status_names
        columns["status"] = pd.Categorical([names[s] for s in self.status], categories=names)
        columns["message"] = self.messages
        columns["seed"] = self.seeds
        if self.per_state == "impact":
            columns["step"] = self.step
            columns["max_steps"] = self.max_steps
        columns.update(self.summary)
        if self.per_state == "rollouts":
            for metric, entry in self.metrics.items():
                columns.update({f"{metric}:{k}": v for k, v in entry.items()
                                if isinstance(v, np.ndarray)})
        return pd.DataFrame(columns, index=pd.Index(self.index, name="state"))

    def to_xarray(self):
        """An xarray Dataset of every per-state and constant array, named by its path in the
        file without the leading '/' ("features/contact/support"), with the file's dimensions
        ("state", "features/contact/direction", ...) and labels as coordinates. The ragged set
        arrays (net points, hull vertices and facets) are left out: sets() has them per state."""
        import xarray as xr
        arrays, dims = self._tree["arrays"], self._tree["dimensions"]
        scales = self._tree["scales"]
        coords = {p.lstrip("/"): a for p, a in arrays.items() if p in scales}
        variables = {}
        for path, a in arrays.items():
            if path in scales or path.endswith("_offsets") or path + "_offsets" in arrays:
                continue
            name = path.lstrip("/")
            if path in dims:
                names = [d.lstrip("/") for d in dims[path]]
            elif a.ndim == 1 and len(a) == self.count and path.startswith("/sets/"):
                names = ["state"]
            elif path.startswith("/design/") and a.ndim == 1:
                names = ["states/parameter"]
            else:
                names = [f"{name}_dim{i}" for i in range(a.ndim)]
            variables[name] = (names, a)
        ds = xr.Dataset(variables, coords=coords)
        ds.attrs.update({k: v for k, v in self.attributes.items() if k != "job"})
        ds.attrs.update({f"option_{k}": v for k, v in self.options.items()})
        return ds

    def __repr__(self):
        ok = int(np.count_nonzero(self.status == 0))
        kind = " of rollouts" if self.per_state == "rollouts" else ""
        return (f"<impactset.BatchResult{kind}: {self.count} states ({ok} ok) over "
                f"{', '.join(self.parameter_names)}>")


BatchResult.__module__ = "impactset"
