"""Other losses and regressors (issue 21 item 1; docs/guide/losses.md): the
t, F and z tests on per-fold mean loss differences, the 0/1-only tests
refused or dropped, scikit-learn regressors from Python and the CLI."""
import numpy as np
import pytest
from scipy import stats

import pybcv
from pybcv.cli import main
from pybcv.comparison import compare_losses, compare_predictions
from pybcv.partitions import DESIGNS
from pybcv.pipeline import design_generator


def _regression(n=200, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    return X, X @ [1.0, 2.0, 0.0] + rng.normal(size=n)


def _paired_t(d):
    """The paired t statistic and two-sided p of differences d, by hand."""
    t = d.mean() / (d.std(ddof=1) / np.sqrt(d.size))
    return t, 2 * stats.t.sf(abs(t), d.size - 1)


def test_loss_t_statistic_matches_an_independent_numpy_computation():
    # real-valued per-record losses of two fixed models; the 10-fold t reads
    # the per-fold mean loss differences of pybcv's cv10 folds for seed 3
    rng = np.random.default_rng(1)
    la, lb = rng.gamma(2.0, 1.5, 150), rng.gamma(2.0, 1.2, 150)
    cmp = compare_losses(la, lb, tests="kfold_t", seed=3, loss="squared")
    folds = DESIGNS["cv10"].splits(150, design_generator(3, "cv10"))
    d = np.array([la[te].mean() - lb[te].mean() for _, te in folds])
    t, p = _paired_t(d)
    assert np.abs(d).max() > 0 and cmp["kfold_t"].statistic == pytest.approx(t, rel=1e-12)
    assert cmp["kfold_t"].pvalue == pytest.approx(p, rel=1e-9)
    assert cmp["kfold_t"].estimate == pytest.approx(d.mean(), rel=1e-12)
    assert cmp.error_a == pytest.approx(la.mean()) and cmp.loss == "squared"


def test_regressors_compared_under_squared_loss_match_a_hand_computation():
    from sklearn.linear_model import Ridge
    from sklearn.tree import DecisionTreeRegressor
    X, y = _regression()
    a, b = Ridge(alpha=1.0), DecisionTreeRegressor(max_depth=2, random_state=0)
    cmp = pybcv.compare(X, y, a, b, tests="kfold_t", seed=0, backend="python")
    d = []
    for tr, te in DESIGNS["cv10"].splits(200, design_generator(0, "cv10")):
        ea = (y[te] - a.fit(X[tr], y[tr]).predict(X[te])) ** 2
        eb = (y[te] - b.fit(X[tr], y[tr]).predict(X[te])) ** 2
        d.append(ea.mean() - eb.mean())
    t, _ = _paired_t(np.array(d))
    assert cmp.loss == "squared"
    assert cmp["kfold_t"].statistic == pytest.approx(t, rel=1e-10)


def test_mcnemar_needs_zero_one_outcomes():
    rng = np.random.default_rng(2)
    la, lb = rng.random(100), rng.random(100)
    with pytest.raises(ValueError, match="mcnemar_5x2bcv need 0/1 outcomes"):
        compare_losses(la, lb, tests="mcnemar_5x2bcv", loss="log_loss")
    # a selection drops them, with a note naming them
    cmp = compare_losses(la, lb, tests="all", loss="log_loss")
    dropped = [k for k, t in pybcv.TESTS.items() if t.needs_zero_one]
    assert "mcnemar_5x2bcv" in dropped and not set(dropped) & set(cmp.results)
    assert any("mcnemar_5x2bcv" in w and "0/1" in w for w in cmp.warnings)
    # 0/1 losses without loss= are still refused when they are not 0/1
    with pytest.raises(ValueError, match="need 0/1 losses"):
        compare_losses(la, lb)


def test_regressor_loss_choices_are_checked():
    from sklearn.linear_model import Ridge
    X, y = _regression(60)
    with pytest.raises(ValueError, match="a learner is a regressor"):
        pybcv.compare(X, y, Ridge(), Ridge(alpha=2.0), loss="zero_one", backend="python")
    with pytest.raises(ValueError, match="'log' needs predicted class probabilities, but a "
                                         "learner is a regressor"):
        pybcv.compare(X, y, Ridge(), Ridge(alpha=2.0), loss="log_loss", backend="python")
    with pytest.raises(ValueError, match="Ridge is a regressor and majority is a classifier"):
        pybcv.compare(X, (y > 0).astype(int), Ridge(), "majority", backend="python")
    with pytest.raises(ValueError, match="numeric target with no classes"):
        pybcv.compare(X, y, Ridge(), Ridge(alpha=2.0), stratify=True, backend="python")


def test_a_cost_matrix_of_ones_is_the_zero_one_loss():
    from pybcv.datasets import exp6
    d = exp6(0, n=120)
    k = np.unique(d.y).size
    c01 = pybcv.compare(d.X, d.y, "majority", "fnn-weighted", tests="kfold_t", backend="python")
    cc = pybcv.compare(d.X, d.y, "majority", "fnn-weighted", tests="kfold_t", backend="python",
                       loss=np.ones((k, k)) - np.eye(k))
    assert cc.loss == "cost_matrix"
    assert cc["kfold_t"].statistic == pytest.approx(c01["kfold_t"].statistic, rel=1e-12)


def test_callable_loss_and_own_predictions():
    y = np.linspace(0.0, 3.0, 40)
    folds = DESIGNS["bcv5x2"].test_sets(40, np.random.default_rng(0))
    pa = [y[t] + 0.1 for t in folds]
    pb = [y[t] + 0.5 * np.sin(t) for t in folds]
    cmp = compare_predictions(y, pa, pb, test_sets=folds, loss="absolute")
    assert list(cmp.results) == ["calibrated_f_5x2bcv"]
    cmp2 = compare_predictions(y, pa, pb, test_sets=folds,
                               loss=lambda t, p: np.abs(np.asarray(t) - np.asarray(p)))
    assert cmp2["calibrated_f_5x2bcv"].statistic == pytest.approx(
        cmp["calibrated_f_5x2bcv"].statistic, rel=1e-12)


def _csv(tmp_path, n=120):
    X, y = _regression(n, seed=1)
    path = tmp_path / "reg.csv"
    lines = ["x1,x2,x3,price"] + [",".join(f"{v:.6f}" for v in (*x, t)) for x, t in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_cli_compares_regressors_by_import_path_on_a_csv(tmp_path, capsys):
    path = _csv(tmp_path)
    rc = main(["compare", "--csv", path, "--target", "price", "--quiet", "--tests", "kfold_t",
               "--a", "sklearn.linear_model.Ridge:alpha=1.0",
               "--b", "sklearn.tree.DecisionTreeRegressor:max_depth=2"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "mean squared losses over the 10 folds of cv10" in out
    assert "K-fold CV paired t-test" in out
    rc = main(["compare", "--csv", path, "--target", "price", "--quiet", "--loss", "absolute",
               "--a", "sklearn.linear_model.Ridge", "--b", "sklearn.linear_model.LinearRegression"])
    out, err = capsys.readouterr()
    assert rc == 0 and "mean absolute losses" in out and "not run under loss 'absolute'" in out


def test_cli_refuses_mcnemar_under_a_real_loss(tmp_path, capsys):
    path = _csv(tmp_path)
    rc = main(["compare", "--csv", path, "--target", "price", "--quiet",
               "--tests", "mcnemar_5x2bcv", "--a", "sklearn.linear_model.Ridge",
               "--b", "sklearn.linear_model.LinearRegression"])
    err = capsys.readouterr().err
    assert rc == 2 and "mcnemar_5x2bcv need 0/1 outcomes" in err and "Traceback" not in err
    rc = main(["compare", "--csv", path, "--target", "price", "--quiet", "--loss", "zero_one",
               "--a", "sklearn.linear_model.Ridge", "--b", "sklearn.linear_model.LinearRegression"])
    err = capsys.readouterr().err
    assert rc == 2 and "--loss" in err and "regressor" in err
    rc = main(["compare", "--csv", path, "--target", "price", "--quiet", "--stratify",
               "--a", "sklearn.linear_model.Ridge", "--b", "sklearn.linear_model.LinearRegression"])
    err = capsys.readouterr().err
    assert rc == 2 and "--stratify: it forms the blocks within the classes" in err


def test_cli_test_reads_numeric_predictions_under_squared_loss(tmp_path, capsys):
    folds = DESIGNS["bcv5x2"].test_sets(40, design_generator(0, "bcv5x2"))
    y = np.linspace(0.0, 3.0, 40)
    lines = ["fold,row,y,pred_a,pred_b"]
    for f, te in enumerate(folds):
        lines += [f"{f},{r},{y[r]!r},{y[r] + 0.1!r},{y[r] + 0.5 * np.sin(r)!r}" for r in te]
    path = tmp_path / "pred.csv"
    path.write_text("\n".join(lines) + "\n")
    rc = main(["test", "--predictions", str(path), "--loss", "squared", "--tests", "calibrated_f_5x2bcv"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    own = compare_predictions(y, [y[t] + 0.1 for t in folds], [y[t] + 0.5 * np.sin(t) for t in folds],
                              test_sets=folds, loss="squared")
    assert f"{own['calibrated_f_5x2bcv'].statistic:.4f}" in out
    rc = main(["test", "--predictions", str(path)])
    err = capsys.readouterr().err          # in the CLI's words, and said first for a numeric y
    assert rc == 2 and "a regression? give --loss squared or absolute" in err, err
    rc = main(["test", "--predictions", str(path), "--loss", "squared"])
    out, err = capsys.readouterr()         # the dropped tests are said once, not twice
    assert rc == 0 and (out + err).count("not run under loss 'squared'") == 1, out + err


# ---------------------------------------------------------------- log loss
def _two_classes(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + rng.normal(size=n) > 0, "pos", "neg")
    return X, y


def test_log_loss_of_predict_proba_matches_a_hand_computation():
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    X, y = _two_classes()
    a, b = LogisticRegression(), GaussianNB()
    cmp = pybcv.compare(X, y, a, b, tests="kfold_t", loss="log", seed=2, backend="python")
    d = []
    for tr, te in DESIGNS["cv10"].splits(120, design_generator(2, "cv10")):
        la = -np.log(a.fit(X[tr], y[tr]).predict_proba(X[te])[np.arange(te.size),
                                                                 (y[te] == "pos").astype(int)])
        lb = -np.log(b.fit(X[tr], y[tr]).predict_proba(X[te])[np.arange(te.size),
                                                                 (y[te] == "pos").astype(int)])
        d.append(la.mean() - lb.mean())
    t, _ = _paired_t(np.array(d))
    assert cmp.loss == "log" and cmp["kfold_t"].statistic == pytest.approx(t, rel=1e-9)
    # "log_loss" is the same loss; the default selection drops the McNemar test with a note
    c2 = pybcv.compare(X, y, a, b, loss="log_loss", backend="python")
    assert list(c2.results) == ["calibrated_f_5x2bcv"] and "not run under loss 'log'" in c2.warnings[0]
    with pytest.raises(ValueError, match="mcnemar_5x2bcv need 0/1 outcomes"):
        pybcv.compare(X, y, a, b, loss="log", tests="mcnemar_5x2bcv", backend="python")


def test_log_loss_columns_follow_the_labels_of_y_when_a_fold_lacks_a_class():
    # a class missing from a training fold gets probability 0 (clipped):
    # the columns are the labels of y, not those of the fold's model
    from pybcv.learners import SklearnLearner
    from sklearn.dummy import DummyClassifier
    y = np.array(["a"] * 9 + ["b", "c", "c"])
    X = np.zeros((12, 1))
    P = SklearnLearner(DummyClassifier(strategy="prior")).predict_proba_splits(
        X, y, [(np.arange(9), np.arange(9, 12))])[0]
    assert P.shape == (3, 3) and np.allclose(P, [[1, 0, 0]] * 3)
    loss = pybcv.losses.resolve_loss("log", y)
    assert np.allclose(loss(y[9:], P), -np.log(pybcv.losses.LOG_CLIP))      # 34.54 each


def test_log_loss_refuses_learners_without_predict_proba_naming_them():
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import SVC
    X, y = _two_classes()
    with pytest.raises(ValueError, match="learner SVC has no predict_proba .*probability=True"):
        pybcv.compare(X, y, LogisticRegression(), SVC(), loss="log", backend="python")
    with pytest.raises(ValueError, match="learner majority has no predict_proba"):
        pybcv.compare(X, y, "majority", LogisticRegression(), loss="log", backend="python")
    c = pybcv.compare(X, y, LogisticRegression(), SVC(probability=True), loss="log",
                      tests="kfold_t", backend="python")
    assert np.isfinite(c["kfold_t"].statistic)


def test_own_predictions_under_log_loss_need_probabilities():
    y = np.array(["neg", "pos"] * 20)
    folds = DESIGNS["cv10"].test_sets(40, design_generator(0, "cv10"))
    with pytest.raises(ValueError, match=r"pred_a, fold 0: loss 'log' needs predicted "
                                         r"probabilities.*labels are not probabilities"):
        compare_predictions(y, [y[t] for t in folds], [y[t] for t in folds], test_sets=folds,
                            design="cv10", loss="log")
    pa = [np.column_stack([np.full(t.size, 0.3), np.full(t.size, 0.7)]) for t in folds]
    pb = [np.column_stack([(y[t] == "neg") * 1.0, (y[t] == "pos") * 1.0]) for t in folds]
    cmp = compare_predictions(y, pa, pb, test_sets=folds, design="cv10", loss="log")
    assert cmp.error_a == pytest.approx(-(np.log(0.3) + np.log(0.7)) / 2)
    assert cmp.error_b == pytest.approx(0.0, abs=1e-12)      # -log(1)
    bad = [p.copy() for p in pa]
    bad[3][1] = [0.6, 0.6]
    with pytest.raises(ValueError, match=r"learner 'A', fold 4 of 10, design 'cv10': loss 'log': "
                                         r"record 1 "
                                         r"of the fold has class probabilities \[0.6, 0.6\]"):
        compare_predictions(y, bad, pb, test_sets=folds, design="cv10", loss="log")


def test_cli_log_loss(tmp_path, capsys):
    X, y = _two_classes(80)
    path = tmp_path / "c.csv"
    import pandas as pd
    pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1], "cls": y}).to_csv(path, index=False)
    base = ["compare", "--csv", str(path), "--target", "cls", "--quiet", "--loss", "log"]
    rc = main([*base, "--a", "sklearn.linear_model.LogisticRegression",
               "--b", "sklearn.naive_bayes.GaussianNB"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "mean log losses over the 10 folds of bcv5x2" in out and "not run under loss 'log'" in out
    rc = main([*base, "--learners", "sklearn.linear_model.LogisticRegression,"
               "sklearn.naive_bayes.GaussianNB", "--tests", "kfold_t"])
    out = capsys.readouterr().out
    assert rc == 0 and "mean log losses: " in out and "differ (lower loss)" in out
    rc = main([*base, "--learners", "sklearn.linear_model.LogisticRegression,sklearn.svm.SVC"])
    err = capsys.readouterr().err
    assert rc == 2 and "--loss: loss 'log' needs predicted probabilities, but learner " \
                       "sklearn.svm.SVC has no predict_proba" in err and "Traceback" not in err
    rc = main([*base, "--a", "kknn", "--b", "sklearn.naive_bayes.GaussianNB"])
    err = capsys.readouterr().err
    assert rc == 2 and "learner kknn has no predict_proba" in err
    pred = tmp_path / "p.csv"
    pred.write_text("fold,row,y,pred_a,pred_b\n0,0,a,a,b\n")
    rc = main(["test", "--predictions", str(pred), "--loss", "log"])
    err = capsys.readouterr().err
    assert rc == 2 and "--loss log: a predictions file holds one label" in err


# ---------------------------------------------------------------- hostile losses
@pytest.mark.parametrize("loss,msg", [
    (lambda a, b: a + 1, r"loss '<lambda>' failed: UFuncTypeError"),
    (lambda a, b: a, r"loss '<lambda>' returned ndarray that is not numbers \(e.g. \['(neg|pos)'\]\)"),
    ([[0, 1], [1]], r"cost matrix must be 2 x 2 .*got rows of \[2, 1\] entries"),
    ([["0", "a"], ["1", "0"]], r"cost matrix must be 2 x 2 .*got entries that are not numbers"),
    ([[0, np.nan], [1, 0]], r"cost matrix must be 2 x 2 .*entry \[0, 1\] is nan"),
])
def test_bad_losses_are_named_never_a_numpy_error(loss, msg):
    from sklearn.linear_model import LogisticRegression
    X, y = _two_classes(60)
    with pytest.raises(ValueError, match=msg):
        pybcv.compare(X, y, LogisticRegression(), "majority", loss=loss, tests="kfold_t",
                      backend="python")


def test_cli_ragged_cost_matrix_is_a_usage_error(capsys):
    rc = main(["compare", "--quiet", "--backend", "python", "--n", "60", "--tests", "kfold_t",
               "--a", "majority", "--b", "mean", "--loss", "0,1;1"])
    err = capsys.readouterr().err
    assert rc == 2 and "--loss: loss: a cost matrix must be" in err and "rows of [2, 1]" in err


def test_cost_matrix_on_a_numeric_target_says_regression_in_few_words():
    from sklearn.linear_model import LogisticRegression
    X = np.random.default_rng(0).normal(size=(60, 2))
    y = np.arange(60) % 20
    with pytest.raises(ValueError) as e:
        pybcv.compare(X, y, LogisticRegression(), "majority", loss=[[0, 1], [1, 0]],
                      backend="python")
    msg = str(e.value)
    assert "[0, 1, 2, 3, 4, 5, 6, 7, ...]" in msg and "use loss='squared' or 'absolute'" in msg


@pytest.mark.parametrize("bad", ["nan", "inf", "abc", "1e400"])
def test_cli_test_names_a_bad_numeric_prediction_or_target(tmp_path, capsys, bad):
    folds = DESIGNS["bcv5x2"].test_sets(40, design_generator(0, "bcv5x2"))
    y = np.linspace(0.0, 3.0, 40)
    rows = ["fold,row,y,pred_a,pred_b"]
    for f, te in enumerate(folds):
        rows += [f"{f},{r},{y[r]!r},{bad if (f, i) == (2, 1) else y[r] + 0.1},{y[r]}"
                 for i, r in enumerate(te)]
    path = tmp_path / "p.csv"
    path.write_text("\n".join(rows) + "\n")
    rc = main(["test", "--predictions", str(path), "--loss", "squared"])
    err = capsys.readouterr().err
    assert rc == 2 and f"pred_a, fold 2: prediction 1 ('{bad}', position 1 of the fold) is not " \
                       f"a finite number" in err
    # a target that is not a number: the row named, not a loss of NaN
    rows = ["fold,row,y,pred_a,pred_b"]
    for f, te in enumerate(folds):
        rows += [f"{f},{r},{bad if r == 3 else repr(y[r])},{y[r] + 0.1},{y[r]}" for r in te]
    path.write_text("\n".join(rows) + "\n")
    rc = main(["test", "--predictions", str(path), "--loss", "absolute"])
    err = capsys.readouterr().err
    assert rc == 2 and f"y: row 3 is '{bad}'; under loss 'absolute' the target must be finite" in err


def test_squared_loss_on_classifiers_warns_that_labels_are_read_as_numbers():
    from pybcv.datasets import exp6
    d = exp6(0, n=60)
    cmp = pybcv.compare(d.X, d.y, "majority", "mean", loss="squared", tests="kfold_t",
                        backend="python")
    assert any("reads the class labels of y as numbers" in w for w in cmp.warnings)
    X, y = _regression(60)
    from sklearn.linear_model import Ridge
    cmp = pybcv.compare(X, y, Ridge(), Ridge(alpha=5.0), loss="squared", tests="kfold_t",
                        backend="python")
    assert not cmp.warnings


def test_log_loss_with_a_learner_of_your_own():
    # predict_proba_splits gives the probabilities; without it the message says so
    class Half:
        def predict_splits(self, X, y, splits):
            return [np.full(len(te), y[0]) for _, te in splits]

    class HalfP(Half):
        def predict_proba_splits(self, X, y, splits):
            return [np.tile([0.5, 0.5], (len(te), 1)) for _, te in splits]

    X, y = _two_classes(60)
    from sklearn.naive_bayes import GaussianNB
    with pytest.raises(ValueError, match="learner Half has no predict_proba \\(a learner of your "
                                         "own gives probabilities through a method "
                                         "predict_proba_splits"):
        pybcv.compare(X, y, Half(), GaussianNB(), loss="log", backend="python")
    cmp = pybcv.compare(X, y, HalfP(), GaussianNB(), loss="log", tests="kfold_t", backend="python")
    assert cmp.error_a == pytest.approx(np.log(2))
    with pytest.raises(ValueError, match="learner majority:noise=0.1 has no predict_proba \\(pybcv's named"):
        pybcv.compare(X, y, "majority:noise=0.1", GaussianNB(), loss="log", backend="python")


def test_html_view_names_the_loss():
    rng = np.random.default_rng(1)
    cmp = compare_losses(rng.gamma(2.0, 1.5, 60), rng.gamma(2.0, 1.2, 60), tests="kfold_t",
                         loss="squared")
    assert "mean squared losses A" in cmp._repr_html_() and "error rates" not in cmp._repr_html_()


def test_cli_test_cost_matrix_of_the_wrong_size_blames_loss(tmp_path, capsys):
    folds = DESIGNS["bcv5x2"].test_sets(40, design_generator(0, "bcv5x2"))
    y = np.where(np.arange(40) % 3 == 0, "yes", "no")
    rows = ["fold,row,y,pred_a,pred_b"]
    for f, te in enumerate(folds):
        rows += [f"{f},{r},{y[r]},{y[r]},no" for r in te]
    path = tmp_path / "p.csv"
    path.write_text("\n".join(rows) + "\n")
    rc = main(["test", "--predictions", str(path), "--loss", "0,1,2;1,0,1;2,1,0"])
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith("pybcv: error: --loss: loss: a cost matrix must be 2 x 2")
    rc = main(["test", "--predictions", str(path), "--loss", "0,1;5,0", "--tests", "kfold_t",
               "--design", "bcv5x2"])
    assert rc == 2      # kfold_t is not a test of bcv5x2: named as before
    assert main(["test", "--predictions", str(path), "--loss", "0,1;5,0"]) == 0
    out = capsys.readouterr().out
    assert "mean costs" in out


# ---------------------------------------------------------------- a new user's walk (issue 21)
def _classes_csv(tmp_path, n=120, labels=("no", "yes")):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + rng.normal(size=n) > 0, labels[1], labels[0])
    path = tmp_path / "cls.csv"
    path.write_text("x1,x2,class\n" + "".join(f"{a:.5f},{b:.5f},{c}\n" for (a, b), c in zip(X, y)))
    return str(path)


RIDGE, LINREG = "sklearn.linear_model.Ridge", "sklearn.linear_model.LinearRegression"


@pytest.mark.parametrize("data,args,msg", [
    # a numeric target with a value per record is a regression, not 120 classes
    ("reg", ["--a", "majority", "--b", "tree"], "--target price: y looks like a regression target"),
    # CLI flags, not Python keywords; advice that can be followed
    ("reg", ["--a", RIDGE, "--b", LINREG, "--tests", "mcnemar_5x2bcv"],
     "compare classifiers under --loss zero_one"),
    ("reg", ["--a", RIDGE, "--b", LINREG, "--loss", "zero_one"], "use --loss squared or absolute"),
    ("reg", ["--a", RIDGE, "--b", LINREG, "--option", "mcnemar_5x2bcv.t=1.5"],
     "--option: test 'mcnemar_5x2bcv' does not run under loss 'squared'"),
    ("cls", ["--a", RIDGE, "--b", LINREG], "are regressors (they predict numbers), but --target "
                                           "class holds 'no'"),
    ("cls", ["--a", RIDGE], "and kknn is a classifier; compare regressors with regressors "
                            "(--b was not given: it defaults to kknn)"),
    ("cls", ["--a", "sklearn.ensemble", "--b", "majority"], "is a module, not an estimator class"),
    ("cls", ["--a", "majority", "--b", "tree", "--loss", "hinge"], "absolute, log, a cost matrix"),
])
def test_cli_walk_messages_name_flags_and_true_reasons(tmp_path, capsys, data, args, msg):
    path = _csv(tmp_path) if data == "reg" else _classes_csv(tmp_path)
    rc = main(["compare", "--csv", path, "--target", "price" if data == "reg" else "class",
               "--backend", "python", "--quiet"] + args)
    err = capsys.readouterr().err
    assert rc == 2 and msg in err and "loss='" not in err and "callable" not in err, err


def test_regression_target_refused_for_classifiers_in_python():
    X, y = _regression(60)
    with pytest.raises(ValueError, match="looks like a regression target"):
        pybcv.compare(X, y, "majority", "kknn", backend="python")


def test_cli_stratified_classifiers_under_squared_loss_and_the_backend_line(tmp_path, capsys):
    path = _classes_csv(tmp_path, labels=("0", "1"))
    rc = main(["compare", "--csv", path, "--target", "class", "--quiet", "--stratify",
               "--loss", "squared", "--a", "sklearn.linear_model.LogisticRegression",
               "--b", "sklearn.tree.DecisionTreeClassifier:max_depth=2"])
    out, err = capsys.readouterr()
    assert rc == 0, err                    # 0/1 classes stratify under any loss
    assert "a scikit-learn estimator: always runs in Python" in out and "fallback" not in out


def test_k_learner_plot_defaults_to_a_test_that_ran(tmp_path, capsys):
    from sklearn.linear_model import Ridge
    from sklearn.tree import DecisionTreeRegressor
    X, y = _regression(80)
    res = pybcv.compare_many(X, y, [Ridge(), DecisionTreeRegressor(max_depth=2), Ridge(alpha=9.0)],
                             backend="python")
    assert "calibrated" in res.plot().get_title().lower() and res.differ() == res.differ("calibrated_f_5x2bcv")
    png = tmp_path / "p.png"
    rc = main(["compare", "--csv", _csv(tmp_path), "--target", "price", "--quiet", "--loss",
               "absolute", "--learners", f"{RIDGE},{LINREG}", "--plot", str(png)])
    assert rc == 0 and png.exists(), capsys.readouterr().err


def test_headline_and_one_sided_notes_come_from_the_tests_that_apply():
    rng = np.random.default_rng(0)
    la, lb = rng.exponential(size=200), rng.exponential(size=200)
    res = compare_losses(la, lb, tests="all", loss="squared")
    assert res.headline.test == "calibrated_f_5x2bcv"        # not the far-too-liberal RHO t
    assert "estimate of mu_A - mu_B (Calibrated 5x2 BCV F-test)" in str(res)
    res = compare_losses((la > 1).astype(int), (lb > 1).astype(int), alternative="less",
                         tests=["mcnemar_5x2bcv", "calibrated_f_5x2bcv", "mcnemar_ho"])
    assert any("'less' does not apply to calibrated_f_5x2bcv, mcnemar_ho" in w for w in res.warnings)


def test_probabilities_under_zero_one_loss_point_at_the_log_loss():
    y = np.arange(40) % 2
    folds = DESIGNS["bcv5x2"].test_sets(40, design_generator(0, "bcv5x2"))
    proba = [np.full((len(t), 2), 0.5) for t in folds]
    with pytest.raises(ValueError, match=r"class probabilities\? give loss='log'"):
        compare_predictions(y, proba, [y[t] for t in folds], test_sets=folds)


def test_log_loss_says_how_many_probabilities_were_clipped():
    from sklearn.tree import DecisionTreeClassifier
    from sklearn.linear_model import LogisticRegression
    X, y = _two_classes()
    res = pybcv.compare(X, y, LogisticRegression(), DecisionTreeClassifier(random_state=0),
                        loss="log", backend="python")
    assert any(w.startswith("log loss: DecisionTreeClassifier gave the true class a probability "
                            "below 1e-15 on ") for w in res.warnings), res.warnings
    assert not any("LogisticRegression gave" in w for w in res.warnings)
    many = pybcv.compare_many(X, y, [LogisticRegression(), DecisionTreeClassifier(random_state=0),
                                     LogisticRegression(C=0.1)], loss="log", backend="python")
    assert sum("DecisionTreeClassifier gave" in w for w in many.to_json()["warnings"]) == 1


@pytest.mark.parametrize("flags", [["--quiet"], ["--json"], ["--jobs", "2", "--quiet"]])
def test_cli_reports_scikit_learn_fit_warnings_once(tmp_path, capsys, flags):
    """A fit warning names the learner (A or B, with its parameters), on how
    many fits of which design, once per message (walk27 A20)."""
    rc = main(["compare", "--csv", _classes_csv(tmp_path), "--backend", "python", *flags,
               "--a", "sklearn.linear_model.LogisticRegression:max_iter=1", "--b", "majority"])
    out, err = capsys.readouterr()
    note = ("learner A (sklearn.linear_model.LogisticRegression:max_iter=1), 10 of 10 fits of "
            "bcv5x2 (first on fold 1): ConvergenceWarning: lbfgs failed to converge")
    assert rc == 0 and out.count(note) == 1 and "learner B" not in out, out + err


def test_fit_warnings_name_the_learner_and_design_in_python(recwarn):
    """compare() / compare_many() keep each learner's fit warnings, once per
    message, in ``warnings`` and re-raise them (of their own category) at the
    caller's line."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression
    X, y = _two_classes()
    res = pybcv.compare(X, y, "majority", LogisticRegression(max_iter=1), backend="python",
                        tests=["mcnemar_5x2bcv", "kfold_t"])
    mine = [w for w in res.warnings if "ConvergenceWarning" in w]
    assert mine == ["learner B (LogisticRegression), 10 of 10 fits of bcv5x2 (first on fold 1); "
                    "10 of 10 fits of cv10 (first on fold 1): ConvergenceWarning: lbfgs failed "
                    "to converge (status=1)"], res.warnings
    raised = [w for w in recwarn if issubclass(w.category, ConvergenceWarning)]
    assert [str(w.message) for w in raised] == mine and raised[0].filename == __file__
    many = pybcv.compare_many(X, y, ["majority", LogisticRegression(max_iter=1), "mean"],
                              backend="python", tests="mcnemar_5x2bcv", n_jobs=2)
    assert [w for w in many.to_json()["warnings"] if "Convergence" in w] == [
        "learner LogisticRegression, 10 of 10 fits of bcv5x2 (first on fold 1): "
        "ConvergenceWarning: lbfgs failed to converge (status=1)"]


def test_cli_test_reads_decimal_commas(tmp_path, capsys):
    folds = DESIGNS["bcv5x2"].test_sets(40, design_generator(0, "bcv5x2"))
    y = np.linspace(0.0, 3.0, 40)
    rows = ["fold;row;y;pred_a;pred_b"] + [f"{f};{r};{y[r]:.4f};{y[r] + 0.1:.4f};{np.sin(r):.4f}"
                                           .replace(".", ",") for f, te in enumerate(folds) for r in te]
    path = tmp_path / "p.csv"
    path.write_text("\n".join(rows) + "\n")
    base = ["test", "--predictions", str(path), "--sep", ";", "--loss", "squared"]
    assert main(base) == 2 and "add --decimal ," in capsys.readouterr().err
    assert main(base + ["--decimal", ","]) == 0, capsys.readouterr().err


def test_an_argument_of_a_tests_function_is_named_as_such():
    from pybcv.comparison import test_options
    with pytest.raises(ValueError, match=r"n_train: an argument of pybcv.stats.corrected_rho_t on "
                                         r"your own"):
        test_options(["corrected_rho_t"], options={"corrected_rho_t": {"n_train": 10}})


def test_a_module_path_is_named_a_module_once_imported_too():
    import sklearn.ensemble  # noqa: F401  (imported: sklearn has the attribute 'ensemble')
    from pybcv.learners.importpath import estimator_class
    with pytest.raises(ValueError, match="'sklearn.ensemble' is a module, not an estimator class"):
        estimator_class("sklearn.ensemble")


def test_a_selection_of_designs_drops_the_zero_one_tests_a_named_key_is_refused():
    """A review: under a real-valued loss "bcv5x2" dropped the 5x2 BCV McNemar
    with a note, but "bcv5x2,cv10" (or R's c("bcv5x2", "cv10")) was refused;
    each entry decides: a design or table5 drops, a named key refuses."""
    import numpy as np
    from pybcv.comparison import loss_tests
    from pybcv.losses import resolve_loss
    sq = resolve_loss("squared", np.arange(10.0), regressor=True)
    keys, notes = loss_tests(["bcv5x2", "cv10"], sq)
    assert keys == ["calibrated_f_5x2bcv", "kfold_t", "cvci_z"]
    assert "mcnemar_5x2bcv, mcnemar_kfold_naive" in notes[0]
    assert loss_tests("table5,bcv5x2", sq)[0] == loss_tests("table5", sq)[0]
    with pytest.raises(ValueError, match=r"test\(s\) mcnemar_ho need 0/1 outcomes"):
        loss_tests("kfold_t,mcnemar_ho", sq)
    with pytest.raises(ValueError, match=r"test\(s\) mcnemar_ho need 0/1"):
        loss_tests(["bcv5x2", "mcnemar_ho"], sq)
