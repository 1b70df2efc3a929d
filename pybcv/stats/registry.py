"""The registry ``TESTS``: the 17 tests as data.

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
before any arithmetic (conventions.md, "Inputs").
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Dict, Tuple

import numpy as np

from ..outcomes import differences, fold_sizes
from ..partitions import DESIGNS
from . import f_tests as _f, mcnemar_tests as _mc, t_tests as _t, z_tests as _z
from ._common import (DEFAULT_LEVEL, TestResult, check_alternative, check_choice, check_flag,
                      check_probability, check_real, check_sizes, check_tables, no_interval)


# --------------------------------------------------------------------------
# from-tables kernels: fold tables C (..., F, 2, 2), sizes, options ->
# (the family kernel's output, the interval function of that output)
# --------------------------------------------------------------------------
# hold-outs per block of the Nadeau-Bengio designs (conventions.md, "Fold order")
def _design_param(design, name):
    """A design parameter (J = "n_repeats") of the splitter in ``DESIGNS``."""
    return getattr(DESIGNS[design], name)


def _paired(C, ntr, nte, alternative="two-sided"):
    return _t.paired_t_kernel(differences(C), 0.0, alternative), _t.t_kernel_interval


def _total_ratio(ntr, nte):
    return float(np.sum(nte) / np.sum(ntr))


def _corrected(C, ntr, nte, alternative="two-sided"):
    return _t.paired_t_kernel(differences(C), _total_ratio(ntr, nte), alternative), _t.t_kernel_interval


def _mx2(C):
    d = differences(C)
    return d.reshape(d.shape[:-1] + (d.shape[-1] // 2, 2))


def _t5x2(C, ntr, nte, alternative="two-sided"):
    return _t.t_5x2cv_kernel(_mx2(C), alternative), _t.t_kernel_interval


def _combined_t(C, ntr, nte, alternative="two-sided"):
    return _t.combined_t_5x2cv_kernel(_mx2(C), alternative), _t.t_kernel_interval


def _blocked_t(C, ntr, nte, alternative="two-sided"):
    return _t.blocked_t_3x2bcv_kernel(_mx2(C), alternative), _t.t_kernel_interval


def _pb_parts(C, design="pseudo_bootstrap"):
    """(mu_hat, replicate means): the first J differences' mean and the
    means of the following R blocks of J (conventions.md, "Fold order")."""
    J = _design_param(design, "n_repeats")
    d = differences(C)
    return d[..., :J].mean(-1), d[..., J:].reshape(d.shape[:-1] + (-1, J)).mean(-1), J


def _pseudo_bootstrap(C, ntr, nte, alternative="two-sided"):
    mu, reps, _ = _pb_parts(C)
    return _t.pseudo_bootstrap_kernel(mu, reps, 1.0, alternative), _t.t_kernel_interval


def _corrected_pseudo_bootstrap(C, ntr, nte, alternative="two-sided"):
    mu, reps, J = _pb_parts(C)
    factor = _t.pseudo_bootstrap_factor(J, nte[0], ntr[0])
    return _t.pseudo_bootstrap_kernel(mu, reps, factor, alternative), _t.t_kernel_interval


def _f_combined(C, ntr, nte):
    P = _mx2(C)
    m = P.shape[-2]
    return _f.f_kernel(P, 2 * m, m), _f.f_kernel_interval


def _f_calibrated(C, ntr, nte):
    return _f.f_kernel(_mx2(C), 7, 5), _f.f_kernel_interval


def _proportion(C, ntr, nte, alternative="two-sided"):
    N = C[..., 0, :, :].sum((-1, -2))
    pa = (C[..., 0, 0, 0] + C[..., 0, 0, 1]) / N
    pb = (C[..., 0, 0, 0] + C[..., 0, 1, 0]) / N
    return _z.proportion_z_kernel(pa, pb, N, alternative), _z.z_kernel_interval


def _conservative_z(C, ntr, nte, alternative="two-sided"):
    """mu_hat = mean of the first J differences; half-split means: the
    following M blocks of (half 1: J, half 2: J) differences."""
    J = _design_param("conservative_z", "n_repeats")
    d = differences(C)
    H = d[..., J:].reshape(d.shape[:-1] + (-1, 2, J)).mean(-1)
    return _z.conservative_z_kernel(d[..., :J].mean(-1), H, alternative), _z.z_kernel_interval


def _cvci(C, ntr, nte, alternative="two-sided"):
    moments = _z.cvci_moments_from_counts(C[..., 0, 1].sum(-1), C[..., 1, 0].sum(-1),
                                          C.sum((-1, -2, -3)))
    return _z.cvci_z_kernel(*moments, alternative), _z.z_kernel_interval


def _mcnemar_ho(C, ntr, nte, correction=True):
    return (_mc.mcnemar_ho_kernel(C[..., 0, 0, 1], C[..., 0, 1, 0], C[..., 0, :, :].sum((-1, -2)),
                                  correction), _mc.mcnemar_kernel_interval)


def _mcnemar_naive(C, ntr, nte, empty_fold="zero", correction=True):
    M, p, df = _mc.mcnemar_kfold_naive_kernel(C[..., 0, 1], C[..., 1, 0], empty_fold, correction)
    return (M, p, df), _no_interval_of


def _no_interval_of(out, level=DEFAULT_LEVEL, alternative="two-sided"):
    return no_interval(out[0])


def _mcnemar_bcv(C, ntr, nte, rho1=0.5, rho2=0.5, clamp_correction=False, t=None):
    m = C.shape[-3] // 2
    t = _mc.resolve_t(m, rho1, rho2, t)
    return (_mc.mcnemar_5x2bcv_kernel(C[..., 0, 1].mean(-1), C[..., 1, 0].mean(-1),
                                      C.sum((-1, -2)).mean(-1), t, clamp_correction),
            _mc.mcnemar_kernel_interval)


# --------------------------------------------------------------------------
# from_tables: one repetition's tables -> the public function's inputs (the
# public function then calls the same family kernel as ``kernel`` above)
# --------------------------------------------------------------------------
def _single_paired(fn):
    def run(C, ntr, nte, **o):
        return fn(differences(C), **o)
    return run


def _single_corrected(fn, shape=None):
    def run(C, ntr, nte, **o):
        d = differences(C)
        return fn(d if shape is None else d.reshape(shape), ntr, nte, **o)
    return run


def _single_mx2(fn):
    def run(C, ntr, nte, **o):
        return fn(_mx2(C), **o)
    return run


# --------------------------------------------------------------------------
# option checks (before any arithmetic)
# --------------------------------------------------------------------------
_OPTION_CHECKS = {
    "alternative": check_alternative,
    "correction": lambda v: check_flag(v, "correction"),
    "clamp_correction": lambda v: check_flag(v, "clamp_correction"),
    "empty_fold": lambda v: check_choice(v, "empty_fold", ("zero", "drop")),
    "rho1": lambda v: check_real(v, "rho1"),
    "rho2": lambda v: check_real(v, "rho2"),
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
    kernel : the vectorised from-tables kernel: (tables (..., F, 2, 2), n_train[F],
        n_test[F], **options) -> (output of the family kernel, whose first two
        fields are statistic and pvalue; the interval function of that output)
    single : tables -> the public function's result (from_tables);  in_table5 : in the paper's Table 5
    """
    __test__ = False
    key: str
    name: str
    label: str
    family: str
    design: str
    source: str
    function: Callable = field(repr=False)
    kernel: Callable = field(repr=False)
    single: Callable = field(repr=False)
    defaults: Dict = field(default_factory=dict)
    in_table5: bool = True

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

    # ---- checks -----------------------------------------------------------
    def _options(self, options):
        bad = set(options) - set(self.defaults)
        if bad:
            raise ValueError(f"test {self.key!r} takes no option(s) {sorted(bad)}; "
                             f"its options: {list(self.defaults)}")
        for k, v in options.items():
            _OPTION_CHECKS[k](v)
        if "rho1" in options or "rho2" in options:
            _mc.bcv_t(self.n_folds // 2, options.get("rho1", 0.5), options.get("rho2", 0.5))
        return options

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
        for name, v, default in (("n_train", n_train, None), ("n_test", n_test, "tables")):
            if v is None:
                if default is None:
                    out.append(None)
                    continue
                v = fold_sizes(C).reshape(-1, F)[0]
            a = check_sizes(v, name)
            if a.ndim == 0:
                a = np.full(F, float(a))
            if a.shape != (F,):
                raise ValueError(f"{name} must be a number or one size per fold ({F} values) "
                                 f"for design {self.design!r}, got shape {a.shape}")
            out.append(a)
        if out[0] is None:
            if self.needs_n_train:
                raise TypeError(f"n_train is required for test {self.key!r} (training size per fold)")
            out[0] = np.full(F, np.nan)
        return out

    # ---- entry points -------------------------------------------------------
    def from_tables(self, tables, n_train=None, n_test=None, **options) -> TestResult:
        """Run the test on one repetition's fold tables (shape (F, 2, 2))."""
        options = self._options(options)
        C = self._tables(tables, batch=False)
        ntr, nte = self._sizes(C, n_train, n_test)
        res = self.single(C, ntr, nte, **options)
        res.test = self.key
        res.method = self.name
        return res

    def batch(self, tables, n_train, n_test, **options):
        """Vectorised: tables (R, F, 2, 2) -> (statistic[R], pvalue[R])."""
        options = self._options(options)
        C = self._tables(tables, batch=True)
        ntr, nte = self._sizes(C, n_train, n_test)
        out, _ = self.kernel(C, ntr, nte, **options)
        return np.asarray(out[0], float), np.asarray(out[1], float)

    def batch_interval(self, tables, n_train, n_test, level=DEFAULT_LEVEL, **options):
        """Vectorised intervals: tables (R, F, 2, 2) -> (low[R], high[R]) for
        mu_A - mu_B (NaN where the test has none; conventions.md,
        "Confidence intervals")."""
        level = check_probability(level, "level")
        options = self._options(options)
        C = self._tables(tables, batch=True)
        ntr, nte = self._sizes(C, n_train, n_test)
        out, interval = self.kernel(C, ntr, nte, **options)
        lo, hi = interval(out, level=level, alternative=options.get("alternative", "two-sided"))
        return np.asarray(lo, float), np.asarray(hi, float)


@lru_cache(maxsize=None)
def _n_folds(design: str) -> int:
    d = DESIGNS[design]
    return int(d.n_splits(max(d.min_n, 100)))


def _single_pb(corrected):
    def run(C, ntr, nte, **o):
        mu, reps, J = _pb_parts(C)
        if corrected:
            return _t.corrected_pseudo_bootstrap(mu, reps, ntr[0], nte[0], J, **o)
        return _t.pseudo_bootstrap(mu, reps, **o)
    return run


def _single_proportion(C, ntr, nte, **o):
    T = C[0]
    N = T.sum()
    return _z.proportion_z((T[0, 0] + T[0, 1]) / N, (T[0, 0] + T[1, 0]) / N, N, **o)


def _single_conservative_z(C, ntr, nte, **o):
    J = _design_param("conservative_z", "n_repeats")
    d = differences(C)
    return _z.conservative_z(d[:J].mean(), d[J:].reshape(-1, 2, J).mean(-1), **o)


def _single_cvci(C, ntr, nte, alternative="two-sided"):
    return _z.cvci_z_from_counts(C[:, 0, 1].sum(), C[:, 1, 0].sum(), C.sum(), alternative)


def _single_mcnemar_ho(C, ntr, nte, **o):
    return _mc.mcnemar_ho(C[0], **o)


def _single_mcnemar_naive(C, ntr, nte, **o):
    return _mc.mcnemar_kfold_naive(C, **o)


def _single_mx2_bcv(C, ntr, nte, **o):
    return _mc.mcnemar_5x2bcv(C.reshape(-1, 2, 2, 2), **o)


# --------------------------------------------------------------------------
# the 17 tests
# --------------------------------------------------------------------------
_ALT = {"alternative": "two-sided"}

_ROWS = [
    # key, name, label, family, design, source, function, kernel, single, defaults, in_table5
    ("rho_t", "RHO paired t-test", "RHO t", "t", "rho15_2of3",
     "Dietterich (1998), resampled paired t; J = 15, n1 = 2n/3",
     _t.rho_t, _paired, _single_paired(_t.rho_t), _ALT, True),
    ("kfold_t", "K-fold CV paired t-test", "10-fold t", "t", "cv10", "Dietterich (1998); K = 10",
     _t.kfold_t, _paired, _single_paired(_t.kfold_t), _ALT, True),
    ("t_5x2cv", "5x2 CV paired t-test", "5x2 CV t", "t", "rcv5x2", "Dietterich (1998)",
     _t.t_5x2cv, _t5x2, _single_mx2(_t.t_5x2cv), _ALT, True),
    ("corrected_rho_t", "Corrected RHO t-test", "corrected RHO t", "t", "rho15_9of10",
     "Nadeau & Bengio (2003); J = 15, n1 = 9n/10",
     _t.corrected_rho_t, _corrected, _single_corrected(_t.corrected_rho_t), _ALT, True),
    ("pseudo_bootstrap", "Pseudo bootstrap test", "pseudo bootstrap", "t", "pseudo_bootstrap",
     "Nadeau & Bengio (2003) [UNVERIFIED reconstruction]",
     _t.pseudo_bootstrap, _pseudo_bootstrap, _single_pb(False), _ALT, False),
    ("corrected_pseudo_bootstrap", "Corrected pseudo bootstrap test", "corrected pseudo bootstrap",
     "t", "pseudo_bootstrap", "Nadeau & Bengio (2003) [UNVERIFIED reconstruction]",
     _t.corrected_pseudo_bootstrap, _corrected_pseudo_bootstrap, _single_pb(True), _ALT, False),
    ("corrected_10x10cv_t", "Corrected 10x10 CV t-test", "corrected 10x10 CV t", "t", "cv10x10",
     "Bouckaert & Frank (2004)",
     _t.corrected_10x10cv_t, _corrected, _single_corrected(_t.corrected_10x10cv_t, (10, 10)),
     _ALT, True),
    ("combined_t_5x2cv", "Combined 5x2 CV t-test", "combined 5x2 CV t", "t", "rcv5x2", "Yildiz (2013)",
     _t.combined_t_5x2cv, _combined_t, _single_mx2(_t.combined_t_5x2cv), _ALT, True),
    ("blocked_t_3x2bcv", "Blocked 3x2 CV t-test", "blocked 3x2 BCV t", "t", "bcv3x2",
     "Wang, Wang, Jia & Li (2014)",
     _t.blocked_t_3x2bcv, _blocked_t, _single_mx2(_t.blocked_t_3x2bcv), _ALT, True),
    ("combined_f_5x2cv", "Combined 5x2 CV F-test", "combined 5x2 CV F", "F", "rcv5x2", "Alpaydin (1999)",
     _f.combined_f_5x2cv, _f_combined, _single_mx2(_f.combined_f_5x2cv), {}, True),
    ("calibrated_f_5x2bcv", "Calibrated 5x2 BCV F-test", "calibrated 5x2 BCV F", "F", "bcv5x2",
     "Wang, Li & Li (2017) [statistic's scaling UNVERIFIED]",
     _f.calibrated_f_5x2bcv, _f_calibrated, _single_mx2(_f.calibrated_f_5x2bcv), {}, True),
    ("proportion_z", "Proportional test", "proportion z", "z", "holdout",
     "Dietterich (1998), pooled; n1 = 2n/3",
     _z.proportion_z, _proportion, _single_proportion, _ALT, True),
    ("conservative_z", "Conservative Z-test", "conservative z", "z", "conservative_z",
     "Nadeau & Bengio (2003); J = 15, M = 10",
     _z.conservative_z, _conservative_z, _single_conservative_z, _ALT, False),
    ("cvci_z", "K-fold CV-CI Z-test", "10-fold CV-CI z", "z", "cv10",
     "Bayle, Bayle, Janson & Mackey (2020); K = 10, 'out' variance",
     _z.cvci_z, _cvci, _single_cvci, _ALT, True),
    ("mcnemar_ho", "Conventional HO McNemar's test", "HO McNemar", "McNemar", "holdout",
     "McNemar (1947); Edwards (1948); Dietterich (1998); n1 = 2n/3",
     _mc.mcnemar_ho, _mcnemar_ho, _single_mcnemar_ho,
     {"correction": True}, True),
    ("mcnemar_kfold_naive", "Naive K-fold CV McNemar's test", "naive 10-fold McNemar", "McNemar",
     "cv10", "Yang, Wang, Song & Li, section 'Naive K-fold CV McNemar's test'; K = 10",
     _mc.mcnemar_kfold_naive, _mcnemar_naive, _single_mcnemar_naive,
     {"empty_fold": "zero", "correction": True}, True),
    ("mcnemar_5x2bcv", "5x2 BCV McNemar's test", "5x2 BCV McNemar", "McNemar", "bcv5x2",
     "Yang, Wang, Song & Li, section '5x2 BCV McNemar's test'; rho1 = rho2 = 1/2 (t = 20/11)",
     _mc.mcnemar_5x2bcv, _mcnemar_bcv, _single_mx2_bcv,
     {"rho1": 0.5, "rho2": 0.5, "clamp_correction": False, "t": None}, True),
]

TESTS: Dict[str, TestSpec] = {
    r[0]: TestSpec(key=r[0], name=r[1], label=r[2], family=r[3], design=r[4], source=r[5],
                   function=r[6], kernel=r[7], single=r[8], defaults=dict(r[9]), in_table5=r[10])
    for r in _ROWS}

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
    """Test keys of a selection: ``"all"`` (the 17), ``"table5"`` (the
    paper's 14), a design key (the tests of that design: ``"bcv5x2"`` gives
    the 5x2 BCV McNemar and calibrated F tests) or keys (a list or a comma
    string); ValueError naming the known keys otherwise.

    >>> resolve_tests("bcv5x2")
    ['calibrated_f_5x2bcv', 'mcnemar_5x2bcv']
    """
    if keys is None or (isinstance(keys, str) and keys == "all"):
        return list(TESTS)
    if isinstance(keys, str) and keys == "table5":
        return list(TABLE5_TESTS)
    if isinstance(keys, str) and keys in {t.design for t in TESTS.values()}:
        return [k for k, t in TESTS.items() if t.design == keys]
    if isinstance(keys, str):
        keys = [k.strip() for k in keys.split(",") if k.strip()]
    out = []
    for k in keys:
        get_test(k)
        if k not in out:
            out.append(k)
    if not out:
        raise ValueError("no test selected")
    return out


def profile_options(profile: str = "default") -> Dict[str, Dict]:
    try:
        return {k: dict(v) for k, v in PROFILES[profile].items()}
    except (KeyError, TypeError):
        raise ValueError(f"unknown profile {profile!r}; known: {list(PROFILES)}") from None


def designs_for(keys) -> list:
    """The union of partition designs the given tests need, in first-use order."""
    out = []
    for k in resolve_tests(keys):
        d = TESTS[k].design
        if d not in out:
            out.append(d)
    return out
