"""The named designs the tests use, the folds of a one-off comparison,
and checks of folds that a user made.

``DESIGNS[key]`` is a splitter instance (:mod:`pybcv.partitions.splitters`);
its parameters are the design.  The statistics registry names each test's
design by its key here.
"""
from __future__ import annotations

import numbers
from typing import Dict, List, Sequence

import numpy as np

from .. import seeds
from ..errors import ArgumentError
from .splitters import (BlockRegularizedMx2CV, ConservativeZSplit, GroupBlockRegularizedMx2CV,
                        HoldOut, KFoldCV, NAMED_DESIGNS, PseudoBootstrapSplit, RandomMx2CV,
                        RepeatedHoldOut, RepeatedKFoldCV, Split, Splitter,
                        StratifiedBlockRegularizedMx2CV)

DESIGNS: Dict[str, Splitter] = NAMED_DESIGNS     # the splitters' int seeds read it
DESIGNS.update({
    "holdout": HoldOut(train_size=2 / 3),
    "rho15_2of3": RepeatedHoldOut(n_repeats=15, train_size=2 / 3),
    "rho15_9of10": RepeatedHoldOut(n_repeats=15, train_size=0.9),
    "cv10": KFoldCV(k=10),
    "cv10x10": RepeatedKFoldCV(k=10, n_repeats=10),
    "rcv5x2": RandomMx2CV(m=5),
    "bcv3x2": BlockRegularizedMx2CV(m=3),
    "bcv5x2": BlockRegularizedMx2CV(m=5),
    "pseudo_bootstrap": PseudoBootstrapSplit(n_repeats=15, n_replicates=15, train_size=0.9),
    "conservative_z": ConservativeZSplit(n_repeats=15, n_halvings=10, train_size=0.9),
})


def get_design(key) -> Splitter:
    """``DESIGNS[key]``, or a ValueError that lists the known keys."""
    try:
        return DESIGNS[key]
    except (KeyError, TypeError):
        raise ValueError(f"unknown partition design {key!r}; known: {sorted(DESIGNS)}") from None


def design_splitter(key, stratify: bool = False, grouped: bool = False) -> Splitter:
    """The splitter of design ``key``: ``DESIGNS[key]``, or with ``stratify``
    its stratified variant (blocks formed within classes) or with ``grouped``
    its grouped variant (blocks of whole groups).  Only the block-regularized
    designs have these variants; for the others a ValueError says so."""
    d = get_design(key)
    if not (stratify or grouped):
        return d
    if stratify and grouped:
        raise ValueError("stratify and groups cannot be combined: give one of them")
    if type(d) is not BlockRegularizedMx2CV:
        bcv = [k for k, v in DESIGNS.items() if type(v) is BlockRegularizedMx2CV]
        raise ArgumentError("stratify" if stratify else "groups",
                            f"{'stratify' if stratify else 'groups'}: only the block-regularized designs "
                         f"({', '.join(bcv)}) have a {'stratified' if stratify else 'grouped'} "
                         f"variant, and design {key!r} is not one; choose tests of those designs "
                         f"(the default tests are the 5x2 BCV's)")
    cls = StratifiedBlockRegularizedMx2CV if stratify else GroupBlockRegularizedMx2CV
    return cls(**{k: v for k, v in d.get_params().items() if k != "random_state"})


def _seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def design_folds(n, design: str = "bcv5x2", seed=0) -> List[np.ndarray]:
    """The test sets (sorted 0-based rows) of ``design`` for n records, in the
    design's fold order, drawn from the stream
    ``seeds.rng(seeds.design_seq(seed, 0, design))``: exactly the folds a
    one-off comparison with this seed uses.  Training set = the other rows
    (except in ``conservative_z``, whose half-sample splits train on part of
    a half).

    >>> folds = design_folds(300, "bcv5x2", seed=0)
    >>> len(folds), [len(f) for f in folds[:2]]
    (10, [150, 150])
    >>> check_design(folds, 300, "bcv5x2")
    []
    """
    d = get_design(design)
    g = seeds.rng(seeds.design_seq(_seed(seed), 0, design))
    return [np.sort(t) for t in d.test_sets(n, g)]


def check_design(test_sets: Sequence, n, design="bcv5x2") -> List[str]:
    """Check that user-supplied test sets (0-based rows, one array per fold,
    in the design's fold order) can form ``design`` on n records.

    Returns a list of warnings (empty when the folds are what pybcv itself
    would draw up to the permutation); raises ValueError with the reason when
    they cannot form the design: a wrong number of folds, a row outside
    0..n-1 or listed twice in a fold, a record missing from or in two folds
    of one partition (the message names the folds and the row), fold sizes
    the design cannot have, or, for a block-regularized m x 2 CV, training
    sets whose overlaps or blocks are not those of the design.  Folds are
    numbered from 0 and replications from 1 in the messages.
    ``design`` is a key of ``DESIGNS`` or a splitter instance.

    >>> from pybcv.partitions import random_mx2
    >>> folds = [te for _, te in random_mx2(300, 1, m=5)]
    >>> check_design(folds, 300, "bcv5x2")      # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: bcv5x2: folds 0-9 form a repeated 2-fold CV, not a block-regularized 5x2 CV: training sets of replications 1 and 2 overlap in ... records where the BCV requires 75 +- 1 ...
    """
    d = design if isinstance(design, Splitter) else get_design(design)
    name = design if isinstance(design, str) else repr(design)
    try:
        return d.check_test_sets(test_sets, n)
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from None


def check_splits(splits: Sequence[Split], n: int) -> List[Split]:
    """Validate user-given ``(train, test)`` pairs: non-empty 1-d integer
    arrays within [0, n), train and test disjoint."""
    out = []
    for i, (tr, te) in enumerate(splits):
        tr, te = np.asarray(tr), np.asarray(te)
        for name, a in (("train", tr), ("test", te)):
            if a.ndim != 1 or a.size == 0 or not np.issubdtype(a.dtype, np.integer):
                raise ValueError(f"split {i}: {name} indices must be a non-empty 1-d integer array")
            if a.min() < 0 or a.max() >= n:
                raise ValueError(f"split {i}: {name} indices outside [0, {n})")
        if np.intersect1d(tr, te).size:
            raise ValueError(f"split {i}: train and test indices overlap")
        out.append((tr, te))
    return out
