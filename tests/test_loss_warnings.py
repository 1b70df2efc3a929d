"""Tests the validity battery found liberal under real-valued losses warn
when a user runs them on such a loss (issue 21): the fact lives in the
registry (``TestSpec.liberal_on_losses``), the evidence in docs/validity
(results.csv.gz scored, warnings.csv explaining every flag); the warning rides
on the test's result, so Python's print, ``compare --learners``, the JSON,
the CLI and R (its per-test warnings) all carry it."""
import json

import numpy as np
import pytest

from pybcv import validity as V
from pybcv.cli import main
from pybcv.comparison import compare, compare_losses, compare_many, compare_predictions
from pybcv.partitions import DESIGNS
from pybcv.stats import TESTS


def _liberal_on_losses_by_the_battery():
    """Tests with a documented liberal flag on a null family of a real-valued loss."""
    family = {f.name: f for f in V.FAMILIES}
    found, undocumented = set(), []
    for f in V.flags():
        if f["flag"] != "liberal" or f["family"] not in family \
                or family[f["family"]].loss == "zero_one":
            continue
        found.add(f["test"])
        if f["reason"] is None:
            undocumented.append(f)
    return found, undocumented


def test_the_registry_flags_agree_with_the_validity_battery():
    found, undocumented = _liberal_on_losses_by_the_battery()
    assert not undocumented, undocumented          # every flag explained in warnings.csv
    assert found, "the battery scored no real-valued loss family"
    flagged = {k for k, spec in TESTS.items() if spec.liberal_on_losses}
    assert flagged == found, (f"registry only: {sorted(flagged - found)}; "
                              f"battery only: {sorted(found - flagged)}")
    for k in flagged:
        assert not TESTS[k].needs_zero_one
        assert TESTS[k].label in TESTS[k].loss_warning and "docs/validity" in TESTS[k].loss_warning


FLAGGED = sorted(k for k, spec in TESTS.items() if spec.liberal_on_losses)
QUIET = sorted(k for k, spec in TESTS.items()
               if not spec.liberal_on_losses and not spec.needs_zero_one)


def _losses(n=200, seed=0):
    rng = np.random.default_rng(seed)
    return rng.gamma(2.0, 1.5, n), rng.gamma(2.0, 1.4, n)


def test_every_flagged_test_warns_under_a_real_loss_and_only_then():
    la, lb = _losses()
    cmp = compare_losses(la, lb, tests="all", seed=1, loss="squared")
    for k in FLAGGED:
        assert TESTS[k].loss_warning in cmp[k].warnings, k
        assert f"warning ({TESTS[k].name}): {TESTS[k].loss_warning}" in str(cmp)
        assert TESTS[k].loss_warning in cmp.to_json()["tests"][k]["warnings"]
    for k in QUIET:
        assert not any("validity battery" in w for w in cmp[k].warnings), k
    z = compare_losses((la > 3).astype(float), (lb > 3).astype(float), tests="all", seed=1)
    assert z.loss == "zero_one" and not any("validity battery" in w for r in z.results.values()
                                            for w in r.warnings)


def _regression(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    return X, X @ [1.0, 2.0, 0.0] + rng.normal(size=n)


def test_compare_compare_many_and_own_predictions_carry_it():
    from sklearn.linear_model import LinearRegression, Ridge
    from sklearn.tree import DecisionTreeRegressor
    X, y = _regression()
    w = TESTS["t_5x2cv"].loss_warning
    cmp = compare(X, y, Ridge(), LinearRegression(), tests=["t_5x2cv", "kfold_t"], backend="python")
    assert w in cmp["t_5x2cv"].warnings and not cmp["kfold_t"].warnings
    many = compare_many(X, y, [Ridge(), LinearRegression(), DecisionTreeRegressor(max_depth=2)],
                        tests=["t_5x2cv", "kfold_t"], backend="python")
    assert str(many).count(w) == 1 and f"warning ({TESTS['t_5x2cv'].name}): {w}" in str(many)
    assert all((w in p["warnings"]) == (p["test"] == "t_5x2cv") for p in many.to_json()["pairs"])
    folds = DESIGNS["rcv5x2"].test_sets(40, np.random.default_rng(0))
    pa = [y[t] + 0.1 for t in folds]
    pb = [y[t] + 0.5 * np.sin(t) for t in folds]
    own = compare_predictions(y[:40], pa, pb, test_sets=folds, design="rcv5x2", loss="squared")
    assert w in own["t_5x2cv"].warnings


def test_the_command_line_prints_it(tmp_path, capsys):
    X, y = _regression()
    path = tmp_path / "reg.csv"
    path.write_text("x1,x2,x3,price\n" + "".join(
        ",".join(f"{v:.6f}" for v in (*x, t)) + "\n" for x, t in zip(X, y)))
    w = TESTS["calibrated_f_5x2bcv"].loss_warning
    base = ["--csv", str(path), "--target", "price", "--quiet", "--tests", "calibrated_f_5x2bcv"]
    assert main(["compare", *base, "--a", "sklearn.linear_model.Ridge",
                 "--b", "sklearn.linear_model.LinearRegression"]) == 0
    assert w in capsys.readouterr().out
    assert main(["compare", *base, "--learners", "sklearn.linear_model.Ridge,"
                 "sklearn.linear_model.LinearRegression,sklearn.dummy.DummyRegressor"]) == 0
    assert w in capsys.readouterr().out
    assert main(["compare", *base, "--a", "sklearn.linear_model.Ridge",
                 "--b", "sklearn.linear_model.LinearRegression", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert w in json.dumps(obj)


def test_a_test_liberal_only_under_squared_loss_warns_only_there():
    """walk27 B25: the calibrated F (the default test) was flagged under every
    real-valued loss although the battery found it liberal only on a
    heavy-tailed squared loss; under absolute loss (the docs' remedy) and the
    battery's other scored losses it stays quiet, a test liberal on every loss
    family still warns, and a user's own loss name (not scored) warns."""
    la, lb = _losses()
    only_sq = sorted(k for k in FLAGGED if TESTS[k].liberal_losses)
    assert "calibrated_f_5x2bcv" in only_sq
    for loss in ("absolute", "cost_matrix", "log"):
        cmp = compare_losses(la, lb, tests="all", seed=1, loss=loss)
        for k in only_sq:
            assert not any("validity battery" in w for w in cmp[k].warnings), (loss, k)
        assert TESTS["rho_t"].loss_warning in cmp["rho_t"].warnings
    for loss in ("squared", "my_own_loss"):
        cmp = compare_losses(la, lb, tests="all", seed=1, loss=loss)
        assert all(TESTS[k].loss_warning in cmp[k].warnings for k in only_sq), loss
    assert "10-fold t and the CV-CI z" in TESTS["calibrated_f_5x2bcv"].loss_warning
    # the registry's list of scored losses is the battery's (cost matrices resolve to cost_matrix)
    from pybcv.stats.registry import SCORED_LOSSES
    battery = {f.loss if isinstance(f.loss, str) else "cost_matrix" for f in V.FAMILIES}
    assert battery - {"zero_one"} == set(SCORED_LOSSES)
