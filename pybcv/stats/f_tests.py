"""F-test family (T10, T11): functions of the (m, 2) differences of an m x 2 CV.

Both use ``f = sum_ij p_ij^2 / (2 sum_i s_i^2)`` with
``s_i^2 = (p_i1 - p_i2)^2 / 2``; the upper tail of F gives p.  Rule D: a
zero denominator gives f = 0, p = 1 (numerator zero) or f = inf, p = 0.
"""
from __future__ import annotations

import numpy as np

from ._common import TestResult, check_differences, f_sf, ratio_rule_d, rule_d_warning, scalar


def _f_kernel(P, df1, df2):
    s2 = (P[..., 0] - P[..., 1]) ** 2 / 2.0
    num = (P ** 2).sum((-1, -2))
    den = 2.0 * s2.sum(-1)
    deg = den <= 1e-24
    f = ratio_rule_d(num, den, deg)
    p = np.where(deg, np.where(f == 0.0, 1.0, 0.0), f_sf(f, df1, df2))
    return f, p, deg


def _result(key, method, P, df, f, p, deg):
    f = scalar(f)
    return TestResult(key, f, scalar(p), df, float(P.mean()), {"sum_p2": float((P ** 2).sum())},
                      rule_d_warning(bool(deg), f, "sum of s_i^2"), method, f"F{df}")


def combined_f_5x2cv(diffs) -> TestResult:
    """Alpaydin's combined 5x2 CV F-test (T10).

    ``f = sum_i sum_j (p_i^(j))^2 / (2 sum_i s_i^2)`` ~ F(10, 5)
    (for an m x 2 CV: F(2m, m)).

    Source: Alpaydin (1999), Neural Computation 11(8):1885-1892.

    Parameters
    ----------
    diffs : array-like, shape (5, 2)
    """
    P = check_differences(diffs, "diffs", (None, 2), "(5, 2)")
    m = P.shape[0]
    f, p, deg = _f_kernel(P, 2 * m, m)
    return _result("combined_f_5x2cv", f"Combined {m}x2 CV F-test", P, (2 * m, m), f, p, deg)


def calibrated_f_5x2bcv(diffs) -> TestResult:
    """Calibrated 5x2 BCV F-test (T11), on the differences of a 5x2 BCV.

    ``f = sum p^2 / (2 sum s_i^2)`` (Alpaydin's statistic, unscaled) ~ F(7, 5).

    [UNVERIFIED] The F(7, 5) reference law and the balanced (block-
    regularized) partitions are verified from the paper's abstract; that the
    statistic itself is *not* rescaled is a reconstruction (TESTS_SPEC §T11:
    a Satterthwaite fit of the numerator gives nu = 10/(1 + rho1^2 + 8 rho2^2)
    ~ 7 with c nu = 10, so the moment-matched ratio is Alpaydin's statistic).

    Source: Wang, Li & Li (2017), Neural Processing Letters 46(1):1-13.

    Parameters
    ----------
    diffs : array-like, shape (5, 2)
    """
    P = check_differences(diffs, "diffs", (5, 2), "(5, 2)")
    f, p, deg = _f_kernel(P, 7, 5)
    return _result("calibrated_f_5x2bcv", "Calibrated 5x2 BCV F-test", P, (7, 5), f, p, deg)
