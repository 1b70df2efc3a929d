"""Fold outcomes: predictions or 0-1 losses -> contingency tables,
error-rate differences and per-record loss differences.

Conventions (docs/conventions.md, "Contingency tables"; the paper's Table 1):
a contingency table is ``[[n00, n01], [n10, n11]]``, rows A incorrect/correct,
columns B incorrect/correct (index 0 = incorrect); so ``n01`` = A wrong and
B right.  A difference is error(A) - error(B) on one validation fold,
``(n01 - n10) / n_test``.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np


def _as_loss(x, name):
    a = np.asarray(x)
    if a.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array of 0-1 losses")
    if a.dtype == bool:
        return a.astype(np.int8)
    af = a.astype(float)
    if not np.all(np.isfinite(af)) or not np.all((af == 0) | (af == 1)):
        raise ValueError(f"{name} must contain 0-1 losses only (1 = misclassified)")
    return af.astype(np.int8)


def contingency_table(loss_a, loss_b) -> np.ndarray:
    """2x2 table ``[[n00, n01], [n10, n11]]`` of two 0-1 loss vectors of one fold.

    >>> contingency_table([1, 1, 0, 0], [1, 0, 1, 0]).tolist()
    [[1, 1], [1, 1]]
    """
    la = _as_loss(loss_a, "loss_a")
    lb = _as_loss(loss_b, "loss_b")
    if la.shape != lb.shape:
        raise ValueError(f"loss_a and loss_b must have the same length, got {la.size} and {lb.size}")
    if la.size == 0:
        raise ValueError("a fold must contain at least one validation record")
    # code 3 = both wrong (n00), 2 = A wrong only (n01), 1 = B wrong only (n10), 0 = n11
    return np.bincount(2 * la.astype(np.int64) + lb, minlength=4)[::-1].reshape(2, 2)


def tables_from_losses(loss_a, loss_b, splits: Sequence) -> np.ndarray:
    """(F, 2, 2) tables from full-length per-record loss vectors that do not
    depend on the training set (e.g. the epsilon data), read on each split's
    test indices."""
    la = _as_loss(loss_a, "loss_a")
    lb = _as_loss(loss_b, "loss_b")
    if la.shape != lb.shape:
        raise ValueError("loss_a and loss_b must have the same length")
    return np.stack([contingency_table(la[te], lb[te]) for _, te in splits])


def tables_from_predictions(y, pred_a: Sequence, pred_b: Sequence, splits: Sequence) -> np.ndarray:
    """(F, 2, 2) tables from per-fold predictions of A and B on each test set
    (one ``bincount`` over all folds)."""
    y = np.asarray(y)
    if not (len(pred_a) == len(pred_b) == len(splits)):
        raise ValueError("pred_a, pred_b and splits must have one entry per fold")
    F = len(splits)
    if F == 0:
        return np.zeros((0, 2, 2), dtype=np.int64)
    sizes = [len(te) for _, te in splits]
    for f, (pa, pb, k) in enumerate(zip(pred_a, pred_b, sizes)):
        if np.shape(pa) != (k,) or np.shape(pb) != (k,):
            raise ValueError(f"fold {f}: predictions must have one label per test record ({k})")
        if k == 0:
            raise ValueError(f"fold {f}: a fold must contain at least one validation record")
    te = np.concatenate([np.asarray(t) for _, t in splits])
    yt = y[te]
    code = 2 * (np.concatenate([np.asarray(p) for p in pred_a]) != yt).astype(np.int64) \
        + (np.concatenate([np.asarray(p) for p in pred_b]) != yt)
    fid = np.repeat(np.arange(F), sizes)
    cnt = np.bincount(fid * 4 + code, minlength=F * 4).reshape(F, 4)
    # code 3 = both wrong (n00), 2 = A wrong only (n01), 1 = B wrong only (n10), 0 = n11
    return cnt[:, ::-1].reshape(F, 2, 2)


def fold_sizes(tables) -> np.ndarray:
    """Records per fold, n00 + n01 + n10 + n11, of (..., F, 2, 2) tables (the
    four cells added directly: exact for counts, and much faster than a
    reduction over the two length-2 axes)."""
    C = np.asarray(tables, dtype=float)
    return C[..., 0, 0] + C[..., 0, 1] + C[..., 1, 0] + C[..., 1, 1]


def differences(tables) -> np.ndarray:
    """Per-fold error-rate differences ``(n01 - n10) / n`` of (..., F, 2, 2) tables."""
    C = np.asarray(tables, dtype=float)
    return (C[..., 0, 1] - C[..., 1, 0]) / fold_sizes(C)


def loss_sums(loss_a, loss_b, test_sets: Sequence) -> np.ndarray:
    """(F, 4) per-fold sums of real-valued per-record losses read on each
    fold's test records: records, sum of A's losses, sum of B's, sum of the
    squared differences (lA - lB)^2.  The t, F and z tests on differences
    read ``(sum_A - sum_B) / records``, the mean loss difference of the fold;
    the CV-CI z the pooled moments (docs/guide/losses.md).

    >>> loss_sums([0.5, 2.0, 1.0], [0.0, 1.0, 1.0], [[0, 1], [2]]).tolist()
    [[2.0, 2.5, 1.0, 1.25], [1.0, 1.0, 1.0, 0.0]]
    """
    la = np.asarray(loss_a, dtype=float)
    lb = np.asarray(loss_b, dtype=float)
    out = []
    for te in test_sets:
        te = np.asarray(te, dtype=np.int64)
        if te.size == 0:
            raise ValueError("a fold must contain at least one validation record")
        a, b = la[te], lb[te]
        with np.errstate(over="ignore"):      # inf: refused with the range, by the tests
            out.append((te.size, a.sum(), b.sum(), ((a - b) ** 2).sum()))
    return np.array(out, dtype=float).reshape(-1, 4)
