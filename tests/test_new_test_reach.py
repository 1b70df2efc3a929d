"""A new test needs its kernel and its registry row, nothing else (issue 19).

The test below adds a row to the registry the way ``pybcv/stats/registry.py``
turns its rows into ``TESTS`` (``spec_of_row``): "toy_t", the K-fold paired
t under another key and name, with the same adapter and kernel as
``kfold_t``.  Nothing else is registered anywhere, and the new test is then
followed to every front end: Python's ``compare_predictions``, the CLI's
``test``, the engine (``run_chunk``), ``simulate`` + ``report``, and the R
wrappers' generator.  On the design it shares with ``kfold_t`` it must give
``kfold_t``'s numbers exactly.
"""
from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from pybcv import cli
from pybcv.comparison import compare_predictions
from pybcv.engine import RunConfig
from pybcv.engine.repetition import run_chunk
from pybcv.partitions import DESIGNS
from pybcv.stats import _common, registry
from pybcv.stats.t_tests import _plain_paired

REPO = Path(__file__).resolve().parents[1]


def toy_t(diffs, alternative="two-sided"):
    """Toy paired t-test (this file's new test): kfold_t's statistic on the
    10 fold differences of a 10-fold CV, registered under a key of its own.

    Source: issue 19, "a new test needs its kernel and its row".

    Parameters
    ----------
    diffs : array-like, shape (10,)
        The per-fold error-rate differences (A - B).
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult

    Examples
    --------
    >>> toy_t([0.1, 0.0, 0.2, -0.1, 0.1, 0.1, 0.3, 0.0, 0.1, 0.2]).df
    9
    """
    return _plain_paired("toy_t", diffs, alternative)


ROW = ("toy_t", "Toy paired t-test", "toy t", "t", "cv10", "this test file",
       toy_t, registry._diffs, registry._k_paired, {"alternative": "two-sided"}, False)


@pytest.fixture
def toy(monkeypatch):
    spec = registry.spec_of_row(ROW)
    monkeypatch.setitem(registry.TESTS, "toy_t", spec)
    monkeypatch.setitem(_common.TEST_NAMES, "toy_t", spec.name)
    return spec


def _own_predictions(n=200, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    splits = DESIGNS["cv10"].splits(n, np.random.default_rng(seed))
    pa = [np.where(rng.random(len(te)) < 0.25, 1 - y[te], y[te]) for _, te in splits]
    pb = [np.where(rng.random(len(te)) < 0.30, 1 - y[te], y[te]) for _, te in splits]
    return y, splits, pa, pb


def test_the_row_is_the_only_registration():
    assert "toy_t" not in registry.TESTS          # the fixture's row is all there is


def test_python_own_predictions(toy):
    y, splits, pa, pb = _own_predictions()
    r = compare_predictions(y, pa, pb, splits=splits, design="cv10", tests=["toy_t", "kfold_t"])
    new, old = r.results["toy_t"], r.results["kfold_t"]
    assert new.method == "Toy paired t-test"
    assert (new.statistic, new.pvalue, new.df) == (old.statistic, old.pvalue, old.df)
    assert new.confidence_interval() == old.confidence_interval()
    assert "Toy paired t-test" in str(r)


def test_cli_test_command(toy, tmp_path, capsys):
    y, splits, pa, pb = _own_predictions()
    lines = ["fold,row,y,pred_a,pred_b"]
    for f, (_, te) in enumerate(splits):
        lines += [f"{f},{i},{y[i]},{a},{b}" for i, a, b in zip(te, pa[f], pb[f])]
    path = tmp_path / "own.csv"
    path.write_text("\n".join(lines) + "\n")
    assert cli.main(["test", "--predictions", str(path), "--design", "cv10",
                     "--tests", "toy_t,kfold_t", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    res = out["tests"]
    assert res["toy_t"]["statistic"] == res["kfold_t"]["statistic"]
    assert res["toy_t"]["pvalue"] == res["kfold_t"]["pvalue"]


def test_engine_scores_it_with_its_design(toy):
    reps = run_chunk(RunConfig("epsilon", ["toy_t", "kfold_t"], n=300), range(20))
    assert [r.results["toy_t"] for r in reps] == [r.results["kfold_t"] for r in reps]
    assert [r.intervals["toy_t"] for r in reps] == [r.intervals["kfold_t"] for r in reps]


def test_simulate_and_report(toy, tmp_path, capsys):
    out = tmp_path / "sim"
    assert cli.main(["simulate", "--dataset", "epsilon", "--n", "300", "--tests", "toy_t,kfold_t",
                     "--reps", "50", "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    assert cli.main(["report", str(out)]) == 0
    text = capsys.readouterr().out
    assert "toy t" in text or "Toy paired t-test" in text


def test_r_wrapper_is_generated(toy):
    spec = importlib.util.spec_from_file_location("gen_r_tests", REPO / "scripts" / "gen_r_tests.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text = gen.generate()
    assert 'toy_t_test <- registry_wrapper("toy_t"' in text
    assert "Toy paired t-test" in gen.generate(docs=True)       # the roxygen form of its page
    if shutil.which("Rscript"):                                 # and the Rd page roxygen2 makes
        assert "\\title{Toy paired t-test}" in gen.rd_pages()["toy_t_test.Rd"]
