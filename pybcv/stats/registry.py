"""The registry ``TESTS``: for each of the 17 tests its function, the
partition design it needs, its family, the paper's name and its source.

This is the one place where these facts live: the engine, the CLI, the
report and the R package read them from here.

Every test can be run from the fold tables of its design:
``TESTS[key].from_tables(tables, n_train, n_test, **options)`` returns a
``TestResult``; ``TESTS[key].batch(tables, n_train, n_test, **options)``
does the same arithmetic for many repetitions at once (tables of shape
(R, F, 2, 2)) and returns arrays (statistic, pvalue).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, Tuple

import numpy as np

from ..outcomes import differences, loss_differences_from_tables
from . import f_tests as _f, mcnemar_tests as _mc, t_tests as _t, z_tests as _z
from ._common import check_tables


def _tables(tables, F):
    C = check_tables(tables, "tables", f"({F}, 2, 2)")
    if C.ndim != 3 or (F is not None and C.shape[0] != F):
        raise ValueError(f"tables must have shape ({F}, 2, 2) for this design, got {np.shape(tables)}")
    return C


# ---- adapters: fold tables of a design -> the test's inputs --------------------
def _pb_parts(d, J):
    return d[..., :J].mean(-1), d[..., J:].reshape(d.shape[:-1] + (-1, J)).mean(-1)


def _cz_parts(d, J):
    H = d[..., J:].reshape(d.shape[:-1] + (-1, 2, J)).mean(-1)
    return d[..., :J].mean(-1), H


def _ratio(n_train, n_test):
    return float(np.sum(n_test) / np.sum(n_train))


@dataclass(frozen=True)
class TestSpec:
    key: str
    name: str                   # the paper's name
    family: str                 # "t", "F", "z", "McNemar"
    design: str                 # key in pybcv.partitions.DESIGNS
    function: Callable = field(repr=False)
    source: str = ""
    in_table5: bool = True
    options: Tuple[str, ...] = ()
    _single: Callable = field(default=None, repr=False)
    _batch: Callable = field(default=None, repr=False)
    n_folds: int = None

    def from_tables(self, tables, n_train=None, n_test=None, **options):
        """Run the test on the fold tables of its design (shape (F, 2, 2))."""
        bad = set(options) - set(self.options)
        if bad:
            raise ValueError(f"test {self.key!r} takes no option(s) {sorted(bad)}; "
                             f"its options: {list(self.options)}")
        C = _tables(tables, self.n_folds)
        if n_train is None:
            n_train = np.full(C.shape[0], np.nan)
        res = self._single(C, np.asarray(n_train, float), np.asarray(n_test if n_test is not None
                                                                      else C.sum((1, 2)), float),
                           **options)
        res.test = self.key
        res.method = self.name
        return res

    def batch(self, tables, n_train, n_test, **options):
        """Vectorised: tables (R, F, 2, 2) -> (statistic[R], pvalue[R])."""
        bad = set(options) - set(self.options)
        if bad:
            raise ValueError(f"test {self.key!r} takes no option(s) {sorted(bad)}")
        C = np.asarray(tables, dtype=float)
        stat, p = self._batch(C, np.asarray(n_train, float), np.asarray(n_test, float), **options)[:2]
        return np.asarray(stat, float), np.asarray(p, float)


# ----------------------------------------------------------------------------
J15 = 15


def _paired(key, name, design, source, n_folds):
    """A plain paired t-test over the design's fold differences."""
    return dict(key=key, name=name, family="t", design=design, function=_t.paired_t, source=source,
                options=("alternative",), n_folds=n_folds,
                _single=lambda C, a, b, **o: _t.paired_t(differences(C), **o),
                _batch=lambda C, a, b, alternative="two-sided": _t._paired_t_kernel(
                    differences(C), 0.0, alternative))


def _mx2_t(key, name, design, function, kernel, m, source):
    """A t-test on the (m, 2) differences of an m x 2 design."""
    return dict(key=key, name=name, family="t", design=design, function=function, source=source,
                options=("alternative",), n_folds=2 * m,
                _single=lambda C, a, b, **o: function(differences(C).reshape(m, 2), **o),
                _batch=lambda C, a, b, alternative="two-sided": kernel(
                    differences(C).reshape(C.shape[:-3] + (m, 2)), alternative))


