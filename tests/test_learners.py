"""The learner protocol, the registry and the pure-Python fallbacks (R only for the marked R-agreement tests)."""
from __future__ import annotations

import warnings

import numpy as np

from pybcv.partitions import random_mx2
import pytest

from conftest import requires_r

sklearn = pytest.importorskip("sklearn")
from sklearn.base import clone  # noqa: E402

import pybcv.learners.base as lbase  # noqa: E402
from pybcv.learners import (LEARNERS, GLMFallback, NamedLearner, SklearnLearner,  # noqa: E402
                            as_learner, irls_logistic, make_learner)

NAMES = ["J48", "J48-unpruned", "JRip", "SMO", "Logistic", "kknn", "tree", "glm",
         "majority", "mean", "fnn-weighted", "fnn-distorted"]
# the MNIST CNNs take images; their protocol tests live in tests/test_mnist.py
IMAGE_NAMES = ["cnn", "cnn-dropout"]


def halves(n, reps, seed):
    """``reps`` random half/half splits and their swaps (an m x 2 random CV)."""
    return random_mx2(n, seed, m=reps)


def data(n=200, p=2, k=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.7 if p > 1 else 0) * (k > 2)
    return X, y.astype(np.int64)


def X_for(name, X):
    if name == "fnn-distorted":
        return np.tile(X, 8)
    return X


# --------------------------------------------------------------------- registry
def test_registry_has_the_papers_learners():
    assert sorted(LEARNERS) == sorted(NAMES + IMAGE_NAMES)
    for name, spec in LEARNERS.items():
        assert spec.name == name and spec.description and spec.r_implementation
        assert isinstance(spec.params, dict)
        est = make_learner(name, backend="python")
        assert est.name == name
        assert isinstance(est, NamedLearner) or name.startswith("cnn")   # PyTorch only
        assert set(spec.params) <= set(est.get_params())
    assert make_learner("J48-unpruned").get_params()["unpruned"] is True
    assert LEARNERS["J48"].r_packages == ("RWeka",)


def test_unknown_learner_name_lists_known_names():
    with pytest.raises(ValueError, match=r"unknown learner 'C5\.0'.*J48.*fnn-weighted.*majority"):
        make_learner("C5.0")
    with pytest.raises(ValueError, match="backend"):
        make_learner("J48", backend="java")
    with pytest.raises(ValueError, match="no parameter"):
        make_learner("majority", omega=2.0)


@pytest.mark.parametrize("name,params", [("fnn-weighted", {"omega": 0.0}),
                                         ("fnn-weighted", {"omega": -1.0}),
                                         ("fnn-distorted", {"upsilon": 0.0}),
                                         ("fnn-distorted", {"upsilon": -2})])
def test_omega_and_upsilon_must_be_positive(name, params):
    with pytest.raises(ValueError, match="must be (a finite number )?> 0"):
        make_learner(name, **params)
    # also when set later, at fit time, on both backends' code paths
    lrn = make_learner(name, backend="python").set_params(**params)
    X = np.zeros((4, 2 if name == "fnn-weighted" else 16))
    with pytest.raises(ValueError, match="must be (a finite number )?> 0"):
        lrn.fit(X, [0, 1, 0, 1])
    fb = LEARNERS[name].python_fallback(**params)
    with pytest.raises(ValueError, match="must be (a finite number )?> 0"):
        fb.predict_splits(X, np.array([0, 1, 0, 1]), [([0, 1], [2, 3])])


# --------------------------------------------------------------------- sklearn protocol
@pytest.mark.parametrize("name", NAMES)
def test_clone_get_set_params(name):
    lrn = make_learner(name, backend="python")
    params = lrn.get_params()
    assert params["backend"] == "python"
    c = clone(lrn)
    assert type(c) is type(lrn) and c.get_params() == params
    if "omega" in params:
        assert c.set_params(omega=0.5).omega == 0.5 and lrn.omega == 1.0
    X, y = data()
    X = X_for(name, X)
    if name == "glm":
        y = (y > 0).astype(int)
    fitted = c.fit(X, y)
    assert fitted is c and c.backend_ == "python"
    assert not hasattr(clone(c), "backend_")             # clone drops fitted state
    pred = c.predict(X)
    assert pred.shape == y.shape and set(np.unique(pred)) <= set(np.unique(y))


