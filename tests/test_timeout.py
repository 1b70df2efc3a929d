"""A time limit per fit (issue 22): timeout= in Python, --timeout in the CLI;
a fit that outlasts it fails naming learner, design and fold."""
import signal
import time

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin

from pybcv.cli import main
from pybcv.comparison import compare
from pybcv.datasets import exp6
from pybcv.learners.timelimit import FitTimeout, check_timeout, fit_timeout, one_fit


class Slow(ClassifierMixin, BaseEstimator):
    """Computes for ``seconds`` in Python before it predicts the first label."""

    _parameter_constraints = {"seconds": [float]}

    def __init__(self, seconds=30.0):
        self.seconds = seconds

    def fit(self, X, y):
        end = time.monotonic() + self.seconds
        while time.monotonic() < end:
            sum(range(1000))
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def test_a_fit_longer_than_the_limit_fails_naming_learner_design_and_fold():
    d = exp6(0, n=60)
    with pytest.raises(RuntimeError, match=r"learner 'Slow', fold 1 of 10, design 'bcv5x2': the fit "
                                           r"took longer than the time limit of 0.3 s \(timeout\)"):
        compare(d.X, d.y, Slow(), "majority", backend="python", timeout=0.3)
    assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None)     # nothing left armed
    ok = compare(d.X, d.y, Slow(0.0), "majority", backend="python", timeout=30)
    assert ok.fits == (10, 10)


def test_a_python_fallback_learner_is_limited(monkeypatch):
    from pybcv.learners import fallbacks as fb
    real = fb.KKNNFallback._fit_codes

    def slow_fit(self, X, codes, nclass):
        Slow(30.0).fit(np.zeros((2, 1)), np.array([0, 1]))
        return real(self, X, codes, nclass)

    monkeypatch.setattr(fb.KKNNFallback, "_fit_codes", slow_fit)
    d = exp6(0, n=60)
    with pytest.raises(RuntimeError, match=r"learner 'kknn', fold 1 of 10, design 'bcv5x2': the fit "
                                           r"took longer"):
        compare(d.X, d.y, "kknn", "majority", backend="python", timeout=0.2)


def test_cli_timeout(capsys):
    spec = ("sklearn.neural_network.MLPClassifier:hidden_layer_sizes=(300,300),max_iter=5000,"
            "tol=0,n_iter_no_change=100000")
    rc = main(["compare", "--a", spec, "--b", "majority", "--backend", "python", "--quiet",
               "--n", "60", "--timeout", "0.3"])
    err = capsys.readouterr().err
    assert rc == 1 and "fold 1 of 10, design 'bcv5x2': the fit took longer than the time limit " \
                       "of 0.3 s" in err and "PYBCV_TRACEBACK" not in err, err
    rc = main(["compare", "--timeout", "-2"])
    assert rc == 2 and "--timeout: must be a positive number of seconds" in capsys.readouterr().err


def test_limit_helpers():
    assert check_timeout(None) is None and check_timeout(2) == 2.0
    for bad in (0, -1, float("nan"), float("inf"), True, "5"):
        with pytest.raises(ValueError, match="timeout must be a positive number"):
            check_timeout(bad)
    with fit_timeout(0.2):
        with pytest.raises(FitTimeout) as e:
            with one_fit(fold=3):
                Slow(30.0).fit(np.zeros((2, 1)), np.array([0, 1]))
    assert e.value.fold == 3
    with one_fit(fold=1):                         # no limit in force: nothing happens
        pass


from conftest import requires_r  # noqa: E402


@requires_r("kknn")
def test_an_r_learner_is_limited_in_r():
    """The limit reaches R (option pybcv.timeout, setTimeLimit per fold in
    batch.R): kknn on 6,000 records cannot fit in 10 ms."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6000, 5))
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(RuntimeError, match=r"R learner 'kknn' failed on fold \d+ of 10, design "
                                           r"'bcv5x2': the fit took longer than the time limit of "
                                           r"0.01 s \(timeout\)"):
        compare(X, y, "kknn", "majority", backend="r", timeout=0.01)
    ok = compare(X[:100], y[:100], "kknn", "majority", backend="r", timeout=60)
    assert ok.backends[0] == "r"
    from r_bridge.session import get_r
    assert get_r().r("is.null(getOption('pybcv.timeout'))")[0]      # reset after the call


def test_simulate_records_a_fit_over_the_limit_as_a_failed_repetition(tmp_path, capsys):
    from pybcv.engine import simulate
    slow = {"name": "sklearn.neural_network.MLPClassifier", "hidden_layer_sizes": (300, 300),
            "max_iter": 5000, "tol": 0.0, "n_iter_no_change": 100000}
    res = simulate("simple", reps=2, seed=3, n=60, tests=["mcnemar_5x2bcv"], backend="python",
                   learner_a=slow, timeout=0.2)
    assert len(res.failures) == 2 and len(res.reps) == 0
    assert "the fit took longer than the time limit of 0.2 s" in str(res.failures[0])
    rc = main(["simulate", "--dataset", "simple", "--reps", "2", "--n", "60", "--tests",
               "mcnemar_5x2bcv", "--backend", "python", "--a", "majority", "--out",
               str(tmp_path / "run"), "--quiet", "--timeout", "30"])
    assert rc == 0
    capsys.readouterr()


def test_the_limit_holds_in_a_thread_that_is_not_the_main_one():
    """Outside the main thread (no SIGALRM there) the limit is raised in the
    fitting thread by a timer thread; before, one_fit did nothing there."""
    from concurrent.futures import ThreadPoolExecutor

    def fit_in_thread():
        with fit_timeout(0.2):
            with pytest.raises(FitTimeout) as e:
                with one_fit(fold=4):
                    Slow(30.0).fit(np.zeros((2, 1)), np.array([0, 1]))
            with one_fit(fold=5):                 # ends in time: nothing raised later
                Slow(0.0).fit(np.zeros((2, 1)), np.array([0, 1]))
            time.sleep(0.4)                       # past the limit: the timer was disarmed
        return e.value.fold

    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(fit_in_thread).result() == 4


def test_dask_thread_workers_record_a_fit_over_the_limit_as_a_failed_repetition():
    """simulate() on a dask cluster of threads: each repetition whose fit
    outlasts the limit is recorded as a failure of that repetition."""
    distributed = pytest.importorskip("distributed")
    from pybcv.engine import simulate
    slow = {"name": "test_timeout.Slow", "seconds": 3.0}        # this module's Slow
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cl, distributed.Client(cl) as client:
        res = simulate("simple", reps=2, seed=3, n=60, tests=["mcnemar_5x2bcv"], backend="python",
                       learner_a=slow, timeout=0.3, scheduler=client, chunk=1)
    assert len(res.reps) == 0 and sorted(f["rep"] for f in res.failures) == [0, 1]
    assert all("the fit took longer than the time limit of 0.3 s" in f["message"]
               and f["fold"] == 1 for f in res.failures), res.failures
