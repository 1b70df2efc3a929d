"""Load the stored fold tables of the four Table-5 runs (read only).

Learner runs (letter, EXP6, simple) stored their fold tables in
``runs/<run>/run.npz`` (:mod:`pybcv.engine.archive`); the learner-free epsilon run stored none, so its
tables are recomputed exactly as the engine does (same seeds, same code path as
``pybcv.engine.repetition.run_learner_free``).

Returns ``{column: {design: (R, F, 2, 2) int array}}``; a table is
``[[n00, n01], [n10, n11]]`` (n01 = A wrong, B right).
"""
from __future__ import annotations

import os

import numpy as np

from pybcv.fold_tables import tables_batch
from pybcv.engine import RunConfig
from pybcv.engine.archive import read_run

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = os.path.join(HERE, "..", "runs")
COLUMNS = {"epsilon": "epsilon_default", "exp6": "exp6_typeI", "simple": "simple_r",
           "letter": "letter_typeI"}

# [YWSL] Table 5 (type-I errors, 1000 repetitions)
PAPER = {
    "mcnemar_kfold_naive": {"epsilon": 0.000, "exp6": 0.006, "simple": 0.020, "letter": 0.039},
    "mcnemar_ho": {"epsilon": 0.031, "exp6": 0.037, "simple": 0.029, "letter": 0.062},
    "mcnemar_5x2bcv": {"epsilon": 0.025, "exp6": 0.006, "simple": 0.005, "letter": 0.015},
    "kfold_t": {"epsilon": 0.043, "exp6": 0.076, "simple": 0.109, "letter": 0.142},
    "corrected_10x10cv_t": {"epsilon": 0.035, "exp6": 0.040, "simple": 0.063, "letter": 0.082},
    "corrected_rho_t": {"epsilon": 0.053, "exp6": 0.040, "simple": 0.047, "letter": 0.075},
    "rho_t": {"epsilon": 0.478, "exp6": 0.272, "simple": 0.312, "letter": 0.385},
}


def load(column: str):
    folder = os.path.join(RUNS, COLUMNS[column])
    run = read_run(folder)
    cfg, reps = RunConfig(**run["config"]), run["reps"]
    if not cfg.learner_free:
        return cfg, reps, run["tables"]
    codes = np.empty((len(reps), cfg.n), np.int64)
    for i, r in enumerate(reps):
        d = cfg.dataset_for(int(r))
        codes[i] = 2 * d.loss_a.astype(np.int64) + d.loss_b
    tabs = {u: tables_batch(des, codes, [cfg.unit_rng(int(r), u) for r in reps])
            for u, des in cfg.units()}
    return cfg, reps, tabs


def load_all():
    return {c: load(c) for c in COLUMNS}
