"""Confidence intervals (docs/conventions.md, "Confidence intervals"): they
contain the estimate, exclude 0 exactly when the test rejects at 1 - level,
equal scipy's for the paired t, agree between the registry's batch_interval
and each result's confidence_interval, and cover at the nominal rate in a
seeded Monte Carlo check."""
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as hs
from scipy import special as sp
from scipy import stats as st

from pybcv import stats as S
from pybcv.outcomes import tables_from_losses
from pybcv.partitions import DESIGNS
from pybcv.stats import TESTS

pytestmark = pytest.mark.usefixtures("withdrawn_admitted")   # every option value, the withdrawn too


levels = hs.floats(0.05, 0.995)
counts = hs.integers(0, 40)


def z2(level):
    return sp.chdtri(1, 1 - level)


def near_boundary(M, level, rel=1e-9):
    return abs(M - z2(level)) <= rel * max(1.0, z2(level))


# ---------------------------------------------------------------- McNemar, hold-out
@settings(max_examples=400, deadline=None)
@given(n00=counts, b=counts, c=counts, n11=counts, level=levels, correction=hs.booleans())
def test_ho_mcnemar_interval_never_contradicts_the_test(n00, b, c, n11, level, correction):
    assume(n00 + b + c + n11 > 0)
    r = S.mcnemar_ho([[n00, b], [c, n11]], correction=correction)
    assume(not near_boundary(r.statistic, level))
    lo, hi = r.confidence_interval(level)
    assert lo <= r.estimate <= hi
    rejects = r.pvalue < 1 - level
    excludes0 = lo > 0 or hi < 0
    if correction and b + c > 0 and abs(b - c) < 1:
        # the over-correction corner (b == c > 0): the hull contains 0; the literal
        # test rejects exactly when 0 lies in the hole est +- (1 - z sqrt(b + c)) / N
        assert not excludes0
        hole = 1 - math.sqrt(z2(level)) * math.sqrt(b + c)
        assert rejects == (abs(b - c) < hole)
    else:
        assert excludes0 == rejects


# ---------------------------------------------------------------- McNemar, 5x2 BCV
bcv_counts = hs.lists(hs.integers(0, 30), min_size=10, max_size=10)


@settings(max_examples=400, deadline=None)
@given(b=bcv_counts, c=bcv_counts, level=levels, clamp=hs.booleans(),
       rho1=hs.sampled_from([0.5, 0.0, 0.3, -0.2]), u=hs.floats(0, 1))
def test_bcv_mcnemar_interval_never_contradicts_the_test(b, c, level, clamp, rho1, u):
    rho2 = u * (1 + rho1) / 2
    T = np.zeros((10, 2, 2))
    T[:, 0, 1], T[:, 1, 0] = b, c
    T[:, 1, 1] = 70
    r = S.mcnemar_5x2bcv(T, rho1=rho1, rho2=rho2, clamp_correction=clamp)
    assume(not near_boundary(r.statistic, level))
    lo, hi = r.confidence_interval(level)
    assert lo <= r.estimate <= hi
    eff = r.effective_table
    be, ce = eff[0, 1], eff[1, 0]
    assert r.estimate == pytest.approx((be - ce) / r.n_e, rel=1e-12, abs=1e-15)
    half = (math.sqrt(z2(level)) * math.sqrt(be + ce) + 1) / r.n_e
    assert (lo, hi) == pytest.approx((r.estimate - half, r.estimate + half), rel=1e-12, abs=1e-15)
    rejects = r.pvalue < 1 - level
    excludes0 = lo > 0 or hi < 0
    corner = be + ce > 0 and abs(be - ce) < 1 and not clamp
    if corner:
        assert not excludes0 and r.warnings
        hole = 1 - math.sqrt(z2(level)) * math.sqrt(be + ce)
        assume(abs(abs(be - ce) - hole) > 1e-9)
        assert rejects == (abs(be - ce) < hole)
    else:
        assert excludes0 == rejects


