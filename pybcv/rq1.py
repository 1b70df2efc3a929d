"""RQ1 of the paper: how are rho1 and rho2 distributed?  The estimator and its report.

The experiment ([YWSL] section "Experiments for RQ1") is the engine's
experiment record ``rq1`` (:data:`pybcv.experiments.EXPERIMENTS`): on each
UCI data set of :data:`pybcv.experiments.RQ1_DATASETS` (data parameter
``file``), 300 records are drawn without replacement
(:func:`pybcv.datasets.uci_sample`), a 5x2 BCV is drawn, the seven learners
(majority, mean, RWeka Logistic, SMO, JRip, J48, kknn with k = 5 and the
triangular kernel) are each fitted ONCE per repetition (10 fits) and all 21
pairs are counted and scored (:func:`pybcv.engine.repetition.run_repetition`).
``pybcv rq1 run --out DIR`` runs (or resumes) one engine run per data set in
``DIR/runs/<dataset>`` (``results.sqlite`` while it runs, ``run.npz`` once
archived with ``pybcv archive convert``); this module reads those runs.

Estimator (written out; the paper gives only the definitions).  The paper's
Theorem on Var[E_5x2] (section "Contingency tables on 5x2 BCV") defines, for
the HO estimators E_k^(j) = 2 (n01 + n10)_k^(j) / n of the disagreement
probability e on the ten folds (j = 1..5 partitions, k = 1, 2 halves),

    sigma^2 = Var[E_k^(j)],
    rho1 = Cov[E_1^(j), E_2^(j)] / sigma^2             (same partition j),
    rho2 = Cov[E_k^(j), E_k'^(j')] / sigma^2  (j != j'; different partitions).

With R repetitions, E is an R x 10 matrix (columns in the design's fold order
(1,1), (1,2), ..., (5,2)); S = its sample covariance matrix (ddof = 1).  All
covariances of the same kind are pooled:

    sigma2_hat = mean of the 10 variances S[f, f],
    rho1_hat   = mean of the 5 covariances S[(j,1), (j,2)] / sigma2_hat,
    rho2_hat   = mean of the 40 covariances S[(j,k), (j',k')], j < j' / sigma2_hat.

The same estimator applied to the fold-level error-rate differences
d_k^(j) = (n01 - n10)_k^(j) / (n/2) gives ``rho1_diff``, ``rho2_diff`` (the
correlations that the t-test family's variance corrections use), reported
beside the paper's.
"""
from __future__ import annotations

import json
import os
from typing import Dict

import numpy as np

from ._deferred import deferred
from ._validate import csv_safe
from .datasets import check_name
from .engine import archive
from .engine.config import RunConfig
from .engine.store import Store

pd = deferred("pandas")     # imported on first use: 0.2 s of start-up (_deferred.py)

#: where ``pybcv rq1 run --out DIR`` keeps its runs: ``DIR/runs/<dataset>``
RUNS = "runs"


def run_folder(out: str, dataset: str) -> str:
    """The engine run of ``dataset`` under ``out``: ``<out>/runs/<dataset>``."""
    return os.path.join(out, RUNS, check_name(dataset, "--datasets"))


def pair_tables(out: str) -> Dict[str, dict]:
    """{dataset: run} of the RQ1 runs under ``out/runs`` (a ``results.sqlite``
    or an archived ``run.npz`` each; data sets sorted), run = {``config``
    (RunConfig), ``reps``, ``tables`` (R, pairs, F, 2, 2) int64 in pair order,
    ``pairs`` [(learner A, learner B)], ``failed`` (repetitions whose learner
    failed)}.  Reads only; a damaged archive or store is an error naming it."""
    root = os.path.join(out, RUNS)
    folders = sorted(os.listdir(root)) if os.path.isdir(root) else []
    data = {}
    for name in folders:
        folder = os.path.join(root, name)
        sqlite = os.path.exists(os.path.join(folder, archive.SQLITE_NAME))
        if not (sqlite or archive.is_run(folder)):
            continue
        check_name(name, f"run folder {folder}")
        st = Store(folder, readonly=True) if sqlite else archive.ArchivedStore(folder)
        try:
            config, (reps, tabs), failed = st.config(), st.tables(), st.failures()
        finally:
            st.close()
        cfg = RunConfig(**(config or {}))
        if not cfg.learners or cfg.data_params.get("file") != name:
            raise ValueError(f"{folder}: not the RQ1 run of data set {name!r}")
        unit = cfg.units()[0][0]
        pairs = cfg.pairs()
        T = (np.stack([tabs[f"{unit}@{p}"] for _, _, p in pairs], axis=1).astype(np.int64)
             if len(reps) else np.zeros((0, len(pairs), 0, 2, 2), np.int64))
        data[name] = {"config": cfg, "reps": np.asarray(reps), "tables": T, "failed": len(failed),
                      "pairs": [(cfg.learners[i]["name"], cfg.learners[j]["name"])
                                for i, j, _ in pairs]}
    if not data:
        raise ValueError(f"no RQ1 run in {root} (results.sqlite or run.npz per data set): "
                         f"nothing to report")
    return data