@pytest.mark.parametrize("name", NAMES)
def test_python_batch_equals_one_by_one(name):
    X, y = data(n=160, seed=1)
    X = X_for(name, X)
    if name == "glm":
        y = (y > 0).astype(int)
    splits = halves(len(y), 2, seed=2)
    splits.append((np.random.default_rng(3).permutation(len(y))[:50], np.arange(len(y))))
    lrn = make_learner(name, backend="python")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batch = lrn.predict_splits(X, y, splits)
    assert lrn.backend_ == "python"
    for (tr, te), pb in zip(splits, batch):
        assert pb.dtype == y.dtype
        single = make_learner(name, backend="python").fit(X[tr], y[tr]).predict(X[te])
        np.testing.assert_array_equal(single, pb)
    acc = np.mean(np.concatenate([p == y[te] for p, (_, te) in zip(batch, splits)]))
    assert acc > (0.3 if name == "majority" else 0.75)


def test_labels_keep_values_and_dtype():
    X, y = data(n=90, seed=4)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    splits = halves(90, 1, seed=5)
    for name in ["majority", "mean", "fnn-weighted", "kknn", "J48"]:
        out = make_learner(name, backend="python").predict_splits(X, names, splits)
        assert all(o.dtype == names.dtype for o in out)
        assert set(np.concatenate(out)) <= set(names)


# --------------------------------------------------------------------- exact rules
def test_majority_tie_goes_to_smallest_label():
    y = np.array([5, 2, 5, 2, 9])
    lrn = make_learner("majority", backend="python")
    out = lrn.predict_splits(np.zeros((5, 1)), y, [([0, 1, 2, 3], [4]), ([4, 0], [1])])
    assert out[0].tolist() == [2] and out[1].tolist() == [5]
    assert lrn.fit(np.zeros((4, 1)), y[:4]).predict(np.zeros((1, 1))).tolist() == [2]


def test_mean_classifier_by_hand():
    X = np.array([[0.0, 0.0], [2.0, 0.0], [10.0, 10.0], [12.0, 10.0], [5.5, 5.0]])
    y = np.array(["a", "a", "b", "b", "b"])
    out = make_learner("mean", backend="python").predict_splits(
        X, y, [([0, 1, 2, 3], [4, 0, 2])])
    # means (1, 0) and (11, 10): (5.5, 5) is 45.25 from a and 55.25 from b
    assert out[0].tolist() == ["a", "a", "b"]
    # an exact tie between the two means goes to the smaller label
    X2 = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 0.0]])
    tie = make_learner("mean", backend="python").predict_splits(
        X2, np.array(["b", "a", "z"]), [([0, 1], [2])])
    assert tie[0].tolist() == ["a"]


def test_fnn_weighted_distance_and_ties():
    # omega stretches x1: with omega = 4, (1, 0) is 4 away, (0, 1.5) is 0.5625 away
    X = np.array([[1.0, 0.0], [0.0, 1.5], [0.0, 0.0]])
    y = np.array(["x1", "x2", "q"])
    out = make_learner("fnn-weighted", omega=4.0, backend="python").predict_splits(
        X, y, [([0, 1], [2])])
    assert out[0].tolist() == ["x2"]
    out = make_learner("fnn-weighted", omega=0.1, backend="python").predict_splits(
        X, y, [([0, 1], [2])])
    assert out[0].tolist() == ["x1"]
    # a tie: the first training row wins (also with training rows given out of order)
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 0.0]])
    y = np.array(["r", "l", "q"])
    lrn = make_learner("fnn-weighted", backend="python")
    assert lrn.predict_splits(X, y, [([0, 1], [2])])[0].tolist() == ["r"]
    assert lrn.predict_splits(X, y, [([1, 0], [2])])[0].tolist() == ["l"]


