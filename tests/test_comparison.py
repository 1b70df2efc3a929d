"""One-off comparisons: defaults, own predictions, k learners with Holm and
Shaffer, the result object's views, n_jobs and progress."""
import pathlib
from itertools import combinations

import numpy as np
import pytest

from pybcv import datasets as D
from pybcv.comparison import (Comparison, compare, compare_many, compare_losses,
                              compare_predictions, design_generator, holm, shaffer,
                              shaffer_true_counts)
from pybcv.outcomes import tables_from_predictions
from pybcv.partitions import DESIGNS
from pybcv.stats import TESTS


@pytest.fixture(scope="module")
def exp6():
    return D.exp6(1, n=200)


class _Recorder:
    """Predicts with 1-NN on the first column; records the fits it made."""

    def __init__(self, shift=0.0):
        self.shift, self.fits = shift, 0

    def predict_splits(self, X, y, splits):
        self.fits += len(splits)
        out = []
        for tr, te in splits:
            d = np.abs(X[te, 0][:, None] + self.shift - X[tr, 0][None, :])
            out.append(y[tr][d.argmin(1)])
        return out


# ------------------------------------------------------------------ defaults
def test_default_is_the_5x2_bcv_design_with_10_fits(exp6):
    a, b = _Recorder(), _Recorder(0.3)
    cmp = compare(exp6.X, exp6.y, a, b)
    assert a.fits == b.fits == 10 and cmp.fits == (10, 10)
    assert list(cmp.results) == ["mcnemar_5x2bcv", "calibrated_f_5x2bcv"]
    assert set(cmp.tables) == {"bcv5x2"}
    assert cmp.to_frame()["test"].tolist() == ["mcnemar_5x2bcv", "calibrated_f_5x2bcv"]


def test_error_rates_come_from_the_design_that_ran(exp6):
    cmp = compare(exp6.X, exp6.y, _Recorder(), _Recorder(0.3), tests=["mcnemar_ho"])
    assert cmp.error_design == "holdout" and cmp.averaged_table is None
    T = cmp.tables["holdout"][0]
    assert cmp.error_a == (T[0, 0] + T[0, 1]) / T.sum()
    assert 0 < cmp.error_a < 1 and np.isfinite(cmp.error_b)
    full = compare(exp6.X, exp6.y, _Recorder(), _Recorder(0.3))
    assert full.error_design == "bcv5x2"
    # in a 5x2 BCV every record is validated 5 times: pooled error = mean of the 10 fold errors
    T = full.tables["bcv5x2"]
    assert np.isclose(full.error_a, np.mean((T[:, 0, 0] + T[:, 0, 1]) / T.sum((1, 2))))


def test_result_views_are_short_and_readable(exp6):
    cmp = compare(exp6.X, exp6.y, _Recorder(), _Recorder(0.3), tests="all")
    assert len(repr(cmp)) < 200 and "mcnemar_5x2bcv" in repr(cmp)
    text = str(cmp)
    assert len(text.splitlines()) < 30
    assert "n = 200" in text and "error rates over the 10 folds of bcv5x2" in text
    first = [ln for ln in text.splitlines() if ln.startswith(("*", "  "))][1]
    assert first.startswith("* 5x2 BCV McNemar's test")
    df = cmp.to_frame()
    assert len(df) == len(TESTS) and df["paper"].iloc[0] and df["test"].iloc[0] == "mcnemar_5x2bcv"
    assert {"statistic", "pvalue", "df", "estimate", "ci_low", "ci_high", "reject"} <= set(df.columns)
    assert "<table" in cmp._repr_html_()


def test_n_jobs_and_progress_give_the_same_results(exp6, capsys):
    ref = compare(exp6.X, exp6.y, "fnn-weighted", "majority", tests="table5", backend="python")
    par = compare(exp6.X, exp6.y, "fnn-weighted", "majority", tests="table5", backend="python",
                  n_jobs=2, progress=True)
    assert "fit" in capsys.readouterr().err           # tqdm bar on stderr
    for k in ref.results:
        assert ref.results[k].pvalue == par.results[k].pvalue
    for d in ref.tables:
        np.testing.assert_array_equal(ref.tables[d], par.tables[d])
    with pytest.raises(ValueError, match="n_jobs"):
        compare(exp6.X, exp6.y, "majority", "majority", n_jobs=0)


