"""A plain numpy simulation of the epsilon column of Table 5: the anchor of
issue 23, item 3 (the engine at the numpy limit).

Written with numpy and scipy alone -- no pybcv import -- from the published
formulas of the tests (docs/conventions.md gives the project's conventions:
"Contingency tables", "Fold order", "Extra records of the BCV", "Zero-variance
rule", "The BCV's t"): Dietterich's
epsilon data (per-record losses, H0 true), the eight partition designs of the
paper's Table-5 tests (hold-out 2/3, 15 RHO 2/3, 15 RHO 9/10, 10-fold, 10x10-fold,
random 5x2, 3x2 BCV, 5x2 BCV), every fold's 2x2 counts, and
the 14 test statistics with their p-values, all
vectorised over the repetitions with one ``numpy.random.Generator``.  Each
record's counts are packed in the bit fields of one integer, and each
design shuffles those integers themselves (``Generator.permuted(...,
out=)``; a shuffle moves values as it would move indices), so a fold's
counts are one sum of its test positions: no index arrays, no gather (an
outside reviewer's plain simulation, faster than this file's first
version, did so; ``draw`` below still gives the index sets that
``simple_anchor.py`` fits on).  It
prints the type-I error of each test (a sanity check against ``pybcv
simulate``: other random draws, so equal within Monte Carlo error only).

    .venv/bin/python benchmarks/numpy_sim.py [--reps 1000] [--n 300] [--eps 0.1] [--seed 0] [--streams]

``--streams``: the data of each repetition and the partitions of each
(repetition, design) from their own Generator, the seeding a simulation needs
to run in chunks, in parallel and to resume to identical results (pybcv's);
without it one Generator draws everything (the fastest plain simulation).

``benchmarks/engine_anchor.py`` times this command against
``pybcv simulate --dataset epsilon --tests table5 --reps 1000``.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import special  # the distributions' tails; scipy.stats adds 0.25 s of import

T5 = ("rho_t", "kfold_t", "t_5x2cv", "corrected_rho_t", "corrected_10x10cv_t",
      "combined_t_5x2cv", "blocked_t_3x2bcv", "combined_f_5x2cv", "calibrated_f_5x2bcv",
      "proportion_z", "cvci_z", "mcnemar_ho", "mcnemar_kfold_naive", "mcnemar_5x2bcv")


def perms(rng, rows, n):
    """``rows`` independent permutations of range(n), one per row.  ``rng``: one
    Generator, or (``--streams``) a list of R Generators, one per repetition,
    each drawing its rows // R permutations in turn."""
    if isinstance(rng, list):
        k = rows // len(rng)
        return np.stack([g.permutation(n) for g in rng for _ in range(k)])
    return rng.permuted(np.broadcast_to(np.arange(n), (rows, n)), axis=1)


def blocks(n, B, order):
    """Block boundaries of P6: q records each, the extras to the blocks of ``order``."""
    q, r = divmod(n, B)
    size = np.full(B, q)
    size[np.asarray(order[:r], dtype=np.int64) - 1] += 1
    return np.concatenate([[0], np.cumsum(size)])


def counts(codes, test):
    """(R, F) counts of A-only errors (n01), B-only (n10) and both (n00) on
    test sets ``test`` (R, F, m): codes are 2 * loss_a + loss_b."""
    c = np.take_along_axis(codes[:, None, :], test, axis=2)
    return (c == 2).sum(2), (c == 1).sum(2), (c == 3).sum(2)


def halves_tests(p_s, p_t):
    """Test sets (R, 2m, .) of an m x 2 design from its training halves: fold
    (j, 1) validates T_j, fold (j, 2) validates S_j."""
    R, m, h = p_s.shape
    out = np.empty((R, 2 * m, h), p_s.dtype)
    out[:, 0::2], out[:, 1::2] = p_t, p_s
    return out


