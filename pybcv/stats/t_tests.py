"""t-test family: functions of per-fold error-rate differences
``p = error(A) - error(B)`` (conventions.md, "Contingency tables").

Each test's arithmetic is one vectorised kernel (leading batch dimensions
allowed) that the public function and the registry (``TESTS[key].batch``,
``.from_tables``, ``.batch_interval``) both call.  Every kernel applies the
zero-variance rule (conventions.md, "Zero-variance rule"): a zero scale with
a zero numerator gives t = 0 and p = 1, with a non-zero numerator +-inf and
p = 0.  Every t-test's interval is ``center + t_q(df) * scale``, the values
of mu for which the test of mu_A - mu_B = mu does not reject
(conventions.md, "Confidence intervals").
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._common import (TTestResult, as_float_array, check_alternative, check_differences, difference_bounded,
                      check_sizes, check_whole, constant, magnitude, p_t, ratio_or_limit, zero_sum_sq,
                      sample_t_interval, scalar, t_interval, zero_variance_p, zero_variance_warning)


class TKernel(NamedTuple):
    """A t kernel's output (arrays of the batch shape)."""
    statistic: np.ndarray
    pvalue: np.ndarray
    degenerate: np.ndarray
    center: np.ndarray        # the numerator's estimate of mu_A - mu_B
    scale: np.ndarray         # standard error: t = (center - mu) / scale
    df: float
    sample: object = None     # the plain paired t's differences (its interval is scipy's)


# ---- kernels over the last axes (leading batch dimensions allowed)
def paired_t_kernel(x, ratio=0.0, alternative="two-sided") -> TKernel:
    """t = mean / sqrt((1/J + ratio) S^2) over the last axis (J values,
    S^2 with ddof 1), df J - 1; ratio = 0 is the plain paired t, ratio =
    n2/n1 Nadeau & Bengio's correction."""
    J = x.shape[-1]
    mean = x.mean(-1)
    var = x.var(-1, ddof=1)
    deg = constant(x)
    scale = np.sqrt((1.0 / J + ratio) * var)
    t = ratio_or_limit(mean, scale, deg, magnitude(x))
    return TKernel(t, zero_variance_p(p_t(t, J - 1, alternative), t, deg), deg, mean, scale, J - 1,
                   x if isinstance(ratio, float) and ratio == 0.0 else None)


def _mx2_scale(P):
    """(m, degenerate, sqrt(mean_i s_i^2), magnitude of P) of P (..., m, 2),
    s_i^2 = (p_i1 - p_i2)^2 / 2; degenerate: every pair equal (the
    zero-variance rule)."""
    s2 = (P[..., 0] - P[..., 1]) ** 2 / 2.0
    size = magnitude(P, (-1, -2))
    return P.shape[-2], zero_sum_sq(np.sum(s2, -1), P.shape[-2], size), np.sqrt(s2.mean(-1)), size


def t_5x2cv_kernel(P, alternative="two-sided") -> TKernel:
    """t = p_11 / sqrt(mean_i s_i^2), df m, for P of shape (..., m, 2)."""
    m, deg, scale, size = _mx2_scale(P)
    t = ratio_or_limit(P[..., 0, 0], scale, deg, size)
    return TKernel(t, zero_variance_p(p_t(t, m, alternative), t, deg), deg, P[..., 0, 0], scale, m)


def combined_t_5x2cv_kernel(P, alternative="two-sided") -> TKernel:
    """t = sqrt(2m) p_bar / sqrt(mean_i s_i^2), df m."""
    m, deg, scale, size = _mx2_scale(P)
    t = ratio_or_limit(np.sqrt(2 * m) * P.mean((-1, -2)), scale, deg, np.sqrt(2 * m) * size)
    return TKernel(t, zero_variance_p(p_t(t, m, alternative), t, deg), deg, P.mean((-1, -2)),
                   scale / np.sqrt(2 * m), m)


def blocked_t_3x2bcv_kernel(P, alternative="two-sided") -> TKernel:
    """t = mu / sigma with sigma^2 = (1/2m) sum (p - mu)^2, df 2m - 1."""
    m = P.shape[-2]
    x = P.reshape(P.shape[:-2] + (2 * m,))
    mu = x.mean(-1)
    var = ((x - mu[..., None]) ** 2).mean(-1)      # divisor 2m
    deg = constant(x)
    scale = np.sqrt(var)
    t = ratio_or_limit(mu, scale, deg, magnitude(x))
    return TKernel(t, zero_variance_p(p_t(t, 2 * m - 1, alternative), t, deg), deg, mu, scale, 2 * m - 1)