def test_bcv_interval_worked_example():
    """E3: n01_bar = 11.7, n10_bar = 7.1, N_bar = 150, t = 20/11."""
    b = [12, 10, 14, 9, 11, 13, 10, 12, 15, 11]
    c = [7, 8, 6, 9, 5, 8, 7, 6, 9, 6]
    r = S.mcnemar_5x2bcv([[0, x, y, 150 - x - y] for x, y in zip(b, c)])
    t = 20 / 11
    z = st.norm.ppf(0.975)
    half = (z * math.sqrt(t * (11.7 + 7.1)) + 1) / (t * 150)
    assert r.confidence_interval() == pytest.approx((4.6 / 150 - half, 4.6 / 150 + half), rel=1e-12)
    assert r.n_e == pytest.approx(t * 150) and r.t == pytest.approx(t)


# ---------------------------------------------------------------- t, z, F
diff_lists = hs.lists(hs.integers(-8, 8), min_size=2, max_size=20)


@settings(max_examples=300, deadline=None)
@given(d=diff_lists, level=levels, alternative=hs.sampled_from(["two-sided", "less", "greater"]))
def test_paired_t_interval_is_scipys_exactly(d, level, alternative):
    x = np.asarray(d) / 30
    assume(np.ptp(x) > 0)
    r = S.rho_t(x, alternative=alternative)
    ref = st.ttest_1samp(x, 0.0, alternative=alternative).confidence_interval(level)
    assert r.confidence_interval(level) == (float(ref.low), float(ref.high))


def _t_style_consistent(r, level):
    lo, hi = r.confidence_interval(level)
    if r.alternative == "two-sided":
        q = abs(st.t.ppf((1 - level) / 2, r.df)) if r.df is not None else abs(st.norm.ppf((1 - level) / 2))
    else:
        q = abs(st.t.ppf(1 - level, r.df)) if r.df is not None else abs(st.norm.ppf(1 - level))
    if math.isfinite(r.statistic):
        assume(abs(abs(r.statistic) - q) > 1e-7 * max(1, q))
    rejects = r.pvalue < 1 - level
    excludes0 = lo > 0 or hi < 0
    assert excludes0 == rejects, (r, lo, hi)
    if r.alternative == "two-sided" or level > 0.51:     # a one-sided 40% interval misses its centre
        assert lo <= r.center <= hi


@settings(max_examples=150, deadline=None)
@given(P=hs.lists(hs.integers(-6, 6), min_size=10, max_size=10), level=levels,
       alternative=hs.sampled_from(["two-sided", "less", "greater"]))
def test_t_and_z_intervals_never_contradict_their_tests(P, level, alternative):
    P = np.asarray(P, float).reshape(5, 2) / 40
    assume(np.ptp(P) > 0)
    for r in (S.t_5x2cv(P, alternative), S.combined_t_5x2cv(P, alternative),
              S.blocked_t_3x2bcv(P[:3], alternative),
              S.corrected_rho_t(P.ravel(), 270, 30, alternative),
              S.pseudo_bootstrap(float(P[0, 0]), P[1:].ravel(), alternative),
              S.corrected_pseudo_bootstrap(float(P[0, 0]), P[1:].ravel(), 9, 1, 15, alternative),
              S.conservative_z(float(P.mean()), P, alternative),
              S.cvci_z(np.clip(np.round(P.ravel() * 40) / 6, -1, 1), alternative),
              S.proportion_z(abs(float(P[0, 0])), abs(float(P[0, 1])), 40, alternative)):
        if r.standard_error == 0:
            continue
        _t_style_consistent(r, level)


@settings(max_examples=300, deadline=None)
@given(P=hs.lists(hs.integers(-6, 6), min_size=10, max_size=10), level=levels)
def test_f_confidence_set_never_contradicts_the_test(P, level):
    P = np.asarray(P, float).reshape(5, 2) / 40
    for r in (S.combined_f_5x2cv(P), S.calibrated_f_5x2bcv(P)):
        fq = st.f.ppf(level, *r.df)
        assume(abs(r.statistic - fq) > 1e-9 * fq)
        lo, hi = r.confidence_interval(level)
        rejects = r.pvalue < 1 - level
        if math.isnan(lo):                  # empty set: every common shift is rejected
            assert rejects
        else:
            assert (lo > 0 or hi < 0) == rejects and lo <= r.estimate <= hi


