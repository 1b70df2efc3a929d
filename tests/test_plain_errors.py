"""A learner that refuses the user's data is a user error: one plain line
naming the learner and the design, no traceback hint (issue 22)."""
import numpy as np
import pytest

from pybcv.cli import main

from conftest import requires_r


def _csv(tmp_path, header, rows):
    p = tmp_path / "d.csv"
    p.write_text(header + "\n" + "\n".join(rows) + "\n")
    return str(p)


@pytest.mark.parametrize("learner,kind,msg", [
    ("fnn-weighted", "num", "learner 'fnn-weighted', design 'bcv5x2': fnn-weighted needs exactly 2 "
                            "predictors, got 3"),
    ("mean", "cat", "learner 'mean', design 'bcv5x2': mean needs numeric predictors; X has "
                    "categorical columns ('a'); choose a learner"),
    ("glm", "3class", "learner 'glm', design 'bcv5x2': glm failed on fold 1 of 10: glm is a 2-class"),
])
def test_learner_data_errors_are_plain(tmp_path, capsys, learner, kind, msg):
    rng = np.random.default_rng(0)
    if kind == "cat":
        rows = [f"{'pq'[i % 2]},{i % 3},{'xy'[i % 5 == 0]}" for i in range(60)]
        p = _csv(tmp_path, "a,b,class", rows)
    else:
        k = 3 if kind == "3class" else 2
        rows = [f"{a:.3f},{b:.3f},{c:.3f},{'xyz'[i % k]}" for i, (a, b, c) in
                enumerate(rng.normal(size=(60, 3)))]
        p = _csv(tmp_path, "a,b,c,class", rows)
    rc = main(["compare", "--csv", p, "--a", learner, "--b", "majority", "--backend", "python",
               "--quiet"])
    err = capsys.readouterr().err
    # (--quiet hides the progress bar, not the notes on how --csv was read)
    assert rc == 1 and err.split("pybcv: error: ", 1)[-1].startswith(msg), err
    assert "PYBCV_TRACEBACK" not in err


def _xy(n=60, numeric_y=False, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = rng.normal(size=n) if numeric_y else np.where(X[:, 0] > 0, "p", "q")
    return X, y


@pytest.mark.parametrize("argument,call", [
    ("options", lambda c, X, y: c(X, y, "majority", "mean", tests=["kfold_t"],
                                  options={"mcnemar_ho": {"correction": False}})),
    ("tests", lambda c, X, y: c(X, y, "majority", "mean", tests=["mcnemar_ho"], loss=[[0, 1], [5, 0]])),
    ("loss", lambda c, X, y: c(X, y, "majority", "mean", loss="no-such-loss")),
    ("loss", lambda c, X, y: c(X, y, "majority", "mean", loss=[[0, 1, 2], [1, 0, 2]])),
    ("y", lambda c, X, y: c(X, _xy(numeric_y=True)[1], "majority", "mean")),
    ("learners", lambda c, X, y: c(X, y, "majority", "sklearn.linear_model.Ridge")),
    ("stratify", lambda c, X, y: c(X, y, "majority", "mean", stratify=y)),
    ("groups", lambda c, X, y: c(X, y, "majority", "mean", groups=np.r_[np.nan, np.arange(59)])),
    ("groups", lambda c, X, y: c(X, y, "majority", "mean", groups=np.arange(60) % 3)),
])
def test_argument_errors_name_their_argument(argument, call):
    """An unusable argument is an ArgumentError (a ValueError) whose
    ``argument`` names it: the CLI picks its option from that, not from the
    message's words."""
    from pybcv.comparison import compare
    from pybcv.errors import ArgumentError
    X, y = _xy()
    with pytest.raises(ArgumentError) as info:
        call(compare, X, y)
    assert info.value.argument == argument and isinstance(info.value, ValueError)


@requires_r()
def test_an_r_learner_that_needs_numbers_names_the_text_columns(tmp_path, capsys):
    """R sees the predictors as x1, x2, ...: the bridge names the user's
    factor columns in R's "needs numeric predictors" message."""
    rows = [f"{i / 7:.3f},{'pq'[i % 2]},{'xy'[i % 5 == 0]}" for i in range(60)]
    p = _csv(tmp_path, "size,color,class", rows)
    rc = main(["compare", "--csv", p, "--a", "mean", "--b", "majority", "--backend", "r", "--quiet"])
    err = capsys.readouterr().err
    assert rc == 1 and "mean needs numeric predictors; the data have factor columns ('color'); " \
                       "choose a learner that takes factors" in err, err
