"""The R backend: every R learner, batching, exactness against the Python
twins, errors, factors, missing packages.  Skipped locally (failed in CI)
when R or an R package is missing."""
from __future__ import annotations

import dataclasses
import warnings

import numpy as np

from pybcv.partitions import random_mx2
import pytest

from conftest import requires_r, terminal_sigint

from pybcv.learners import LEARNERS, make_learner
import pybcv.learners.base as lbase

pytestmark = requires_r("RWeka", "kknn", "tree", "mlbench")


# --------------------------------------------------------------------- data
def halves(n, reps, seed):
    """``reps`` random half/half splits and their swaps (an m x 2 random CV)."""
    return random_mx2(n, seed, m=reps)


def r_matrix(ro, expr):
    """A numeric R matrix as a numpy array (copied; R stores by column)."""
    m = ro.r(expr)
    nrow, ncol = (int(d) for d in ro.r["dim"](m))
    return np.array(list(m), dtype=float).reshape(ncol, nrow).T


@pytest.fixture(scope="module")
def iris(r_session):
    ro = r_session
    X = r_matrix(ro, "as.matrix(datasets::iris[, 1:4])")
    y = np.array(list(ro.r("as.character(datasets::iris$Species)")))
    return X, y


@pytest.fixture(scope="module")
def letter(r_session):
    ro = r_session
    ro.r("suppressMessages(data('LetterRecognition', package = 'mlbench'))")
    X = r_matrix(ro, "as.matrix(LetterRecognition[1:600, -1])")
    y = np.array(list(ro.r("as.character(LetterRecognition$lettr[1:600])")))
    return X, y


def accuracy(preds, y, splits):
    return float(np.mean(np.concatenate([p == y[te] for p, (_, te) in zip(preds, splits)])))


# --------------------------------------------------------------------- every learner fits
IRIS_RANGES = {
    "J48": (0.88, 1.0), "J48-unpruned": (0.88, 1.0), "JRip": (0.85, 1.0),
    "SMO": (0.85, 1.0), "Logistic": (0.85, 1.0), "kknn": (0.88, 1.0),
    "tree": (0.85, 1.0), "mean": (0.85, 1.0), "majority": (0.15, 0.45),
}


@pytest.mark.parametrize("name", sorted(IRIS_RANGES))
def test_r_learner_on_iris(name, iris):
    X, y = iris
    splits = halves(len(y), 2, seed=1)
    lrn = make_learner(name, backend="r")
    preds = lrn.predict_splits(X, y, splits)
    assert lrn.backend_ == "r"
    assert [p.shape for p in preds] == [te.shape for _, te in splits]
    assert all(p.dtype == y.dtype for p in preds)
    lo, hi = IRIS_RANGES[name]
    assert lo <= accuracy(preds, y, splits) <= hi


def test_glm_and_fnn_weighted_on_iris(iris):
    X, y = iris
    two = y != "setosa"                       # versicolor vs virginica
    X2, y2 = X[two], y[two]
    splits = halves(len(y2), 2, seed=2)
    glm = make_learner("glm", backend="r")
    assert 0.85 <= accuracy(glm.predict_splits(X2, y2, splits), y2, splits) <= 1.0
    assert glm.backend_ == "r"
    fnn = make_learner("fnn-weighted", omega=0.5, backend="r")
    splits = halves(len(y), 2, seed=3)
    assert 0.85 <= accuracy(fnn.predict_splits(X[:, 2:], y, splits), y, splits) <= 1.0


def test_fnn_distorted_on_letter(letter):
    X, y = letter
    splits = halves(len(y), 1, seed=4)
    lrn = make_learner("fnn-distorted", upsilon=1.0, backend="r")
    acc = accuracy(lrn.predict_splits(X, y, splits), y, splits)
    assert 0.5 <= acc <= 0.95          # 26 classes, 300 training records


