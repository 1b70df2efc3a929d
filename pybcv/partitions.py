"""Partition designs: index arrays, and scikit-learn splitters built on them.

A partition set is a list of ``(train_idx, test_idx)`` pairs of disjoint
integer arrays.  Every random scheme starts from a permutation drawn from a
``numpy.random.Generator`` (``rng`` may be a seed, a Generator, or ``None``);
``shuffle=False`` uses the identity permutation (for worked examples).

Schemes (TESTS_SPEC §1):

==========================  ====  =============================================
function                    spec  used by
==========================  ====  =============================================
:func:`holdout`             P1    proportion z, HO McNemar
:func:`repeated_holdout`    P2    RHO t (J=15, 2/3), corrected RHO t (J=15, 9/10)
:func:`kfold`               P3    10-fold t, CV-CI z, naive 10-fold McNemar
:func:`repeated_kfold`      P4    corrected 10x10 CV t
:func:`random_mx2`          P5    5x2 CV t, combined 5x2 t and F
:func:`bcv_blocks`          P6    blocks of the block-regularized CV
:func:`bcv_mx2`             P7-9  m x 2 BCV (3x2: blocked t; 5x2: BCV McNemar, calibrated F)
:func:`pseudo_bootstrap`    P10   (corrected) pseudo-bootstrap
:func:`conservative_z`      P10   conservative Z
==========================  ====  =============================================

For the m x 2 schemes the fold order is (j=1,k=1), (j=1,k=2), ..., (j=m,k=2):
k = 1 trains on S_j and validates on T_j, k = 2 the reverse.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Dict, List, Sequence, Tuple

import numpy as np

Split = Tuple[np.ndarray, np.ndarray]

MAX_BCV_M = 15

# Extra-record orders (1-based block numbers) for the "balanced" rule, per m.
# Found by exhaustive search over all B! orders (B <= 8): among the orders
# with the smallest max_j ||S_j| - |T_j|| for every r (lexicographically; the
# profile 1, 2, 1, 0, 1, 2, 1 of TESTS_SPEC P6 for m = 5), those that also keep
# every pairwise overlap |S_j & S_j'| within 1 of n/4, and among them the one
# whose prefix sets agree longest with the spec's order (1, 7, 2, 8, 3, 5, 4, 6).
# For m = 5 it gives the spec's block sizes whenever r = n mod 8 >= 4 (e.g.
# n = 300, 301); for r <= 3 the spec's order would put two extras into one
# pairwise overlap (|S_j & S_j'| = n/4 + 1.25 at r = 3), ours does not.
_EXTRA_ORDER_M = {
    1: (1, 2),
    2: (1, 4, 2, 3),
    3: (1, 2, 3, 4),
    4: (1, 7, 8, 2, 3, 5, 4, 6),
    5: (2, 7, 8, 1, 3, 5, 4, 6),
    6: (2, 3, 5, 8, 1, 7, 4, 6),
    7: (2, 3, 7, 1, 8, 5, 4, 6),
}
SPEC_EXTRA_ORDER_5X2 = (1, 7, 2, 8, 3, 5, 4, 6)


# --------------------------------------------------------------------------
# input checks
# --------------------------------------------------------------------------
def as_generator(rng) -> np.random.Generator:
    """A ``numpy.random.Generator`` from a seed, a Generator or ``None``."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, (numbers.Integral, np.random.SeedSequence)):
        if isinstance(rng, numbers.Integral) and rng < 0:
            raise ValueError(f"random_state must be a non-negative integer, got {rng}")
        return np.random.default_rng(rng)
    if isinstance(rng, np.random.RandomState):
        raise ValueError("random_state: pass an int seed or a numpy.random.Generator, "
                         "not a legacy RandomState")
    raise ValueError(f"random_state must be None, an int or a numpy.random.Generator, "
                     f"got {type(rng).__name__}")


def _check_n(n, minimum: int, scheme: str) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise ValueError(f"n must be a positive integer (number of records), got {n!r}")
    n = int(n)
    if n < minimum:
        raise ValueError(f"too few records for {scheme}: n = {n}, needs at least {minimum}")
    return n