# ----------------------------------------------------------------- estimator
def rho_estimates(V: np.ndarray):
    """(rho1, rho2, sigma2) from an (R, 10) matrix of fold-level estimators
    in the 5x2 BCV fold order (1,1), (1,2), ..., (5,2); pooled covariances
    over the repetitions (see the module docstring).

    Worked example: three repetitions where the two halves of a partition
    move together and different partitions do not co-vary at all.

    >>> V = np.array([[0.1, 0.1] * 5, [0.2, 0.2] * 5, [0.3, 0.3] * 5])
    >>> V[:, 2:] = np.array([[0.1, 0.1, 0.3, 0.3, 0.2, 0.2, 0.2, 0.2],
    ...                      [0.2, 0.2, 0.1, 0.1, 0.3, 0.3, 0.1, 0.1],
    ...                      [0.3, 0.3, 0.2, 0.2, 0.1, 0.1, 0.3, 0.3]])
    >>> r1, r2, s2 = rho_estimates(V)
    >>> round(r1, 6), round(s2, 6)
    (1.0, 0.01)

    rho2 pools the 40 cross-partition covariances, here
    (4 x 0.01 [(1,2)(1,4)] + ... ) / 40 / sigma2:

    >>> S = np.cov(V, rowvar=False)
    >>> cross = [S[a, b] for a in range(10) for b in range(a + 1, 10) if a // 2 != b // 2]
    >>> bool(np.isclose(r2, np.mean(cross) / np.mean(np.diag(S))))
    True
    """
    V = np.asarray(V, dtype=float)
    if V.ndim != 2 or V.shape[1] != 10:
        raise ValueError(f"expected an (R, 10) matrix of 5x2 fold estimates, got shape {V.shape}")
    if V.shape[0] < 2:
        return float("nan"), float("nan"), float("nan")
    S = np.cov(V, rowvar=False, ddof=1)
    s2 = float(np.mean(np.diag(S)))
    if not s2 > 0:
        return float("nan"), float("nan"), s2
    within = np.mean([S[2 * j, 2 * j + 1] for j in range(5)])
    cross = np.mean([S[a, b] for a in range(10) for b in range(a + 1, 10) if a // 2 != b // 2])
    return float(within / s2), float(cross / s2), s2


def rho_table(out: str, datasets=None):
    """One row per (data set, pair): rho1, rho2 (the paper's
    disagreement estimators), rho1_diff, rho2_diff (error-rate differences),
    mean disagreement and error rates, reps used, failed reps.  Reads the
    runs under ``out`` (:func:`pair_tables`)."""
    data = pair_tables(out)
    rows = []
    for d in data if datasets is None else datasets:
        run = data[d]
        if not len(run["reps"]):
            continue
        T = run["tables"]                        # (R, 21, 10, 2, 2)
        nte = T[0, 0].sum(axis=(1, 2)).astype(float)
        n01, n10 = T[..., 0, 1], T[..., 1, 0]
        E = (n01 + n10) / nte                    # (R, 21, 10)
        D = (n01 - n10) / nte
        errA = (T[..., 0, 0] + T[..., 0, 1]) / nte
        errB = (T[..., 0, 0] + T[..., 1, 0]) / nte
        for p, (a, b) in enumerate(run["pairs"]):
            r1, r2, s2 = rho_estimates(E[:, p, :])
            d1, d2, _ = rho_estimates(D[:, p, :])
            rows.append({"dataset": d, "learner_a": a, "learner_b": b,
                         "rho1": r1, "rho2": r2, "reps": len(run["reps"]),
                         "rho1_diff": d1, "rho2_diff": d2, "sigma2": s2,
                         "mean_disagreement": float(E[:, p].mean()),
                         "error_a": float(errA[:, p].mean()), "error_b": float(errB[:, p].mean()),
                         "failed_reps": run["failed"]})
    return pd.DataFrame(rows)


def _span(reps) -> str:
    """"1000" or "470-475": the repetition counts of the experiments."""
    lo, hi = int(reps.min()), int(reps.max())
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _n_pairs(df) -> int:
    return int(df.groupby(["learner_a", "learner_b"]).ngroups)


def scatter(df, path: str):
    """(rho1, rho2) of every experiment with the bound rho2 = (1 + rho1)/2."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ok = df.dropna(subset=["rho1", "rho2"])
    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.scatter(ok["rho1"], ok["rho2"], s=9, alpha=0.6, label=f"{len(ok)} experiments")
    x = np.linspace(-1, 1, 3)
    ax.plot(x, (1 + x) / 2, "r-", lw=1.5, label=r"bound $\rho_2=(1+\rho_1)/2$")
    ax.plot(x, x, color="grey", ls=":", lw=1, label=r"$\rho_2=\rho_1$")
    ax.axhline(0.5, color="k", ls="--", lw=0.8)
    ax.axvline(0.5, color="k", ls="--", lw=0.8, label=r"$\rho_1=\rho_2=1/2$ (paper's t)")
    ax.set_xlim(min(-0.6, float(ok["rho1"].min()) - 0.05) if len(ok) else -0.6, 1.0)
    ax.set_ylim(min(-0.3, float(ok["rho2"].min()) - 0.05) if len(ok) else -0.3, 1.0)
    ax.set_xlabel(r"$\rho_1$")
    ax.set_ylabel(r"$\rho_2$")
    reps = _span(ok["reps"]) if len(ok) else "0"
    ax.set_title(f"RQ1: {ok['dataset'].nunique()} data sets x {_n_pairs(ok)} pairs, {reps} reps")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def observations(df) -> dict:
    """The paper's three observations, as fractions of the experiments."""
    ok = df.dropna(subset=["rho1", "rho2"])
    n = len(ok)
    if n == 0:
        return {"experiments": 0}
    r1, r2 = ok["rho1"].to_numpy(), ok["rho2"].to_numpy()
    margin = (1 + r1) / 2 - r2
    return {"experiments": n, "undefined": int(len(df) - n),
            "rho1_median": float(np.median(r1)), "rho2_median": float(np.median(r2)),
            "frac_rho1_le_half": float(np.mean(r1 <= 0.5)),
            "frac_rho2_in_0_half": float(np.mean((r2 >= 0) & (r2 <= 0.5))),
            "frac_both_bounds": float(np.mean((r1 <= 0.5) & (r2 >= 0) & (r2 <= 0.5))),
            "frac_below_theorem_bound": float(np.mean(margin > 0)),
            "min_margin_to_bound": float(margin.min()),
            "median_margin_to_bound": float(np.median(margin)),
            "frac_rho2_ge_rho1": float(np.mean(r2 >= r1)),
            "rho1_q95": float(np.quantile(r1, 0.95)), "rho2_q95": float(np.quantile(r2, 0.95))}


def summary_markdown(df, obs) -> str:
    """The paper's three observations beside ours, and medians per pair."""
    if not obs.get("experiments"):
        return "# RQ1 summary\n\nNo experiment has two finished repetitions yet.\n"
    pct = lambda x: f"{100 * x:.1f} %"  # noqa: E731
    reps = _span(df["reps"])
    by_pair = df.groupby(["learner_a", "learner_b"], sort=False)[["rho1", "rho2"]].median()
    pairs = "\n".join(f"| {a} | {b} | {r['rho1']:.3f} | {r['rho2']:.3f} |"
                      for (a, b), r in by_pair.iterrows())
    return f"""# RQ1 summary (written by `pybcv rq1 report`)

{obs['experiments']} experiments ({df['dataset'].nunique()} data sets x {_n_pairs(df)} pairs), {reps}
repetitions each ({obs['undefined']} undefined: no variation of the
disagreement rate).  Medians: rho1 {obs['rho1_median']:.3f}, rho2 {obs['rho2_median']:.3f};
95 % quantiles: rho1 {obs['rho1_q95']:.3f}, rho2 {obs['rho2_q95']:.3f}.

| the paper's observation | ours |
|---|---|
| (1) most rho1, rho2 below 0.5; rho1 around 0, rho2 > 0; the bounds rho1 <= 1/2, 0 <= rho2 <= 1/2 hold with high probability | rho1 <= 1/2 in {pct(obs['frac_rho1_le_half'])}, 0 <= rho2 <= 1/2 in {pct(obs['frac_rho2_in_0_half'])}, both in {pct(obs['frac_both_bounds'])} of the experiments; median rho1 {obs['rho1_median']:.3f}, median rho2 {obs['rho2_median']:.3f} |
| (2) all points below rho2 = (1 + rho1)/2, with a wide margin (the bound is loose) | {pct(obs['frac_below_theorem_bound'])} below the bound; margin (1 + rho1)/2 - rho2: median {obs['median_margin_to_bound']:.3f}, smallest {obs['min_margin_to_bound']:.3f} |
| (3) the majority satisfy rho2 >= rho1 | rho2 >= rho1 in {pct(obs['frac_rho2_ge_rho1'])} |

A correlation estimated from R repetitions has a sampling SE of about
(1 - rho^2)/sqrt(R) for one pair of folds (0.1 at R = 100), less after
pooling over the 5 (rho1) and 40 (rho2) pairs of folds; fractions near a
boundary therefore still move with R.

## Medians per pair (over the data sets)

| learner A | learner B | median rho1 | median rho2 |
|---|---|---:|---:|
{pairs}
"""


def report(out: str, dest: str):
    """Write rho.csv, rho_scatter.png, observations.json and summary.md into ``dest``."""
    df = rho_table(out)
    if df.empty:
        raise ValueError(f"{out}: no data set has a finished repetition yet; nothing to report")
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, "rho.csv"), "w", newline="") as fh:   # a handle, never a URL
        csv_safe(df).to_csv(fh, index=False, float_format="%.6g")
    scatter(df, os.path.join(dest, "rho_scatter.png"))
    obs = observations(df)
    with open(os.path.join(dest, "observations.json"), "w") as fh:
        json.dump(obs, fh, indent=1)
    with open(os.path.join(dest, "summary.md"), "w") as fh:
        fh.write(summary_markdown(df, obs))
    return df, obs
