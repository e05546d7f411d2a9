#!/usr/bin/env python3
"""Outer bounds on the post-impact set against the sampled range, per generalized coordinate.

Usage (from the repository root, with the Python module built):

    PYTHONPATH=build/python python3 bench/outer_bound_study.py [--samples 65536] [--no-tight]

Needs numpy and scipy (scipy.optimize: SLSQP for the convex programs, HiGHS through linprog for
the LPs of part 2).

Part 1: the admissible-inelastic-outcome set

    O = { v+ = v- + M^-1 (Jn^T ln + D^T ld) : ln >= 0, ld >= 0, sum_j ld_ij <= mu_i ln_i,
          Jn v+ >= 0, v+^T M v+ <= v-^T M v- }

contains every outcome of Routh's law. Its support h_O(u) in u = +-e_i is computed twice:
a feasible primal point (a lower bound on h_O) and a feasible point of the conic dual (an upper
bound, by weak duality: that number is the certified outer bound). In whitened coordinates
(M = L L^T, w = L^T v, J~ = J L^-T) the Lagrangian dual is

    min over zeta, beta >= 0 of  -zeta.w-  +  |w-| * | L^-1 u + zeta + J~n^T beta |
    subject to  (J~n_i + mu_i J~D_ij) zeta >= 0  for every contact i and direction j,

(zeta = L^T z, z the multiplier of v+ = v- + M^-1 J^T lambda; beta that of Jn v+ >= 0; the energy
multiplier is eliminated in closed form). Every dual-feasible point gives h_O(u) <= its value.

Part 2 (planar problems, k = 2): a tighter set from the structure of Routh's law. Write the
cumulative impulse of a sample after each step as Lam = (Ln, Lt) (per contact normal and net
tangential impulse; v = v- + M^-1 (Jn^T Ln + Jf^T Lt)). Every step of Algorithm 1, for any h,
any p in [0,1]^m and any solution of the step LCP, adds an increment delta that, at the velocity
at the END of the step (y = contact velocities), belongs to one of four modes per contact:
  S: dn_i = dt_i = 0;
  P: yn_i <= 0, yt_i >= 0, dn_i >= 0, dt_i = -mu_i dn_i;
  N: yn_i <= 0, yt_i <= 0, dn_i >= 0, dt_i = +mu_i dn_i;
  K: yn_i <= 0, yt_i = 0,  dn_i >= 0, |dt_i| <= mu_i dn_i.
(Step LCP rows 2-4 of docs/model.md section 4: a contact with impulse ends at yn <= 0; gamma >=
|yt|, so yt != 0 forces the cone boundary opposing yt.) Every state also has kinetic energy <=
that of v- and Lam in the friction cone. A set X of Lam (a template polyhedron: T Lam <= b) with
0 in X and Post(X) in X (Post = one step of any mode, an LP per mode and template direction) then
contains every state of every sample. A terminated outcome is reached by a last step from a state
with some yn_j < -eps_term, ending with yn >= -eps_term; its support in u is a maximum of LPs.
The code iterates X <- X u Post(X) from X = {0} and reports whether it reached a fixed point.
The argument uses nothing about h, N, the p-sequence design or which solution of a non-unique
step is kept. Limits of the claim: the modes are those of exact step solutions (the sampler's are
accepted at residual 1e-9); the LPs are solved in floating point by HiGHS (no exact certificate);
and the fixed points found are not robust: X inflated by eta is not invariant (Post leaves it by
about eta or more, printed), so only a fixed point the iteration reaches (to roundoff) or converges
to (to 1e-12) is reported, labelled accordingly. Every sampled outcome is checked against the box.
The default run takes about 15 minutes on one core, most of it part 2 on the compass gait and
RAMone; `--tight-systems rocking-block box-wall` takes about 4.
"""

import argparse
import itertools
import sys
import time

import numpy as np
from scipy.optimize import linprog, minimize

import impactset

