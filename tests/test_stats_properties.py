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


def _scaled_comparisons(scale):
    import warnings
    from pybcv.comparison import compare_losses
    rng = np.random.default_rng(0)
    la = rng.gamma(2.0, 1.0, 300)
    lb = la * 1.5 + rng.gamma(1.0, 0.2, 300)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compare_losses(la * scale, lb * scale, tests="all", loss="squared").results


@pytest.mark.parametrize("scale", [1e-6, 1e-11, 1e-12, 1e-13, 1e-20, 1e12])
def test_the_zero_variance_rule_does_not_depend_on_the_unit_of_the_loss(scale):
    """An outside audit: with squared errors near 1e-12 (a target in
    micro-units) the 10-fold t gave -inf, p = 0 and the F tests 0, p = 1,
    where the formulas, free of the unit, give t = -30 and p = 2e-10.  The
    rule is relative to the values' magnitude now: every test on the losses
    gives the same statistic and p-value in any unit, and its interval
    scales with the unit."""
    ref, got = _scaled_comparisons(1.0), _scaled_comparisons(scale)
    assert set(got) == set(ref) and {"kfold_t", "t_5x2cv", "calibrated_f_5x2bcv", "cvci_z"} <= set(ref)
    for key, r in ref.items():
        assert np.isfinite(r.statistic) and r.pvalue < 0.05, key
        assert got[key].statistic == pytest.approx(r.statistic, rel=1e-9), key
        assert got[key].pvalue == pytest.approx(r.pvalue, rel=1e-6, abs=1e-300), key
        lo, hi = r.confidence_interval()
        glo, ghi = got[key].confidence_interval()
        assert (glo, ghi) == (pytest.approx(lo * scale, rel=1e-9), pytest.approx(hi * scale, rel=1e-9)), key


@pytest.mark.parametrize("scale", [1e-160, 1e-200, 1e160, 1e200])
def test_losses_beyond_what_float64_squares_are_refused(scale):
    """An outside audit (R): at 1e-160 the 10-fold t was 36 for 30 (squares
    subnormal), at 1e-200 inf with p = 0 or 0 with p = 1, and at 1e160 an
    overflow warning and "loss sums must be finite"; such losses are now an
    error that says to rescale them."""
    with pytest.raises(ValueError, match=r"outside what float64 squares with full precision "
                                         r"\(1e-150 to 1e\+150\); multiply or divide the losses"):
        _scaled_comparisons(scale)


@pytest.mark.parametrize("c,real", [(0.0, False), (1e-13, False), (0.01, False), (1 / 3, False),
                                    (-0.04, False), (1e-13, True), (2e7, True), (-3e-30, True)])
def test_constant_differences_in_any_unit_follow_the_rule(c, real):
    """Constant differences c: statistic +-inf with c's sign (0 when c is
    zero), p = 0 (1), the interval the point c, for every t, F and z test;
    rounding left the F's sums of squares near 1e-35, not 0, and its
    interval empty.  Zero is judged in the unit of error rates (1: a rate
    difference of 1e-13 is rounding noise, zero) and relative to the values
    for real-valued losses (``real``: any c != 0 is a constant difference)."""
    from contextlib import nullcontext
    from pybcv.stats._common import real_losses
    with real_losses() if real else nullcontext():
        cases = [S.rho_t([c] * 15), S.kfold_t([c] * 10), S.corrected_rho_t([c] * 15, 200, 100),
                 S.t_5x2cv([[c, c]] * 5), S.combined_t_5x2cv([[c, c]] * 5),
                 S.blocked_t_3x2bcv([[c, c]] * 3), S.combined_f_5x2cv([[c, c]] * 5),
                 S.calibrated_f_5x2bcv([[c, c]] * 5), S.conservative_z(c, [(c, c)] * 10)]
    zero = c == 0 or (abs(c) < 1e-12 and not real)
    for r in cases:
        want = 0.0 if zero else np.copysign(np.inf, c)
        if r.test.endswith("_f_5x2cv") or r.test.endswith("_f_5x2bcv"):
            want = abs(want)
        assert r.statistic == want and r.pvalue == (1.0 if zero else 0.0), r.test
        assert r.warnings and "zero-variance rule" in r.warnings[0], r.test
        assert r.confidence_interval() == (pytest.approx(c, rel=1e-12, abs=0),) * 2, r.test


