"""A less conservative effective-table factor for the 5x2 BCV McNemar test,
from the RQ1 distribution of (rho1, rho2), evaluated by re-scoring the stored
fold tables of every Table-5 and power-curve run (no refitting).

The paper's test uses C_e = t C_bar with t = 10 / (1 + rho1 + 8 rho2) and
rho1 = rho2 = 1/2, so t = 20/11 (the variance factor v = 1 + rho1 + 8 rho2 =
5.5).  RQ1 shows that v is far below 5.5 in most experiments.  Candidate:
t_q = 10 / Q_q(v), Q_q the q-quantile of v = 1 + rho1 + 8 rho2 over the RQ1
experiments (data set x pair) in rho.csv, for q = 0.90, 0.95, 0.99 and the
maximum.  Only v enters the statistic, so the candidates are passed as
rho1 = 0, rho2 = (v - 1)/8 to pybcv.stats.TESTS["mcnemar_5x2bcv"].batch.

Type-I columns: epsilon (both profiles), simple delta = 0, EXP6 omega = 0.29,
letter upsilon = 30.09, the lambda = 0 points of the power curves, and the
MNIST column (docs/replication/mnist, gamma = 0; its per-repetition JSON
files keep the fold tables).  A candidate passes where its rejection rate
<= alpha + 2 SE, SE = sqrt(alpha (1 - alpha) / R) with R that column's
repetitions, on every type-I column.

Run: .venv/bin/python docs/replication/rq1/calibrated_t.py
Writes docs/replication/rq1/calibrated_t.md.
"""
from __future__ import annotations

import glob
import json
import os
import sys
from dataclasses import asdict

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, ROOT)

from pybcv.fold_tables import tables_batch  # noqa: E402
from pybcv.engine import RunConfig  # noqa: E402
from pybcv import archive  # noqa: E402
from pybcv.engine.store import Store  # noqa: E402
from pybcv.partitions import DESIGNS  # noqa: E402
from pybcv.stats import TESTS  # noqa: E402
from pybcv.rq1 import _span  # noqa: E402

ALPHA = 0.05
KEY = "mcnemar_5x2bcv"
QUANTILES = (0.90, 0.95, 0.99, 1.0)
# lambda = 0 (H0) points of the power curves: mu_target = mu_A
H0_POINTS = {"exp6_power": "param=0.294", "letter_power": "param=29.5477",
             "simple_power": "param=0"}


def bcv_tables(folder):
    """(cfg, (R, 10, 2, 2) tables of the bcv5x2 design, stored (statistic,
    p-value) of the paper's test) of a stored run: a compact archive
    (``run.npz``, :mod:`pybcv.archive`) or a ``results.sqlite`` store."""
    if archive.is_run(folder):
        run = archive.read_run(folder)
        cfg, reps, tabs, res = RunConfig(**run["config"]), run["reps"], run["tables"], run["results"]
    else:
        st = Store(folder)
        try:
            cfg = RunConfig(**st.config())
            reps, res = st.results()
            tabs = {} if cfg.learner_free else st.tables()[1]
        finally:
            st.close()
    if cfg.learner_free:       # epsilon: recompute the tables from the seeds
        codes = np.stack([2 * cfg.dataset_for(r).loss_a.astype(np.int64)
                          + cfg.dataset_for(r).loss_b for r in reps])
        T = tables_batch("bcv5x2", codes, [cfg.unit_rng(int(r), "bcv5x2") for r in reps])
    else:
        T = tabs["bcv5x2"]
    return cfg, T, res.get(KEY)


def mnist_tables(folder):
    """(n, (R, 10, 2, 2) bcv5x2 tables, stored p-values of the paper's test)
    of an MNIST driver run (docs/replication/mnist/runs/*/repNNNNN.json)."""
    reps = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(folder, "rep*.json")))]
    T = np.array([r["tables"]["bcv5x2"] for r in reps], dtype=np.int64)
    return reps[0]["n"], float(reps[0]["rate"]), T, np.array([r["results"][KEY][1] for r in reps])