# ------------------------------------------------------------------ own predictions
def test_own_predictions_equal_compare(exp6):
    """Folds from the comparison's stream, predictions made outside: same tables, same numbers."""
    a, b = _Recorder(), _Recorder(0.3)
    ref = compare(exp6.X, exp6.y, a, b, seed=4)
    splits = DESIGNS["bcv5x2"].splits(200, design_generator(4, "bcv5x2"))
    pa, pb = _Recorder().predict_splits(exp6.X, exp6.y, splits), \
        _Recorder(0.3).predict_splits(exp6.X, exp6.y, splits)
    own = compare_predictions(exp6.y, pa, pb, splits=splits)
    np.testing.assert_array_equal(own.tables["bcv5x2"], ref.tables["bcv5x2"])
    for k in ref.results:
        assert own.results[k].pvalue == ref.results[k].pvalue
    own2 = compare_predictions(exp6.y, pa, pb, test_sets=[te for _, te in splits])
    assert own2.results["mcnemar_5x2bcv"].pvalue == ref.results["mcnemar_5x2bcv"].pvalue


def test_own_predictions_are_checked(exp6):
    splits = DESIGNS["bcv5x2"].splits(200, np.random.default_rng(0))
    te = [t for _, t in splits]
    y = exp6.y
    good = [y[t] for t in te]
    with pytest.raises(ValueError, match=r"pred_a, fold 3: predictions must be class labels"):
        compare_predictions(y, good[:3] + [np.full(len(te[3]), 0.5)] + good[4:], good, test_sets=te)
    with pytest.raises(ValueError, match="10 folds"):
        compare_predictions(y, good[:8], good[:8], test_sets=te[:8])
    rcv = [t for _, t in DESIGNS["rcv5x2"].splits(200, np.random.default_rng(0))]
    bad = te[:2] + rcv[2:]                                  # still complementary halves, sizes right
    with pytest.raises(ValueError, match="repeated 2-fold CV, not a block-regularized 5x2 CV"):
        compare_predictions(y, [y[t] for t in bad], [y[t] for t in bad], test_sets=bad)
    with pytest.raises(ValueError, match="test_sets or as splits"):
        compare_predictions(y, good, good)
    with pytest.raises(ValueError, match="kfold_t runs on design cv10, not on .bcv5x2."):
        compare_predictions(y, good, good, test_sets=te, tests=["kfold_t"])


def test_compare_losses_defaults_to_the_bcv_design():
    d = D.epsilon(4)
    cmp = compare_losses(d.loss_a, d.loss_b)
    assert list(cmp.results) == ["mcnemar_5x2bcv", "calibrated_f_5x2bcv"]
    assert set(compare_losses(d.loss_a, d.loss_b, tests="all").results) == set(TESTS)