def test_fnn_distorted_groups():
    from pybcv.learners.fallbacks import LETTER_GROUPS
    assert sorted(sum(map(list, LETTER_GROUPS), [])) == list(range(16))
    assert [g[0] + 1 for g in LETTER_GROUPS] == [1, 2, 5]
    # moving along a C1 column costs upsilon, along C3 1/upsilon
    a = np.zeros(16); b1 = np.zeros(16); b3 = np.zeros(16)
    b1[0] = 1.0; b3[4] = 1.5
    X = np.vstack([b1, b3, a])
    y = np.array(["c1", "c3", "q"])
    big = make_learner("fnn-distorted", upsilon=10.0, backend="python")
    assert big.predict_splits(X, y, [([0, 1], [2])])[0].tolist() == ["c3"]
    small = make_learner("fnn-distorted", upsilon=1.0, backend="python")
    assert small.predict_splits(X, y, [([0, 1], [2])])[0].tolist() == ["c1"]
    with pytest.raises(ValueError, match="16"):
        small.predict_splits(X[:, :5], y, [([0, 1], [2])])


def test_python_glm_matches_unpenalised_logistic_regression():
    from sklearn.linear_model import LogisticRegression
    rng = np.random.default_rng(6)
    X = rng.normal(size=(400, 2))
    y = (X @ [1.0, -2.0] + rng.logistic(size=400) > 0.3).astype(int)
    Z = np.column_stack([np.ones(400), X])
    sets = [np.arange(0, 200), np.arange(100, 400), np.arange(400)]
    beta = irls_logistic(Z, y, sets)
    for b, tr in zip(beta, sets):
        ref = LogisticRegression(penalty=None, tol=1e-10, max_iter=10000).fit(X[tr], y[tr])
        np.testing.assert_allclose(b, np.r_[ref.intercept_, ref.coef_[0]], rtol=1e-4, atol=1e-5)


def test_python_glm_two_classes_only():
    X, y = data(n=60, seed=7)
    with pytest.raises(ValueError, match=r"fold \d of 2.*2-class"):
        make_learner("glm", backend="python").predict_splits(X, y, halves(60, 1, seed=8))
    # a one-class training set predicts that class
    yy = (y > 0).astype(int)
    one = np.flatnonzero(yy == 1)[:10]
    out = GLMFallback().predict_splits(X, yy, [(one, np.arange(60))])
    assert np.all(out[0] == 1)


def test_python_glm_converges_like_glm_fit():
    """The batched IRLS stops by glm.fit's deviance rule: every fold's
    coefficients are a fixed point (one more Newton step moves them < 1e-7)
    and equal the fold fitted alone, including a near-separated fold."""
    rng = np.random.default_rng(9)
    n = 500
    y = rng.integers(0, 2, n)
    X = np.column_stack([rng.normal(size=n) + 0.8 * y, rng.normal(size=n)])
    Z = np.column_stack([np.ones(n), X])
    sets = [np.sort(rng.permutation(n)[:k]) for k in (60, 250, 499)]
    sets.append(np.flatnonzero((X[:, 0] > 0.4) == y.astype(bool))[:40])      # separated
    sets.append(np.concatenate([sets[0], sets[0][:30]]))                    # repeated rows
    beta = irls_logistic(Z, y, sets)
    for i, (b, tr) in enumerate(zip(beta, sets)):
        # the separated fold (3) diverges for 25 steps, which magnifies rounding
        # (SIMD sums depend on memory alignment): equal to 1e-6 only
        tol = 1e-6 if i == 3 else 1e-11
        np.testing.assert_allclose(irls_logistic(Z, y, [tr])[0], b, rtol=tol, atol=tol)
    for b, tr in zip(beta[[0, 1, 2, 4]], [sets[i] for i in (0, 1, 2, 4)]):
        Zt, yt = Z[tr], y[tr]
        mu = 1 / (1 + np.exp(-Zt @ b))
        step = np.linalg.solve(Zt.T @ (Zt * (mu * (1 - mu))[:, None]), Zt.T @ (yt - mu))
        assert np.max(np.abs(step)) < 1e-7
    # the separated fold diverges as in glm.fit (|eta| clamped at 30), not NaN
    assert np.all(np.isfinite(beta[3])) and np.abs(beta[3][1]) > 5


