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
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import LearnerContext
from ..learners.timelimit import fit_timeout
from .config import RunConfig, score
from ..fold_tables import loss_sums_batch, tables_batch
from ..pipeline import CountingLearner, draw_splits, fold_tables, learner_from_spec, \
    loss_sums_from_design_predictions, predict_designs, tables_from_design_predictions


@dataclass
class Repetition:
    """The record of one finished repetition.

    ``results``: {test: (statistic, pvalue)}; ``tables``: {unit: (F, 2, 2)}
    fold tables (under a real-valued loss {unit: (F, 4)} per-fold loss
    sums; None for learner-free runs, whose tables are redrawn from the
    seed, unless ``RunConfig.keep_tables``); ``intervals``: {test: (low,
    high)} of the 95% confidence interval of mu_A - mu_B where the
    statistics provide one.  A k-learner
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
                out.append(fit_repetition(cfg, r))
            except LearnerContext as e:
                out.append(Repetition.failed(r, e, time.perf_counter() - t0))
    return score_repetitions(cfg, out)


def learner_free_batch(cfg: RunConfig, reps: Sequence[int]) -> Dict[str, np.ndarray]:
    """{unit: (R, F, 2, 2)} fold tables (0/1 loss) or {unit: (R, F, 4)}
    per-fold loss sums (a real-valued loss) of learner-free repetitions
    ``reps``, all at once: each repetition's losses from ``datasets_for(reps)``
    (``RunConfig.fixed_losses``), each unit's partition from ``unit_rngs(reps, unit)``."""
    la = np.empty((len(reps), cfg.n), np.int64 if cfg.zero_one else float)
    lb = np.empty_like(la)
    for i, d in enumerate(cfg.datasets_for(reps)):
        la[i], lb[i] = cfg.fixed_losses(d)
    gens = {u: cfg.unit_rngs(reps, u) for u, _ in cfg.units()}
    if cfg.zero_one:
        return {u: tables_batch(d, 2 * la + lb, gens[u]) for u, d in cfg.units()}
    return {u: loss_sums_batch(d, la, lb, gens[u]) for u, d in cfg.units()}


def run_learner_free(cfg: RunConfig, reps: Sequence[int]) -> List[Repetition]:
    """Learner-free repetitions (fixed per-record losses), all at once."""
    t0 = time.perf_counter()
    tabs = learner_free_batch(cfg, reps)
    res, ci = score(cfg, tabs)
    sec = (time.perf_counter() - t0) / max(len(reps), 1)
    # Python floats, as score_repetitions gives (a list read once, not a numpy scalar per entry)
    res = {k: (np.asarray(res[k][0], float).tolist(), np.asarray(res[k][1], float).tolist())
           for k in cfg.tests}
    ci = {k: (np.asarray(lo, float).tolist(), np.asarray(hi, float).tolist())
          for k, (lo, hi) in ci.items()}
    return [Repetition(int(r), {k: (s[i], p[i]) for k, (s, p) in res.items()}, sec,
                       tables={u: T[i] for u, T in tabs.items()} if cfg.keep_tables else None,
                       intervals={k: (lo[i], hi[i]) for k, (lo, hi) in ci.items()})
            for i, r in enumerate(reps)]


def run_repetition(cfg: RunConfig, r: int) -> Repetition:
    """Repetition ``r`` of a run with learners, fitted and scored."""
    return score_repetitions(cfg, [fit_repetition(cfg, r)])[0]


def score_repetitions(cfg: RunConfig, recs: List[Repetition]) -> List[Repetition]:
    """Fill in the results and intervals of the fitted records of ``recs``
    (failed ones are left as they are), every test scored once for all of
    them: the tests are vectorised over repetitions, and a test of one
    repetition's tables is the same numbers alone or in a batch."""
    done = [rec for rec in recs if rec.failure is None and rec.tables is not None]
    if not done:
        return recs
    t0 = time.perf_counter()
    res, ci = score(cfg, {u: np.stack([rec.tables[u] for rec in done]) for u in done[0].tables})
    share = (time.perf_counter() - t0) / len(done)
    for i, rec in enumerate(done):
        rec.results = {k: (float(s[i]), float(p[i])) for k, (s, p) in res.items()}
        rec.intervals = {k: (float(lo[i]), float(hi[i])) for k, (lo, hi) in ci.items()}
        rec.seconds += share
    return recs


def fit_repetition(cfg: RunConfig, r: int) -> Repetition:
    """Repetition ``r`` of a run with learners, fitted but not yet scored
    (:func:`score_repetitions`): A and B, or (a k-learner run) each learner
    predicting the design's folds once (one batch) and every pair's tables
    counted from those predictions."""
    t0 = time.perf_counter()
    d = cfg.dataset_for(r)
    units = dict(cfg.units())
    splits = draw_splits(d.n, units, {u: cfg.unit_rng(r, u) for u in units},
                         **cfg.split_labels(d.y))
    if cfg.learners:
        learners = [CountingLearner(learner_from_spec(x, cfg.backend)) for x in cfg.learners]
        preds = [predict_designs(lrn, d.X, d.y, splits) for lrn in learners]
        tables = {f"{u}@{pair}": t for i, j, pair in cfg.pairs()
                  for u, t in tables_from_design_predictions(d.y, preds[i], preds[j], splits).items()}
        fits = (sum(lrn.fits for lrn in learners), 0)
    else:
        proba = cfg.loss_for(d.y).proba      # the log loss reads class probabilities
        learners = [CountingLearner(learner_from_spec(x, cfg.backend), proba)
                    for x in (cfg.learner_a, cfg.learner_b)]
        la, lb = learners
        # shared designs: the union of designs in one batch per learner; else one batch per test
        if cfg.zero_one:
            tables = fold_tables(la, lb, d.X, d.y, splits, one_batch=cfg.share_designs)
        else:       # a real-valued loss: per-fold loss sums (F, 4) in place of the tables
            pa, pb = (predict_designs(x, d.X, d.y, splits, cfg.share_designs) for x in learners)
            tables = loss_sums_from_design_predictions(d.y, pa, pb, splits, cfg.loss_for(d.y))
        fits = (la.fits, lb.fits)
    return Repetition(int(r), {}, time.perf_counter() - t0, *fits,
                      "/".join(x.backend_ for x in learners), tables)
