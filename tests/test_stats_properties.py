"""Properties over many random inputs, bad input, and independent checks
(scipy, R's mcnemar.test through rpy2)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as hs
from scipy import stats as st

from conftest import requires_r
from pybcv import stats as S
from pybcv.partitions import DESIGNS, bcv_mx2, conservative_z, holdout, kfold
from pybcv.stats import TESTS

pytestmark = pytest.mark.usefixtures("withdrawn_admitted")   # every option value, the withdrawn too


counts = hs.integers(0, 60)


@settings(max_examples=200, deadline=None)
@given(b=counts, c=counts, n00=counts, n11=counts, n00b=counts, n11b=counts)
def test_mcnemar_ignores_concordant(b, c, n00, n11, n00b, n11b):
    if b + c + n00 + n11 == 0 or b + c + n00b + n11b == 0:
        return
    r1 = S.mcnemar_ho([[n00, b], [c, n11]])
    r2 = S.mcnemar_ho([[n00b, b], [c, n11b]])
    assert r1.statistic == r2.statistic and r1.pvalue == r2.pvalue


@settings(max_examples=200, deadline=None)
@given(b=hs.lists(counts, min_size=10, max_size=10), c=hs.lists(counts, min_size=10, max_size=10),
       rho1=hs.floats(-0.5, 0.9), u=hs.floats(0, 1))
def test_effective_table_form_equals_closed_form(b, c, rho1, u):
    rho2 = u * (1 + rho1) / 2          # the valid range: rho2 <= (1 + rho1) / 2
    T = np.zeros((10, 2, 2))
    T[:, 0, 1], T[:, 1, 0] = b, c
    T[:, 1, 1] = 200
    r = S.mcnemar_5x2bcv(T, rho1=rho1, rho2=rho2)
    eff = np.array(r.effective_table)
    ne01, ne10 = eff[0, 1], eff[1, 0]
    if ne01 + ne10 == 0:
        assert r.statistic == 0
        return
    ho = (abs(ne01 - ne10) - 1) ** 2 / (ne01 + ne10)
    assert r.statistic == pytest.approx(ho, rel=1e-10, abs=1e-12)
    n = 2 * T.sum(axis=(1, 2)).mean()       # a fold validates n/2 records
    assert r.n_e == pytest.approx(5 * n / (1 + rho1 + 8 * rho2), rel=1e-12)


def _swap(C):
    C = np.asarray(C)
    return C.swapaxes(-1, -2)


@settings(max_examples=100, deadline=None)
@given(seed=hs.integers(0, 10 ** 6))
def test_swapping_A_and_B_flips_sign_keeps_p(seed):
    rng = np.random.default_rng(seed)
    for key, spec in TESTS.items():
        d = DESIGNS[spec.design]
        n = 60
        n_train, n_test = d.sizes(n)
        la = rng.random(n) < rng.uniform(0.05, 0.5)
        lb = rng.random(n) < rng.uniform(0.05, 0.5)
        from pybcv.outcomes import tables_from_losses
        T = tables_from_losses(la, lb, d.splits(n, seed))
        r1 = spec.from_tables(T, n_train, n_test)
        r2 = spec.from_tables(_swap(T), n_train, n_test)
        assert r2.pvalue == pytest.approx(r1.pvalue, rel=1e-9, abs=1e-14), key
        if spec.family in ("t", "z"):
            assert r2.statistic == pytest.approx(-r1.statistic, rel=1e-9, abs=1e-12), key
        else:
            assert r2.statistic == pytest.approx(r1.statistic, rel=1e-9, abs=1e-12), key
        if r1.estimate is not None:
            assert r2.estimate == pytest.approx(-r1.estimate, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(d=hs.lists(hs.floats(-1, 1, allow_nan=False), min_size=2, max_size=30))
def test_paired_t_matches_scipy(d):
    d = np.round(np.asarray(d), 3)
    r = S.rho_t(d)
    if np.ptp(d) <= 1e-12:
        assert r.pvalue in (0.0, 1.0) and r.warnings
        return
    ref = st.ttest_1samp(d, 0.0)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-300)


def test_zero_variance_rule():
    r = S.rho_t([0.0] * 15)
    assert (r.statistic, r.pvalue) == (0.0, 1.0) and r.warnings
    r = S.rho_t([0.02] * 15)
    assert r.statistic == np.inf and r.pvalue == 0.0 and r.rejects()
    r = S.combined_f_5x2cv([[0.1, 0.1]] * 5)
    assert r.statistic == np.inf and r.pvalue == 0.0
    r = S.cvci_z(np.zeros(50))
    assert (r.statistic, r.pvalue) == (0.0, 1.0)
    assert S.proportion_z(0, 0, 30).pvalue == 1.0


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("call,match", [
    (lambda: S.mcnemar_ho([[1, 2, 3], [4, 5, 6]]), "table"),
    (lambda: S.mcnemar_ho([[1, -2], [3, 4]]), "non-negative"),
    (lambda: S.mcnemar_ho([[1, 2.5], [3, 4]]), "whole-number"),
    (lambda: S.mcnemar_ho([[1, np.nan], [3, 4]]), "finite"),
    (lambda: S.mcnemar_ho([[0, 0], [0, 0]]), "empty"),
    (lambda: S.mcnemar_5x2bcv(np.ones((5, 2, 2))), "shape"),
    (lambda: S.mcnemar_5x2bcv(np.ones((16, 2, 2, 2))), "m <= 15"),
    (lambda: S.mcnemar_5x2bcv(np.ones((10, 4)), rho1=-1, rho2=0), "rho"),
    (lambda: S.mcnemar_5x2bcv(np.full((10, 4), np.inf)), "finite"),
    (lambda: S.mcnemar_kfold_naive(np.ones((10, 2, 2)), empty_fold="x"), "empty_fold"),
    (lambda: S.rho_t([0.1]), "at least 2"),
    (lambda: S.rho_t([0.1, 1.5]), r"\[-1, 1\]"),
    (lambda: S.rho_t([0.1, np.nan]), "finite"),
    (lambda: S.rho_t([[0.1, 0.2]]), "shape"),
    (lambda: S.t_5x2cv(np.zeros((5, 3))), r"\(5, 2\)"),
    (lambda: S.calibrated_f_5x2bcv(np.zeros((4, 2))), r"\(5, 2\)"),
    (lambda: S.corrected_rho_t([0.1, 0.2], 0, 3), "n_train"),
    (lambda: S.proportion_z(1.2, 0.1, 10), "err_a"),
    (lambda: S.proportion_z(0.2, 0.1, 0), "n_test"),
    (lambda: S.cvci_z([1, 0, 2]), r"\[-1, 1\]"),
    (lambda: S.cvci_z([1, 0], alternative="both"), "alternative"),
    (lambda: S.conservative_z(0.1, np.zeros((3, 3))), "half_means"),
    (lambda: S.corrected_pseudo_bootstrap(0.1, [0.1, 0.2], 9, 1, 0), "J"),
    (lambda: bcv_mx2(7, 0, m=5), "too few records"),
    (lambda: bcv_mx2(100, 0, m=16), "m must be"),
    (lambda: kfold(5, 0, 10), "too few records"),
    (lambda: holdout(100, 0, train_size=1.5), "train_size"),
    (lambda: conservative_z(300, 0, train_size=0.3), "n2"),
    (lambda: S.get_test("nope"), "unknown test key"),
    (lambda: S.resolve_tests("mcnemar_ho,bogus"), "unknown test key"),
    (lambda: TESTS["mcnemar_ho"].from_tables(np.ones((1, 2, 2)), foo=1), "no option"),
    (lambda: TESTS["mcnemar_5x2bcv"].from_tables(np.ones((9, 2, 2))), "shape"),
])
def test_bad_input_raises_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ---------------------------------------------------------------- R's mcnemar.test
@requires_r()
@pytest.mark.parametrize("table", [[[10, 14], [5, 71]], [[3, 20], [8, 1]], [[0, 1], [9, 2]],
                                   [[50, 3], [17, 12]], [[1, 40], [25, 7]]])
def test_mcnemar_matches_R(r_session, table):
    ro = r_session
    m = ro.r.matrix(ro.IntVector(np.array(table).T.ravel().tolist()), nrow=2)
    ref = ro.r["mcnemar.test"](m, correct=True)
    r = S.mcnemar_ho(table)
    assert r.statistic == pytest.approx(ref.rx2("statistic")[0], rel=1e-12)
    assert r.pvalue == pytest.approx(ref.rx2("p.value")[0], rel=1e-12)
    ref0 = ro.r["mcnemar.test"](m, correct=False)
    assert S.mcnemar_ho(table, correction=False).statistic == pytest.approx(ref0.rx2("statistic")[0], rel=1e-12)


@requires_r()
def test_paired_t_matches_R_t_test(r_session):
    ro = r_session
    d = np.random.default_rng(3).integers(-5, 8, 15) / 100
    ref = ro.r["t.test"](ro.FloatVector(d.tolist()), mu=0)
    r = S.rho_t(d)
    assert r.statistic == pytest.approx(ref.rx2("statistic")[0], rel=1e-12)
    assert r.pvalue == pytest.approx(ref.rx2("p.value")[0], rel=1e-10)