# --------------------------------------------------------------------- batch == one by one
def six_class_data(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, 2)) * 3) / 2       # coarse grid: many distance ties
    y = np.where(X[:, 0] + rng.normal(size=n) > 0, 1, 0) + 2 * (X[:, 1] > 0.5) \
        + 2 * (X[:, 1] > 1.5)
    return X, y.astype(np.int64)


@pytest.mark.parametrize("name", ["J48", "J48-unpruned", "JRip", "SMO", "Logistic",
                                  "kknn", "tree", "majority", "mean", "fnn-weighted"])
def test_batch_equals_one_by_one(name):
    X, y = six_class_data()
    rng = np.random.default_rng(5)
    splits = halves(len(y), 2, seed=6)
    splits.append((rng.permutation(len(y))[:70], np.arange(len(y))))    # unsorted train
    batch = make_learner(name, backend="r").predict_splits(X, y, splits)
    for (tr, te), pb in zip(splits, batch):
        single = make_learner(name, backend="r").fit(X[tr], y[tr])
        assert single.backend_ == "r"
        np.testing.assert_array_equal(single.predict(X[te]), pb)


@pytest.mark.parametrize("name,options", [("J48", []), ("J48", ["-U"]), ("JRip", []),
                                          ("SMO", []), ("Logistic", []),
                                          ("SMO", ["-K", "weka.classifiers.functions.supportVector.RBFKernel"])])
def test_weka_fast_path_equals_rweka_interface(name, options):
    """The Java-side subsetting path gives the predictions of RWeka's own
    ``fun(y ~ ., data = d[tr, ])`` + ``predict(m, d[te, ])`` (fast = FALSE)."""
    import r_bridge
    X, y = six_class_data(n=200, seed=15)
    splits = halves(len(y), 2, seed=16)
    splits.append((np.random.default_rng(17).permutation(200)[:120], np.arange(200)))
    fast = r_bridge.predict_splits(name, X, y, splits, {"options": options}, ("RWeka",))
    slow = r_bridge.predict_splits(name, X, y, splits, {"options": options, "fast": False},
                                   ("RWeka",))
    for a, b in zip(fast, slow):
        np.testing.assert_array_equal(a, b)


def test_glm_batch_equals_one_by_one_and_stats_glm(r_session):
    rng = np.random.default_rng(7)
    X = rng.normal(size=(200, 2))
    y = (X[:, 0] - X[:, 1] + rng.normal(size=200) > 0).astype(int)
    splits = halves(200, 3, seed=8)
    batch = make_learner("glm", backend="r").predict_splits(X, y, splits)
    # glm.fit inside the batch loop == stats::glm + predict(type = "response") > 0.5
    ro = r_session
    ref = ro.r("""function(X, y, tr, te) {
        d <- data.frame(x1 = X[, 1], x2 = X[, 2], y = factor(y))
        m <- glm(y ~ x1 + x2, family = binomial, data = d[tr, ])
        as.integer(predict(m, d[te, ], type = "response") > 0.5)
    }""")
    from rpy2.robjects import FloatVector, IntVector
    Xr = ro.r["matrix"](FloatVector(X.T.ravel()), nrow=200)
    for (tr, te), pb in zip(splits, batch):
        single = make_learner("glm", backend="r").fit(X[tr], y[tr]).predict(X[te])
        np.testing.assert_array_equal(single, pb)
        r = np.array(list(ref(Xr, IntVector(y), IntVector(tr + 1), IntVector(te + 1))))
        np.testing.assert_array_equal(r, pb)


