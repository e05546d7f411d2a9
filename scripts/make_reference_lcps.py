#!/usr/bin/python3
"""Writes the bank of reference LCPs tests/data/lcp/<name>.lcp and its README.md.

Every file is LCP(M, q): find z >= 0 with w = M z + q >= 0 and z'w = 0 (docs/examples.md 1.1).
The files are read by tests/lcp/solver_matrix_test.cpp, which runs every solver of
lcp::MakeSolver on every file and compares lcp::EnumerateSolutions with the solution lists written
here.

Usage: scripts/make_reference_lcps.py [out_dir]     (default: tests/data/lcp next to this script)
Only numpy is used and every random draw comes from numpy.random.default_rng(seed) with the seed
written into the file, so rerunning the script reproduces the bank byte for byte. The files are
checked in; rerun only when a family changes, and then look at `git diff --stat`.

Solution lists come from an enumeration oracle written here in numpy (Remy's method,
docs/examples.md 1.10): for every index set S (the empty set included), if M[S,S] has full rank,
solve M[S,S] z_S = -q_S, set z elsewhere to 0 and keep z if z >= -1e-10, w >= -1e-10 and
|z_i w_i| is small; then de-duplicate. For n > MAX_ORACLE_N the list is written as `unknown`.
"""
import itertools
import json
import os
import sys

import numpy as np

SCRIPT = "scripts/make_reference_lcps.py"
MAX_ORACLE_N = 12  # 2^12 = 4096 bases: well under a second per file in numpy
FEAS_TOL = 1e-10  # z >= -FEAS_TOL and w >= -FEAS_TOL (absolute; the bank's data are O(1))
COMP_TOL = 1e-10  # |z_i w_i| <= COMP_TOL * max(1, |q|_inf) * max(1, |z|_inf)
DEDUPE_TOL = 1e-9  # as lcp::EnumerationOptions::dedupe_tolerance
RANK_RTOL = 1e-12  # sigma_min / sigma_max below this: singular basis (Eigen FullPivLU's 1e-12)
AMBIGUOUS = (1e-14, 1e-10)  # relative sigma_min in here: numpy and Eigen might disagree; warn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PROBLEMS = os.path.join(ROOT, "tests", "data", "problems")

warnings = []


# --------------------------------------------------------------------------------------------
# The oracle and the matrix-class checks


def enumerate_solutions(M, q, label=""):
    """All solutions on non-singular complementary bases (Remy's method), in bit-mask order."""
    n = len(q)
    sols = []
    qscale = max(1.0, np.abs(q).max())
    for mask in range(1 << n):
        S = [i for i in range(n) if mask >> i & 1]
        z = np.zeros(n)
        if S:
            A = M[np.ix_(S, S)]
            sv = np.linalg.svd(A, compute_uv=False)
            rel = sv[-1] / sv[0] if sv[0] > 0 else 0.0
            if AMBIGUOUS[0] < rel < AMBIGUOUS[1]:
                warnings.append(f"{label}: basis {S} has relative sigma_min {rel:.3g}")
            if rel <= RANK_RTOL:
                continue
            z[S] = np.linalg.solve(A, -q[S])
        w = M @ z + q
        if z.min() < -FEAS_TOL or w.min() < -FEAS_TOL:
            continue
        zscale = max(1.0, np.abs(z).max())
        if np.abs(z * w).max() > COMP_TOL * qscale * zscale:
            continue
        if any(np.abs(s - z).max() <= DEDUPE_TOL * max(1.0, np.abs(s).max()) for s in sols):
            continue
        sols.append(z)
    return sols


def principal_minors(M):
    """Determinants of all 2^n - 1 non-empty principal submatrices."""
    n = M.shape[0]
    out = []
    for k in range(1, n + 1):
        for S in itertools.combinations(range(n), k):
            out.append(np.linalg.det(M[np.ix_(S, S)]))
    return np.array(out)


def classify(M):
    """(is_p_matrix, is_nondegenerate) from the principal minors, at a relative tolerance."""
    pm = principal_minors(M)
    scale = max(1.0, np.abs(M).max())
    tol = 1e-10
    # |det| of a k x k submatrix is at most (sqrt(k) scale)^k; use scale^k as its yardstick.
    n = M.shape[0]
    yard = []
    for k in range(1, n + 1):
        yard += [scale**k] * len(list(itertools.combinations(range(n), k)))
    rel = pm / np.array(yard)
    return bool((rel > tol).all()), bool((np.abs(rel) > tol).all())


