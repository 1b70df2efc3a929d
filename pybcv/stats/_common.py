"""Shared pieces of the statistics: the result types, strict input checks,
the zero-variance rule, p-values, quantiles and the interval helpers.

Conventions (table orientation, the zero-variance rule, p-value sources,
interval formulas) are stated once in ``docs/conventions.md``; the sections
are cited by name below.

Every distribution function is scipy's: ``scipy.special``'s stdtr, ndtr,
chdtrc, fdtrc (the functions behind scipy.stats' t, norm, chi2 and f, called
directly: the same numbers without scipy.stats' per-call overhead) and their
inverses stdtrit, ndtri, chdtri, fdtri for the intervals.
"""
from __future__ import annotations

import contextlib
import contextvars
import math
import numbers
from dataclasses import dataclass, field, fields
from typing import Any, Callable, ClassVar, Dict, List, Optional, Tuple, Union

import numpy as np
from scipy import special as _sp

from .._validate import unmasked
from ..errors import ArgumentError

ALTERNATIVES = ("two-sided", "less", "greater")
#: conventions.md, "Zero-variance rule": relative to the values' magnitude
#: (the largest |value|, at least 1 for error rates), a set of values is constant when its spread is
#: within ZERO_TOL of it, a sum of k squared deviations is zero when within
#: k (ZERO_TOL magnitude)^2, a numerator is zero when within ZERO_TOL of its
#: magnitude; a variance from moments is zero when within ZERO_TOL of the
#: mean square.  Relative, so that a test gives the same answer in any unit
#: of the loss.
ZERO_TOL = 1e-12
DEFAULT_LEVEL = 0.95

#: The paper's name of each test key, filled in from the registry's rows
#: (``pybcv.stats.registry``), the one place where the names are written.
TEST_NAMES: Dict[str, str] = {}


# ---- results
def _plain(x):
    """A field's value as plain Python (arrays and tuples -> lists)."""
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, (np.floating, np.integer, np.bool_)):
        return x.item()
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