def test_named_r_learners_warnings_reach_python_once_per_message(r_session):
    """glm's R warnings on separable data (muffled before: walk27 B24) come
    back as one FitWarning per message, naming the learner and the folds,
    and a comparison says them per design."""
    import pybcv
    from pybcv.errors import FitWarning
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = np.where(X[:, 0] > 0, "a", "b")
    with pytest.warns(FitWarning) as got:
        make_learner("glm", backend="r").predict_splits(X, y, halves(200, 2, seed=1))
    msgs = [str(w.message) for w in got if issubclass(w.category, FitWarning)]
    assert "learner 'glm', 4 of 4 fits (first on fold 1): glm.fit: fitted probabilities " \
           "numerically 0 or 1 occurred" in msgs and len(msgs) == len(set(msgs))
    with pytest.warns(UserWarning, match="learner A \\(glm\\), 10 of 10 fits of bcv5x2"):
        res = pybcv.compare(X, y, "glm", "kknn", backend="r")
    assert ("learner A (glm), 10 of 10 fits of bcv5x2 (first on fold 1): glm.fit: fitted "
            "probabilities numerically 0 or 1 occurred") in res.warnings


# --------------------------------------------------------------------- exact twins
@pytest.mark.parametrize("name,params", [
    ("majority", {}), ("mean", {}),
    ("fnn-weighted", {"omega": 1.0}), ("fnn-weighted", {"omega": 0.29}),
    ("fnn-weighted", {"omega": 0.7}),
])
def test_r_and_python_agree_exactly(name, params):
    X, y = six_class_data(n=300, seed=9)
    splits = halves(len(y), 5, seed=10)
    # a training set with tied class counts (majority tie -> smallest label)
    tie = np.concatenate([np.flatnonzero(y == c)[:4] for c in (3, 1, 2)])
    splits.append((tie, np.arange(len(y))))
    r = make_learner(name, backend="r", **params).predict_splits(X, y, splits)
    p = make_learner(name, backend="python", **params).predict_splits(X, y, splits)
    for a, b in zip(r, p):
        np.testing.assert_array_equal(a, b)
    if name == "majority":
        assert np.all(r[-1] == 1)


@pytest.mark.parametrize("upsilon", [1.0, 30.09, 7.5])
def test_fnn_distorted_r_and_python_agree(letter, upsilon):
    X, y = letter
    splits = halves(len(y), 2, seed=11)
    r = make_learner("fnn-distorted", upsilon=upsilon, backend="r").predict_splits(X, y, splits)
    p = make_learner("fnn-distorted", upsilon=upsilon, backend="python").predict_splits(X, y, splits)
    for a, b in zip(r, p):
        np.testing.assert_array_equal(a, b)


def test_fnn_tie_goes_to_lowest_training_index():
    X = np.array([[0.0, 0.0], [0.0, 0.0], [2.0, 0.0], [1.0, 0.0]])
    y = np.array(["b", "a", "c", "z"])
    splits = [(np.array([0, 1, 2]), np.array([3]))]    # row 3 is equally close to 0, 1, 2
    for backend in ("r", "python"):
        out = make_learner("fnn-weighted", backend=backend).predict_splits(X, y, splits)
        assert out[0].tolist() == ["b"]


def test_kknn_python_close_to_r(iris):
    X, y = iris
    splits = halves(len(y), 2, seed=12)
    r = make_learner("kknn", backend="r").predict_splits(X, y, splits)
    p = make_learner("kknn", backend="python").predict_splits(X, y, splits)
    assert np.mean(np.concatenate(r) == np.concatenate(p)) >= 0.98


# --------------------------------------------------------------------- errors
def test_glm_on_three_classes_names_learner_and_fold(iris):
    import r_bridge
    X, y = iris
    with pytest.raises(r_bridge.RLearnerError, match=r"'glm'.*fold 1 of 4.*3 classes") as ei:
        make_learner("glm", backend="r").predict_splits(X, y, halves(len(y), 2, seed=1))
    assert ei.value.learner == "glm" and ei.value.fold == 1