def pseudo_bootstrap_kernel(mu_hat, reps, factor=1.0, alternative="two-sided") -> TKernel:
    """t = mu_hat / sqrt(factor sigma^2), sigma^2 the replicate variance
    (ddof 1) over the last axis, df R - 1."""
    R = reps.shape[-1]
    var = reps.var(-1, ddof=1)
    deg = constant(reps)
    scale = np.sqrt(factor * var)
    t = ratio_or_limit(mu_hat, scale, deg, np.maximum(magnitude(reps), np.abs(mu_hat)))
    return TKernel(t, zero_variance_p(p_t(t, R - 1, alternative), t, deg), deg,
                   np.asarray(mu_hat, float), scale, R - 1)


def pseudo_bootstrap_factor(J, n_test, n_train):
    """The corrected pseudo-bootstrap's variance factor ``1 + J n2 / n1``."""
    return 1.0 + J * n_test / n_train


def t_kernel_interval(out: TKernel, level=0.95, alternative="two-sided"):
    """Vectorised interval of a t kernel's output (the plain paired t's:
    scipy's ``ttest_1samp(...).confidence_interval``)."""
    if out.sample is not None:
        return sample_t_interval(out.sample, level=level, alternative=alternative)
    return t_interval(out.center, out.scale, out.df, level=level, alternative=alternative)


def size_ratio(n_train, n_test, n_values=None):
    """n2/n1 from the actual sizes: scalars, or per-fold arrays (then the
    ratio of the totals, which is exactly 1/(K-1) for K-fold CV)."""
    n1 = check_sizes(n_train, "n_train")
    n2 = check_sizes(n_test, "n_test")
    for name, a in (("n_train", n1), ("n_test", n2)):
        if a.ndim and n_values is not None and a.size != n_values:
            raise ValueError(f"{name} must be a number or one size per fold "
                             f"({n_values} values), got {a.size}")
    return float(np.sum(n2) / np.sum(n1)) if (n1.ndim or n2.ndim) else float(n2 / n1)


# ---- results
def _result(key, out: TKernel, estimate, what, alternative, **extra) -> TTestResult:
    t = scalar(out.statistic)
    return TTestResult(test=key, statistic=t, pvalue=scalar(out.pvalue), df=out.df,
                       estimate=float(estimate), null_distribution=f"t({out.df})",
                       alternative=alternative,
                       warnings=zero_variance_warning(bool(out.degenerate), t, what),
                       interval_function=t_kernel_interval, interval_args=(out,),
                       center=scalar(out.center), standard_error=scalar(out.scale), **extra)


def _check_diffs_1d(diffs):
    x = check_differences(diffs, "diffs", (None,), "(J,)")
    if x.size < 2:
        raise ValueError(f"diffs must hold at least 2 differences, got {x.size}")
    return x


def _plain_paired(key, diffs, alternative):
    alternative = check_alternative(alternative, key)
    x = _check_diffs_1d(diffs)
    out = paired_t_kernel(x, 0.0, alternative)
    return _result(key, out, x.mean(), "the sample variance", alternative)


# ---- public tests
def rho_t(diffs, alternative="two-sided") -> TTestResult:
    """RHO paired t-test: the paired t over J = 15 repeated hold-outs
    (n1 = 2n/3), design ``rho15_2of3``.

    ``t = x_bar sqrt(J) / S`` ~ t(J - 1), S^2 the sample variance (ddof 1).
    It ignores the overlap of the training sets and so rejects too often.
    The interval is exactly scipy's ``ttest_1samp(diffs, 0).confidence_interval``.

    Source: Dietterich (1998), Neural Computation 10(7):1895-1923.

    Parameters
    ----------
    diffs : array-like, shape (J,)
        Per-fold differences error(A) - error(B), each in [-1, 1].
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult
        statistic t, pvalue, df = J - 1, estimate = x_bar, standard_error
        = S / sqrt(J); ``confidence_interval(level)``.

    Examples
    --------
    Worked example E4 (J = 15):

    >>> d = [0.02, -0.01, 0.03, 0.00, 0.04, 0.01, 0.02, -0.02, 0.03, 0.01,
    ...      0.05, 0.00, 0.02, 0.01, 0.03]
    >>> r = rho_t(d)
    >>> round(r.statistic, 9), round(r.pvalue, 12), r.df, round(r.estimate, 12)
    (3.292219567, 0.005344383542, 14, 0.016)
    >>> [round(v, 6) for v in r.confidence_interval(0.95)]
    [0.005576, 0.026424]
    """
    return _plain_paired("rho_t", diffs, alternative)


