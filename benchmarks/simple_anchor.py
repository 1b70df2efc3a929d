"""A plain loop over the simple column of Table 5: the anchor of issue 23,
item 3, for a simulation with learners (the engine at the limit of its fits).

The same workload as ``pybcv simulate --dataset simple --tests table5
--backend python``, without the engine: per repetition, the simple data set
(y ~ B(1, 0.5), x | y ~ N(delta y, 1), n = 1000) from its own Generator, the
167 splits of the eight Table-5 designs from one Generator per (repetition,
design) (``numpy_sim.draw``: the engine's seeding cost, other streams), glm
and majority fitted on every split by the same Python stand-ins the engine
runs (``GLMFallback``, ``MajorityFallback``: as the Weka anchor runs the same
weka.jar, this one runs the same fits), every fold's 2x2 counts with numpy,
and the 14 tests from numpy_sim's formulas, vectorised over the
repetitions at the end.  No engine, store, checks of the registry or
intervals: what is left of pybcv is the learners.

    .venv/bin/python benchmarks/simple_anchor.py [--reps 200] [--n 1000] [--delta 0] [--seed 0]

It prints the rejection rate of each test (a sanity check against ``pybcv
simulate``: other random draws, so equal within Monte Carlo error only).
``benchmarks/engine_anchor.py --dataset simple`` times it against the
engine's whole command.
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy_sim  # noqa: E402
from pybcv.learners.fallbacks import GLMFallback, MajorityFallback  # noqa: E402


def simulate(R=200, n=1000, delta=0.0, seed=0):
    """{test: (statistic[R], p[R])} of the simple column."""
    te = numpy_sim.draw(None, R, n, seed)               # {design: (R, F, n2)} test sets
    designs = list(te)
    glm, maj = GLMFallback(), MajorityFallback()
    c = {k: np.empty((3, R, te[k].shape[1]), np.int64) for k in designs}
    for r in range(R):
        g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(r, 0))))
        y = (g.random(n) < 0.5).astype(np.int64)
        X = (g.standard_normal(n) + delta * y).reshape(-1, 1)
        tests = [t for k in designs for t in te[k][r]]
        splits = []
        for t in tests:
            train = np.ones(n, bool)
            train[t] = False
            splits.append((np.flatnonzero(train), np.sort(t)))
        pa, pb = glm.predict_splits(X, y, splits), maj.predict_splits(X, y, splits)
        i = 0
        for k in designs:
            for f in range(te[k].shape[1]):
                test = splits[i][1]
                code = 2 * (pa[i] != y[test]) + (pb[i] != y[test])
                c[k][:, r, f] = (code == 2).sum(), (code == 1).sum(), (code == 3).sum()
                i += 1
    return numpy_sim.score({k: tuple(v) for k, v in c.items()},
                           {k: v.shape[2] for k, v in te.items()}, n)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--delta", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    numpy_sim.timed_rates(f"plain loop: simple, {args.reps} repetitions, n = {args.n}, "
                          f"delta = {args.delta}", "rejection rate",
                          lambda: simulate(args.reps, args.n, args.delta, args.seed))


if __name__ == "__main__":
    main()
