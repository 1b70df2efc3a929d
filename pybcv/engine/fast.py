"""Vectorised fold tables for learner-free outcomes (fixed per-record losses).

When the losses do not depend on the training set, a fold's table needs only
its test indices: ``Design.test_sets`` (pybcv.partitions) draws exactly the
permutations of ``Design.splits`` without sorting or building training sets,
and all folds of many repetitions are counted with one ``bincount``.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..partitions import DESIGNS


@lru_cache(maxsize=64)
def _fold_ids(design: str, n: int) -> np.ndarray:
    _, nte = DESIGNS[design].sizes(n)
    return np.repeat(np.arange(len(nte)), nte)


def _flat(design: str, n: int, g) -> np.ndarray:
    """All test sets of a design concatenated (fold order)."""
    return np.concatenate(DESIGNS[design].test_sets(n, g))


def tables_batch(design: str, codes: np.ndarray, generators) -> np.ndarray:
    """(R, F, 2, 2) tables of ``design`` for R repetitions.

    ``codes``: (R, n) int array, ``2*loss_a + loss_b`` per record;
    ``generators``: R Generators, one per repetition (the design's stream)."""
    R, n = codes.shape
    fid = _fold_ids(design, n)
    F = int(fid[-1]) + 1
    idx = np.stack([_flat(design, n, g) for g in generators])
    c = np.take_along_axis(codes, idx, axis=1)                       # (R, L)
    key = (np.arange(R)[:, None] * F + fid[None, :]) * 4 + c
    cnt = np.bincount(key.ravel(), minlength=R * F * 4).reshape(R, F, 4)
    # code 3 = both wrong (n00), 2 = A wrong only (n01), 1 = B wrong only (n10), 0 = n11
    return cnt[..., ::-1].reshape(R, F, 2, 2)
