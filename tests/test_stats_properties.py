"""Properties over many random inputs, bad input, and independent checks
(scipy, R's mcnemar.test through rpy2)."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as hs
from scipy import stats as st

from conftest import requires_r
from pybcv import stats as S
from pybcv.partitions import (DESIGNS, BlockRegularizedMx2CV, bcv_mx2, bcv_n_blocks, conservative_z,
                              holdout, kfold, random_mx2, repeated_holdout)
from pybcv.stats import TESTS

counts = hs.integers(0, 60)


# ---------------------------------------------------------------- partitions
@settings(max_examples=150, deadline=None)
@given(m=hs.integers(1, 15), extra=hs.integers(0, 40), seed=hs.integers(0, 2 ** 32 - 1))
def test_bcv_overlap_is_quarter(m, extra, seed):
    """Any two training sets of an m x 2 BCV share n/4 records: within 1 for
    m <= 7 (B <= 8); for B = 16 within 2.25 (the bound 1 cannot be met for
    every n there, see partitions.extra_record_order)."""
    B = bcv_n_blocks(m)
    n = B + extra
    sp = bcv_mx2(n, seed, m=m)
    assert len(sp) == 2 * m
    tol = 1.0 if B <= 8 else 2.25
    trains = [set(tr) for tr, _ in sp[::2]]
    for a, b in itertools.combinations(trains, 2):
        assert abs(len(a & b) - n / 4) <= tol
    for j in range(m):
        S_, T_ = sp[2 * j]
        assert np.array_equal(sp[2 * j + 1][0], T_) and np.array_equal(sp[2 * j + 1][1], S_)
        assert len(np.intersect1d(S_, T_)) == 0 and len(S_) + len(T_) == n
        assert abs(len(S_) - len(T_)) <= (3 if m == 7 else 2 if B <= 8 else B // 2)


def test_bcv_exact_quarter_when_divisible():
    for m in range(1, 16):
        B = bcv_n_blocks(m)
        n = 4 * B
        trains = [set(tr) for tr, _ in bcv_mx2(n, 1, m=m)[::2]]
        for a, b in itertools.combinations(trains, 2):
            assert len(a & b) == n // 4


def test_partition_checks_of_spec():
    S_ = [set(tr.tolist()) for tr, _ in bcv_mx2(16, m=5, shuffle=False)[::2]]
    assert S_ == [set(range(8)), {0, 1, 4, 5, 8, 9, 12, 13}, {0, 1, 2, 3, 8, 9, 10, 11},
                  {0, 1, 6, 7, 8, 9, 14, 15}, {0, 1, 4, 5, 10, 11, 14, 15}]
    from pybcv.partitions import bcv_block_sizes
    assert bcv_block_sizes(300, 8).tolist() == [38, 38, 37, 37, 37, 37, 38, 38]
    assert bcv_block_sizes(300, 8, "first").tolist() == [38, 38, 38, 38, 37, 37, 37, 37]
    assert bcv_block_sizes(301, 8).tolist() == [38, 38, 38, 37, 37, 37, 38, 38]
    sp = bcv_mx2(300, 5, m=5)
    assert all(len(tr) == 150 for tr, _ in sp)
    ov = {len(set(a[0]) & set(b[0])) for a, b in itertools.combinations(sp[::2], 2)}
    assert ov <= {75, 76}
    assert len(bcv_mx2(300, 5, m=5, extra_rule="first")[0][0]) == 152
    assert {len(tr) for tr, _ in bcv_mx2(301, 5, m=5)} == {150, 151}
    S3 = [tr.tolist() for tr, _ in bcv_mx2(12, m=3, shuffle=False)[::2]]
    assert S3 == [list(range(6)), [0, 1, 2, 6, 7, 8], [0, 1, 2, 9, 10, 11]]


def test_other_schemes_sizes_and_seed():
    assert [len(t) for t in holdout(300, 0)[0]] == [200, 100]
    sp = repeated_holdout(300, 0, 15, 0.9)
    assert len(sp) == 15 and all(len(tr) == 270 for tr, _ in sp)
    f = kfold(23, 0, 10)
    assert [len(te) for _, te in f] == [3, 3, 3, 2, 2, 2, 2, 2, 2, 2]
    assert np.array_equal(np.sort(np.concatenate([te for _, te in f])), np.arange(23))
    r = random_mx2(301, 0)
    assert len(r) == 10 and len(r[0][0]) == 150 and len(r[0][1]) == 151
    cz = conservative_z(300, 0)
    assert len(cz) == 315 and all(len(te) == 30 for _, te in cz)
    assert all(len(tr) == 120 for tr, _ in cz[15:])
    for d in DESIGNS.values():     # one seed fixes every partition
        a, b = d.splits(200, 11), d.splits(200, 11)
        assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(a, b))
    assert DESIGNS["cv10x10"].n_splits(300) == 100


@pytest.mark.parametrize("key", list(DESIGNS))
def test_design_test_sets_equal_split_test_sets(key):
    """Design.test_sets draws the same numbers as Design.splits."""
    d = DESIGNS[key]
    for n in (40, 301):
        a = [np.sort(t) for t in d.test_sets(n, 9)]
        b = [te for _, te in d.splits(n, 9)]
        assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def test_sklearn_splitter():
    sklearn = pytest.importorskip("sklearn")
    from sklearn.datasets import make_classification
    from sklearn.model_selection import cross_validate
    from sklearn.tree import DecisionTreeClassifier
    X, y = make_classification(n_samples=120, random_state=0)
    cv = BlockRegularizedMx2CV(m=5, random_state=0)
    out = cross_validate(DecisionTreeClassifier(random_state=0), X, y, cv=cv)
    assert len(out["test_score"]) == 10 == cv.get_n_splits()
    got = list(cv.split(X, y))
    ref = bcv_mx2(120, 0, m=5)
    assert all(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) for a, b in zip(got, ref))
    assert "m=5" in repr(cv) and sklearn.base.clone(cv).m == 5


# ---------------------------------------------------------------- statistics
@settings(max_examples=200, deadline=None)
@given(b=counts, c=counts, n00=counts, n11=counts, n00b=counts, n11b=counts)
def test_mcnemar_ignores_concordant(b, c, n00, n11, n00b, n11b):
    if b + c + n00 + n11 == 0 or b + c + n00b + n11b == 0:
        return
    r1 = S.mcnemar([[n00, b], [c, n11]])
    r2 = S.mcnemar([[n00b, b], [c, n11b]])
    assert r1.statistic == r2.statistic and r1.pvalue == r2.pvalue


@settings(max_examples=200, deadline=None)
@given(b=hs.lists(counts, min_size=10, max_size=10), c=hs.lists(counts, min_size=10, max_size=10),
       rho1=hs.floats(-0.5, 0.9), u=hs.floats(0, 1))
def test_effective_table_form_equals_closed_form(b, c, rho1, u):
    rho2 = u * (1 + rho1) / 2          # the valid range: rho2 <= (1 + rho1) / 2
    T = np.zeros((10, 2, 2))
    T[:, 0, 1], T[:, 1, 0] = b, c
    T[:, 1, 1] = 200
    r = S.bcv_mcnemar(T, rho1=rho1, rho2=rho2)
    eff = np.array(r.details["effective_table"])
    ne01, ne10 = eff[0, 1], eff[1, 0]
    if ne01 + ne10 == 0:
        assert r.statistic == 0
        return
    ho = (abs(ne01 - ne10) - 1) ** 2 / (ne01 + ne10)
    assert r.statistic == pytest.approx(ho, rel=1e-10, abs=1e-12)
    n = 2 * T.sum(axis=(1, 2)).mean()       # a fold validates n/2 records
    assert r.details["n_e"] == pytest.approx(5 * n / (1 + rho1 + 8 * rho2), rel=1e-12)


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
    r = S.paired_t(d)
    if np.ptp(d) <= 1e-12:
        assert r.pvalue in (0.0, 1.0) and r.warnings
        return
    ref = st.ttest_1samp(d, 0.0)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-300)


def test_zero_variance_rule():
    r = S.paired_t([0.0] * 15)
    assert (r.statistic, r.pvalue) == (0.0, 1.0) and r.warnings
    r = S.paired_t([0.02] * 15)
    assert r.statistic == np.inf and r.pvalue == 0.0 and r.rejects()
    r = S.combined_f_5x2cv([[0.1, 0.1]] * 5)
    assert r.statistic == np.inf and r.pvalue == 0.0
    r = S.cvci_z(np.zeros(50))
    assert (r.statistic, r.pvalue) == (0.0, 1.0)
    assert S.proportion_z(0, 0, 30).pvalue == 1.0


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("call,match", [
    (lambda: S.mcnemar([[1, 2, 3], [4, 5, 6]]), "table"),
    (lambda: S.mcnemar([[1, -2], [3, 4]]), "non-negative"),
    (lambda: S.mcnemar([[1, 2.5], [3, 4]]), "whole-number"),
    (lambda: S.mcnemar([[1, np.nan], [3, 4]]), "finite"),
    (lambda: S.mcnemar([[0, 0], [0, 0]]), "empty"),
    (lambda: S.bcv_mcnemar(np.ones((5, 2, 2))), "shape"),
    (lambda: S.bcv_mcnemar(np.ones((16, 2, 2, 2))), "m <= 15"),
    (lambda: S.bcv_mcnemar(np.ones((10, 4)), rho1=-1, rho2=0), "rho"),
    (lambda: S.bcv_mcnemar(np.full((10, 4), np.inf)), "finite"),
    (lambda: S.naive_kfold_mcnemar(np.ones((10, 2, 2)), empty_fold="x"), "empty_fold"),
    (lambda: S.paired_t([0.1]), "at least 2"),
    (lambda: S.paired_t([0.1, 1.5]), r"\[-1, 1\]"),
    (lambda: S.paired_t([0.1, np.nan]), "finite"),
    (lambda: S.paired_t([[0.1, 0.2]]), "shape"),
    (lambda: S.t_5x2cv(np.zeros((5, 3))), r"\(5, 2\)"),
    (lambda: S.calibrated_f_5x2bcv(np.zeros((4, 2))), r"\(5, 2\)"),
    (lambda: S.corrected_resampled_t([0.1, 0.2], 0, 3), "n_train"),
    (lambda: S.proportion_z(1.2, 0.1, 10), "err_a"),
    (lambda: S.proportion_z(0.2, 0.1, 0), "n_test"),
    (lambda: S.cvci_z([1, 0, 2]), r"\[-1, 1\]"),
    (lambda: S.cvci_z([1, 0], alternative="both"), "alternative"),
    (lambda: S.conservative_z(0.1, np.zeros((3, 3))), "half_means"),
    (lambda: S.corrected_pseudo_bootstrap_t(0.1, [0.1, 0.2], 9, 1, 0), "J"),
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
    r = S.mcnemar(table)
    assert r.statistic == pytest.approx(ref.rx2("statistic")[0], rel=1e-12)
    assert r.pvalue == pytest.approx(ref.rx2("p.value")[0], rel=1e-12)
    ref0 = ro.r["mcnemar.test"](m, correct=False)
    assert S.mcnemar(table, correction=False).statistic == pytest.approx(ref0.rx2("statistic")[0], rel=1e-12)


@requires_r()
def test_paired_t_matches_R_t_test(r_session):
    ro = r_session
    d = np.random.default_rng(3).integers(-5, 8, 15) / 100
    ref = ro.r["t.test"](ro.FloatVector(d.tolist()), mu=0)
    r = S.paired_t(d)
    assert r.statistic == pytest.approx(ref.rx2("statistic")[0], rel=1e-12)
    assert r.pvalue == pytest.approx(ref.rx2("p.value")[0], rel=1e-10)
