"""Vectorised fold tables for learner-free outcomes (fixed per-record losses).

When the losses do not depend on the training set, a fold's table needs only
its test indices.  Every design of :mod:`pybcv.partitions` cuts its test sets
as contiguous slices of permutations drawn from the design's Generator; the
functions here draw the **same** permutations in the same order (so the
tables equal those of ``Design.splits``, checked in tests/test_engine.py),
skip the sorting and training sets, and count all folds of many repetitions
with one ``bincount``.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, Dict, List

import numpy as np

from ..partitions import (DESIGNS, bcv_block_sizes, bcv_design_matrix, bcv_n_blocks,
                          train_size_of)


def _ho(n, g, f):
    n1 = train_size_of(n, f)
    return [g.permutation(n)[n1:]]


def _rho(n, g, n_repeats, train_size):
    out = []
    for _ in range(n_repeats):
        out += _ho(n, g, train_size)
    return out


def _kfold(n, g, k):
    p = g.permutation(n)
    sizes = np.full(k, n // k)
    sizes[: n % k] += 1
    b = np.concatenate([[0], np.cumsum(sizes)])
    return [p[b[i]:b[i + 1]] for i in range(k)]


def _rkfold(n, g, k, n_repeats):
    out = []
    for _ in range(n_repeats):
        out += _kfold(n, g, k)
    return out


def _rmx2(n, g, m):
    out = []
    h = n // 2
    for _ in range(m):
        p = g.permutation(n)
        out += [p[h:], p[:h]]
    return out


def _bcv(n, g, m):
    B = bcv_n_blocks(m)
    sizes = bcv_block_sizes(n, B, "balanced", m)
    p = g.permutation(n)
    b = np.concatenate([[0], np.cumsum(sizes)])
    blocks = [p[b[i]:b[i + 1]] for i in range(B)]
    M = bcv_design_matrix(m)
    out = []
    for j in range(m):
        S = np.concatenate([blocks[i] for i in range(B) if M[j, i]])
        T = np.concatenate([blocks[i] for i in range(B) if not M[j, i]])
        out += [T, S]
    return out


def _pb(n, g, n_repeats, n_replicates, train_size):
    return _rho(n, g, (n_replicates + 1) * n_repeats, train_size)


def _cz(n, g, n_repeats, n_halvings, train_size):
    n1 = train_size_of(n, train_size)
    n2 = n - n1
    half = n // 2
    if n2 >= half:
        raise ValueError(f"conservative Z needs test size n2 = {n2} below n/2 = {half}")
    out = _rho(n, g, n_repeats, n1)
    for _ in range(n_halvings):
        p = g.permutation(n)
        for h in (p[:half], p[half:2 * half]):
            for _ in range(n_repeats):
                q = g.permutation(half)
                out.append(h[q[half - n2:]])
    return out


_FUNCS: Dict[str, Callable] = {
    "holdout": lambda n, g, train_size: _ho(n, g, train_size),
    "rho15_2of3": _rho, "rho15_9of10": _rho,
    "cv10": _kfold, "cv10x10": _rkfold, "rcv5x2": _rmx2,
    "bcv3x2": _bcv, "bcv5x2": _bcv,
    "pseudo_bootstrap": _pb, "conservative_z": _cz,
}


def test_sets(design: str, n: int, g: np.random.Generator) -> List[np.ndarray]:
    """The test index sets (unsorted) of ``DESIGNS[design].splits(n, g)``."""
    return _FUNCS[design](n, g, **DESIGNS[design].params)


@lru_cache(maxsize=64)
def _fold_ids(design: str, n: int) -> np.ndarray:
    _, nte = DESIGNS[design].sizes(n)
    return np.repeat(np.arange(len(nte)), nte)


def _flat_generic(design, n, g):
    return np.concatenate(test_sets(design, n, g))


@lru_cache(maxsize=64)
def _bcv_positions(n, m):
    """Positions in the permutation of the concatenated test sets T_1, S_1, ..."""
    return np.concatenate(_bcv(n, _Identity(), m))


class _Identity:
    @staticmethod
    def permutation(n):
        return np.arange(n)


def _flat(design: str, n: int, g) -> np.ndarray:
    """All test sets of a design concatenated (fold order), drawing exactly
    what :func:`test_sets` draws."""
    prm = DESIGNS[design].params
    if design in ("cv10", "cv10x10"):
        r = prm.get("n_repeats", 1)
        return np.concatenate([g.permutation(n) for _ in range(r)]) if r > 1 else g.permutation(n)
    if design in ("holdout", "rho15_2of3", "rho15_9of10"):
        n1 = train_size_of(n, prm["train_size"])
        J = prm.get("n_repeats", 1)
        return np.concatenate([g.permutation(n)[n1:] for _ in range(J)])
    if design == "rcv5x2":
        h = n // 2
        out = []
        for _ in range(prm["m"]):
            p = g.permutation(n)
            out += [p[h:], p[:h]]
        return np.concatenate(out)
    if design in ("bcv3x2", "bcv5x2"):
        return g.permutation(n)[_bcv_positions(n, prm["m"])]
    return _flat_generic(design, n, g)


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


def splits(design: str, n: int, g: np.random.Generator):
    """The same (train, test) pairs as ``DESIGNS[design].splits(n, g)``
    (sorted index arrays; train = the complement of test for every design),
    built from :func:`test_sets` with a mask instead of sorting the training
    sets.  Checked against ``Design.splits`` in tests/test_engine.py."""
    out = []
    if design == "conservative_z":       # training sets are not complements there
        return DESIGNS[design].splits(n, g)
    for t in test_sets(design, n, g):
        m = np.ones(n, dtype=bool)
        m[t] = False
        out.append((np.flatnonzero(m), np.sort(t)))
    return out


def tables_from_predictions(y, pred_a, pred_b, split_list) -> np.ndarray:
    """(F, 2, 2) tables, as :func:`pybcv.outcomes.tables_from_predictions`,
    with one bincount for all folds."""
    y = np.asarray(y)
    te = np.concatenate([t for _, t in split_list])
    pa = np.concatenate([np.asarray(p) for p in pred_a])
    pb = np.concatenate([np.asarray(p) for p in pred_b])
    if pa.shape != te.shape or pb.shape != te.shape:
        raise ValueError("predictions must have one label per test record of every fold")
    yt = y[te]
    code = 2 * (pa != yt).astype(np.int64) + (pb != yt)
    F = len(split_list)
    fid = np.repeat(np.arange(F), [len(t) for _, t in split_list])
    cnt = np.bincount(fid * 4 + code, minlength=F * 4).reshape(F, 4)
    return cnt[:, ::-1].reshape(F, 2, 2)