@pytest.mark.parametrize("alternative", ["less", "greater"])
def test_a_one_sided_interval_at_zero_variance_has_an_infinite_end(alternative):
    """rho_t and kfold_t took scipy's interval, NaN at zero variance (inf * 0);
    every t test's one-sided interval has its infinite end there."""
    from pybcv.stats._common import admit_withdrawn
    with admit_withdrawn():
        for r in (S.rho_t([0.02] * 15, alternative=alternative),
                  S.kfold_t([0.02] * 10, alternative=alternative),
                  S.t_5x2cv([[0.02, 0.02]] * 5, alternative=alternative)):
            lo, hi = r.confidence_interval()
            want = (-np.inf, 0.02) if alternative == "less" else (0.02, np.inf)
            assert (lo, hi) == (pytest.approx(want[0], rel=1e-12), pytest.approx(want[1], rel=1e-12)), r.test


def test_rounding_noise_of_cancelling_rates_is_zero_variance():
    """An outside review of the relative rule: pseudo-bootstrap replicates
    and half-split means that cancel exactly in real arithmetic (every block
    of k/10 differences sums to 0) are rounding noise near 1e-17; judged
    relative to themselves the tests rejected (p 1.9e-5 and 1e-6).  Error
    rates are judged in their unit, 1: zero variance, t = 0, p = 1."""
    base = np.array([1, 2, -3, 3, -1, -2, 0, 4, -4, 1, -1, 2, -2, 0, 0]) / 10
    rng = np.random.default_rng(6)
    reps = np.array([rng.permutation(base).mean() for _ in range(16)])
    assert np.abs(reps).max() < 1e-15 and np.ptp(reps) > 0
    r = S.corrected_pseudo_bootstrap(float(reps.mean()), reps, 9, 1, 15)
    assert (r.statistic, r.pvalue) == (0.0, 1.0) and r.warnings
    H = np.array([(rng.permutation(base).mean(), rng.permutation(base).mean()) for _ in range(10)])
    r = S.conservative_z(float(H.mean()), H)
    assert (r.statistic, r.pvalue) == (0.0, 1.0) and r.warnings


@pytest.mark.parametrize("call", [
    lambda x: S.rho_t(x), lambda x: S.kfold_t(x[:10]), lambda x: S.cvci_z(x),
    lambda x: S.corrected_rho_t(x, 200, 100)])
def test_masked_entries_are_refused(call):
    """A masked array mixed masked and unmasked values (J counted the masked
    entry, the mean skipped it, the interval used it); refused now, naming
    the argument.  Without masked entries it is the plain array."""
    x = np.ma.array([.01, .02, .05, .03, .04, .0, .01, .02, .03, .02, .01, .0, .02, .03, .01])
    assert call(x).statistic == call(np.ma.getdata(x)).statistic
    x[4] = np.ma.masked
    with pytest.raises(ValueError, match="masked entries"):
        call(x)


def test_masked_counts_and_numbers_are_refused():
    """Integer tables took a fast path that skipped the mask (numpy: "converting
    a masked element to nan"), and a 0-d masked number passed check_real."""
    with pytest.raises(ValueError, match="table has 1 masked entries"):
        S.mcnemar_ho(np.ma.array([[10, 5], [3, 12]], mask=[[0, 1], [0, 0]]))
    with pytest.raises(ValueError, match="err_a has 1 masked entries"):
        S.proportion_z(np.ma.masked_array(0.2, mask=True), 0.1, 30)
    assert S.mcnemar_ho(np.ma.array([[10, 5], [3, 12]])).pvalue == S.mcnemar_ho([[10, 5], [3, 12]]).pvalue


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


def test_a_selection_may_mix_designs_and_keys():
    """An R user's walk: tests = c("bcv5x2", "nope") blamed 'bcv5x2'; every
    entry of a selection may be a key, a design, all or table5."""
    from pybcv.stats.registry import resolve_tests
    assert resolve_tests(["bcv5x2", "kfold_t"]) == ["calibrated_f_5x2bcv", "mcnemar_5x2bcv", "kfold_t"]
    assert resolve_tests("bcv5x2,kfold_t,bcv5x2") == ["calibrated_f_5x2bcv", "mcnemar_5x2bcv", "kfold_t"]
    assert len(resolve_tests(["table5", "pseudo_bootstrap"])) == 15    # in a list a key comes first
    assert resolve_tests("pseudo_bootstrap") == ["pseudo_bootstrap", "corrected_pseudo_bootstrap"]
    with pytest.raises(ValueError, match="^unknown test key 'nope'"):
        resolve_tests(["bcv5x2", "nope"])