SYSTEMS = ["rocking-block", "compass-gait", "box-wall", "ramone", "disk-stack"]
TIGHT_SYSTEMS = ["rocking-block", "compass-gait", "box-wall", "ramone"]
EPS_TERM = 1e-8  # Algorithm 1's termination tolerance (docs/model.md section 1.3)


def problem_data(p):
    M, Jn, D, mu, vm = (np.asarray(x, float) for x in (p.M, p.Jn, p.D, p.mu, p.v_minus))
    return M, Jn, D, mu, vm, int(p.k)


# --------------------------------------------------------------------------------------------
# Sampling
# --------------------------------------------------------------------------------------------

def sampled_outcomes(p, samples, seed):
    out, counts = [], {}
    for design in ("iid", "directed"):
        s = impactset.sample(p, samples=samples, seed=seed, threads=0, design=design,
                             outputs=["generalized"])
        v = np.asarray(s.v_plus, float)
        if v.shape[0] == p.n and v.shape[1] != p.n:
            v = v.T
        ok = np.asarray(s.status) == 0
        counts[design] = (int(ok.sum()), len(ok))
        out.append(v[ok])
    return np.vstack(out), counts


# --------------------------------------------------------------------------------------------
# Part 1: support of O, primal and dual
# --------------------------------------------------------------------------------------------

class OuterO:
    def __init__(self, M, Jn, D, mu, vm, k):
        self.n, self.m, self.k = M.shape[0], Jn.shape[0], k
        L = np.linalg.cholesky(M)
        self.Li = np.linalg.inv(L)
        self.Jn, self.mu = Jn, mu
        J = np.vstack([Jn, D]) if k else Jn
        self.Jt = J @ self.Li.T          # whitened Jacobian rows
        self.Jnt = Jn @ self.Li.T
        self.wm = L.T @ vm               # whitened v-
        self.R = np.linalg.norm(self.wm)  # sqrt(v-^T M v-)
        m, n = self.m, self.n
        rows = []
        for i in range(m):
            if k == 0 or mu[i] == 0:
                rows.append(self.Jnt[i])
            else:
                for j in range(k):
                    rows.append(self.Jnt[i] + mu[i] * self.Jt[m + i * k + j])
        G = np.array(rows)
        self.G = G / np.linalg.norm(G, axis=1, keepdims=True)
        # a strictly interior direction of the dual cone {G zeta >= 0}, to repair SLSQP's
        # last-digit infeasibility
        lp = linprog(np.r_[np.zeros(n), -1.0], A_ub=np.hstack([-self.G, np.ones((len(G), 1))]),
                     b_ub=np.zeros(len(G)), bounds=[(-1, 1)] * n + [(None, 1)], method="highs")
        self.dint = (lp.x[:n], -lp.fun) if lp.status == 0 and -lp.fun > 1e-12 else None
        nl = m + m * k
        A = np.zeros((m, nl))
        for i in range(m):
            A[i, i] = mu[i] / max(1.0, mu[i])
            A[i, m + i * k:m + (i + 1) * k] = -1.0 / max(1.0, mu[i])
        self.Acone = A

    def dual_value(self, y, ut):
        n = self.n
        z, beta = y[:n], np.maximum(y[n:], 0)
        if (self.G @ z).min() < 0:
            return np.inf
        c = ut + z + self.Jnt.T @ beta
        return -z @ self.wm + self.R * np.linalg.norm(c)

    def support(self, u, starts=8, max_starts=40, seed=0, rel_gap=1e-6):
        """returns (primal, dual, argmax v+): primal <= h_O(u) <= dual"""
        n, m = self.n, self.m
        rng = np.random.default_rng(seed)
        ut = self.Li @ u
        R, Jnt, Jt, G = self.R, self.Jnt, self.Jt, self.G

        def phi(y):
            c = ut + y[:n] + Jnt.T @ y[n:]
            return -y[:n] @ self.wm + R * np.sqrt(c @ c + 1e-300)

        def dphi(y):
            c = ut + y[:n] + Jnt.T @ y[n:]
            g = R * c / np.sqrt(c @ c + 1e-300)
            return np.concatenate([-self.wm + g, Jnt @ g])

        dcons = [{"type": "ineq", "fun": lambda y: G @ y[:n],
                  "jac": lambda y: np.hstack([G, np.zeros((len(G), m))])}]

        def wplus(l):
            return self.wm + Jt.T @ l

        pcons = [{"type": "ineq", "fun": lambda l: self.Acone @ l, "jac": lambda l: self.Acone},
                 {"type": "ineq", "fun": lambda l: Jnt @ wplus(l), "jac": lambda l: Jnt @ Jt.T},
                 {"type": "ineq", "fun": lambda l: 1 - wplus(l) @ wplus(l) / R ** 2,
                  "jac": lambda l: -2 * (wplus(l) @ Jt.T) / R ** 2}]
        nl = Jt.shape[0]
        dual, primal, arg = np.inf, -np.inf, None
        for s in range(max_starts):
            y0 = np.zeros(n + m) if s == 0 else np.concatenate(
                [rng.normal(size=n) * np.linalg.norm(ut), rng.random(m)])
            r = minimize(phi, y0, jac=dphi, method="SLSQP", bounds=[(None, None)] * n + [(0, None)] * m,
                         constraints=dcons, options={"maxiter": 1000, "ftol": 1e-15})
            y = r.x.copy()
            y[n:] = np.maximum(y[n:], 0)
            viol = -(G @ y[:n]).min()
            if viol > 0 and self.dint is not None:
                y[:n] += self.dint[0] * (viol / self.dint[1]) * (1 + 1e-6)
            dual = min(dual, self.dual_value(y, ut))
            l0 = np.zeros(nl) if s == 0 else rng.random(nl) * R
            r = minimize(lambda l: -ut @ wplus(l), l0, jac=lambda l: -Jt @ ut, method="SLSQP",
                         bounds=[(0, None)] * nl, constraints=pcons,
                         options={"maxiter": 1000, "ftol": 1e-15})
            lam = np.maximum(r.x, 0)
            w = wplus(lam)
            pv = max(0.0, -(self.Acone @ lam).min(), -(Jnt @ w).min() / R, (w @ w - R * R) / R ** 2)
            if pv < 1e-9 and ut @ w > primal:
                primal, arg = ut @ w, self.Li.T @ w
            if s + 1 >= starts and dual - primal <= rel_gap * max(1.0, abs(dual)):
                break
        return primal, dual, arg


