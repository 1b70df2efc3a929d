"""Former home of the whole engine, kept as a map of where things moved
(old name -> new place) for scripts that import from here:

* ``RunConfig``                         -> :mod:`pybcv.engine.config`
* ``_score``                            -> :func:`pybcv.engine.config.score`
* ``_rep_learners`` / ``_chunk_losses``  -> :func:`pybcv.engine.repetition.run_repetition` /
  :func:`~pybcv.engine.repetition.run_learner_free` (they return :class:`Repetition` records;
  the shims below return the old row dicts)
* ``run_chunk``                          -> :func:`pybcv.engine.repetition.run_chunk`
* ``make``, ``_Counting``, ``predict_designs``, ``_cut``, ``learner_spec``
  -> :mod:`pybcv.engine.fold_tables` (``learner_from_spec``, ``CountingLearner``,
  ``predict_designs``, ``fold_tables``, ``parse_spec``)
* ``Progress``                           -> tqdm
* ``simulate``, ``SimulationResult``, ``load_result``, ``write_summary``
  -> :mod:`pybcv.engine.simulation`
* ``compare``, ``compare_losses``, ``Comparison``, ``fit_counts`` -> :mod:`pybcv.comparison`
* ``PAPER_LEARNERS``                     -> :data:`pybcv.experiments.EXPERIMENTS`
"""
from __future__ import annotations

from typing import List, Sequence

from ..experiments import EXPERIMENTS
from .config import RunConfig, score as _score  # noqa: F401
from .fold_tables import (CountingLearner as _Counting, learner_from_spec as make,  # noqa: F401
                          spec_dict as learner_spec, predict_designs)
from .repetition import Repetition, run_chunk, run_learner_free, run_repetition  # noqa: F401
from .simulation import ALPHA, SimulationResult, load_result, simulate, write_summary  # noqa: F401

PAPER_LEARNERS = {k: (e.learner_a, e.learner_b) for k, e in EXPERIMENTS.items() if not e.learner_free}


def _chunk_losses(cfg: RunConfig, reps: Sequence[int]) -> List[dict]:
    """Old row dicts of :func:`run_learner_free` (used by the committed-replication test)."""
    return [rec.as_row() for rec in run_learner_free(cfg, reps)]


def _rep_learners(cfg: RunConfig, r: int) -> dict:
    """Old row dict of :func:`run_repetition` (used by the committed-replication test)."""
    return run_repetition(cfg, r).as_row()
