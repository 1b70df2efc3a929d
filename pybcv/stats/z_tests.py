"""Z-test family (T12-T14)."""
from __future__ import annotations

import numbers

import numpy as np

from ._common import (TestResult, as_float_array, check_alternative, check_differences, constant,
                      p_z, ratio_rule_d, rule_d_p, rule_d_warning, scalar)

N01 = "N(0, 1)"


def _proportion_kernel(pa, pb, n_test, alternative="two-sided"):
    pa = np.asarray(pa, float)
    pb = np.asarray(pb, float)
    pbar = (pa + pb) / 2.0
    deg = (pbar <= 0.0) | (pbar >= 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(deg, 0.0, (pa - pb) / np.sqrt(np.where(deg, 1.0, 2.0 * pbar * (1 - pbar) / n_test)))
    p = np.where(deg, 1.0, p_z(z, alternative))
    return z, p


def proportion_z(err_a, err_b, n_test, alternative="two-sided") -> TestResult:
    """Dietterich's test for the difference of two proportions (T12; one
    hold-out, n1 = 2n/3), pooled variance.

    ``p = (pA + pB)/2``, ``z = (pA - pB) / sqrt(2 p (1 - p) / n2)`` ~ N(0, 1).
    If p is 0 or 1 then pA = pB: z = 0, p-value 1.  (mlxtend's
    ``proportion_difference`` differs: unpooled, and it returns Phi(z).)

    Source: Dietterich (1998), §3.2.
    """
    alternative = check_alternative(alternative)
    pa = as_float_array(err_a, "err_a", "an error rate in [0, 1]")
    pb = as_float_array(err_b, "err_b", "an error rate in [0, 1]")
    for name, v in (("err_a", pa), ("err_b", pb)):
        if v.ndim != 0 or not 0.0 <= float(v) <= 1.0:
            raise ValueError(f"{name} must be one error rate in [0, 1], got {v!r}")
    if isinstance(n_test, bool) or not isinstance(n_test, (numbers.Integral, float, np.integer, np.floating)) \
            or not float(n_test).is_integer() or n_test < 1:
        raise ValueError(f"n_test must be a positive whole number of validation records, got {n_test!r}")
    z, p = _proportion_kernel(pa, pb, float(n_test), alternative)
    warnings = ["pooled error rate is 0 or 1: z = 0, p = 1"] if float((pa + pb) / 2) in (0.0, 1.0) else []
    return TestResult("proportion_z", scalar(z), scalar(p), None, float(pa - pb),
                      {"pooled": float((pa + pb) / 2), "n_test": int(n_test)}, warnings,
                      "Proportional test", N01, alternative)


def _cz_kernel(mu_hat, H, alternative="two-sided"):
    d = H[..., 0] - H[..., 1]
    M = H.shape[-2]
    var = (d ** 2).sum(-1) / (2.0 * M)
    deg = var <= 1e-24
    z = ratio_rule_d(mu_hat, np.sqrt(var), deg)
    return z, rule_d_p(p_z(z, alternative), z, deg), deg


def conservative_z(mu_hat, half_means, alternative="two-sided") -> TestResult:
    """Nadeau & Bengio's conservative Z-test (T13).

    ``sigma^2 = (1/(2M)) sum_m (mu_m^(1) - mu_m^(2))^2`` over M half-splits,
    ``z = mu_hat / sigma`` ~ N(0, 1).  mu_hat is the mean of J hold-out
    differences on all data; mu_m^(1), mu_m^(2) the same on the two disjoint
    halves (same test size), which over-estimates Var(mu_hat).

    Source: Nadeau & Bengio (2003); design as in slds-lmu inferGE.

    Parameters
    ----------
    half_means : array-like, shape (M, 2)
    """
    alternative = check_alternative(alternative)
    mu = as_float_array(mu_hat, "mu_hat", "a number")
    if mu.ndim != 0 or abs(float(mu)) > 1:
        raise ValueError("mu_hat must be one mean error-rate difference in [-1, 1]")
    H = check_differences(half_means, "half_means", (None, 2), "(M, 2)")
    if H.shape[0] < 1:
        raise ValueError("half_means must have shape (M, 2) with M >= 1")
    z, p, deg = _cz_kernel(mu, H, alternative)
    z = scalar(z)
    return TestResult("conservative_z", z, scalar(p), None, float(mu), {"M": H.shape[0]},
                      rule_d_warning(bool(deg), z, "the half-split variance"),
                      "Conservative Z-test", N01, alternative)


def _cvci_from_counts(N01, N10, n, alternative="two-sided"):
    """Closed form for 0-1 losses: R = (N01 - N10)/n, var = (N01 + N10)/n - R^2."""
    N01 = np.asarray(N01, float)
    N10 = np.asarray(N10, float)
    R = (N01 - N10) / n
    var = (N01 + N10) / n - R ** 2
    var = np.maximum(var, 0.0)
    deg = var <= 1e-24
    z = ratio_rule_d(np.sqrt(n) * R, np.sqrt(var), deg)
    return z, rule_d_p(p_z(z, alternative), z, deg), deg


def cvci_z(loss_diff, alternative="two-sided") -> TestResult:
    """K-fold CV-CI Z-test of Bayle et al. with the "out" variance (T14).

    With per-record loss differences ``h_i = lA_i - lB_i`` (each record's
    loss from the model trained without its fold):
    ``R = mean(h)``, ``sigma_out^2 = (1/n) sum (h_i - R)^2``,
    ``z = sqrt(n) R / sigma_out`` ~ N(0, 1).

    ``alternative="two-sided"`` (default) is the test as defined; the paper's
    own numbers fit ``"less"`` (H1: A has the lower error, reject when
    z < -z_0.95; TESTS_SPEC §9), which the "paper" profile uses.

    Source: Bayle, Bayle, Janson & Mackey (2020), NeurIPS 33.
    """
    alternative = check_alternative(alternative)
    h = check_differences(loss_diff, "loss_diff", (None,), "(n,) per-record loss differences")
    if h.size < 2:
        raise ValueError("loss_diff must hold at least 2 per-record differences")
    n = h.size
    R = h.mean()
    var = ((h - R) ** 2).mean()
    deg = bool(constant(h))
    z = ratio_rule_d(np.sqrt(n) * R, np.sqrt(var), deg)
    p = rule_d_p(p_z(z, alternative), z, np.asarray(deg))
    z = scalar(z)
    return TestResult("cvci_z", z, scalar(p), None, float(R), {"sigma2_out": float(var), "n": n},
                      rule_d_warning(deg, z, "sigma_out"), "K-fold CV-CI Z-test", N01, alternative)
