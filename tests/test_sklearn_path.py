"""Any scikit-learn classifier from the command line by import path (issue
21.3): parameters read safely, clear errors, fits seeded from the seed, a
fit error naming learner, design and fold."""
import doctest
import json

import numpy as np
import pytest

from pybcv.cli import main
from pybcv.learners import parse_spec
from pybcv.learners.importpath import literal, split_params

RF = "sklearn.ensemble.RandomForestClassifier"


def _run(capsys, *args):
    rc = main(["compare", "--backend", "python", "--n", "60", "--quiet", *args])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_cli_runs_a_classifier_by_import_path_reproducibly(capsys):
    rc, out, err = _run(capsys, "--a", f"{RF}:n_estimators=15,max_depth=None", "--b", "majority",
                        "--json")
    assert rc == 0, err
    first = json.loads(out)
    assert first["comparison"]["learner_a"] == f"{RF}:n_estimators=15,max_depth=None"
    rc, out, _ = _run(capsys, "--a", f"{RF}:n_estimators=15,max_depth=None", "--b", "majority",
                      "--json")
    assert json.loads(out)["tests"] == first["tests"]     # random_state from the seed


def test_fits_are_seeded_from_the_comparison_seed():
    from sklearn.ensemble import RandomForestClassifier
    from pybcv.comparison import compare
    from pybcv.datasets import exp6
    d = exp6(3, n=80)
    rf = RandomForestClassifier(n_estimators=5, max_features=1)
    a = compare(d.X, d.y, rf, "majority", backend="python", seed=1)
    b = compare(d.X, d.y, rf, "majority", backend="python", seed=1)
    assert np.array_equal(a.tables["bcv5x2"], b.tables["bcv5x2"])
    assert rf.random_state is None                       # the user's object is not changed
    # the seed reaches the fits: same folds, other forest
    from pybcv.learners import SklearnLearner
    splits = {"bcv5x2": [(tr, te) for tr, te in
                         __import__("pybcv.partitions", fromlist=["x"]).DESIGNS["bcv5x2"].splits(80, 0)]}
    p1 = SklearnLearner(rf, random_state=1).predict_splits(d.X, d.y, splits["bcv5x2"])
    p2 = SklearnLearner(rf, random_state=2).predict_splits(d.X, d.y, splits["bcv5x2"])
    assert any(not np.array_equal(x, z) for x, z in zip(p1, p2))


@pytest.mark.parametrize("spec,msg", [
    ("sklearn.ensemble.RandomForrestClassifier", "has no 'RandomForrestClassifier' "
                                                 "(did you mean sklearn.ensemble.RandomForestClassifier?)"),
    ("sklern.tree.DecisionTreeClassifier", "no installed module 'sklern'"),
    ("sklearn.metrics.accuracy_score", "not an estimator class with fit and predict"),
    ("os.system", "not an estimator class"),
    ("sklearn.cluster.KMeans", "is neither a classifier nor a regressor"),
    ("sklearn.linear_model.LinearRegression", "is a regressor and majority is a classifier"),
    ("sklearn.tree.DecisionTreeClassifier:max_dept=3", "has no parameter 'max_dept' "
                                                       "(did you mean 'max_depth'?)"),
    ("sklearn.tree.DecisionTreeClassifier:max_depth=-3", "'max_depth' parameter"),
    ("sklearn.tree.DecisionTreeClassifier:max_depth", "write path:param=value"),
    ("sklearn.neural_network.MLPClassifier:hidden_layer_sizes=(20,", "unbalanced brackets"),
])
def test_cli_errors_name_the_problem(capsys, spec, msg):
    rc, out, err = _run(capsys, "--a", spec, "--b", "majority")
    assert rc == 2 and msg in err and "Traceback" not in err, err


def test_values_are_literals_never_code(tmp_path, capsys):
    marker = tmp_path / "ran"
    code = f"__import__('os').system('touch {marker}')"
    assert literal(code) == code                         # a string, not evaluated
    rc, _, err = _run(capsys, "--a", f"sklearn.tree.DecisionTreeClassifier:max_depth={code}",
                      "--b", "majority")
    assert rc == 2 and "max_depth" in err and not marker.exists()
    assert split_params("a=1,b=(2, 3),c='x,y'") == ["a=1", "b=(2, 3)", "c='x,y'"]
    assert parse_spec("sklearn.svm.SVC:C=0.5,kernel=linear") == {"name": "sklearn.svm.SVC",
                                                                 "C": 0.5, "kernel": "linear"}