# --------------------------------------------------------------------- wrappers, backends
def test_plain_sklearn_classifier_via_as_learner():
    from sklearn.neighbors import KNeighborsClassifier
    X, y = data(n=100, seed=10)
    splits = halves(100, 2, seed=11)
    knn = KNeighborsClassifier(n_neighbors=3)
    lrn = as_learner(knn)
    assert isinstance(lrn, SklearnLearner)
    out = lrn.predict_splits(X, y, splits)
    assert lrn.backend_ == "python"
    for (tr, te), o in zip(splits, out):
        np.testing.assert_array_equal(o, clone(knn).fit(X[tr], y[tr]).predict(X[te]))
    assert not hasattr(knn, "classes_")                  # the original is never fitted
    c = clone(lrn)
    assert c.get_params()["estimator__n_neighbors"] == 3
    assert as_learner(knn, n_neighbors=7).estimator.n_neighbors == 7
    named = make_learner("mean", backend="python")
    assert as_learner(named) is named
    assert as_learner("fnn-weighted", backend="python", omega=0.3).omega == 0.3
    with pytest.raises(TypeError):
        as_learner(42)


def test_backend_r_without_r_is_a_clear_error(monkeypatch):
    from r_bridge import RUnavailableError
    monkeypatch.setattr(lbase, "r_problem", lambda pkgs, what: f"{what} needs R: rpy2 missing")
    with pytest.raises(RUnavailableError, match=r"'J48'.*rpy2 missing.*bash scripts/setup.sh"):
        make_learner("J48", backend="r").fit(*data(n=20))


def test_auto_falls_back_with_one_warning(monkeypatch):
    monkeypatch.setattr(lbase, "r_problem", lambda pkgs, what: "R is not installed")
    monkeypatch.setattr(lbase, "_warned", set())
    X, y = data(n=40, seed=12)
    lrn = make_learner("tree")
    with pytest.warns(RuntimeWarning, match=r"'tree'.*R is not installed.*TreeFallback"):
        lrn.fit(X, y)
    assert lrn.backend_ == "python"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lrn.predict_splits(X, y, halves(40, 1, seed=1))
        make_learner("tree").fit(X, y)
    assert lrn.backend_ == "python"


def test_a_comparison_says_when_auto_ran_the_python_stand_ins(monkeypatch):
    """A new-user walk: compare(X, y, "J48", "kknn") without R ran the
    stand-ins with no word in the result (p 0.7919 where R gives 0.8036);
    the docs promise a warning.  Each such learner is now named in the
    comparison's warnings (printed, and in its JSON) and warned; a stand-in
    asked for (backend="python") gets no note."""
    from pybcv.comparison import compare
    monkeypatch.setattr(lbase, "r_problem", lambda pkgs, what: "R is not installed")
    X, y = data(n=60, seed=12)
    with pytest.warns(RuntimeWarning, match=r"learner A \(J48\) ran on its Python stand-in"):
        res = compare(X, y, "J48", "majority")
    assert res.backends == ("python", "python")
    notes = [w for w in res.warnings if "stand-in" in w]
    assert [n.split(" ran on")[0] for n in notes] == ["learner A (J48)", "learner B (majority)"]
    assert "R is not installed" in notes[0] and "J48Fallback" in notes[0] and notes[0] in str(res)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        quiet = compare(X, y, "J48", "majority", backend="python")
    assert not [w for w in quiet.warnings if "stand-in" in w]
    assert quiet.results["mcnemar_5x2bcv"].pvalue == res.results["mcnemar_5x2bcv"].pvalue
    with pytest.warns(RuntimeWarning, match=r"learner A \(J48:noise=0.1\) ran on its Python stand-in"):
        noisy = compare(X, y, {"name": "J48", "noise": 0.1}, "majority")     # through NoisyLearner
    assert noisy.backends == ("python", "python")