@dataclass(frozen=True, kw_only=True, repr=False, eq=False)
class TestResult:
    """Result of one significance test (scipy.stats style), built by keyword
    and frozen.

    Attributes
    ----------
    test : str
        Key in ``pybcv.stats.TESTS``; ``method`` is the registry's name of it.
    statistic, pvalue : float
    df : float, tuple of two floats (F) or None (z)
    estimate : float or None
        The mean error-rate difference error(A) - error(B) the test is
        about, where it has one.
    null_distribution : str
    alternative : {"two-sided", "less", "greater"}
    warnings : tuple of str

    Each subclass adds its own typed fields (the tables, t, ...), once.
    ``confidence_interval(level)`` gives (low, high) for mu_A - mu_B by the
    test's own interval (conventions.md, "Confidence intervals"); a test
    without one gives (nan, nan).  ``statistic, pvalue = result`` unpacks;
    ``to_dict()`` gives every field as plain values (what R reads).
    """
    __test__ = False            # not a pytest test class

    test: str
    statistic: float
    pvalue: float
    df: Union[float, Tuple[float, float], None]
    estimate: Optional[float] = None
    null_distribution: str = ""
    alternative: str = "two-sided"
    warnings: Tuple[str, ...] = ()
    # the family's kernel interval function and its arguments (the kernel's output)
    interval_function: Optional[Callable] = field(default=None, compare=False)
    interval_args: Tuple = field(default=(), compare=False)

    #: properties that to_dict() adds to the fields (derived facts)
    _derived: ClassVar[Tuple[str, ...]] = ()

    def __post_init__(self):
        object.__setattr__(self, "warnings", tuple(str(w) for w in self.warnings))

    @property
    def method(self) -> str:
        """The paper's name of the test (from the registry)."""
        return TEST_NAMES.get(self.test, self.test)

    def rejects(self, alpha: float = 0.05) -> bool:
        """True when H0 is rejected at level ``alpha`` (p < alpha)."""
        alpha = check_probability(alpha, "alpha")
        return bool(self.pvalue < alpha)

    def confidence_interval(self, level: float = DEFAULT_LEVEL) -> Tuple[float, float]:
        """(low, high) for mu_A - mu_B at confidence ``level`` (in (0, 1)):
        the interval that inverts this test (conventions.md, "Confidence
        intervals"); (nan, nan) where the test has none.  One-sided tests
        give one-sided intervals (an infinite end)."""
        level = check_probability(level, "level")
        if self.interval_function is None:
            return (math.nan, math.nan)
        lo, hi = self.interval_function(*self.interval_args, level=level,
                                        alternative=self.alternative)
        return (float(lo), float(hi))

    def __iter__(self):  # statistic, pvalue = result
        yield self.statistic
        yield self.pvalue

    def to_dict(self, level: float = DEFAULT_LEVEL) -> Dict[str, Any]:
        """Every field (and ``method``, the derived tables of a subclass and
        the interval at ``level``) as plain Python values."""
        d = {f.name: _plain(getattr(self, f.name)) for f in fields(self)
             if f.name not in ("interval_function", "interval_args")}
        d["method"] = self.method
        d.update({name: _plain(getattr(self, name)) for name in self._derived})
        d["ci_low"], d["ci_high"] = self.confidence_interval(level)
        d["ci_level"] = float(level)
        return d

    def __repr__(self):
        def f(x):
            if x is None:
                return "None"
            if isinstance(x, tuple):
                return "(" + ", ".join(f(v) for v in x) + ")"
            return f"{x:.10g}"
        s = (f"{type(self).__name__}(test={self.test!r}, statistic={f(self.statistic)}, "
             f"pvalue={f(self.pvalue)}, df={f(self.df)}")
        if self.estimate is not None:
            s += f", estimate={f(self.estimate)}"
        if self.alternative != "two-sided":
            s += f", alternative={self.alternative!r}"
        if self.warnings:
            s += f", warnings={list(self.warnings)!r}"
        return s + ")"

    def summary(self, alpha: float = 0.05) -> str:
        """Multi-line human-readable report."""
        lines = [self.method,
                 f"  statistic = {self.statistic:.6g}   ({self.null_distribution})",
                 f"  df        = {self.df}",
                 f"  p-value   = {self.pvalue:.6g}" + ("" if self.alternative == "two-sided"
                                                       else f"   (H1: {self.alternative})"),
                 f"  decision  = {'reject' if self.rejects(alpha) else 'do not reject'} H0 at alpha = {alpha}"]
        if self.estimate is not None:
            lines.insert(4, f"  estimate  = {self.estimate:.6g}  (error A - error B)")
            lo, hi = self.confidence_interval(1 - alpha)
            if not (math.isnan(lo) and math.isnan(hi)):
                lines.insert(5, f"  {100 * (1 - alpha):g}% CI    = ({lo:.6g}, {hi:.6g})")
        lines += [f"  warning: {w}" for w in self.warnings]
        return "\n".join(lines)


_FIELD = dict(frozen=True, kw_only=True, repr=False, eq=False)


@dataclass(**_FIELD)
class _CenteredResult(TestResult):
    """A result whose interval is ``center + q * standard_error``."""
    center: float = math.nan
    standard_error: float = math.nan


@dataclass(**_FIELD)
class TTestResult(_CenteredResult):
    """A t-test's result; ``standard_error`` is the denominator of t and
    ``center`` the numerator's estimate of mu_A - mu_B (the interval is
    ``center + t_q(df) * standard_error``); ``size_ratio`` n2/n1 of the
    corrected tests, ``factor`` the corrected pseudo bootstrap's variance
    factor (None where the test has none)."""
    size_ratio: Optional[float] = None
    factor: Optional[float] = None


@dataclass(**_FIELD)
class ZTestResult(_CenteredResult):
    """A z-test's result (interval ``center + z_q * standard_error``);
    ``n`` the records behind the standard error where the test has them
    (proportion: validation records; CV-CI: all records, with
    ``sigma2_out`` = n standard_error^2; conservative z: the M half-splits)."""
    n: Optional[int] = None
    sigma2_out: Optional[float] = None