# --------------------------------------------------------------------------------------------
# Impact LCPs (docs/examples.md 1.2 and 1.3)


def load_problem(name):
    with open(os.path.join(PROBLEMS, name + ".json")) as f:
        d = json.load(f)
    P = {k: np.array(d[k], dtype=float) for k in ("M", "Jn", "Jf", "D", "mu", "v_minus")}
    P["h"] = float(d["h"])
    m = P["Jn"].shape[0]
    D = np.zeros((2 * m, P["M"].shape[0]))
    D[0::2] = P["Jf"]
    D[1::2] = -P["Jf"]
    assert np.array_equal(D, P["D"]), name + ": D is not the interleaved (+Jf, -Jf)"
    return P


def anitescu_potra(P, v):
    """W_AP, w_AP of docs/examples.md 1.2: variables [lambda_n; lambda_D (interleaved); gamma]."""
    M, Jn, D, mu = P["M"], P["Jn"], P["D"], P["mu"]
    m = Jn.shape[0]
    J = np.vstack([Jn, D])
    G = J @ np.linalg.solve(M, J.T)
    G = 0.5 * (G + G.T)
    E = np.zeros((2 * m, m))
    for i in range(m):
        E[2 * i, i] = E[2 * i + 1, i] = 1.0
    W = np.zeros((4 * m, 4 * m))
    W[: 3 * m, : 3 * m] = G
    W[m : 3 * m, 3 * m :] = E
    W[3 * m :, :m] = np.diag(mu)
    W[3 * m :, m : 3 * m] = -E.T
    w = np.concatenate([J @ v, np.zeros(m)])
    return W, w


def routh_step(P, v, lmax):
    """W, w of docs/examples.md 1.3: variables [s; lambda_n; lambda_D; gamma]."""
    m = P["Jn"].shape[0]
    Wap, wap = anitescu_potra(P, v)
    W = np.zeros((5 * m, 5 * m))
    W[:m, m : 2 * m] = -np.eye(m)
    W[m : 2 * m, :m] = np.eye(m)
    W[m:, m:] = Wap
    return W, np.concatenate([lmax, wap])


def velocity_after(P, v, x, offset):
    """v + M^-1 [Jn; D]' [lambda_n; lambda_D], the impulse read from x[offset : offset + 3m]."""
    m = P["Jn"].shape[0]
    J = np.vstack([P["Jn"], P["D"]])
    return v + np.linalg.solve(P["M"], J.T @ x[offset : offset + 3 * m])


# --------------------------------------------------------------------------------------------
# Synthetic families


def psd_problem(seed, n, rank):
    rng = np.random.default_rng(seed)
    B = rng.standard_normal((n, rank))
    M = B @ B.T
    if rank == n:
        q = rng.standard_normal(n)
        q[0] = -abs(q[0]) - 0.5  # at least one negative entry: not the trivial solution
        how = "q ~ N(0, 1) with q_0 < 0"
    else:
        # A rank-deficient PSD LCP is solvable iff feasible: build q from a complementary pair.
        support = rng.random(n) < 0.5
        support[0] = True
        z0 = np.where(support, rng.uniform(0.2, 2.0, n), 0.0)
        w0 = np.where(support, 0.0, rng.uniform(0.0, 2.0, n))
        q = w0 - M @ z0
        how = "q = w0 - M z0 for a random complementary pair (z0, w0) >= 0 (feasible by design)"
    desc = f"M = B B' with B {n}x{rank} ~ N(0, 1) (symmetric PSD, rank {rank}); {how}"
    return M, q, desc


