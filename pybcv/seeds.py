"""Random streams of a simulation.

Repetition ``r`` of a run with seed ``s`` owns ``SeedSequence(s, spawn_key=(r,))``;
below it (spawn keys extend the repetition's):

* ``(r, 0)``                 the data set,
* ``(r, 1, design_id)``      the partition of a design (shared by its tests),
* ``(r, 2, test_id)``        a test's own partition when designs are not shared,
* ``(r, 3, learner_id)``     reserved for learners that draw random numbers.

An experiment record with its own ``stream_key`` (RQ1's, since its first
runs) draws from ``(r, 0, key_id)`` (data) and ``(r, 1, key_id)`` (its one
design's partition) instead (:func:`keyed_seq`).

Ids are CRC-32 checksums of the design/test keys, so a stream does not depend
on which designs or tests are selected, on the number of processes, or on
the order of execution.
"""
from __future__ import annotations

import zlib

import numpy as np


def stable_id(key: str) -> int:
    return zlib.crc32(key.encode("utf-8")) & 0x7FFFFFFF


def check_seed(seed) -> int:
    """``seed`` as a Python int: a non-negative integer (int or numpy integer).
    Anything else (1.5, None, True, a Generator, "3") is a ValueError naming
    ``seed``, never truncated: pybcv's folds are always seeded (default 0)."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)) \
            and seed >= 0:
        return int(seed)
    raise ValueError(f"seed must be a non-negative integer, got {seed!r} (pybcv's folds and data "
                     f"are always drawn from an integer seed; default 0)")


def data_seq(seed, r: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(check_seed(seed), spawn_key=(int(r), 0))


def design_seq(seed, r: int, design: str) -> np.random.SeedSequence:
    return np.random.SeedSequence(check_seed(seed), spawn_key=(int(r), 1, stable_id(design)))


def test_seq(seed, r: int, test: str) -> np.random.SeedSequence:
    return np.random.SeedSequence(check_seed(seed), spawn_key=(int(r), 2, stable_id(test)))


def rng(seq: np.random.SeedSequence) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(seq))


def keyed_seq(seed, r: int, part: int, key: str) -> np.random.SeedSequence:
    """``(r, part, stable_id(key))``: the streams of an experiment record with
    its own ``stream_key`` (part 0 its data, part 1 its design's partition)."""
    return np.random.SeedSequence(check_seed(seed), spawn_key=(int(r), int(part), stable_id(key)))
