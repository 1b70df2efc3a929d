"""Worked examples (hand-worked reference values, to a relative 1e-9), and the registry."""
import numpy as np
import pytest
from scipy import stats as st

from pybcv import stats as S
from pybcv.outcomes import differences, tables_from_losses
from pybcv.partitions import bcv_mx2, kfold
from pybcv.stats import TESTS
from pybcv.stats._common import admit_withdrawn

REL = 1e-9


def close(a, b, rel=REL):
    return a == pytest.approx(b, rel=rel, abs=1e-300)


def tables_of(b, c, n=40):
    b = np.asarray(b)
    c = np.asarray(c)
    T = np.zeros((len(b), 2, 2))
    T[:, 0, 1] = b
    T[:, 1, 0] = c
    T[:, 1, 1] = n - b - c
    return T


# ---------------------------------------------------------------- McNemar family
def test_E1_ho_mcnemar():
    r = S.mcnemar_ho([[10, 14], [5, 71]])
    assert close(r.statistic, 3.368421053) and close(r.pvalue, 0.06645742002)
    assert r.df == 1 and not r.rejects()
    r = S.mcnemar_ho((0, 20, 8, 0))
    assert close(r.statistic, 4.321428571) and close(r.pvalue, 0.03763531379) and r.rejects()


def test_E1c_no_discordant():
    r = S.mcnemar_ho([[5, 0], [0, 95]])
    assert r.statistic == 0 and r.pvalue == 1 and r.warnings


def test_E2_naive_kfold():
    b = [3, 2, 4, 1, 3, 0, 2, 5, 1, 3]
    c = [1, 2, 1, 0, 2, 0, 1, 2, 3, 1]
    r = S.mcnemar_kfold_naive(tables_of(b, c))
    terms = [0.25, 0.25, 0.8, 0, 0, 0, 0, 0.5714285714, 0.25, 0.25]
    assert np.allclose(r.terms, terms, rtol=1e-9, atol=1e-10)
    assert close(r.statistic, 2.371428571) and r.df == 10 and close(r.pvalue, 0.9926198093)
    assert r.n_empty_folds == 1
    d = S.mcnemar_kfold_naive(tables_of(b, c), empty_fold="drop")
    assert d.df == 9 and close(d.statistic, 2.371428571)
    assert close(d.pvalue, st.chi2.sf(2.371428571428571, 9))


def test_E3_bcv_mcnemar():
    b = [12, 10, 14, 9, 11, 13, 10, 12, 15, 11]
    c = [7, 8, 6, 9, 5, 8, 7, 6, 9, 6]
    r = S.mcnemar_5x2bcv(tables_of(b, c, 150).reshape(5, 2, 2, 2))
    assert close(r.statistic, 1.586315280) and close(r.pvalue, 0.2078533684)
    avg = np.array(r.averaged_table)
    eff = np.array(r.effective_table)
    assert close(avg[0, 1], 11.7) and close(avg[1, 0], 7.1)
    assert close(r.t, 20 / 11)
    assert close(eff[0, 1], 21.27272727) and close(eff[1, 0], 12.90909091)
    # (2m, 4) row form in fold order gives the same
    rows = tables_of(b, c, 150).reshape(10, 4)
    assert S.mcnemar_5x2bcv(rows).statistic == r.statistic


@pytest.mark.parametrize("b,c,M,p,clampM", [
    ([20] * 10, [8] * 10, 8.513149351, 0.003525893155, None),
    ([1] + [0] * 9, [0] * 9 + [1], 2.75, 0.09725442844, 0.0),
    ([1] + [0] * 9, [0] * 10, 3.681818182, 0.05500883363, 0.0),
])
def test_E3bcd(b, c, M, p, clampM):
    T = tables_of(b, c, 150)
    r = S.mcnemar_5x2bcv(T)
    assert close(r.statistic, M) and close(r.pvalue, p)
    if clampM is not None:
        rc = S.mcnemar_5x2bcv(T, clamp_correction=True)
        assert rc.statistic == 0 and rc.pvalue == 1
        assert r.warnings  # over-correction is flagged