def pmatrix_problem(seed, n, kind):
    rng = np.random.default_rng(seed)
    if kind == "pd":
        B = rng.standard_normal((n, n))
        S = rng.standard_normal((n, n))
        M = B @ B.T / n + 0.1 * np.eye(n) + (S - S.T)
        desc = "M = B B'/n + 0.1 I + (S - S'), B, S ~ N(0, 1): M + M' positive definite"
    elif kind == "triangular":
        M = np.tril(rng.uniform(-3.0, 3.0, (n, n)), -1) + np.diag(rng.uniform(0.5, 2.0, n))
        desc = "M lower triangular, diagonal ~ U[0.5, 2], below ~ U[-3, 3]: P but not PD"
    elif kind == "murty":
        M = np.eye(n) + 2.0 * np.triu(np.ones((n, n)), 1)
        desc = "Murty's upper-triangular P-matrix (1 on, 2 above the diagonal), a long Lemke path"
    else:
        raise ValueError(kind)
    q = rng.standard_normal(n)
    q[-1] = -abs(q[-1]) - 0.5
    if kind == "murty":
        q = -np.ones(n)
        desc += "; q = -1"
    else:
        desc += "; q ~ N(0, 1) with q_{n-1} < 0"
    return M, q, desc


def copositive_problem(seed, m, ndof):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((ndof, ndof))
    Mass = A @ A.T + 0.5 * np.eye(ndof)
    Jn = rng.standard_normal((m, ndof))
    Jf = rng.standard_normal((m, ndof))
    D = np.zeros((2 * m, ndof))
    D[0::2], D[1::2] = Jf, -Jf
    P = {"M": Mass, "Jn": Jn, "D": D, "mu": rng.uniform(0.1, 2.0, m)}
    v = rng.standard_normal(ndof)
    W, w = anitescu_potra(P, v)
    rank = np.linalg.matrix_rank(np.vstack([Jn, D]))
    desc = (
        f"Anitescu-Potra structure (docs/examples.md 1.2) with m = {m} random contacts: mass "
        f"matrix A A' + 0.5 I ({ndof}x{ndof}), Jn, Jf ~ N(0, 1), mu ~ U[0.1, 2], q = [J v; 0] with "
        f"v ~ N(0, 1); Delassus block J M^-1 J' has rank {rank} of {3 * m}. Copositive, not PSD"
    )
    return W, w, desc


def degenerate_problems():
    """Hand-built integer problems: exact zeros and ties in q, repeated rows/columns, zero rows."""
    out = []
    # 1: symmetric PSD with rows/columns 0 and 1 equal, q from an integer complementary pair
    #    with z_i = w_i = 0 at index 2 (an exact zero of q) and ties in q.
    B = np.array([[1, 1, 0], [1, 1, 0], [0, 1, 1], [1, 0, 1], [2, 1, 0], [0, 0, 1]], float)
    M = B @ B.T
    z0 = np.array([1, 0, 0, 1, 0, 0], float)
    w0 = np.array([0, 0, 0, 0, 1, 0], float)
    q = w0 - M @ z0
    out.append((M, q, "M = B B' with B integer 6x3, rows 0 and 1 of B equal (so rows and "
                "columns 0, 1 of M equal); q = w0 - M z0 for integer complementary z0, w0 with "
                "z0_i = w0_i = 0 at several i (exact zeros and repeated entries in q)"))
    # 2: monotone non-symmetric with a zero row and column and a duplicated column.
    B = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 0], [1, 0, 1]], float)
    S = np.array([[0, 1, 0, 0, -1], [-1, 0, 2, 0, 0], [0, -2, 0, 0, 1], [0, 0, 0, 0, 0],
                  [1, 0, -1, 0, 0]], float)
    M = B @ B.T + S
    q = np.array([-1, -1, 0, 0, -1], float)
    out.append((M, q, "M = B B' + S (B integer with a zero row, S integer skew with a zero row "
                "and column): M + M' PSD, row and column 3 of M zero with q_3 = 0 (z_3 is free: "
                "a continuum of solutions); q in {-1, 0} with exact zeros and ties"))
    # 3: the all-ones matrix, q = -1: every z >= 0 with sum z = 1 solves it.
    n = 5
    out.append((np.ones((n, n)), -np.ones(n), "M = 1 1' (rank 1, all rows equal), q = -1: the "
                "solution set is the simplex sum z = 1; the oracle lists its n vertices"))
    # 4: duplicated identity rows/columns, q with exact zeros.
    M = np.array([[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 2, 1], [0, 0, 1, 2]], float)
    q = np.array([-1, -1, 0, 0], float)
    out.append((M, q, "M block diagonal [[1, 1], [1, 1]] (equal rows 0, 1) and [[2, 1], [1, 2]]; "
                "q = (-1, -1, 0, 0): degenerate first ratio test (tie between rows 0 and 1) and "
                "exact zeros; solutions z_0 + z_1 = 1, z_2 = z_3 = 0"))
    # 5: larger PSD integer problem with many ties: duplicated rows, zero row, q with repeats.
    B = np.array([[1, 0, 0, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0, 1, 0, 1], [0, 0, 1, 0],
                  [0, 0, 0, 0], [1, 1, 1, 1], [2, 0, 1, 0]], float)
    M = B @ B.T
    z0 = np.array([1, 0, 1, 0, 0, 0, 0, 0], float)
    w0 = np.array([0, 0, 0, 0, 1, 0, 0, 1], float)
    q = w0 - M @ z0
    out.append((M, q, "M = B B' with B integer 8x4 having two pairs of equal rows and a zero row "
                "(row/column 5 of M zero, q_5 = 0); q = w0 - M z0 from integer complementary "
                "z0, w0: exact zeros and repeated entries in q"))
    return out


