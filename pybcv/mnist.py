"""MNIST, the fifth data set of [YWSL] (section "Real-world data set 2"):
the data set, its true error rates and a standalone simulation driver.

The population is the 60,000 images of the Keras training split
(``PYBCV_MNIST_NPZ``, default the project's ``mnist.npz``, arrays
``x_train`` (60000, 28, 28) uint8 and ``y_train``).  A data set of size n
is n images drawn *without* replacement from the population with the
repetition's data stream (``pybcv.seeds.data_seq(seed, r)``); pixels are
scaled to [0, 1] (``x / 255``).  The learners are ``cnn`` against
``cnn-dropout`` (:mod:`pybcv.learners.cnn`); dropout rate 0 is H0.

The paper's setting: 100 data sets of n = 10,000, 250 epochs; true error
rates = the mean over the 100 data sets of the error on all 60,000 images
of a network trained on the data set.  That is thousands of CPU hours;
the defaults here (:data:`DEFAULT_N`, :data:`DEFAULT_EPOCHS`,
:data:`TRUTH_DATA_SETS`) are reduced to what a small CPU machine does in
an hour; ``docs/replication/mnist/README.md`` states the gap.

Command line (resumable; one JSON file per repetition in ``--out``)::

    python -m pybcv.mnist simulate --out DIR --reps 40 --n 1000 --epochs 5
    python -m pybcv.mnist summary DIR
    python -m pybcv.mnist truth --n 500 --epochs 5 --data-sets 3
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from functools import lru_cache
from typing import Dict, Optional, Sequence

import numpy as np

from . import seeds
from .paper import PAPER_REPS as PAPER_R, paper_se, table5
from .datasets import MNIST_NPZ, POPULATION_SIZE, mnist, mnist_population, population_raw, scale  # noqa: F401
from .learners.cnn import CNN, CNNDropout
from .outcomes import tables_from_predictions
from .partitions import DESIGNS
from .stats import TESTS, designs_for, profile_options, resolve_tests

PAPER_N = 10000
PAPER_EPOCHS = 250
PAPER_REPS = 100
DEFAULT_N = 1000          # reduced from the paper's 10,000
DEFAULT_EPOCHS = 5        # reduced from the paper's 250
TRUTH_DATA_SETS = 3       # reduced from the paper's 100
RATES = (0.0, 0.1, 0.2, 0.3, 0.4)   # the paper's dropout rates; 0 is H0
# the tests whose designs the CPU replication runs: 5x2 BCV and the hold-out
DEFAULT_TESTS = ("mcnemar_5x2bcv", "calibrated_f_5x2bcv", "mcnemar_ho", "proportion_z")


def learners(epochs=DEFAULT_EPOCHS, rate=0.0, seed=0, device="cpu", batch_folds=1, **common):
    """(A, B) = (cnn, cnn-dropout with ``rate``), same training settings."""
    kw = dict(epochs=epochs, seed=seed, device=device, batch_folds=batch_folds, **common)
    return CNN(**kw), CNNDropout(rate=rate, **kw)


# ------------------------------------------------------------------ true error rates
def true_errors(n: int = DEFAULT_N // 2, epochs=DEFAULT_EPOCHS, rates: Sequence[float] = (0.0,),
                data_sets: int = TRUTH_DATA_SETS, seed: int = 0, eval_size: Optional[int] = None,
                device="cpu", progress=None) -> Dict[str, dict]:
    """True error rates as the paper computes them: for each of ``data_sets``
    data sets of size ``n`` (streams ``data_seq(seed + 10**6, d)``, apart from
    the simulations'), fit the network on the whole data set and measure its
    error on the population (all 60,000 images, or a fixed random subset of
    ``eval_size``); the true error is the mean over the data sets.

    Returns {"cnn": {...}, "cnn-dropout(rate=g)": {...}} with ``error`` (mean),
    ``se`` (its standard error over the data sets) and ``errors`` (each one).
    ``n`` defaults to the training size of a 5x2 fold of a default data set."""
    Xp, yp = mnist_population()
    if eval_size is not None:
        ev = np.random.default_rng(seed).choice(len(yp), int(eval_size), replace=False)
        Xp, yp = Xp[ev], yp[ev]
    models = {"cnn": CNN(epochs=epochs, seed=seed, device=device)}
    for g in rates:
        models[f"cnn-dropout(rate={g:g})"] = CNNDropout(rate=g, epochs=epochs, seed=seed,
                                                        device=device)
    errs = {k: [] for k in models}
    for d in range(int(data_sets)):
        ds = mnist(seeds.data_seq(seed + 10 ** 6, d), n)
        for k, m in models.items():
            t0 = time.perf_counter()
            m.fit(ds.X, ds.y)
            errs[k].append(float(np.mean(m.predict(Xp) != yp)))
            if progress:
                progress(f"data set {d}: {k} error {errs[k][-1]:.4f} "
                         f"({time.perf_counter() - t0:.1f} s)")
    out = {}
    for k, e in errs.items():
        e = np.asarray(e)
        out[k] = {"error": float(e.mean()), "se": float(e.std(ddof=1) / math.sqrt(len(e)))
                  if len(e) > 1 else float("nan"), "errors": e.tolist()}
    return {"n": n, "epochs": epochs, "data_sets": int(data_sets), "eval_size": len(yp),
            "seed": seed, "errors": out}


# ------------------------------------------------------------------ the simulation
def simulate_rep(r: int, n: int = DEFAULT_N, epochs=DEFAULT_EPOCHS, rate: float = 0.0,
                 tests=DEFAULT_TESTS, seed: int = 0, device="cpu", batch_folds=1) -> dict:
    """One repetition: data set ``data_seq(seed, r)``, each design's folds from
    ``design_seq(seed, r, design)`` (the engine's streams), both learners on
    all folds, the (F, 2, 2) tables per design; stat and p of each test
    (default profile).  Tables are kept, so any profile can be re-scored."""
    t0 = time.perf_counter()
    tests = resolve_tests(list(tests))
    d = mnist(seeds.data_seq(seed, r), n)
    designs = designs_for(tests)
    split_lists = [DESIGNS[k].splits(n, seeds.rng(seeds.design_seq(seed, r, k))) for k in designs]
    flat = [sp for sl in split_lists for sp in sl]
    a, b = learners(epochs, rate, seed, device, batch_folds)
    ta = time.perf_counter()
    pa = a.predict_splits(d.X, d.y, flat)
    tb = time.perf_counter()
    pb = b.predict_splits(d.X, d.y, flat)
    tc = time.perf_counter()
    T = tables_from_predictions(d.y, pa, pb, flat)
    tables, i = {}, 0
    for k, sl in zip(designs, split_lists):
        tables[k] = T[i:i + len(sl)]
        i += len(sl)
    opts = profile_options("default")
    results = {}
    for k in tests:
        ntr, nte = DESIGNS[TESTS[k].design].sizes(n)
        s, p = TESTS[k].batch(tables[TESTS[k].design][None], ntr, nte, **opts.get(k, {}))
        results[k] = (float(s[0]), float(p[0]))
    acc_a = float(1 - T[:, 0, :].sum() / T.sum())
    acc_b = float(1 - T[:, :, 0].sum() / T.sum())
    return {"rep": int(r), "n": n, "epochs": epochs, "rate": rate, "seed": seed,
            "tests": tests, "designs": designs, "fits_a": len(flat), "fits_b": len(flat),
            "seconds": time.perf_counter() - t0, "seconds_a": tb - ta, "seconds_b": tc - tb,
            "accuracy_a": acc_a, "accuracy_b": acc_b,
            "tables": {k: v.tolist() for k, v in tables.items()}, "results": results,
            "torch_threads": a.threads, "device": device}


def _rep_path(out, r):
    return os.path.join(out, f"rep{r:05d}.json")


def simulate_mnist(out: str, reps: int = PAPER_REPS, n: int = DEFAULT_N, epochs=DEFAULT_EPOCHS,
                   rate: float = 0.0, tests=DEFAULT_TESTS, seed: int = 0, device="cpu",
                   batch_folds=1, first_rep: int = 0, progress=print) -> dict:
    """Run repetitions ``first_rep .. reps - 1`` into folder ``out`` (one JSON
    per repetition, written atomically; repetitions already there are
    skipped, so an interrupted run resumes).  Returns :func:`summarize`."""
    os.makedirs(out, exist_ok=True)
    ident = {"n": n, "epochs": epochs, "rate": rate, "seed": seed,
             "tests": resolve_tests(list(tests))}
    cfg_path = os.path.join(out, "config.json")
    if os.path.exists(cfg_path):
        with open(cfg_path) as f:
            old = json.load(f)
        if {k: old.get(k) for k in ident} != ident:
            raise ValueError(f"{out} holds a run with another configuration {old}; "
                             f"use another --out for {ident}")
    else:
        with open(cfg_path, "w") as f:
            json.dump(ident, f, indent=1)
    for r in range(int(first_rep), int(reps)):
        if os.path.exists(_rep_path(out, r)):
            continue
        row = simulate_rep(r, n, epochs, rate, tests, seed, device, batch_folds)
        tmp = _rep_path(out, r) + ".tmp"
        with open(tmp, "w") as f:
            json.dump(row, f)
        os.replace(tmp, _rep_path(out, r))
        if progress:
            progress(f"rep {r}: {row['seconds']:.1f} s, accuracy A {row['accuracy_a']:.3f} "
                     f"B {row['accuracy_b']:.3f}, "
                     + ", ".join(f"{k} p={p:.3f}" for k, (_, p) in row["results"].items()))
    return summarize(out)


def load_rows(out: str) -> list:
    rows = []
    for name in sorted(os.listdir(out)):
        if name.startswith("rep") and name.endswith(".json"):
            with open(os.path.join(out, name)) as f:
                rows.append(json.load(f))
    return rows


def summarize(out: str, alpha: float = 0.05, profile: str = "default") -> dict:
    """Rejection rates at ``alpha`` of each test over the stored repetitions,
    re-scored from the stored tables under ``profile``, with the binomial Monte
    Carlo standard error sqrt(p (1 - p) / R)."""
    rows = load_rows(out)
    if not rows:
        raise ValueError(f"{out}: no repetitions stored")
    n = rows[0]["n"]
    tests = rows[0]["tests"]
    opts = profile_options(profile)
    rates = {}
    for k in tests:
        des = TESTS[k].design
        C = np.array([r["tables"][des] for r in rows], dtype=np.int64)
        ntr, nte = DESIGNS[des].sizes(n)
        _, p = TESTS[k].batch(C, ntr, nte, **opts.get(k, {}))
        rej = float(np.mean(p <= alpha))
        rates[k] = {"rate": rej, "se": math.sqrt(rej * (1 - rej) / len(rows)),
                    "R": len(rows)}
    sec = np.array([r["seconds"] for r in rows])
    fits = np.array([r["fits_a"] + r["fits_b"] for r in rows])
    return {"reps": len(rows), "n": n, "epochs": rows[0]["epochs"], "rate": rows[0]["rate"],
            "profile": profile, "alpha": alpha, "rejection": rates,
            "seconds_per_rep": float(sec.mean()), "seconds_per_fit": float((sec / fits).mean()),
            "accuracy_a": float(np.mean([r["accuracy_a"] for r in rows])),
            "accuracy_b": float(np.mean([r["accuracy_b"] for r in rows]))}


def markdown_table(out: str, alpha: float = 0.05, profile: str = "default") -> str:
    """The MNIST column of the paper's Table 5 beside this run's rejection
    rates, each with its binomial Monte Carlo standard error; for this run
    also the exact (Clopper-Pearson) 95% interval, which stays informative
    when few repetitions give a rate of 0."""
    from scipy.stats import binomtest

    paper = table5("mnist")
    res = summarize(out, alpha, profile)
    R = res["reps"]
    lines = [f"| test | paper (R = {PAPER_R['mnist']}) | here (R = {R}) | here, exact 95% CI |",
             "|---|---:|---:|---:|"]
    for k, v in res["rejection"].items():
        pv = paper.get(k)
        pcol = "-" if pv is None else f"{pv:.3f} ± {paper_se(pv, 'mnist'):.3f}"
        ci = binomtest(int(round(v["rate"] * R)), R).proportion_ci(0.95, method="exact")
        lines.append(f"| {TESTS[k].name} (`{k}`) | {pcol} | {v['rate']:.3f} ± {v['se']:.3f} "
                     f"| [{ci.low:.3f}, {ci.high:.3f}] |")
    return "\n".join(lines)


# ------------------------------------------------------------------ command line
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pybcv.mnist", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("simulate", help="run repetitions into a folder (resumable)")
    s.add_argument("--out", required=True)
    s.add_argument("--reps", type=int, default=PAPER_REPS)
    s.add_argument("--first-rep", type=int, default=0)
    s.add_argument("--n", type=int, default=DEFAULT_N)
    s.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS)
    s.add_argument("--rate", type=float, default=0.0)
    s.add_argument("--tests", default=",".join(DEFAULT_TESTS))
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--device", default="cpu")
    s.add_argument("--batch-folds", type=int, default=1)
    m = sub.add_parser("summary", help="rejection rates of a folder")
    m.add_argument("out")
    m.add_argument("--profile", default="default")
    m.add_argument("--markdown", action="store_true",
                   help="the paper's MNIST column beside this run, as a markdown table")
    t = sub.add_parser("truth", help="true error rates (train on data sets, test on the population)")
    t.add_argument("--n", type=int, default=DEFAULT_N // 2)
    t.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS)
    t.add_argument("--rates", default="0")
    t.add_argument("--data-sets", type=int, default=TRUTH_DATA_SETS)
    t.add_argument("--eval-size", type=int, default=None)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--device", default="cpu")
    t.add_argument("--json", default=None, help="also write the result here")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "simulate":
            res = simulate_mnist(args.out, args.reps, args.n, args.epochs, args.rate,
                                 args.tests.split(","), args.seed, args.device,
                                 args.batch_folds, args.first_rep,
                                 progress=lambda s: print(s, flush=True))
        elif args.cmd == "summary" and args.markdown:
            print(markdown_table(args.out, profile=args.profile))
            return 0
        elif args.cmd == "summary":
            res = summarize(args.out, profile=args.profile)
        else:
            res = true_errors(args.n, args.epochs, [float(x) for x in args.rates.split(",")],
                              args.data_sets, args.seed, args.eval_size, args.device,
                              progress=lambda s: print(s, flush=True))
            if args.json:
                with open(args.json, "w") as f:
                    json.dump(res, f, indent=1)
    except (ValueError, TypeError, FileNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