def test_E3e_all_empty():
    r = S.mcnemar_5x2bcv(tables_of([0] * 10, [0] * 10, 150))
    assert r.statistic == 0 and r.pvalue == 1 and r.warnings


def test_bcv_general_m_t():
    assert close(S.bcv_t(5, .5, .5), 20 / 11) and close(S.bcv_t(3, .5, .5), 12 / 7)
    r = S.mcnemar_5x2bcv(tables_of([3, 4, 5, 2, 6, 1], [1, 0, 2, 1, 0, 2], 20).reshape(3, 2, 2, 2))
    t = 12 / 7
    nb, nc = 21 / 6, 6 / 6
    assert close(r.statistic, t * (abs(nb - nc) - 1 / t) ** 2 / (nb + nc))


# ---------------------------------------------------------------- t family
D15 = [0.02, -0.01, 0.03, 0.00, 0.04, 0.01, 0.02, -0.02, 0.03, 0.01, 0.05, 0.00, 0.02, 0.01, 0.03]
P = [[.04, .02], [.01, .03], [.05, .00], [.02, .04], [.03, .01]]


def test_E4_rho_t():
    r = S.rho_t(D15)
    assert close(r.statistic, 3.292219567) and r.df == 14 and close(r.pvalue, 0.005344383542)
    assert close(r.estimate, 0.016)
    ref = st.ttest_1samp(D15, 0.0)
    assert close(r.statistic, ref.statistic, 1e-12) and close(r.pvalue, ref.pvalue, 1e-12)


def test_E7_corrected_rho():
    r = S.corrected_rho_t(D15, 270, 30)
    assert close(r.statistic, 2.016064515) and close(r.pvalue, 0.06340141328)


def test_E5_kfold_t():
    d = np.array([1, 0, 2, -1, 1, 1, 3, 0, 1, 2]) / 30
    r = S.rho_t(d)
    assert close(r.statistic, 2.738612788) and r.df == 9 and close(r.pvalue, 0.02289949455)


def test_E6_E8_E9():
    r = S.t_5x2cv(P)
    assert close(r.statistic, 1.975459193) and r.df == 5 and close(r.pvalue, 0.1051870336)
    assert close(r.standard_error, np.sqrt(np.mean([2e-4, 2e-4, 1.25e-3, 2e-4, 2e-4])))
    r = S.combined_t_5x2cv(P)
    assert close(r.statistic, 3.904344047) and close(r.pvalue, 0.01135947551)
    r = S.blocked_t_3x2bcv(P[:3])
    assert close(r.statistic, 1.463850109) and r.df == 5 and close(r.pvalue, 0.2031106637)


def test_E12_corrected_10x10():
    x = np.array([[(((7 * r + 3 * k) % 11) - 4) / 30 for k in range(10)] for r in range(10)])
    r = S.corrected_10x10cv_t(x, 9, 1)
    assert close(r.statistic, 0.8654308747) and r.df == 99 and close(r.pvalue, 0.3888946955)
    u = S.rho_t(x.ravel())
    assert close(u.statistic, 3.011787865) and close(u.pvalue, 0.003296451754)


MU = [.021, .018, .025, .016, .022, .019, .024, .017, .020, .023, .018, .021, .026, .015, .020]


def test_E13_E14_pseudo_bootstrap():
    r = S.pseudo_bootstrap(0.02, MU)
    assert close(r.statistic, 6.123724357) and r.df == 14 and close(r.pvalue, 2.633895621e-5)
    r = S.corrected_pseudo_bootstrap(0.02, MU, 9, 1, 15)
    assert close(r.factor, 2.666666667) and close(r.statistic, 3.75)
    assert close(r.pvalue, 0.002153387338)


# ---------------------------------------------------------------- F family
def test_E10_E11():
    r = S.combined_f_5x2cv(P)
    assert close(r.statistic, 2.073170732) and r.df == (10, 5) and close(r.pvalue, 0.2178439659)
    r = S.calibrated_f_5x2bcv(P)
    assert close(r.statistic, 2.073170732) and r.df == (7, 5) and close(r.pvalue, 0.2197064552)