def kfold_t(diffs, alternative="two-sided") -> TTestResult:
    """K-fold CV paired t-test: the paired t over the K = 10 folds of one
    K-fold CV (design ``cv10``).

    ``t = x_bar sqrt(K) / S`` ~ t(K - 1).  Interval as :func:`rho_t`.

    Source: Dietterich (1998).

    Parameters
    ----------
    diffs : array-like, shape (K,)
    alternative : "two-sided" (one-sided: withdrawn, docs/validity/notes.md "Options")

    Returns
    -------
    TTestResult
        statistic, pvalue, df = K - 1, estimate = x_bar.

    Examples
    --------
    Worked example E5 (K = 10, 30 records per fold):

    >>> r = kfold_t([v / 30 for v in (1, 0, 2, -1, 1, 1, 3, 0, 1, 2)])
    >>> round(r.statistic, 9), round(r.pvalue, 11), r.df
    (2.738612788, 0.02289949455, 9)
    """
    return _plain_paired("kfold_t", diffs, alternative)


def t_5x2cv(diffs, alternative="two-sided") -> TTestResult:
    """Dietterich's 5x2 CV paired t-test (design ``rcv5x2``).

    ``s_i^2 = (p_i^(1) - p_i^(2))^2 / 2``,
    ``t = p_1^(1) / sqrt((1/5) sum_i s_i^2)`` ~ t(5).  The numerator is the
    first fold of the first replication, so keep the fold order.  For an
    m x 2 CV: mean over m and t(m).  The interval is
    ``p_1^(1) +- t_q(5) sqrt(mean s_i^2)``; it is centred on the numerator
    p_1^(1), not on ``estimate`` (the mean of all ten differences).

    Source: Dietterich (1998).

    Parameters
    ----------
    diffs : array-like, shape (5, 2)
        Rows replications i, columns folds k.
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult
        statistic, pvalue, df = m, estimate = mean of the 2m differences,
        center = p_1^(1), standard_error = sqrt(mean s_i^2).

    Examples
    --------
    Worked example E6:

    >>> P = [[.04, .02], [.01, .03], [.05, .00], [.02, .04], [.03, .01]]
    >>> r = t_5x2cv(P)
    >>> round(r.statistic, 9), round(r.pvalue, 10), r.df
    (1.975459193, 0.1051870336, 5)
    """
    alternative = check_alternative(alternative)
    P = check_differences(diffs, "diffs", (None, 2), "(5, 2)")
    out = t_5x2cv_kernel(P, alternative)
    return _result("t_5x2cv", out, P.mean(), "sum of s_i^2", alternative)


def combined_t_5x2cv(diffs, alternative="two-sided") -> TTestResult:
    """Yildiz's combined 5x2 CV t-test (design ``rcv5x2``).

    ``t = sqrt(10) p_bar / sqrt((1/5) sum_i s_i^2)`` ~ t(5) with p_bar the
    mean of the 10 differences (for m x 2: sqrt(2m), mean over m, t(m)).
    Interval ``p_bar +- t_q(5) sqrt(mean s_i^2) / sqrt(10)``.

    Source: Yildiz (2013), IEEE TKDE 25(9):2105-2118.

    Parameters
    ----------
    diffs : array-like, shape (5, 2)
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult
        statistic, pvalue, df = m, estimate = p_bar.

    Examples
    --------
    Worked example E8:

    >>> P = [[.04, .02], [.01, .03], [.05, .00], [.02, .04], [.03, .01]]
    >>> r = combined_t_5x2cv(P)
    >>> round(r.statistic, 9), round(r.pvalue, 11)
    (3.904344047, 0.01135947551)
    """
    alternative = check_alternative(alternative)
    P = check_differences(diffs, "diffs", (None, 2), "(5, 2)")
    out = combined_t_5x2cv_kernel(P, alternative)
    return _result("combined_t_5x2cv", out, P.mean(), "sum of s_i^2", alternative)