def reject(n, options, T, v):
    """p-values of the paper's test on the (R, 10, 2, 2) tables T of a run of
    n records with its options, t = 10/v."""
    opts = dict(options)
    opts.update(t=10.0 / v)           # t = 10/(1 + rho1 + 8 rho2) = 10/v
    ntr, nte = DESIGNS["bcv5x2"].sizes(n)
    _, p = TESTS[KEY].batch(T, ntr, nte, **opts)
    return p


def main():
    rho = pd.read_csv(os.path.join(HERE, "rho.csv")).dropna(subset=["rho1", "rho2"])
    v = 1 + rho["rho1"].to_numpy() + 8 * rho["rho2"].to_numpy()
    cands = [("paper t = 20/11", 5.5)] + [
        (f"t_{q:.2f} = 10/Q{int(q * 100)}(v)" if q < 1 else "t_max = 10/max(v)",
         float(np.quantile(v, q))) for q in QUANTILES]
    runs = sorted(glob.glob(os.path.join(ROOT, "docs/replication/runs/*/run.npz"))
                  + glob.glob(os.path.join(ROOT, "docs/replication/runs/*/*/run.npz"))
                  + glob.glob(os.path.join(ROOT, "docs/replication/runs/*/results.sqlite"))
                  + glob.glob(os.path.join(ROOT, "docs/replication/runs/*/*/results.sqlite")))
    def order(f):
        name = os.path.relpath(os.path.dirname(f), os.path.join(ROOT, "docs/replication/runs"))
        top, _, point = name.partition("/param=")
        return (top, float(point) if point else -1.0)

    rows = []
    for f in sorted(runs, key=order):
        folder = os.path.dirname(f)
        name = os.path.relpath(folder, os.path.join(ROOT, "docs/replication/runs"))
        cfg, T, stored = bcv_tables(folder)
        top = name.split("/")[0]
        # the top-level runs are Table 5's type-I columns; plus the H0 points
        typeI = "/" not in name or (top in H0_POINTS and name.endswith(H0_POINTS[top]))
        row = {"run": name, "type_I": typeI, "reps": len(T)}
        for label, vv in cands:
            p = reject(cfg.n, cfg.options().get(KEY, {}), T, vv)
            if label.startswith("paper") and stored is not None:
                # the re-scoring reproduces the stored test exactly
                assert np.allclose(p, stored[1], equal_nan=True), name
            row[label] = float(np.mean(p < ALPHA))
        rows.append(row)
    for folder in sorted(glob.glob(os.path.join(ROOT, "docs/replication/mnist/runs/*/"))):
        n, rate, T, stored = mnist_tables(folder)
        row = {"run": "mnist/" + os.path.basename(folder.rstrip("/")), "type_I": rate == 0.0,
               "reps": len(T)}
        for label, vv in cands:
            p = reject(n, {}, T, vv)
            if label.startswith("paper"):
                assert np.allclose(p, stored), folder
            row[label] = float(np.mean(p < ALPHA))
        rows.append(row)
    df = pd.DataFrame(rows)
    se = np.sqrt(ALPHA * (1 - ALPHA) / df["reps"].max())
    df["limit"] = ALPHA + 2 * np.sqrt(ALPHA * (1 - ALPHA) / df["reps"])
    verdict = {}
    for label, _ in cands:
        ti = df[df["type_I"]]
        worst = ti[label].max()
        verdict[label] = (worst, bool((ti[label] <= ti["limit"]).all()))
    lines = ["| candidate | v = 1 + rho1 + 8 rho2 | t = 10/v | worst type-I error | "
             "<= alpha + 2 SE on every type-I column |", "|---|---:|---:|---:|---|"]
    for label, vv in cands:
        w, ok = verdict[label]
        lines.append(f"| {label} | {vv:.3f} | {10 / vv:.4f} | {w:.3f} | {'yes' if ok else 'NO'} |")
    head = "\n".join(lines)
    cols = ["run", "type_I", "reps", "alpha + 2 SE"] + [c for c, _ in cands]
    tab = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, r in df.iterrows():
        tab.append("| " + " | ".join([r["run"], "yes" if r["type_I"] else "", str(r["reps"])]
                                     + [f"{r['limit']:.4f}" if r["type_I"] else ""]
                                     + [f"{r[c]:.3f}" for c, _ in cands]) + " |")
    passing = [(lab, vv) for lab, vv in cands[1:] if verdict[lab][1]]
    failing = [lab for lab, _ in cands[1:] if not verdict[lab][1]]
    q95 = [c for c in cands if c[0].startswith("t_0.95")][0]
    if verdict[q95[0]][1]:
        proposal = (f"Proposal: a named option `t = 10/Q95(v)` = {10 / q95[1]:.4f} "
                    f"(v = {q95[1]:.3f}), beside the paper's default 20/11 = 1.8182: its "
                    f"type-I error is at most {verdict[q95[0]][0]:.3f} on every type-I column, each "
                    f"within its alpha + 2 SE (0.0638 at R = 1000, 0.0936 at R = 100).")
    else:
        proposal = (f"t = 10/Q95(v) does NOT keep the type-I error within MC error of alpha "
                    f"on every column (worst {verdict[q95[0]][0]:.3f}); no option is proposed.")
    proposal += (" Candidates within the limit on every type-I column: "
                 + (", ".join(lab for lab, _ in passing) or "none") + "."
                 + (" Outside it: " + ", ".join(failing) + "." if failing else ""))
    md = f"""# A calibrated t for the 5x2 BCV McNemar test (issue 13, item 3)

Generated by `.venv/bin/python docs/replication/rq1/calibrated_t.py` from
`rho.csv` ({len(rho)} RQ1 experiments, {_span(rho['reps'])}
repetitions each) and the stored fold tables of every run under
`docs/replication/runs` (re-scored, nothing refitted; epsilon's tables are
recomputed from its seeds), plus the MNIST run of `docs/replication/mnist`.
alpha = {ALPHA}; rejection rates over {int(df['reps'].max())} repetitions
(MC SE at alpha: {se:.4f}), MNIST over {int(df['reps'].min())}.

The statistic depends on (rho1, rho2) only through v = 1 + rho1 + 8 rho2 and
t = 10/v.  Candidates t_q = 10/Q_q(v): the q-quantile of v over the RQ1
experiments, i.e. a t that is at least as conservative as the per-experiment
correlations demand in a fraction q of the experiments.

{head}

{proposal}

Caveats: the quantiles come from RQ1's data sets and learners (300 records,
21 UCI sets, seven learners) and from rho estimates (each from its
experiment's repetitions); they bound the variance factor of *those* experiments, and
the type-I columns here are the paper's five (four at R = 1000 plus the
reduced MNIST column at R = 100) and the lambda = 0 points,
not every possible comparison.  The paper's t stays the default.

## Rejection rates per run (bcv5x2 McNemar, alpha = {ALPHA})

{chr(10).join(tab)}
"""
    with open(os.path.join(HERE, "calibrated_t.md"), "w") as fh:
        fh.write(md)
    with open(os.path.join(HERE, "calibrated_t.json"), "w") as fh:
        json.dump({"candidates": [{"label": lab, "v": vv, "t": 10 / vv,
                                   "worst_type_I": verdict[lab][0], "passes": verdict[lab][1]}
                                  for lab, vv in cands],
                   "limits": {r["run"]: r["limit"] for _, r in df.iterrows() if r["type_I"]}}, fh, indent=1)
    print(head)


if __name__ == "__main__":
    main()
