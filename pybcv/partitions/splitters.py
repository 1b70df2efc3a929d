"""One class per partition scheme.

As in scikit-learn's ``KFold``, the base class :class:`Splitter` owns
``split`` / ``get_n_splits`` / ``splits`` / ``test_sets`` / ``sizes`` and
builds every training set as the complement of its test set; each scheme
says only how it picks its test indices (``_test_sets``) from one
``numpy.random.Generator``, and which folds a user may hand in as that
scheme (``_check_test_sets``).  The conventions (fold order, extra records,
rounding of training sizes) are stated once in :mod:`pybcv.partitions`.
"""
from __future__ import annotations

import itertools
import numbers
import heapq
from typing import List, Sequence, Tuple

import numpy as np

from .. import seeds
from ..errors import ArgumentError
from .._validate import Params, keep_init_args, missing_positions, unmasked
from ._checks import as_generator, check_int, check_n, check_train_size, train_size_of
from .blocks import (MAX_BCV_M, bcv_n_blocks, bcv_test_cuts, bcv_test_positions,
                     bcv_tests_of_blocks, extra_order_of_rule)

Split = Tuple[np.ndarray, np.ndarray]


def _perm(n: int, g) -> np.ndarray:
    """A permutation of 0..n-1 from ``g``; the identity when ``g`` is None."""
    return np.arange(n) if g is None else g.permutation(n)


def _perms(n: int, g, k: int) -> np.ndarray:
    """(k, n): row i is the i-th of k calls ``_perm(n, g)`` in turn, drawn in
    one call (``Generator.permuted`` shuffles row after row with the draws of
    ``permutation``; tests/test_startup.py holds them equal): the one
    generator's case of :func:`_shuffled`."""
    return _shuffled(np.arange(n)[None, :], [g], k)[0]


def _shuffled(values: np.ndarray, gens, k: int) -> np.ndarray:
    """(R, k, n): ``values`` (R, n) row r repeated k times, each copy
    shuffled in turn by ``gens[r]`` (None: left as it is) in one
    preallocated array, in place.  A shuffle's draws do not depend on what
    it moves, so with ``values`` the row ``arange(n)`` row r is
    ``_perms(n, gens[r], k)``, and with any values it is those values taken
    in that permutation's order (the engine's learner-free batches shuffle
    the records' codes themselves, with no index array and no gather)."""
    R, n = values.shape
    out = np.empty((R, k, n), values.dtype)
    out[...] = values[:, None, :]
    for g, rows in zip(gens, out):
        if g is not None:
            g.permuted(rows, axis=1, out=rows)
    return out


def _complement_splits(n: int, tests: List[np.ndarray]) -> List[Split]:
    """(train, test) pairs, train = every record not in test; both sorted."""
    out = []
    for t in tests:
        mask = np.ones(n, dtype=bool)
        mask[t] = False
        out.append((mask.nonzero()[0], np.sort(t)))
    return out


_SIZES: dict = {}          # (class, parameters, n) -> sizes
#: the named designs: pybcv.partitions.designs.DESIGNS is this dict
NAMED_DESIGNS: dict = {}