# --------------------------------------------------------------------------------------------
# Part 2: the step-mode invariant (planar, k = 2)
# --------------------------------------------------------------------------------------------

class StepModes:
    """Cumulative impulse Lam = (Ln (m), Lt (m)); v = v- + B Lam; y = (Yn, Yt) Lam + (yn0, yt0)."""

    def __init__(self, p, max_cuts=400):
        M, Jn, D, mu, vm, k = problem_data(p)
        if k != 2:
            raise ValueError("planar problems (k = 2) only")
        self.m, self.n, self.mu, self.vm = Jn.shape[0], M.shape[0], mu, vm
        m = self.m
        self.d = d = 2 * m
        Jf = D[0::2]
        self.B = np.linalg.solve(M, np.vstack([Jn, Jf]).T)
        L = np.linalg.cholesky(M)
        self.Bt, self.wm = L.T @ self.B, L.T @ vm
        self.R = np.linalg.norm(self.wm)
        self.Yn, self.yn0, self.Yt, self.yt0 = Jn @ self.B, Jn @ vm, Jf @ self.B, Jf @ vm
        A, b = [], []
        for i in range(m):  # cumulative impulse in the friction cone
            r = np.zeros(d); r[i] = -1; A.append(r); b.append(0.0)
            for sg in (1, -1):
                r = np.zeros(d); r[m + i] = sg; r[i] = -mu[i]; A.append(r / max(1, mu[i])); b.append(0.0)
        self.Acone, self.bcone = np.array(A), np.array(b)
        rng = np.random.default_rng(1)
        cuts = [np.eye(self.n)[i] * sg for i in range(self.n) for sg in (1, -1)]
        for c in self.Bt.T:
            if np.linalg.norm(c) > 0:
                cuts += [c / np.linalg.norm(c), -c / np.linalg.norm(c)]
        for _ in range(60):
            g = rng.normal(size=self.n)
            cuts.append(g / np.linalg.norm(g))
        self.cuts, self.max_cuts = cuts, max_cuts
        self.lp_count = 0

    # energy: g.w(Lam) <= R for unit g (tangent planes of the kinetic-energy ellipsoid), added lazily
    def _cut_rows(self):
        G = np.array(self.cuts)
        return G @ self.Bt, self.R - G @ self.wm

    def _add_cut(self, lam):
        w = self.wm + self.Bt @ lam
        nw = np.linalg.norm(w)
        if nw > self.R * (1 + 1e-10) and len(self.cuts) < self.max_cuts:
            self.cuts.append(w / nw)
            return True
        return False

    def templates(self):
        d = self.d
        E = np.eye(d)
        T = [sg * E[i] for i in range(d) for sg in (1, -1)]
        for i in range(d):
            for j in range(i + 1, d):
                for a in (1, -1):
                    for c in (1, -1):
                        T.append(a * E[i] + c * E[j])
        for r in np.vstack([self.Yn, self.Yt, self.B]):
            if np.linalg.norm(r) > 1e-12:
                T += [r, -r]
        keep = []
        for t in T:
            t = t / np.linalg.norm(t)
            if all(np.abs(t - q).max() > 1e-9 for q in keep):
                keep.append(t)
        return np.array(keep)

    def mode_rows(self, modes):
        """rows on x = (Lam, delta): A_ub x <= b_ub, A_eq x = b_eq, variable bounds"""
        m, d = self.m, self.d
        Au, bu, Ae, be = [], [], [], []
        bnds = [(None, None)] * (2 * d)
        for i, md in enumerate(modes):
            if md == "S":
                bnds[d + i] = (0, 0)
                bnds[d + m + i] = (0, 0)
                continue
            bnds[d + i] = (0, None)
            Au.append(np.r_[self.Yn[i], self.Yn[i]]); bu.append(-self.yn0[i])         # yn' <= 0
            yt = np.r_[self.Yt[i], self.Yt[i]]
            mu = self.mu[i]
            if md in "PK":
                Au.append(-yt); bu.append(self.yt0[i])                                 # yt' >= 0
            if md in "NK":
                Au.append(yt); bu.append(-self.yt0[i])                                 # yt' <= 0
            if md == "P":
                r = np.zeros(2 * d); r[d + m + i] = 1; r[d + i] = mu; Ae.append(r); be.append(0.0)
            elif md == "N":
                r = np.zeros(2 * d); r[d + m + i] = 1; r[d + i] = -mu; Ae.append(r); be.append(0.0)
            else:
                for sg in (1, -1):
                    r = np.zeros(2 * d); r[d + m + i] = sg; r[d + i] = -mu
                    Au.append(r / max(1, mu)); bu.append(0.0)
        return Au, bu, Ae, be, bnds

    def lp_max(self, c, Au, bu, Ae, be, bnds, max_rounds=30):
        """max c.x subject to the rows, the cone and energy on Lam and Lam + delta; an upper bound
        (energy is outer-approximated by tangent planes); -inf when infeasible"""
        d = self.d
        for _ in range(max_rounds):
            Gc, hc = self._cut_rows()
            A = np.vstack([np.array(Au).reshape(-1, 2 * d), np.hstack([Gc, 0 * Gc]), np.hstack([Gc, Gc]),
                           np.hstack([self.Acone, 0 * self.Acone])])
            b = np.concatenate([np.array(bu, float), hc, hc, self.bcone])
            r = linprog(-c, A_ub=A, b_ub=b, A_eq=np.array(Ae).reshape(-1, 2 * d) if Ae else None,
                        b_eq=np.array(be, float) if Ae else None, bounds=bnds, method="highs")
            self.lp_count += 1
            if r.status == 2:
                return -np.inf
            if r.status != 0:
                raise RuntimeError(r.message)
            a1 = self._add_cut(r.x[:d])
            a2 = self._add_cut(r.x[:d] + r.x[d:])
            if not (a1 or a2):
                break
        return -r.fun

    def iterate(self, T, max_iter=60, time_limit=600.0, log=None):
        """Kleene iteration X <- X u Post(X) on one template polyhedron from X = {0}; returns
        (b, fixed, last iteration, how far Post(X) leaves X there). fixed: at most 1e-12."""
        d = self.d
        modes = list(itertools.product("SPNK", repeat=self.m))
        self.rows = {md: self.mode_rows(md) for md in modes}
        b = np.zeros(len(T))
        t0 = time.time()
        for it in range(max_iter):
            nb = np.maximum(b, self.post(T, b))
            exceed = (nb - b).max()
            if log:
                log(f"    iteration {it}: Post(X) leaves X by {exceed:.3e} ({time.time() - t0:.0f} s)")
            if exceed <= 1e-12:
                return b, True, it, exceed
            b = nb
            if time.time() - t0 > time_limit:
                break
        return b, False, it, exceed

    def post(self, T, b):
        """template bounds of Post(X), X = {T Lam <= b}"""
        d = self.d
        out = np.full(len(T), -np.inf)
        src = [np.r_[t, np.zeros(d)] for t in T]
        for md, (Au, bu, Ae, be, bnds) in self.rows.items():
            A, bb = list(Au) + src, list(bu) + list(b)
            if self.lp_max(np.zeros(2 * d), A, bb, Ae, be, bnds) == -np.inf:
                continue
            for j, t in enumerate(T):
                out[j] = max(out[j], self.lp_max(np.r_[t, t], A, bb, Ae, be, bnds))
        return out

    def outcome_support(self, T, b, u):
        """max u.v+ over last steps from X: Lam in X with some yn_j <= -eps, Lam' = Lam + delta in a mode,
        yn(Lam') >= -eps, Lam' in X"""
        d, m = self.d, self.m
        cu = self.B.T @ u
        best = -np.inf
        for md, (Au, bu, Ae, be, bnds) in self.rows.items():
            for j in range(m):
                A = list(Au) + [np.r_[t, np.zeros(d)] for t in T] + [np.r_[t, t] for t in T]
                bb = list(bu) + list(b) + list(b)
                A.append(np.r_[self.Yn[j], np.zeros(d)]); bb.append(-EPS_TERM - self.yn0[j])
                for i in range(m):
                    A.append(np.r_[-self.Yn[i], -self.Yn[i]]); bb.append(EPS_TERM + self.yn0[i])
                best = max(best, self.lp_max(np.r_[cu, cu], A, bb, Ae, be, bnds))
        return best + u @ self.vm