def _check_int(name, v, lo, hi=None) -> int:
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {v!r}")
    v = int(v)
    if v < lo or (hi is not None and v > hi):
        rng = f">= {lo}" if hi is None else f"in [{lo}, {hi}]"
        raise ValueError(f"{name} must be an integer {rng}, got {v}")
    return v


def train_size_of(n: int, train_size) -> int:
    """``n1 = round(f*n)`` (Python's round) for a fraction, kept in [1, n-1];
    an integer is taken as the training size itself."""
    if isinstance(train_size, bool):
        raise ValueError("train_size must be a fraction in (0, 1) or an integer count")
    if isinstance(train_size, numbers.Integral):
        n1 = int(train_size)
        if not 1 <= n1 <= n - 1:
            raise ValueError(f"train_size = {n1} records leaves no record on one side (n = {n})")
        return n1
    f = float(train_size)
    if not (0.0 < f < 1.0) or not math.isfinite(f):
        raise ValueError(f"train_size must be a fraction in (0, 1), got {train_size!r}")
    return min(max(int(round(f * n)), 1), n - 1)


def _perm(n, rng, shuffle):
    if not shuffle:
        return np.arange(n)
    return as_generator(rng).permutation(n)


def _complement_splits(n: int, tests: List[np.ndarray]) -> List[Split]:
    """(train, test) pairs, train = every record not in test; both sorted."""
    out = []
    for t in tests:
        mask = np.ones(n, dtype=bool)
        mask[t] = False
        out.append((mask.nonzero()[0], np.sort(t)))     # nonzero(): flatnonzero's result, less overhead
    return out


# --------------------------------------------------------------------------
# P1 - P5.  Each scheme says only how it chooses its validation (test)
# indices (``*_test_sets``, unsorted); the training set of every fold is the
# complement (``_complement_splits``), except in the conservative-Z design.
# --------------------------------------------------------------------------
def holdout_test_sets(n, g, n1, n_repeats=1, shuffle=True):
    """P1/P2: the last n - n1 records of each of ``n_repeats`` permutations."""
    return [_perm(n, g, shuffle)[n1:] for _ in range(n_repeats)]