class Splitter(Params):
    """Base of the partition schemes (scikit-learn splitter protocol).

    Parameters common to every scheme: ``shuffle`` (False: the identity
    permutation, for worked examples) and ``random_state`` (None, an int
    seed, a ``SeedSequence`` or a ``numpy.random.Generator``).  With an int
    every call of ``split`` gives the same partition; with a Generator
    successive calls continue its stream.  An int seed s of a named design's
    splitter (``DESIGNS``, or the stratified or grouped variant of a BCV)
    draws from that design's stream of ``compare(..., seed=s)``
    (:func:`pybcv.pipeline.design_generator`): the folds of ``compare`` and
    ``pybcv folds --seed s``; with other parameters, ``default_rng(s)``.

    ``splits(n, rng)`` and ``test_sets(n, rng)`` take the random stream as an
    argument (``rng=None`` uses ``random_state``); ``test_sets`` draws exactly
    the numbers of ``splits`` without sorting or building training sets.
    """

    #: what the scheme is called in messages
    scheme = "partition"

    # ---- what a scheme says ------------------------------------------------
    def _check_params(self) -> int:
        """Validate the parameters; return the smallest n the scheme takes."""
        return 2

    def _count(self) -> int:
        raise NotImplementedError

    def _test_sets(self, n: int, g) -> List[np.ndarray]:
        """The test sets in fold order (unsorted); ``g`` None = no shuffling."""
        raise NotImplementedError

    def _folds(self, n: int, g, **labels) -> List[Split]:
        return _complement_splits(n, self._test_sets(n, g, **labels))

    def _fold_sizes(self, n: int):
        """(n_train, n_test) per fold, unshuffled: the training sets are the
        complements of the test sets (a scheme whose are not says its own)."""
        n_test = np.array([len(v) for v in self._test_sets(n, None)])
        return n - n_test, n_test

    def _labels(self, n: int, y, groups) -> dict:
        """What the scheme takes from ``y`` and ``groups`` (keyword arguments
        of ``_test_sets``).  A scheme that forms its folds from the record
        count alone ignores ``y`` (as scikit-learn's ``KFold`` does) and
        refuses ``groups``, rather than silently making folds that split them."""
        if groups is not None:
            raise ValueError(f"{type(self).__name__} does not use groups: its folds can put the "
                             f"records of one group on both sides; for a grouped m x 2 BCV use "
                             f"GroupBlockRegularizedMx2CV")
        return {}

    def _check_test_sets(self, folds: List[np.ndarray], n: int) -> List[str]:
        raise NotImplementedError

    # ---- shared machinery --------------------------------------------------
    @property
    def min_n(self) -> int:
        """The smallest number of records the scheme can partition."""
        return self._check_params()

    def _n(self, n) -> int:
        return check_n(n, self._check_params(), self.scheme)

    def _generator(self, rng):
        if not self.shuffle:
            return None
        s = self.random_state
        if rng is None and isinstance(s, numbers.Integral) and not isinstance(s, bool) and s >= 0:
            key = self._design_key()
            if key is not None:          # the stream of compare(seed=s): one seed, one partition
                return seeds.rng(seeds.design_seq(s, 0, key))
        return as_generator(s if rng is None else rng)

    def _design_key(self):
        """The key of the named design (``DESIGNS``) this splitter is, or
        whose stratified or grouped variant it is; None for other parameters."""
        base = BlockRegularizedMx2CV if isinstance(self, BlockRegularizedMx2CV) else type(self)
        mine = {k: v for k, v in self.get_params().items() if k != "random_state"}
        return next((k for k, d in NAMED_DESIGNS.items() if type(d) is base and mine ==
                     {k2: v for k2, v in d.get_params().items() if k2 != "random_state"}), None)

    def test_sets(self, n, rng=None, y=None, groups=None) -> List[np.ndarray]:
        """The test index sets in fold order (unsorted); ``y`` / ``groups``
        (one entry per record) for the stratified and grouped schemes."""
        n = self._n(n)
        labels = self._labels(n, y, groups)
        return self._test_sets(n, self._generator(rng), **labels)

    def test_orders(self, n, generators) -> np.ndarray:
        """(R, L) int array: row r is ``np.concatenate(self.test_sets(n, g))``
        for the r-th Generator of ``generators`` (every test index in fold
        order; the arguments checked once, for the engine's batches)."""
        n = self._n(n)
        self._labels(n, None, None)
        return self._test_orders(n, [self._generator(g) for g in generators])

    def test_values(self, values, generators) -> np.ndarray:
        """(R, L): row r is ``values[r][self.test_orders(n, generators)[r]]``,
        the r-th row of ``values`` (R, n) at its test records in fold order,
        drawn with the same numbers (the permutation schemes shuffle the
        values themselves, the others gather them)."""
        values = np.asarray(values)
        if values.ndim != 2 or values.shape[0] != len(generators):
            raise ArgumentError("values", f"values must be (R, n) with a row per generator "
                                          f"({len(generators)}), got shape {values.shape}")
        n = self._n(values.shape[1])
        self._labels(n, None, None)
        return self._test_values(values, [self._generator(g) for g in generators])

    def _test_orders(self, n: int, gens) -> np.ndarray:
        return np.stack([self._test_order(n, g) for g in gens])

    def _test_values(self, values: np.ndarray, gens) -> np.ndarray:
        return np.take_along_axis(values, self._test_orders(values.shape[1], gens), axis=1)

    def _test_order(self, n: int, g) -> np.ndarray:
        return np.concatenate(self._test_sets(n, g))

    def splits(self, n, rng=None, y=None, groups=None) -> List[Split]:
        """All ``(train, test)`` pairs for n records (sorted index arrays)."""
        n = self._n(n)
        labels = self._labels(n, y, groups)
        return self._folds(n, self._generator(rng), **labels)

    def split(self, X, y=None, groups=None):
        """Yield ``(train, test)`` index arrays for the rows of ``X``."""
        if X is None:
            raise ValueError("X must be given (array-like with one row per record)")
        n = int(X.shape[0]) if hasattr(X, "shape") else len(X)
        if y is not None and len(y) != n:
            raise ValueError(f"X has {n} records but y has {len(y)}")
        yield from self.splits(n, y=y, groups=groups)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """Number of folds (it does not depend on the number of records)."""
        self._check_params()
        return self._count()

    def n_splits(self, n: int) -> int:
        """Number of folds for n records."""
        return len(self.sizes(n)[1])

    def sizes(self, n: int) -> Tuple[np.ndarray, np.ndarray]:
        """(n_train, n_test) of every fold in fold order; they depend on n only."""
        n = self._n(n)
        key = (type(self), tuple(getattr(self, k) for k in self._param_names()
                                 if k not in ("random_state", "shuffle")), n)
        try:
            return _SIZES[key]
        except (KeyError, TypeError):
            pass
        out = tuple(np.asarray(x, np.int64) for x in self._fold_sizes(n))
        for x in out:
            x.setflags(write=False)
        try:
            if len(_SIZES) > 1024:
                _SIZES.clear()
            _SIZES[key] = out
        except TypeError:          # unhashable parameter values: no caching
            pass
        return out

    def check_test_sets(self, test_sets: Sequence, n: int) -> List[str]:
        """Check user-supplied test sets (0-based rows, fold order) against
        this scheme; return warnings, raise ValueError with the reason when
        they cannot form it."""
        n = self._n(n)
        return self._check_test_sets(_as_folds(test_sets, n), n)