def _mk():
    S = []

    def add(**kw):
        S.append(TestSpec(**kw))

    # t-test family
    add(**_paired("rho_t", "RHO paired t-test", "rho15_2of3",
                   "Dietterich (1998), resampled paired t; J = 15, n1 = 2n/3", 15))
    add(**_paired("kfold_t", "K-fold CV paired t-test", "cv10", "Dietterich (1998); K = 10", 10))
    add(**_mx2_t("t_5x2cv", "5x2 CV paired t-test", "rcv5x2", _t.t_5x2cv, _t._t5x2_kernel, 5,
                  "Dietterich (1998)"))
    add(key="corrected_rho_t", name="Corrected RHO t-test", family="t", design="rho15_9of10",
        function=_t.corrected_resampled_t, source="Nadeau & Bengio (2003); J = 15, n1 = 9n/10",
        options=("alternative",), n_folds=15,
        _single=lambda C, a, b, **o: _t.corrected_resampled_t(differences(C), a, b, **o),
        _batch=lambda C, a, b, alternative="two-sided": _t._paired_t_kernel(
            differences(C), _ratio(a, b), alternative))
    add(key="pseudo_bootstrap", name="Pseudo bootstrap test", family="t", design="pseudo_bootstrap",
        function=_t.pseudo_bootstrap_t, source="Nadeau & Bengio (2003) [UNVERIFIED reconstruction]",
        in_table5=False, options=("alternative",),
        _single=lambda C, a, b, **o: _t.pseudo_bootstrap_t(*_pb_parts(differences(C), J15), **o),
        _batch=lambda C, a, b, alternative="two-sided": _t._pb_kernel(
            *_pb_parts(differences(C), J15), 1.0, alternative))
    add(key="corrected_pseudo_bootstrap", name="Corrected pseudo bootstrap test", family="t",
        design="pseudo_bootstrap", function=_t.corrected_pseudo_bootstrap_t,
        source="Nadeau & Bengio (2003) [UNVERIFIED reconstruction]", in_table5=False,
        options=("alternative",),
        _single=lambda C, a, b, **o: _t.corrected_pseudo_bootstrap_t(
            *_pb_parts(differences(C), J15), a[0], b[0], J15, **o),
        _batch=lambda C, a, b, alternative="two-sided": _t._pb_kernel(
            *_pb_parts(differences(C), J15), 1.0 + J15 * b[0] / a[0], alternative))
    add(key="corrected_10x10cv_t", name="Corrected 10x10 CV t-test", family="t", design="cv10x10",
        function=_t.corrected_repeated_cv_t, source="Bouckaert & Frank (2004)",
        options=("alternative",), n_folds=100,
        _single=lambda C, a, b, **o: _t.corrected_repeated_cv_t(
            differences(C).reshape(10, 10), a.reshape(10, 10), b.reshape(10, 10), **o),
        _batch=lambda C, a, b, alternative="two-sided": _t._paired_t_kernel(
            differences(C), _ratio(a, b), alternative))
    add(**_mx2_t("combined_t_5x2cv", "Combined 5x2 CV t-test", "rcv5x2", _t.combined_t_5x2cv,
                  _t._combined_t_kernel, 5, "Yildiz (2013)"))
    add(**_mx2_t("blocked_t_3x2bcv", "Blocked 3x2 CV t-test", "bcv3x2", _t.blocked_t_3x2bcv,
                  _t._blocked_t_kernel, 3, "Wang, Wang, Jia & Li (2014)"))
    # F-test family
    add(key="combined_f_5x2cv", name="Combined 5x2 CV F-test", family="F", design="rcv5x2",
        function=_f.combined_f_5x2cv, source="Alpaydin (1999)", n_folds=10,
        _single=lambda C, a, b: _f.combined_f_5x2cv(differences(C).reshape(5, 2)),
        _batch=lambda C, a, b: _f._f_kernel(differences(C).reshape(C.shape[:-3] + (5, 2)), 10, 5))
    add(key="calibrated_f_5x2bcv", name="Calibrated 5x2 BCV F-test", family="F", design="bcv5x2",
        function=_f.calibrated_f_5x2bcv,
        source="Wang, Li & Li (2017) [statistic's scaling UNVERIFIED]", n_folds=10,
        _single=lambda C, a, b: _f.calibrated_f_5x2bcv(differences(C).reshape(5, 2)),
        _batch=lambda C, a, b: _f._f_kernel(differences(C).reshape(C.shape[:-3] + (5, 2)), 7, 5))
    # z-test family
    add(key="proportion_z", name="Proportional test", family="z", design="holdout",
        function=_z.proportion_z, source="Dietterich (1998), pooled; n1 = 2n/3",
        options=("alternative",), n_folds=1,
        _single=lambda C, a, b, **o: _z.proportion_z(
            (C[0, 0, 0] + C[0, 0, 1]) / C[0].sum(), (C[0, 0, 0] + C[0, 1, 0]) / C[0].sum(), int(C[0].sum()), **o),
        _batch=lambda C, a, b, alternative="two-sided": _z._proportion_kernel(
            (C[..., 0, 0, 0] + C[..., 0, 0, 1]) / C[..., 0, :, :].sum((-1, -2)),
            (C[..., 0, 0, 0] + C[..., 0, 1, 0]) / C[..., 0, :, :].sum((-1, -2)),
            C[..., 0, :, :].sum((-1, -2)), alternative))
    add(key="conservative_z", name="Conservative Z-test", family="z", design="conservative_z",
        function=_z.conservative_z, source="Nadeau & Bengio (2003); J = 15, M = 10",
        in_table5=False, options=("alternative",),
        _single=lambda C, a, b, **o: _z.conservative_z(*_cz_parts(differences(C), J15), **o),
        _batch=lambda C, a, b, alternative="two-sided": _z._cz_kernel(
            *_cz_parts(differences(C), J15), alternative))
    add(key="cvci_z", name="K-fold CV-CI Z-test", family="z", design="cv10",
        function=_z.cvci_z, source="Bayle, Bayle, Janson & Mackey (2020); K = 10, 'out' variance",
        options=("alternative",), n_folds=10,
        _single=lambda C, a, b, **o: _z.cvci_z(loss_differences_from_tables(C), **o),
        _batch=lambda C, a, b, alternative="two-sided": _z._cvci_from_counts(
            C[..., 0, 1].sum(-1), C[..., 1, 0].sum(-1), C.sum((-1, -2, -3)), alternative))
    # McNemar family
    add(key="mcnemar_ho", name="Conventional HO McNemar's test", family="McNemar", design="holdout",
        function=_mc.mcnemar, source="McNemar (1947); Edwards (1948); Dietterich (1998); n1 = 2n/3",
        options=("correction",), n_folds=1,
        _single=lambda C, a, b, **o: _mc.mcnemar(C[0], **o),
        _batch=lambda C, a, b, correction=True: _mc._ho_kernel(C[..., 0, 0, 1], C[..., 0, 1, 0], correction))
    add(key="mcnemar_kfold_naive", name="Naive K-fold CV McNemar's test", family="McNemar",
        design="cv10", function=_mc.naive_kfold_mcnemar, source="[YWSL] §3; K = 10",
        options=("empty_fold", "correction"), n_folds=10,
        _single=lambda C, a, b, **o: _mc.naive_kfold_mcnemar(C, **o),
        _batch=lambda C, a, b, empty_fold="zero", correction=True: _mc._naive_kernel(
            C[..., 0, 1], C[..., 1, 0], empty_fold, correction))
    add(key="mcnemar_5x2bcv", name="5x2 BCV McNemar's test", family="McNemar", design="bcv5x2",
        function=_mc.bcv_mcnemar, source="[YWSL] §4, rho1 = rho2 = 1/2 (t = 20/11)",
        options=("rho1", "rho2", "clamp_correction"), n_folds=10,
        _single=lambda C, a, b, **o: _mc.bcv_mcnemar(C.reshape(5, 2, 2, 2), **o),
        _batch=lambda C, a, b, rho1=0.5, rho2=0.5, clamp_correction=False: _mc._bcv_kernel(
            C[..., 0, 1].mean(-1), C[..., 1, 0].mean(-1), _mc.bcv_t(5, rho1, rho2), clamp_correction))
    return {s.key: s for s in S}