# ---------------------------------------------------------------- z family
def test_E15_proportion():
    r = S.proportion_z(0.15, 0.09, 100)
    assert close(r.statistic, 1.305582420) and close(r.pvalue, 0.1916946021) and r.df is None


def test_E16_conservative_z():
    H = [(.03, .01), (.02, .025), (.015, .035), (.04, 0), (.025, .02), (.01, .03), (.035, .015),
         (.02, .02), (.03, .005), (0, .03)]
    r = S.conservative_z(0.02, H)
    assert close(r.statistic, 1.294369603) and close(r.pvalue, 0.1955377849)


def test_E17_cvci():
    h = np.r_[np.ones(30), -np.ones(15), np.zeros(255)]
    r = S.cvci_z(h)
    assert close(r.estimate, 0.05) and close(r.sigma2_out, 0.1475)
    assert close(r.statistic, 2.254938084) and close(r.pvalue, 0.02413721542)
    # closed form (N01 - N10) / sqrt(N01 + N10 - (N01 - N10)^2 / n)
    assert close(r.statistic, 15 / np.sqrt(45 - 225 / 300))
    with admit_withdrawn():     # withdrawn as options; the paper profile's simulations use "less"
        less = S.cvci_z(h, alternative="less")
        greater = S.cvci_z(h, alternative="greater")
    assert close(greater.pvalue, r.pvalue / 2) and close(less.pvalue, 1 - r.pvalue / 2)


# ---------------------------------------------------------------- E-2E
def e2e_losses():
    i = np.arange(40)
    la = ((i % 5 == 0) | (i % 7 == 3)).astype(int)
    lb = (i % 6 == 1).astype(int)
    return la, lb


def test_E2E_pipeline():
    la, lb = e2e_losses()
    assert la.mean() == 0.325 and lb.mean() == 0.175
    sp = bcv_mx2(40, m=5, shuffle=False)
    T = tables_from_losses(la, lb, sp)
    assert [(int(t[0, 1]), int(t[1, 0])) for t in T] == [
        (5, 1), (6, 4), (5, 3), (6, 2), (6, 3), (5, 2), (3, 2), (8, 3), (6, 2), (5, 3)]
    d = differences(T).reshape(5, 2)
    assert np.allclose(d, [[.20, .10], [.10, .20], [.15, .15], [.05, .25], [.20, .10]], atol=1e-15)
    r = TESTS["mcnemar_5x2bcv"].from_tables(T)
    assert close(np.mean(T[:, 0, 1]), 5.5) and close(np.mean(T[:, 1, 0]), 2.5)
    assert close(r.statistic, 1.364204545) and close(r.pvalue, 0.2428101242)
    r = TESTS["calibrated_f_5x2bcv"].from_tables(T)
    assert close(r.statistic, 3.714285714) and close(r.pvalue, 0.08382710906)
    T3 = tables_from_losses(la, lb, bcv_mx2(40, m=3, shuffle=False))
    assert np.allclose(differences(T3), [.20, .10, .15, .15, .15, .15], atol=1e-15)
    r = TESTS["blocked_t_3x2bcv"].from_tables(T3)
    assert close(r.statistic, 5.196152423) and close(r.pvalue, 0.003478165115)
    K = tables_from_losses(la, lb, kfold(40, k=10, shuffle=False))
    assert [(int(t[0, 1]), int(t[1, 0])) for t in K] == [
        (2, 1), (1, 1), (1, 0), (1, 1), (1, 1), (1, 0), (1, 0), (1, 0), (1, 0), (1, 1)]
    r = TESTS["mcnemar_kfold_naive"].from_tables(K)
    assert close(r.statistic, 2.0) and close(r.pvalue, 0.9963401532)
    r = TESTS["kfold_t"].from_tables(K)
    assert close(r.statistic, 3.674234614) and close(r.pvalue, 0.005121072764)
    r = TESTS["cvci_z"].from_tables(K)
    assert close(r.estimate, 0.15) and close(r.sigma2_out, 0.3775)
    assert close(r.statistic, 1.544055038) and close(r.pvalue, 0.1225749999)