class _Shuffles:
    """A scheme whose folds are cut from permutations: its test orders are
    the test values of the rows ``arange(n)`` (:func:`_shuffled`)."""

    def _test_orders(self, n, gens):
        return self._test_values(np.broadcast_to(np.arange(n), (len(gens), n)), gens)


# ---- hold-out schemes: each draw is a fresh permutation; its last n - n1 records test
class RepeatedHoldOut(_Shuffles, Splitter):
    """J independent hold-out splits: for each a fresh permutation, whose
    first n1 records train and the other n - n1 test.

    >>> [len(te) for te in RepeatedHoldOut(3, 0.9).test_sets(301, 0)]
    [30, 30, 30]
    """
    scheme = "repeated hold-out"

    def __init__(self, n_repeats=15, train_size=2 / 3, shuffle=True, random_state=None):
        keep_init_args(self, locals())

    def _n_draws(self) -> int:
        return check_int("n_repeats", self.n_repeats, 1)

    def _check_params(self):
        self._n_draws()
        check_train_size(self.train_size)
        return 2

    def _count(self):
        return self._n_draws()

    def _test_sets(self, n, g):          # each draw's last n - n1 records
        return list(_perms(n, g, self._n_draws())[:, train_size_of(n, self.train_size):])

    def _test_values(self, values, gens):
        p = _shuffled(values, gens, self._n_draws())
        return p[:, :, train_size_of(values.shape[1], self.train_size):].reshape(len(gens), -1)

    def _check_test_sets(self, folds, n):
        _check_count(folds, self._count(), self.scheme)
        n2 = n - train_size_of(n, self.train_size)
        warnings = []
        for i, f in enumerate(folds):
            if abs(len(f) - n2) > 1:
                raise ValueError(f"fold {i} tests {len(f)} records where the {self.scheme} "
                                 f"tests n - n1 = {n2} of n = {n}")
            if len(f) != n2:
                warnings.append(f"fold {i} tests {len(f)} records where pybcv's {self.scheme} "
                                f"tests {n2} (n1 = {n - n2} of n = {n}; a training size "
                                f"rounded another way)")
        return warnings


class HoldOut(RepeatedHoldOut):
    """One hold-out split (the first n1 permuted records train).

    >>> tr, te = HoldOut(shuffle=False).splits(6)[0]
    >>> tr.tolist(), te.tolist()
    ([0, 1, 2, 3], [4, 5])
    """
    scheme = "hold-out"

    def __init__(self, train_size=2 / 3, shuffle=True, random_state=None):
        keep_init_args(self, locals())

    def _n_draws(self):
        return 1


class PseudoBootstrapSplit(RepeatedHoldOut):
    """The (corrected) pseudo-bootstrap design: (R + 1) J independent
    hold-out splits; the first J give the estimate, each further block of J
    one of the R replicates.

    >>> PseudoBootstrapSplit().get_n_splits()
    240
    """
    scheme = "pseudo-bootstrap"

    def __init__(self, n_repeats=15, n_replicates=15, train_size=0.9, shuffle=True,
                 random_state=None):
        keep_init_args(self, locals())

    def _n_draws(self):
        J = check_int("n_repeats", self.n_repeats, 1)
        R = check_int("n_replicates", self.n_replicates, 2)
        return (R + 1) * J


class ConservativeZSplit(Splitter):
    """The conservative-Z design: J hold-out splits of all n records
    (n1 = round(f n)), then M times a random halving into H1, H2 of
    n' = floor(n/2) records, with J hold-out splits inside each half of the
    same test size n2 (training n' - n2).  Order: J on all records, then for
    each halving J on H1 and J on H2.  The training sets of the half splits
    are not complements of their test sets.  Needs n2 < n'.

    >>> [int(x) for x in ConservativeZSplit(2, 1).sizes(40)[0]]
    [36, 36, 16, 16, 16, 16]
    """
    scheme = "conservative Z"

    def __init__(self, n_repeats=15, n_halvings=10, train_size=0.9, shuffle=True,
                 random_state=None):
        keep_init_args(self, locals())

    def _check_params(self):
        check_int("n_repeats", self.n_repeats, 1)
        check_int("n_halvings", self.n_halvings, 1)
        check_train_size(self.train_size)
        return 4

    def _count(self):
        return self.n_repeats * (1 + 2 * self.n_halvings)

    def _folds(self, n, g):
        J, M = int(self.n_repeats), int(self.n_halvings)
        n1 = train_size_of(n, self.train_size)
        n2 = n - n1
        half = n // 2
        if n2 >= half:
            raise ValueError(f"conservative Z needs test size n2 = {n2} below n/2 = {half}; "
                             f"raise train_size (got {self.train_size})")
        out = _complement_splits(n, [_perm(n, g)[n1:] for _ in range(J)])
        for _ in range(M):
            p = _perm(n, g)
            for h in (p[:half], p[half:2 * half]):
                for _ in range(J):
                    q = _perm(half, g)
                    out.append((np.sort(h[q[: half - n2]]), np.sort(h[q[half - n2:]])))
        return out

    def _test_sets(self, n, g):
        return [te for _, te in self._folds(n, g)]

    def _fold_sizes(self, n):
        J, M = int(self.n_repeats), int(self.n_halvings)
        n1 = train_size_of(n, self.train_size)
        n2, half = n - n1, n // 2
        if n2 >= half:
            self._folds(n, None)                    # raises, saying why
        return [n1] * J + [half - n2] * (2 * M * J), [n2] * (J + 2 * M * J)

    def _check_test_sets(self, folds, n):
        raise ValueError("the training sets of the conservative-Z half-sample splits are not "
                         "the complements of their test sets, so test sets alone cannot form it")