def test_no_interval_for_the_naive_kfold_mcnemar():
    r = S.mcnemar_kfold_naive(np.tile([[5, 3], [1, 31]], (10, 1, 1)))
    assert all(math.isnan(v) for v in r.confidence_interval())
    d = r.to_dict()
    assert math.isnan(d["ci_low"]) and math.isnan(d["ci_high"])


def test_one_sided_intervals_are_one_sided():
    d = np.array([2, -1, 3, 0, 4, 1, 2, -2, 3, 1]) / 100
    lo, hi = S.kfold_t(d, alternative="less").confidence_interval()
    assert lo == -np.inf and math.isfinite(hi)
    lo, hi = S.cvci_z(np.r_[np.ones(30), -np.ones(15), np.zeros(255)], "greater").confidence_interval()
    assert hi == np.inf and math.isfinite(lo)


@pytest.mark.parametrize("level", [0, 1, 1.5, -0.1, float("nan"), True, "0.95", None])
def test_level_is_checked(level):
    r = S.mcnemar_ho([[10, 14], [5, 71]])
    with pytest.raises((ValueError, TypeError), match="level"):
        r.confidence_interval(level)
    with pytest.raises((ValueError, TypeError), match="level"):
        TESTS["mcnemar_ho"].batch_interval(np.ones((2, 1, 2, 2)), 2, 1, level=level)


# ---------------------------------------------------------------- registry = results
@pytest.mark.parametrize("key", list(TESTS))
def test_batch_interval_equals_each_results_interval(key):
    spec = TESTS[key]
    design = DESIGNS[spec.design]
    for n in (120, 121):
        _batch_interval_equals_results(spec, design, n)


def _batch_interval_equals_results(spec, design, n):
    n_train, n_test = design.sizes(n)
    rng = np.random.default_rng(11)
    R = 5
    la = rng.random((R, n)) < 0.3
    lb = rng.random((R, n)) < 0.22
    sp_ = design.splits(n, 4)
    T = np.stack([tables_from_losses(la[r], lb[r], sp_) for r in range(R)])
    for level in (0.9, 0.95):
        lo, hi = spec.batch_interval(T, n_train, n_test, level=level)
        for r in range(R):
            res = spec.from_tables(T[r], n_train, n_test)
            a, b = res.confidence_interval(level)
            np.testing.assert_array_equal([lo[r], hi[r]], [a, b])
            d = res.to_dict(level)
            np.testing.assert_array_equal([d["ci_low"], d["ci_high"]], [a, b])


# ---------------------------------------------------------------- Monte Carlo coverage
def _coverage_bound(level, n_sim):
    """Smallest coverage consistent with the nominal level: 4 binomial
    standard errors below it (a false alarm has probability < 1e-4)."""
    return level - 4 * math.sqrt(level * (1 - level) / n_sim)


def test_paired_t_coverage_monte_carlo():
    """Normal differences with mean 0.03: the 95% t interval covers 0.03 at
    the nominal rate (within 4 binomial standard errors, both sides)."""
    rng = np.random.default_rng(20261123)
    n_sim, level, mu = 4000, 0.95, 0.03
    x = rng.normal(mu, 0.02, size=(n_sim, 15))
    from pybcv.stats.t_tests import paired_t_kernel, t_kernel_interval
    lo, hi = t_kernel_interval(paired_t_kernel(x), level=level)
    cover = np.mean((lo <= mu) & (mu <= hi))
    se = math.sqrt(level * (1 - level) / n_sim)
    assert abs(cover - level) <= 4 * se, cover
    # the registry's batch_interval on tables gives the same intervals as rho_t
    r0 = S.rho_t(x[0])
    assert r0.confidence_interval(level) == (float(lo[0]), float(hi[0]))


