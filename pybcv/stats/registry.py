"""The registry ``TESTS``: every test as data.

This is the one place where each test's key, name, short label, family,
design, source, options and kernel live; the engine, the CLI, the report and
the R package read them from here, and fold counts come from
``pybcv.partitions.DESIGNS``.

Every entry runs from the fold tables of its design (conventions.md,
"Contingency tables" and "Fold order"):

- ``TESTS[key].batch(tables, n_train, n_test, **options)`` -> (statistic[R], pvalue[R])
  for tables of shape (R, F, 2, 2) (any leading batch shape);
- ``TESTS[key].batch_interval(tables, n_train, n_test, level=0.95, **options)``
  -> (low[R], high[R]) (NaN where the test has no interval);
- ``TESTS[key].from_tables(tables, n_train, n_test, **options)`` -> a result
  for one repetition's tables (F, 2, 2).

All three go through the same two steps: the table adapter (tables and sizes
-> the test's inputs, e.g. per-fold differences) and the test's vectorised
kernel in its family module (e.g. ``t_tests.paired_t_kernel``), which the
public function calls too; so each test's arithmetic lives once, and
``from_tables`` equals ``batch`` bit for bit.  Options and inputs are checked
before any arithmetic (conventions.md, "Inputs"); an option value withdrawn
by the validity battery (``_common.WITHDRAWN_OPTIONS``) is an error on every
path, except inside ``_common.admit_withdrawn()``, where the battery scores
it as evidence and the engine re-scores the paper profile's simulations.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

from ..errors import ArgumentError
from ..outcomes import differences, fold_sizes
from ..partitions import DESIGNS
from . import f_tests as _f, mcnemar_tests as _mc, t_tests as _t, z_tests as _z
from ._common import (ALTERNATIVES, DEFAULT_LEVEL, TEST_NAMES, TestResult, as_float_array,
                      check_choice, check_flag, check_probability, check_real, check_sizes,
                      check_tables, check_withdrawn, no_interval, real_losses, withdrawn,
                      zero_moment_variance, admit_withdrawn)


# ---- one adapter per test: fold tables C (..., F, 2, 2) and sizes -> the public
# function's inputs (vectorised over leading dimensions); the test's batch
# kernel takes the same inputs and returns (the family kernel's output,
# whose first two fields are statistic and pvalue; its interval function)
def _on_differences(adapter):
    """A table adapter from an adapter of per-fold differences ``d``: the
    tables' error-rate differences, or (``loss_inputs``) the mean loss
    differences of real-valued losses (docs/guide/losses.md)."""
    def inputs(C, ntr, nte):
        return adapter(differences(C), ntr, nte)
    inputs.on_differences = adapter
    return inputs


@_on_differences
def _diffs(d, ntr, nte):
    return (d,)


def _diffs_sizes(shape=None):
    def inputs(d, ntr, nte):
        return (d if shape is None else d.reshape(d.shape[:-1] + shape), ntr, nte)
    return _on_differences(inputs)


@_on_differences
def _mx2(d, ntr=None, nte=None):
    return (d.reshape(d.shape[:-1] + (d.shape[-1] // 2, 2)),)


def _pb_parts(d):
    """(mu_hat, replicate means, J): the first J differences' mean and the
    means of the following R blocks of J (conventions.md, "Fold order")."""
    J = DESIGNS["pseudo_bootstrap"].n_repeats
    return d[..., :J].mean(-1), d[..., J:].reshape(d.shape[:-1] + (-1, J)).mean(-1), J


@_on_differences
def _pb(d, ntr, nte):
    return _pb_parts(d)[:2]


@_on_differences
def _corrected_pb(d, ntr, nte):
    mu, reps, J = _pb_parts(d)
    return mu, reps, ntr[0], nte[0], J


def _proportion(C, ntr, nte):
    N = C[..., 0, :, :].sum((-1, -2))
    return ((C[..., 0, 0, 0] + C[..., 0, 0, 1]) / N, (C[..., 0, 0, 0] + C[..., 0, 1, 0]) / N, N)


@_on_differences
def _half_splits(d, ntr, nte):
    """mu_hat = mean of the first J differences; half-split means: the
    following M blocks of (half 1: J, half 2: J) differences."""
    J = DESIGNS["conservative_z"].n_repeats
    return d[..., :J].mean(-1), d[..., J:].reshape(d.shape[:-1] + (-1, 2, J)).mean(-1)


def _pooled_counts(C, ntr, nte):
    return C[..., 0, 1].sum(-1), C[..., 1, 0].sum(-1), C.sum((-1, -2, -3))


def _first_table(C, ntr, nte):
    return (C[..., 0, :, :],)


def _tables(C, ntr, nte):
    return (C,)


def _bcv_tables(C, ntr, nte):
    return (C.reshape(C.shape[:-3] + (-1, 2, 2, 2)),)


# batch kernels on those inputs
def _k_corrected(d, ntr, nte, alternative="two-sided"):
    return (_t.paired_t_kernel(d, float(np.sum(nte) / np.sum(ntr)), alternative),
            _t.t_kernel_interval)


def _k_corrected_rk(D, ntr, nte, alternative="two-sided"):
    """The corrected repeated CV t on (..., r, K) differences: all r K at once."""
    return _k_corrected(D.reshape(D.shape[:-2] + (-1,)), ntr, nte, alternative)


def _passing(kernel, interval, *fixed):
    """The batch kernel of a test whose family kernel takes the inputs as they
    are, then the ``fixed`` arguments and ``alternative``."""
    def run(*inputs, alternative="two-sided"):
        return kernel(*inputs, *fixed, alternative), interval
    return run


_k_paired = _passing(_t.paired_t_kernel, _t.t_kernel_interval, 0.0)    # the plain t: no correction


def _k_corrected_pb(mu, reps, n_train, n_test, J, alternative="two-sided"):
    factor = _t.pseudo_bootstrap_factor(J, n_test, n_train)
    return _t.pseudo_bootstrap_kernel(mu, reps, factor, alternative), _t.t_kernel_interval


def _k_f_combined(P):
    m = P.shape[-2]
    return _f.f_kernel(P, 2 * m, m), _f.f_kernel_interval


def _k_f_calibrated(P):
    return _f.f_kernel(P, 7, 5), _f.f_kernel_interval


def _k_cvci(n01, n10, n, alternative="two-sided"):
    return _z.cvci_z_kernel(*_z.cvci_moments_from_counts(n01, n10, n), alternative), _z.z_kernel_interval


def _k_mcnemar_ho(T, correction=True, exact=False):
    return (_mc.mcnemar_ho_kernel(T[..., 0, 1], T[..., 1, 0], T.sum((-1, -2)), correction, exact),
            _mc.mcnemar_kernel_interval)


def _k_mcnemar_naive(C, empty_fold="zero", correction=True):
    return (_mc.mcnemar_kfold_naive_kernel(C[..., 0, 1], C[..., 1, 0], empty_fold, correction),
            _no_interval_of)


def _no_interval_of(out, level=DEFAULT_LEVEL, alternative="two-sided"):
    return no_interval(out[0])


def _k_mcnemar_bcv(C, rho1=0.5, rho2=0.5, clamp_correction=False, t=None, alternative="two-sided",
                   exact=False):
    m = C.shape[-4]
    C = C.reshape(C.shape[:-4] + (2 * m, 2, 2))
    t = _mc.resolve_t(m, rho1, rho2, t)
    return (_mc.mcnemar_5x2bcv_kernel(C[..., 0, 1].mean(-1), C[..., 1, 0].mean(-1),
                                      C.sum((-1, -2)).mean(-1), t, clamp_correction, alternative,
                                      exact),
            _mc.mcnemar_kernel_interval)


# ---- option checks (before any arithmetic)
#: The options that take one of a few strings (the first is the default);
#: the R wrappers' choices are generated from these (scripts/gen_r_tests.py).
OPTION_CHOICES = {"alternative": ALTERNATIVES, "empty_fold": ("zero", "drop")}
_OPTION_CHECKS = {
    **{k: (lambda v, k=k: check_choice(v, k, OPTION_CHOICES[k])) for k in OPTION_CHOICES},
    **{k: (lambda v, k=k: check_flag(v, k)) for k in ("correction", "exact", "clamp_correction")},
    **{k: (lambda v, k=k: check_real(v, k)) for k in ("rho1", "rho2")},
    "t": lambda v: v is None or _mc.resolve_t(5, t=v),
}


@dataclass(frozen=True, eq=False)
class TestSpec:
    """One test as data.

    key : the registry key (also the public function's name)
    name : the paper's name;  label : a short display name
    family : "t", "F", "z" or "McNemar";  design : key in ``pybcv.partitions.DESIGNS``
    source : the reference;  options : the option names (``defaults``: their defaults)
    function : the public function
    inputs : the one adapter: (tables (..., F, 2, 2), n_train[F], n_test[F]) -> the
        public function's positional inputs (vectorised over leading dimensions)
    kernel : the vectorised kernel on those inputs: (*inputs, **options) -> (output
        of the family kernel, whose first two fields are statistic and pvalue; the
        interval function of that output)
    in_table5 : in the paper's Table 5
    on_tables : the function ``from_tables`` calls with the inputs, where it is
        not ``function`` (the CV-CI z: its closed form from the pooled counts)
    """
    __test__ = False
    key: str
    name: str
    label: str
    family: str
    design: str
    source: str
    function: Callable = field(repr=False)
    inputs: Callable = field(repr=False)
    kernel: Callable = field(repr=False)
    defaults: Dict = field(default_factory=dict)
    in_table5: bool = True
    on_tables: Optional[Callable] = field(default=None, repr=False)
    loss_inputs: Optional[Callable] = field(default=None, repr=False)
    on_losses: Optional[Callable] = field(default=None, repr=False)
    loss_kernel: Optional[Callable] = field(default=None, repr=False)
    liberal_on_losses: str = ""
    liberal_losses: Tuple[str, ...] = ()

    def loss_warning_under(self, loss: Optional[str] = None) -> str:
        """:attr:`loss_warning` where it applies under ``loss`` (a loss name):
        a test found liberal only under some of the battery's scored losses
        (``liberal_losses``) does not warn under the others; any other name
        (a user's own losses) gets the warning."""
        if self.liberal_losses and loss in SCORED_LOSSES and loss not in self.liberal_losses:
            return ""
        return self.loss_warning

    @property
    def loss_warning(self) -> str:
        """The warning every result of this test under a real-valued loss
        carries, where the validity battery found it liberal there
        (``liberal_on_losses``: on which loss families; docs/validity/warnings.csv
        holds the evidence, tests/test_loss_warnings.py keeps the two in step);
        "" otherwise."""
        if not self.liberal_on_losses:
            return ""
        instead = (" (the 10-fold t and the CV-CI z held alpha on every loss family)"
                   if self.liberal_losses else "")
        return (f"the validity battery found the {self.label} liberal under real-valued losses "
                f"({self.liberal_on_losses}): its p-values are too small there{instead}; see "
                f"docs/validity (warnings.csv)")

    @property
    def needs_zero_one(self) -> bool:
        """True when the test reads 0/1 outcomes only (the McNemar family's
        tables, the proportion z's binomial variance): it cannot run on
        real-valued losses (docs/guide/losses.md)."""
        return self.loss_inputs is None

    @property
    def options(self) -> Tuple[str, ...]:
        return tuple(self.defaults)

    @property
    def needs_n_train(self) -> bool:
        """True when the test uses the training sizes (its function takes n_train)."""
        return "n_train" in inspect.signature(self.function).parameters

    @property
    def n_folds(self) -> int:
        """Folds of the design (from ``pybcv.partitions.DESIGNS``)."""
        return _n_folds(self.design)

    def gives_interval(self, **options) -> bool:
        """Whether the test, with ``options``, gives confidence intervals (the
        naive K-fold McNemar and the exact McNemar tests give none).  Where it
        does, a NaN interval is an empty set (the F tests' (nan, nan): the test
        rejects at every shift), which misses the truth: coverage counts it
        as a miss, not as a missing interval (conventions.md, "Confidence
        intervals").  Probed once per options on fixed tables."""
        return _gives_interval(self.key, repr(sorted(options.items())), tuple(options.items()))

    # ---- checks -----------------------------------------------------------
    def _options(self, options, batch=False):
        bad = set(options) - set(self.defaults)
        if bad:
            own = [k for k in sorted(bad) if k in inspect.signature(self.function).parameters]
            raise ValueError(f"test {self.key!r} takes no option(s) {sorted(bad)}; "
                             f"its options: {list(self.defaults)}" + (
                                 f" ({', '.join(own)}: an argument of pybcv.stats."
                                 f"{self.function.__name__} on your own table, not an option of "
                                 f"a comparison)" if own else ""))
        for k, v in options.items():
            _OPTION_CHECKS[k](v)
        if "rho1" in options or "rho2" in options:
            _mc.bcv_t(self.n_folds // 2, options.get("rho1", 0.5), options.get("rho2", 0.5))
        if batch:               # the one-result paths refuse them in the test functions
            check_withdrawn(self.key, **self._values(options))
        return options

    def refused(self, options) -> Optional[str]:
        """Why ``options`` (checked, merged with the defaults) hold an option
        value withdrawn from this test (``_common.WITHDRAWN_OPTIONS``: the
        validity battery found the test liberal with it where its default
        holds, or more liberal where that is liberal too), or None.  The test functions refuse such values themselves;
        comparisons ask first, before any fit."""
        return withdrawn(self.key, **self._values(options))

    def _values(self, options) -> Dict:
        """The option values by name, the defaults filled in (the 5x2 BCV
        McNemar's: its m and its t, given or from rho1 and rho2)."""
        o = {**self.defaults, **options}
        if "t" in o:
            m = self.n_folds // 2
            if o["t"] is not None:          # a t given: the rhos are not read
                o.pop("rho1", None), o.pop("rho2", None)
            o.update(m=m, t=_mc.resolve_t(m, o.get("rho1", 0.5), o.get("rho2", 0.5), o["t"]))
        return o

    def _tables(self, tables, batch: bool):
        F = self.n_folds
        lead = "(R, F, 2, 2)" if batch else "(F, 2, 2)"
        C = check_tables(tables, "tables", lead.replace("F", str(F)))
        if (C.ndim < 4 if batch else C.ndim != 3) or C.shape[-3] != F:
            raise ValueError(f"tables must have shape {lead.replace('F', str(F))} for test "
                             f"{self.key!r} (design {self.design!r}), got {np.shape(tables)}")
        if np.any(fold_sizes(C) <= 0):
            raise ValueError("tables: every fold's table must contain at least one record")
        return C

    def _sizes(self, C, n_train, n_test):
        F = self.n_folds
        out = []
        for name, v in (("n_train", n_train),
                        ("n_test", fold_sizes(C).reshape(-1, F)[0] if n_test is None else n_test)):
            a = np.full(F, np.nan) if v is None else check_sizes(v, name)
            if a.ndim == 0:
                a = np.full(F, float(a))
            if a.shape != (F,):
                raise ValueError(f"{name} must be a number or one size per fold ({F} values) "
                                 f"for design {self.design!r}, got shape {a.shape}")
            out.append(a)
        if n_train is None and self.needs_n_train:
            raise TypeError(f"n_train is required for test {self.key!r} (training size per fold)")
        return out

    # ---- entry points -------------------------------------------------------
    def _prepare(self, tables, n_train, n_test, options, batch):
        options = self._options(options, batch)
        C = self._tables(tables, batch=batch)
        ntr, nte = self._sizes(C, n_train, n_test)
        return self.inputs(C, ntr, nte), options

    def from_tables(self, tables, n_train=None, n_test=None, **options) -> TestResult:
        """Run the test on one repetition's fold tables (shape (F, 2, 2))."""
        inputs, options = self._prepare(tables, n_train, n_test, options, batch=False)
        return (self.on_tables or self.function)(*inputs, **options)

    def from_loss_sums(self, sums, n_train=None, n_test=None, loss=None, **options) -> TestResult:
        """Run the test on one repetition's per-fold sums of real-valued
        losses, shape (F, 4): records, sum of A's losses, sum of B's, sum of
        the squared per-record differences (:func:`pybcv.outcomes.loss_sums`);
        the test reads the per-fold mean loss differences; ``loss`` (its name)
        decides whether the battery's warning applies (:meth:`loss_warning_under`)."""
        S, ntr, nte, options = self._loss_sums(sums, n_train, n_test, options, batch=False)
        with real_losses():
            res = (self.on_losses or self.function)(*self.loss_inputs(S, ntr, nte), **options)
        if self.loss_warning_under(loss):
            res = replace(res, warnings=(*res.warnings, self.loss_warning_under(loss)))
        return res

    def batch_losses(self, sums, n_train, n_test, level=DEFAULT_LEVEL, **options):
        """Vectorised over repetitions of real-valued losses: per-fold loss
        sums (R, F, 4) (:meth:`from_loss_sums`) -> (statistic[R], pvalue[R],
        low[R], high[R]); the same kernel as :meth:`batch` on the per-fold
        mean loss differences (the CV-CI z: on the pooled moments).  The
        engine scores runs under ``RunConfig(loss=...)`` with it."""
        S, ntr, nte, options = self._loss_sums(sums, n_train, n_test, options, batch=True)
        with real_losses():
            out, interval = (self.loss_kernel or self.kernel)(*self.loss_inputs(S, ntr, nte),
                                                              **options)
            lo, hi = interval(out, level=check_probability(level, "level"),
                              alternative=options.get("alternative", "two-sided"))
        return (np.asarray(out[0], float), np.asarray(out[1], float), np.asarray(lo, float),
                np.asarray(hi, float))

    def _loss_sums(self, sums, n_train, n_test, options, batch: bool):
        """(sums, n_train, n_test, options) checked: per-fold loss sums (F, 4),
        or (R, F, 4) for a batch, of a test that runs on real-valued losses."""
        if self.needs_zero_one:
            raise ValueError(zero_one_message([self.key], "this loss"))
        options = self._options(options, batch)
        F = self.n_folds
        shape = f"(R, {F}, 4)" if batch else f"({F}, 4)"
        try:
            S = as_float_array(sums, "loss sums", shape)
        except ValueError:
            with np.errstate(invalid="ignore"):
                inf = isinstance(sums, np.ndarray) and sums.dtype.kind == "f" and np.isinf(sums).any()
            if inf:             # overflowed sums or squares: losses beyond float64's range
                raise ValueError(_loss_range_message("too large: their sums or squared "
                                                     "differences overflow float64")) from None
            raise
        if (S.ndim < 3 if batch else S.ndim != 2) or S.shape[-2:] != (F, 4):
            raise ValueError(f"loss sums must have shape {shape} for test {self.key!r} "
                             f"(design {self.design!r}), got {S.shape}")
        if np.any(S[..., 0] < 1):
            raise ValueError("loss sums: every fold must contain at least one record")
        d = np.abs(S[..., 1] - S[..., 2]) / S[..., 0]
        m = float(d.max())
        if 0.0 < m < LOSS_RANGE[0] or m > LOSS_RANGE[1]:
            raise ValueError(_loss_range_message(f"of magnitude {m:.1e} (the largest per-fold mean "
                                                 f"loss difference)"))
        ntr, nte = self._sizes(np.zeros((F, 2, 2)), n_train, S.reshape(-1, F, 4)[0, :, 0]
                               if n_test is None else n_test)
        return S, ntr, nte, options

    def batch(self, tables, n_train, n_test, **options):
        """Vectorised: tables (R, F, 2, 2) -> (statistic[R], pvalue[R])."""
        stat, p, _, _ = self._run(tables, n_train, n_test, None, options)
        return stat, p

    def batch_interval(self, tables, n_train, n_test, level=DEFAULT_LEVEL, **options):
        """Vectorised intervals: tables (R, F, 2, 2) -> (low[R], high[R]) for
        mu_A - mu_B (NaN where the test has none; conventions.md,
        "Confidence intervals")."""
        _, _, lo, hi = self.batch_with_intervals(tables, n_train, n_test, level=level, **options)
        return lo, hi

    def batch_with_intervals(self, tables, n_train, n_test, level=DEFAULT_LEVEL, **options):
        """Statistic, p-value and interval from ONE run of the kernel:
        tables (R, F, 2, 2) -> (statistic[R], pvalue[R], low[R], high[R])."""
        return self._run(tables, n_train, n_test, check_probability(level, "level"), options)

    def _run(self, tables, n_train, n_test, level, options):
        inputs, options = self._prepare(tables, n_train, n_test, options, batch=True)
        out, interval = self.kernel(*inputs, **options)
        stat, p = np.asarray(out[0], float), np.asarray(out[1], float)
        if level is None:
            return stat, p, None, None
        lo, hi = interval(out, level=level, alternative=options.get("alternative", "two-sided"))
        return stat, p, np.asarray(lo, float), np.asarray(hi, float)


_GIVES: Dict[Tuple[str, str], bool] = {}


def _gives_interval(key: str, token: str, options) -> bool:
    if (key, token) not in _GIVES:
        spec = TESTS[key]
        ntr, nte = DESIGNS[spec.design].sizes(200)
        rng = np.random.default_rng(0)
        sizes = np.broadcast_to(np.asarray(nte, np.int64), (spec.n_folds,))
        T = np.stack([rng.multinomial(int(m), [0.1, 0.15, 0.1, 0.65], size=16) for m in sizes],
                     axis=1).reshape(16, spec.n_folds, 2, 2)
        with admit_withdrawn():
            _, _, lo, hi = spec.batch_with_intervals(T, ntr, nte, **dict(options))
        _GIVES[(key, token)] = bool(np.any(~np.isnan(lo) & ~np.isnan(hi)))
    return _GIVES[(key, token)]


@lru_cache(maxsize=None)
def _n_folds(design: str) -> int:
    return int(DESIGNS[design].get_n_splits())     # fold counts do not depend on n


# ---- the tests
_ALT = {"alternative": "two-sided"}

_ROWS = [
    # key, name, label, family, design, source, function, inputs, kernel, defaults, in_table5
    ("rho_t", "RHO paired t-test", "RHO t", "t", "rho15_2of3",
     "Dietterich (1998), resampled paired t; J = 15, n1 = 2n/3",
     _t.rho_t, _diffs, _k_paired, _ALT, True),
    ("kfold_t", "K-fold CV paired t-test", "10-fold t", "t", "cv10", "Dietterich (1998); K = 10",
     _t.kfold_t, _diffs, _k_paired, _ALT, True),
    ("t_5x2cv", "5x2 CV paired t-test", "5x2 CV t", "t", "rcv5x2", "Dietterich (1998)",
     _t.t_5x2cv, _mx2, _passing(_t.t_5x2cv_kernel, _t.t_kernel_interval), _ALT, True),
    ("corrected_rho_t", "Corrected RHO t-test", "corrected RHO t", "t", "rho15_9of10",
     "Nadeau & Bengio (2003); J = 15, n1 = 9n/10",
     _t.corrected_rho_t, _diffs_sizes(), _k_corrected, _ALT, True),
    ("pseudo_bootstrap", "Pseudo bootstrap test", "pseudo bootstrap", "t", "pseudo_bootstrap",
     "Nadeau & Bengio (2003) [UNVERIFIED reconstruction]",
     _t.pseudo_bootstrap, _pb,
     _passing(_t.pseudo_bootstrap_kernel, _t.t_kernel_interval, 1.0), _ALT, False),
    ("corrected_pseudo_bootstrap", "Corrected pseudo bootstrap test", "corrected pseudo bootstrap",
     "t", "pseudo_bootstrap", "Nadeau & Bengio (2003) [UNVERIFIED reconstruction]",
     _t.corrected_pseudo_bootstrap, _corrected_pb, _k_corrected_pb, _ALT, False),
    ("corrected_10x10cv_t", "Corrected 10x10 CV t-test", "corrected 10x10 CV t", "t", "cv10x10",
     "Bouckaert & Frank (2004)",
     _t.corrected_10x10cv_t, _diffs_sizes((10, 10)), _k_corrected_rk, _ALT, True),
    ("combined_t_5x2cv", "Combined 5x2 CV t-test", "combined 5x2 CV t", "t", "rcv5x2", "Yildiz (2013)",
     _t.combined_t_5x2cv, _mx2, _passing(_t.combined_t_5x2cv_kernel, _t.t_kernel_interval), _ALT, True),
    ("blocked_t_3x2bcv", "Blocked 3x2 CV t-test", "blocked 3x2 BCV t", "t", "bcv3x2",
     "Wang, Wang, Jia & Li (2014)",
     _t.blocked_t_3x2bcv, _mx2, _passing(_t.blocked_t_3x2bcv_kernel, _t.t_kernel_interval), _ALT, True),
    ("combined_f_5x2cv", "Combined 5x2 CV F-test", "combined 5x2 CV F", "F", "rcv5x2", "Alpaydin (1999)",
     _f.combined_f_5x2cv, _mx2, _k_f_combined, {}, True),
    ("calibrated_f_5x2bcv", "Calibrated 5x2 BCV F-test", "calibrated 5x2 BCV F", "F", "bcv5x2",
     "Wang, Li & Li (2017) [statistic's scaling UNVERIFIED]",
     _f.calibrated_f_5x2bcv, _mx2, _k_f_calibrated, {}, True),
    ("proportion_z", "Proportional test", "proportion z", "z", "holdout",
     "Dietterich (1998), pooled; n1 = 2n/3",
     _z.proportion_z, _proportion, _passing(_z.proportion_z_kernel, _z.z_kernel_interval), _ALT, True),
    ("conservative_z", "Conservative Z-test", "conservative z", "z", "conservative_z",
     "Nadeau & Bengio (2003); J = 15, M = 10",
     _z.conservative_z, _half_splits, _passing(_z.conservative_z_kernel, _z.z_kernel_interval), _ALT, False),
    ("cvci_z", "K-fold CV-CI Z-test", "10-fold CV-CI z", "z", "cv10",
     "Bayle, Bayle, Janson & Mackey (2020); K = 10, 'out' variance",
     _z.cvci_z, _pooled_counts, _k_cvci, _ALT, True),
    ("mcnemar_ho", "Conventional HO McNemar's test", "HO McNemar", "McNemar", "holdout",
     "McNemar (1947); Edwards (1948); Dietterich (1998); n1 = 2n/3",
     _mc.mcnemar_ho, _first_table, _k_mcnemar_ho, {"correction": True, "exact": False}, True),
    ("mcnemar_kfold_naive", "Naive K-fold CV McNemar's test", "naive 10-fold McNemar", "McNemar",
     "cv10", "Yang, Wang, Song & Li, section 'Naive K-fold CV McNemar's test'; K = 10",
     _mc.mcnemar_kfold_naive, _tables, _k_mcnemar_naive,
     {"empty_fold": "zero", "correction": True}, True),
    ("mcnemar_5x2bcv", "5x2 BCV McNemar's test", "5x2 BCV McNemar", "McNemar", "bcv5x2",
     "Yang, Wang, Song & Li, section '5x2 BCV McNemar's test'; rho1 = rho2 = 1/2 (t = 20/11)",
     _mc.mcnemar_5x2bcv, _bcv_tables, _k_mcnemar_bcv,
     {"rho1": 0.5, "rho2": 0.5, "clamp_correction": False, "t": None, "alternative": "two-sided",
      "exact": False},
     True),
]


def _loss_differences(adapter):
    """``adapter`` on the per-fold mean loss differences of loss sums (F, 4)."""
    def inputs(S, ntr, nte):
        return adapter((S[..., 1] - S[..., 2]) / S[..., 0], ntr, nte)
    return inputs


#: the per-fold mean loss differences whose squares float64 holds with full
#: precision (squares below ~1e-300 are subnormal, above ~1e300 overflow)
LOSS_RANGE = (1e-150, 1e150)


def _loss_range_message(what: str) -> str:
    return (f"loss: the loss differences are {what}, outside what float64 squares with full "
            f"precision ({LOSS_RANGE[0]:g} to {LOSS_RANGE[1]:g}); multiply or divide the losses "
            f"by a constant: every test gives the same statistic and p-value in any unit")


def _cvci_loss_moments(S, ntr, nte):
    """(n, R, sigma_out^2, degenerate, sqrt(E[d^2])) of the per-record loss
    differences, pooled over the folds, from their sums and sums of squares
    (S: (..., F, 4))."""
    n = S[..., 0].sum(-1)
    R = (S[..., 1] - S[..., 2]).sum(-1) / n
    mean_square = S[..., 3].sum(-1) / n
    var = np.maximum(mean_square - R ** 2, 0.0)
    if np.ndim(n) == 0:
        n, R, var, mean_square = float(n), float(R), float(var), float(mean_square)
    return n, R, var, zero_moment_variance(var, mean_square), np.sqrt(mean_square)


_k_cvci_moments = _passing(_z.cvci_z_kernel, _z.z_kernel_interval)


def _loss_route(key, inputs):
    """(loss_inputs, on_losses) of a test: tests on differences read the mean
    loss differences; the CV-CI z the pooled moments; the rest need 0/1."""
    if key == "cvci_z":
        return _cvci_loss_moments, _z.cvci_on_moments
    on_d = getattr(inputs, "on_differences", None)
    return (None if on_d is None else _loss_differences(on_d)), None


#: Where the validity battery (docs/validity) found a test liberal under
#: real-valued losses (TestSpec.liberal_on_losses; the evidence:
#: docs/validity/warnings.csv and results.csv.gz, checked by tests/test_loss_warnings.py).
_LIBERAL_ON_LOSSES = {
    "rho_t": "every loss family",
    "combined_t_5x2cv": "every loss family",
    "pseudo_bootstrap": "the learner-free loss families",
    "blocked_t_3x2bcv": "most loss families",
    "t_5x2cv": "a heavy-tailed squared loss",
    "combined_f_5x2cv": "a heavy-tailed squared loss",
    "calibrated_f_5x2bcv": "a heavy-tailed squared loss",
}
#: The losses the battery scores (docs/validity: its loss families) and, for
#: the tests liberal under some of them only, which (no warning under the others)
SCORED_LOSSES = ("squared", "absolute", "cost_matrix", "log")
_LIBERAL_ONLY_UNDER = {k: ("squared",) for k in ("t_5x2cv", "combined_f_5x2cv", "calibrated_f_5x2bcv")}


def zero_one_message(keys, loss) -> str:
    """Why tests that read 0/1 outcomes cannot run on ``loss``."""
    return (f"test(s) {', '.join(keys)} need 0/1 outcomes (right/wrong): the McNemar family "
            f"counts disagreements and the proportion z uses a binomial variance, so they "
            f"cannot run on {loss}; compare classifiers under loss='zero_one', or use the t, F "
            f"and z tests on differences, which take any per-record loss (docs/guide/losses.md)")


def spec_of_row(r) -> TestSpec:
    """A row of ``_ROWS`` as its :class:`TestSpec`: all a new test needs is its
    kernel and its row (tests/test_new_test_reach.py adds one and follows it
    to Python, the CLI, the engine, the report and the R wrappers)."""
    return TestSpec(key=r[0], name=r[1], label=r[2], family=r[3], design=r[4], source=r[5],
                    function=r[6], inputs=r[7], kernel=r[8], defaults=dict(r[9]), in_table5=r[10],
                    on_tables={"cvci_z": _z.cvci_z_from_counts}.get(r[0]),
                    loss_inputs=_loss_route(r[0], r[7])[0], on_losses=_loss_route(r[0], r[7])[1],
                    loss_kernel={"cvci_z": _k_cvci_moments}.get(r[0]),
                    liberal_on_losses=_LIBERAL_ON_LOSSES.get(r[0], ""),
                    liberal_losses=_LIBERAL_ONLY_UNDER.get(r[0], ()))


TESTS: Dict[str, TestSpec] = {r[0]: spec_of_row(r) for r in _ROWS}
TEST_NAMES.update({k: spec.name for k, spec in TESTS.items()})

# The paper's Table 5 order (the 14 tests of its experiments).
TABLE5_TESTS = ("rho_t", "kfold_t", "t_5x2cv", "corrected_rho_t", "corrected_10x10cv_t",
                "combined_t_5x2cv", "blocked_t_3x2bcv", "combined_f_5x2cv", "calibrated_f_5x2bcv",
                "proportion_z", "cvci_z", "mcnemar_ho", "mcnemar_kfold_naive", "mcnemar_5x2bcv")

# Named option profiles (conventions.md, "The paper profile").  "default": the tests as defined.  "paper": the two choices the paper's
# own numbers imply: a one-sided CV-CI z ("less") and empty folds dropped in
# the naive McNemar.
PROFILES: Dict[str, Dict[str, Dict]] = {
    "default": {},
    "paper": {"cvci_z": {"alternative": "less"},
              "mcnemar_kfold_naive": {"empty_fold": "drop"}},
}


def get_test(key: str) -> TestSpec:
    if not isinstance(key, str):
        raise TypeError(f"test key must be a string, got {key!r}")
    try:
        return TESTS[key]
    except KeyError:
        raise ValueError(f"unknown test key {key!r}; known: {', '.join(TESTS)}") from None


def resolve_tests(keys="all"):
    """Test keys of a selection: ``"all"`` (every test), ``"table5"`` (the
    paper's 14), a design key (the tests of that design: ``"bcv5x2"`` gives
    the 5x2 BCV McNemar and calibrated F tests) or keys (a list or a comma
    string); ValueError naming the known keys otherwise.

    >>> resolve_tests("bcv5x2")
    ['calibrated_f_5x2bcv', 'mcnemar_5x2bcv']
    """
    if keys is None:
        return list(TESTS)
    if isinstance(keys, str) and selection(keys) is not None:
        return selection(keys)       # "pseudo_bootstrap" alone: its design, both tests
    if isinstance(keys, str):
        keys = [k.strip() for k in keys.split(",") if k.strip()]
    # in a list a key comes first (the test pseudo_bootstrap), else a selection
    out = list(dict.fromkeys(key for k in keys
                             for key in ([k] if k in TESTS else selection(k) or [get_test(k).key])))
    if not out:
        raise ValueError("no test selected")
    return out


def selection(name: str) -> Optional[List[str]]:
    """The test keys a selection name stands for ("all", "table5", a design
    key), else None (a test key, or unknown)."""
    if name == "all":
        return list(TESTS)
    if name == "table5":
        return list(TABLE5_TESTS)
    return [k for k, t in TESTS.items() if t.design == name] or None


def profile_options(profile: str = "default") -> Dict[str, Dict]:
    try:
        return {k: dict(v) for k, v in PROFILES[profile].items()}
    except (KeyError, TypeError):
        withdrawn = (" (the 'calibrated' profile was withdrawn: its type-I error exceeds alpha; "
                     "docs/conventions.md)" if profile == "calibrated" else "")
        raise ArgumentError("profile", f"unknown profile {profile!r}; known: {list(PROFILES)}"
                            f"{withdrawn}") from None


def designs_for(keys) -> list:
    """The union of partition designs the given tests need, in first-use order."""
    return list(dict.fromkeys(TESTS[k].design for k in resolve_tests(keys)))
