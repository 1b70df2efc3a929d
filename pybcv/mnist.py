"""MNIST, the fifth data set of [YWSL] (section "Real-world data set 2"):
its true error rates and the Table-5 column of a stored run.

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

The data set is :func:`pybcv.datasets.mnist`; the simulation is the
engine's (the ``mnist`` record of :mod:`pybcv.experiments`)::

    pybcv simulate --dataset mnist --a cnn:epochs=5 --b cnn-dropout:rate=0,epochs=5 \\
        --tests mcnemar_5x2bcv,calibrated_f_5x2bcv,mcnemar_ho,proportion_z --reps 40 --out DIR
    pybcv report DIR
    pybcv truth --dataset mnist --train-n 500 --sets 3
"""
from __future__ import annotations

import math
import time
from typing import Dict, Optional, Sequence

import numpy as np

from . import seeds
from ._deferred import deferred
from .datasets import MNIST_NPZ, POPULATION_SIZE, mnist, mnist_population, population_raw, scale  # noqa: F401
from .engine import load_result
from .learners.cnn import CNN, CNNDropout
from .paper import PAPER_REPS as PAPER_R, paper_se, table5
from .stats import TESTS

_st = deferred("scipy.stats")      # 0.25 s of start-up: only the report's intervals use it

DEFAULT_N = 1000          # reduced from the paper's 10,000
DEFAULT_EPOCHS = 5        # reduced from the paper's 250
TRUTH_DATA_SETS = 3       # reduced from the paper's 100


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


def markdown_table(out: str, alpha: float = 0.05, profile: str = "default") -> str:
    """The MNIST column of the paper's Table 5 beside the run stored in
    ``out`` (a ``pybcv simulate --dataset mnist`` folder or its archive),
    re-scored under ``profile``: each rate with its binomial Monte Carlo
    standard error sqrt(p (1 - p) / R) and the exact (Clopper-Pearson) 95%
    interval, which stays informative when few repetitions give a rate of 0."""
    paper = table5("mnist")
    res = load_result(out, profile=profile)
    R = len(res.reps)
    if R == 0:
        raise ValueError(f"{out}: no finished repetition")
    lines = [f"| test | paper (R = {PAPER_R['mnist']}) | here (R = {R}) | here, exact 95% CI |",
             "|---|---:|---:|---:|"]
    for k in res.config.tests:
        rejected = int(np.sum(res.pvalue[k] < alpha))
        rate = rejected / R
        pv = paper.get(k)
        pcol = "-" if pv is None else f"{pv:.3f} ± {paper_se(pv, 'mnist'):.3f}"
        ci = _st.binomtest(rejected, R).proportion_ci(0.95, method="exact")
        lines.append(f"| {TESTS[k].name} (`{k}`) | {pcol} | {rate:.3f} ± "
                     f"{math.sqrt(rate * (1 - rate) / R):.3f} | [{ci.low:.3f}, {ci.high:.3f}] |")
    return "\n".join(lines)
