"""McNemar family: hold-out McNemar (T15), naive K-fold McNemar (T16), and
the block-regularized 5x2 CV McNemar test of [YWSL] (T17).

A contingency table is ``[[n00, n01], [n10, n11]]`` ([YWSL] Table 1): rows
A incorrect/correct, columns B incorrect/correct.  So n01 counts records that
A gets wrong and B right, n10 the reverse; only these discordant counts enter
the statistics.
"""
from __future__ import annotations

import numpy as np
from scipy import stats as _st

from ._common import TestResult, check_tables, chi2_sf, scalar

CHI2_1 = "chi2(1)"


# --------------------------------------------------------------------------
# kernels (leading batch dimensions allowed)
# --------------------------------------------------------------------------
def _terms(b, c, correction=True):
    """McNemar terms (|b - c| - 1)^2 / (b + c) (or (b - c)^2 / (b + c)); 0
    where b + c = 0 (no discordant record: no evidence)."""
    b = np.asarray(b, float)
    c = np.asarray(c, float)
    s = b + c
    num = (np.abs(b - c) - 1.0) ** 2 if correction else (b - c) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(s > 0, num / np.where(s > 0, s, 1.0), 0.0), s


def _ho_kernel(b, c, correction=True):
    M, s = _terms(b, c, correction)
    p = np.where(s > 0, chi2_sf(M, 1), 1.0)
    return M, p


def _naive_kernel(b, c, empty_fold="zero", correction=True):
    """b, c: (..., K).  Returns M, p, df."""
    terms, s = _terms(b, c, correction)
    M = terms.sum(-1)
    K = terms.shape[-1]
    if empty_fold == "zero":
        df = np.full(M.shape, float(K))
    else:
        df = (s > 0).sum(-1).astype(float)
    with np.errstate(invalid="ignore"):
        p = np.where(df > 0, chi2_sf(M, np.maximum(df, 1.0)), 1.0)
    return M, p, df


def bcv_t(m: int, rho1: float, rho2: float) -> float:
    """t_m = 2m / (1 + rho1 + 2(m-1) rho2); 20/11 for the paper's 5x2 BCV."""
    den = 1.0 + rho1 + 2.0 * (m - 1) * rho2
    if not den > 0:
        raise ValueError(f"rho1, rho2 must give 1 + rho1 + 2(m-1) rho2 > 0 "
                         f"(8 rho2 for m = 5); got {den:g}")
    return 2.0 * m / den


