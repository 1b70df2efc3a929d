"""Shared pieces of the statistics: the result type, input checks, rule D,
and p-values.  Every distribution function is scipy's (``scipy.special``'s
stdtr/ndtr/chdtrc/fdtrc, the functions behind scipy.stats' t, norm, chi2 and f,
called directly: the same numbers without scipy.stats' per-call overhead)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
from scipy import special as _sp

ALTERNATIVES = ("two-sided", "less", "greater")
ZERO_TOL = 1e-12  # rule D: a set of values is constant when max - min <= 1e-12


@dataclass
class TestResult:
    """Result of one significance test (scipy.stats style).

    Attributes: ``statistic``, ``pvalue``, ``df`` (a number, a tuple for F,
    ``None`` for z), ``estimate`` (mean error-rate difference A - B where the
    test has one), ``details`` (dict: averaged/effective tables, terms, ...),
    ``warnings`` (list of str), ``test`` (key in ``pybcv.stats.TESTS``),
    ``method`` (the paper's name), ``null_distribution`` and ``alternative``.
    """
    test: str
    statistic: float
    pvalue: float
    df: Union[float, Tuple[float, float], None]
    estimate: Optional[float] = None
    details: Dict[str, Any] = field(default_factory=dict)
    warnings: List[str] = field(default_factory=list)
    method: str = ""
    null_distribution: str = ""
    alternative: str = "two-sided"

    # aliases in the spec's vocabulary
    @property
    def p_value(self) -> float:
        return self.pvalue

    def rejects(self, alpha: float = 0.05) -> bool:
        """True when H0 is rejected at level ``alpha`` (p < alpha)."""
        alpha = float(alpha)
        if not 0.0 < alpha < 1.0:
            raise ValueError(f"alpha must be in (0, 1), got {alpha}")
        return bool(self.pvalue < alpha)

    @property
    def reject(self) -> bool:
        """Decision at alpha = 0.05."""
        return self.rejects(0.05)

    def __iter__(self):  # statistic, pvalue = result
        yield self.statistic
        yield self.pvalue

    def to_dict(self) -> Dict[str, Any]:
        d = {k: getattr(self, k) for k in ("test", "statistic", "pvalue", "df", "estimate",
                                           "method", "null_distribution", "alternative")}
        d["details"] = dict(self.details)
        d["warnings"] = list(self.warnings)
        return d

    def __repr__(self):
        def f(x):
            if x is None:
                return "None"
            if isinstance(x, tuple):
                return "(" + ", ".join(f(v) for v in x) + ")"
            return f"{x:.10g}"
        s = (f"TestResult(test={self.test!r}, statistic={f(self.statistic)}, "
             f"pvalue={f(self.pvalue)}, df={f(self.df)}")
        if self.estimate is not None:
            s += f", estimate={f(self.estimate)}"
        if self.alternative != "two-sided":
            s += f", alternative={self.alternative!r}"
        if self.warnings:
            s += f", warnings={self.warnings!r}"
        return s + ")"

    def summary(self, alpha: float = 0.05) -> str:
        """Multi-line human-readable report."""
        lines = [self.method or self.test,
                 f"  statistic = {self.statistic:.6g}   ({self.null_distribution})",
                 f"  df        = {self.df}",
                 f"  p-value   = {self.pvalue:.6g}",
                 f"  decision  = {'reject' if self.rejects(alpha) else 'do not reject'} H0 at alpha = {alpha}"]
        if self.estimate is not None:
            lines.insert(4, f"  estimate  = {self.estimate:.6g}  (error A - error B)")
        for w in self.warnings:
            lines.append(f"  warning: {w}")
        return "\n".join(lines)


# --------------------------------------------------------------------------
# input checks: each error names the argument and the expected form
# --------------------------------------------------------------------------
def as_float_array(x, name: str, shape_desc: str) -> np.ndarray:
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a numeric array of shape {shape_desc}") from None
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite (no NaN or inf); expected {shape_desc}")
    return a


def check_differences(x, name: str, shape: Tuple[Optional[int], ...], shape_desc: str,
                      bound: bool = True) -> np.ndarray:
    """Per-fold error-rate differences: finite, in [-1, 1], of the given shape
    (``None`` in ``shape`` means any length)."""
    a = as_float_array(x, name, shape_desc)
    if a.ndim != len(shape) or any(s is not None and s != d for s, d in zip(shape, a.shape)):
        raise ValueError(f"{name} must have shape {shape_desc}, got {a.shape}")
    if bound and np.any(np.abs(a) > 1.0):
        raise ValueError(f"{name} are differences of error rates and must lie in [-1, 1]")
    return a


def check_counts(x, name: str) -> np.ndarray:
    """Contingency counts: finite, non-negative, whole numbers (averaged
    tables are built by the functions themselves, never passed in)."""
    a = as_float_array(x, name, "of non-negative integer counts")
    if np.any(a < 0):
        raise ValueError(f"{name} must be non-negative counts")
    if np.any(a != np.round(a)):
        raise ValueError(f"{name} must be whole-number counts (got a fractional count)")
    return a


def check_tables(tables, name: str, lead_shape_desc: str) -> np.ndarray:
    """Tables as (..., 2, 2) [[n00, n01], [n10, n11]] or (..., 4)
    (n00, n01, n10, n11); returns (..., 2, 2)."""
    a = check_counts(tables, name)
    if a.ndim >= 1 and a.shape[-1] == 4 and not (a.ndim >= 2 and a.shape[-2:] == (2, 2)):
        a = a.reshape(a.shape[:-1] + (2, 2))
    if a.ndim < 2 or a.shape[-2:] != (2, 2):
        raise ValueError(f"{name} must be {lead_shape_desc} contingency table(s) "
                         f"[[n00, n01], [n10, n11]] (or rows n00, n01, n10, n11); got shape {np.shape(tables)}")
    return a


def check_alternative(alternative: str) -> str:
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {ALTERNATIVES}, got {alternative!r}")
    return alternative


def check_positive_sizes(name, v) -> np.ndarray:
    a = as_float_array(v, name, "positive record counts")
    if np.any(a <= 0):
        raise ValueError(f"{name} must be positive record counts")
    return a


# --------------------------------------------------------------------------
# vectorised pieces (leading batch dimensions allowed)
# --------------------------------------------------------------------------
def constant(values: np.ndarray, axis=-1) -> np.ndarray:
    """Rule D's zero test: max - min <= 1e-12 along ``axis``."""
    return (np.max(values, axis=axis) - np.min(values, axis=axis)) <= ZERO_TOL


def ratio_rule_d(num, scale, degenerate):
    """num / scale, with rule D where ``degenerate``: 0 when num == 0, else
    +-inf with num's sign."""
    num = np.asarray(num, dtype=float)
    scale = np.asarray(scale, dtype=float)
    degenerate = np.asarray(degenerate, dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / np.where(degenerate, 1.0, scale)
    num_zero = np.abs(num) <= ZERO_TOL
    return np.where(degenerate, np.where(num_zero, 0.0, np.copysign(np.inf, num)), out)


def p_t(t, df, alternative="two-sided"):
    t = np.asarray(t, dtype=float)
    if alternative == "two-sided":
        p = 2.0 * _sp.stdtr(df, -np.abs(t))          # = 2 t.sf(|t|, df)
    elif alternative == "less":
        p = _sp.stdtr(df, t)                          # = t.cdf(t, df)
    else:
        p = _sp.stdtr(df, -t)                         # = t.sf(t, df)
    return np.minimum(p, 1.0)


def p_z(z, alternative="two-sided"):
    z = np.asarray(z, dtype=float)
    if alternative == "two-sided":
        p = 2.0 * _sp.ndtr(-np.abs(z))               # = 2 norm.sf(|z|)
    elif alternative == "less":
        p = _sp.ndtr(z)
    else:
        p = _sp.ndtr(-z)
    return np.minimum(p, 1.0)


def rule_d_p(p, statistic, degenerate):
    """Rule D p-values: 1 when the statistic is 0 by degeneracy; 0 (or 1 for
    a one-sided test pointing the other way, which p already gives) at inf."""
    return np.where(degenerate & (statistic == 0.0), 1.0, p)


def scalar(x):
    return float(np.asarray(x).reshape(()))


def rule_d_warning(degenerate: bool, statistic: float, what: str) -> List[str]:
    if not degenerate:
        return []
    if statistic == 0.0:
        return [f"rule D: {what} is zero and so is the numerator; statistic 0, p = 1"]
    return [f"rule D: {what} is zero with a non-zero numerator; statistic +-inf, p = 0"]


def isclose_int(x) -> bool:
    return float(x).is_integer()


__all__ = ["TestResult", "ALTERNATIVES"]


def chi2_sf(x, df):
    """chi2.sf(x, df) (x >= 0)."""
    return _sp.chdtrc(df, np.maximum(x, 0.0))


def f_sf(x, df1, df2):
    """f.sf(x, df1, df2) (x >= 0)."""
    return _sp.fdtrc(df1, df2, np.maximum(x, 0.0))
