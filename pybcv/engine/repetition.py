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
from ..pipeline import CountingLearner, draw_splits, fold_tables, learner_free_tables, \
    learner_from_spec, predict_designs, tables_from_design_predictions


@dataclass
class Repetition:
    """The record of one finished repetition.

    ``results``: {test: (statistic, pvalue)}; ``tables``: {unit: (F, 2, 2)}
    fold tables (None for learner-free runs, whose tables are redrawn from
    the seed); ``intervals``: {test: (low, high)} of the 95% confidence
    interval of mu_A - mu_B where the statistics provide one.  A k-learner
    run keys them by pair (:meth:`RunConfig.keys`, ``"<unit>@<pair>"``) and
    counts every learner's fits in ``fits_a``."""
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


def learner_free_batch(cfg: RunConfig, reps: Sequence[int]) -> Dict[str, np.ndarray]:
    """{unit: (R, F, 2, 2)} fold tables of learner-free repetitions ``reps``
    (their losses and partitions drawn from the run's streams), all at once."""
    codes = np.empty((len(reps), cfg.n), np.int64)
    for i, r in enumerate(reps):
        d = cfg.dataset_for(r)
        codes[i] = 2 * d.loss_a.astype(np.int64) + d.loss_b
    units = dict(cfg.units())
    return learner_free_tables(codes, units, {u: [cfg.unit_rng(r, u) for r in reps] for u in units})


def run_learner_free(cfg: RunConfig, reps: Sequence[int]) -> List[Repetition]:
    """Learner-free repetitions (fixed per-record losses), all at once."""
    t0 = time.perf_counter()
    tables = learner_free_batch(cfg, reps)
    res, ci = score(cfg, tables)
    sec = (time.perf_counter() - t0) / max(len(reps), 1)
    return [Repetition(int(r), {k: (res[k][0][i], res[k][1][i]) for k in cfg.tests}, sec,
                      intervals={k: (lo[i], hi[i]) for k, (lo, hi) in ci.items()})
            for i, r in enumerate(reps)]


def run_repetition(cfg: RunConfig, r: int) -> Repetition:
    """Repetition ``r`` of a run with learners."""
    t0 = time.perf_counter()
    d = cfg.dataset_for(r)
    if cfg.learners:
        return _run_pairs(cfg, r, d, t0)
    la = CountingLearner(learner_from_spec(cfg.learner_a, cfg.backend))
    lb = CountingLearner(learner_from_spec(cfg.learner_b, cfg.backend))
    units = dict(cfg.units())
    splits = draw_splits(d.n, units, {u: cfg.unit_rng(r, u) for u in units},
                         **cfg.split_labels(d.y))
    # shared designs: the union of designs in one batch per learner; else one batch per test
    tables = fold_tables(la, lb, d.X, d.y, splits, one_batch=cfg.share_designs)
    batch = {u: t[None] for u, t in tables.items()}
    res, ci = score(cfg, batch)
    return Repetition(int(r), {k: (float(s[0]), float(p[0])) for k, (s, p) in res.items()},
                      time.perf_counter() - t0, la.fits, lb.fits, f"{la.backend_}/{lb.backend_}",
                      tables, {k: (float(lo[0]), float(hi[0])) for k, (lo, hi) in ci.items()})


def asdict_config(cfg: RunConfig) -> dict:
    """The config as plain keyword arguments of :class:`RunConfig` (for workers)."""
    return asdict(cfg)


def _run_pairs(cfg: RunConfig, r: int, d, t0: float) -> Repetition:
    """Repetition ``r`` of a k-learner run: each learner predicts the design's
    folds once (one batch), every pair's tables are counted from those
    predictions and scored."""
    learners = [CountingLearner(learner_from_spec(x, cfg.backend)) for x in cfg.learners]
    units = dict(cfg.units())
    splits = draw_splits(d.n, units, {u: cfg.unit_rng(r, u) for u in units},
                         **cfg.split_labels(d.y))
    preds = [predict_designs(lrn, d.X, d.y, splits) for lrn in learners]
    tables = {}
    for i, j, pair in cfg.pairs():
        for u, t in tables_from_design_predictions(d.y, preds[i], preds[j], splits).items():
            tables[f"{u}@{pair}"] = t
    res, ci = score(cfg, {k: t[None] for k, t in tables.items()})
    return Repetition(int(r), {k: (float(s[0]), float(p[0])) for k, (s, p) in res.items()},
                      time.perf_counter() - t0, sum(lrn.fits for lrn in learners), 0,
                      "/".join(lrn.backend_ for lrn in learners), tables,
                      {k: (float(lo[0]), float(hi[0])) for k, (lo, hi) in ci.items()})