@dataclass(**_FIELD)
class FTestResult(TestResult):
    """An F-test's result on m x 2 differences: ``sum_p2`` = sum p_ij^2,
    ``sum_s2`` = sum_i s_i^2 (f = sum_p2 / (2 sum_s2))."""
    sum_p2: float = math.nan
    sum_s2: float = math.nan


@dataclass(**_FIELD)
class McNemarResult(TestResult):
    """A hold-out McNemar result: the table used, its discordant counts and
    the options (``correction``, ``exact``)."""
    table: Optional[np.ndarray] = None
    n01: float = math.nan
    n10: float = math.nan
    correction: bool = True
    exact: bool = False


@dataclass(**_FIELD)
class NaiveKFoldMcNemarResult(TestResult):
    """The naive K-fold McNemar result: per-fold ``terms``, ``n_empty_folds``
    and the options used (``empty_fold``, ``correction``)."""
    terms: Optional[np.ndarray] = None
    n_empty_folds: int = 0
    empty_fold: str = "zero"
    correction: bool = True


@dataclass(**_FIELD)
class BCVMcNemarResult(TestResult):
    """The m x 2 BCV McNemar result: ``averaged_table`` (C_bar), ``t``,
    ``rho1``, ``rho2`` (None when t was given), ``m`` and
    ``clamp_correction``; ``effective_table`` (t C_bar) and ``n_e`` (the
    effective validation size, its total) follow from them."""
    averaged_table: Optional[np.ndarray] = None
    t: float = math.nan
    rho1: Optional[float] = None
    rho2: Optional[float] = None
    m: int = 5
    clamp_correction: bool = False

    _derived: ClassVar[Tuple[str, ...]] = ("effective_table", "n_e")

    @property
    def method(self) -> str:
        """The registry's name, for the m x 2 BCV that ran."""
        return super().method.replace("5x2", f"{self.m}x2")

    @property
    def effective_table(self) -> np.ndarray:
        return self.t * self.averaged_table

    @property
    def n_e(self) -> float:
        return float(self.effective_table.sum())


# ---- options the validity battery found liberal
def bcv_variance_factor(m: int, rho1: float, rho2: float) -> float:
    """1 + rho1 + 2(m-1) rho2: the m x 2 BCV's t is 2m over it (``bcv_t``)."""
    return 1.0 + rho1 + 2.0 * (m - 1) * rho2


def _paper_t(m: int) -> float:
    """The paper's t of an m x 2 BCV (rho1 = rho2 = 1/2; 20/11 at m = 5)."""
    return 2.0 * m / bcv_variance_factor(m, 0.5, 0.5)


def _one_sided(evidence: str, either: bool = True):
    """A WITHDRAWN_OPTIONS entry for a test's one-sided forms."""
    return (lambda o: o["alternative"] != "two-sided", "two-sided only",
            f"the validity battery found the one-sided test {evidence}"
            + ("; either direction, as A and B can be given in either order" if either else ""))


