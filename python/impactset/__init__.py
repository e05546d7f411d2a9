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
import typing

import numpy as np

from ._impactset import (
    AghiliResult,
    AnitescuPotraOutcome,
    AnitescuPotraSet,
    Comparison,
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
    compare,
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
from ._options import with_options as _with_options
from ._batch import BatchJob, BatchResult, batch, read_batch
from ._rollout import Rollouts, falsify, rollout


_Progress = typing.Optional[typing.Callable[[int, int], None]]
sample = _with_options("sample", _impactset._sample, ("problem", Problem), "sample",
                       [("outputs", typing.Sequence[str], ()), ("progress", _Progress, None)],
                       Samples)
run = _with_options("run", _impactset._run, ("problem", Problem), "run",
                    [("outputs", typing.Sequence[str], ()), ("out", typing.Optional[str], None),
                     ("progress", _Progress, None)], Run)
sets = _with_options("sets", _impactset._sets, ("source", typing.Union[Samples, Run]), "sets", [],
                     typing.List[PointSet])


def _samples_to_dataframe(self):
    """A pandas DataFrame, one row per sample (indexed by the global sample index): the columns
    of v_plus and contact_velocity named "v_plus[NAME]" and "contact_velocity[NAME]" by
    velocity_names and contact_names, then status (SampleStatus names), lcp_solves,
    energy_ratio and non_unique."""
    import pandas as pd
    columns = {f"v_plus[{n}]": self.v_plus[:, j] for j, n in enumerate(self.velocity_names)}
    columns.update({f"contact_velocity[{n}]": self.contact_velocity[:, j]
                    for j, n in enumerate(self.contact_names)})
    names = [s.name.lower() for s in SampleStatus]
    columns["status"] = pd.Categorical.from_codes(self.status, categories=names)
    columns["lcp_solves"] = self.lcp_solves
    columns["energy_ratio"] = self.energy_ratio
    columns["non_unique"] = self.non_unique
    index = pd.RangeIndex(self.first_sample, self.first_sample + self.count, name="sample")
    return pd.DataFrame(columns, index=index)


def _samples_to_xarray(self):
    """An xarray Dataset: v_plus (sample, velocity), contact_velocity (sample, contact), status,
    lcp_solves, energy_ratio and non_unique (sample), labelled by the global sample index and
    the columns' names; the run's options as attributes."""
    import xarray as xr
    sample = np.arange(self.first_sample, self.first_sample + self.count)
    ds = xr.Dataset(
        {"v_plus": (("sample", "velocity"), self.v_plus),
         "contact_velocity": (("sample", "contact"), self.contact_velocity),
         "status": ("sample", self.status), "lcp_solves": ("sample", self.lcp_solves),
         "energy_ratio": ("sample", self.energy_ratio), "non_unique": ("sample", self.non_unique)},
        coords={"sample": sample, "velocity": self.velocity_names, "contact": self.contact_names})
    ds["status"].attrs["flag_values"] = [int(s) for s in SampleStatus]
    ds["status"].attrs["flag_meanings"] = " ".join(s.name.lower() for s in SampleStatus)
    ds.attrs.update({k: v for k, v in self.options.items() if v is not None})
    return ds


Samples.to_dataframe = _samples_to_dataframe
Samples.to_xarray = _samples_to_xarray


class SampleStatus(enum.IntEnum):
    """The codes of Samples.status (and of a dataset's /samples/status)."""

    TERMINATED = 0  #: no contact still colliding: the row is in the post-impact set
    STEP_CAP = 1  #: max_steps solves and still colliding
    LCP_FAILURE = 2  #: a step LCP had no accepted solution
    NON_PHYSICAL = 3  #: stopped colliding, but energy gained or impulse outside the cone


class CompareLaw(enum.IntEnum):
    """The laws compare() runs, in the order it runs and reports them; compare() takes these or
    their names in lower case ("aghili")."""

    ANITESCU_POTRA = 0  #: every distinct Anitescu-Potra LCP solution
    SEQUENTIAL = 1  #: single-contact impacts in every cyclic ordering
    COMPLIANT = 2  #: Kelvin-Voigt contacts integrated through the impact
    AGHILI = 3  #: Aghili's frictionless projection law
    SEGHETE_MURPHEY = 4  #: Seghete & Murphey's propagative law
    JIA_MASON_ERDMANN = 5  #: the Jia-Mason-Erdmann multiple-impact model
    ROUTH = 6  #: the Routh set, sampled


__all__ = [
    "AghiliResult",
    "AnitescuPotraOutcome",
    "AnitescuPotraSet",
    "BatchJob",
    "BatchResult",
    "CompareLaw",
    "Comparison",
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
    "Rollouts",
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
    "batch",
    "compare",
    "distance",
    "falsify",
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
    "read_batch",
    "read_dataset",
    "read_run",
    "rollout",
    "run",
    "sample",
    "sequential",
    "sets",
    "systems",
    "write_dataset",
]
