"""True error rates (the paper's procedure) and the tuning of the FNN
parameter: train a learner on many data sets of size ``n_train`` drawn from
the population, score each model on the whole population (EXP6: the 22,801
grid points; letter: the 20,000 records), and average.

The FNN parameter that makes B's true error equal a target is found by
linear interpolation on the (monotone) error curve over a grid of values,
every value scored on the same training sets (common random numbers).
Power-curve targets: mu_target = mu_A - lambda (mu_A - mu_B(p_end)),
lambda = 0, 0.1, ..., 1.

Training sets use the streams ``SeedSequence(seed, spawn_key=(s, 9))``,
apart from the simulation's.
"""
from __future__ import annotations

import math
from typing import Dict, Optional, Sequence

import numpy as np
from tqdm import tqdm

from .. import datasets as _ds
from ..experiments import EXPERIMENTS
from ..pipeline import learner_from_spec

# data set -> (learner A spec, name of B, B's parameter, parameter value at lambda = 1),
# read from the experiments' records (those whose power curve is set by lambda;
# MNIST's dropout rates are a fixed grid)
TUNING = {k: (dict(e.learner_a), e.learner_b["name"], e.varied, e.value_at_lambda_1)
          for k, e in EXPERIMENTS.items() if e.varies == "learner_b" and e.lambdas}


def population_errors(dataset: str, learners: Dict[str, dict], n_sets: int = 100,
                      n_train: Optional[int] = None, seed: int = 0, backend: str = "auto",
                      progress: bool = False, backends: Optional[Dict[str, str]] = None
                      ) -> Dict[str, np.ndarray]:
    """{label: errors[n_sets]}: each learner trained on the same n_sets data
    sets of size n_train and scored on the whole population."""
    Xp, yp = _ds.population(dataset)
    n_train = n_train or EXPERIMENTS[dataset].n
    out = {k: np.empty(n_sets) for k in learners}
    for s in tqdm(range(n_sets), disable=not progress, unit="training set", desc=dataset):
        # training set s from its own stream (s, 9), apart from the simulations'
        d = _ds.make_dataset(dataset, np.random.SeedSequence(int(seed), spawn_key=(int(s), 9)),
                             n=n_train)
        X = np.vstack([np.asarray(d.X, float), Xp])
        y = np.concatenate([d.y, yp])
        split = [(np.arange(n_train), np.arange(n_train, n_train + len(yp)))]
        for label, spec in learners.items():
            be = (backends or {}).get(label, backend)
            pred = learner_from_spec(spec, be).predict_splits(X, y, split)[0]
            out[label][s] = float(np.mean(pred != yp))
    return out


def solve(values: Sequence[float], errors: Sequence[float], target: float) -> float:
    """Parameter value where the piecewise-linear error curve equals target
    (nan when the target lies outside the curve's range)."""
    v = np.asarray(values, float)
    e = np.asarray(errors, float)
    for i in range(len(v) - 1):
        lo, hi = sorted((e[i], e[i + 1]))
        if lo <= target <= hi:
            if e[i + 1] == e[i]:
                return float(v[i])
            return float(v[i] + (target - e[i]) * (v[i + 1] - v[i]) / (e[i + 1] - e[i]))
    return float("nan")


def tune(dataset: str, grid: Sequence[float], n_sets: int = 100, n_train: Optional[int] = None,
         seed: int = 0, backend: str = "auto", lambdas: Sequence[float] = None,
         progress: bool = False, backend_b: Optional[str] = None) -> dict:
    """True errors of A and of B over a grid of B's parameter, the parameter
    of H0 (equal errors) and of every power-curve target."""
    a_spec, b_name, pname, p_end = TUNING[dataset]
    grid = sorted(set(float(g) for g in grid) | {float(p_end)})
    learners = {"A": a_spec, **{f"B@{g:g}": {"name": b_name, pname: g} for g in grid}}
    bb = {k: backend_b for k in learners if k != "A"} if backend_b else None
    errs = population_errors(dataset, learners, n_sets, n_train, seed, backend, progress, bb)
    mu_a = float(errs["A"].mean())
    curve = [float(errs[f"B@{g:g}"].mean()) for g in grid]
    se = lambda a: float(a.std(ddof=1) / math.sqrt(len(a))) if len(a) > 1 else float("nan")  # noqa: E731
    mu_end = curve[grid.index(float(p_end))]
    lambdas = lambdas if lambdas is not None else list(EXPERIMENTS[dataset].lambdas)
    targets = []
    for lam in lambdas:
        t = mu_a - lam * (mu_a - mu_end)
        targets.append({"lambda": lam, "mu_target": t, pname: solve(grid, curve, t)})
    return {"dataset": dataset, "n_sets": n_sets, "n_train": n_train or EXPERIMENTS[dataset].n,
            "seed": seed, "backend": backend, "backend_b": backend_b or backend, "learner_a": a_spec, "learner_b": b_name,
            "param": pname, "mu_a": mu_a, "mu_a_se": se(errs["A"]),
            "grid": grid, "mu_b": curve, "mu_b_se": [se(errs[f"B@{g:g}"]) for g in grid],
            "diff_se": [se(errs[f"B@{g:g}"] - errs["A"]) for g in grid],
            "param_h0": solve(grid, curve, mu_a), "targets": targets}
