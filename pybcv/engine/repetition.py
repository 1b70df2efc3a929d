"""One repetition of a simulation: draw the data, draw every design's
partition, fit A and B once per fold of the union of designs, count the fold
tables (:mod:`pybcv.pipeline`), score every selected test.

:func:`run_chunk` is a worker's unit of work (a list of repetitions); it
returns one :class:`Repetition` record per repetition.  A learner that fails
on a repetition's data (an error inside R or Java, predictions that are not
class labels) gives a record with ``failure`` set and no results -- never a
number -- naming the learner, the design, the fold and the repetition; the
store keeps it so that a resumed run does not hit it again, and the reports
list it.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import LearnerContext
from ..learners.timelimit import fit_timeout
from .config import RunConfig, score
from ..pipeline import CountingLearner, draw_splits, fold_tables, learner_from_spec, \
    loss_sums_from_design_predictions, predict_designs


@dataclass
class Repetition:
    """The record of one finished repetition.

    ``results``: {test: (statistic, pvalue)}; ``tables``: {unit: (F, 2, 2)}
    fold tables (under a real-valued loss {unit: (F, 4)} per-fold loss
    sums; None for learner-free runs, whose tables are redrawn from
    the seed); ``intervals``: {test: (low, high)} of the 95% confidence
    interval of mu_A - mu_B where the statistics provide one."""
    rep: int
    results: Dict[str, Tuple[float, float]]
    seconds: float
    fits_a: int = 0
    fits_b: int = 0
    backend: str = "none"
    tables: Optional[Dict[str, np.ndarray]] = None
    intervals: Optional[Dict[str, Tuple[float, float]]] = None
    failure: Optional[dict] = None

    @classmethod
    def failed(cls, r: int, err: LearnerContext, seconds: float) -> "Repetition":
        """The record of repetition ``r`` whose learner raised ``err``."""
        err.set_context(repetition=r)
        return cls(int(r), {}, seconds, failure={
            "message": str(err), "learner": None if err.learner is None else str(err.learner),
            "design": err.design, "fold": err.fold})

    def as_row(self) -> dict:
        """The dict that :meth:`pybcv.engine.store.Store.write` stores."""
        return {f: getattr(self, f) for f in ("rep", "results", "seconds", "fits_a", "fits_b",
                                               "backend", "tables")}


def run_chunk(cfg: RunConfig | dict, reps: Sequence[int], timeout: Optional[float] = None
              ) -> List[Repetition]:
    """Run repetitions ``reps``; one record per repetition, in order.
    ``timeout``: seconds one fit may take; a longer fit fails its repetition
    (recorded like any learner failure; :mod:`pybcv.learners.timelimit`)."""
    if isinstance(cfg, dict):
        cfg = RunConfig(**cfg)
    if cfg.learner_free:
        return run_learner_free(cfg, reps)
    out = []
    with fit_timeout(timeout):
        for r in reps:
            t0 = time.perf_counter()
            try:
                out.append(run_repetition(cfg, r))
            except LearnerContext as e:
                out.append(Repetition.failed(r, e, time.perf_counter() - t0))
    return out


def run_learner_free(cfg: RunConfig, reps: Sequence[int]) -> List[Repetition]:
    """Learner-free repetitions (fixed per-record losses), all at once."""
    t0 = time.perf_counter()
    res, ci = score(cfg, cfg.learner_free_tables(reps))
    sec = (time.perf_counter() - t0) / max(len(reps), 1)
    return [Repetition(int(r), {k: (res[k][0][i], res[k][1][i]) for k in cfg.tests}, sec,
                      intervals={k: (lo[i], hi[i]) for k, (lo, hi) in ci.items()})
            for i, r in enumerate(reps)]


def run_repetition(cfg: RunConfig, r: int) -> Repetition:
    """Repetition ``r`` of a run with learners."""
    t0 = time.perf_counter()
    d = cfg.dataset_for(r)
    la = CountingLearner(learner_from_spec(cfg.learner_a, cfg.backend))
    lb = CountingLearner(learner_from_spec(cfg.learner_b, cfg.backend))
    units = dict(cfg.units())
    splits = draw_splits(d.n, units, {u: cfg.unit_rng(r, u) for u in units},
                         **cfg.split_labels(d.y))
    # shared designs: the union of designs in one batch per learner; else one batch per test
    if cfg.zero_one:
        tables = fold_tables(la, lb, d.X, d.y, splits, one_batch=cfg.share_designs)
    else:       # a real-valued loss: per-fold loss sums (F, 4) in place of the tables
        pa, pb = (predict_designs(x, d.X, d.y, splits, cfg.share_designs) for x in (la, lb))
        tables = loss_sums_from_design_predictions(d.y, pa, pb, splits, cfg.loss_for(d.y))
    batch = {u: t[None] for u, t in tables.items()}
    res, ci = score(cfg, batch)
    return Repetition(int(r), {k: (float(s[0]), float(p[0])) for k, (s, p) in res.items()},
                      time.perf_counter() - t0, la.fits, lb.fits, f"{la.backend_}/{lb.backend_}",
                      tables, {k: (float(lo[0]), float(hi[0])) for k, (lo, hi) in ci.items()})


def asdict_config(cfg: RunConfig) -> dict:
    """The config as plain keyword arguments of :class:`RunConfig` (for workers)."""
    return asdict(cfg)