def test_a_fit_error_names_learner_design_and_fold(capsys):
    rc, _, err = _run(capsys, "--a", "sklearn.svm.SVC:kernel=precomputed", "--b", "majority")
    assert rc == 1
    assert ("learner 'sklearn.svm.SVC', fold 1 of 10, design 'bcv5x2': ValueError: Precomputed"
            in err) and "PYBCV_TRACEBACK" not in err, err
    from sklearn.svm import SVC
    from pybcv.comparison import compare
    from pybcv.datasets import exp6
    d = exp6(0, n=40)
    with pytest.raises(RuntimeError, match="learner 'SVC', fold 1 of 10, design 'bcv5x2'"):
        compare(d.X, d.y, SVC(kernel="precomputed"), "majority", backend="python")


def test_importpath_examples():
    import pybcv.learners.importpath as m
    res = doctest.testmod(m, optionflags=doctest.ELLIPSIS)
    assert res.attempted > 0 and res.failed == 0


def test_learners_list_keeps_commas_inside_brackets_and_quotes(capsys):
    # a tuple value inside --learners a,b: the comma of (10,5) separates no learner
    mlp = "sklearn.neural_network.MLPClassifier:hidden_layer_sizes=(10,5),max_iter=30"
    rc, out, err = _run(capsys, "--learners", f"{mlp},majority,{RF}:n_estimators=5",
                        "--tests", "kfold_t", "--json")
    assert rc == 0, err
    got = json.loads(out)["learners"]
    assert got == ["sklearn.neural_network.MLPClassifier:hidden_layer_sizes=(10, 5),max_iter=30",
                   "majority", f"{RF}:n_estimators=5"]
    rc, out, err = _run(capsys, "--learners", "sklearn.neural_network.MLPClassifier:"
                        "hidden_layer_sizes=(10,5,majority")
    assert rc == 2 and "--learners: unbalanced brackets" in err and "Traceback" not in err


def test_a_text_column_given_to_a_sklearn_model_is_named(tmp_path, capsys):
    # a CSV with a categorical (text) predictor and a scikit-learn model from
    # the command line: the error names the column and what to do
    rng = np.random.default_rng(0)
    x = rng.normal(size=40)
    path = tmp_path / "d.csv"
    path.write_text("x,colour,v\n" + "".join(f"{a},{'red' if a > 0 else 'blue'},{2 * a}\n"
                                               for a in x))
    rc = main(["compare", "--csv", str(path), "--target", "v", "--quiet", "--tests", "kfold_t",
               "--a", "sklearn.linear_model.Ridge", "--b", "sklearn.dummy.DummyRegressor"])
    err = capsys.readouterr().err
    assert rc == 2 and "predictor column(s) 'colour' hold text" in err and "Traceback" not in err
    assert "--a/--b: learner 'sklearn.linear_model.Ridge': could not convert" in err   # no fold


def test_text_columns_refuse_a_plain_estimator_before_any_fit(tmp_path, capsys):
    """walk27 A21: a plain scikit-learn estimator facing a text column is
    refused before any learner's fit (the other learner's included); a
    Pipeline that encodes the text runs."""
    import pandas as pd
    from sklearn.compose import make_column_transformer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder
    import pybcv
    from pybcv.errors import LearnerInputError
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.normal(size=60), "colour": rng.choice(["red", "green"], 60)})
    y = np.where(X.x > 0, "yes", "no")
    fits = []

    class Spy:                            # a learner of one's own: records each fit
        def predict_splits(self, X, y, splits):
            fits.extend(splits)
            return [np.asarray(y)[te] for _, te in splits]
    for run in (lambda: pybcv.compare(X, y, Spy(), LogisticRegression()),
                lambda: pybcv.compare_many(X, y, [Spy(), "majority", LogisticRegression()])):
        with pytest.raises(LearnerInputError, match=r"^learner 'LogisticRegression': could not "
                           r"convert string to float: '\w+' \(predictor column\(s\) 'colour' hold text"):
            run()
    assert fits == []
    pipe = make_pipeline(make_column_transformer((OneHotEncoder(), ["colour"]),
                                                 remainder="passthrough"), LogisticRegression())
    assert pybcv.compare(X, y, Spy(), pipe).fits == (10, 10) and len(fits) == 10
    X.assign(cls=y).to_csv(tmp_path / "t.csv", index=False)
    rc = main(["compare", "--csv", str(tmp_path / "t.csv"), "--target", "cls", "--quiet",
               "--a", "majority", "--b", "sklearn.linear_model.LogisticRegression"])
    err = capsys.readouterr().err
    assert rc == 2 and "--a/--b: learner 'sklearn.linear_model.LogisticRegression': could not " \
                       "convert string to float" in err and "fold" not in err, err