#: Option values withdrawn because the validity battery (docs/validity) found
#: the test liberal with them on a null family where it holds alpha with its
#: default options, or more liberal than with its defaults where those are
#: liberal too (the two intervals apart): {(test, option): (refuses(values) -> bool, what stays,
#: the evidence)}, ``values`` the test's option values by name (``m`` and the
#: resolved ``t`` for the 5x2 BCV McNemar).  :func:`check_withdrawn` raises on
#: them in every front end (the test functions, ``from_tables``, comparisons,
#: the CLI, R); the battery still scores them from its kernels, to document
#: the withdrawal.  results.csv.gz holds the evidence;
#: tests/test_withdrawn_options.py keeps this table and it in step.
WITHDRAWN_OPTIONS: Dict[Tuple[str, str], Tuple[Callable[[Dict[str, Any]], bool], str, str]] = {
    ("kfold_t", "alternative"): _one_sided(
        "liberal where the two-sided test holds: 'greater' 0.063 [0.053, 0.075] on 'magic "
        "noise n=500', two-sided 0.051"),
    ("mcnemar_ho", "correction"): (
        lambda o: not o["correction"] and not o.get("exact", False),
        "correction=True, or exact=True",
        "the validity battery found the uncorrected test liberal where the corrected one "
        "holds: 0.069 [0.058, 0.081] on 'twonorm noise n=500', corrected 0.044; liberal on "
        "4 null families where the corrected test holds"),
    ("corrected_rho_t", "alternative"): _one_sided(
        "liberal where the two-sided test holds: 'less' 0.074 [0.063, 0.086] on 'simple "
        "n=300 delta=0', two-sided 0.050 (0.072 and 0.071 at n = 1000 and 3000)"),
    ("mcnemar_kfold_naive", "correction"): (
        lambda o: not o["correction"], "correction=True only",
        "the validity battery found the uncorrected test liberal where the corrected one "
        "holds: 0.068 [0.057, 0.079] on 'pima mean-noise n=300', corrected 0.008; 0.089 on "
        "'shift-twins c=0.5'"),
    ("corrected_10x10cv_t", "alternative"): _one_sided(
        "more liberal than the two-sided test, itself liberal there: 'less' 0.099 [0.086, "
        "0.113] on 'simple n=300 delta=0 all tests', two-sided 0.068 [0.057, 0.080]"),
    ("mcnemar_5x2bcv", "t"): (
        lambda o: o["t"] > _paper_t(o["m"]) * (1 + 1e-12),
        "t at most the paper's 2m/(1 + 1/2 + (m-1)) (20/11 at m = 5), given or from rho1 "
        "and rho2",
        "the test needs t <= 10/v_eff, so any t above the paper's shrinks the range of "
        "training variability where it holds; the validity battery found t = 2.512 liberal "
        "on 12 null families where t = 20/11 holds (e.g. 0.069 [0.064, 0.074] on 'epsilon "
        "n=10000 eps=0.1', against 0.033) and t = 2 more liberal than 20/11 where that is "
        "liberal too (0.069 against 0.057 on 'shift-twins c=0.25')"),
    ("cvci_z", "alternative"): _one_sided(
        "liberal where the two-sided test holds: 'less' (the paper profile's reading) 0.064 "
        "[0.053, 0.075] on 'simple noise n=300', two-sided 0.057"),
    ("proportion_z", "alternative"): _one_sided(
        "liberal where the two-sided test holds: 'less' 0.056 [0.052, 0.061] and 'greater' "
        "0.055 [0.050, 0.059] on 'epsilon n=300 eps=0.3', two-sided 0.053",
        either=False),
}


def withdrawn(test: str, **values) -> Optional[str]:
    """The message refusing ``values`` (option values of ``test`` by name,
    every option :data:`WITHDRAWN_OPTIONS` reads for it) when one of them is
    withdrawn; None otherwise."""
    for (key, option), (refuses, stays, evidence) in WITHDRAWN_OPTIONS.items():
        if key == test and refuses(values):
            value = values[option]
            value = f"{value:.6g}" if isinstance(value, float) else repr(value)
            if option == "t" and (values.get("rho1", 0.5), values.get("rho2", 0.5)) != (0.5, 0.5):
                value += f" (from rho1 = {values['rho1']:.6g}, rho2 = {values['rho2']:.6g})"
            return (f"{option}={value} is withdrawn from the {TEST_NAMES.get(test, test)} "
                    f"({test}): {evidence}; offered: {stays} (docs/validity/notes.md, "
                    f"\"Options\")")
    return None


_ADMIT_WITHDRAWN = contextvars.ContextVar("pybcv_admit_withdrawn", default=False)