def kfold_test_sets(n, g, k, n_repeats=1, shuffle=True):
    """P3/P4: per run, one permutation cut into k contiguous folds (the first
    ``n mod k`` folds one record larger)."""
    sizes = np.full(k, n // k)
    sizes[: n % k] += 1
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    out = []
    for _ in range(n_repeats):
        p = _perm(n, g, shuffle)
        out += [p[bounds[i]:bounds[i + 1]] for i in range(k)]
    return out


def random_mx2_test_sets(n, g, m, shuffle=True):
    """P5: per replication a permutation; fold k = 1 validates T_i (records
    floor(n/2)..n-1 of it), fold k = 2 validates S_i (the first floor(n/2))."""
    out = []
    h = n // 2
    for _ in range(m):
        p = _perm(n, g, shuffle)
        out += [p[h:], p[:h]]
    return out


def holdout(n, rng=None, train_size=2 / 3, shuffle=True) -> List[Split]:
    """P1: one hold-out split; the first n1 permuted records train."""
    return repeated_holdout(n, rng, 1, train_size, shuffle)


def repeated_holdout(n, rng=None, n_repeats=15, train_size=2 / 3, shuffle=True) -> List[Split]:
    """P2: J independent hold-out splits, each from a fresh permutation."""
    n = _check_n(n, 2, "hold-out")
    J = _check_int("n_repeats", n_repeats, 1)
    n1 = train_size_of(n, train_size)
    g = as_generator(rng) if shuffle else None
    return _complement_splits(n, holdout_test_sets(n, g, n1, J, shuffle))


def kfold(n, rng=None, k=10, shuffle=True) -> List[Split]:
    """P3: one permutation cut into k contiguous folds (sizes differ by <= 1,
    the first ``n mod k`` folds get the extra record); fold i validates."""
    return repeated_kfold(n, rng, k, 1, shuffle)


def repeated_kfold(n, rng=None, k=10, n_repeats=10, shuffle=True) -> List[Split]:
    """P4: r independent k-fold partitions (fold order: run 1 folds 1..k, run 2 ...)."""
    k = _check_int("k", k, 2)
    n = _check_n(n, k, f"{k}-fold CV")
    r = _check_int("n_repeats", n_repeats, 1)
    g = as_generator(rng) if shuffle else None
    return _complement_splits(n, kfold_test_sets(n, g, k, r, shuffle))


def random_mx2(n, rng=None, m=5, shuffle=True) -> List[Split]:
    """P5: m x 2 random CV (Dietterich/Alpaydin): per replication a fresh
    permutation, S_i = the first floor(n/2) records, T_i = the rest."""
    m = _check_int("m", m, 1)
    n = _check_n(n, 2, f"{m}x2 CV")
    g = as_generator(rng) if shuffle else None
    return _complement_splits(n, random_mx2_test_sets(n, g, m, shuffle))


# --------------------------------------------------------------------------
# P6 - P9: block-regularized m x 2 CV from two-level orthogonal arrays
# --------------------------------------------------------------------------
def bcv_n_blocks(m: int) -> int:
    """B = 2^k blocks with k = ceil(log2(m+1))."""
    m = _check_int("m", m, 1, MAX_BCV_M)
    return 2 ** math.ceil(math.log2(m + 1))


def _parity(x: int) -> int:
    return bin(x).count("1") & 1


@lru_cache(maxsize=None)
def bcv_columns(m: int) -> Tuple[int, ...]:
    """The GF(2)^k vectors a_j (as integers) of the m columns, in the order
    returned: the [YWSL] table order for m = 5 and the L4 order for m = 3,
    otherwise 1..m."""
    m = _check_int("m", m, 1, MAX_BCV_M)
    if m == 5:
        return (4, 1, 2, 3, 5)
    if m == 3:
        return (2, 1, 3)
    return tuple(range(1, m + 1))


@lru_cache(maxsize=None)
def bcv_design_matrix(m: int) -> np.ndarray:
    """Boolean (m, B) matrix: entry (j, b) is True when block D_{b+1} is in S_j.

    ``S_j = {D_b : a_j . v_b = 0 (mod 2)}`` with v_b the bits of b-1 (P9)."""
    B = bcv_n_blocks(m)
    cols = bcv_columns(m)
    M = np.array([[_parity(a & b) == 0 for b in range(B)] for a in cols], dtype=bool)
    M.setflags(write=False)
    return M


@lru_cache(maxsize=None)
def extra_record_order(m: int) -> Tuple[int, ...]:
    """1-based block order that receives the ``n mod B`` extra records of an
    m x 2 BCV under the "balanced" rule (see ``_EXTRA_ORDER_M``).

    For m >= 8 (B = 16) a greedy order: each next extra goes to the block that
    keeps max_j ||S_j| - |T_j|| and then max |overlap - n/4| smallest.  There
    no order keeps every overlap within 1 of n/4 for every r: for m = 15 and
    r = 2 the two extra blocks and D1 lie in one 2-dimensional subspace, which
    is the overlap of two training sets, so that overlap is n/4 + 1.5."""
    m = _check_int("m", m, 1, MAX_BCV_M)
    if m in _EXTRA_ORDER_M:
        return _EXTRA_ORDER_M[m]
    B = bcv_n_blocks(m)
    S = bcv_design_matrix(m).astype(int)
    pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
    inter = np.array([S[i] & S[j] for i, j in pairs], dtype=int)
    chosen: List[int] = []
    extra = np.zeros(B, dtype=int)
    for r in range(1, B + 1):
        best, best_key = None, None
        for b in range(B):
            if extra[b]:
                continue
            extra[b] = 1
            key = (int(np.abs(S @ extra * 2 - r).max()), float(np.abs(inter @ extra - r / 4).max()), b)
            extra[b] = 0
            if best_key is None or key < best_key:
                best, best_key = b, key
        extra[best] = 1
        chosen.append(best + 1)
    return tuple(chosen)


def bcv_block_sizes(n: int, n_blocks: int, extra_rule: str = "balanced", m: int = None) -> np.ndarray:
    """P6: sizes of the B blocks: q = n // B each, the r = n mod B extras to
    the blocks first in the extra-record order of the m x 2 design
    ("balanced"; m defaults to 5 for B = 8, 3 for B = 4, 1 for B = 2 and 15
    for B = 16), to D1..Dr ("first", the authors' group's code), or in the
    order of TESTS_SPEC P6 ("spec", B = 8 only)."""
    q, r = divmod(n, n_blocks)
    sizes = np.full(n_blocks, q, dtype=int)
    if extra_rule == "balanced":
        if m is None:
            m = {2: 1, 4: 3, 8: 5, 16: 15}.get(n_blocks)
            if m is None:
                raise ValueError(f"n_blocks must be 2, 4, 8 or 16 for the balanced rule, got {n_blocks}")
        order = extra_record_order(m)
    elif extra_rule == "first":
        order = tuple(range(1, n_blocks + 1))
    elif extra_rule == "spec":
        if n_blocks != 8:
            raise ValueError("extra_rule='spec' is defined for the 5x2 BCV (8 blocks) only")
        order = SPEC_EXTRA_ORDER_5X2
    else:
        raise ValueError(f"extra_rule must be 'balanced', 'first' or 'spec', got {extra_rule!r}")
    for b in order[:r]:
        sizes[b - 1] += 1
    return sizes


def bcv_blocks(n, rng=None, n_blocks=8, extra_rule="balanced", shuffle=True, m=None) -> List[np.ndarray]:
    """P6: the B blocks D_1..D_B as contiguous slices of one permutation."""
    B = _check_int("n_blocks", n_blocks, 2)
    n = _check_n(n, B, f"block-regularized CV with {B} blocks")
    sizes = bcv_block_sizes(n, B, extra_rule, m)
    p = _perm(n, rng, shuffle)
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    return [p[bounds[b]:bounds[b + 1]] for b in range(B)]


@lru_cache(maxsize=256)
def bcv_test_positions(n: int, m: int, extra_rule: str = "balanced") -> np.ndarray:
    """Positions, in the design's permutation, of the concatenated test sets
    T_1, S_1, T_2, S_2, ... of an m x 2 BCV of n records (the fold order)."""
    B = bcv_n_blocks(m)
    sizes = bcv_block_sizes(n, B, extra_rule, m)
    block_of = np.repeat(np.arange(B), sizes)
    M = bcv_design_matrix(m)
    out = []
    for j in range(m):
        in_S = M[j][block_of]
        out += [np.flatnonzero(~in_S), np.flatnonzero(in_S)]
    pos = np.concatenate(out)
    pos.setflags(write=False)
    return pos


def bcv_test_sets(n, g, m, extra_rule="balanced", shuffle=True):
    """P7-P9: the 2m validation sets T_1, S_1, ..., T_m, S_m (unsorted)."""
    p = _perm(n, g, shuffle)
    return np.split(p[bcv_test_positions(n, m, extra_rule)], _bcv_cuts(n, m, extra_rule))


@lru_cache(maxsize=256)
def _bcv_cuts(n, m, extra_rule):
    B = bcv_n_blocks(m)
    sizes = bcv_block_sizes(n, B, extra_rule, m)
    M = bcv_design_matrix(m)
    lens = []
    for j in range(m):
        s = int(sizes[M[j]].sum())
        lens += [n - s, s]
    return tuple(np.cumsum(lens)[:-1])


def bcv_mx2(n, rng=None, m=5, extra_rule="balanced", shuffle=True) -> List[Split]:
    """P7-P9: m x 2 block-regularized CV (1 <= m <= 15).

    Training folds S_j are unions of B/2 blocks given by column a_j of the
    two-level orthogonal array; any two S_j share B/4 blocks (about n/4
    records).  m = 5 gives the [YWSL] table, m = 3 the L4 design (P7).
    Needs n >= B.  Returns 2m splits in the order (j,1), (j,2)."""
    m = _check_int("m", m, 1, MAX_BCV_M)
    B = bcv_n_blocks(m)
    n = _check_n(n, B, f"block-regularized CV with {B} blocks")
    g = as_generator(rng) if shuffle else None
    return _complement_splits(n, bcv_test_sets(n, g, m, extra_rule, shuffle))


# --------------------------------------------------------------------------
# P10: Nadeau-Bengio designs
# --------------------------------------------------------------------------
def pseudo_bootstrap(n, rng=None, n_repeats=15, n_replicates=15, train_size=0.9,
                     shuffle=True) -> List[Split]:
    """P10: (R+1)*J independent hold-out splits with n1 = 9n/10; the first J
    give mu_hat, each further block of J one replicate."""
    J = _check_int("n_repeats", n_repeats, 1)
    R = _check_int("n_replicates", n_replicates, 2)
    return repeated_holdout(n, rng, (R + 1) * J, train_size, shuffle)


def conservative_z(n, rng=None, n_repeats=15, n_halvings=10, train_size=0.9,
                   shuffle=True) -> List[Split]:
    """P10 conservative Z: J hold-out splits on all n records (n1 = round(0.9n)),
    then M times a random half-split into H1, H2 of n' = floor(n/2) records
    each, and J hold-out splits inside each half with the same test size n2
    and n1' = n' - n2.  Order: J full, then for m = 1..M: J on H1, J on H2.
    Needs n2 < n'."""
    J = _check_int("n_repeats", n_repeats, 1)
    M = _check_int("n_halvings", n_halvings, 1)
    n = _check_n(n, 4, "conservative Z")
    n1 = train_size_of(n, train_size)
    n2 = n - n1
    half = n // 2
    if n2 >= half:
        raise ValueError(f"conservative Z needs test size n2 = {n2} below n/2 = {half}; "
                         f"raise train_size (got {train_size})")
    g = as_generator(rng)
    out = repeated_holdout(n, g, J, n1, shuffle)
    for _ in range(M):
        p = _perm(n, g, shuffle)
        for h in (p[:half], p[half:2 * half]):
            for _ in range(J):
                q = _perm(half, g, shuffle)
                out.append((np.sort(h[q[: half - n2]]), np.sort(h[q[half - n2:]])))
    return out


# --------------------------------------------------------------------------
# Named designs (what the 17 tests need), with their fold sizes
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Design:
    """A named partition design: ``splits(n, rng)`` and its parameters."""
    key: str
    description: str
    function: Callable[..., List[Split]] = field(repr=False)
    params: Dict = field(default_factory=dict)
    min_n: int = 2
    test_function: Callable = field(default=None, repr=False)

    def splits(self, n, rng=None, **overrides) -> List[Split]:
        return self.function(n, rng, **{**self.params, **overrides})

    def test_sets(self, n, rng=None) -> List[np.ndarray]:
        """The validation index sets (unsorted) of ``splits(n, rng)``, drawn
        with the same random numbers; enough for learner-free outcomes."""
        if self.test_function is None:
            return [te for _, te in self.splits(n, rng)]
        n = _check_n(n, self.min_n, self.description)
        return self.test_function(n, as_generator(rng), **self.params)

    def n_splits(self, n: int) -> int:
        return len(self.sizes(n)[0])

    def sizes(self, n: int) -> Tuple[np.ndarray, np.ndarray]:
        """(n_train, n_test) of every fold; they depend on n only."""
        return _sizes(self.key, n)


def _ho_tests(n, g, train_size, n_repeats=1):
    return holdout_test_sets(n, g, train_size_of(n, train_size), n_repeats)


@lru_cache(maxsize=256)
def _sizes(key, n):
    sp = DESIGNS[key].splits(n, np.random.default_rng(0), shuffle=False)
    a = np.array([len(t) for t, _ in sp]), np.array([len(v) for _, v in sp])
    for x in a:
        x.setflags(write=False)
    return a


DESIGNS: Dict[str, Design] = {d.key: d for d in [
    Design("holdout", "hold-out, n1 = 2n/3 (P1)", holdout, {"train_size": 2 / 3}, 2, _ho_tests),
    Design("rho15_2of3", "15 repeated hold-outs, n1 = 2n/3 (P2)", repeated_holdout,
           {"n_repeats": 15, "train_size": 2 / 3}, 2, _ho_tests),
    Design("rho15_9of10", "15 repeated hold-outs, n1 = 9n/10 (P2)", repeated_holdout,
           {"n_repeats": 15, "train_size": 0.9}, 2, _ho_tests),
    Design("cv10", "10-fold CV (P3)", kfold, {"k": 10}, 10, kfold_test_sets),
    Design("cv10x10", "10 x 10-fold CV (P4)", repeated_kfold, {"k": 10, "n_repeats": 10}, 10,
           kfold_test_sets),
    Design("rcv5x2", "5x2 random CV (P5)", random_mx2, {"m": 5}, 2, random_mx2_test_sets),
    Design("bcv3x2", "3x2 block-regularized CV, L4 (P7)", bcv_mx2, {"m": 3}, 4, bcv_test_sets),
    Design("bcv5x2", "5x2 block-regularized CV, [YWSL] table (P8)", bcv_mx2, {"m": 5}, 8,
           bcv_test_sets),
    Design("pseudo_bootstrap", "(R+1)J = 240 hold-outs, n1 = 9n/10 (P10)", pseudo_bootstrap,
           {"n_repeats": 15, "n_replicates": 15, "train_size": 0.9}, 2,
           lambda n, g, n_repeats, n_replicates, train_size: holdout_test_sets(
               n, g, train_size_of(n, train_size), (n_replicates + 1) * n_repeats)),
    Design("conservative_z", "J(1+2M) = 315 hold-outs on all data and half-splits (P10)",
           conservative_z, {"n_repeats": 15, "n_halvings": 10, "train_size": 0.9}, 4),
]}


def get_design(key: str) -> Design:
    try:
        return DESIGNS[key]
    except KeyError:
        raise ValueError(f"unknown partition design {key!r}; known: {sorted(DESIGNS)}") from None


# --------------------------------------------------------------------------
# scikit-learn splitters
# --------------------------------------------------------------------------
class _BaseSplitter:
    """Base splitter: subclasses say only how they build the index pairs.

    ``split(X, y=None, groups=None)`` yields (train, test) index arrays and
    ``get_n_splits`` counts them, so a splitter works as ``cv=`` in
    ``sklearn.model_selection.cross_validate``.  With an int ``random_state``
    every call of ``split`` gives the same partition."""

    _n_min = 2

    def __init__(self, random_state=None):
        self.random_state = random_state

    def _splits(self, n, rng) -> List[Split]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _rng(self):
        if isinstance(self.random_state, np.random.Generator):
            return self.random_state
        return as_generator(self.random_state)

    @staticmethod
    def _n_of(X):
        if X is None:
            raise ValueError("X must be given (array-like with one row per record)")
        if hasattr(X, "shape"):
            return int(X.shape[0])
        return len(X)

    def split(self, X, y=None, groups=None):
        n = self._n_of(X)
        if y is not None and len(y) != n:
            raise ValueError(f"X has {n} records but y has {len(y)}")
        for tr, te in self._splits(n, self._rng()):
            yield tr, te

    def splits(self, n) -> List[Split]:
        """All splits for n records, as a list."""
        return self._splits(n, self._rng())

    def get_n_splits(self, X=None, y=None, groups=None):
        return self._count()

    def get_params(self, deep=True):
        import inspect
        names = [p for p in inspect.signature(type(self).__init__).parameters if p != "self"]
        return {k: getattr(self, k) for k in names}

    def set_params(self, **params):
        for k, v in params.items():
            setattr(self, k, v)
        return self

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"


class HoldOut(_BaseSplitter):
    """P1 hold-out splitter."""

    def __init__(self, train_size=2 / 3, random_state=None):
        self.train_size = train_size
        self.random_state = random_state

    def _splits(self, n, rng):
        return holdout(n, rng, self.train_size)

    def _count(self):
        return 1


class RepeatedHoldOut(_BaseSplitter):
    """P2 repeated hold-out splitter (J independent splits)."""

    def __init__(self, n_repeats=15, train_size=2 / 3, random_state=None):
        self.n_repeats = n_repeats
        self.train_size = train_size
        self.random_state = random_state

    def _splits(self, n, rng):
        return repeated_holdout(n, rng, self.n_repeats, self.train_size)

    def _count(self):
        return self.n_repeats


class KFoldCV(_BaseSplitter):
    """P3 K-fold splitter (shuffled contiguous folds)."""

    def __init__(self, n_splits=10, random_state=None):
        self.n_splits = n_splits
        self.random_state = random_state

    def _splits(self, n, rng):
        return kfold(n, rng, self.n_splits)

    def _count(self):
        return self.n_splits


class RepeatedKFoldCV(_BaseSplitter):
    """P4 r x K-fold splitter."""

    def __init__(self, n_splits=10, n_repeats=10, random_state=None):
        self.n_splits = n_splits
        self.n_repeats = n_repeats
        self.random_state = random_state

    def _splits(self, n, rng):
        return repeated_kfold(n, rng, self.n_splits, self.n_repeats)

    def _count(self):
        return self.n_splits * self.n_repeats


class RandomMx2CV(_BaseSplitter):
    """P5 m x 2 random CV splitter (Dietterich's 5x2 CV for m = 5)."""

    def __init__(self, m=5, random_state=None):
        self.m = m
        self.random_state = random_state

    def _splits(self, n, rng):
        return random_mx2(n, rng, self.m)

    def _count(self):
        return 2 * self.m


class BlockRegularizedMx2CV(_BaseSplitter):
    """P7-P9 m x 2 block-regularized CV splitter (5x2 BCV for m = 5).

    >>> cv = BlockRegularizedMx2CV(m=5, random_state=0)
    >>> len(list(cv.split(np.zeros((40, 1)))))
    10
    """

    def __init__(self, m=5, extra_rule="balanced", random_state=None):
        self.m = m
        self.extra_rule = extra_rule
        self.random_state = random_state

    def _splits(self, n, rng):
        return bcv_mx2(n, rng, self.m, self.extra_rule)

    def _count(self):
        return 2 * _check_int("m", self.m, 1, MAX_BCV_M)


class PseudoBootstrapSplit(_BaseSplitter):
    """P10 pseudo-bootstrap design ((R+1)J hold-outs)."""

    def __init__(self, n_repeats=15, n_replicates=15, train_size=0.9, random_state=None):
        self.n_repeats = n_repeats
        self.n_replicates = n_replicates
        self.train_size = train_size
        self.random_state = random_state

    def _splits(self, n, rng):
        return pseudo_bootstrap(n, rng, self.n_repeats, self.n_replicates, self.train_size)

    def _count(self):
        return (self.n_replicates + 1) * self.n_repeats


class ConservativeZSplit(_BaseSplitter):
    """P10 conservative-Z design (J(1+2M) hold-outs)."""

    def __init__(self, n_repeats=15, n_halvings=10, train_size=0.9, random_state=None):
        self.n_repeats = n_repeats
        self.n_halvings = n_halvings
        self.train_size = train_size
        self.random_state = random_state

    def _splits(self, n, rng):
        return conservative_z(n, rng, self.n_repeats, self.n_halvings, self.train_size)

    def _count(self):
        return self.n_repeats * (1 + 2 * self.n_halvings)


def check_splits(splits: Sequence[Split], n: int) -> List[Split]:
    """Validate user-given splits: integer arrays within [0, n), disjoint."""
    out = []
    for i, (tr, te) in enumerate(splits):
        tr = np.asarray(tr)
        te = np.asarray(te)
        for name, a in (("train", tr), ("test", te)):
            if a.ndim != 1 or a.size == 0 or not np.issubdtype(a.dtype, np.integer):
                raise ValueError(f"split {i}: {name} indices must be a non-empty 1-d integer array")
            if a.min() < 0 or a.max() >= n:
                raise ValueError(f"split {i}: {name} indices outside [0, {n})")
        if np.intersect1d(tr, te).size:
            raise ValueError(f"split {i}: train and test indices overlap")
        out.append((tr, te))
    return out
