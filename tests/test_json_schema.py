"""One documented, versioned JSON schema for compare, compare --learners,
test and simulate: docs/guide/json.md runs as a doctest, and every command's
object starts with the same envelope."""
import doctest
import json
import pathlib

import pytest

from pybcv.comparison import JSON_SCHEMA, compare_predictions
from pybcv.partitions import DESIGNS

ROOT = pathlib.Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "guide" / "json.md"


def test_the_json_guide_runs():
    res = doctest.testfile(str(GUIDE), module_relative=False,
                           optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.attempted > 10 and res.failed == 0


def test_the_guide_documents_the_current_version():
    assert f'`"{JSON_SCHEMA}"`' in GUIDE.read_text()


def test_test_command_has_the_envelope(tmp_path, capsys):
    import numpy as np
    import pandas as pd
    from pybcv.cli import main
    n = 40
    y = np.arange(n) % 2
    folds = DESIGNS["bcv5x2"].test_sets(n, np.random.default_rng(0))
    rows = [(f, r, y[r], y[r], 1 - y[r] if r % 3 == 0 else y[r]) for f, t in enumerate(folds) for r in t]
    p = tmp_path / "p.csv"
    pd.DataFrame(rows, columns=["fold", "row", "y", "pred_a", "pred_b"]).to_csv(p, index=False)
    assert main(["test", "--predictions", str(p), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert list(obj)[:4] == ["schema", "command", "data", "alpha"]
    assert obj["schema"] == JSON_SCHEMA and obj["command"] == "test"
    assert obj["comparison"]["seed"] is None and set(obj["tests"]) == {"mcnemar_5x2bcv",
                                                                         "calibrated_f_5x2bcv"}
    # the same body as the Python object's to_json()
    cmp = compare_predictions(y, [y[t] for t in folds],
                              [np.where(t % 3 == 0, 1 - y[t], y[t]) for t in folds], test_sets=folds)
    body = json.loads(json.dumps(cmp.to_json()))
    assert body["tests"]["mcnemar_5x2bcv"]["pvalue"] == obj["tests"]["mcnemar_5x2bcv"]["pvalue"]
    assert set(body) == set(obj) - {"command", "data"}


@pytest.mark.parametrize("method", ["to_json"])
def test_python_objects_carry_the_schema(method):
    import numpy as np
    y = np.arange(40) % 2
    folds = DESIGNS["bcv5x2"].test_sets(40, np.random.default_rng(0))
    cmp = compare_predictions(y, [y[t] for t in folds], [1 - y[t] for t in folds], test_sets=folds)
    assert getattr(cmp, method)()["schema"] == JSON_SCHEMA


def test_json_names_the_loss_in_compare_learners_and_test(tmp_path, capsys):
    # the loss compared is in every two-learner and k-learner object (an
    # additive field of pybcv/1): error_a/error_b are mean losses under it
    import numpy as np
    import pandas as pd
    from pybcv.cli import main
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    csv = tmp_path / "r.csv"
    pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1], "v": X[:, 0] + rng.normal(size=60)}).to_csv(
        csv, index=False)
    base = ["--csv", str(csv), "--target", "v", "--quiet", "--json", "--tests", "kfold_t"]
    assert main(["compare", *base, "--loss", "absolute", "--a", "sklearn.linear_model.Ridge",
                 "--b", "sklearn.dummy.DummyRegressor"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["schema"] == JSON_SCHEMA and obj["comparison"]["loss"] == "absolute"
    assert main(["compare", *base, "--learners", "sklearn.linear_model.Ridge,"
                 "sklearn.dummy.DummyRegressor,sklearn.tree.DecisionTreeRegressor:max_depth=2"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["loss"] == "squared" and list(obj).index("loss") < list(obj).index("errors")
    n = 40
    y = np.linspace(0.0, 3.0, n)
    folds = DESIGNS["bcv5x2"].test_sets(n, np.random.default_rng(0))
    rows = [(f, r, y[r], y[r] + 0.1, y[r] + np.sin(r)) for f, t in enumerate(folds) for r in t]
    p = tmp_path / "p.csv"
    pd.DataFrame(rows, columns=["fold", "row", "y", "pred_a", "pred_b"]).to_csv(p, index=False)
    assert main(["test", "--predictions", str(p), "--loss", "squared", "--json",
                 "--tests", "calibrated_f_5x2bcv"]) == 0
    assert json.loads(capsys.readouterr().out)["comparison"]["loss"] == "squared"
    assert main(["test", "--predictions", str(p),
                 "--json", "--tests", "calibrated_f_5x2bcv", "--loss", "absolute"]) == 0
    assert json.loads(capsys.readouterr().out)["comparison"]["loss"] == "absolute"


@pytest.mark.parametrize("argv,status,text", [
    (["compare", "--target", "x", "--json"], 2, "--target says how --csv is read"),
    (["compare", "--alpha", "2", "--json"], 2, "argument --alpha: must lie strictly between 0 and 1"),
    (["compare", "--learners", "majority,nosuch", "--json"], 2, "nosuch"),
    (["test", "--predictions", "/nonexistent.csv", "--json"], 2, "/nonexistent.csv"),
])
def test_an_error_under_json_is_a_json_object_too(capsys, argv, status, text):
    """A new-user walk: with --json an argument error printed plain text on
    stderr and nothing on stdout; a program reading stdout now gets the
    error object (docs/guide/json.md, "Errors"), stderr keeps the message."""
    from pybcv.cli import main
    assert main(argv) == status
    out, err = capsys.readouterr()
    obj = json.loads(out)
    assert obj["schema"] == JSON_SCHEMA and obj["command"] == argv[0] + (
        " --learners" if "--learners" in argv else "")
    assert obj["error"]["exit_status"] == status and text in obj["error"]["message"]
    assert err.strip() == f"pybcv: error: {obj['error']['message']}"
    assert main(argv[:-1]) == status and capsys.readouterr().out == ""     # without --json: nothing