@contextlib.contextmanager
def admit_withdrawn():
    """Inside it the withdrawn option values are computed: by the validity
    battery, which scores them as evidence; by the engine's scoring, whose
    paper profile re-scores the paper's simulations with its one-sided
    CV-CI z; and by the project's tests, which check the battery's kernels
    against the one-result functions and against R.  Never entered by a
    comparison, the test functions' callers or the CLI."""
    token = _ADMIT_WITHDRAWN.set(True)
    try:
        yield
    finally:
        _ADMIT_WITHDRAWN.reset(token)


def check_withdrawn(test: str, **values) -> None:
    """ArgumentError (naming the option) when ``values`` use a withdrawn
    option value of ``test`` (:func:`withdrawn`)."""
    if _ADMIT_WITHDRAWN.get():
        return
    msg = withdrawn(test, **values)
    if msg is not None:
        raise ArgumentError(msg.split("=", 1)[0], msg)


# ---- strict input checks: each error names the argument and the expected form
# (conventions.md, "Inputs")
def check_flag(value, name: str) -> bool:
    """A flag must be a real bool (numpy's bool_ included): ``None``, 0/1 or
    strings are a TypeError naming the flag."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {value!r} ({type(value).__name__})")


def check_choice(value, name: str, choices) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {tuple(choices)}, got {value!r} ({type(value).__name__})")
    if value not in choices:
        raise ValueError(f"{name} must be one of {tuple(choices)}, got {value!r}")
    return value


def check_alternative(alternative, test: str = "") -> str:
    """``alternative`` checked; refused where withdrawn from ``test`` (:func:`check_withdrawn`)."""
    alternative = check_choice(alternative, "alternative", ALTERNATIVES)
    if test:
        check_withdrawn(test, alternative=alternative)
    return alternative


def check_real(value, name: str) -> float:
    """One finite real number (bool, complex, strings and arrays rejected)."""
    value = unmasked(value, name)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "fiu":
            value = value.item()
        elif isinstance(value, (np.ndarray, list, tuple)) and np.size(value) != 1:
            raise TypeError(f"{name} must be one number, got {np.size(value)} values")
        else:
            raise TypeError(f"{name} must be a real number, got {value!r} ({type(value).__name__})")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return v


def check_probability(value, name: str) -> float:
    """A level or alpha: a real number strictly between 0 and 1."""
    v = check_real(value, name)
    if not 0.0 < v < 1.0:
        raise ValueError(f"{name} must be in (0, 1), got {value!r}")
    return v


def check_whole(value, name: str, minimum: int = 1) -> int:
    """A whole number >= minimum (an integer, or a float with no fraction)."""
    v = check_real(value, name)
    if not v.is_integer() or v < minimum:
        what = {0: "a non-negative integer", 1: "a positive integer"}.get(minimum, f"an integer >= {minimum}")
        raise ValueError(f"{name} must be {what} (a whole number), got {value!r}")
    return int(v)


def as_float_array(x, name: str, shape_desc: str) -> np.ndarray:
    """A finite, non-empty array of real numbers as float64.  bool, complex,
    string and object arrays are a TypeError naming ``name``; masked entries
    a ValueError (:func:`pybcv._validate.unmasked`)."""
    x = unmasked(x, name)
    if isinstance(x, np.ndarray) and x.dtype.kind in "fiu" and x.size:     # fast path
        a = x.astype(float, copy=False)
        if x.dtype.kind == "f" and not np.isfinite(a).all():
            raise ValueError(f"{name} must be finite (no NaN or inf); expected {shape_desc}")
        return a
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be a numeric array of shape {shape_desc}, got a string")
    try:
        raw = np.asarray(x) if not isinstance(x, np.ndarray) else x
    except (TypeError, ValueError):            # ragged nesting, unconvertible objects
        raise ValueError(f"{name} must be a numeric array of shape {shape_desc} "
                         "(got a ragged or unconvertible sequence)") from None
    if raw.dtype == object:
        try:
            raw = np.asarray(x, dtype=float) if all(
                isinstance(v, (numbers.Real, np.floating, np.integer)) and not isinstance(v, (bool, np.bool_))
                for v in np.ravel(raw)) else raw
        except (TypeError, ValueError):
            pass
    if raw.dtype.kind not in "fiu":
        raise TypeError(f"{name} must be a numeric array of shape {shape_desc} "
                        f"(real numbers; got dtype {raw.dtype})")
    if raw.size == 0:
        raise ValueError(f"{name} must not be empty; expected {shape_desc}")
    with np.errstate(over="ignore", invalid="ignore"):
        a = np.asarray(raw, dtype=float)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite (no NaN or inf); expected {shape_desc}")
    return a


_REAL_LOSSES = contextvars.ContextVar("pybcv_real_losses", default=False)


@contextlib.contextmanager
def real_losses():
    """Within this block, differences are of mean real-valued losses (squared,
    absolute, a cost matrix: docs/guide/losses.md), so the [-1, 1] bound of
    error-rate differences does not apply."""
    token = _REAL_LOSSES.set(True)
    try:
        yield
    finally:
        _REAL_LOSSES.reset(token)


def difference_bounded() -> bool:
    """True unless inside :func:`real_losses`: differences are of error rates."""
    return not _REAL_LOSSES.get()


def check_differences(x, name: str, shape: Tuple[Optional[int], ...], shape_desc: str,
                      bound: bool = True) -> np.ndarray:
    """Per-fold error-rate differences: finite, in [-1, 1], of the given shape
    (``None`` in ``shape`` means any length; no bound inside :func:`real_losses`)."""
    a = as_float_array(x, name, shape_desc)
    if a.ndim != len(shape) or any(s is not None and s != d for s, d in zip(shape, a.shape)):
        raise ValueError(f"{name} must have shape {shape_desc}, got {a.shape}")
    if bound and difference_bounded() and np.any(np.abs(a) > 1.0):
        raise ValueError(f"{name} are differences of error rates and must lie in [-1, 1]")
    return a


def check_counts(x, name: str) -> np.ndarray:
    """Contingency counts: finite, non-negative, whole numbers whose sums stay
    finite (averaged tables are built by the functions themselves)."""
    x = unmasked(x, name)
    if isinstance(x, np.ndarray) and x.dtype.kind in "iu" and x.size:
        # integer counts (what pybcv.outcomes builds): whole and finite by type
        if x.dtype.kind == "i" and x.min() < 0:
            raise ValueError(f"{name} must be non-negative counts")
        if int(x.max()) * x.size > 2 ** 53 and float(x.sum(dtype=float)) > 2.0 ** 53:
            raise ValueError(f"{name}: the counts are too large (their sum exceeds 2**53, "
                             "where float counts stop being exact)")
        return x.astype(float)
    a = as_float_array(x, name, "of non-negative integer counts")
    if np.any(a < 0):
        raise ValueError(f"{name} must be non-negative counts")
    if np.any(a != np.round(a)):
        raise ValueError(f"{name} must be whole-number counts (got a fractional count)")
    with np.errstate(over="ignore", invalid="ignore"):
        total = a.sum()
    if not np.isfinite(total) or total > 2.0 ** 53:
        raise ValueError(f"{name}: the counts are too large (their sum overflows or exceeds "
                         "2**53, where float counts stop being exact)")
    return a


def check_tables(tables, name: str, lead_shape_desc: str) -> np.ndarray:
    """Tables as (..., 2, 2) [[n00, n01], [n10, n11]] or (..., 4)
    (n00, n01, n10, n11); returns (..., 2, 2).  conventions.md, "Contingency
    tables"."""
    a = check_counts(tables, name)
    if a.ndim >= 1 and a.shape[-1] == 4 and not (a.ndim >= 2 and a.shape[-2:] == (2, 2)):
        a = a.reshape(a.shape[:-1] + (2, 2))
    if a.ndim < 2 or a.shape[-2:] != (2, 2):
        raise ValueError(f"{name} must be {lead_shape_desc} contingency table(s) "
                         f"[[n00, n01], [n10, n11]] (or rows n00, n01, n10, n11); got shape {np.shape(tables)}")
    return a