# ---------------------------------------------------------------- critical values
def test_critical_values_of_spec():
    assert close(st.t.ppf(0.975, 14), 2.144786688) and close(st.t.ppf(0.975, 5), 2.570581836)
    assert close(st.f.ppf(0.95, 7, 5), 4.875871696) and close(st.f.ppf(0.95, 10, 5), 4.73506307)
    assert close(st.chi2.ppf(0.95, 1), 3.841458821) and close(st.chi2.ppf(0.95, 10), 18.30703805)


# ---------------------------------------------------------------- registry
def test_registry_rows_have_their_metadata():
    assert [k for k, t in TESTS.items() if t.in_table5] == sorted(S.TABLE5_TESTS, key=list(TESTS).index)
    from pybcv.partitions import DESIGNS
    for k, spec in TESTS.items():
        assert spec.design in DESIGNS and spec.family in ("t", "F", "z", "McNemar")
        assert spec.name and spec.source and callable(spec.function)
        assert spec.function.__doc__ and len(spec.function.__doc__) > 100


def test_union_of_designs_fit_count():
    from pybcv.partitions import DESIGNS
    ds = S.designs_for("table5")
    assert sum(DESIGNS[d].n_splits(300) for d in ds) == 167
    assert sum(DESIGNS[TESTS[k].design].n_splits(300) for k in S.TABLE5_TESTS) == 218


@pytest.mark.parametrize("key", list(TESTS))
def test_batch_equals_single(key):
    """The vectorised kernels give exactly the public functions' numbers, under
    every option value (profiles, alternative, correction, exact, t, ...)."""
    from pybcv.partitions import DESIGNS
    design = DESIGNS[TESTS[key].design]
    n = 120
    n_train, n_test = design.sizes(n)
    rng = np.random.default_rng(7)
    R = 6
    F = len(n_test)
    la = rng.random((R, n)) < 0.3
    lb = rng.random((R, n)) < 0.25
    sp = design.splits(n, 3)
    T = np.stack([tables_from_losses(la[r], lb[r], sp) for r in range(R)])
    from pybcv.validity import variants          # every option value the battery scores
    for opts in [o for _, o in variants(key)]:
        with admit_withdrawn():                 # the battery scores withdrawn values too
            stat, p = TESTS[key].batch(T, n_train, n_test, **opts)
        for r in range(R):
            with admit_withdrawn():             # the battery scores withdrawn values too
                res = TESTS[key].from_tables(T[r], n_train, n_test, **opts)
            assert stat[r] == pytest.approx(res.statistic, rel=1e-12, abs=1e-12)
            assert p[r] == pytest.approx(res.pvalue, rel=1e-12, abs=1e-15)
    assert T.shape[1] == F


def test_profiles():
    assert S.profile_options("paper") == {"cvci_z": {"alternative": "less"},
                                          "mcnemar_kfold_naive": {"empty_fold": "drop"}}
    with pytest.raises(ValueError, match="unknown profile"):
        S.profile_options("nope")


def test_result_repr_and_rejects():
    r = S.mcnemar_ho([[10, 14], [5, 71]])
    s = repr(r)
    assert "statistic=3.368421053" in s and "pvalue=0.06645742002" in s
    assert r.rejects(0.1) and not r.rejects(0.05)
    stat, p = r
    assert stat == r.statistic and p == r.pvalue
    assert "Conventional HO McNemar" in r.summary()


# ---------------------------------------------------------------- names
def test_functions_are_named_as_registry_keys_without_aliases():
    for key, spec in TESTS.items():
        assert getattr(S, key) is spec.function and spec.function.__name__ == key
        assert spec.label and spec.n_folds == DESIGNS_N_FOLDS[spec.design]
    for old in ("mcnemar", "naive_kfold_mcnemar", "bcv_mcnemar", "bcv5x2_mcnemar", "paired_t",
                "corrected_resampled_t", "corrected_repeated_cv_t", "pseudo_bootstrap_t",
                "corrected_pseudo_bootstrap_t", "FUNCTIONS"):
        assert not hasattr(S, old), old
    assert S.rho_t(D15).statistic == S.kfold_t(D15).statistic


