# Type stubs of the impactset package (the extension impactset._impactset re-exported).
# tests/test_stubs.py checks that every public name and every parameter appears here.
import enum
import os
from typing import Any, Callable, Iterable, Literal, Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

__version__: str

_Path = Union[str, os.PathLike[str]]
_Floats = NDArray[np.float64]
_SetName = Literal["post_impact", "reachable"]
_Coords = str  # an output's name: "contact", "generalized", or one of outputs=[...]
_Design = Literal["mixed", "iid", "sobol", "sobol-plain", "directed"]
_Selection = Literal["random", "first"]
_Lcp = Literal["chain", "native", "siconos"]
_Progress = Optional[Callable[[int, int], None]]

class SampleStatus(enum.IntEnum):
    TERMINATED = 0
    STEP_CAP = 1
    LCP_FAILURE = 2
    NON_PHYSICAL = 3

class Problem:
    def __init__(
        self,
        M: ArrayLike,
        Jn: ArrayLike,
        mu: ArrayLike,
        v_minus: ArrayLike,
        *,
        D: Optional[ArrayLike] = None,
        Jf: Optional[ArrayLike] = None,
        k: Optional[int] = None,
        name: str = "problem",
        step: Optional[float] = None,
        max_steps: Optional[int] = None,
        samples: Optional[int] = None,
    ) -> None: ...
    @staticmethod
    def from_system(name: str, **kwargs: Union[float, str, Sequence[float]]) -> Problem: ...
    @staticmethod
    def from_scene(scene: Union[_Path, dict[str, Any]], name: Optional[str] = None) -> Problem: ...
    @staticmethod
    def from_file(path: _Path, name: Optional[str] = None) -> Problem: ...
    @staticmethod
    def from_mujoco(
        path: _Path,
        *,
        keyframe: Optional[str] = None,
        qpos: Optional[ArrayLike] = None,
        qvel: Optional[ArrayLike] = None,
        contact_margin: float = 0.0001,
        friction_directions: int = 4,
        ignore_constraints: bool = False,
        touchdown: int = 0,
        add_floor: bool = False,
        floating_base: bool = False,
        name: Optional[str] = None,
    ) -> Problem: ...
    def with_velocity(self, v_minus: ArrayLike) -> Problem: ...
    @property
    def name(self) -> str: ...
    @property
    def provenance(self) -> str: ...
    @property
    def n(self) -> int: ...
    @property
    def m(self) -> int: ...
    @property
    def k(self) -> int: ...
    @property
    def M(self) -> _Floats: ...
    @property
    def Jn(self) -> _Floats: ...
    @property
    def D(self) -> _Floats: ...
    @property
    def mu(self) -> _Floats: ...
    @property
    def v_minus(self) -> _Floats: ...
    @property
    def contact_jacobian(self) -> _Floats: ...
    @property
    def delassus(self) -> _Floats: ...
    @property
    def step(self) -> Optional[float]: ...
    @property
    def max_steps(self) -> Optional[int]: ...
    @property
    def samples(self) -> Optional[int]: ...

def systems() -> dict[str, str]: ...

class Summary:
    @property
    def samples(self) -> int: ...
    @property
    def terminated(self) -> int: ...
    @property
    def step_capped(self) -> int: ...
    @property
    def lcp_failures(self) -> int: ...
    @property
    def non_physical(self) -> int: ...
    @property
    def lcp_solves(self) -> int: ...
    @property
    def lcp_fallbacks(self) -> int: ...
    @property
    def non_unique(self) -> int: ...
    @property
    def worst_residual(self) -> float: ...
    @property
    def energy_ratio_max(self) -> float: ...
    @property
    def contact_velocity_min(self) -> _Floats: ...
    @property
    def contact_velocity_max(self) -> _Floats: ...
    @property
    def solves_histogram(self) -> list[int]: ...
    @property
    def mean_solves(self) -> float: ...
    def to_dict(self) -> dict[str, Any]: ...

