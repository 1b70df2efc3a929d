"""Experiment records keyed by name (a second experiment on the same data set
is a second record), the unit of work read from the record, and the power
curve run by the engine (:func:`pybcv.engine.simulate_curve`)."""
import os

import numpy as np
import pandas as pd
import pytest

from pybcv import datasets, seeds
from pybcv.engine import RunConfig, load_result, simulate, simulate_curve
from pybcv.engine.simulation import default_chunk
from pybcv.experiments import EXPERIMENTS, Experiment


@pytest.fixture
def small_simple(monkeypatch):
    rec = Experiment("simple", 80, {"name": "glm"}, {"name": "majority"}, "delta", "data", 0.0,
                     "simple at n = 80", data_params={"delta": 0.0}, name="simple_small",
                     chunk=3)
    monkeypatch.setitem(EXPERIMENTS, "simple_small", rec)
    return rec


def test_a_second_experiment_on_a_data_set_is_its_own_record(small_simple, tmp_path):
    cfg = RunConfig("simple_small", ["mcnemar_ho"], backend="python", seed=2)
    assert cfg.dataset == "simple_small" and cfg.n == 80 and cfg.experiment is small_simple
    d = cfg.dataset_for(1)
    ref = datasets.make_dataset("simple", seeds.data_seq(2, 1), n=80)
    assert np.array_equal(d.X, ref.X) and np.array_equal(d.y, ref.y)
    res = simulate(cfg, 3, out=str(tmp_path))
    assert load_result(str(tmp_path)).config.dataset == "simple_small" and len(res.reps) == 3
    # the paper's record is untouched
    assert RunConfig("simple", ["mcnemar_ho"]).n == EXPERIMENTS["simple"].n == 1000


def test_the_unit_of_work_comes_from_the_record(small_simple):
    assert default_chunk(RunConfig("simple_small", ["mcnemar_ho"]), 100, 1) == 3
    assert default_chunk(RunConfig("simple", ["mcnemar_ho"]), 100, 1) == 4
    assert default_chunk(RunConfig("exp6", ["mcnemar_ho"]), 100, 1) == 1
    assert default_chunk(RunConfig("epsilon", ["mcnemar_ho"]), 100, 2) == 50


def test_a_power_curve_is_run_by_the_engine(tmp_path):
    base = RunConfig("epsilon", ["mcnemar_ho", "mcnemar_5x2bcv"], seed=3)
    seen = []
    runs = simulate_curve(base, [0.1, 0.3], reps=4, out=str(tmp_path),
                          announce=lambda v, folder: seen.append((v, folder)))
    assert [v for v, _ in runs] == [0.1, 0.3]
    assert seen == [(0.1, os.path.join(str(tmp_path), "param=0.1")),
                    (0.3, os.path.join(str(tmp_path), "param=0.3"))]
    for v, res in runs:
        assert res.config.data_params == {"eps": v}
        alone = simulate(base.at(v), reps=4)
        for k in base.tests:
            assert np.array_equal(res.pvalue[k], alone.pvalue[k], equal_nan=True)
    power = pd.read_csv(os.path.join(str(tmp_path), "power.csv"))
    assert power["param_value"].tolist() == [0.1, 0.1, 0.3, 0.3]
    assert set(power["param_name"]) == {"eps"}