def _bcv_kernel(nbar01, nbar10, t, clamp_correction=False):
    b = np.asarray(nbar01, float)
    c = np.asarray(nbar10, float)
    s = b + c
    d = np.abs(b - c) - 1.0 / t
    if clamp_correction:
        d = np.maximum(d, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        M = np.where(s > 0, t * d ** 2 / np.where(s > 0, s, 1.0), 0.0)
    p = np.where(s > 0, chi2_sf(M, 1), 1.0)
    return M, p


# --------------------------------------------------------------------------
# public tests
# --------------------------------------------------------------------------
def mcnemar(table, correction=True, exact=False) -> TestResult:
    """Conventional hold-out McNemar test (T15; [YWSL] eq. 2).

    ``M = (|n01 - n10| - 1)^2 / (n01 + n10)`` ~ chi2(1) (Edwards' continuity
    correction; ``correction=False`` drops the -1).  With ``exact=True`` the
    p-value is the two-sided binomial ``min(1, 2 Binom(n01+n10, 1/2).cdf(min))``
    and the statistic is ``min(n01, n10)`` (an extension, not used by [YWSL]).

    Edge case: ``n01 + n10 = 0`` gives M = 0, p = 1 and a warning (statsmodels
    and mlxtend return inf, p = 0 there).  n01 = n10 > 0 is not clamped.

    Sources: McNemar (1947), Psychometrika 12:153-157; Edwards (1948);
    Dietterich (1998), Neural Computation 10:1895-1923.

    Parameters
    ----------
    table : array-like, shape (2, 2) or (4,)
        ``[[n00, n01], [n10, n11]]`` or ``(n00, n01, n10, n11)``.

    Examples
    --------
    >>> mcnemar([[10, 14], [5, 71]])   # doctest: +ELLIPSIS
    TestResult(test='mcnemar_ho', statistic=3.368421053, pvalue=0.06645742002, df=1, estimate=0.09)
    """
    C = check_tables(table, "table", "a 2x2")
    if C.shape != (2, 2):
        raise ValueError(f"table must be one 2x2 contingency table, got shape {np.shape(table)}")
    N = C.sum()
    if N <= 0:
        raise ValueError("table is empty (all four counts are zero)")
    b, c = C[0, 1], C[1, 0]
    warnings = []
    if b + c == 0:
        warnings.append("no discordant records (n01 + n10 = 0): M = 0, p = 1")
    est = float((b - c) / N)
    details = {"table": C.astype(int).tolist(), "n01": int(b), "n10": int(c)}
    if exact:
        s = int(b + c)
        p = 1.0 if s == 0 else min(1.0, 2.0 * _st.binom.cdf(min(b, c), s, 0.5))
        return TestResult("mcnemar_ho", float(min(b, c)), float(p), None, est, details, warnings,
                          "Exact McNemar test (binomial)", "Binomial(n01+n10, 1/2)")
    M, p = _ho_kernel(b, c, correction)
    return TestResult("mcnemar_ho", scalar(M), scalar(p), 1, est, details, warnings,
                      "Conventional HO McNemar's test", CHI2_1)


def naive_kfold_mcnemar(tables, empty_fold="zero", correction=True) -> TestResult:
    """Naive K-fold CV McNemar test (T16; [YWSL] §3, the paper's strawman).

    ``M_KCV = sum_k (|n01,k - n10,k| - 1)^2 / (n01,k + n10,k)`` ~ chi2(K).

    ``empty_fold="zero"`` (default, TESTS_SPEC): a fold with no discordant
    record adds 0 and df stays K.  ``"drop"`` (the reading that fits the
    paper's own numbers, TESTS_SPEC §9): such folds are left out and df is the
    number of remaining folds.  If every fold is empty: M = 0, p = 1.

    Parameters
    ----------
    tables : array-like, shape (K, 2, 2) or (K, 4)
    """
    if empty_fold not in ("zero", "drop"):
        raise ValueError(f"empty_fold must be 'zero' or 'drop', got {empty_fold!r}")
    C = check_tables(tables, "tables", "(K, 2, 2)")
    if C.ndim != 3 or C.shape[0] < 1:
        raise ValueError(f"tables must have shape (K, 2, 2) or (K, 4), got {np.shape(tables)}")
    N = C.sum(axis=(1, 2))
    if np.any(N <= 0):
        raise ValueError("tables: every fold's table must contain at least one record")
    b, c = C[:, 0, 1], C[:, 1, 0]
    M, p, df = _naive_kernel(b, c, empty_fold, correction)
    terms, s = _terms(b, c, correction)
    n_empty = int((s == 0).sum())
    warnings = []
    if n_empty == len(s):
        warnings.append("no discordant record in any fold: M = 0, p = 1")
    elif n_empty:
        warnings.append(f"{n_empty} fold(s) without discordant records "
                        + ("add 0 (df stays K)" if empty_fold == "zero" else "dropped from M and df"))
    est = float(np.mean((b - c) / N))
    details = {"terms": terms.tolist(), "n_empty_folds": n_empty, "empty_fold": empty_fold}
    dfv = float(scalar(df))
    dfv = int(dfv) if dfv.is_integer() else dfv
    return TestResult("mcnemar_kfold_naive", scalar(M), scalar(p), dfv, est, details, warnings,
                      "Naive K-fold CV McNemar's test", f"chi2({dfv})")


def _as_bcv_tables(tables) -> np.ndarray:
    C = check_tables(tables, "tables", "(m, 2, 2, 2)")
    if C.ndim == 3 and C.shape[0] % 2 == 0:      # (2m, 2, 2) in fold order
        C = C.reshape(C.shape[0] // 2, 2, 2, 2)
    if C.ndim != 4 or C.shape[1] != 2:
        raise ValueError("tables must have shape (m, 2, 2, 2) [j, k, row, col], or (2m, 2, 2) / "
                         f"(2m, 4) in the fold order (j=1,k=1), (j=1,k=2), ...; got {np.shape(tables)}")
    m = C.shape[0]
    if not 1 <= m <= 15:
        raise ValueError(f"an m x 2 BCV needs 1 <= m <= 15, got m = {m}")
    if np.any(C.sum(axis=(2, 3)) <= 0):
        raise ValueError("tables: every fold's table must contain at least one record")
    return C


def bcv_mcnemar(tables, rho1=0.5, rho2=0.5, clamp_correction=False, t=None) -> TestResult:
    """Block-regularized 5x2 CV McNemar test (T17; [YWSL] §4).

    Averaged table ``C_bar = (1/10) sum_j sum_k C_k^(j)``; effective table
    ``C_e = t C_bar`` with ``t = 10 / (1 + rho1 + 8 rho2)`` (effective
    validation size ``n_e = 5n / (1 + rho1 + 8 rho2)``); then

        M_t = t (|n01_bar - n10_bar| - 1/t)^2 / (n01_bar + n10_bar) ~ chi2(1),

    which is the hold-out McNemar statistic of C_e.  The paper's choice
    rho1 = rho2 = 1/2 gives t = 20/11 and

        M_BCV = 20 (|n01_bar - n10_bar| - 11/20)^2 / (11 (n01_bar + n10_bar)).

    For an m x 2 BCV (m != 5) t_m = 2m / (1 + rho1 + 2(m-1) rho2)
    (TESTS_SPEC §T17 extension, derived).  Pass ``t`` to set it directly.

    Edge cases: no discordant record at all gives M = 0, p = 1 and a warning.
    When ``|n01_bar - n10_bar| < 1/t`` the literal formula still gives a
    positive M (over-correction); ``clamp_correction=True`` uses
    ``max(|n01_bar - n10_bar| - 1/t, 0)`` instead.

    Source: Yang, Wang, Song & Li, "Block-regularized 5x2 cross-validated
    McNemar's test for comparing two classification algorithms", §4
    (Theorem on the effective contingency table, eqs. for M_t and M_BCV).

    Parameters
    ----------
    tables : array-like, shape (m, 2, 2, 2) indexed [j, k, row, col];
        also (2m, 2, 2) or (2m, 4) rows in the fold order (j=1,k=1),
        (j=1,k=2), ..., (j=m,k=2).  k = 1 trains on S_j, k = 2 on T_j.
    """
    C = _as_bcv_tables(tables)
    m = C.shape[0]
    if t is None:
        for name, v in (("rho1", rho1), ("rho2", rho2)):
            if not np.isfinite(v):
                raise ValueError(f"{name} must be a finite number, got {v!r}")
        t = bcv_t(m, float(rho1), float(rho2))
    else:
        t = float(t)
        if not (np.isfinite(t) and t > 0):
            raise ValueError(f"t must be a positive finite number, got {t!r}")
    avg = C.reshape(2 * m, 2, 2).mean(axis=0)
    b, c = avg[0, 1], avg[1, 0]
    M, p = _bcv_kernel(b, c, t, clamp_correction)
    warnings = []
    if b + c == 0:
        warnings.append("no discordant records in any of the tables: M = 0, p = 1")
    elif abs(b - c) < 1.0 / t and not clamp_correction:
        warnings.append(f"|n01_bar - n10_bar| = {abs(b - c):.4g} < 1/t: the continuity correction "
                        "over-corrects (literal formula kept; clamp_correction=True gives M = 0)")
    folds = C.reshape(2 * m, 2, 2)
    N = folds.sum(axis=(1, 2))
    est = float(np.mean((folds[:, 0, 1] - folds[:, 1, 0]) / N))
    eff = t * avg
    details = {"averaged_table": avg.tolist(), "effective_table": eff.tolist(), "t": t,
               "n_e": float(eff.sum()), "rho1": None if rho1 is None else float(rho1),
               "rho2": None if rho2 is None else float(rho2), "m": m,
               "clamp_correction": bool(clamp_correction)}
    name = "5x2 BCV McNemar's test" if m == 5 else f"{m}x2 BCV McNemar's test"
    return TestResult("mcnemar_5x2bcv", scalar(M), scalar(p), 1, est, details, warnings, name, CHI2_1)