def blocked_t_3x2bcv(diffs, alternative="two-sided") -> TTestResult:
    """Blocked 3x2 CV t-test on the differences of a 3x2 BCV (design ``bcv3x2``).

    ``mu = mean of the 6 p's``, ``sigma^2 = (1/6) sum (p - mu)^2`` (divisor
    2m = 6, not 5), ``t = mu / sigma`` ~ t(5).  For an m x 2 BCV: divisor
    2m and t(2m - 1).  Interval ``mu +- t_q(5) sigma``.

    Source: Wang, Wang, Jia & Li (2014), Neural Computation 26(1):208-235.

    Parameters
    ----------
    diffs : array-like, shape (3, 2)
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult
        statistic, pvalue, df = 2m - 1, estimate = mu.

    Examples
    --------
    Worked example E9:

    >>> r = blocked_t_3x2bcv([[.04, .02], [.01, .03], [.05, .00]])
    >>> round(r.statistic, 9), round(r.pvalue, 10), r.df
    (1.463850109, 0.2031106637, 5)
    """
    alternative = check_alternative(alternative)
    P = check_differences(diffs, "diffs", (None, 2), "(3, 2)")
    if not 1 <= P.shape[0] <= 15:
        raise ValueError(f"diffs: an m x 2 BCV needs 1 <= m <= 15 replications, got m = {P.shape[0]}")
    out = blocked_t_3x2bcv_kernel(P, alternative)
    return _result("blocked_t_3x2bcv", out, P.mean(), "the variance of the differences",
                   alternative)


def _corrected(key, X, n_train, n_test, alternative):
    ratio = size_ratio(n_train, n_test, X.size)
    x = X.reshape(-1)
    out = paired_t_kernel(x, ratio, alternative)
    return _result(key, out, x.mean(), "the sample variance", alternative, size_ratio=ratio)


def corrected_rho_t(diffs, n_train, n_test, alternative="two-sided") -> TTestResult:
    """Corrected repeated hold-out (resampled) t-test, J = 15, n1 = 9n/10
    (design ``rho15_9of10``).

    ``t = x_bar / sqrt((1/J + n2/n1) S^2)`` ~ t(J - 1), with the actual
    training and test sizes.  Interval ``x_bar +- t_q(J-1) sqrt((1/J + n2/n1) S^2)``.

    Source: Nadeau & Bengio (2003), Machine Learning 52(3):239-281.

    Parameters
    ----------
    diffs : array-like, shape (J,)
    n_train, n_test : positive whole number, or one per fold
    alternative : "two-sided" (one-sided: withdrawn, docs/validity/notes.md "Options")

    Returns
    -------
    TTestResult
        statistic, pvalue, df = J - 1, estimate = x_bar, size_ratio = n2/n1.

    Examples
    --------
    Worked example E7 (n1 = 270, n2 = 30):

    >>> d = [0.02, -0.01, 0.03, 0.00, 0.04, 0.01, 0.02, -0.02, 0.03, 0.01,
    ...      0.05, 0.00, 0.02, 0.01, 0.03]
    >>> r = corrected_rho_t(d, 270, 30)
    >>> round(r.statistic, 9), round(r.pvalue, 11)
    (2.016064515, 0.06340141328)
    """
    alternative = check_alternative(alternative, "corrected_rho_t")
    x = _check_diffs_1d(diffs)
    return _corrected("corrected_rho_t", x, n_train, n_test, alternative)


def corrected_10x10cv_t(diffs, n_train, n_test, alternative="two-sided") -> TTestResult:
    """Corrected repeated K-fold CV t-test, 10 x 10 CV (design ``cv10x10``).

    ``t = x_bar / sqrt((1/(K r) + n2/n1) S^2)`` ~ t(K r - 1), x_bar and S^2
    over all K r differences; n2/n1 from the actual sizes (1/(K-1)).

    Source: Bouckaert & Frank (2004), PAKDD, LNAI 3056:3-12.

    Parameters
    ----------
    diffs : array-like, shape (r, K)
    n_train, n_test : positive whole number, or one per fold (r K values)
    alternative : "two-sided" (one-sided: withdrawn, docs/validity/notes.md "Options")

    Returns
    -------
    TTestResult
        statistic, pvalue, df = K r - 1, estimate = x_bar.

    Examples
    --------
    Worked example E12 (n2/n1 = 1/9):

    >>> x = [[(((7 * r + 3 * k) % 11) - 4) / 30 for k in range(10)] for r in range(10)]
    >>> r = corrected_10x10cv_t(x, 9, 1)
    >>> round(r.statistic, 10), round(r.pvalue, 10), r.df
    (0.8654308747, 0.3888946955, 99)
    """
    alternative = check_alternative(alternative, "corrected_10x10cv_t")
    X = check_differences(diffs, "diffs", (None, None), "(r, K)")
    if X.size < 2:
        raise ValueError("diffs must hold at least 2 differences")
    return _corrected("corrected_10x10cv_t", X, n_train, n_test, alternative)


