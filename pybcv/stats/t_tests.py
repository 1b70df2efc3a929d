"""t-test family (T1-T9 of TESTS_SPEC): pure functions of per-fold
error-rate differences ``p = error(A) - error(B)``.

Every test applies rule D when its scale is zero: numerator 0 gives
statistic 0 and p = 1; a non-zero numerator gives +-inf and p = 0.
"""
from __future__ import annotations

import numpy as np

from ._common import (TestResult, check_alternative, check_differences, check_positive_sizes,
                      constant, p_t, ratio_rule_d, rule_d_p, rule_d_warning, scalar,
                      as_float_array)


def _result(key, method, t, p, df, est, degenerate, what, alternative, details=None):
    t = scalar(t)
    return TestResult(key, t, scalar(p), df, est, details or {},
                      rule_d_warning(bool(degenerate), t, what), method, f"t({df})", alternative)


# --------------------------------------------------------------------------
# kernels over the last axis (leading batch dimensions allowed)
# --------------------------------------------------------------------------
def _paired_t_kernel(x, ratio=0.0, alternative="two-sided"):
    """t = mean / sqrt((1/J + ratio) S^2); ratio = 0 is the plain paired t."""
    J = x.shape[-1]
    mean = x.mean(-1)
    var = x.var(-1, ddof=1)
    deg = constant(x)
    t = ratio_rule_d(mean, np.sqrt((1.0 / J + ratio) * var), deg)
    return t, rule_d_p(p_t(t, J - 1, alternative), t, deg), deg


def _mx2_s2(P):
    """s_i^2 = (p_i1 - p_i2)^2 / 2 for P of shape (..., m, 2)."""
    return (P[..., 0] - P[..., 1]) ** 2 / 2.0


def _t5x2_kernel(P, alternative="two-sided"):
    m = P.shape[-2]
    s2 = _mx2_s2(P)
    deg = np.sum(s2, -1) <= 1e-24
    t = ratio_rule_d(P[..., 0, 0], np.sqrt(s2.mean(-1)), deg)
    return t, rule_d_p(p_t(t, m, alternative), t, deg), deg


def _combined_t_kernel(P, alternative="two-sided"):
    m = P.shape[-2]
    s2 = _mx2_s2(P)
    deg = np.sum(s2, -1) <= 1e-24
    t = ratio_rule_d(np.sqrt(2 * m) * P.mean((-1, -2)), np.sqrt(s2.mean(-1)), deg)
    return t, rule_d_p(p_t(t, m, alternative), t, deg), deg


def _blocked_t_kernel(P, alternative="two-sided"):
    m = P.shape[-2]
    x = P.reshape(P.shape[:-2] + (2 * m,))
    mu = x.mean(-1)
    var = ((x - mu[..., None]) ** 2).mean(-1)      # divisor 2m
    deg = constant(x)
    t = ratio_rule_d(mu, np.sqrt(var), deg)
    return t, rule_d_p(p_t(t, 2 * m - 1, alternative), t, deg), deg


def _pb_kernel(mu_hat, reps, factor=1.0, alternative="two-sided"):
    R = reps.shape[-1]
    var = reps.var(-1, ddof=1)
    deg = constant(reps)
    t = ratio_rule_d(mu_hat, np.sqrt(factor * var), deg)
    return t, rule_d_p(p_t(t, R - 1, alternative), t, deg), deg


def _size_ratio(n_train, n_test, shape):
    """n2/n1 from the actual sizes: scalars, or per-fold arrays (then the
    ratio of the totals, which is exactly 1/(K-1) for K-fold CV)."""
    n1 = check_positive_sizes("n_train", n_train)
    n2 = check_positive_sizes("n_test", n_test)
    for name, a in (("n_train", n1), ("n_test", n2)):
        if a.ndim and a.size != int(np.prod(shape)):
            raise ValueError(f"{name} must be a number or one size per fold "
                             f"({int(np.prod(shape))} values), got {a.size}")
    return float(np.sum(n2) / np.sum(n1)) if (n1.ndim or n2.ndim) else float(n2 / n1)