def infeasible_problems():
    out = []
    n = 3
    out.append((-np.eye(n), -np.array([1.0, 2.0, 0.5]),
                "M = -I, q < 0: w = -z + q < 0 for every z >= 0 (infeasible)"))
    # Row 2 of M is <= 0 and q_2 < 0: w_2 < 0 for every z >= 0. Column 1 is negative too.
    rng = np.random.default_rng(401)
    M = rng.uniform(-1.0, 2.0, (5, 5))
    M[2, :] = -rng.uniform(0.0, 1.0, 5)
    M[:, 1] = -rng.uniform(0.1, 1.0, 5)
    q = rng.standard_normal(5)
    q[2] = -1.0
    out.append((M, q, "seed 401: M ~ U[-1, 2] with row 2 <= 0 and column 1 < 0, q_2 = -1: "
                "w_2 < 0 for every z >= 0 (infeasible; Lemke must end on a ray)"))
    # Farkas: y >= 0 with y'M <= 0 and y'q < 0 excludes every feasible z.
    for seed, n in ((402, 6), (403, 10)):
        rng = np.random.default_rng(seed)
        M = rng.standard_normal((n, n))
        y = rng.uniform(0.5, 1.5, n)
        c = y @ M
        M[-1, :] -= (np.maximum(c, 0) + rng.uniform(0.1, 1.0, n)) / y[-1]
        q = rng.standard_normal(n)
        q[-1] -= (y @ q + 1.0) / y[-1]
        assert (y @ M <= 0).all() and y @ q < 0
        cert = " ".join(f"{x:.6g}" for x in y)
        out.append((M, q, f"seed {seed}: M ~ N(0, 1), q ~ N(0, 1), last rows shifted so that "
                    f"y = [{cert}] >= 0 has y'M <= 0 and y'q < 0 (Farkas: infeasible)"))
    # Feasible but without a solution: a non-degenerate M (all principal minors != 0, so the
    # enumeration is exhaustive) with a feasible point and no complementary solution.
    rng = np.random.default_rng(404)
    for _ in range(100000):
        M = rng.integers(-3, 4, (3, 3)).astype(float)
        q = rng.integers(-3, 4, 3).astype(float)
        if q.min() >= 0 or not classify(M)[1] or enumerate_solutions(M, q):
            continue
        feas = None
        for _ in range(2000):
            z = rng.exponential(1.0, 3) * (rng.random(3) < 0.7)
            if (M @ z + q >= 0).all():
                feas = z
                break
        if feas is not None:
            zs = " ".join(f"{x:.6g}" for x in feas)
            out.append((M, q, f"seed 404, first random integer 3x3 (M, q in [-3, 3]) with all "
                        f"principal minors != 0 (the enumeration is exhaustive), no solution on "
                        f"any basis, but feasible: z = [{zs}] gives M z + q >= 0"))
            break
    else:
        raise RuntimeError("no feasible unsolvable LCP found")
    return out


# --------------------------------------------------------------------------------------------
# Writing