def _check_pb(mu_hat, replicates):
    mu = as_float_array(mu_hat, "mu_hat", "a number")
    if mu.ndim != 0:
        raise ValueError("mu_hat must be a single number (mean of the first J differences)")
    if abs(float(mu)) > 1 and difference_bounded():
        raise ValueError("mu_hat is a mean error-rate difference and must lie in [-1, 1]")
    reps = check_differences(replicates, "replicates", (None,), "(R,)")
    if reps.size < 2:
        raise ValueError(f"replicates must hold R >= 2 values, got {reps.size}")
    return float(mu), reps


def pseudo_bootstrap(mu_hat, replicates, alternative="two-sided") -> TTestResult:
    """Pseudo-bootstrap test (design ``pseudo_bootstrap``) [UNVERIFIED
    reconstruction].

    ``sigma^2 = sum_r (mu_r - mean(mu))^2 / (R - 1)`` over the R replicates
    (each the mean of J further hold-out differences of the same data),
    ``t = mu_hat / sigma`` ~ t(R - 1).  It underestimates the variance (no
    training-set term); :func:`corrected_pseudo_bootstrap` corrects it.
    Interval ``mu_hat +- t_q(R-1) sigma``.

    Source: Nadeau & Bengio (2003); the formula is a reconstruction, not
    checked against the paper text or any implementation.

    Parameters
    ----------
    mu_hat : float
        Mean of the first J hold-out differences.
    replicates : array-like, shape (R,)
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult
        statistic, pvalue, df = R - 1, estimate = mu_hat.

    Examples
    --------
    Worked example E13:

    >>> mu = [.021, .018, .025, .016, .022, .019, .024, .017, .020, .023,
    ...       .018, .021, .026, .015, .020]
    >>> r = pseudo_bootstrap(0.02, mu)
    >>> round(r.statistic, 9), r.df
    (6.123724357, 14)
    """
    alternative = check_alternative(alternative)
    mu, reps = _check_pb(mu_hat, replicates)
    out = pseudo_bootstrap_kernel(np.float64(mu), reps, 1.0, alternative)
    return _result("pseudo_bootstrap", out, mu, "the replicate variance", alternative)


def corrected_pseudo_bootstrap(mu_hat, replicates, n_train, n_test, J,
                               alternative="two-sided") -> TTestResult:
    """Corrected pseudo-bootstrap test (design ``pseudo_bootstrap``)
    [UNVERIFIED reconstruction].

    ``t = mu_hat / sqrt((1 + J n2/n1) sigma^2)`` ~ t(R - 1), sigma^2 as in
    :func:`pseudo_bootstrap`.  The factor follows from
    Var(mu_hat) = sigma^2 (rho + (1 - rho)/J) with rho = n2/n; its
    attribution to Nadeau & Bengio (2003) is unverified.  Interval
    ``mu_hat +- t_q(R-1) sqrt(factor) sigma``.

    Parameters
    ----------
    mu_hat : float
    replicates : array-like, shape (R,)
    n_train, n_test : positive whole numbers
    J : positive whole number (hold-outs per replicate)
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult
        statistic, pvalue, df = R - 1, estimate = mu_hat, factor.

    Examples
    --------
    Worked example E14 (n1 = 9, n2 = 1, J = 15: factor 1 + 15/9):

    >>> mu = [.021, .018, .025, .016, .022, .019, .024, .017, .020, .023,
    ...       .018, .021, .026, .015, .020]
    >>> r = corrected_pseudo_bootstrap(0.02, mu, 9, 1, 15)
    >>> round(r.statistic, 9), round(r.pvalue, 12)
    (3.75, 0.002153387338)
    """
    alternative = check_alternative(alternative)
    mu, reps = _check_pb(mu_hat, replicates)
    J = check_whole(J, "J", 1)
    size_ratio(n_train, n_test, 1)              # checks both
    n1, n2 = (float(np.ravel(check_sizes(v, name))[0]) for v, name in
              ((n_train, "n_train"), (n_test, "n_test")))
    factor = pseudo_bootstrap_factor(J, n2, n1)
    out = pseudo_bootstrap_kernel(np.float64(mu), reps, factor, alternative)
    return _result("corrected_pseudo_bootstrap", out, mu, "the replicate variance", alternative,
                   factor=factor)