# ------------------------------------------------------------------ Holm and Shaffer
def _set_partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _set_partitions(rest):
        for i in range(len(part)):
            yield part[:i] + [[first] + part[i]] + part[i + 1:]
        yield [[first]] + part


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_shaffer_true_counts_equal_a_brute_force_over_partitions(k):
    """Which sets of pairwise equalities can hold together: learners fall into
    groups of equal error; the true hypotheses are the pairs within a group."""
    brute = {sum(len(g) * (len(g) - 1) // 2 for g in part) for part in _set_partitions(list(range(k)))}
    assert shaffer_true_counts(k) == brute


def test_holm_and_shaffer_by_hand():
    # Holm: sorted 0.01, 0.03, 0.04 -> 3*0.01, max(0.03, 2*0.03), max(0.06, 1*0.04)
    assert holm([0.01, 0.04, 0.03]).tolist() == [0.03, 0.06, 0.06]
    # Shaffer, k = 4 (m = 6): multipliers 6, 3, 3, 3, 2, 1 (Shaffer 1986; Garcia & Herrera 2008)
    p = np.array([0.001, 0.01, 0.011, 0.012, 0.02, 0.04])
    np.testing.assert_allclose(shaffer(p, 4), np.maximum.accumulate(np.minimum(1, p * [6, 3, 3, 3, 2, 1])))
    np.testing.assert_allclose(holm(p), np.maximum.accumulate(np.minimum(1, p * [6, 5, 4, 3, 2, 1])))
    # never less than the raw p, never more than Holm; order-free; NaN stays NaN
    rng = np.random.default_rng(1)
    for _ in range(50):
        q = rng.random(10) ** 3
        h, s = holm(q), shaffer(q, 5)
        assert np.all(s >= q - 1e-15) and np.all(s <= h + 1e-15)
        perm = rng.permutation(10)
        np.testing.assert_allclose(holm(q[perm]), h[perm])
    assert np.isnan(holm([0.01, np.nan])[1]) and holm([0.01, np.nan])[0] == 0.02
    with pytest.raises(ValueError, match="k = 4 learners give 6 pairs"):
        shaffer([0.1, 0.2], 4)


def test_holm_controls_the_familywise_error_under_the_null():
    """All m nulls true, independent uniform p: P(any adjusted p < 0.05) <= 0.05."""
    rng = np.random.default_rng(2)
    P = rng.random((4000, 6))
    fw_h = np.mean([np.any(holm(p) < 0.05) for p in P])
    fw_s = np.mean([np.any(shaffer(p, 4) < 0.05) for p in P])
    se = np.sqrt(0.05 * 0.95 / 4000)
    assert fw_h <= 0.05 + 3 * se and fw_s <= 0.05 + 3 * se


# ------------------------------------------------------------------ k learners
def test_k_learners_fit_each_learner_once_per_design_and_test_every_pair(exp6):
    ls = [_Recorder(), _Recorder(0.2), _Recorder(0.5)]
    res = compare_many(exp6.X, exp6.y, ls, seed=2)
    assert [lrn.fits for lrn in ls] == [10, 10, 10]
    assert len(res.pairs) == 3 * 2
    names = res.learners
    assert len(set(names)) == 3                                  # duplicate labels made unique
    for (i, j) in combinations(range(3), 2):
        pair = compare(exp6.X, exp6.y, [_Recorder(), _Recorder(0.2), _Recorder(0.5)][i],
                       [_Recorder(), _Recorder(0.2), _Recorder(0.5)][j], seed=2)
        got = res.comparisons[(names[i], names[j])]
        np.testing.assert_array_equal(got.tables["bcv5x2"], pair.tables["bcv5x2"])
    bcv = [p for p in res.pairs if p["test"] == "mcnemar_5x2bcv"]
    raw = [p["pvalue"] for p in bcv]
    assert [p["pvalue_holm"] for p in bcv] == holm(raw).tolist()
    assert [p["pvalue_shaffer"] for p in bcv] == shaffer(raw, 3).tolist()
    assert "every pair" in str(res) and len(repr(res)) < 100
    obj = res.to_json()
    assert set(obj) >= {"pairs", "learners", "errors"}
    with pytest.raises(ValueError, match="at least 2"):
        compare_many(exp6.X, exp6.y, ["majority"])
    with pytest.raises(ValueError, match="adjust"):
        compare_many(exp6.X, exp6.y, ["majority", "glm"], adjust="bonferroni")


def test_k_learner_plot(exp6, tmp_path):
    res = compare_many(exp6.X, exp6.y, ["majority", "fnn-weighted", "fnn-weighted:omega=0.29"],
                           backend="python")
    path = tmp_path / "k.png"
    res.plot(path=str(path))
    assert path.stat().st_size > 1000


# ------------------------------------------------------------------ each fact once
def _bcv_folds_and_predictions(n=200, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    folds = DESIGNS["bcv5x2"].test_sets(n, np.random.default_rng(seed))
    pa = [np.where(rng.random(len(t)) < 0.25, 1 - y[t], y[t]) for t in folds]
    pb = [np.where(rng.random(len(t)) < 0.35, 1 - y[t], y[t]) for t in folds]
    return y, folds, pa, pb


def test_comparison_reads_the_bcv_tables_and_t_from_its_result():
    """The averaged / effective table and t that a Comparison shows are those
    of the 5x2 BCV McNemar result it holds, whatever t that test ran with."""
    y, folds, pa, pb = _bcv_folds_and_predictions()
    T = tables_from_predictions(y, pa, pb, [(None, t) for t in folds])
    res = TESTS["mcnemar_5x2bcv"].from_tables(T, t=1.5)
    cmp = Comparison({"mcnemar_5x2bcv": res}, {"bcv5x2": T}, len(y))
    assert cmp.bcv_t == res.t == 1.5
    np.testing.assert_array_equal(cmp.effective_table, res.effective_table)
    np.testing.assert_array_equal(cmp.averaged_table, res.averaged_table)


def test_a_non_default_t_reaches_the_comparison_and_the_cli_view(capsys):
    y, folds, pa, pb = _bcv_folds_and_predictions()
    cmp = compare_predictions(y, pa, pb, test_sets=folds, options={"mcnemar_5x2bcv": {"t": 1.5}})
    assert cmp["mcnemar_5x2bcv"].t == cmp.bcv_t == 1.5
    ref = compare_predictions(y, pa, pb, test_sets=folds)
    assert ref.bcv_t == pytest.approx(20 / 11)
    assert cmp["mcnemar_5x2bcv"].statistic != ref["mcnemar_5x2bcv"].statistic
    with pytest.raises(ValueError, match="takes no option"):
        compare_predictions(y, pa, pb, test_sets=folds, options={"mcnemar_5x2bcv": {"tt": 1}})
    with pytest.raises(ValueError, match="did not run|not selected"):
        compare_predictions(y, pa, pb, test_sets=folds, options={"kfold_t": {"alternative": "less"}})


# ------------------------------------------------------------------ the backend in parallel
from conftest import requires_r  # noqa: E402


@requires_r("RWeka")
@pytest.mark.parametrize("backend", ["python", "r"])
def test_parallel_fits_honour_the_requested_backend(exp6, backend):
    """With n_jobs > 1 (fresh worker processes) every learner runs in the
    backend asked for, exactly as in one process: J48 has both an R and a
    Python implementation, so a worker that fell back to "auto" would show."""
    one = compare(exp6.X, exp6.y, "J48", "majority", backend=backend)
    par = compare(exp6.X, exp6.y, "J48", "majority", backend=backend, n_jobs=2)
    assert par.backends[0] == one.backends[0] == backend
    assert par["mcnemar_5x2bcv"].pvalue == one["mcnemar_5x2bcv"].pvalue


@requires_r("RWeka")
def test_parallel_simulation_honours_the_requested_backend():
    """simulate(jobs=2) runs its repetitions in worker processes, in the
    backend asked for (python here, although R is available)."""
    from pybcv.engine import simulate
    res = simulate("exp6", tests="mcnemar_5x2bcv", reps=4, seed=2, jobs=2, backend="python",
                   learner_a={"name": "J48"})
    assert res.backends == ("python/python",)
    one = simulate("exp6", tests="mcnemar_5x2bcv", reps=4, seed=2, backend="python",
                   learner_a={"name": "J48"})
    np.testing.assert_array_equal(res.pvalue["mcnemar_5x2bcv"], one.pvalue["mcnemar_5x2bcv"])


# ------------------------------------------------------------------ messages
def test_own_predictions_with_nan_or_non_labels_give_clear_errors():
    y, folds, pa, pb = _bcv_folds_and_predictions()
    ys = np.where(y == 1, "yes", "no").astype(object)
    pa_s = [np.where(p == 1, "yes", "no").astype(object) for p in pa]
    pb_s = [np.where(p == 1, "yes", "no").astype(object) for p in pb]
    bad = [p.copy() for p in pa_s]
    bad[2][4] = np.nan
    with pytest.raises(ValueError, match=r"pred_a, fold 2: the predictions have 1 missing label\(s\).*position 4"):
        compare_predictions(ys, bad, pb_s, test_sets=folds)
    probs = [np.full(len(t), 0.7) for t in folds]
    with pytest.raises(ValueError, match=r"pred_b, fold 0: predictions must be class labels.*0.7"):
        compare_predictions(y, pa, probs, test_sets=folds)
    short = [p[:-1] for p in pa]
    with pytest.raises(ValueError, match="pred_a, fold 0: .* prediction"):
        compare_predictions(y, short, pb, test_sets=folds)
    with pytest.raises(ValueError, match="the folds cannot be the design 'bcv5x2'"):
        compare_predictions(y, pa, pb, test_sets=[folds[0]] * 10)


def test_per_test_warnings_reach_print():
    """A test's own warnings (here: no discordant record, the zero-variance
    rule) are printed with the comparison, naming the test."""
    y, folds, pa, pb = _bcv_folds_and_predictions()
    same = [y[t] for t in folds]
    cmp = compare_predictions(y, same, same, test_sets=folds)
    text = str(cmp)
    assert "warning (5x2 BCV McNemar's test): no discordant records" in text
    assert "warning (Calibrated 5x2 BCV F-test): zero-variance rule" in text


def test_k_learner_table_keeps_columns_apart_with_every_test(exp6):
    res = compare_many(exp6.X, exp6.y, ["majority", _Recorder(), _Recorder(0.3)], tests="all",
                           backend="python")
    lines = [ln for ln in str(res).splitlines() if "corrected_pseudo_bootstrap" in ln]
    assert lines
    for ln in lines:
        assert "corrected_pseudo_bootstrap " in ln      # the key is followed by a space


def test_k_learner_plot_says_which_learner_is_better(exp6, tmp_path):
    res = compare_many(exp6.X, exp6.y, ["majority", _Recorder(), _Recorder(0.3)],
                           backend="python")
    ax = res.plot(path=str(tmp_path / "m.png"))
    texts = [t.get_text() for t in ax.texts]
    assert any("row better" in t for t in texts) and any("col better" in t for t in texts)
    assert (tmp_path / "m.png").stat().st_size > 1000
    # the majority learner (highest error) is never "row better" on its own row
    names = [t.get_text().split("\n")[0] for t in ax.get_yticklabels()]
    assert names[-1] == "majority"
    with pytest.raises(ValueError, match="did not run"):
        res.plot(test="kfold_t")


def test_one_name_one_meaning_for_k_learners():
    """compare_many is k learners in Python and R (R's compare_learners is
    two learners, as Python's compare); Python has no compare_learners."""
    import pybcv
    import pybcv.comparison
    assert not hasattr(pybcv.comparison, "compare_learners") and not hasattr(pybcv, "compare_learners")
    assert pybcv.compare_many is compare_many
    r_src = (pathlib.Path(__file__).resolve().parents[1] / "R" / "R" / "compare.R").read_text()
    assert "compare_many <- function(learners, data, target" in r_src
    assert "compare_learners <- function(a, b, data, target" in r_src


def test_compare_losses_refuses_losses_that_are_not_zero_one():
    """Probabilities (or any loss other than 0/1) were truncated to 0 and gave
    p = 6.5e-15; they are refused with the reason, naming the record."""
    rng = np.random.default_rng(0)
    la = rng.random(200)
    lb = (rng.random(200) < 0.3).astype(int)
    with pytest.raises(ValueError, match=r"loss_a: record 0 has loss .*need 0/1 losses.*not probabilities"):
        compare_losses(la, lb)
    with pytest.raises(ValueError, match="loss_b"):
        compare_losses(lb, lb * 0.5)
    with pytest.raises(ValueError, match="same length"):
        compare_losses(lb, lb[:-1])
    ok = compare_losses(lb.astype(bool), 1 - lb)
    assert ok.error_a == pytest.approx(lb.mean())


def test_the_exact_hold_out_mcnemar_is_a_comparison_option(capsys):
    """``exact`` of mcnemar_ho reaches compare() and the CLI's --option: the
    binomial p-value of scipy.stats.binomtest on the hold-out table, no interval."""
    import json
    from scipy import stats
    from pybcv.cli import main
    from pybcv.datasets import make_dataset
    d = make_dataset("simple", 0, n=300, delta=1.0)
    c = compare(d.X, d.y, "glm", "majority", tests=["mcnemar_ho"], seed=1,
                options={"mcnemar_ho": {"exact": True}})
    r = c.results["mcnemar_ho"]
    b, cc = int(r.table[0, 1]), int(r.table[1, 0])
    assert b + cc > 0 and r.statistic == min(b, cc)
    assert r.pvalue == pytest.approx(stats.binomtest(min(b, cc), b + cc).pvalue, rel=1e-12)
    assert all(np.isnan(r.confidence_interval()))
    assert r.pvalue != compare(d.X, d.y, "glm", "majority", tests=["mcnemar_ho"],
                               seed=1).results["mcnemar_ho"].pvalue
    assert main(["compare", "--tests", "mcnemar_ho", "--option", "mcnemar_ho.exact=true",
                 "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)["tests"]["mcnemar_ho"]
    assert out["df"] is None and 0 < out["pvalue"] <= 1


# ------------------------------------------------------------------ bad seeds
@pytest.mark.parametrize("seed", [1.5, 1.0, None, True, "3", -1, np.random.default_rng(0)])
def test_non_integer_seed_is_refused_naming_seed(exp6, seed):
    """A seed that is not a non-negative integer is refused up front (never
    truncated: 1.5 used to run as seed 1 and print 'seed 1.5'), in compare,
    compare_many and compare_losses alike, as the CLI and R refuse it."""
    with pytest.raises(ValueError, match=r"seed must be a non-negative integer, got "):
        compare(exp6.X, exp6.y, "majority", "majority", seed=seed, backend="python")
    with pytest.raises(ValueError, match=r"seed must be a non-negative integer"):
        compare_many(exp6.X, exp6.y, ["majority", "majority"], seed=seed, backend="python")
    with pytest.raises(ValueError, match=r"seed must be a non-negative integer"):
        compare_losses(np.zeros(40, int), np.ones(40, int), seed=seed)


def test_one_class_target_is_refused_before_any_fit(exp6):
    """y with a single class: refused up front, as the CLI and R refuse it
    (it used to go on fitting); a regressor's constant target is no class."""
    from sklearn.dummy import DummyRegressor
    from sklearn.linear_model import Ridge
    fits = []

    class Spy:                            # a learner of one's own: records each fit
        def predict_splits(self, X, y, splits):
            fits.extend(splits)
            return [np.asarray(y)[te] for _, te in splits]
    for y in (np.full(exp6.n, "yes"), np.ones(exp6.n, int)):
        want = r"^y has a single class \(('yes'|1) in all %d records\): comparing classifiers" % exp6.n
        with pytest.raises(D.DataError, match=want):
            compare(exp6.X, y, Spy(), "majority", backend="python")
        with pytest.raises(D.DataError, match=want):
            compare_many(exp6.X, y, [Spy(), "majority", "mean"], backend="python")
    assert fits == []
    r = compare(exp6.X, np.ones(exp6.n), Ridge(), DummyRegressor(), tests="kfold_t")
    assert r.results["kfold_t"].pvalue == 1.0


def test_numpy_integer_seed_runs_as_the_same_int(exp6):
    a = compare(exp6.X, exp6.y, "majority", "fnn-weighted", seed=np.int64(3), backend="python")
    b = compare(exp6.X, exp6.y, "majority", "fnn-weighted", seed=3, backend="python")
    assert a.seed == 3 and type(a.seed) is int and "seed 3," in str(a)
    assert a.results["mcnemar_5x2bcv"].pvalue == b.results["mcnemar_5x2bcv"].pvalue


def test_learner_given_as_a_class_is_refused_before_any_fit(exp6):
    """compare(X, y, LogisticRegression, ...) used to fail at fit time as
    "learner 'type'"; now it is refused up front, naming the argument."""
    from sklearn.linear_model import LogisticRegression
    with pytest.raises(TypeError, match=r"^learner_a is the class LogisticRegression; pass an "
                                        r"instance: LogisticRegression\(\)$"):
        compare(exp6.X, exp6.y, LogisticRegression, "majority", backend="python")
    with pytest.raises(TypeError, match=r"^learner_b is the class LogisticRegression"):
        compare(exp6.X, exp6.y, "majority", LogisticRegression, backend="python")
    with pytest.raises(TypeError, match=r"^learners\[2\] is the class LogisticRegression"):
        compare_many(exp6.X, exp6.y, ["majority", "fnn-weighted", LogisticRegression],
                     backend="python")


def test_own_predictions_on_the_wrong_design_name_the_design_each_test_needs():
    """--tests kfold_t on BCV predictions used to say only "need other designs
    than 'bcv5x2'"; now it names cv10 and how to get its folds."""
    y = np.arange(100) % 2
    te = [t for _, t in DESIGNS["bcv5x2"].splits(100, design_generator(0, "bcv5x2"))]
    with pytest.raises(ValueError, match=r"^kfold_t runs on design cv10, not on 'bcv5x2' .*"
                                         r"get_design\('cv10'\).*give design='cv10'$"):
        compare_predictions(y, [y[t] for t in te], [y[t] for t in te], test_sets=te,
                            tests=["kfold_t"])


def test_k_learner_plot_labels_are_short_and_inside_the_figure(tmp_path):
    """walk27 C11: import paths made 250-character tick labels cut off at the
    figure's edges; the labels are the class names (wrapped) and the saved
    figure holds every label, the title and the colour bar."""
    import matplotlib.image
    from sklearn.tree import DecisionTreeClassifier
    X, y = D.simple(0, n=200, delta=1.0).X, D.simple(0, n=200, delta=1.0).y
    res = compare_many(X, y, ["sklearn.linear_model.LogisticRegression",
                              "sklearn.tree.DecisionTreeClassifier:max_depth=3",
                              DecisionTreeClassifier(max_depth=1)], backend="python")
    ax = res.plot(path=str(tmp_path / "p.png"))
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert not any("sklearn." in t for t in labels)
    assert all(max(len(line) for line in t.split("\n")) <= 24 for t in labels)
    fig = ax.figure
    fig.canvas.draw()
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    h, w = matplotlib.image.imread(str(tmp_path / "p.png")).shape[:2]
    assert w >= box.width * 110 * 0.98 and h >= box.height * 110 * 0.98


def test_notes_on_how_x_was_read_reach_the_result_and_the_callers_line():
    """walk27 A23: the decimal-comma note on a DataFrame column was warned at
    pybcv's own line and missing from the result's warnings."""
    import warnings
    import pandas as pd
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x1": [f"{v:.3f}".replace(".", ",") for v in rng.normal(size=120)],
                      "x2": rng.normal(size=120)})
    X.loc[7, "x1"] = "nd"             # mostly numbers: a note (only numbers: an error)
    y = np.where(rng.normal(size=120) > 0, "a", "b")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = compare(X, y, "majority", "kknn", backend="python")
    notes = [w for w in caught if "decimal commas" in str(w.message)]
    assert notes and all(w.filename == __file__ for w in notes)
    assert any("decimal commas" in m for m in r.warnings) and "decimal commas" in str(r)


def test_a_target_left_in_X_is_refused_naming_the_column():
    """compare(df, df["class"], ...) with the class still a column of X: the
    learners would read the answer (both err 0); refused, naming it."""
    import pandas as pd
    from pybcv.errors import ArgumentError
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=60), "class": rng.integers(0, 2, 60)})
    for call in (lambda: compare(df, df["class"], "glm", "majority", backend="python"),
                 lambda: compare_many(df, df["class"], ["glm", "majority", "mean"],
                                            backend="python")):
        with pytest.raises(ArgumentError, match=r"X holds the target column 'class'") as e:
            call()
        assert e.value.argument == "X"
    res = compare(df.drop(columns=["class"]), df["class"], "glm", "majority",
                  backend="python")
    assert res.tables["bcv5x2"].shape == (10, 2, 2)
    # the same name twice, and a numeric target with a missing value: still found
    dup = pd.concat([df[["x"]].rename(columns={"x": "class"}), df], axis=1)
    num = df.assign(x=np.where(np.arange(60) == 3, np.nan, df["x"]))
    for X, y in ((dup, df["class"]), (num, num["x"])):
        with pytest.raises(ArgumentError, match=r"X holds the target column"):
            compare(X, y, "glm", "majority", backend="python")
    # a column of that name holding other values is the user's feature
    other = df.assign(**{"class": df["class"].to_numpy()[::-1]})
    assert compare(other, df["class"], "glm", "majority", backend="python").tables[
        "bcv5x2"].shape == (10, 2, 2)
