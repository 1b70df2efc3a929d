"""Fold tables of many repetitions at once for fixed per-record losses.

When the losses do not depend on the training set (learner-free outcomes),
a fold's 2x2 table needs only its test indices: ``DESIGNS[d].test_sets``
(:mod:`pybcv.partitions`) draws exactly the permutations of
``DESIGNS[d].splits`` without sorting or building training sets, and all
folds of all repetitions are counted with one ``numpy.bincount``.  Table
orientation as in :mod:`pybcv.outcomes` (``docs/conventions.md``):
``[[n00, n01], [n10, n11]]`` with 0 = wrong, 1 = right, A's outcome first.

>>> import numpy as np
>>> codes = np.array([[3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]])
>>> T = tables_batch("bcv5x2", codes, [np.random.default_rng(0)])
>>> T.shape, T[0].sum(axis=(1, 2)).tolist()
((1, 10, 2, 2), [8, 8, 8, 8, 8, 8, 8, 8, 8, 8])
>>> T[0, 0] + T[0, 1]          # both folds of replication 1: every record once
array([[ 1,  1],
       [ 1, 13]])
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .partitions import DESIGNS


@lru_cache(maxsize=64)
def _fold_ids(design: str, n: int) -> np.ndarray:
    _, nte = DESIGNS[design].sizes(n)
    return np.repeat(np.arange(len(nte)), nte)


def _folds(design: str, n: int, generators):
    """(fold of each test row, number of folds F, (R, L) test rows of every
    fold in turn) of ``design`` for each generator."""
    fid = _fold_ids(design, n)
    idx = DESIGNS[design].test_orders(n, generators)
    return fid, int(fid[-1]) + 1, idx


def tables_batch(design: str, codes: np.ndarray, generators) -> np.ndarray:
    """(R, F, 2, 2) fold tables of ``design`` for R repetitions.

    ``codes``: (R, n) int array, ``2*loss_a + loss_b`` per record (loss 1 =
    wrong); ``generators``: R Generators, one per repetition (the design's
    stream).  Fold f of repetition r counts the records of
    ``DESIGNS[design].test_sets(n, generators[r])[f]``."""
    R, n = codes.shape
    fid, F, idx = _folds(design, n, generators)
    # key (r * F + fold) * 4 + code: each row's codes offset by 4 F r, gathered, then the folds added
    shifted = np.asarray(codes, np.intp) + (np.arange(R) * (4 * F))[:, None]
    key = np.take_along_axis(shifted, idx, axis=1)                 # (R, L)
    key += 4 * fid
    cnt = np.bincount(key.ravel(), minlength=R * F * 4).reshape(R, F, 4)
    # code 3 = both wrong (n00), 2 = A wrong only (n01), 1 = B wrong only (n10), 0 = n11
    return cnt[..., ::-1].reshape(R, F, 2, 2)


def loss_sums_batch(design: str, loss_a: np.ndarray, loss_b: np.ndarray, generators) -> np.ndarray:
    """(R, F, 4) per-fold loss sums (:func:`pybcv.outcomes.loss_sums`: records,
    sum of A's losses, sum of B's, sum of the squared differences) of
    ``design`` for R repetitions of fixed real-valued per-record losses
    ``loss_a``, ``loss_b`` (R, n); the folds are those of
    :func:`tables_batch` for the same generators."""
    la = np.asarray(loss_a, float)
    lb = np.asarray(loss_b, float)
    R, n = la.shape
    fid, F, idx = _folds(design, n, generators)
    a = np.take_along_axis(la, idx, axis=1)
    b = np.take_along_axis(lb, idx, axis=1)
    key = (np.arange(R)[:, None] * F + fid[None, :]).ravel()
    out = np.empty((R, F, 4))
    for j, w in enumerate((None, a, b, (a - b) ** 2)):
        out[..., j] = np.bincount(key, weights=None if w is None else w.ravel(),
                                  minlength=R * F).reshape(R, F)
    return out