DESIGNS_N_FOLDS = {"holdout": 1, "rho15_2of3": 15, "rho15_9of10": 15, "cv10": 10, "cv10x10": 100,
                   "rcv5x2": 10, "bcv3x2": 6, "bcv5x2": 10, "pseudo_bootstrap": 240,
                   "conservative_z": 315}


def test_bcv_result_attributes():
    b = [12, 10, 14, 9, 11, 13, 10, 12, 15, 11]
    c = [7, 8, 6, 9, 5, 8, 7, 6, 9, 6]
    r = S.mcnemar_5x2bcv(tables_of(b, c, 150))
    assert isinstance(r, S.BCVMcNemarResult)
    np.testing.assert_allclose(r.effective_table, r.t * r.averaged_table, rtol=0)
    assert r.t == pytest.approx(20 / 11) and r.n_e == r.effective_table.sum()
    assert r.m == 5 and r.rho1 == r.rho2 == 0.5 and not r.clamp_correction
    d = r.to_dict()
    assert {"statistic", "pvalue", "df", "estimate", "test", "method", "ci_low", "ci_high"} <= set(d)


@pytest.mark.parametrize("key", list(TESTS))
def test_each_result_carries_each_fact_once(key):
    """A result is frozen, has no ``details`` copy of its fields, takes its
    name from the registry, and ``to_dict`` gives every field (what R reads)."""
    import dataclasses
    spec = TESTS[key]
    n = 300
    from pybcv.partitions import DESIGNS
    rng = np.random.default_rng(3)
    design = DESIGNS[spec.design]
    T = tables_from_losses(rng.random(n) < 0.3, rng.random(n) < 0.25, design.splits(n, 3))
    ntr, nte = design.sizes(n)
    r = spec.from_tables(T, ntr, nte)
    assert r.test == key and r.method == spec.name
    assert not hasattr(r, "details")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.pvalue = 0.0
    d = r.to_dict()
    assert "details" not in d and d["method"] == spec.name
    for f in dataclasses.fields(r):
        if f.name not in ("interval_function", "interval_args"):
            assert f.name in d, f.name
    if key == "mcnemar_5x2bcv":
        np.testing.assert_allclose(d["effective_table"], r.t * np.asarray(d["averaged_table"]))


@pytest.mark.parametrize("alternative", ["less", "greater"])
def test_one_sided_bcv_mcnemar(alternative):
    """The one-sided 5x2 BCV McNemar test (an option of the registry, pending
    the validity battery): signed z on the effective table; where the
    difference points towards H1 its p is half the two-sided p; batch equals
    from_tables; the interval is one-sided and excludes 0 exactly when p < alpha."""
    b = [12, 10, 14, 9, 11, 13, 10, 12, 15, 11]
    c = [7, 8, 6, 9, 5, 8, 7, 6, 9, 6]
    T = tables_of(b, c, 150)
    two = S.mcnemar_5x2bcv(T)
    one = S.mcnemar_5x2bcv(T, alternative=alternative)
    assert one.alternative == alternative and one.null_distribution == "N(0, 1)"
    if alternative == "greater":                        # n01_bar > n10_bar: towards H1
        assert one.statistic ** 2 == pytest.approx(two.statistic, rel=1e-12)
        assert one.pvalue == pytest.approx(two.pvalue / 2, rel=1e-12)
        lo, hi = one.confidence_interval(0.95)
        assert hi == np.inf and (lo > 0) == (one.pvalue < 0.05)
    else:                                               # the correction points towards H0
        assert one.pvalue > 1 - two.pvalue / 2 > 0.5
        lo, hi = one.confidence_interval(0.95)
        assert lo == -np.inf and hi > 0
    stat, p = TESTS["mcnemar_5x2bcv"].batch(T[None], 150, 150, alternative=alternative)
    assert stat[0] == one.statistic and p[0] == one.pvalue
    lo_b, hi_b = TESTS["mcnemar_5x2bcv"].batch_interval(T[None], 150, 150, alternative=alternative)
    assert (lo_b[0], hi_b[0]) == one.confidence_interval(0.95)
    with pytest.raises(ValueError, match="alternative"):
        S.mcnemar_5x2bcv(T, alternative="bigger")