def fmt(x):
    x = 0.0 if x == 0 else x  # no "-0"
    return "%.17g" % x


def write_lcp(out_dir, name, family, provenance, desc, M, q, inventory):
    n = len(q)
    lines = [f"# generator: {SCRIPT}", f"# family: {family}"]
    lines += [f"# {p}" for p in provenance]
    lines.append(f"# description: {desc}")
    if n <= MAX_ORACLE_N:
        sols = enumerate_solutions(M, q, name)
        is_p, nondeg = classify(M)
        if is_p:
            assert len(sols) == 1, name
            lines.append("# unique: yes (M is a P-matrix: all 2^n - 1 principal minors > 0; "
                         f"cond_2(M) = {np.linalg.cond(M):.3g})")
        elif len(sols) == 0 and family == "infeasible":
            lines.append("# unique: no (no solution)")
        else:
            lines.append("# unique: not established (M is not a P-matrix; compare residuals, not "
                         "vectors)")
        if nondeg:
            lines.append("# complete: yes (all principal minors != 0: every solution lies on a "
                         "non-singular basis, so the list below is every solution)")
        else:
            lines.append("# complete: not guaranteed (singular principal submatrices: solutions "
                         "only on singular bases and the interior of a continuum are not listed)")
    else:
        sols = None
        lines.append(f"# unique: not established (n = {n} > {MAX_ORACLE_N}: the python oracle "
                     "is not run)")
    lines.append(f"n {n}")
    lines += [" ".join(fmt(x) for x in row) for row in M]
    lines.append("q")
    lines.append(" ".join(fmt(x) for x in q))
    if sols is None:
        lines.append("solutions unknown")
    else:
        lines.append(f"solutions {len(sols)}")
        lines += [" ".join(fmt(x) for x in z) for z in sols]
    with open(os.path.join(out_dir, name + ".lcp"), "w") as f:
        f.write("\n".join(lines) + "\n")
    inventory.append((name, family, n, "unknown" if sols is None else len(sols)))
    return sols