# --------------------------------------------------------------------------
# public tests
# --------------------------------------------------------------------------
def paired_t(diffs, alternative="two-sided") -> TestResult:
    """Paired t-test over J per-fold differences (T1 RHO paired t, J = 15,
    n1 = 2n/3; T2 K-fold CV paired t, K = 10).

    ``t = x_bar sqrt(J) / S`` with ``S^2`` the sample variance (ddof 1),
    referred to t(J - 1).

    Source: Dietterich (1998), Neural Computation 10(7):1895-1923.

    >>> paired_t([0.02, -0.01, 0.03, 0.00, 0.04, 0.01, 0.02, -0.02, 0.03, 0.01,
    ...           0.05, 0.00, 0.02, 0.01, 0.03]).statistic    # doctest: +ELLIPSIS
    3.29221956...
    """
    alternative = check_alternative(alternative)
    x = check_differences(diffs, "diffs", (None,), "(J,)")
    if x.size < 2:
        raise ValueError(f"diffs must hold at least 2 differences, got {x.size}")
    t, p, deg = _paired_t_kernel(x, 0.0, alternative)
    return _result("paired_t", "Paired t-test", t, p, x.size - 1, float(x.mean()), deg,
                   "the sample variance", alternative)


def t_5x2cv(diffs, alternative="two-sided") -> TestResult:
    """Dietterich's 5x2 CV paired t-test (T3).

    ``s_i^2 = (p_i^(1) - p_i^(2))^2 / 2``,
    ``t = p_1^(1) / sqrt((1/5) sum_i s_i^2)`` ~ t(5).  The numerator is the
    first fold of the first replication, so keep the fold order.  For an
    m x 2 CV: mean over m and t(m).

    Source: Dietterich (1998).

    Parameters
    ----------
    diffs : array-like, shape (5, 2): rows replications i, columns folds k.
    """
    alternative = check_alternative(alternative)
    P = check_differences(diffs, "diffs", (None, 2), "(5, 2)")
    t, p, deg = _t5x2_kernel(P, alternative)
    m = P.shape[0]
    return _result("t_5x2cv", f"{m}x2 CV paired t-test", t, p, m, float(P.mean()), deg,
                   "sum of s_i^2", alternative, {"s2": _mx2_s2(P).tolist()})


def combined_t_5x2cv(diffs, alternative="two-sided") -> TestResult:
    """Yildiz's combined 5x2 CV t-test (T8).

    ``t = sqrt(10) p_bar / sqrt((1/5) sum_i s_i^2)`` ~ t(5) with p_bar the
    mean of the 10 differences (for m x 2: sqrt(2m), mean over m, t(m)).

    Source: Yildiz (2013), IEEE TKDE 25(9):2105-2118.
    """
    alternative = check_alternative(alternative)
    P = check_differences(diffs, "diffs", (None, 2), "(5, 2)")
    t, p, deg = _combined_t_kernel(P, alternative)
    m = P.shape[0]
    return _result("combined_t_5x2cv", f"Combined {m}x2 CV t-test", t, p, m, float(P.mean()), deg,
                   "sum of s_i^2", alternative)


def blocked_t_3x2bcv(diffs, alternative="two-sided") -> TestResult:
    """Blocked 3x2 CV t-test (T9) on the differences of a 3x2 BCV.

    ``mu = mean of the 6 p's``, ``sigma^2 = (1/6) sum (p - mu)^2`` (divisor
    2m = 6, not 5), ``t = mu / sigma`` ~ t(5).  For an m x 2 BCV: divisor
    2m and t(2m - 1).

    Source: Wang, Wang, Jia & Li (2014), Neural Computation 26(1):208-235.
    """
    alternative = check_alternative(alternative)
    P = check_differences(diffs, "diffs", (None, 2), "(3, 2)")
    if P.shape[0] < 1:
        raise ValueError("diffs must have shape (3, 2)")
    t, p, deg = _blocked_t_kernel(P, alternative)
    m = P.shape[0]
    return _result("blocked_t_3x2bcv", f"Blocked {m}x2 CV t-test", t, p, 2 * m - 1,
                   float(P.mean()), deg, "the variance of the differences", alternative)


def corrected_resampled_t(diffs, n_train, n_test, alternative="two-sided") -> TestResult:
    """Corrected repeated hold-out (resampled) t-test (T4; J = 15, n1 = 9n/10).

    ``t = x_bar / sqrt((1/J + n2/n1) S^2)`` ~ t(J - 1), with the actual
    training and test sizes.

    Source: Nadeau & Bengio (2003), Machine Learning 52(3):239-281.
    """
    alternative = check_alternative(alternative)
    x = check_differences(diffs, "diffs", (None,), "(J,)")
    if x.size < 2:
        raise ValueError(f"diffs must hold at least 2 differences, got {x.size}")
    ratio = _size_ratio(n_train, n_test, x.shape)
    t, p, deg = _paired_t_kernel(x, ratio, alternative)
    return _result("corrected_rho_t", "Corrected RHO t-test", t, p, x.size - 1, float(x.mean()),
                   deg, "the sample variance", alternative, {"n2/n1": ratio})