def test_java_error_names_learner_fold_and_r_survives(iris, r_session):
    import r_bridge
    X, y = iris
    splits = halves(len(y), 2, seed=1)
    # SMO cannot train on a single class: make fold 3's training set unary
    splits[2] = (np.flatnonzero(y == "setosa"), splits[2][1])
    with pytest.raises(r_bridge.RLearnerError, match=r"'SMO'.*fold 3 of 4") as ei:
        make_learner("SMO", backend="r").predict_splits(X, y, splits)
    assert ei.value.fold == 3 and ei.value.r_message
    # a broken Weka option: refused before any fit, with Weka's own reason
    with pytest.raises(ValueError, match=r"learner 'J48': Weka rejects the options "
                                         r"\['-C', 'not-a-number'\]: .*NumberFormatException"):
        make_learner("J48", options=["-C", "not-a-number"], backend="r").predict_splits(X, y, splits)
    # ... and at the bridge's level (no check first) the fit's Java exception comes back
    with pytest.raises(r_bridge.RLearnerError, match=r"'J48'.*fold 1.*NumberFormatException"):
        r_bridge.predict_splits("J48", X, y, splits, {"options": ["-C", "not-a-number"]},
                                ("RWeka",))
    # R and the JVM are still usable
    ok = make_learner("J48", backend="r").predict_splits(X, y, halves(len(y), 1, seed=2))
    assert accuracy(ok, y, halves(len(y), 1, seed=2)) > 0.85
    assert r_session.r("1 + 1")[0] == 2


def test_options_are_values_not_code(iris, r_session):
    """A string that would be R code if pasted into source stays a Weka option."""
    import r_bridge
    X, y = iris
    r_session.r("pybcv_canary <- 1")
    evil = '0.25"); pybcv_canary <- 2; ("'
    with pytest.raises(ValueError, match="'J48': Weka rejects the options"):
        make_learner("J48", options=["-C", evil], backend="r").predict_splits(
            X, y, halves(len(y), 1, seed=1))
    with pytest.raises(r_bridge.RLearnerError, match="J48"):
        r_bridge.predict_splits("J48", X, y, halves(len(y), 1, seed=1),
                                {"options": ["-C", evil]}, ("RWeka",))
    assert r_session.r("pybcv_canary")[0] == 1


def test_weka_options_reach_weka(iris):
    X, y = iris
    splits = halves(len(y), 1, seed=3)
    big_leaves = make_learner("J48", options="-M 40", backend="r").predict_splits(X, y, splits)
    default = make_learner("J48", backend="r").predict_splits(X, y, splits)
    listed = make_learner("J48", options=["-M", "40"], backend="r").predict_splits(X, y, splits)
    for a, b in zip(big_leaves, listed):
        np.testing.assert_array_equal(a, b)
    assert any((a != b).any() for a, b in zip(big_leaves, default))


def test_single_fit_error_is_reported():
    import r_bridge
    X = np.random.default_rng(0).normal(size=(30, 2))
    y = np.repeat([0, 1, 2], 10)
    with pytest.raises(r_bridge.RLearnerError, match=r"'glm' failed in fit"):
        make_learner("glm", backend="r").fit(X, y)


# --------------------------------------------------------------------- factors
def test_categorical_predictors_become_factors():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(13)
    n = 240
    df = pd.DataFrame({
        "num": rng.normal(size=n),
        "cat": pd.Categorical(rng.choice(["lo", "mid", "hi"], n), categories=["lo", "mid", "hi"]),
        "obj": rng.choice(["u", "v"], n).astype(object),
    })
    y = np.where((df["cat"] == "hi") | ((df["obj"] == "u") & (df["num"] > 0)), "yes", "no")
    splits = halves(n, 2, seed=14)
    for name in ["J48", "tree", "kknn", "glm", "SMO", "Logistic", "JRip"]:
        lrn = make_learner(name, backend="r")
        preds = lrn.predict_splits(df, y, splits)
        assert accuracy(preds, y, splits) > 0.85, name
        tr, te = splits[0]
        single = make_learner(name, backend="r").fit(df.iloc[tr], y[tr]).predict(df.iloc[te])
        np.testing.assert_array_equal(single, preds[0])
    # the R data frame really has factors
    import r_bridge
    from r_bridge.convert import to_columns
    cols = to_columns(df)
    assert cols.schema.kinds == ("num", "fac", "fac")
    assert cols.schema.levels[1] == ("lo", "mid", "hi")


