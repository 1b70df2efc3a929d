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
from typing import List, Tuple

import numpy as np
from numpy.random.bit_generator import ISeedSequence


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


# ---- many streams at once -------------------------------------------------
# A learner-free batch needs a Generator per (repetition, design): 8,000 for
# 1000 Table-5 repetitions, at ~17 us each through SeedSequence, more than
# the draws themselves.  ``rngs`` makes the same Generators from the same
# SeedSequence words, computed for every key at once with numpy: numpy's
# SeedSequence algorithm (pool of 4 uint32 words; the hashmix and mix
# constants of numpy/random/bit_generator.pyx), its ``generate_state(4,
# np.uint64)`` being what PCG64 is seeded with.  tests/test_seeds_batch.py
# holds every word equal to numpy's own SeedSequence.
_POOL = 4
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_M32 = 0xFFFFFFFF
_BATCH = 32         # fewer keys: numpy's SeedSequence one at a time is faster


def _words32(n: int) -> List[int]:
    """A non-negative int as numpy's SeedSequence reads it: 32-bit words,
    least significant first ([0] for 0)."""
    out = [n & _M32]
    n >>= 32
    while n:
        out.append(n & _M32)
        n >>= 32
    return out


def _hashmix(value: np.ndarray, h: int) -> Tuple[np.ndarray, int]:
    value = value ^ np.uint32(h)
    h = (h * _MULT_A) & _M32
    value = value * np.uint32(h)
    return value ^ (value >> np.uint32(16)), h


def _mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    r = np.uint32(_MIX_L) * x - np.uint32(_MIX_R) * y
    return r ^ (r >> np.uint32(16))


def pcg64_words(seed, keys: np.ndarray) -> np.ndarray:
    """(K, 4) uint64: row k is ``SeedSequence(seed, spawn_key=keys[k])
    .generate_state(4, np.uint64)``, for a (K, S) array of spawn keys whose
    entries are below 2**32 (one word each)."""
    keys = np.asarray(keys, dtype=np.uint64)
    run = _words32(check_seed(seed))
    if keys.shape[1] and len(run) < _POOL:
        run += [0] * (_POOL - len(run))
    K = keys.shape[0]
    entropy = np.concatenate([np.broadcast_to(np.asarray(run, np.uint32), (K, len(run))),
                              keys.astype(np.uint32)], axis=1)
    with np.errstate(over="ignore"):
        h, pool = _INIT_A, []
        for i in range(_POOL):
            v, h = _hashmix(entropy[:, i] if i < entropy.shape[1] else np.zeros(K, np.uint32), h)
            pool.append(v)
        for src in range(_POOL):
            for dst in range(_POOL):
                if src != dst:
                    v, h = _hashmix(pool[src], h)
                    pool[dst] = _mix(pool[dst], v)
        for src in range(_POOL, entropy.shape[1]):
            for dst in range(_POOL):
                v, h = _hashmix(entropy[:, src], h)
                pool[dst] = _mix(pool[dst], v)
        h, state = _INIT_B, np.empty((K, 8), np.uint32)
        for i in range(8):
            v = pool[i % _POOL] ^ np.uint32(h)
            h = (h * _MULT_B) & _M32
            v = v * np.uint32(h)
            state[:, i] = v ^ (v >> np.uint32(16))
    return state.astype("<u4").view("<u8").astype(np.uint64)


class _Words(ISeedSequence):
    """A SeedSequence's PCG64 state words, computed beforehand."""
    __slots__ = ("words",)

    def __init__(self, words):
        self.words = words

    def generate_state(self, n_words, dtype=np.uint32):
        if n_words != 4 or np.dtype(dtype) != np.uint64:
            raise ValueError("precomputed words serve PCG64's seeding only")
        return self.words


def rngs(seed, r, *key) -> List[np.random.Generator]:
    """``[rng(SeedSequence(seed, spawn_key=(r_i, *key))) for r_i in r]``,
    the same Generators, made together (:func:`pcg64_words`)."""
    keys = [(int(ri),) + tuple(int(k) for k in key) for ri in np.asarray(r).reshape(-1)]
    if len(keys) < _BATCH or not all(0 <= k <= _M32 for row in keys for k in row):
        # a few keys (numpy's SeedSequence is faster), or not one word each
        return [rng(np.random.SeedSequence(check_seed(seed), spawn_key=row)) for row in keys]
    words = pcg64_words(seed, np.asarray(keys, dtype=np.uint64).reshape(len(keys), 1 + len(key)))
    return [np.random.Generator(np.random.PCG64(_Words(w))) for w in words]
