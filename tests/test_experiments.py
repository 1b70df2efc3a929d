"""One record per experiment: the CLI, the engine, compare() and the report
read their defaults from pybcv.experiments, and they agree."""
import inspect

import pytest

from pybcv import datasets as D
from pybcv.cli import build_parser
from pybcv.comparison import compare, compare_many, compare_losses
from pybcv.engine import RunConfig
from pybcv.engine.truth import TUNING
from pybcv.experiments import COMPARE_DEFAULTS, EXPERIMENTS, LAMBDAS, SIMULATE_DEFAULTS, get_experiment


def _defaults(cmd):
    sub = build_parser()._subparsers._group_actions[0].choices[cmd]
    return {a.dest: a.default for a in sub._actions}


def test_cli_and_python_defaults_agree():
    cli = _defaults("compare")
    for key in ("tests", "seed", "alpha", "profile", "backend"):
        assert cli[key] == COMPARE_DEFAULTS[key], key
    for fn in (compare, compare_many, compare_losses):
        sig = inspect.signature(fn).parameters
        for key in ("tests", "seed", "profile", "alpha"):
            assert sig[key].default == COMPARE_DEFAULTS[key], (fn.__name__, key)
    assert COMPARE_DEFAULTS["seed"] == 0
    assert _defaults("folds")["seed"] == COMPARE_DEFAULTS["seed"]
    assert _defaults("test")["alpha"] == COMPARE_DEFAULTS["alpha"]
    sim = _defaults("simulate")
    for key in ("tests", "reps", "seed", "profile", "backend"):
        assert sim[key] == SIMULATE_DEFAULTS[key], key


def test_demo_learners_are_the_exp6_learners_at_h0_and_data_defaults_take_any_data():
    from pybcv.experiments import DEMO_LEARNERS
    e = EXPERIMENTS["exp6"]
    assert DEMO_LEARNERS["learner_a"] == e.learner_a == {"name": "J48-unpruned"}
    assert DEMO_LEARNERS["learner_b"] == e.learner_b == {"name": "fnn-weighted", "omega": e.h0_value}
    assert (COMPARE_DEFAULTS["learner_a"], COMPARE_DEFAULTS["learner_b"]) == ({"name": "J48"},
                                                                              {"name": "kknn"})


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_run_config_and_truth_read_the_record(name):
    e = EXPERIMENTS[name]
    if e.learners:                # k learners compared pairwise (rq1): no H0, no power curve
        cfg = RunConfig(name, e.tests, data_params={"file": "balance"})
        assert cfg.n == e.n == D.DEFAULT_N[e.dataset] and cfg.learners == list(e.learners)
        assert cfg.learner_a is None and cfg.true_difference() is None and name not in TUNING
        with pytest.raises(ValueError, match="no power curve"):
            cfg.at(1.0)
        return
    test = "mcnemar_5x2bcv" if e.loss == "zero_one" else "calibrated_f_5x2bcv"   # regressions
    cfg = RunConfig(name, test)
    assert cfg.n == e.n == D.DEFAULT_N[name]
    assert cfg.learner_a == e.learner_a and cfg.learner_b == e.learner_b
    assert cfg.true_difference() == 0.0           # the record's defaults are an H0 point
    if e.varies == "learner_b" and e.power_grid:    # mnist: a fixed grid of B's parameter
        assert name not in TUNING and not e.lambdas and e.h0_value == e.power_grid[0]
        off = cfg.at(e.power_grid[-1])
        assert off.true_difference() is None
    elif e.varies == "learner_b":
        assert TUNING[name] == (e.learner_a, e.learner_b["name"], e.varied, e.value_at_lambda_1)
        assert e.lambdas == LAMBDAS and e.truth_grid
        off = cfg.at(e.value_at_lambda_1)
        assert off.true_difference() is None
    else:
        assert name not in TUNING
        assert D.DATA_PARAM.get(name, e.varied) == e.varied
        if not e.learner_free:
            assert RunConfig(name, "mcnemar_5x2bcv", data_params={e.varied: 1.0}).true_difference() is None


def test_unknown_experiment_names_the_known_ones():
    with pytest.raises(ValueError, match="known: epsilon, simple, exp6, letter"):
        get_experiment("iris")
    with pytest.raises(ValueError, match="B's parameter, not the data's"):
        EXPERIMENTS["exp6"].data_params_at(1.0)