# (json name, file-name stem, docs/examples.md section, Routh p draws at v-, post step?)
EXAMPLES = [
    ("box-wall", "box_wall", "3.1", 3, True),
    ("rocking-block", "rocking_block", "3.2", 3, True),
    ("compass-gait", "compass_gait", "3.3", 3, True),
    ("ramone", "ramone", "3.4", 3, False),
    ("disk-stack", "disk_stack", "3.5", 2, False),
]


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests", "data", "lcp")
    os.makedirs(out_dir, exist_ok=True)
    for f in os.listdir(out_dir):
        if f.endswith(".lcp"):
            os.remove(os.path.join(out_dir, f))
    inv = []

    k = 0
    for seed, n, rank in ((101, 4, 4), (102, 6, 6), (103, 8, 3), (104, 10, 10), (105, 7, 4)):
        k += 1
        M, q, desc = psd_problem(seed, n, rank)
        write_lcp(out_dir, f"psd_{k}", "psd", [f"seed: {seed}"], desc, M, q, inv)

    k = 0
    for seed, n, kind in ((201, 4, "pd"), (202, 7, "pd"), (203, 12, "pd"), (204, 6, "triangular"),
                          (205, 9, "triangular"), (206, 8, "murty")):
        k += 1
        M, q, desc = pmatrix_problem(seed, n, kind)
        write_lcp(out_dir, f"pmatrix_{k}", "pmatrix", [f"seed: {seed}"], desc, M, q, inv)

    k = 0
    for seed, m, ndof in ((301, 1, 3), (302, 2, 6), (303, 2, 3), (304, 3, 9), (305, 3, 5)):
        k += 1
        M, q, desc = copositive_problem(seed, m, ndof)
        write_lcp(out_dir, f"copositive_{k}", "copositive", [f"seed: {seed}"], desc, M, q, inv)

    for k, (M, q, desc) in enumerate(degenerate_problems(), 1):
        write_lcp(out_dir, f"degenerate_{k}", "degenerate", ["seed: none (hand-built integers)"],
                  desc, M, q, inv)

    for k, (M, q, desc) in enumerate(infeasible_problems(), 1):
        write_lcp(out_dir, f"infeasible_{k}", "infeasible", ["seed: see description"], desc, M,
                  q, inv)

    for ei, (json_name, stem, section, draws, post) in enumerate(EXAMPLES):
        P = load_problem(json_name)
        src = f"source: tests/data/problems/{json_name}.json (docs/examples.md {section})"
        m = P["Jn"].shape[0]
        v = P["v_minus"]
        W, w = anitescu_potra(P, v)
        write_lcp(out_dir, f"ap_{stem}", "ap", [src], "Anitescu-Potra impact LCP (docs/examples.md "
                  "1.2) at v = v_minus; z = [lambda_n; lambda_D (+Jf, -Jf interleaved); gamma]",
                  W, w, inv)
        first_sols = None
        for k in range(1, draws + 1):
            seed = 500 + 10 * ei + k
            p = 1.0 - np.random.default_rng(seed).random(m)  # in (0, 1]: no lmax_i = 0
            W, w = routh_step(P, v, P["h"] * p)
            ps = " ".join(f"{x:.17g}" for x in p)
            sols = write_lcp(out_dir, f"routh_{stem}_{k}", "routh", [src, f"seed: {seed}"],
                             f"Routh step LCP (docs/examples.md 1.3) at v = v_minus, lambda_max = "
                             f"h p with h = {P['h']:g}, p = [{ps}] (p = 1 - rng.random(m)); "
                             "z = [s; lambda_n; lambda_D; gamma]", W, w, inv)
            if k == 1:
                first_sols = sols
        if post:
            # Apply one solution of step 1 (the first, among those still colliding afterwards,
            # in the oracle's order) and take a second step from there.
            vs = [velocity_after(P, v, z, m) for z in first_sols]
            colliding = [i for i, vv in enumerate(vs) if (P["Jn"] @ vv).min() < -1e-8]
            pick = colliding[0] if colliding else 0
            v1 = vs[pick]
            k = draws + 1
            seed = 500 + 10 * ei + k
            p = 1.0 - np.random.default_rng(seed).random(m)
            W, w = routh_step(P, v1, P["h"] * p)
            ps = " ".join(f"{x:.17g}" for x in p)
            vv = " ".join(f"{x:.17g}" for x in v1)
            write_lcp(out_dir, f"routh_{stem}_{k}", "routh", [src, f"seed: {seed}"],
                      f"Routh step LCP (docs/examples.md 1.3) at the velocity after step "
                      f"routh_{stem}_1's solution #{pick} (0-based, listed order): v = [{vv}]; "
                      f"lambda_max = h p with h = {P['h']:g}, p = [{ps}]; "
                      "z = [s; lambda_n; lambda_D; gamma]", W, w, inv)

    write_readme(out_dir, inv)
    total = sum(os.path.getsize(os.path.join(out_dir, f)) for f in os.listdir(out_dir))
    print(f"wrote {len(inv)} files to {out_dir} ({total / 1024:.1f} KB)")
    for name, fam, n, c in inv:
        print(f"  {name:24s} n = {n:2d}  solutions {c}")
    for wmsg in sorted(set(warnings)):
        print("warning:", wmsg, file=sys.stderr)