# --------------------------------------------------------------------- data sent once
def test_data_sent_to_r_once(iris, r_session):
    import r_bridge
    import r_bridge.bridge as bridge
    X, y = iris
    r_bridge.clear_cache()
    env = bridge._r_env()["env"]
    calls = []
    orig = bridge._register
    bridge._register = lambda *a: (calls.append(1), orig(*a))
    try:
        for name in ["majority", "mean", "J48"]:
            make_learner(name, backend="r").predict_splits(X, y, halves(len(y), 2, seed=1))
    finally:
        bridge._register = orig
    assert len(calls) == 1
    assert len(r_session.r["ls"](env["datasets"])) == 1


def test_data_sets_held_for_the_bridge_stay_bounded(r_session):
    """A simulation sends a new data set per repetition: neither R nor the
    bridge's Python-side record of them may grow with the number sent."""
    import r_bridge
    import r_bridge.bridge as bridge
    r_bridge.clear_cache()
    env = bridge._r_env()["env"]
    cap = int(env["max_datasets"][0])
    lrn = make_learner("majority", backend="r")
    first = None
    for seed in range(3 * cap):
        X, y = six_class_data(n=40, seed=seed)
        preds = lrn.predict_splits(X, y, halves(len(y), 1, seed=seed))
        first = first or (X, y, preds)
        held = set(r_session.r["ls"](env["datasets"]))
        assert len(held) <= cap
        assert set(bridge._env["keys"]) == held
    X, y, preds = first                  # evicted long ago: sent again, same result
    again = lrn.predict_splits(X, y, halves(len(y), 1, seed=0))
    for a, b in zip(preds, again):
        np.testing.assert_array_equal(a, b)


# --------------------------------------------------------------------- missing pieces
def test_missing_r_package_gives_clear_error(monkeypatch):
    import r_bridge
    with pytest.raises(r_bridge.RUnavailableError,
                       match=r"pybcvNoSuchPkg.*bash scripts/setup.sh"):
        r_bridge.require_r(["stats", "pybcvNoSuchPkg"], what="a test")
    spec = dataclasses.replace(LEARNERS["majority"], r_packages=("pybcvNoSuchPkg",))
    monkeypatch.setitem(lbase.LEARNERS, "majority", spec)
    with pytest.raises(r_bridge.RUnavailableError, match=r"'majority'.*pybcvNoSuchPkg.*setup.sh"):
        make_learner("majority", backend="r").predict_splits(
            np.zeros((4, 1)), np.array([0, 1, 1, 0]), [([0, 1], [2, 3])])
    monkeypatch.setattr(lbase, "_warned", set())
    lrn = make_learner("majority", backend="auto")
    with pytest.warns(RuntimeWarning, match="pybcvNoSuchPkg"):
        lrn.predict_splits(np.zeros((4, 1)), np.array([0, 1, 1, 0]), [([0, 1], [2, 3])])
    assert lrn.backend_ == "python"
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # warned once only
        lrn.predict_splits(np.zeros((4, 1)), np.array([0, 1, 1, 0]), [([0, 1], [2, 3])])


def test_auto_uses_r_when_available(iris):
    X, y = iris
    lrn = make_learner("J48")
    lrn.predict_splits(X, y, halves(len(y), 1, seed=1))
    assert lrn.backend_ == "r"