def test_weka_options_are_honoured_or_refused_by_fallbacks_never_ignored():
    X, y = data(n=120, seed=13)
    splits = halves(120, 2, seed=3)
    plain = make_learner("J48", backend="python").predict_splits(X, y, splits)
    big_leaf = make_learner("J48", options="-M 200", backend="python").predict_splits(X, y, splits)
    # -M 200 > training size: a single leaf predicting the training majority
    for p, (tr, te) in zip(big_leaf, splits):
        assert len(set(p)) == 1 and p[0] == np.bincount(y[tr]).argmax()
    assert any(not np.array_equal(a, b) for a, b in zip(plain, big_leaf))
    # -U is what the fallback does anyway (it never prunes): same tree
    unpruned = make_learner("J48", options="-U", backend="python").predict_splits(X, y, splits)
    assert all(np.array_equal(a, b) for a, b in zip(plain, unpruned))
    # SMO's complexity constant reaches SVC's C
    est = LEARNERS["SMO"].python_fallback(options="-C 0.01 -N 1")
    pipe = est._estimator(est.check_options())
    assert pipe[-1].C == 0.01 and type(pipe[0]).__name__ == "StandardScaler"
    # options without a counterpart are refused before any fit, naming the option
    for name, opts, flag in [("J48", "-C 0.1", "-C"), ("J48-unpruned", ["-R"], "-R"),
                             ("JRip", "-F 4", "-F"), ("Logistic", "-R 1e-4", "-R"),
                             ("SMO", "-K weka.classifiers.functions.supportVector.RBFKernel",
                              "-K")]:
        with pytest.raises(ValueError, match=f"Weka option '{flag}' cannot be honoured"):
            make_learner(name, options=opts, backend="python")
    with pytest.raises(ValueError, match=r"-M needs integer >= 1, got 'x'"):
        make_learner("J48", options="-M x", backend="python")
    with pytest.raises(ValueError, match=r"parameter options must be Weka options"):
        make_learner("J48", options=5)


def test_categorical_predictors_in_python_fallbacks():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(14)
    n = 200
    df = pd.DataFrame({"num": rng.normal(size=n),
                       "cat": pd.Categorical(rng.choice(["lo", "mid", "hi"], n)),
                       "obj": rng.choice(["u", "v"], n).astype(object)})
    y = np.where((df["cat"] == "hi") | ((df["obj"] == "u") & (df["num"] > 0)), 1, 0)
    splits = halves(n, 1, seed=15)
    for name in ["J48", "tree", "kknn", "glm", "SMO", "Logistic", "JRip"]:
        out = make_learner(name, backend="python").predict_splits(df, y, splits)
        acc = np.mean(np.concatenate([o == y[te] for o, (_, te) in zip(out, splits)]))
        assert acc > 0.8, name
    with pytest.raises(ValueError, match="numeric"):
        make_learner("mean", backend="python").fit(df, y)


def test_pickle_roundtrip_of_python_learner():
    import pickle
    X, y = data(n=50, seed=16)
    lrn = make_learner("kknn", backend="python").fit(X, y)
    again = pickle.loads(pickle.dumps(lrn))
    np.testing.assert_array_equal(again.predict(X), lrn.predict(X))


def test_weka_options_string_or_list():
    from pybcv.learners.base import weka_options
    assert weka_options("-C 0.1 -M 5") == ["-C", "0.1", "-M", "5"]
    assert weka_options(["-M", 5]) == ["-M", "5"]
    assert weka_options(None) == []
    assert make_learner("J48-unpruned", options="-M 5")._r_params() == {"options": ["-U", "-M", "5"]}