README = """# Reference LCPs

Written by `scripts/make_reference_lcps.py` (numpy only, every random draw from
`numpy.random.default_rng(seed)` with the seed in the file's header; rerunning reproduces the
bank). Read by `tests/lcp/solver_matrix_test.cpp`, which runs every solver of
`lcp::MakeSolver` ("native", "siconos", "enumeration", "chain") on every file and compares
`lcp::EnumerateSolutions` with the listed solutions. Do not edit the files by hand.

## Format

Plain text, one item per line, numbers space-separated and printed with `%.17g` (exact
round trip). The problem is LCP(M, q): find z >= 0 with w = M z + q >= 0 and z'w = 0.

```
# generator: scripts/make_reference_lcps.py     comment lines start with '#'; the first ones
# family: psd                                    give provenance: family, seed or source example,
# seed: 101                                      a description of the construction, and
# description: ...
# unique: yes (...)                              'yes' only when M is a P-matrix (checked);
# complete: yes (...)                            'yes' when every principal minor is non-zero
n 4                                              size
<row 1 of M>                                     n lines: M row-major
...
q
<q_1 ... q_n>
solutions 2                                      count, or 'unknown' (n > 12: not enumerated)
<z of solution 1>                                count lines
<z of solution 2>
```

The solution list holds every solution on a non-singular complementary basis, found by the
script's own enumeration oracle (Remy's method, docs/examples.md 1.10): for every index
set S (empty set included) with M[S,S] of full rank (sigma_min / sigma_max > 1e-12) it solves
M[S,S] z_S = -q_S, sets z elsewhere to 0 and keeps z when z >= -1e-10, w >= -1e-10 and
|z_i w_i| <= 1e-10 max(1, |q|_inf) max(1, |z|_inf); solutions within 1e-9 (relative, inf-norm)
are merged. What it cannot see: solutions that live only on singular bases and the interior of
a continuum of solutions (it lists the continuum's basic vertices). Hence:

* `unique: yes` (and then exactly one solution) only for P-matrices; the test compares vectors
  only there. Elsewhere one listed solution does not prove uniqueness: the test checks residuals.
* `complete: yes` when all principal minors are non-zero: then the list is every solution
  (in particular `solutions 0` there means the LCP has no solution at all).
* `solutions 0` in the `infeasible` family is proven independently (see below).

## Families

| family | files | n | what it exercises |
|---|---|---|---|
| `psd` | {psd} | 4-10 | symmetric PSD M = B B' (full rank and rank-deficient; rank-deficient ones get a feasible q by construction, so they are solvable) |
| `pmatrix` | {pmatrix} | 4-12 | P-matrices, unique solution: M + M' positive definite (non-symmetric), lower triangular with positive diagonal (P, not PD), Murty's triangular matrix (long Lemke path) |
| `copositive` | {copositive} | 4-12 | Anitescu-Potra-structured matrices [[G, [0; E]], [[mu, -E'], 0]] from a random Delassus block G = J Mass^-1 J' (SPD or singular), random mu, q = [J v; 0]: copositive, not PSD. Strictly they are not copositive-plus (z = [0; gamma] gives z'Wz = 0 but (W + W')z = [mu gamma; 0; 0] != 0); Lemke still processes them because q'z = 0 for every z in SOL(0, W) (there J'[lambda_n; lambda_D] = 0), which with copositivity suffices (Cottle, Pang & Stone 1992, section 3.8; Anitescu & Potra 1997) |
| `degenerate` | {degenerate} | 4-8 | hand-built integer problems: exact zeros and ties in q, repeated rows and columns, zero rows with q_i = 0, a continuum of solutions (all-ones M) |
| `infeasible` | {infeasible} | 3-10 | no solution, `solutions 0`: M = -I with q < 0; a row of M <= 0 with q_i < 0 (and a negative column); two Farkas constructions (certificate y in the header); one *feasible* but unsolvable non-degenerate 3x3 (enumeration exhaustive) |
| `ap` | {ap} | 8 (20) | the Anitescu-Potra impact LCP (docs/examples.md 1.2, variables [lambda_n; lambda_D (+Jf, -Jf interleaved); gamma]) of each example in `tests/data/problems/` at v = v_minus |
| `routh` | {routh} | 10 (25) | one Routh step LCP (docs/examples.md 1.3, variables [s; lambda_n; lambda_D; gamma]) with lambda_max = h p, p = 1 - rng.random(m) in (0, 1] (never 0: p_i = 0 gives a continuum in s), at v = v_minus and, for box-wall, rocking-block and compass-gait, at the velocity after one solution of the first step |

Examples: `box_wall`, `rocking_block`, `compass_gait`, `ramone` (mu = 1e5), `disk_stack` (the
orthogonal-tangent disk stack: AP LCP 20x20 and Routh step 25x25, both `solutions unknown`).

## Files

| file | family | n | solutions |
|---|---|---|---|
{table}
"""


def write_readme(out_dir, inv):
    counts = {}
    for _, fam, _, _ in inv:
        counts[fam] = counts.get(fam, 0) + 1
    table = "\n".join(f"| `{name}.lcp` | {fam} | {n} | {c} |" for name, fam, n, c in inv)
    with open(os.path.join(out_dir, "README.md"), "w") as f:
        f.write(README.format(table=table, **counts))


if __name__ == "__main__":
    main()
