"""
A power curve
=============

How often does the 5x2 BCV McNemar test reject when learner A really is
better, and how often when it is not?  Data of the paper's *simple*
experiment, :math:`y \\sim B(1, 1/2)`, :math:`x \\sim N(\\delta y, 1)`,
logistic regression (A) against always predicting the majority class (B):
at :math:`\\delta = 0` the two have the same expected error, and A's
advantage grows with :math:`\\delta`.

A small Monte Carlo run here (40 data sets of 200 records per point, fitted
with scikit-learn on pybcv's folds) is drawn beside the replication's
stored curve (1000 data sets of 1000 records per point,
``docs/replication/runs/simple_power/power.csv``).
"""
import os

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression

from pybcv import compare_predictions
from pybcv.partitions import BlockRegularizedMx2CV

rng = np.random.default_rng(0)
deltas = [0.0, 0.2, 0.4, 0.6, 0.8]
reps, n = 40, 200
rates = []
for delta in deltas:
    rejected = 0
    for r in range(reps):
        y = (rng.random(n) < 0.5).astype(int)
        X = (rng.standard_normal(n) + delta * y).reshape(-1, 1)
        splits = list(BlockRegularizedMx2CV(m=5, random_state=r).split(X, y))
        pa = [LogisticRegression().fit(X[tr], y[tr]).predict(X[te]) for tr, te in splits]
        pb = [DummyClassifier().fit(X[tr], y[tr]).predict(X[te]) for tr, te in splits]
        res = compare_predictions(y, pa, pb, splits=splits, tests=["mcnemar_5x2bcv"])
        rejected += res.results["mcnemar_5x2bcv"].pvalue < 0.05
    rates.append(rejected / reps)
print(dict(zip(deltas, rates)))

# %%
# The stored replication curve (1000 repetitions per point, n = 1000).
here = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.getcwd()
stored = os.path.join(here, "..", "replication", "runs", "simple_power", "power.csv")
fig, ax = plt.subplots(figsize=(6.4, 4))
if os.path.exists(stored):
    p = pd.read_csv(stored)
    for key, style in (("mcnemar_5x2bcv", "-"), ("rho_t", ":"), ("kfold_t", "--")):
        q = p[p.test == key].sort_values("param_value")
        ax.plot(q.param_value, q.rejection_rate, style, label=f"{q.name.iloc[0]} (replication, n = 1000)")
ax.plot(deltas, rates, "o-", color="black", label=f"5x2 BCV McNemar (here, n = {n}, {reps} sets)")
ax.axhline(0.05, color="grey", lw=0.8)
ax.set_xlabel(r"$\delta$ (A's advantage)")
ax.set_ylabel("rejection rate at alpha = 0.05")
ax.legend(fontsize=8)
fig.tight_layout()
plt.show()
