"""F-test family: functions of the (m, 2) differences of an m x 2 CV.

Both tests use ``f = sum_ij p_ij^2 / (2 sum_i s_i^2)`` with
``s_i^2 = (p_i1 - p_i2)^2 / 2``; the upper tail of F gives p.  Zero-variance
rule (conventions.md): a zero denominator gives f = 0, p = 1 (numerator zero)
or f = inf, p = 0.

Interval (conventions.md, "Confidence intervals", F tests): the set of
common shifts mu for which the F test of ``p_ij - mu`` does not reject.
The s_i^2 do not change under a shift, and
``sum (p_ij - mu)^2 = Q + 2m (p_bar - mu)^2`` with ``Q = sum (p_ij - p_bar)^2``,
so the set is ``p_bar +- sqrt((2 S F_q - Q) / (2m))`` (S = sum s_i^2, F_q the
level quantile of the test's F law); it is empty -- (nan, nan) -- when
``Q > 2 S F_q``: then no common shift explains the differences and the test
rejects at 0 too.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import special as _sp

from ._common import (FTestResult, check_differences, f_sf, magnitude, ratio_or_limit, scalar, zero_sum_sq,
                      zero_variance_warning)


class FKernel(NamedTuple):
    statistic: np.ndarray
    pvalue: np.ndarray
    degenerate: np.ndarray
    mean: np.ndarray          # p_bar
    sum_sq_dev: np.ndarray    # Q
    sum_s2: np.ndarray        # S
    df1: float
    df2: float
    k: int                    # 2m differences


def f_kernel(P, df1, df2) -> FKernel:
    """f = sum p^2 / (2 sum s_i^2) ~ F(df1, df2) for P of shape (..., m, 2)."""
    s2 = (P[..., 0] - P[..., 1]) ** 2 / 2.0
    num = (P ** 2).sum((-1, -2))
    den = 2.0 * s2.sum(-1)
    k = P.shape[-2] * 2
    size = magnitude(P, (-1, -2))
    deg = zero_sum_sq(den, k, size)
    f = ratio_or_limit(num, den, deg, k * size ** 2)
    p = np.where(deg, np.where(f == 0.0, 1.0, 0.0), f_sf(f, df1, df2))
    mean = P.mean((-1, -2))
    Q = ((P - mean[..., None, None]) ** 2).sum((-1, -2))
    # rounding leaves Q and S of constant values near, not at, 0: held at 0
    # (the interval of constant differences is then their point)
    Q = np.where(zero_sum_sq(Q, k, size), 0.0, Q)
    return FKernel(f, p, deg, mean, Q, np.where(deg, 0.0, s2.sum(-1)), df1, df2, k)


def f_interval(mean, sum_sq_dev, sum_s2, df1, df2, k, *, level=0.95, alternative="two-sided"):
    """p_bar +- sqrt((2 S F_q - Q) / k); (nan, nan) where the set is empty."""
    fq = _sp.fdtri(df1, df2, level)
    room = 2.0 * np.asarray(sum_s2, float) * fq - np.asarray(sum_sq_dev, float)
    with np.errstate(invalid="ignore"):
        half = np.where(room >= 0, np.sqrt(np.maximum(room, 0.0) / k), np.nan)
    mean = np.asarray(mean, float)
    return mean - half, mean + half


def f_kernel_interval(out: FKernel, level=0.95, alternative="two-sided"):
    return f_interval(out.mean, out.sum_sq_dev, out.sum_s2, out.df1, out.df2, out.k, level=level)


def _result(key, P, out: FKernel) -> FTestResult:
    f = scalar(out.statistic)
    df = (out.df1, out.df2)
    return FTestResult(test=key, statistic=f, pvalue=scalar(out.pvalue), df=df,
                       estimate=float(P.mean()), null_distribution=f"F{df}",
                       warnings=zero_variance_warning(bool(out.degenerate), f, "sum of s_i^2"),
                       interval_function=f_kernel_interval, interval_args=(out,),
                       sum_p2=float((P ** 2).sum()), sum_s2=scalar(out.sum_s2))


def combined_f_5x2cv(diffs) -> FTestResult:
    """Alpaydin's combined 5x2 CV F-test (design ``rcv5x2``).

    ``f = sum_i sum_j (p_i^(j))^2 / (2 sum_i s_i^2)`` ~ F(10, 5)
    (for an m x 2 CV: F(2m, m)).  Interval: see the module docstring.

    Source: Alpaydin (1999), Neural Computation 11(8):1885-1892.

    Parameters
    ----------
    diffs : array-like, shape (5, 2)

    Returns
    -------
    FTestResult
        statistic f, pvalue, df (2m, m), estimate p_bar, sum_p2, sum_s2.

    Examples
    --------
    Worked example E10:

    >>> P = [[.04, .02], [.01, .03], [.05, .00], [.02, .04], [.03, .01]]
    >>> r = combined_f_5x2cv(P)
    >>> round(r.statistic, 9), round(r.pvalue, 10), r.df
    (2.073170732, 0.2178439659, (10, 5))
    """
    P = check_differences(diffs, "diffs", (None, 2), "(5, 2)")
    m = P.shape[0]
    return _result("combined_f_5x2cv", P, f_kernel(P, 2 * m, m))


def calibrated_f_5x2bcv(diffs) -> FTestResult:
    """Calibrated 5x2 BCV F-test, on the differences of a 5x2 BCV (design ``bcv5x2``).

    ``f = sum p^2 / (2 sum s_i^2)`` (Alpaydin's statistic, unscaled) ~ F(7, 5).

    [UNVERIFIED] The F(7, 5) reference law and the balanced (block-
    regularized) partitions are verified from the paper's abstract; that the
    statistic itself is *not* rescaled is a reconstruction: a Satterthwaite
    fit of the numerator gives nu = 10/(1 + rho1^2 + 8 rho2^2) ~ 7 with
    c nu = 10, so the moment-matched ratio is Alpaydin's statistic.

    Source: Wang, Li & Li (2017), Neural Processing Letters 46(1):1-13.

    Parameters
    ----------
    diffs : array-like, shape (5, 2)
        Rows the replications j of a 5x2 BCV, columns its folds k.

    Returns
    -------
    FTestResult
        statistic f, pvalue, df (7, 5), estimate p_bar.

    Examples
    --------
    Worked example E11 (E10's differences: the same f against F(7, 5)):

    >>> P = [[.04, .02], [.01, .03], [.05, .00], [.02, .04], [.03, .01]]
    >>> r = calibrated_f_5x2bcv(P)
    >>> r.statistic == combined_f_5x2cv(P).statistic, round(r.pvalue, 10), r.df
    (True, 0.2197064552, (7, 5))
    """
    P = check_differences(diffs, "diffs", (5, 2), "(5, 2)")
    return _result("calibrated_f_5x2bcv", P, f_kernel(P, 7, 5))