def check_sizes(v, name: str) -> np.ndarray:
    """Training or validation sizes: one positive whole number, or one per fold."""
    if v is None:
        raise TypeError(f"{name} is required for this test (positive whole number of records)")
    a = as_float_array(v, name, "positive whole numbers of records")
    if a.ndim == 1 and a.min() >= 1 and (a == np.floor(a)).all():
        return a
    if a.ndim > 1:
        raise ValueError(f"{name} must be a number or a 1-d array (one size per fold), got shape {a.shape}")
    if np.any(a < 1) or np.any(a != np.round(a)):
        bad = a.reshape(-1)[np.flatnonzero((a < 1) | (a != np.round(a)))[0]]
        raise ValueError(f"{name} must be positive whole numbers of records (>= 1), got {bad:g}"
                         + (f" (of {a.size} values)" if a.size > 1 else ""))
    return a


# ---- the zero-variance rule (conventions.md, "Zero-variance rule")
def magnitude(values, axis=-1) -> np.ndarray:
    """The scale against which the rule judges zero: the largest |value|
    over ``axis`` (a tuple of axes allowed), and at least 1 for differences
    of error rates, whose unit is 1 (outside :func:`real_losses`): there the
    rule is the absolute one, so that rounding noise of averages of exactly
    cancelling rates counts as zero, as before; real-valued losses have no
    unit, and their rule is relative."""
    return rate_floor(np.max(np.abs(values), axis=axis))


