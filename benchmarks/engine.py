"""Engine benchmarks, all in one run; prints the figures and writes them to
benchmarks/engine_results.md.

    .venv/bin/python benchmarks/engine.py [--quick]

1. epsilon column, 14 tests x 1000 repetitions (learner-free, vectorised),
   1 and 2 processes; target <= 1 s.
2. simple column (glm vs majority, Python backend): shared designs (the
   union of the designs, one batch per learner and repetition) against each
   test fitting its own designs fold by fold (one fit call per split, the
   naive battery; target >= 3x) and against each test fitting its own
   designs in one batch per test.
3. Python backend time per simple repetition (14 tests, 167 fits per
   learner); target <= 20 ms.
4. dask.distributed LocalCluster (processes) with 1 and 2 workers:
   identical results.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from pybcv.comparison import fit_counts  # noqa: E402
from pybcv.engine import repetition, simulate  # noqa: E402
from pybcv.pipeline import CountingLearner, learner_from_spec  # noqa: E402
from pybcv.partitions import DESIGNS  # noqa: E402
from pybcv.stats import TABLE5_TESTS, designs_for  # noqa: E402


def best_of(k, fn):
    ts = []
    out = None
    for _ in range(k):
        t = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t)
    return min(ts), out


class _FoldByFold(CountingLearner):
    def predict_splits(self, X, y, splits):
        out = []
        for sp in splits:
            out += super().predict_splits(X, y, [sp])
        return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    warnings.simplefilter("ignore")
    lines = ["# Engine benchmarks", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
             f"numpy {np.__version__}; command: `.venv/bin/python benchmarks/engine.py`; "
             f"run at {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} "
             f"(load average at start {os.getloadavg()[0]:.2f}; a shared VM whose speed drifts by up to "
             f"±30 % between runs, so compare figures within one run).", ""]

    def say(s=""):
        print(s, flush=True)
        lines.append(s)

    # 1. epsilon
    simulate("epsilon", reps=50, seed=0)
    t1, r1 = best_of(3, lambda: simulate("epsilon", tests="table5", reps=1000, seed=1, jobs=1))
    simulate("epsilon", tests="table5", reps=200, seed=0, jobs=2)          # warm the process pool
    t2, r2 = best_of(3, lambda: simulate("epsilon", tests="table5", reps=1000, seed=1, jobs=2))
    same = all(np.array_equal(r1.pvalue[k], r2.pvalue[k]) for k in TABLE5_TESTS)
    say("## 1. epsilon column, 14 tests x 1000 repetitions (learner-free, vectorised)")
    say("")
    say("| processes | seconds (best of 3) | target |")
    say("|---:|---:|---|")
    say(f"| 1 | {t1:.2f} | <= 1 s |")
    say(f"| 2 (joblib, warm pool) | {t2:.2f} | <= 1 s |")
    say("")
    say(f"1 and 2 processes give identical p-values: {same}.")
    say("")

    # 2. shared designs vs own designs
    reps = 10 if a.quick else 30
    kw = dict(tests="table5", reps=reps, seed=3, backend="python")
    simulate("simple", reps=2, seed=0, backend="python")
    ts, rs = best_of(2, lambda: simulate("simple", **kw))
    to, ro = best_of(2, lambda: simulate("simple", share_designs=False, **kw))
    orig = repetition.CountingLearner
    repetition.CountingLearner = _FoldByFold          # each split its own fit call
    try:
        tf, rf = best_of(1, lambda: simulate("simple", share_designs=False, **kw))
    finally:
        repetition.CountingLearner = orig
    say("## 2. simple column (glm vs majority, Python backend), shared designs vs each test its own")
    say("")
    say(f"{reps} repetitions, 14 tests, n = 1000.")
    say("")
    say("| mode | fits per learner and repetition | ms per repetition | speed-up of shared |")
    say("|---|---:|---:|---:|")
    say(f"| shared designs: the union of the 8 designs, one `predict_splits` batch per learner "
        f"and repetition (the engine) | {rs.fits_per_rep[0]:.0f} | {1000 * ts / reps:.1f} | 1.0x |")
    say(f"| each test fits its own designs, fold by fold (one fit call per split) | {rf.fits_per_rep[0]:.0f} | "
        f"{1000 * tf / reps:.1f} | **{tf / ts:.1f}x** |")
    say(f"| each test fits its own designs, but batched (one `predict_splits` per test) | {ro.fits_per_rep[0]:.0f} | "
        f"{1000 * to / reps:.1f} | {to / ts:.1f}x |")
    say("")
    say(f"Fits: {fit_counts('table5', True)} (union of designs) vs {fit_counts('table5', False)} (each test its own). "
        f"Against a battery in which each test fits its own folds (row 2) sharing gains {tf / ts:.1f}x "
        f"(target >= 3x). Against a battery that already batches each test's folds (row 3) the gain is "
        f"bounded by the fit ratio {fit_counts('table5', False)}/{fit_counts('table5', True)} = "
        f"{fit_counts('table5', False) / fit_counts('table5', True):.2f} plus the saved calls: {to / ts:.1f}x.")
    say("")

    # 3. Python backend per simple repetition, and where the time goes
    reps3 = 10 if a.quick else 20
    runs3 = []
    for _ in range(3 if a.quick else 7):
        t = time.perf_counter()
        simulate("simple", tests="table5", reps=reps3, seed=4, backend="python")
        runs3.append(time.perf_counter() - t)
    t3, med3 = min(runs3), float(np.median(runs3))
    from pybcv import datasets as D
    g = np.random.default_rng(0)
    des = designs_for(TABLE5_TESTS)
    tp, sp = best_of(3, lambda: {d: DESIGNS[d].splits(1000, g) for d in des})
    flat = [s for d in des for s in sp[d]]
    d0 = D.simple(1)
    tl = {}
    for nm in ("glm", "majority"):
        lrn = learner_from_spec({"name": nm}, "python")
        tl[nm], _ = best_of(5, lambda: lrn.predict_splits(d0.X, d0.y, flat))
    say("## 3. Python backend, simple repetition (14 tests, 167 fits per learner, n = 1000)")
    say("")
    say(f"- **{1000 * t3 / reps3:.1f} ms per repetition** (target <= 20 ms; best of {len(runs3)} runs of "
        f"{reps3} repetitions, median {1000 * med3 / reps3:.1f} ms: this VM's speed drifts by up to "
        f"±30 % between runs). Where it goes: "
        f"glm `predict_splits` over the 167 splits of the 8 designs (one batch) {1000 * tl['glm']:.1f} ms, majority {1000 * tl['majority']:.1f} ms, "
        f"drawing the partitions {1000 * tp:.1f} ms (`Design.splits` of the 8 designs); "
        f"the rest (data, tables, 14 tests) is the remainder.")
    say("")

    # 4. dask
    try:
        import distributed
        reps4 = 12 if a.quick else 24
        kw4 = dict(tests="table5", reps=reps4, seed=6, backend="python", chunk=2)
        res = {}
        times = {}
        for w in (1, 2):
            with distributed.LocalCluster(n_workers=w, threads_per_worker=1, processes=True,
                                          dashboard_address=None) as cl, distributed.Client(cl) as c:
                simulate("simple", dask_client=c, reps=2, seed=0, backend="python", tests="table5")
                t = time.perf_counter()
                res[w] = simulate("simple", dask_client=c, **kw4)
                times[w] = time.perf_counter() - t
        ident = all(np.array_equal(res[1].pvalue[k], res[2].pvalue[k], equal_nan=True) for k in TABLE5_TESTS)
        local = simulate("simple", **{k: v for k, v in kw4.items() if k != "chunk"})
        ident2 = all(np.array_equal(res[1].pvalue[k], local.pvalue[k], equal_nan=True) for k in TABLE5_TESTS)
        say("## 4. dask.distributed LocalCluster (processes), simple column, Python backend")
        say("")
        say(f"| workers | seconds for {reps4} repetitions |")
        say("|---:|---:|")
        say(f"| 1 | {times[1]:.2f} |")
        say(f"| 2 | {times[2]:.2f} |")
        say("")
        say(f"1 and 2 workers give identical statistics and p-values: {ident}; "
            f"identical to the in-process run: {ident2}.")
        say("")
    except ImportError:
        say("dask.distributed not installed: skipped")
    with open(os.path.join(HERE, "engine_results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
