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
    run,
    sample,
    sequential,
    sets,
    systems,
    write_dataset,
)


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
