"""The schemes as functions ``scheme(n, rng=None, **params) -> [(train, test), ...]``:
thin wrappers around the splitter classes of :mod:`pybcv.partitions.splitters`
(same draws for the same random stream)."""
from __future__ import annotations

from typing import List

from .splitters import (BlockRegularizedMx2CV, ConservativeZSplit, HoldOut, KFoldCV,
                        PseudoBootstrapSplit, RandomMx2CV, RepeatedHoldOut, RepeatedKFoldCV, Split)


def holdout(n, rng=None, train_size=2 / 3, shuffle=True) -> List[Split]:
    """One hold-out split (:class:`HoldOut`).

    >>> [len(a) for a in holdout(300, 0)[0]]
    [200, 100]
    """
    return HoldOut(train_size, shuffle).splits(n, rng)


def repeated_holdout(n, rng=None, n_repeats=15, train_size=2 / 3, shuffle=True) -> List[Split]:
    """J independent hold-out splits (:class:`RepeatedHoldOut`)."""
    return RepeatedHoldOut(n_repeats, train_size, shuffle).splits(n, rng)


def kfold(n, rng=None, k=10, shuffle=True) -> List[Split]:
    """K-fold CV (:class:`KFoldCV`).

    >>> [len(te) for _, te in kfold(23, 0)]
    [3, 3, 3, 2, 2, 2, 2, 2, 2, 2]
    """
    return KFoldCV(k, shuffle).splits(n, rng)


def repeated_kfold(n, rng=None, k=10, n_repeats=10, shuffle=True) -> List[Split]:
    """r x K-fold CV (:class:`RepeatedKFoldCV`)."""
    return RepeatedKFoldCV(k, n_repeats, shuffle).splits(n, rng)


def random_mx2(n, rng=None, m=5, shuffle=True) -> List[Split]:
    """m x 2 random CV (:class:`RandomMx2CV`)."""
    return RandomMx2CV(m, shuffle).splits(n, rng)


def bcv_mx2(n, rng=None, m=5, extra_rule="balanced", shuffle=True) -> List[Split]:
    """m x 2 block-regularized CV (:class:`BlockRegularizedMx2CV`).

    >>> [tr.tolist() for tr, _ in bcv_mx2(12, m=3, shuffle=False)[::2]]
    [[0, 1, 2, 3, 4, 5], [0, 1, 2, 6, 7, 8], [0, 1, 2, 9, 10, 11]]
    """
    return BlockRegularizedMx2CV(m, extra_rule, shuffle).splits(n, rng)


def pseudo_bootstrap(n, rng=None, n_repeats=15, n_replicates=15, train_size=0.9,
                     shuffle=True) -> List[Split]:
    """(R + 1) J hold-out splits (:class:`PseudoBootstrapSplit`)."""
    return PseudoBootstrapSplit(n_repeats, n_replicates, train_size, shuffle).splits(n, rng)


def conservative_z(n, rng=None, n_repeats=15, n_halvings=10, train_size=0.9,
                   shuffle=True) -> List[Split]:
    """J (1 + 2M) hold-out splits on all records and on halves (:class:`ConservativeZSplit`)."""
    return ConservativeZSplit(n_repeats, n_halvings, train_size, shuffle).splits(n, rng)