# --------------------------------------------------------------------- processes
def test_spawned_workers_start_their_own_r():
    """loky workers (fresh processes) each start their own embedded R lazily.
    backend="r" makes a worker without R fail rather than fall back."""
    joblib = pytest.importorskip("joblib")
    X, y = six_class_data(n=60, seed=1)
    designs = [halves(60, 1, seed=s) for s in (1, 2)]
    lrn = make_learner("mean", backend="r")
    res = joblib.Parallel(n_jobs=2, backend="loky")(
        joblib.delayed(lrn.predict_splits)(X, y, d) for d in designs)
    for d, out in zip(designs, res):
        for a, b in zip(out, lrn.predict_splits(X, y, d)):
            np.testing.assert_array_equal(a, b)
    assert lrn.backend_ == "r"


def test_jvm_inherited_through_fork_is_refused(monkeypatch):
    import r_bridge
    from r_bridge import session
    monkeypatch.setitem(session._state, "java_pid", -12345)    # "started by a parent"
    with pytest.raises(r_bridge.RUnavailableError, match="fork"):
        make_learner("J48", backend="r").predict_splits(
            *six_class_data(n=40), halves(40, 1, seed=1))


# --------------------------------------------------------------------- trust: names, faults, Ctrl-C
def test_j48_unpruned_is_weka_j48_with_minus_U(r_session):
    """The bridge's name table: "J48-unpruned" is J48 -U, not a pruned J48."""
    import r_bridge
    from r_bridge.bridge import resolve_learner
    assert resolve_learner("J48-unpruned", {}) == ("J48", {"options": ["-U"]})
    assert resolve_learner("J48-unpruned", {"options": "-M 5"}) == ("J48", {"options": ["-U", "-M 5"]})
    assert resolve_learner("J48-unpruned", {"options": ["-U"]}) == ("J48", {"options": ["-U"]})
    from pybcv.datasets import exp6
    d = exp6(5, n=300)                   # the experiment that uses J48-unpruned
    X, y = d.X, d.y
    splits = halves(300, 3, seed=4)
    via_name = r_bridge.predict_splits("J48-unpruned", X, y, splits, {}, ("RWeka",))
    with_u = r_bridge.predict_splits("J48", X, y, splits, {"options": ["-U"]}, ("RWeka",))
    pruned = r_bridge.predict_splits("J48", X, y, splits, {}, ("RWeka",))
    assert all(np.array_equal(a, b) for a, b in zip(via_name, with_u))
    assert any(not np.array_equal(a, b) for a, b in zip(via_name, pruned))
    model = r_bridge.fit_model("J48-unpruned", X, y, {}, ("RWeka",))
    tr, te = splits[0]
    assert np.array_equal(r_bridge.predict_model(r_bridge.fit_model("J48-unpruned", X[tr], y[tr], {}, ("RWeka",)), X[te]),
                          via_name[0])
    assert model.learner == "J48-unpruned"


def test_r_error_carries_learner_fold_and_the_engines_design_and_repetition(iris):
    import r_bridge
    X, y = iris
    with pytest.raises(r_bridge.RLearnerError) as ei:
        make_learner("glm", backend="r").predict_splits(X, y, halves(len(y), 2, seed=1))
    e = ei.value.set_context(design="random_2x2", repetition=17)
    assert (e.learner, e.fold, e.n_folds, e.design, e.repetition) == ("glm", 1, 4, "random_2x2", 17)
    assert str(e).startswith("R learner 'glm' failed on fold 1 of 4, design 'random_2x2', "
                             "repetition 17: glm is a 2-class learner")


def test_kknn_on_a_training_fold_with_one_class_predicts_that_class(iris):
    """kknn::kknn fails on a one-class training set ("incorrect number of
    dimensions"); the defined behaviour (as the Python fallback's): every
    neighbour has that class, so predict it."""
    X, y = iris
    splits = halves(len(y), 1, seed=3)
    splits[0] = (np.flatnonzero(y == "setosa")[:30], splits[0][1])
    out = make_learner("kknn", backend="r").predict_splits(X, y, splits)
    assert set(out[0]) == {"setosa"}
    fb = make_learner("kknn", backend="python").predict_splits(X, y, splits)
    assert np.array_equal(out[0], fb[0])


