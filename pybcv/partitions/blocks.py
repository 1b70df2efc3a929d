"""Blocks of the block-regularized m x 2 CV: the two-level orthogonal array,
the block sizes and where each block's records sit in the design's permutation.

The facts (blocks, columns, extra-record rules, fold order) are stated once in
the docstring of :mod:`pybcv.partitions`; see also ``docs/conventions.md``.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import List, Tuple

import numpy as np

from ._checks import as_generator, check_int, check_n

MAX_BCV_M = 15

# Extra-record orders (1-based block numbers) of the "balanced" rule, per m.
# Found by exhaustive search over all B! orders (B <= 8): among the orders with
# the smallest max_j ||S_j| - |T_j|| for every r (lexicographically; for m = 5
# the imbalance profile 1, 2, 1, 0, 1, 2, 1 over r = 1..7), those that also keep
# every pairwise overlap |S_j & S_j'| within 1 of n/4, and among them the one
# whose prefix sets agree longest with the order SPEC_EXTRA_ORDER_5X2.  For
# m = 5 it gives the same block sizes as that order whenever r = n mod 8 >= 4
# (e.g. n = 300, 301); for r <= 3 that order would put two extras into one
# pairwise overlap (|S_j & S_j'| = n/4 + 1.25 at r = 3), this one does not.
_EXTRA_ORDER_M = {
    1: (1, 2),
    2: (1, 4, 2, 3),
    3: (1, 2, 3, 4),
    4: (1, 7, 8, 2, 3, 5, 4, 6),
    5: (2, 7, 8, 1, 3, 5, 4, 6),
    6: (2, 3, 5, 8, 1, 7, 4, 6),
    7: (2, 3, 7, 1, 8, 5, 4, 6),
}
# The order that minimises max_j ||S_j| - |T_j|| alone for the 5x2 BCV
# (extra_rule="spec"; kept so that runs made with it stay reproducible).
SPEC_EXTRA_ORDER_5X2 = (1, 7, 2, 8, 3, 5, 4, 6)


def bcv_n_blocks(m: int) -> int:
    """Number of blocks B = 2^k, k = ceil(log2(m + 1)), of an m x 2 BCV.

    >>> [bcv_n_blocks(m) for m in (1, 3, 5, 7, 8, 15)]
    [2, 4, 8, 8, 16, 16]
    """
    m = check_int("m", m, 1, MAX_BCV_M)
    return 2 ** math.ceil(math.log2(m + 1))


@lru_cache(maxsize=None)
def bcv_columns(m: int) -> Tuple[int, ...]:
    """The GF(2)^k vectors a_j (as integers) of the m columns in replication
    order: the order of the paper's 5x2 table for m = 5, the L4 order for
    m = 3, otherwise 1..m.

    >>> bcv_columns(5)
    (4, 1, 2, 3, 5)
    """
    m = check_int("m", m, 1, MAX_BCV_M)
    if m == 5:
        return (4, 1, 2, 3, 5)
    if m == 3:
        return (2, 1, 3)
    return tuple(range(1, m + 1))


@lru_cache(maxsize=None)
def bcv_design_matrix(m: int) -> np.ndarray:
    """Boolean (m, B) matrix: entry (j, b) is True when block D_{b+1} is in S_j,
    ``S_j = {D_b : a_j . v_b = 0 (mod 2)}`` with v_b the bits of b - 1.

    >>> bcv_design_matrix(3).astype(int)
    array([[1, 1, 0, 0],
           [1, 0, 1, 0],
           [1, 0, 0, 1]])
    """
    B = bcv_n_blocks(m)
    # a_j . b over GF(2) is 0: an even number of common bits
    M = np.array([[bin(a & b).count("1") % 2 == 0 for b in range(B)] for a in bcv_columns(m)],
                 dtype=bool)
    M.setflags(write=False)
    return M


@lru_cache(maxsize=None)
def extra_record_order(m: int) -> Tuple[int, ...]:
    """1-based block order that receives the ``n mod B`` extra records of an
    m x 2 BCV under the "balanced" rule.

    For m <= 7 an exhaustive search (see ``_EXTRA_ORDER_M``).  For m >= 8
    (B = 16) a greedy order: each next extra goes to the block that keeps
    max_j ||S_j| - |T_j|| and then max |overlap - n/4| smallest.  There no
    order keeps every overlap within 1 of n/4 for every r: for m = 15 and
    r = 2 the two extra blocks and D1 lie in one 2-dimensional subspace, which
    is the overlap of two training sets, so that overlap is n/4 + 1.5.

    >>> extra_record_order(5)
    (2, 7, 8, 1, 3, 5, 4, 6)
    """
    m = check_int("m", m, 1, MAX_BCV_M)
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
    """Sizes of the B blocks: q = n // B each; the r = n mod B extra records
    go to the blocks first in the extra-record order of the m x 2 design
    ("balanced"; m defaults to 1, 3, 5, 15 for B = 2, 4, 8, 16), to D1..Dr
    ("first", the authors' incremental generator) or in the order
    ``SPEC_EXTRA_ORDER_5X2`` ("spec", B = 8 only).

    >>> bcv_block_sizes(300, 8).tolist()
    [38, 38, 37, 37, 37, 37, 38, 38]
    >>> bcv_block_sizes(300, 8, "first").tolist()
    [38, 38, 38, 38, 37, 37, 37, 37]
    """
    q, r = divmod(n, n_blocks)
    sizes = np.full(n_blocks, q, dtype=int)
    for b in extra_order_of_rule(n_blocks, extra_rule, m)[:r]:
        sizes[b - 1] += 1
    return sizes


def extra_order_of_rule(n_blocks: int, extra_rule: str = "balanced", m: int = None) -> Tuple[int, ...]:
    """The 1-based block order that receives the extra records under
    ``extra_rule`` (see :func:`bcv_block_sizes`).

    >>> extra_order_of_rule(8, "first")
    (1, 2, 3, 4, 5, 6, 7, 8)
    """
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
    return tuple(order)


@lru_cache(maxsize=256)
def bcv_test_positions(n: int, m: int, extra_rule: str = "balanced") -> np.ndarray:
    """Positions, in the design's permutation, of the concatenated test sets
    T_1, S_1, T_2, S_2, ... of an m x 2 BCV of n records (the fold order);
    block D_b is the b-th contiguous slice of the permutation.

    >>> bcv_test_positions(8, 3).tolist()   # T_1 = D3 D4, S_1 = D1 D2, ...
    [4, 5, 6, 7, 0, 1, 2, 3, 2, 3, 6, 7, 0, 1, 4, 5, 2, 3, 4, 5, 0, 1, 6, 7]
    """
    B = bcv_n_blocks(m)
    pos = np.concatenate(bcv_tests_of_blocks(np.repeat(np.arange(B), bcv_block_sizes(
        n, B, extra_rule, m)), m))
    pos.setflags(write=False)
    return pos


def bcv_tests_of_blocks(block_of: np.ndarray, m: int) -> List[np.ndarray]:
    """Test sets T_1, S_1, T_2, S_2, ... of an m x 2 BCV whose record i lies
    in block ``block_of[i]`` (0-based): the orthogonal-array design applied
    to any blocks (contiguous slices here, the stratified and grouped blocks
    in :mod:`pybcv.partitions.splitters`)."""
    M = bcv_design_matrix(m)
    out = []
    for j in range(m):
        in_S = M[j][block_of]
        out += [np.flatnonzero(~in_S), np.flatnonzero(in_S)]
    return out


@lru_cache(maxsize=256)
def bcv_test_cuts(n: int, m: int, extra_rule: str = "balanced") -> Tuple[int, ...]:
    """Where ``bcv_test_positions`` is cut into the 2m test sets."""
    B = bcv_n_blocks(m)
    tests = bcv_tests_of_blocks(np.repeat(np.arange(B), bcv_block_sizes(n, B, extra_rule, m)), m)
    return tuple(np.cumsum([t.size for t in tests])[:-1].tolist())


def bcv_blocks(n, rng=None, n_blocks=8, extra_rule="balanced", shuffle=True, m=None) -> List[np.ndarray]:
    """The B blocks D_1..D_B as contiguous slices of one permutation.

    >>> [b.tolist() for b in bcv_blocks(10, n_blocks=4, shuffle=False)]
    [[0, 1, 2], [3, 4, 5], [6, 7], [8, 9]]
    """
    B = check_int("n_blocks", n_blocks, 2)
    n = check_n(n, B, f"block-regularized CV with {B} blocks")
    sizes = bcv_block_sizes(n, B, extra_rule, m)
    p = as_generator(rng).permutation(n) if shuffle else np.arange(n)
    bounds = np.concatenate([[0], np.cumsum(sizes)]).tolist()   # slices: np.split is slower
    return [p[lo:hi] for lo, hi in zip(bounds[:-1], bounds[1:])]