@requires_r()
@pytest.mark.parametrize("delta", [0.0, 0.5, 1.5])
def test_python_glm_predicts_as_r_glm_on_simple(delta):
    """The simple experiment's glm: the Python IRLS and R's glm.fit give the
    same prediction on every test record of one Table-5 repetition (8
    designs, 167 fits), and coefficients within 1e-7 of R's."""
    from pybcv.datasets import simple
    from pybcv.partitions import DESIGNS
    from pybcv.stats import TABLE5_TESTS, designs_for
    d = simple(np.random.default_rng(int(10 * delta) + 1), n=1000, delta=delta)
    rng = np.random.default_rng(3)
    splits = [sp for des in designs_for(TABLE5_TESTS) for sp in DESIGNS[des].splits(d.n, rng)]
    assert len(splits) == 167
    r = make_learner("glm", backend="r").predict_splits(d.X, d.y, splits)
    p = make_learner("glm", backend="python").predict_splits(d.X, d.y, splits)
    for a, b in zip(r, p):
        np.testing.assert_array_equal(a, b)
    import r_bridge
    ro = r_bridge.session.get_r()
    Z = np.column_stack([np.ones(d.n), d.X[:, 0]])
    yy = (d.y == np.max(d.y)).astype(float)
    beta = irls_logistic(Z, yy, [tr for tr, _ in splits[:20]])
    for b, (tr, _) in zip(beta, splits[:20]):
        ro.globalenv["zx"] = ro.FloatVector(d.X[tr, 0])
        ro.globalenv["zy"] = ro.FloatVector(yy[tr])
        ref = np.array(ro.r("coef(glm.fit(cbind(1, zx), zy, family = binomial()))"))
        np.testing.assert_allclose(b, ref, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("backend", ["python", pytest.param("r", marks=requires_r("RWeka", "kknn", "tree"))])
@pytest.mark.parametrize("name", [n for n in NAMES if n != "majority"])
def test_missing_values_are_an_error_not_a_number(name, backend):
    """NaN/inf in X or a missing label: a ValueError naming the column/row,
    from both backends, never predictions."""
    X, y = data(n=120, seed=4)
    X = X_for(name, X)
    if name == "glm":
        y = (y > 0).astype(int)
    splits = halves(len(y), 1, seed=5)
    lrn = make_learner(name, backend=backend)
    Xn = X.copy()
    Xn[7, 1] = np.nan
    with pytest.raises(ValueError, match=r"X column 1 has 1 missing or infinite.*row 7"):
        lrn.predict_splits(Xn, y, splits)
    Xi = X.copy()
    Xi[9, 0] = np.inf
    with pytest.raises(ValueError, match=r"X column 0 .*row 9"):
        lrn.predict_splits(Xi, y, splits)
    yn = y.astype(float)
    yn[11] = np.nan
    with pytest.raises(ValueError, match=r"y has 1 missing label.*row 11"):
        lrn.predict_splits(X, yn, splits)
    with pytest.raises(ValueError, match=r"X column 1 has 1 missing"):
        lrn.fit(Xn, y)


@pytest.mark.parametrize("backend", ["python", pytest.param("r", marks=requires_r("RWeka", "kknn", "tree"))])
@pytest.mark.parametrize("name", NAMES)
def test_x_and_y_of_different_lengths_are_an_error(name, backend):
    X, y = data(n=120, seed=4)
    X = X_for(name, X)
    if name == "glm":
        y = (y > 0).astype(int)
    lrn = make_learner(name, backend=backend)
    with pytest.raises(ValueError, match="X has 120 rows but y has 100"):
        lrn.predict_splits(X, y[:100], halves(100, 1, seed=5))
    with pytest.raises(ValueError, match="X has 120 rows but y has 100"):
        lrn.fit(X, y[:100])


def test_batched_2x2_solve_equals_lapack_and_handles_singular_systems():
    from pybcv.learners.fallbacks import _solve_batched
    rng = np.random.default_rng(12)
    A = rng.normal(size=(50, 2, 3))
    H = A @ A.transpose(0, 2, 1)
    g = rng.normal(size=(50, 2))
    np.testing.assert_allclose(_solve_batched(H, g), np.linalg.solve(H, g[..., None])[..., 0],
                               rtol=1e-10, atol=1e-12)
    S = H.copy()
    S[7] = [[2.0, 0.0], [0.0, 0.0]]            # an all-zero predictor column
    b = _solve_batched(S, g)
    np.testing.assert_allclose(b[7], [g[7, 0] / 2.0, 0.0])
    np.testing.assert_allclose(np.delete(b, 7, 0), np.delete(_solve_batched(H, g), 7, 0), rtol=1e-10)


# --------------------------------------------------------------------- specs and parameter checks
def test_parse_spec_reads_and_checks_every_parameter():
    from pybcv.learners import parse_spec
    assert parse_spec("fnn-weighted:omega=0.29") == {"name": "fnn-weighted", "omega": 0.29}
    assert parse_spec("kknn:k=7,kernel=epanechnikov") == {"name": "kknn", "k": 7,
                                                          "kernel": "epanechnikov"}
    assert parse_spec("J48:options=-M 5") == {"name": "J48", "options": "-M 5"}
    assert parse_spec(None) is None
    for spec, msg in [
        ("fnn-weighted:omega=Infinity", r"omega must be a finite number > 0, got inf"),
        ("fnn-weighted:omega=NaN", r"omega must be a finite number > 0, got nan"),
        ("fnn-distorted:upsilon=true", r"upsilon must be a finite number > 0, got True \(bool\)"),
        ("kknn:k=null", r"parameter k must be an integer >= 1, got None \(NoneType\)"),
        ("kknn:k=abc", r"parameter k must be an integer >= 1, got 'abc' \(str\)"),
        ("kknn:k=2.5", r"parameter k must be an integer >= 1, got 2.5 \(float\)"),
        ("kknn:kernel=box", r"parameter kernel must be one of triangular"),
        ("glm:threshold=1", r"parameter threshold must be a number in \(0, 1\)"),
        ("J48:options=-M '5", r"cannot be split into Weka options"),
        ("kknn:q=3", r"learner 'kknn' has no parameter\(s\) \['q'\]; its parameters: \['k', 'kernel'\]"),
        ("kknn:k", r"write name:param=value"),
        ("kknn:k=3,k=4", r"parameter k given twice"),
        ("C5.0:trials=3", r"unknown learner 'C5.0'"),
    ]:
        with pytest.raises(ValueError, match=msg):
            parse_spec(spec)
    # make_learner applies the same checks, and so does fit after set_params
    with pytest.raises(ValueError, match=r"parameter k must be an integer"):
        make_learner("kknn", k=None)
    lrn = make_learner("kknn", backend="python").set_params(k="abc")
    X, y = data(n=30, seed=2)
    with pytest.raises(ValueError, match=r"parameter k must be an integer"):
        lrn.fit(X, y)
    with pytest.raises(ValueError, match=r"kernel 'gaussian' has no Python fallback"):
        make_learner("kknn", kernel="gaussian", backend="python")


def test_engine_spec_parser_and_learners_parse_spec_agree_on_valid_specs():
    from pybcv.engine import spec_dict as learner_spec
    from pybcv.learners import parse_spec
    for s in ["fnn-weighted:omega=0.29", "kknn:k=7", "J48-unpruned", "J48:options=-M 5",
              {"name": "fnn-distorted", "upsilon": 30.09}]:
        assert parse_spec(s) == learner_spec(s)


# --------------------------------------------------------------------- predictions are labels
class _Returns:
    """A user's learner whose predict_splits returns what it is given."""

    def __init__(self, make):
        self.make = make

    def predict_splits(self, X, y, splits):
        return [self.make(np.asarray(y), te) for _, te in splits]


@pytest.mark.parametrize("make,msg", [
    (lambda y, te: np.full(len(te), 0.37), r"'_Returns', fold 1 of 4: predicted 0.37, which is not a label"),
    (lambda y, te: y[te].astype(float) * 0.999, r"not a label of y \(labels: 0, 1, 2\)"),
    (lambda y, te: np.full(len(te), "0"), r"predicted '0', which is not a label"),
    (lambda y, te: y[te][:-1], r"fold 1 of 4: predicted an array of shape \(19,\) for 20 test"),
    (lambda y, te: y[te].reshape(-1, 1), r"shape \(20, 1\)"),
])
def test_custom_learner_predictions_must_be_labels(make, msg):
    from pybcv.learners import PredictionError
    X, y = data(n=40, seed=5)
    lrn = as_learner(_Returns(make))
    with pytest.raises(PredictionError, match=msg) as e:
        lrn.predict_splits(X, y, halves(40, 2, seed=1))
    assert e.value.learner == "_Returns"


def test_wrong_number_of_prediction_arrays_and_good_predictions_pass():
    from pybcv.learners import PredictionError
    X, y = data(n=40, seed=5)

    class Short:
        def predict_splits(self, X, y, splits):
            return [np.asarray(y)[te] for _, te in list(splits)[:-1]]

    with pytest.raises(PredictionError, match=r"returned 3 prediction array\(s\) for 4 split"):
        as_learner(Short()).predict_splits(X, y, halves(40, 2, seed=1))
    good = as_learner(_Returns(lambda y, te: y[te])).predict_splits(X, y, halves(40, 2, seed=1))
    assert all(p.dtype == y.dtype for p in good)
    ys = np.array(["a", "bb"])[y % 2]           # labels of several lengths: still labels
    out = as_learner(_Returns(lambda y, te: y[te].astype(object))).predict_splits(X, ys, halves(40, 1, 2))
    assert out[0].dtype == ys.dtype


def test_sklearn_regressor_predicts_numbers_checked_finite():
    """A regressor's predictions are numbers, compared under a real-valued
    loss (docs/guide/losses.md); a non-finite one is refused naming the fold.
    (A regressor beside a classifier is refused by compare: test_losses.py.)"""
    from sklearn.base import BaseEstimator, RegressorMixin
    from sklearn.linear_model import LinearRegression
    from pybcv.learners import PredictionError

    class NaNRegressor(RegressorMixin, BaseEstimator):
        def fit(self, X, y):
            return self

        def predict(self, X):
            return np.full(len(X), np.nan)

    X, y = data(n=60, seed=8)
    out = as_learner(LinearRegression()).predict_splits(X, y, halves(60, 1, seed=1))
    assert all(p.dtype == float for p in out) and not np.all(np.isin(out[0], y))
    with pytest.raises(PredictionError, match=r"learner 'NaNRegressor', fold 1 of 2: "
                                              r"a regressor must predict finite numbers"):
        as_learner(NaNRegressor()).predict_splits(X, y, halves(60, 1, seed=1))
def test_no_alias_names_remain():
    import importlib
    import pybcv.engine
    import pybcv.learners
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("pybcv.learners.python")
    for old in ("WeightedFNN", "DistortedFNN", "KKNNClassifier", "GLMClassifier",
                "MajorityClassifier", "MeanClassifier"):
        assert not hasattr(pybcv.learners, old), old
    for old in ("learner_spec", "compare", "Comparison", "compare_losses"):
        assert not hasattr(pybcv.engine, old), old


@pytest.mark.parametrize("typo,near", [("J84", "J48"), ("knn", "kknn"), ("j48", "J48")])
def test_unknown_learner_name_suggests_the_nearest_registry_name(typo, near):
    """A typo of a registry name gets a did-you-mean (as import paths do), in
    Python and on the command line (one home: check_params)."""
    with pytest.raises(ValueError, match=rf"unknown learner '{typo}' \(did you mean '{near}'\?\); "
                                         r"known learners: "):
        make_learner(typo)
    from pybcv.comparison import compare
    with pytest.raises(ValueError, match=rf"did you mean '{near}'\?"):
        compare(np.zeros((40, 1)), np.arange(40) % 2, typo, "majority")


def test_cli_unknown_learner_suggests_the_nearest_registry_name(tmp_path, capsys):
    from pybcv.cli import main
    p = tmp_path / "d.csv"
    p.write_text("x,class\n" + "".join(f"{i},{'ab'[i % 2]}\n" for i in range(40)))
    assert main(["compare", "--csv", str(p), "--a", "J84"]) == 2
    assert "--a: unknown learner 'J84' (did you mean 'J48'?)" in capsys.readouterr().err


def test_a_bare_scikit_learn_class_name_gets_its_import_path():
    """'RandomForestClassifier' is no registry learner: the message gives
    the import path that names it (scikit-learn's estimator modules); a
    name that is no classifier or regressor of scikit-learn gets no such
    hint."""
    pytest.importorskip("sklearn")
    from pybcv.learners import make_learner
    with pytest.raises(ValueError, match=r"import path: 'sklearn\.ensemble\.RandomForestClassifier'"):
        make_learner("RandomForestClassifier")
    with pytest.raises(ValueError, match=r"import path: 'sklearn\.linear_model\.LogisticRegression'"):
        make_learner("LogisticRegression")
    for other in ("NoSuchClassifier", "KDTree", "NearestNeighbors"):   # no estimator to compare
        with pytest.raises(ValueError) as e:
            make_learner(other)
        assert "import path" not in str(e.value), other