# ---- K-fold schemes: each run cuts one permutation into k contiguous folds
class RepeatedKFoldCV(_Shuffles, Splitter):
    """r independent K-fold partitions (fold order: run 1 folds 1..k, run 2
    ...); each run cuts a fresh permutation into k contiguous folds, the
    first ``n mod k`` one record larger.

    >>> [len(te) for te in RepeatedKFoldCV(3, 2, shuffle=False).test_sets(7)]
    [3, 2, 2, 3, 2, 2]
    """
    scheme = "repeated K-fold CV"

    def __init__(self, k=10, n_repeats=10, shuffle=True, random_state=None):
        keep_init_args(self, locals())

    def _n_runs(self):
        return check_int("n_repeats", self.n_repeats, 1)

    def _check_params(self):
        k = check_int("k", self.k, 2)
        self._n_runs()
        return k

    def _n(self, n):
        return check_n(n, self._check_params(), f"{self.k}-fold CV")

    def _count(self):
        return self.k * self._n_runs()

    def _test_sets(self, n, g):
        k = int(self.k)
        sizes = np.full(k, n // k)
        sizes[: n % k] += 1
        bounds = np.concatenate([[0], np.cumsum(sizes)]).tolist()   # slices: np.split is slower
        return [p[lo:hi] for p in _perms(n, g, self._n_runs())
                for lo, hi in zip(bounds[:-1], bounds[1:])]

    def _test_values(self, values, gens):
        return _shuffled(values, gens, self._n_runs()).reshape(len(gens), -1)

    def _check_test_sets(self, folds, n):
        k = int(self.k)
        _check_count(folds, self._count(), f"{self.scheme} ({k} folds x {self._n_runs()} runs)")
        lo, hi = n // k, -(-n // k)
        warnings = []
        for r in range(self._n_runs()):
            run = list(range(r * k, (r + 1) * k))
            where = "" if self._n_runs() == 1 else f"run {r + 1} (folds {run[0]}-{run[-1]}): "
            _check_partition(folds, run, n, where)
            lens = [len(folds[i]) for i in run]
            for i, ln in zip(run, lens):
                if not lo <= ln <= hi:
                    raise ValueError(f"{where}fold {i} tests {ln} records where a {k}-fold CV of "
                                     f"{n} records has folds of {lo}" + ("" if lo == hi else f" or {hi}"))
            if lens != sorted(lens, reverse=True):
                warnings.append(f"{where}the larger folds are not the first n mod k = {n % k} "
                                f"folds (pybcv's order); each fold's own size is what counts")
        return warnings


class KFoldCV(RepeatedKFoldCV):
    """K-fold CV: one permutation cut into k contiguous folds, the first
    ``n mod k`` one record larger; fold i tests.

    >>> [len(te) for te in KFoldCV(10).test_sets(23, 0)]
    [3, 3, 3, 2, 2, 2, 2, 2, 2, 2]
    """
    scheme = "K-fold CV"

    def __init__(self, k=10, shuffle=True, random_state=None):
        keep_init_args(self, locals())

    def _n_runs(self):
        return 1


# ---- m x 2 schemes: replication j gives fold (j, 1) testing T_j, (j, 2) testing S_j
class RandomMx2CV(_Shuffles, Splitter):
    """m x 2 random CV (Dietterich; Alpaydin): per replication a fresh
    permutation, S_j = its first floor(n/2) records, T_j = the rest.

    >>> [len(te) for te in RandomMx2CV(2).test_sets(5, 0)]
    [3, 2, 3, 2]
    """
    scheme = "m x 2 random CV"

    def __init__(self, m=5, shuffle=True, random_state=None):
        keep_init_args(self, locals())

    def _check_params(self):
        check_int("m", self.m, 1)
        return 2

    def _n(self, n):
        return check_n(n, self._check_params(), f"{self.m}x2 CV")

    def _count(self):
        return 2 * self.m

    def _test_sets(self, n, g):
        h = n // 2
        return [t for p in _perms(n, g, int(self.m)) for t in (p[h:], p[:h])]

    def _test_values(self, values, gens):
        p, h = _shuffled(values, gens, int(self.m)), values.shape[1] // 2
        return np.concatenate([p[:, :, h:], p[:, :, :h]], axis=2).reshape(len(gens), -1)

    def _check_test_sets(self, folds, n):
        m = int(self.m)
        _check_halves(folds, m, n, f"{m}x2 CV")
        lo, hi = n // 2, n - n // 2
        for i, f in enumerate(folds):
            if not lo <= len(f) <= hi:
                raise ValueError(f"fold {i} tests {len(f)} records where a {m}x2 CV of {n} records "
                                 f"tests halves of {lo}" + ("" if lo == hi else f" or {hi}"))
        return []


class BlockRegularizedMx2CV(_Shuffles, Splitter):
    """m x 2 block-regularized CV (1 <= m <= 15; 5x2 BCV for m = 5).

    One permutation is cut into B = 2^ceil(log2(m+1)) blocks (sizes n // B,
    the extras placed by ``extra_rule``); S_j is the union of the B/2 blocks
    in column a_j of the two-level orthogonal array, T_j the other blocks;
    any two S_j share B/4 blocks (about n/4 records).  Needs n >= B.

    >>> cv = BlockRegularizedMx2CV(m=5, random_state=0)
    >>> len(list(cv.split(np.zeros((40, 1)))))
    10
    >>> [len(te) for te in BlockRegularizedMx2CV(m=5).test_sets(301, 0)][:4]
    [150, 151, 150, 151]
    """
    scheme = "block-regularized m x 2 CV"

    def __init__(self, m=5, extra_rule="balanced", shuffle=True, random_state=None):
        keep_init_args(self, locals())

    def _check_params(self):
        B = bcv_n_blocks(self.m)
        extra_order_of_rule(B, self.extra_rule, int(self.m))    # checks the rule
        return B

    def _n(self, n):
        B = self._check_params()
        return check_n(n, B, f"block-regularized CV with {B} blocks")

    def _count(self):
        return 2 * check_int("m", self.m, 1, MAX_BCV_M)

    def _test_sets(self, n, g):
        m, rule = int(self.m), self.extra_rule
        order = self._test_order(n, g)
        bounds = (0, *bcv_test_cuts(n, m, rule), order.size)
        return [order[lo:hi] for lo, hi in zip(bounds[:-1], bounds[1:])]   # np.split is slower

    def _test_order(self, n, g):
        # the plain BCV's; its stratified and grouped variants override _test_sets (test_orders
        # refuses them: they need y or groups)
        return _perm(n, g)[bcv_test_positions(n, int(self.m), self.extra_rule)]

    def _test_values(self, values, gens):
        pos = bcv_test_positions(values.shape[1], int(self.m), self.extra_rule)
        return _shuffled(values, gens, 1)[:, 0, pos]

    def _check_test_sets(self, folds, n):
        return _check_bcv(folds, int(self.m), n, self.extra_rule)


def _codes(values, n: int, what: str) -> np.ndarray:
    """0-based codes of the distinct values of a per-record array (checked)."""
    if values is None:
        raise ArgumentError(what, f"{what} is required: one value per record")
    try:
        a = np.asarray(unmasked(values, what))
    except ValueError as e:
        raise ArgumentError(what, str(e)) from None
    if a.ndim != 1 or a.shape[0] != n:
        raise ArgumentError(what, f"{what} must be 1-d with one value per record ({n}), got shape "
                                  f"{a.shape}")
    miss = missing_positions(a)          # NaN (floats), None or NaN (objects)
    if miss.size:
        raise ArgumentError(what, f"{what}: row {int(miss[0])} is {'NaN' if a.dtype.kind == 'f' else 'missing'}; "
                         f"every record needs a value")
    try:
        return _distinct(a)[2]
    except TypeError:
        raise ArgumentError(what, f"{what}: the values must be labels (numbers or text), not "
                                  f"lists or other unhashable objects") from None


def _distinct(a: np.ndarray):
    """(values, counts, codes): the distinct values of a 1-d array in sorted
    order (Python objects, so messages show them as the user wrote them),
    how often each occurs, and each record's 0-based code.  An object
    array's values are told apart as Python (and pandas) tells them apart,
    so 0 and 0.0 are one value, and listed in the order of their text
    (objects of several types need not compare)."""
    if a.dtype.kind != "O":
        vals, codes, counts = np.unique(a, return_inverse=True, return_counts=True)
        return vals.tolist(), counts, codes.ravel()
    items = [v.item() if isinstance(v, np.generic) else v for v in a.tolist()]   # np.int64(3) -> 3
    first: dict = {}
    for v in items:                          # unhashable values: TypeError
        first.setdefault(v, v)
    vals = sorted(first, key=str)
    index = {v: i for i, v in enumerate(vals)}
    codes = np.fromiter((index[v] for v in items), dtype=np.intp, count=a.size)
    return vals, np.bincount(codes, minlength=len(vals)), codes


class StratifiedBlockRegularizedMx2CV(BlockRegularizedMx2CV):
    """Stratified m x 2 BCV: the B blocks are formed within the classes of
    ``y``, then the orthogonal-array design of :class:`BlockRegularizedMx2CV`
    is applied to them.

    The records are laid out class by class (classes in sorted order, each
    class in a random order) and dealt to the blocks in turn, the deal
    following the extra-record order of ``extra_rule``.  So

    * every block holds n_c // B or n_c // B + 1 records of each class c
      (class balance per block, up to one record);
    * the block sizes are exactly those of the plain BCV for the same n and
      ``extra_rule``: every fold has the plain design's training and test
      sizes (half/half, pairwise training overlaps about n/4, up to the same
      rounding), and ``sizes(n)`` is the plain design's.

    What does not hold: the blocks are not a uniformly random partition of
    the records (a block's class counts are fixed), so the variance of the
    fold differences differs from the plain design's, for which the paper
    derives rho1 = rho2 = 1/2 (``docs/conventions.md``, "Stratified and
    grouped BCV").  The random stream draws one permutation per class, so
    the folds differ from the plain design's for the same seed.

    >>> y = np.array([0] * 30 + [1] * 10)
    >>> folds = StratifiedBlockRegularizedMx2CV(m=5).test_sets(40, 0, y=y)
    >>> [int((y[t] == 1).sum()) for t in folds[:2]]
    [5, 5]
    """
    scheme = "stratified block-regularized m x 2 CV"

    def _labels(self, n, y, groups):
        if groups is not None:
            raise ValueError("StratifiedBlockRegularizedMx2CV stratifies by y and does not take "
                             "groups; use GroupBlockRegularizedMx2CV for groups")
        a = np.asarray(y) if y is not None else None
        if a is not None and a.dtype.kind == "f" and np.isfinite(a).all() and np.any(a != np.round(a)):
            raise ValueError("y looks continuous (non-integer numbers): a stratified BCV forms its "
                             "blocks within classes, so y must be class labels (as scikit-learn's "
                             "StratifiedKFold requires)")
        return {"classes": _codes(y, n, "y (the class labels to stratify by)")}

    def class_notes(self, y) -> List[str]:
        """Notes on the classes with fewer records than blocks: such a class
        cannot be in every block, so some folds test none of it."""
        B = bcv_n_blocks(self.m)
        vals, counts, _ = _distinct(np.asarray(y))
        rare = [f"{v!r} ({c})" for v, c in zip(vals, counts) if c < B]
        return [f"stratified {self.m}x2 BCV: class(es) {', '.join(rare)} hold fewer records than "
                f"the {B} blocks, so they cannot be in every block (some folds test none of "
                f"them)"] if rare else []

    def _test_sets(self, n, g, classes=None):
        if classes is None:
            raise ValueError(f"{type(self).__name__} needs y: pass it to split(X, y) or splits(n, y=y)")
        m, B = int(self.m), bcv_n_blocks(self.m)
        deal = np.asarray(extra_order_of_rule(B, self.extra_rule, m)) - 1
        # class by class (sorted), each class's records in a random order
        laid = np.concatenate([rows[_perm(rows.size, g)] for rows in
                               (np.flatnonzero(classes == c) for c in range(int(classes.max()) + 1))])
        block_of = np.empty(n, dtype=np.int64)
        block_of[laid] = deal[np.arange(n) % B]
        return bcv_tests_of_blocks(block_of, m)

    def sizes(self, n):
        """The plain BCV's fold sizes (the blocks have its sizes)."""
        return BlockRegularizedMx2CV(self.m, self.extra_rule).sizes(n)


class GroupBlockRegularizedMx2CV(BlockRegularizedMx2CV):
    """Grouped m x 2 BCV: the B blocks are unions of whole groups (every
    record of a group in one block), then the orthogonal-array design of
    :class:`BlockRegularizedMx2CV` is applied to them, so no group is ever
    on both sides of a fold.

    The groups, in a random order, then sorted by size (largest first, ties
    in that random order), go each to the block with the fewest records so
    far (ties: the extra-record order of ``extra_rule``).  So

    * no group has records on both sides of any fold;
    * any two blocks differ by at most the largest group's size g_max: every
      half is within B/2 * g_max of n/2, every pairwise training overlap
      within B/4 * g_max of n/4; with groups of one record the blocks have
      exactly the plain BCV's sizes;
    * it needs at least B groups.

    What does not hold: exact half/half sizes (the folds' sizes depend on
    the groups and on the draw; ``sizes(n)`` is not defined, read them from
    ``splits``), and records independent within a fold, which the tests'
    variance formulas assume (``docs/conventions.md``, "Stratified and
    grouped BCV").

    >>> groups = np.repeat(np.arange(20), 3)
    >>> folds = GroupBlockRegularizedMx2CV(m=5).test_sets(60, 0, groups=groups)
    >>> [len(t) for t in folds[:2]]
    [30, 30]
    """
    scheme = "grouped block-regularized m x 2 CV"

    def _labels(self, n, y, groups):
        codes = _codes(groups, n, "groups")
        G, B = int(codes.max()) + 1, bcv_n_blocks(self.m)
        if G < B:
            raise ArgumentError("groups", f"groups: {G} distinct groups, but a grouped {self.m}x2 BCV needs at "
                             f"least {B} (every block is made of whole groups)")
        return {"group_of": codes}

    def _test_sets(self, n, g, group_of=None):
        if group_of is None:
            raise ValueError(f"{type(self).__name__} needs groups: pass them to split(X, y, groups) "
                             f"or splits(n, groups=groups)")
        m, B = int(self.m), bcv_n_blocks(self.m)
        size = np.bincount(group_of)
        order = _perm(size.size, g)
        order = order[np.argsort(-size[order], kind="stable")]
        deal = np.asarray(extra_order_of_rule(B, self.extra_rule, m)) - 1
        heap = [(0, rank, int(b)) for rank, b in enumerate(deal)]   # (records, tie rank, block)
        block_of_group = np.empty(size.size, dtype=np.int64)
        for grp in order:
            load, rank, b = heapq.heappop(heap)
            block_of_group[grp] = b
            heapq.heappush(heap, (load + int(size[grp]), rank, b))
        return bcv_tests_of_blocks(block_of_group[group_of], m)

    def sizes(self, n):
        raise ValueError("a grouped BCV's fold sizes depend on the groups and the draw; "
                         "read them from splits(n, rng, groups=groups)")

    #: a half further than this fraction of n/2 from n/2 gets a note
    HALF_TOLERANCE = 0.1

    @classmethod
    def halves_notes(cls, test_sets, groups) -> List[str]:
        """A note when a fold's test half is far from n/2 (more than
        ``HALF_TOLERANCE`` of n/2), naming the largest group: the tests'
        variance formulas assume halves near n/2."""
        n = len(groups)
        sizes = [len(t) for t in test_sets]
        if max(abs(s - n / 2) for s in sizes) <= cls.HALF_TOLERANCE * n / 2:
            return []
        vals, counts, _ = _distinct(np.asarray(groups))
        big = int(np.argmax(counts))
        return [f"grouped BCV: the test halves hold {min(sizes)} to {max(sizes)} of {n} records "
                f"(n/2 = {n / 2:g}): group {vals[big]!r} alone has {counts[big]} records; the "
                f"tests assume halves near n/2, so their results are unreliable here (use smaller "
                f"groups, or no groups if the records are independent)"]

    def _check_test_sets(self, folds, n):
        """Folds of B blocks of any sizes: each replication's halves
        complementary, the records in B groups (same side in every
        replication) laid out as the orthogonal array lays out blocks."""
        m, B = int(self.m), bcv_n_blocks(self.m)
        _check_halves(folds, m, n, f"grouped block-regularized {m}x2 CV")
        side = np.zeros(n, dtype=np.int64)
        for j in range(m):
            side[folds[2 * j + 1]] += 1 << j
        pats, counts = np.unique(side, return_counts=True)
        bits = (pats[:, None] >> np.arange(m)) & 1
        if len(pats) != B or np.any(bits.sum(0) != B // 2) or any(
                (bits[:, a] & bits[:, b]).sum() != B // 4 for a, b in itertools.combinations(range(m), 2)):
            raise ValueError(f"folds 0-{2 * m - 1} are not made of {B} blocks laid out by the "
                             f"{m}x2 BCV's orthogonal array: the records fall into {len(pats)} "
                             f"groups (same side in every replication)")
        return [] if counts.min() == counts.max() else [
            f"blocks of {counts.min()} to {counts.max()} records (as in a grouped BCV): the "
            f"halves are not exactly n/2, and the tests read each fold's own sizes"]


# ---- checks of user-supplied folds
def _as_folds(test_sets, n: int) -> List[np.ndarray]:
    """Each fold as a 1-d int array of distinct rows in [0, n)."""
    if isinstance(test_sets, np.ndarray) and test_sets.ndim == 1 and test_sets.dtype != object:
        raise ValueError("test_sets must be a list of index arrays (one per fold), "
                         "got one flat array")
    try:
        raw = list(test_sets)
    except TypeError:
        raise ValueError(f"test_sets must be a list of index arrays, got {type(test_sets).__name__}") from None
    folds = []
    for i, t in enumerate(raw):
        a = np.asarray(t)
        if a.ndim != 1 or a.size == 0:
            raise ValueError(f"fold {i}: its rows must be a non-empty 1-d array of record indices")
        if not np.issubdtype(a.dtype, np.integer):
            if np.issubdtype(a.dtype, np.floating) and np.all(np.isfinite(a)) and np.all(a == np.round(a)):
                a = a.astype(np.int64)
            else:
                raise ValueError(f"fold {i}: rows must be integer record indices, got {a.dtype}")
        bad = np.flatnonzero((a < 0) | (a >= n))
        if bad.size:
            raise ValueError(f"fold {i}: row {int(a[bad[0]])} is outside 0..{n - 1} "
                             f"(rows are 0-based, n = {n})")
        s = np.sort(a)
        dup = np.flatnonzero(s[1:] == s[:-1])
        if dup.size:
            raise ValueError(f"fold {i}: row {int(s[dup[0]])} is listed twice")
        folds.append(s)
    return folds


def _check_count(folds, expected: int, what: str):
    if len(folds) != expected:
        raise ValueError(f"a {what} has {expected} folds, got {len(folds)}")


def _check_partition(folds, which: Sequence[int], n: int, where: str = ""):
    """The folds ``which`` are disjoint and together hold every record."""
    owner = np.full(n, -1)
    for i in which:
        clash = folds[i][owner[folds[i]] >= 0]
        if clash.size:
            row = int(clash[0])
            raise ValueError(f"{where}row {row} is in both fold {owner[row]} and fold {i}")
        owner[folds[i]] = i
    missing = np.flatnonzero(owner < 0)
    if missing.size:
        which = list(which)
        folds_named = (f"neither fold {which[0]} nor fold {which[1]}" if len(which) == 2
                       else f"none of folds {which[0]}-{which[-1]}")
        raise ValueError(f"{where}row {int(missing[0])} is in {folds_named} "
                         f"({missing.size} record{'s' if missing.size > 1 else ''} missing)")


def _check_halves(folds, m: int, n: int, what: str):
    """2m folds; folds 2j-2 and 2j-1 (0-based) split the n records in two."""
    _check_count(folds, 2 * m, f"{what} (2 folds per replication, m = {m})")
    for j in range(m):
        _check_partition(folds, (2 * j, 2 * j + 1), n, f"replication {j + 1}: ")


def _interval(lo: int, hi: int, centre: float) -> str:
    """"75 +- 1" when [lo, hi] is symmetric about an integer centre, else "74 to 76"."""
    if lo == hi:
        return f"exactly {lo}"
    c = int(round(centre))
    if centre == c and hi - c == c - lo:
        return f"{c} +- {hi - c}"
    return f"{lo} to {hi}"


def _check_bcv(folds, m: int, n: int, extra_rule: str) -> List[str]:
    """Folds of an m x 2 BCV, whatever rule placed the extra records.

    Errors: folds (2j-2, 2j-1) not complementary halves; a half outside
    B/2*q .. B/2*q + min(r, B/2) records (B/2 blocks of q or q + 1); two
    training sets sharing a number of records outside B/4*q .. B/4*q +
    min(r, B/4) (the BCV's regularization condition: B/4 blocks, about n/4).
    Warnings: records not in B groups of q or q + 1 (another construction
    with the same overlaps), halves other than pybcv's extra-record rule."""
    B = bcv_n_blocks(m)
    name = f"block-regularized {m}x2 CV"
    _check_halves(folds, m, n, name)
    q, r = divmod(n, B)
    # a training set is B/2 blocks of q or q + 1 records
    h_lo, h_hi = B // 2 * q, B // 2 * q + min(r, B // 2)
    for i, f in enumerate(folds):
        if not h_lo <= len(f) <= h_hi:
            raise ValueError(f"fold {i} tests {len(f)} records where a {name} of {n} records "
                             f"tests halves of {_interval(h_lo, h_hi, n / 2)} records")
    # two training sets share B/4 blocks
    trains = [np.setdiff1d(np.arange(n), folds[2 * j], assume_unique=True) for j in range(m)]
    o_lo, o_hi = B // 4 * q, B // 4 * q + min(r, B // 4)
    overlaps = [(a, b, np.intersect1d(trains[a], trains[b], assume_unique=True).size)
                for a, b in itertools.combinations(range(m), 2)]
    bad = [(a, b, ov) for a, b, ov in overlaps if not o_lo <= ov <= o_hi]
    if bad:
        a, b, ov = bad[0]
        more = "" if len(bad) == 1 else f" ({len(bad)} of {m * (m - 1) // 2} pairs are outside)"
        raise ValueError(
            f"folds 0-{2 * m - 1} form a repeated 2-fold CV, not a {name}: training sets of "
            f"replications {a + 1} and {b + 1} overlap in {ov} records where the BCV requires "
            f"{_interval(o_lo, o_hi, n / 4)}{more}")
    warnings = []
    # pybcv's design: the records fall into B blocks (same side in every replication)
    side = np.zeros(n, dtype=np.int64)
    for j in range(m):
        side[trains[j]] += 1 << j
    _, counts = np.unique(side, return_counts=True)
    if len(counts) != B or counts.min() < q or counts.max() > q + (r > 0):
        warnings.append(
            f"the training-set overlaps meet the BCV's condition, but the records fall into "
            f"{len(counts)} groups (same side in every replication) of {counts.min()} to "
            f"{counts.max()} records, where pybcv's {name} has {B} blocks of "
            + (f"{q}" if r == 0 else f"{q} or {q + 1}") + " records")
    own = [len(te) for te in BlockRegularizedMx2CV(m, extra_rule, shuffle=False).test_sets(n)]
    got = [len(f) for f in folds]
    for j in range(m):
        if sorted(got[2 * j:2 * j + 2]) != sorted(own[2 * j:2 * j + 2]):
            warnings.append(
                f"replication {j + 1} has halves of {got[2 * j]} and {got[2 * j + 1]} records where "
                f"pybcv's '{extra_rule}' rule for the n mod {B} = {r} extra records gives "
                f"{own[2 * j]} and {own[2 * j + 1]}")
    return warnings
