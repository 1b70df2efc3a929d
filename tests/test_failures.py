"""A learner that fails on one repetition's data (an error inside R or Java,
predictions that are not labels): the repetition is recorded as failed --
never a number, never counted as "not rejected" -- naming the learner, the
design, the fold and the repetition; the run finishes, ``--resume`` does not
hit it again, and the summary and the command line report it."""
import numpy as np
import pytest

from pybcv.cli import main
from pybcv.engine import RunConfig, load_result, simulate
from pybcv.engine import repetition as repetition_module
from pybcv.engine.store import Store
from pybcv.learners import PredictionError

CFG = dict(tests=["mcnemar_5x2bcv", "mcnemar_ho"], n=60, backend="python", seed=3)
FAILING_REP = 2


class FailsOnOneDataSet:
    """Wraps a learner; on the data set of one repetition, fold 4 of every
    call predicts a probability (as a mis-written learner would)."""

    calls = 0

    def __init__(self, learner, marker):
        self.learner, self.marker = learner, marker

    def predict_splits(self, X, y, splits):
        type(self).calls += 1
        if np.array_equal(X[:3], self.marker):
            raise PredictionError("glm", 4, len(splits), "predicted 0.73, which is not a label of y")
        return self.learner.predict_splits(X, y, splits)


@pytest.fixture
def failing_glm(monkeypatch):
    cfg = RunConfig("simple", **CFG)
    marker = cfg.dataset_for(FAILING_REP).X[:3].copy()
    real = repetition_module.learner_from_spec
    FailsOnOneDataSet.calls = 0

    def patched(spec, backend="auto"):
        lrn = real(spec, backend)
        return FailsOnOneDataSet(lrn, marker) if spec["name"] == "glm" else lrn
    monkeypatch.setattr(repetition_module, "learner_from_spec", patched)
    return cfg


def test_a_failed_repetition_is_recorded_not_scored(tmp_path, failing_glm):
    out = str(tmp_path / "run")
    res = simulate(failing_glm, 5, out=out)
    assert res.reps.tolist() == [0, 1, 3, 4]
    assert len(res.failures) == 1
    f = res.failures[0]
    assert (f["rep"], f["learner"], f["fold"]) == (FAILING_REP, "glm", 4)
    assert f["design"] in ("bcv5x2", "holdout")
    assert "repetition 2" in f["message"] and f"design '{f['design']}'" in f["message"]
    s = res.summary()
    assert (s["reps"] == 4).all() and (s["failed_reps"] == 1).all()
    # the rates are over the 4 scored repetitions only
    for k in CFG["tests"]:
        assert s.set_index("test").loc[k, "rejection_rate"] == np.mean(res.pvalue[k] < 0.05)
    # the store keeps the failure; a resume does not run it again
    st = Store(out)
    assert st.settled() == {0, 1, 2, 3, 4} and st.done() == {0, 1, 3, 4}
    st.close()
    calls = FailsOnOneDataSet.calls
    again = simulate(failing_glm, 5, out=out, resume=True)
    assert FailsOnOneDataSet.calls == calls
    assert again.reps.tolist() == [0, 1, 3, 4] and again.failures == load_result(out).failures


def test_the_other_repetitions_are_those_of_a_clean_run(failing_glm, monkeypatch):
    res = simulate(failing_glm, 4)
    monkeypatch.undo()
    clean = simulate(RunConfig("simple", **CFG), 4)
    assert clean.failures == [] and clean.reps.tolist() == [0, 1, 2, 3]
    keep = [0, 1, 3]
    assert res.reps.tolist() == keep
    for k in CFG["tests"]:
        assert res.pvalue[k].tolist() == clean.pvalue[k][keep].tolist()
        assert res.statistic[k].tolist() == clean.statistic[k][keep].tolist()


def test_without_a_store_the_failures_come_back_with_the_result(failing_glm):
    res = simulate(failing_glm, 3)
    assert res.reps.tolist() == [0, 1]
    assert res.to_json()["failures"][0]["rep"] == FAILING_REP


def test_the_command_line_lists_the_failures(tmp_path, failing_glm, capsys):
    out = str(tmp_path / "cli")
    rc = main(["simulate", "--dataset", "simple", "--n", "60", "--tests", "mcnemar_5x2bcv,mcnemar_ho",
               "--backend", "python", "--seed", "3", "--reps", "4", "--out", out, "--quiet"])
    _, err = capsys.readouterr()
    assert rc == 0
    assert "1 repetition(s) failed and are left out of the rates" in err
    assert "learner 'glm', fold 4 of" in err and "repetition 2" in err


def test_the_report_lists_the_failures(tmp_path, failing_glm):
    from pybcv.report import build_report
    out = str(tmp_path / "run")
    simulate(failing_glm, 4, out=out)
    text = build_report([out])
    assert "**1 repetition(s) failed** and are left out of the rates:" in text
    assert "repetition 2" in text and "repetitions: **3**" in text


def test_an_archived_run_keeps_its_failures(tmp_path, failing_glm):
    from pybcv.engine import archive
    out = str(tmp_path / "run")
    simulate(failing_glm, 4, out=out)
    arch = str(tmp_path / "arch")
    archive.from_sqlite(out, arch)              # checks the archive bit for bit, failures included
    res = load_result(arch)
    assert [f["rep"] for f in res.failures] == [FAILING_REP] and res.reps.tolist() == [0, 1, 3]