class Samples:
    @property
    def v_plus(self) -> _Floats: ...
    @property
    def contact_velocity(self) -> _Floats: ...
    @property
    def status(self) -> NDArray[np.int32]: ...
    @property
    def lcp_solves(self) -> NDArray[np.int32]: ...
    @property
    def energy_ratio(self) -> _Floats: ...
    @property
    def non_unique(self) -> NDArray[np.bool_]: ...
    @property
    def trajectories(self) -> Optional[_Floats]: ...
    @property
    def trajectory_offsets(self) -> Optional[NDArray[np.int64]]: ...
    @property
    def summary(self) -> Summary: ...
    @property
    def count(self) -> int: ...
    @property
    def first_sample(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def threads_used(self) -> int: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def run(self) -> Run: ...
    @property
    def velocity_names(self) -> list[str]: ...
    @property
    def contact_names(self) -> list[str]: ...
    def post_impact(self, coords: _Coords = "contact") -> _Floats: ...
    def write(self, path: _Path) -> None: ...
    def to_dataframe(self) -> Any: ...  # pandas.DataFrame
    def to_xarray(self) -> Any: ...  # xarray.Dataset
    def __len__(self) -> int: ...

class Net:
    @property
    def points(self) -> _Floats: ...
    @property
    def epsilon(self) -> float: ...
    @property
    def separation(self) -> float: ...
    @property
    def coarsenings(self) -> int: ...
    @property
    def offered(self) -> int: ...
    @property
    def construction(self) -> str: ...
    def distances(self, points: ArrayLike) -> _Floats: ...
    def __len__(self) -> int: ...

class Hull:
    @property
    def status(self) -> Literal["computed", "empty_net", "dimension_too_high", "failed"]: ...
    @property
    def detail(self) -> str: ...
    @property
    def dimension(self) -> int: ...
    @property
    def center(self) -> _Floats: ...
    @property
    def basis(self) -> _Floats: ...
    @property
    def vertices(self) -> _Floats: ...
    @property
    def facet_normals(self) -> _Floats: ...
    @property
    def facet_offsets(self) -> _Floats: ...
    @property
    def volume(self) -> float: ...
    @property
    def flatness(self) -> float: ...
    @property
    def distance_roundoff(self) -> float: ...
    @property
    def margin(self) -> float: ...
    def distances(self, points: ArrayLike) -> _Floats: ...
    def contains(self, points: ArrayLike, tolerance: float = 1e-9) -> NDArray[np.bool_]: ...

class Coverage:
    @property
    def extent(self) -> bool: ...
    @property
    def extent_width(self) -> float: ...
    @property
    def extent_moved(self) -> float: ...
    @property
    def extent_converged(self) -> bool: ...
    @property
    def extent_statement(self) -> str: ...
    @property
    def holdout(self) -> int: ...
    @property
    def holdout_not_terminated(self) -> int: ...
    @property
    def missed(self) -> int: ...
    @property
    def delta(self) -> float: ...
    @property
    def missed_mass_upper(self) -> float: ...
    @property
    def holdout_assumptions(self) -> str: ...
    @property
    def lemma1(self) -> bool: ...
    @property
    def lipschitz(self) -> float: ...
    @property
    def cube_dimension(self) -> int: ...
    @property
    def log_cells(self) -> float: ...
    @property
    def failure_bound(self) -> float: ...
    @property
    def samples_needed(self) -> float: ...
    @property
    def lemma1_assumptions(self) -> str: ...

class PointSet:
    @property
    def set(self) -> _SetName: ...
    @property
    def output(self) -> str: ...
    @property
    def coords(self) -> _Coords: ...
    @property
    def net(self) -> Net: ...
    @property
    def hull(self) -> Hull: ...
    @property
    def coverage(self) -> Optional[Coverage]: ...
    @property
    def ranges(self) -> _Floats: ...

class Run:
    @property
    def system(self) -> str: ...
    @property
    def problem(self) -> Problem: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def first_sample(self) -> int: ...
    @property
    def count(self) -> int: ...
    @property
    def threads_used(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def sets_seconds(self) -> float: ...
    @property
    def summary(self) -> Summary: ...
    @property
    def samples(self) -> Optional[Samples]: ...
    @property
    def sets(self) -> list[PointSet]: ...
    def set(
        self, set: _SetName = "post_impact", coords: _Coords = "contact"
    ) -> Optional[PointSet]: ...
    @property
    def version(self) -> str: ...
    @property
    def git_revision(self) -> str: ...
    @property
    def created(self) -> str: ...
    @property
    def has_lcp_failures(self) -> bool: ...
    def write(self, path: _Path) -> None: ...

def sample(
    problem: Problem,
    *,
    samples: Optional[int] = None,
    seed: int = 1,
    threads: int = 0,
    design: _Design = "mixed",
    step: Optional[float] = None,
    max_steps: Optional[int] = None,
    selection: _Selection = "random",
    lcp: _Lcp = "chain",
    detect_non_unique: bool = False,
    warm_start: bool = True,
    lemke_restore_above: float = 1e-12,
    keep_trajectories: bool = False,
    shard: Optional[tuple[int, int]] = (0, 1),
    outputs: Sequence[str] = (),
    progress: _Progress = None,
) -> Samples: ...
def run(
    problem: Problem,
    *,
    samples: Optional[int] = None,
    seed: int = 1,
    threads: int = 0,
    design: _Design = "mixed",
    step: Optional[float] = None,
    max_steps: Optional[int] = None,
    selection: _Selection = "random",
    lcp: _Lcp = "chain",
    detect_non_unique: bool = False,
    warm_start: bool = True,
    lemke_restore_above: float = 1e-12,
    keep_samples: bool = False,
    keep_trajectories: bool = False,
    shard: Optional[tuple[int, int]] = (0, 1),
    sets: bool = True,
    epsilon: Optional[float] = None,
    delta: float = 0.05,
    lipschitz: Optional[float] = None,
    holdout: int = 4096,
    polish: int = 4096,
    hull_max_dimension: int = 6,
    hull_max_points: int = 20000,
    flatness_tolerance: float = 1e-06,
    reachable: bool = False,
    max_net_points: int = 50000,
    outputs: Sequence[str] = (),
    out: Optional[_Path] = None,
    progress: _Progress = None,
) -> Run: ...
def read_run(path: _Path) -> Run: ...
def merge(shards: Sequence[Run]) -> Run: ...

# Sets, distances, the planner.
def net(points: ArrayLike, epsilon: float, max_points: int = 50000) -> Net: ...
def hull(points: ArrayLike, flatness_tolerance: float = 1e-6, max_dimension: int = 6) -> Hull: ...
def sets(
    source: Union[Samples, Run],
    *,
    epsilon: Optional[float] = None,
    delta: float = 0.05,
    lipschitz: Optional[float] = None,
    holdout: int = 4096,
    polish: int = 4096,
    hull_max_dimension: int = 6,
    hull_max_points: int = 20000,
    flatness_tolerance: float = 1e-06,
    reachable: bool = False,
    max_net_points: int = 50000,
) -> list[PointSet]: ...

class DirectedDistance:
    @property
    def distance(self) -> float: ...
    @property
    def from_index(self) -> int: ...
    @property
    def to_index(self) -> int: ...

class Hausdorff:
    @property
    def distance(self) -> float: ...
    @property
    def a_to_b(self) -> DirectedDistance: ...
    @property
    def b_to_a(self) -> DirectedDistance: ...
    def __float__(self) -> float: ...

def hausdorff(a: ArrayLike, b: ArrayLike) -> Hausdorff: ...
def nearest_distances(queries: ArrayLike, points: ArrayLike) -> _Floats: ...

class HullDistance:
    @property
    def computed(self) -> bool: ...
    @property
    def status(self) -> str: ...
    @property
    def max(self) -> float: ...
    @property
    def outside(self) -> int: ...

class SetDistance:
    @property
    def hausdorff(self) -> float: ...
    @property
    def a_to_b(self) -> float: ...
    @property
    def b_to_a(self) -> float: ...
    @property
    def net_slack(self) -> float: ...
    @property
    def a_to_hull_b(self) -> HullDistance: ...
    @property
    def b_to_hull_a(self) -> HullDistance: ...

def distance(
    a: Union[Run, Samples, _Path],
    b: Union[Run, Samples, _Path],
    set: _SetName = "post_impact",
    coords: _Coords = "contact",
) -> SetDistance: ...

class HoldoutPlan:
    @property
    def samples(self) -> int: ...
    @property
    def missed_mass(self) -> float: ...
    @property
    def assumptions(self) -> str: ...

class Lemma1Plan:
    @property
    def lipschitz(self) -> float: ...
    @property
    def cube_dimension(self) -> int: ...
    @property
    def samples(self) -> float: ...
    @property
    def log_cells(self) -> float: ...
    @property
    def assumptions(self) -> str: ...

class Plan:
    @property
    def epsilon(self) -> float: ...
    @property
    def delta(self) -> float: ...
    @property
    def max_steps(self) -> int: ...
    @property
    def holdout(self) -> HoldoutPlan: ...
    @property
    def lemma1(self) -> Optional[Lemma1Plan]: ...

def plan(
    problem: Problem,
    *,
    epsilon: Optional[float] = None,
    delta: float = 0.05,
    lipschitz: Optional[float] = None,
    max_steps: Optional[int] = None,
    missed_mass: float = 1e-3,
) -> Plan: ...

class HoldoutBound:
    @property
    def holdout(self) -> int: ...
    @property
    def missed(self) -> int: ...
    @property
    def delta(self) -> float: ...
    @property
    def missed_fraction(self) -> float: ...
    @property
    def missed_mass_upper(self) -> float: ...
    @property
    def assumptions(self) -> str: ...

class Lemma1Bound:
    @property
    def cells_per_axis(self) -> float: ...
    @property
    def log_cells(self) -> float: ...
    @property
    def samples(self) -> float: ...
    @property
    def failure_bound(self) -> float: ...
    @property
    def success_lower_bound(self) -> float: ...
    @property
    def assumptions(self) -> str: ...

def holdout_bound(holdout: int, missed: int, delta: float = 0.05) -> HoldoutBound: ...
def lemma1_bound(
    lipschitz: float, dimension: int, epsilon: float, samples: float
) -> Lemma1Bound: ...

# The other impact laws.
class AnitescuPotraOutcome:
    @property
    def v_plus(self) -> _Floats: ...
    @property
    def lambda_n(self) -> _Floats: ...
    @property
    def lambda_d(self) -> _Floats: ...
    @property
    def gamma(self) -> _Floats: ...
    @property
    def contact_velocity(self) -> _Floats: ...
    @property
    def status(self) -> str: ...

class AnitescuPotraSet:
    @property
    def status(self) -> str: ...
    @property
    def outcomes(self) -> list[AnitescuPotraOutcome]: ...
    @property
    def lcp_solutions(self) -> int: ...
    @property
    def bases_tried(self) -> int: ...

def anitescu_potra(
    problem: Problem, velocity: Optional[ArrayLike] = None, lcp: _Lcp = "chain"
) -> AnitescuPotraOutcome: ...
def anitescu_potra_all(
    problem: Problem,
    velocity: Optional[ArrayLike] = None,
    distinct_tolerance: float = 1e-7,
    max_size: int = 20,
) -> AnitescuPotraSet: ...

class SequentialOutcome:
    @property
    def ordering(self) -> list[int]: ...
    @property
    def status(self) -> Literal["terminated", "impact_cap", "lcp_failure"]: ...
    @property
    def v_plus(self) -> _Floats: ...
    @property
    def contact_velocity(self) -> _Floats: ...
    @property
    def single_impacts(self) -> int: ...
    @property
    def worst_residual(self) -> float: ...
    @property
    def energy_ratio(self) -> float: ...
    @property
    def trajectory(self) -> _Floats: ...

def sequential(
    problem: Problem,
    *,
    ordering: Optional[Sequence[int]] = None,
    max_impacts: int = 10,
    termination_tolerance: float = 2.220446e-6,
    all_orderings: bool = True,
    max_permuted_contacts: int = 4,
    keep_trajectory: bool = False,
) -> list[SequentialOutcome]: ...

class PropagativeResult:
    @property
    def status(self) -> Literal["feasible", "reflection_cap", "sequence_exhausted"]: ...
    @property
    def v_plus(self) -> _Floats: ...
    @property
    def contact_velocity(self) -> _Floats: ...
    @property
    def lambda_(self) -> _Floats: ...
    @property
    def sequence(self) -> list[int]: ...
    @property
    def reflections(self) -> int: ...
    @property
    def admissible(self) -> bool: ...
    @property
    def residual(self) -> float: ...
    @property
    def energy_ratio(self) -> float: ...

class PropagativeOutcome:
    @property
    def v_plus(self) -> _Floats: ...
    @property
    def contact_velocity(self) -> _Floats: ...
    @property
    def lambda_(self) -> _Floats: ...
    @property
    def sequences(self) -> list[list[int]]: ...
    @property
    def sequence_count(self) -> int: ...
    @property
    def min_reflections(self) -> int: ...
    @property
    def max_reflections(self) -> int: ...
    @property
    def residual(self) -> float: ...
    @property
    def energy_ratio(self) -> float: ...

class PropagativeOutcomeSet:
    @property
    def status(self) -> Literal["complete", "reflection_cap", "sequence_cap"]: ...
    @property
    def outcomes(self) -> list[PropagativeOutcome]: ...
    @property
    def feasible_sequences(self) -> int: ...
    @property
    def capped_sequences(self) -> int: ...
    @property
    def forced_choice(self) -> bool: ...
    @property
    def nodes(self) -> int: ...

class PlasticResult:
    @property
    def mode(self) -> Literal["cone", "equality"]: ...
    @property
    def status(self) -> Literal["solved", "lcp_failure"]: ...
    @property
    def v_plus(self) -> _Floats: ...
    @property
    def lambda_(self) -> _Floats: ...
    @property
    def contact_velocity(self) -> _Floats: ...
    @property
    def adhesive(self) -> bool: ...
    @property
    def residual(self) -> float: ...
    @property
    def energy_ratio(self) -> float: ...

def propagative(
    problem: Problem,
    velocity: Optional[ArrayLike] = None,
    *,
    policy: Literal[
        "most_violated", "least_violated", "fixed_order", "random", "user_sequence"
    ] = "most_violated",
    e: float = 1.0,
    fixed_order: Sequence[int] = (),
    user_sequence: Sequence[int] = (),
    seed: int = 1,
    first_contact: int = -1,
    max_reflections: int = 1000,
) -> PropagativeResult: ...
def propagative_outcomes(
    problem: Problem,
    velocity: Optional[ArrayLike] = None,
    *,
    e: float = 1.0,
    max_sequences: int = 100000,
    max_reflections: int = 1000,
    minimal_only: bool = False,
) -> PropagativeOutcomeSet: ...
def plastic(
    problem: Problem,
    velocity: Optional[ArrayLike] = None,
    mode: Literal["cone", "equality"] = "cone",
) -> PlasticResult: ...

class AghiliResult:
    @property
    def status(self) -> Literal["solved", "projected_law", "ill_conditioned"]: ...
    @property
    def v_plus(self) -> _Floats: ...
    @property
    def contact_velocity(self) -> _Floats: ...
    @property
    def impulse(self) -> _Floats: ...
    @property
    def generalized_impulse(self) -> _Floats: ...
    @property
    def energy_ratio(self) -> float: ...
    @property
    def energy_gain(self) -> bool: ...
    @property
    def adhesive(self) -> list[int]: ...
    @property
    def residual(self) -> float: ...
    @property
    def rank(self) -> int: ...

def aghili(
    problem: Problem,
    *,
    e: float = 0.0,
    per_contact: Optional[ArrayLike] = None,
    matrix: Optional[ArrayLike] = None,
    rank_tolerance: float = 1e-10,
) -> AghiliResult: ...

class JiaMasonErdmannResult:
    @property
    def status(self) -> Literal["terminated", "state_limit", "step_limit"]: ...
    @property
    def impulse(self) -> _Floats: ...
    @property
    def normal_velocity(self) -> _Floats: ...
    @property
    def v_plus(self) -> _Floats: ...
    @property
    def contact_velocity(self) -> _Floats: ...
    @property
    def stiffness(self) -> _Floats: ...
    @property
    def states(self) -> list[list[int]]: ...
    @property
    def steps(self) -> int: ...
    @property
    def energy_lost(self) -> float: ...
    @property
    def residual(self) -> float: ...
    @property
    def trace_impulse(self) -> _Floats: ...
    @property
    def trace_energy(self) -> _Floats: ...

def jia_mason_erdmann(
    problem: Problem,
    *,
    stiffness: Optional[ArrayLike] = None,
    restitution: Optional[ArrayLike] = None,
    default_restitution: float = 0.0,
    step_fraction: float = 0.01,
    record_trace: bool = False,
) -> JiaMasonErdmannResult: ...

# The laws side by side (`impactset compare`).

class CompareLaw(enum.IntEnum):
    ANITESCU_POTRA = 0
    SEQUENTIAL = 1
    COMPLIANT = 2
    AGHILI = 3
    SEGHETE_MURPHEY = 4
    JIA_MASON_ERDMANN = 5
    ROUTH = 6

_LawName = Literal[
    "anitescu_potra", "sequential", "compliant", "aghili", "seghete_murphey",
    "jia_mason_erdmann", "routh",
]

class Comparison:
    @property
    def system(self) -> str: ...
    @property
    def laws(self) -> list[_LawName]: ...
    @property
    def law(self) -> list[_LawName]: ...
    @property
    def setting(self) -> list[str]: ...
    @property
    def status(self) -> list[str]: ...
    @property
    def converged(self) -> NDArray[np.bool_]: ...
    @property
    def v_plus(self) -> _Floats: ...
    @property
    def contact_velocity(self) -> _Floats: ...
    @property
    def energy_ratio(self) -> _Floats: ...
    @property
    def anitescu_potra_complete(self) -> Optional[bool]: ...
    @property
    def routh(self) -> Optional[Summary]: ...
    @property
    def options(self) -> dict[str, Any]: ...
    def rows(self, law: _LawName) -> NDArray[np.intp]: ...
    def __len__(self) -> int: ...

def compare(
    problem: Problem,
    laws: Union[None, CompareLaw, _LawName, Iterable[Union[CompareLaw, _LawName]]] = None,
    *,
    samples: Optional[int] = None,
    seed: int = 1,
    threads: int = 0,
    step: Optional[float] = None,
    max_steps: Optional[int] = None,
    aghili_restitution: Sequence[float] = (0.0, 0.5, 1.0),
    compliant_stiffness_contrast: float = 100.0,
    jia_mason_erdmann_stiffness_contrast: float = 100.0,
    seghete_murphey_max_sequences: int = 20000,
    seghete_murphey_blend_ratio: float = 0.7,
    progress: _Progress = None,
) -> Comparison: ...

# Datasets.
def read_dataset(path: _Path) -> dict[str, Any]: ...
def write_dataset(path: _Path, dataset: dict[str, Any]) -> None: ...

_Range = Union[tuple[float, float], tuple[float, float, int]]
_Table = Union[_Path, dict[str, ArrayLike], Any]  # a pandas DataFrame, columns by name, a file

class BatchJob:
    def __init__(
        self,
        *,
        system: Optional[str] = None,
        params: Optional[dict[str, Any]] = None,
        scene: Union[_Path, dict[str, Any], None] = None,
        problems: Optional[_Path] = None,
        mujoco: Optional[_Path] = None,
        keyframe: Optional[str] = None,
        qpos: Optional[ArrayLike] = None,
        qvel: Optional[ArrayLike] = None,
        contact_margin: Optional[float] = None,
        friction_directions: Optional[int] = None,
        ignore_constraints: Optional[bool] = None,
        vary: Optional[dict[str, _Range]] = None,
        state_design: Literal["grid", "iid", "sobol"] = "grid",
        states: Optional[int] = None,
        state_seed: int = 1,
        table: Optional[_Table] = None,
        outputs: Sequence[str] = (),
        samples: Optional[int] = 4096,
        seed: int = 1,
        threads: int = 0,
        design: _Design = "mixed",
        step: Optional[float] = None,
        max_steps: Optional[int] = None,
        selection: _Selection = "random",
        lcp: _Lcp = "chain",
        detect_non_unique: bool = False,
        warm_start: bool = True,
        lemke_restore_above: float = 1e-12,
        sets: bool = True,
        epsilon: Optional[float] = None,
        delta: float = 0.05,
        lipschitz: Optional[float] = None,
        holdout: Optional[int] = None,
        polish: Optional[int] = None,
        hull_max_dimension: int = 6,
        hull_max_points: int = 20000,
        flatness_tolerance: float = 1e-06,
        reachable: bool = False,
        max_net_points: int = 50000,
        keep: int = 16,
        extra_directions: int = 16,
        part_states: int = 64,
        horizon: Optional[float] = None,
        impact_speed: Optional[float] = None,
        rollouts: Optional[int] = None,
        ctrl: Optional[Sequence[float]] = None,
        pd_posture: Optional[Sequence[float]] = None,
        metrics: Optional[Sequence[str]] = None,
        baseline: Optional[bool] = None,
    ) -> None: ...
    @property
    def count(self) -> int: ...
    def __len__(self) -> int: ...
    @property
    def parameter_names(self) -> list[str]: ...
    @property
    def parameters(self) -> _Floats: ...
    @property
    def velocity_names(self) -> list[str]: ...
    @property
    def outputs(self) -> list[str]: ...
    @property
    def options(self) -> dict[str, Any]: ...
    def run(
        self, out: Optional[_Path] = None, *, resume: bool = False, progress: _Progress = None
    ) -> BatchResult: ...
    def run_states(self, indices: Iterable[int]) -> list[bytes]: ...
    def assemble(self, records: Iterable[bytes], out: Optional[_Path] = None) -> BatchResult: ...

class BatchResult:
    def __init__(self, tree: dict[str, Any]) -> None: ...
    @property
    def count(self) -> int: ...
    def __len__(self) -> int: ...
    @property
    def attributes(self) -> dict[str, Any]: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def index(self) -> NDArray[np.int64]: ...
    @property
    def parameter_names(self) -> list[str]: ...
    @property
    def parameters(self) -> _Floats: ...
    @property
    def status(self) -> NDArray[np.int64]: ...
    @property
    def status_names(self) -> list[str]: ...
    @property
    def messages(self) -> list[str]: ...
    @property
    def seeds(self) -> NDArray[np.uint64]: ...
    @property
    def step(self) -> _Floats: ...
    @property
    def max_steps(self) -> NDArray[np.int64]: ...
    @property
    def velocity_names(self) -> list[str]: ...
    @property
    def v_minus(self) -> _Floats: ...
    @property
    def per_state(self) -> Literal["impact", "rollouts"]: ...
    @property
    def summary(self) -> dict[str, NDArray[Any]]: ...
    @property
    def qpos_names(self) -> list[str]: ...
    @property
    def qpos(self) -> _Floats: ...
    @property
    def qvel(self) -> _Floats: ...
    @property
    def metric_names(self) -> list[str]: ...
    @property
    def metrics(self) -> dict[str, dict[str, Any]]: ...
    @property
    def rollout_metrics(self) -> dict[str, _Floats]: ...
    @property
    def rollout_status(self) -> NDArray[np.int64]: ...
    @property
    def rollout_status_names(self) -> list[str]: ...
    @property
    def rollout_events(self) -> NDArray[np.int64]: ...
    @property
    def outputs(self) -> list[str]: ...
    def coordinate_names(self, output: str) -> list[str]: ...
    @property
    def features(self) -> dict[str, dict[str, NDArray[Any]]]: ...
    def sets(self, output: str, set: _SetName = "post_impact") -> dict[str, Any]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def write(self, path: _Path) -> None: ...
    def to_dataframe(self) -> Any: ...  # pandas.DataFrame
    def to_xarray(self) -> Any: ...  # xarray.Dataset

def batch(
    *,
    system: Optional[str] = None,
    params: Optional[dict[str, Any]] = None,
    scene: Union[_Path, dict[str, Any], None] = None,
    problems: Optional[_Path] = None,
    mujoco: Optional[_Path] = None,
    keyframe: Optional[str] = None,
    qpos: Optional[ArrayLike] = None,
    qvel: Optional[ArrayLike] = None,
    contact_margin: Optional[float] = None,
    friction_directions: Optional[int] = None,
    ignore_constraints: Optional[bool] = None,
    vary: Optional[dict[str, _Range]] = None,
    state_design: Literal["grid", "iid", "sobol"] = "grid",
    states: Optional[int] = None,
    state_seed: int = 1,
    table: Optional[_Table] = None,
    outputs: Sequence[str] = (),
    samples: Optional[int] = 4096,
    seed: int = 1,
    threads: int = 0,
    design: _Design = "mixed",
    step: Optional[float] = None,
    max_steps: Optional[int] = None,
    selection: _Selection = "random",
    lcp: _Lcp = "chain",
    detect_non_unique: bool = False,
    warm_start: bool = True,
    lemke_restore_above: float = 1e-12,
    sets: bool = True,
    epsilon: Optional[float] = None,
    delta: float = 0.05,
    lipschitz: Optional[float] = None,
    holdout: Optional[int] = None,
    polish: Optional[int] = None,
    hull_max_dimension: int = 6,
    hull_max_points: int = 20000,
    flatness_tolerance: float = 1e-06,
    reachable: bool = False,
    max_net_points: int = 50000,
    keep: int = 16,
    extra_directions: int = 16,
    part_states: int = 64,
    horizon: Optional[float] = None,
    impact_speed: Optional[float] = None,
    rollouts: Optional[int] = None,
    ctrl: Optional[Sequence[float]] = None,
    pd_posture: Optional[Sequence[float]] = None,
    metrics: Optional[Sequence[str]] = None,
    baseline: Optional[bool] = None,
    out: Optional[_Path] = None,
    resume: bool = False,
    progress: _Progress = None,
) -> BatchResult: ...
def read_batch(path: _Path) -> BatchResult: ...

class Rollouts:
    model: str
    timestep: float
    qpos_names: list[str]
    qvel_names: list[str]
    metric_names: list[str]
    key: list[str]
    status: list[str]
    message: list[str]
    events: NDArray[np.int64]
    constrained_events: NDArray[np.int64]
    lcp_solves: NDArray[np.int64]
    time: _Floats
    fastest_approach: _Floats
    qpos: _Floats
    qvel: _Floats
    metrics: _Floats
    summaries: dict[str, dict[str, Any]]
    baseline: Optional[dict[str, Any]]
    counts: dict[str, int]
    seconds: float
    options: dict[str, Any]
    warnings: list[str]
    trajectory: Optional[dict[str, _Floats]]
    def metric(self, name: str) -> _Floats: ...
    def to_xarray(self) -> Any: ...
    def to_dataframe(self) -> Any: ...

def rollout(
    path: _Path,
    *,
    keyframe: Optional[str] = None,
    qpos: Optional[ArrayLike] = None,
    qvel: Optional[ArrayLike] = None,
    contact_margin: float = 0.0001,
    friction_directions: int = 4,
    ignore_constraints: bool = False,
    touchdown: int = 0,
    add_floor: bool = False,
    floating_base: bool = False,
    horizon: float = 1,
    impact_speed: float = 0.1,
    rollouts: int = 100,
    seed: int = 1,
    threads: int = 0,
    ctrl: Optional[Sequence[float]] = None,
    pd_posture: Optional[Sequence[float]] = None,
    metrics: Sequence[str] = (),
    baseline: bool = True,
    record_every: int = 0,
    delta: float = 0.05,
    policy: Optional[Callable[[float, _Floats, _Floats], ArrayLike]] = None,
    out: Optional[_Path] = None,
    replay: Optional[str] = None,
) -> Rollouts: ...
def falsify(
    path: _Path,
    metric: str,
    *,
    maximize: bool = True,
    population: int = 20,
    set_steps: int = 16,
    set_events: int = 4,
    keyframe: Optional[str] = None,
    qpos: Optional[ArrayLike] = None,
    qvel: Optional[ArrayLike] = None,
    contact_margin: float = 0.0001,
    friction_directions: int = 4,
    ignore_constraints: bool = False,
    touchdown: int = 0,
    add_floor: bool = False,
    floating_base: bool = False,
    horizon: float = 1,
    impact_speed: float = 0.1,
    rollouts: int = 100,
    seed: int = 1,
    threads: int = 0,
    ctrl: Optional[Sequence[float]] = None,
    pd_posture: Optional[Sequence[float]] = None,
    metrics: Sequence[str] = (),
    baseline: bool = True,
    record_every: int = 0,
    delta: float = 0.05,
    policy: Optional[Callable[[float, _Floats, _Floats], ArrayLike]] = None,
) -> dict[str, Any]: ...
