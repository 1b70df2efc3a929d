"""Discrepancy (b), experiment: EXP6 with the Python learners (J48 fallback =
CART/entropy, FNN twin of the R code) at n = 300 (training 270 in 10-fold CV,
error ~9.3 %) and n = 150 (training 135, error ~13 %, about the paper's
12.27 %), each at its own H0 point (omega = 0.30; truth_exp6_python_train270.json
gives 0.304, ..._train135.json 0.2985).  Prints the four t-tests' rates and the
structure of the 10x10 fold differences, next to our R-learner run and the paper.

The runs were made with (one process each, ~3 min of CPU):
  pybcv truth --dataset exp6 --grid 0.27,0.31,0.35 --sets 200 --train-n 270 --seed 77 \
      --backend python --out truth_exp6_python_train270.json      (and --train-n 135)
  pybcv simulate --dataset exp6 --param 0.30 --n 300 --tests rho_t,kfold_t,corrected_rho_t,corrected_10x10cv_t \
      --reps 1000 --seed 301 --backend python --out sim_exp6_python_n300 --jobs 1
  pybcv simulate --dataset exp6 --param 0.30 --n 150 --tests (same) --reps 1000 --seed 302 \
      --backend python --out sim_exp6_python_n150 --jobs 1
  pybcv archive convert --delete-sqlite sim_exp6_python_n300 sim_exp6_python_n150
(the last step keeps each run as a compact run.npz, see ../README.md).
Run: ../../../.venv/bin/python exp6_training_size.py
"""
import numpy as np

import _tables
from corrected_10x10_variants import structure, t_rate
from naive_mcnemar_variants import sum_chi2
from pybcv.engine.archive import read_run
from pybcv.partitions import DESIGNS
from pybcv.stats import TESTS

KEYS = ("rho_t", "kfold_t", "corrected_rho_t", "corrected_10x10cv_t")


def summarize(name, tabs, n):
    out = {}
    for k in KEYS:
        ntr, nte = DESIGNS[TESTS[k].design].sizes(n)
        out[k] = np.mean(TESTS[k].batch(tabs[TESTS[k].design], ntr, nte)[1] < 0.05)
    C = tabs["cv10x10"].astype(float)
    b, c = C[..., 0, 1], C[..., 1, 0]
    n2 = C.sum((-1, -2))
    x = ((b - c) / n2).reshape(-1, 10, 10)
    st = structure(x)
    eA = ((C[..., 0, 0] + C[..., 0, 1]).sum(-1) / n2.sum(-1)).mean()
    C10 = tabs["cv10"]
    naive = np.mean(sum_chi2(C10[..., 0, 1], C10[..., 1, 0]) < 0.05)
    naive0 = np.mean(sum_chi2(C10[..., 0, 1], C10[..., 1, 0], 0.0, empty="zero") < 0.05)
    print(f"{name:30} " + " ".join(f"{out[k]:8.3f}" for k in KEYS) +
          f" | eA {eA:.3f} disc/fold {(b + c).mean():5.2f} rho {st['rho']:.3f} ratio {st['ratio']:.2f}"
          f" | naive McN corr {naive:.3f} uncorr {naive0:.3f}")


print(f"{'run':30} " + " ".join(f"{k[:8]:>8}" for k in KEYS))
print(f"{'PAPER (EXP6)':30} " + " ".join(f"{_tables.PAPER[k]['exp6']:8.3f}" for k in KEYS))
cfg, reps, tabs = _tables.load("exp6")
summarize("ours, R learners, n = 300", tabs, 300)
for n in (300, 150):
    tabs = read_run(f"sim_exp6_python_n{n}")["tables"]
    summarize(f"Python learners, n = {n}", tabs, n)