def corrected_repeated_cv_t(diffs, n_train, n_test, alternative="two-sided") -> TestResult:
    """Corrected repeated K-fold CV t-test (T7; 10 x 10 CV).

    ``t = x_bar / sqrt((1/(K r) + n2/n1) S^2)`` ~ t(K r - 1), x_bar and S^2
    over all K r differences; n2/n1 from the actual sizes (1/(K-1)).

    Source: Bouckaert & Frank (2004), PAKDD, LNAI 3056:3-12.

    Parameters
    ----------
    diffs : array-like, shape (r, K)
    """
    alternative = check_alternative(alternative)
    X = check_differences(diffs, "diffs", (None, None), "(r, K)")
    if X.size < 2:
        raise ValueError("diffs must hold at least 2 differences")
    ratio = _size_ratio(n_train, n_test, X.shape)
    x = X.reshape(-1)
    t, p, deg = _paired_t_kernel(x, ratio, alternative)
    return _result("corrected_10x10cv_t", f"Corrected {X.shape[0]}x{X.shape[1]} CV t-test", t, p,
                   x.size - 1, float(x.mean()), deg, "the sample variance", alternative,
                   {"n2/n1": ratio})


def _check_pb(mu_hat, replicates):
    mu = as_float_array(mu_hat, "mu_hat", "a number")
    if mu.ndim != 0:
        raise ValueError("mu_hat must be a single number (mean of the first J differences)")
    if abs(float(mu)) > 1:
        raise ValueError("mu_hat is a mean error-rate difference and must lie in [-1, 1]")
    reps = check_differences(replicates, "replicates", (None,), "(R,)")
    if reps.size < 2:
        raise ValueError(f"replicates must hold R >= 2 values, got {reps.size}")
    return float(mu), reps


def pseudo_bootstrap_t(mu_hat, replicates, alternative="two-sided") -> TestResult:
    """Pseudo-bootstrap test (T5) [UNVERIFIED reconstruction, TESTS_SPEC §T5].

    ``sigma^2 = sum_r (mu_r - mean(mu))^2 / (R - 1)`` over the R replicates
    (each the mean of J further hold-out differences of the same data),
    ``t = mu_hat / sigma`` ~ t(R - 1).  It underestimates the variance (no
    training-set term); T6 corrects it.

    Source: Nadeau & Bengio (2003); the formula is a reconstruction, not
    checked against the paper text or any implementation.
    """
    alternative = check_alternative(alternative)
    mu, reps = _check_pb(mu_hat, replicates)
    t, p, deg = _pb_kernel(np.float64(mu), reps, 1.0, alternative)
    return _result("pseudo_bootstrap", "Pseudo bootstrap test", t, p, reps.size - 1, mu, deg,
                   "the replicate variance", alternative)


def corrected_pseudo_bootstrap_t(mu_hat, replicates, n_train, n_test, J,
                                 alternative="two-sided") -> TestResult:
    """Corrected pseudo-bootstrap test (T6) [UNVERIFIED reconstruction].

    ``t = mu_hat / sqrt((1 + J n2/n1) sigma^2)`` ~ t(R - 1), sigma^2 as in T5.
    The factor follows exactly from Var(mu_hat) = sigma^2 (rho + (1-rho)/J)
    with rho = n2/n (TESTS_SPEC §T6); its attribution to Nadeau & Bengio
    (2003) is unverified.
    """
    alternative = check_alternative(alternative)
    mu, reps = _check_pb(mu_hat, replicates)
    if isinstance(J, bool) or not float(J).is_integer() or J < 1:
        raise ValueError(f"J must be a positive integer (hold-outs per replicate), got {J!r}")
    ratio = _size_ratio(n_train, n_test, ())
    factor = 1.0 + int(J) * ratio
    t, p, deg = _pb_kernel(np.float64(mu), reps, factor, alternative)
    return _result("corrected_pseudo_bootstrap", "Corrected pseudo bootstrap test", t, p,
                   reps.size - 1, mu, deg, "the replicate variance", alternative,
                   {"factor": factor})