def _simulated_bcv_tables(rng, n_sim, q, probs):
    """Fold tables of a 5x2 BCV with learner-free 0-1 losses: n = 8q records in
    8 blocks of q; each record is (A wrong, B wrong) with probabilities
    ``probs`` over (n00, n01, n10, n11); fold (j, k) validates the blocks of
    T_j (k = 1) or S_j (k = 2)."""
    blocks = rng.multinomial(q, probs, size=(n_sim, 8)).astype(float)      # (R, 8, 4)
    # S_j = {D_b : a_j . v_b = 0 mod 2}, a_j = 4, 1, 2, 3, 5, v_b = bits of b - 1
    S_ = np.array([[bin(a & b).count("1") % 2 == 0 for b in range(8)] for a in (4, 1, 2, 3, 5)])
    tables = np.empty((n_sim, 10, 4))
    for j in range(5):
        tables[:, 2 * j] = blocks[:, ~S_[j]].sum(1)       # k = 1 validates T_j
        tables[:, 2 * j + 1] = blocks[:, S_[j]].sum(1)    # k = 2 validates S_j
    return tables.reshape(n_sim, 10, 2, 2)


@pytest.mark.parametrize("probs", [(0.10, 0.08, 0.08, 0.74), (0.10, 0.12, 0.06, 0.72)])
def test_bcv_mcnemar_interval_coverage_monte_carlo(probs):
    """Simulated 5x2 BCV tables with known mu_A - mu_B = p01 - p10: the 95%
    interval of the effective table covers it at least at the nominal rate
    (4 binomial standard errors of slack).  With learner-free losses rho1 = 0
    and rho2 = 1/2 (the paper's lemma), so t = 20/11 is conservative here."""
    rng = np.random.default_rng(7)
    n_sim, level, q = 4000, 0.95, 25
    T = _simulated_bcv_tables(rng, n_sim, q, probs)
    n = 8 * q
    ntr, nte = np.full(10, n // 2), np.full(10, n // 2)
    lo, hi = TESTS["mcnemar_5x2bcv"].batch_interval(T, ntr, nte, level=level)
    delta = probs[1] - probs[2]
    cover = np.mean((lo <= delta) & (delta <= hi))
    assert cover >= _coverage_bound(level, n_sim), cover
    # and it is the test that rejects exactly when the interval excludes 0 (off the corner)
    stat, p = TESTS["mcnemar_5x2bcv"].batch(T, ntr, nte)
    excl = (lo > 0) | (hi < 0)
    Cbar = T.mean(1)
    off_corner = np.abs(Cbar[:, 0, 1] - Cbar[:, 1, 0]) >= 11 / 20
    assert np.array_equal(excl[off_corner], (p < 1 - level)[off_corner])


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("level", [0.5, 0.9, 0.95, 0.999])
def test_sample_t_interval_is_scipys_number_for_number(alternative, level):
    """The paired t's interval is computed without scipy.stats (its import
    is 0.25 s of every start) and must stay scipy's exactly: batches of
    repetitions, real-valued differences, constant rows, 2 to 100 folds.
    Except one case: a one-sided end at zero variance is infinite, where
    scipy's ``inf * 0`` is NaN (conventions.md, "Confidence intervals")."""
    from pybcv.stats._common import sample_t_interval
    rng = np.random.default_rng(int(level * 1000) + len(alternative))
    for J in (2, 3, 10, 15, 100):
        x = rng.normal(0.01, 0.05, size=(40, J))
        x[:3] = rng.integers(-3, 4, size=(3, J)) / 30          # counts / n2, as from tables
        x[3] = 0.0                                               # zero variance
        x[4] = 1 / 3
        with np.errstate(divide="ignore", invalid="ignore"):
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                ref = st.ttest_1samp(x, 0.0, axis=-1, alternative=alternative).confidence_interval(level)
        lo, hi = sample_t_interval(x, level=level, alternative=alternative)
        flat = np.ptp(x, axis=-1) == 0
        assert flat[3] and flat[4]
        ref_low = np.where(flat & (alternative == "less"), -np.inf, ref.low)
        ref_high = np.where(flat & (alternative == "greater"), np.inf, ref.high)
        assert not np.isnan(ref_low).any() and not np.isnan(ref_high).any()
        np.testing.assert_array_equal(lo, ref_low)
        np.testing.assert_array_equal(hi, ref_high)