TESTS: Dict[str, TestSpec] = _mk()

# The paper's Table 5 order (the 14 tests of its experiments).
TABLE5_TESTS = ("rho_t", "kfold_t", "t_5x2cv", "corrected_rho_t", "corrected_10x10cv_t",
                "combined_t_5x2cv", "blocked_t_3x2bcv", "combined_f_5x2cv", "calibrated_f_5x2bcv",
                "proportion_z", "cvci_z", "mcnemar_ho", "mcnemar_kfold_naive", "mcnemar_5x2bcv")

# Named option profiles.  "default": the tests as defined (TESTS_SPEC).
# "paper": the two choices the paper's own numbers imply (TESTS_SPEC §9):
# a one-sided CV-CI z ("less") and empty folds dropped in the naive McNemar.
PROFILES: Dict[str, Dict[str, Dict]] = {
    "default": {},
    "paper": {"cvci_z": {"alternative": "less"},
              "mcnemar_kfold_naive": {"empty_fold": "drop"}},
}


def get_test(key: str) -> TestSpec:
    try:
        return TESTS[key]
    except KeyError:
        raise ValueError(f"unknown test key {key!r}; known: {', '.join(TESTS)}") from None


def resolve_tests(keys="all"):
    """'all' -> the 17 keys; 'table5' -> the paper's 14; else a list/comma string of keys."""
    if keys in (None, "all"):
        return list(TESTS)
    if keys == "table5":
        return list(TABLE5_TESTS)
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
    except KeyError:
        raise ValueError(f"unknown profile {profile!r}; known: {list(PROFILES)}") from None


def designs_for(keys) -> list:
    """The union of partition designs the given tests need, in first-use order."""
    out = []
    for k in resolve_tests(keys):
        d = TESTS[k].design
        if d not in out:
            out.append(d)
    return out