CHILD = r"""
import sys, time, numpy as np
import r_bridge
learner, pk = sys.argv[1], (sys.argv[2],)
rng = np.random.default_rng(0)
X = rng.normal(size=(600, 5)); y = (X[:, 0] + rng.normal(size=600) > 0).astype(int)
splits = [(np.sort(rng.permutation(600)[:300]), np.arange(300)) for _ in range(20000)]
r_bridge.predict_splits(learner, X, y, splits[:2], {}, pk)      # R and the package loaded
print("started", flush=True)
try:
    r_bridge.predict_splits(learner, X, y, splits, {}, pk)      # minutes without Ctrl-C
    print("finished without interruption", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    print("R usable:", len(r_bridge.predict_splits(learner, X, y, splits[:3], {}, pk)), flush=True)
    sys.exit(42)
"""


@pytest.mark.parametrize("learner,package", [("tree", "tree"), ("J48", "RWeka")])
def test_ctrl_c_stops_a_long_r_batch(tmp_path, learner, package):
    """SIGINT during a long in-process R batch: KeyboardInterrupt once R
    returns (not rpy2's "Exception ignored from cffi callback" and a run
    that goes on), and R stays usable afterwards."""
    import signal
    import subprocess
    import sys
    import time
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    root = __import__("os").path.dirname(__import__("os").path.dirname(__file__))
    env = dict(__import__("os").environ, PYTHONPATH=root)
    p = subprocess.Popen([sys.executable, str(script), learner, package], env=env, cwd=root,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=terminal_sigint)
    try:
        assert p.stdout.readline().strip() == "started"
        time.sleep(1.0)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    assert "interrupted" in out and "finished" not in out, (out, err[-2000:])
    assert "R usable: 3" in out and p.returncode == 42, (out, err[-2000:])
    assert "Exception ignored" not in err


OOM_CHILD = r"""
import numpy as np, r_bridge
from pybcv import datasets as D
X, y = D.letter_population()
splits = [(np.arange(0, 10000), np.arange(10000, 20000)), (np.arange(10000, 20000), np.arange(0, 10000))]
try:
    r_bridge.predict_splits("J48", X, y, splits, {}, ("RWeka",))
    print("no error")
except r_bridge.RLearnerError as e:
    print("ERROR", e.java_out_of_memory, e.fold, str(e))
X2 = np.random.default_rng(1).normal(size=(100, 2)); y2 = (X2[:, 0] > 0).astype(int)
out = r_bridge.predict_splits("J48", X2, y2, [(np.arange(50), np.arange(50, 100))], {}, ("RWeka",))
print("Weka usable:", float(np.mean(out[0] == y2[50:])) > 0.8)
"""


