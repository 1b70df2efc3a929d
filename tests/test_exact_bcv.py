"""The exact 5x2 BCV McNemar (``exact=True``, issue 21 item 4): the binomial
test of the effective table, its distribution function extended to counts
that are not whole numbers by the regularized incomplete beta."""
import numpy as np
import pytest
from scipy.stats import binomtest

from pybcv.stats import TESTS, mcnemar_5x2bcv
from pybcv.stats.mcnemar_tests import binomial_tails


def _tables(b, c, n=100):
    return [[n - x - y - 10, x, y, 10] for x, y in zip(b, c)]


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_whole_effective_counts_give_scipys_binomial_test(alternative):
    # averaged counts 5.5 and 7.7 with the paper's t = 20/11: effective counts 10 and 14
    b, c = [5, 6] * 5, [8] * 7 + [7] * 3
    r = mcnemar_5x2bcv(_tables(b, c), exact=True, alternative=alternative)
    assert r.pvalue == pytest.approx(binomtest(10, 24, 0.5, alternative=alternative).pvalue,
                                     rel=1e-12)
    assert np.isnan(r.confidence_interval()).all() and r.df is None


def test_tails_are_continuous_in_the_counts():
    b = np.linspace(0.0, 20.0, 201)
    low, high = binomial_tails(b, 20.0 - b)
    assert np.all(np.diff(low) >= -1e-15) and np.all(np.diff(high) <= 1e-15)
    assert low[0] == pytest.approx(0.5 ** 20) and high[-1] == pytest.approx(0.5 ** 20)


def test_no_discordant_records_and_the_batch_kernel():
    r = mcnemar_5x2bcv(_tables([0] * 10, [0] * 10), exact=True)
    assert (r.statistic, r.pvalue) == (0.0, 1.0)
    rng = np.random.default_rng(4)
    T = rng.integers(0, 30, size=(50, 10, 2, 2))
    stat, p = TESTS["mcnemar_5x2bcv"].batch(T, None, None, exact=True, alternative="less")
    one = [mcnemar_5x2bcv(t, exact=True, alternative="less") for t in T]
    assert np.array_equal(stat, [r.statistic for r in one])
    assert np.array_equal(p, [r.pvalue for r in one])


def test_the_option_in_a_comparison_and_the_cli(tmp_path, capsys):
    import json
    from pybcv import compare_predictions
    from pybcv.cli import main
    from pybcv.partitions import DESIGNS
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 300)
    folds = DESIGNS["bcv5x2"].test_sets(300, np.random.default_rng(0))
    pa = [np.where(rng.random(len(t)) < 0.2, 1 - y[t], y[t]) for t in folds]
    pb = [np.where(rng.random(len(t)) < 0.3, 1 - y[t], y[t]) for t in folds]
    r = compare_predictions(y, pa, pb, test_sets=folds, tests=["mcnemar_5x2bcv"],
                            options={"mcnemar_5x2bcv": {"exact": True}})
    direct = mcnemar_5x2bcv(r.tables["bcv5x2"], exact=True)
    assert r["mcnemar_5x2bcv"].pvalue == direct.pvalue
    lines = ["fold,row,y,pred_a,pred_b"] + [f"{f},{i},{y[i]},{a},{b}" for f, t in enumerate(folds)
                                            for i, a, b in zip(t, pa[f], pb[f])]
    p = tmp_path / "own.csv"
    p.write_text("\n".join(lines) + "\n")
    assert main(["test", "--predictions", str(p), "--tests", "mcnemar_5x2bcv", "--json",
                 "--option", "mcnemar_5x2bcv.exact=true"]) == 0
    got = json.loads(capsys.readouterr().out)["tests"]["mcnemar_5x2bcv"]
    assert got["pvalue"] == pytest.approx(direct.pvalue, rel=1e-12) and got["ci_low"] is None