def rate_floor(scale):
    """``scale``, at least 1 for differences of error rates (outside
    :func:`real_losses`): the rule's scale (:func:`magnitude`)."""
    return np.maximum(scale, 1.0) if difference_bounded() else np.asarray(scale, float)


def constant(values: np.ndarray, axis=-1) -> np.ndarray:
    """The rule's zero test for a set of values: max - min <= 1e-12 max |value|."""
    spread = np.max(values, axis=axis) - np.min(values, axis=axis)
    return spread <= ZERO_TOL * magnitude(values, axis)


def zero_sum_sq(sum_sq, k, size) -> np.ndarray:
    """The rule's zero test for a sum of ``k`` squared deviations of values
    of magnitude ``size``: <= k (1e-12 size)^2."""
    return np.asarray(sum_sq) <= k * (ZERO_TOL * np.asarray(size, float)) ** 2


def zero_moment_variance(var, mean_square) -> np.ndarray:
    """The rule's zero test for a variance computed as E[d^2] - E[d]^2 (one
    subtraction, so its rounding is relative to E[d^2]): <= 1e-12 E[d^2]
    (E[d^2] at least 1 for error rates, as in :func:`magnitude`)."""
    return np.asarray(var) <= ZERO_TOL * rate_floor(np.asarray(mean_square, float))