def draw(rng, R, n, seed=None):
    """Per design: (R, F, n2) test index arrays (n = 300: equal sizes per design).
    ``seed`` given: each design of each repetition draws from its own
    Generator (SeedSequence(seed, spawn_key=(r, design number))), as a
    simulation that can be cut into chunks and resumed must."""
    d = {}
    if seed is not None:
        streams = iter(range(1, 100))
        rng_of = lambda: (lambda k: [np.random.Generator(np.random.PCG64(  # noqa: E731
            np.random.SeedSequence(seed, spawn_key=(r, k)))) for r in range(R)])(next(streams))
    else:
        rng_of = lambda: rng  # noqa: E731
    n1 = round(2 * n / 3)
    d["holdout"] = perms(rng_of(), R, n)[:, None, n1:]
    d["rho15_2of3"] = perms(rng_of(), R * 15, n).reshape(R, 15, n)[:, :, n1:]
    n1 = round(0.9 * n)
    d["rho15_9of10"] = perms(rng_of(), R * 15, n).reshape(R, 15, n)[:, :, n1:]
    d["cv10"] = perms(rng_of(), R, n).reshape(R, 10, n // 10)
    d["cv10x10"] = perms(rng_of(), R * 10, n).reshape(R, 100, n // 10)
    p = perms(rng_of(), R * 5, n).reshape(R, 5, n)
    d["rcv5x2"] = halves_tests(p[:, :, : n // 2], p[:, :, n // 2:])
    for key, B, order, S in (("bcv3x2", 4, (1, 2, 3, 4), ((1, 2), (1, 3), (1, 4))),
                             ("bcv5x2", 8, (1, 7, 2, 8, 3, 5, 4, 6),
                              ((1, 2, 3, 4), (1, 3, 5, 7), (1, 2, 5, 6), (1, 4, 5, 8), (1, 3, 6, 8)))):
        p = perms(rng_of(), R, n)
        cut = blocks(n, B, order)
        blk = [p[:, cut[b]:cut[b + 1]] for b in range(B)]
        s = np.stack([np.concatenate([blk[b - 1] for b in sj], 1) for sj in S], 1)
        t = np.stack([np.concatenate([blk[b] for b in range(B) if b + 1 not in sj], 1) for sj in S], 1)
        d[key] = halves_tests(s, t)
    return d


def rule_d(num, scale):
    """num / scale with the zero-variance rule (docs/conventions.md, "Zero-variance
    rule"): a zero scale gives 0 when num is 0, else +-inf."""
    zero = scale <= 1e-12
    with np.errstate(divide="ignore", invalid="ignore"):
        s = num / np.where(zero, 1.0, scale)
    return np.where(zero, np.where(num == 0, 0.0, np.where(num > 0, np.inf, -np.inf)), s)


def t_p(t, df):
    return 2 * special.stdtr(df, -np.abs(t))


BITS = 21      # a record's counts packed in bit fields of one int64: folds under 2**21 records
MASK = (1 << BITS) - 1
BCV = {"bcv3x2": (4, (1, 2, 3, 4), ((1, 2), (1, 3), (1, 4))),
       "bcv5x2": (8, (1, 7, 2, 8, 3, 5, 4, 6),
                  ((1, 2, 3, 4), (1, 3, 5, 7), (1, 2, 5, 6), (1, 4, 5, 8), (1, 3, 6, 8)))}


def shuffled(rng, v, k, seed=None, key=0):
    """(R, k, n): each repetition's row of ``v`` repeated k times, each copy
    shuffled (a shuffle moves values as it would move indices, so these are
    the records in the order of k permutations, with no index array and no
    gather).  ``seed`` given: repetition r's copies from the Generator of
    SeedSequence(seed, spawn_key=(r, key)), one shuffle call each."""
    R, n = v.shape
    x = np.empty((R, k, n), v.dtype)
    x[...] = v[:, None, :]
    if seed is None:
        rng.permuted(x.reshape(R * k, n), axis=1, out=x.reshape(R * k, n))
    else:
        for r in range(R):
            np.random.Generator(np.random.PCG64(np.random.SeedSequence(
                seed, spawn_key=(r, key)))).permuted(x[r], axis=1, out=x[r])
    return x


def fold_counts(rng, v, seed=None):
    """{design: (n01, n10, n00) each (R, F)} and {design: test size} from
    the packed codes ``v`` (R, n): every fold's sum of its test records
    holds its three counts in its bit fields."""
    R, n = v.shape
    sums, n2 = {}, {}
    keys = iter(range(1, 100))

    def draw(k):
        return shuffled(rng, v, k, seed, next(keys) if seed is not None else 0)

    for key, k, frac in (("holdout", 1, 2 / 3), ("rho15_2of3", 15, 2 / 3), ("rho15_9of10", 15, 0.9)):
        n1 = round(frac * n)
        sums[key], n2[key] = draw(k)[:, :, n1:].sum(2), n - n1
    sums["cv10"] = draw(1).reshape(R, 10, n // 10).sum(2)
    sums["cv10x10"] = draw(10).reshape(R, 100, n // 10).sum(2)
    n2["cv10"] = n2["cv10x10"] = n // 10
    x, h = draw(5), n // 2
    sums["rcv5x2"] = np.stack([x[:, :, h:].sum(2), x[:, :, :h].sum(2)], 2).reshape(R, 10)
    n2["rcv5x2"] = n - h
    for key, (B, order, S) in BCV.items():
        cut = blocks(n, B, order)
        b = np.add.reduceat(draw(1)[:, 0], cut[:-1], axis=1)          # (R, B) block sums
        inS = np.zeros((len(S), B), np.int64)
        for j, sj in enumerate(S):
            inS[j, np.asarray(sj) - 1] = 1
        member = np.empty((2 * len(S), B), np.int64)                   # fold (j,1) tests T_j, (j,2) S_j
        member[0::2], member[1::2] = 1 - inS, inS
        sums[key], n2[key] = b @ member.T, n // 2
    return {k: (s & MASK, (s >> BITS) & MASK, s >> (2 * BITS)) for k, s in sums.items()}, n2


def simulate(R=1000, n=300, eps=0.1, seed=0, streams=False):
    """{test: (statistic[R], p[R])}; ``streams``: a Generator per repetition
    for its data and per (repetition, design) for its partitions, instead of
    one Generator for everything."""
    rng = np.random.default_rng(seed)
    first = np.arange(n) < n // 2
    pa = np.where(first, eps / 2, 1.5 * eps)
    pb = np.where(first, 1.5 * eps, eps / 2)
    if streams:
        u = np.empty((R, 2, n))
        for r in range(R):
            np.random.Generator(np.random.PCG64(np.random.SeedSequence(
                seed, spawn_key=(r, 0)))).random(out=u[r])
    else:
        u = rng.random((R, 2, n))
    la, lb = u[:, 0] < pa, u[:, 1] < pb
    # A wrong only -> field 0, B wrong only -> field 1, both -> field 2
    v = ((la & ~lb).astype(np.int64) | (lb & ~la).astype(np.int64) << BITS
         | (la & lb).astype(np.int64) << (2 * BITS))
    c, n2 = fold_counts(rng, v, seed if streams else None)
    return score(c, n2, n)


def score(c, n2, n):
    """{test: (statistic[R], p[R])} of the 14 tests from every design's (R, F)
    counts ``c[design] = (n01, n10, n00)``; ``n2[design]``: its test size."""
    R = next(iter(c.values()))[0].shape[0]
    diff = {k: (a - b) / n2[k] for k, (a, b, _) in c.items()}   # p_j per fold
    out = {}
    for key, design, J, ratio in (("rho_t", "rho15_2of3", 15, 0), ("kfold_t", "cv10", 10, 0),
                                  ("corrected_rho_t", "rho15_9of10", 15, 30 / 270),
                                  ("corrected_10x10cv_t", "cv10x10", 100, 1 / 9)):
        x = diff[design]
        s2 = x.var(1, ddof=1)
        t = rule_d(x.mean(1), np.sqrt((1 / J + ratio) * s2) if ratio else np.sqrt(s2 / J))
        out[key] = (t, t_p(t, J - 1))
    x = diff["rcv5x2"].reshape(R, 5, 2)
    s2 = ((x - x.mean(2, keepdims=True)) ** 2).sum(2)             # s_i^2
    t = rule_d(x[:, 0, 0], np.sqrt(s2.mean(1)))
    out["t_5x2cv"] = (t, t_p(t, 5))
    t = rule_d(np.sqrt(10) * x.mean((1, 2)), np.sqrt(s2.mean(1)))
    out["combined_t_5x2cv"] = (t, t_p(t, 5))
    f = rule_d((x ** 2).sum((1, 2)), 2 * s2.sum(1))
    out["combined_f_5x2cv"] = (f, special.fdtrc(10, 5, f))
    x = diff["bcv5x2"].reshape(R, 5, 2)
    s2 = ((x - x.mean(2, keepdims=True)) ** 2).sum(2)
    f = rule_d((x ** 2).sum((1, 2)), 2 * s2.sum(1))
    out["calibrated_f_5x2bcv"] = (f, special.fdtrc(7, 5, f))
    x = diff["bcv3x2"]
    mu = x.mean(1)
    t = rule_d(mu, np.sqrt(((x - mu[:, None]) ** 2).mean(1)))
    out["blocked_t_3x2bcv"] = (t, t_p(t, 5))
    a, b, both = (v[:, 0] for v in c["holdout"])
    m = n2["holdout"]
    pA, pB = (a + both) / m, (b + both) / m
    pm = (pA + pB) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where((pm > 0) & (pm < 1), (pA - pB) / np.sqrt(2 * pm * (1 - pm) / m), 0.0)
    out["proportion_z"] = (z, 2 * special.ndtr(-np.abs(z)))
    with np.errstate(divide="ignore", invalid="ignore"):
        m = np.where(a + b > 0, (np.abs(a - b) - 1.0) ** 2 / (a + b), 0.0)
    out["mcnemar_ho"] = (m, special.chdtrc(1, m))
    a, b, _ = c["cv10"]
    N01, N10 = a.sum(1), b.sum(1)
    z = rule_d((N01 - N10).astype(float), np.sqrt(N01 + N10 - (N01 - N10) ** 2 / n))
    out["cvci_z"] = (z, 2 * special.ndtr(-np.abs(z)))
    with np.errstate(divide="ignore", invalid="ignore"):
        m = np.where(a + b > 0, (np.abs(a - b) - 1.0) ** 2 / (a + b), 0.0).sum(1)
    out["mcnemar_kfold_naive"] = (m, special.chdtrc(10, m))
    a, b, _ = c["bcv5x2"]
    a, b, t = a.mean(1), b.mean(1), 20 / 11
    with np.errstate(divide="ignore", invalid="ignore"):
        m = np.where(a + b > 0, t * (np.abs(a - b) - 1 / t) ** 2 / (a + b), 0.0)
    out["mcnemar_5x2bcv"] = (m, special.chdtrc(1, m))
    return {k: out[k] for k in T5}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--eps", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--streams", action="store_true",
                    help="a Generator per repetition and per (repetition, design), as pybcv draws")
    args = ap.parse_args(argv)
    timed_rates(f"numpy anchor: epsilon, {args.reps} repetitions, n = {args.n}", "type-I error",
                lambda: simulate(args.reps, args.n, args.eps, args.seed, args.streams))


def timed_rates(what, rate, run):
    """Run ``run()`` ({test: (statistic, p)}), print its time and each test's
    share of p < 0.05."""
    c, t = time.process_time(), time.perf_counter()
    res = run()
    cpu, wall = time.process_time() - c, time.perf_counter() - t
    print(f"# {what}; compute {wall:.3f} s wall, {cpu:.3f} s CPU")
    print(f"{'test':<22} {rate}")
    for k, (_, p) in res.items():
        print(f"{k:22s} {np.mean(p < 0.05):.3f}")


if __name__ == "__main__":
    main()