# --------------------------------------------------------------------------------------------

def fmt(x):
    return f"{x:+.4f}" if np.isfinite(x) else str(x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=2 ** 16, help="samples per design (iid and directed)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--systems", nargs="*", default=SYSTEMS)
    ap.add_argument("--tight-systems", nargs="*", default=TIGHT_SYSTEMS)
    ap.add_argument("--no-tight", action="store_true", help="skip part 2")
    ap.add_argument("--tight-iterations", type=int, default=250)
    ap.add_argument("--tight-time", type=float, default=900.0, help="seconds per system for part 2's iteration")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    t_start = time.time()

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    samples = {}
    rows1 = []
    worst_gap = 0.0
    for name in a.systems:
        p = impactset.Problem.from_system(name)
        t0 = time.time()
        V, counts = sampled_outcomes(p, a.samples, a.seed)
        samples[name] = V
        ts = time.time() - t0
        t0 = time.time()
        O = OuterO(*problem_data(p))
        for i in range(p.n):
            e = np.zeros(p.n); e[i] = 1
            phi, dhi, _ = O.support(e)
            plo, dlo, _ = O.support(-e)
            worst_gap = max(worst_gap, abs(dhi - phi) / max(1, abs(dhi)), abs(dlo - plo) / max(1, abs(dlo)))
            lo, hi = -dlo, dhi
            slo, shi = V[:, i].min(), V[:, i].max()
            inside = bool(np.all(V[:, i] >= lo - 1e-9) and np.all(V[:, i] <= hi + 1e-9))
            rows1.append((name, i, lo, hi, -plo, phi, slo, shi, inside))
        log(f"{name}: sampled {counts} in {ts:.1f} s, O supports in {time.time() - t0:.1f} s")

    print("## Part 1: O (admissible inelastic outcomes) against the sampled range\n")
    print(f"Samples: union of iid and directed, {a.samples} each (terminated ones), seed {a.seed}. "
          "Outer = dual-certified value; primal = a feasible point of O (the gap shows the solve is exact).\n")
    print("| system | coordinate | outer O [lo, hi] | primal [lo, hi] | sampled [lo, hi] | width ratio | samples inside |")
    print("|---|---|---|---|---|---|---|")
    for name, i, lo, hi, plo, phi, slo, shi, inside in rows1:
        ratio = (hi - lo) / (shi - slo) if shi > slo else np.inf
        print(f"| {name} | v{i} | [{fmt(lo)}, {fmt(hi)}] | [{fmt(plo)}, {fmt(phi)}] | [{fmt(slo)}, {fmt(shi)}] "
              f"| {ratio:.1f} | {'yes' if inside else 'NO'} |")
    print(f"\nLargest |dual - primal| / max(1, |dual|): {worst_gap:.1e}\n")

    if not a.no_tight:
        print("## Part 2: step-mode invariant against the sampled range\n")
        print("| system | coordinate | outer [lo, hi] | sampled [lo, hi] | width ratio | within 1.5x | samples inside (max excess) |")
        print("|---|---|---|---|---|---|---|")
        notes = []
        for name in a.tight_systems:
            p = impactset.Problem.from_system(name)
            if p.k != 2 or p.m > 3:
                notes.append(f"{name}: skipped (k = {p.k}, m = {p.m})")
                continue
            V = samples.get(name)
            if V is None:
                V, _ = sampled_outcomes(p, a.samples, a.seed)
            t0 = time.time()
            S = StepModes(p)
            T = S.templates()
            b, fixed, iters, exceed = S.iterate(T, a.tight_iterations, a.tight_time, log if a.verbose else None)
            if fixed and exceed <= 1e-14:
                status, label = f"iteration terminated (Post(X) leaves X by {exceed:.1e})", ""
            elif fixed:
                status, label = f"fixed point only in the limit (Post(X) leaves X by {exceed:.1e})", " (limit)"
            else:
                status = f"NOT a fixed point, Post(X) still leaves X by {exceed:.1e}: no bound"
                label = " (not sound: iteration unfinished)"
            if fixed:  # robustness: does X inflated by eta stay invariant?
                for eta in (1e-8, 1e-6):
                    grow = (S.post(T, b + eta) - (b + eta)).max()
                    status += f"; X + {eta:g}: Post leaves it by {grow:.2e}" + (" (invariant)" if grow <= 0 else "")
            for i in range(p.n):
                e = np.zeros(p.n); e[i] = 1
                hi = S.outcome_support(T, b, e)
                lo = -S.outcome_support(T, b, -e)
                slo, shi = V[:, i].min(), V[:, i].max()
                excess = max(0.0, lo - slo, shi - hi)
                ratio = (hi - lo) / (shi - slo) if shi > slo else np.inf
                print(f"| {name} | v{i} | [{fmt(lo)}, {fmt(hi)}]{label} | [{fmt(slo)}, {fmt(shi)}] | {ratio:.2f} "
                      f"| {'yes' if ratio <= 1.5 and fixed else 'no'} | {'yes' if excess <= 1e-7 else 'NO'} ({excess:.1e}) |")
            notes.append(f"{name}: {iters + 1} iterations, {len(T)} template directions, {S.lp_count} LPs, "
                         f"{time.time() - t0:.0f} s: {status}")
        print()
        for s in notes:
            print("- " + s)
    print(f"\nTotal time {time.time() - t_start:.0f} s")


if __name__ == "__main__":
    main()
