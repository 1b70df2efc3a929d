"""Fold tables of many repetitions at once for fixed per-record losses.

When the losses do not depend on the training set (learner-free outcomes),
a fold's 2x2 table needs only its test indices: ``DESIGNS[d].test_sets``
(:mod:`pybcv.partitions`) draws exactly the permutations of
``DESIGNS[d].splits`` without sorting or building training sets, and
``DESIGNS[d].test_values`` shuffles the records' codes themselves with
those draws, so that every fold of every repetition is counted by one sum.  Table
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


#: bits per count in a packed record (:func:`tables_batch`): folds of fewer than 2**21 records
_BITS = 21
#: code (2 loss_a + loss_b) -> packed record: A wrong only counts in bit field 0 (n01), B wrong
#: only in field 1 (n10), both wrong in field 2 (n00)
_PACK = np.array([0, 1 << _BITS, 1, 1 << (2 * _BITS)], np.int64)


@lru_cache(maxsize=64)
def _fold_sizes(design: str, n: int) -> np.ndarray:
    sizes = np.asarray(DESIGNS[design].sizes(n)[1], np.int64)
    sizes.flags.writeable = False
    return sizes


def _fold_sums(v: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """(R, F) sums of ``v`` (R, L) over consecutive runs of ``sizes`` columns."""
    ends = np.cumsum(sizes)
    if sizes.min() > 0:
        return np.add.reduceat(v, ends - sizes, axis=1)
    c = np.concatenate([np.zeros((v.shape[0], 1), v.dtype), np.cumsum(v, axis=1)], axis=1)
    return c[:, ends] - c[:, ends - sizes]          # an empty fold sums to 0


#: values a batch of repetitions shuffles at once, at most (8 MB of int64): a design's (R, k, n)
#: copies and its (R, L) test values stay within it whatever n, the repetitions taken a few
#: at a time (the engine's learner-free chunks read it too: ``simulation.default_chunk``)
BATCH_VALUES = 1 << 20


def _row_batches(R: int, sizes: np.ndarray, n: int):
    """Slices of the R repetitions whose shuffled values fit in
    ``BATCH_VALUES``: a repetition shuffles at most F copies of its n
    values (k <= F permutations) and keeps at most F n test values."""
    step = max(1, BATCH_VALUES // max(1, len(sizes) * n))
    return [slice(i, min(R, i + step)) for i in range(0, R, step)]


def _fold_counts(d, codes: np.ndarray, generators, sizes: np.ndarray):
    """(n01, n10, n00), each (R, F), of one batch of repetitions."""
    n = codes.shape[1]
    if n < 1 << _BITS:
        s = _fold_sums(d.test_values(_PACK[codes], generators), sizes)
        mask = (1 << _BITS) - 1
        return s & mask, (s >> _BITS) & mask, s >> (2 * _BITS)
    v = d.test_values(codes, generators)
    return tuple(_fold_sums((v == c).astype(np.int64), sizes) for c in (2, 1, 3))


def tables_batch(design: str, codes: np.ndarray, generators) -> np.ndarray:
    """(R, F, 2, 2) fold tables of ``design`` for R repetitions.

    ``codes``: (R, n) int array, ``2*loss_a + loss_b`` per record (loss 1 =
    wrong); ``generators``: R Generators, one per repetition (the design's
    stream).  Fold f of repetition r counts the records of
    ``DESIGNS[design].test_sets(n, generators[r])[f]``.  Each record
    becomes one integer holding its n01, n10 and n00 counts in separate bit
    fields, the design shuffles those (``Splitter.test_values``), and a
    fold's sum holds its three counts."""
    codes = np.asarray(codes)
    R, n = codes.shape
    sizes = _fold_sizes(design, n)
    d, gens = DESIGNS[design], list(generators)
    parts = [_fold_counts(d, codes[b], gens[b], sizes) for b in _row_batches(R, sizes, n)]
    n01, n10, n00 = (np.concatenate(x) for x in zip(*parts))
    return np.stack([n00, n01, n10, sizes - n01 - n10 - n00], axis=-1).reshape(R, -1, 2, 2)


def loss_sums_batch(design: str, loss_a: np.ndarray, loss_b: np.ndarray, generators) -> np.ndarray:
    """(R, F, 4) per-fold loss sums (:func:`pybcv.outcomes.loss_sums`: records,
    sum of A's losses, sum of B's, sum of the squared differences) of
    ``design`` for R repetitions of fixed real-valued per-record losses
    ``loss_a``, ``loss_b`` (R, n); the folds are those of
    :func:`tables_batch` for the same generators (A's and B's losses
    shuffled together as the parts of one complex number)."""
    la = np.asarray(loss_a, float)
    lb = np.asarray(loss_b, float)
    R, n = la.shape
    sizes = _fold_sizes(design, n)
    F, gens = len(sizes), list(generators)
    out = np.empty((R, F, 4))
    for rows in _row_batches(R, sizes, n):
        both = np.empty(la[rows].shape, complex)
        both.real, both.imag = la[rows], lb[rows]
        z = DESIGNS[design].test_values(both, gens[rows])
        a, b = z.real, z.imag
        r = len(z)
        key = np.repeat(np.arange(r * F), np.tile(sizes, r))
        with np.errstate(over="ignore"):      # inf: refused with the range, by the tests
            sq = (a - b) ** 2
        for j, w in enumerate((None, a, b, sq)):
            out[rows, :, j] = np.bincount(key, weights=None if w is None else w.ravel(),
                                          minlength=r * F).reshape(r, F)
    return out
