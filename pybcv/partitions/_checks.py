"""Argument checks and random-stream helpers shared by the partition schemes."""
from __future__ import annotations

import math
import numbers

import numpy as np


def as_generator(rng) -> np.random.Generator:
    """A ``numpy.random.Generator`` from a seed, a SeedSequence, a Generator
    or ``None`` (fresh entropy).

    >>> as_generator(0).integers(10)
    8
    """
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


def check_n(n, minimum: int, scheme: str) -> int:
    """``n`` as an int of at least ``minimum`` records."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise ValueError(f"n must be a positive integer (number of records), got {n!r}")
    n = int(n)
    if n < minimum:
        raise ValueError(f"too few records for {scheme}: n = {n}, needs at least {minimum}")
    return n


def check_int(name, v, lo, hi=None) -> int:
    """``v`` as an int in [lo, hi]; the message names the argument."""
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {v!r}")
    v = int(v)
    if v < lo or (hi is not None and v > hi):
        rng = f">= {lo}" if hi is None else f"in [{lo}, {hi}]"
        raise ValueError(f"{name} must be an integer {rng}, got {v}")
    return v


def check_train_size(train_size):
    """A fraction in (0, 1) or a positive integer count."""
    if isinstance(train_size, bool):
        raise ValueError("train_size must be a fraction in (0, 1) or an integer count")
    if isinstance(train_size, numbers.Integral):
        if train_size < 1:
            raise ValueError(f"train_size must be a positive count of records, got {train_size}")
        return train_size
    try:
        f = float(train_size)
    except (TypeError, ValueError):
        raise ValueError(f"train_size must be a fraction in (0, 1), got {train_size!r}") from None
    if not (0.0 < f < 1.0) or not math.isfinite(f):
        raise ValueError(f"train_size must be a fraction in (0, 1), got {train_size!r}")
    return train_size


def train_size_of(n: int, train_size) -> int:
    """``n1 = round(f*n)`` (Python's round) for a fraction f, kept in
    [1, n-1]; an integer is taken as the training size itself.

    >>> train_size_of(300, 2 / 3), train_size_of(301, 0.9), train_size_of(10, 7)
    (200, 271, 7)
    """
    check_train_size(train_size)
    if isinstance(train_size, numbers.Integral):
        n1 = int(train_size)
        if not 1 <= n1 <= n - 1:
            raise ValueError(f"train_size = {n1} records leaves no record on one side (n = {n})")
        return n1
    return min(max(int(round(float(train_size) * n)), 1), n - 1)