def ratio_or_limit(num, scale, degenerate, size):
    """num / scale; where ``degenerate`` (zero scale): 0 when num is zero
    (|num| <= 1e-12 ``size``, the magnitude of what num is built from), else
    +-inf with num's sign."""
    num = np.asarray(num, dtype=float)
    scale = np.asarray(scale, dtype=float)
    degenerate = np.asarray(degenerate, dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / np.where(degenerate, 1.0, scale)
    num_zero = np.abs(num) <= ZERO_TOL * np.asarray(size, float)
    return np.where(degenerate, np.where(num_zero, 0.0, np.copysign(np.inf, num)), out)


def zero_variance_p(p, statistic, degenerate):
    """p = 1 where the statistic is 0 by degeneracy; at +-inf the p-value
    functions already give 0 (or 1 for a one-sided test pointing away)."""
    return np.where(degenerate & (statistic == 0.0), 1.0, p)


def zero_variance_warning(degenerate: bool, statistic: float, what: str) -> List[str]:
    if not degenerate:
        return []
    if statistic == 0.0:
        return [f"zero-variance rule: {what} is zero and so is the numerator; statistic 0, p = 1"]
    return [f"zero-variance rule: {what} is zero with a non-zero numerator; statistic +-inf, p = 0"]


# ---- p-values (conventions.md, "p-values")
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


def chi2_sf(x, df):
    """chi2.sf(x, df) (x >= 0)."""
    return _sp.chdtrc(df, np.maximum(x, 0.0))


def f_sf(x, df1, df2):
    """f.sf(x, df1, df2) (x >= 0)."""
    return _sp.fdtrc(df1, df2, np.maximum(x, 0.0))


def scalar(x):
    return float(np.asarray(x).reshape(()))


# ---- intervals (conventions.md, "Confidence intervals"); vectorised
def _tail_quantiles(ppf, level, alternative):
    """(q_low, q_high) with the tails of scipy's ttest_1samp intervals."""
    if alternative == "less":
        return -np.inf, ppf(level)
    if alternative == "greater":
        return ppf(1.0 - level), np.inf
    tail = (1.0 - level) / 2.0
    return ppf(tail), ppf(1.0 - tail)


def shift_interval(center, scale, q_low, q_high):
    """(q_low * scale + center, q_high * scale + center), the form of
    scipy's TtestResult.confidence_interval; an infinite quantile gives an
    infinite end even where scale is 0."""
    center = np.asarray(center, float)
    scale = np.asarray(scale, float)
    with np.errstate(invalid="ignore"):
        low = np.where(np.isinf(q_low), q_low, q_low * scale + center)
        high = np.where(np.isinf(q_high), q_high, q_high * scale + center)
    return low, high


def t_interval(center, scale, df, *, level=DEFAULT_LEVEL, alternative="two-sided"):
    """center + t_q(df) * scale (the t interval of a t-test whose statistic
    is (center - mu) / scale under mu)."""
    q_low, q_high = _tail_quantiles(lambda p: _sp.stdtrit(df, p), level, alternative)
    return shift_interval(center, scale, q_low, q_high)


def z_interval(center, scale, *, level=DEFAULT_LEVEL, alternative="two-sided"):
    """center + z_q * scale."""
    q_low, q_high = _tail_quantiles(_sp.ndtri, level, alternative)
    return shift_interval(center, scale, q_low, q_high)


def sample_t_interval(sample, *, level=DEFAULT_LEVEL, alternative="two-sided"):
    """The one-sample t interval of the last axis, number for number as
    ``scipy.stats.ttest_1samp(sample, 0, axis=-1).confidence_interval(level)``
    computes it: estimate ``mean(x)``, variance ``mean((x - mean)^2) n/(n-1)``,
    standard error ``sqrt(v / n)``, ends ``q * se + mean`` with ``q`` the
    t(n - 1) quantiles of the tails.  One difference: a one-sided end is
    infinite also where the standard error is 0 (scipy's ``inf * 0`` is
    NaN there; conventions.md, "Confidence intervals").  scipy.special only: importing
    scipy.stats costs 0.25 s of every command's start
    (tests/test_stats_intervals.py holds the numbers equal to scipy's)."""
    x = np.asarray(sample, float)
    n = x.shape[-1]
    m = x.mean(axis=-1, keepdims=True)
    mean = m[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.mean((x - m) ** 2, axis=-1) * np.divide(n, n - 1)
        se = np.sqrt(v / n)
        q_low, q_high = _tail_quantiles(lambda p: _sp.stdtrit(n - 1, p), level, alternative)
        low, high = q_low * se + mean, q_high * se + mean
    return (np.asarray(np.where(np.isinf(q_low), q_low, low), float),
            np.asarray(np.where(np.isinf(q_high), q_high, high), float))


def no_interval(*args, level=DEFAULT_LEVEL, alternative="two-sided"):
    shape = np.shape(args[0]) if args else ()
    return np.full(shape, np.nan), np.full(shape, np.nan)


__all__ = ["TestResult", "TTestResult", "ZTestResult", "FTestResult", "McNemarResult",
           "NaiveKFoldMcNemarResult", "BCVMcNemarResult", "ALTERNATIVES"]