def test_java_out_of_memory_is_said_in_words_and_weka_recovers(tmp_path):
    """With a 12 MB Java heap, J48 on the 20,000 letter records runs out of
    memory: the error says so (heap size, learner, fold) instead of
    "no description because toString() failed", and Weka works afterwards."""
    import os
    import subprocess
    import sys
    from pybcv.datasets import LETTER_CSV
    if not os.path.exists(LETTER_CSV):
        pytest.skip("the letter data are not present")
    script = tmp_path / "oom.py"
    script.write_text(OOM_CHILD)
    root = os.path.dirname(os.path.dirname(__file__))
    env = dict(os.environ, PYTHONPATH=root, PYBCV_JAVA_HEAP="12m")
    r = subprocess.run([sys.executable, str(script)], env=env, cwd=root, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    err_line = [l for l in r.stdout.splitlines() if l.startswith("ERROR")]
    assert err_line, r.stdout
    assert err_line[0].startswith("ERROR True 1 R learner 'J48' failed on fold 1 of 2: ")
    assert "(heap 12 MB)" in err_line[0] and "toString() failed" not in err_line[0]
    assert "Weka usable: True" in r.stdout


def test_java_heap_setting_is_checked(monkeypatch):
    from r_bridge import session
    monkeypatch.setenv("PYBCV_JAVA_HEAP", "2g")
    assert session.java_heap_setting() == "2g"
    monkeypatch.setenv("PYBCV_JAVA_HEAP", "lots")
    with pytest.raises(ValueError, match=r"PYBCV_JAVA_HEAP='lots': write a size such as 2g"):
        session.java_heap_setting()


@pytest.mark.parametrize("name,options,reason", [
    ("J48", "-Z", r"Illegal options: -Z"),
    ("J48-unpruned", "-C 0.2", r"Doesn't make sense to change confidence for unpruned tree"),
    ("SMO", "-Q", r"Illegal options: -Q"),
    ("Logistic", "-R x", r"NumberFormatException"),
])
def test_weka_options_checked_by_weka_before_any_fit(iris, monkeypatch, name, options, reason):
    import r_bridge.bridge as bridge
    X, y = iris
    fits = []
    real = bridge.predict_splits
    monkeypatch.setattr(bridge, "predict_splits", lambda *a, **k: fits.append(1) or real(*a, **k))
    with pytest.raises(ValueError, match=f"learner '{name}': Weka rejects the options .*{reason}"):
        make_learner(name, options=options, backend="r").predict_splits(X, y, halves(len(y), 1, 1))
    assert fits == []
    ok = make_learner(name, options="-M 5" if name.startswith("J48") else None, backend="r")
    assert len(ok.predict_splits(X, y, halves(len(y), 1, 1))) == 2


def test_the_command_line_refuses_weka_options_weka_rejects_before_any_fit(iris, capsys, monkeypatch):
    """A new-user walk: `--a "J48:options=-Z"` started the run and failed in
    its first design (exit 1, "learner 'J48', design 'bcv5x2': learner
    'J48': ..."); Weka's own check now runs before any fit (exit 2, naming
    --a, the learner once).  A Java exception of a fit (JRip's -F 0 divides
    by zero) names the options it ran with."""
    import r_bridge.bridge as bridge
    from pybcv.cli import main
    fits = []
    real = bridge.predict_splits
    monkeypatch.setattr(bridge, "predict_splits", lambda *a, **k: fits.append(1) or real(*a, **k))
    assert main(["compare", "--a", "J48:options=-Z", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "--a: learner 'J48': Weka rejects the options ['-Z']: Illegal options: -Z" in err, err
    assert err.count("learner 'J48'") == 1 and fits == []
    X, y = iris
    with pytest.raises(bridge.RLearnerError, match=r"'JRip' failed on fold 1 of 2: java\.lang\.Arithmetic"
                                                   r"Exception: / by zero \(with the Weka options -F 0\)"):
        make_learner("JRip", options="-F 0", backend="r").predict_splits(X, y, halves(len(y), 1, 1))


def test_resume_of_an_auto_run_never_mixes_r_and_the_stand_ins(tmp_path, monkeypatch):
    """An outside review: a backend="auto" run stored with the Python
    stand-ins (R unavailable) and resumed where R is ran its new repetitions
    in R (stored "python/python" then "r/r"), silently.  Refused now."""
    from pybcv.engine import RunConfig, simulate
    from pybcv.errors import ConfigMismatch
    cfg = RunConfig("simple", ["mcnemar_ho"], seed=2, n=100)
    out = str(tmp_path / "au")
    monkeypatch.setattr(lbase, "r_problem", lambda pkgs, what: "R is not installed")
    assert simulate(cfg, reps=1, out=out, progress=False).backends == ("python/python",)
    monkeypatch.undo()
    with pytest.raises(ConfigMismatch, match=r"ran the learners on python/python \(A/B\) and this "
                                             r"process would run them on r/r"):
        simulate(cfg, reps=2, out=out, resume=True, progress=False)
