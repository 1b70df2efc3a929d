"""Python refuses, before any fit, the arguments the CLI refuses (walk 28):
alpha outside (0, 1) in every front door, and stratify given as the labels
(a scikit-learn habit) with a message that says what stratify means."""
import numpy as np
import pandas as pd
import pytest

from pybcv import compare, compare_losses, compare_many, compare_predictions
from pybcv.partitions import DESIGNS

X = np.random.default_rng(0).normal(size=(60, 2))
Y = np.array(["a", "b"] * 30)


class Exploding:
    """A learner whose fit must never be reached."""
    def fit(self, X, y):
        raise AssertionError("fitted before the arguments were checked")

    def predict(self, X):
        raise AssertionError("predicted before the arguments were checked")

    def get_params(self, deep=True):
        return {}


@pytest.mark.parametrize("alpha", [5, 0, 1, -0.1, float("nan"), "0.05"])
def test_alpha_is_checked_before_any_fit(alpha):
    for call in (lambda: compare(X, Y, Exploding(), "majority", alpha=alpha),
                 lambda: compare_many(X, Y, [Exploding(), "majority"], alpha=alpha)):
        with pytest.raises((ValueError, TypeError), match="alpha"):
            call()
    with pytest.raises((ValueError, TypeError), match="alpha"):
        compare_losses(np.zeros(60), np.ones(60), alpha=alpha)
    folds = DESIGNS["bcv5x2"].test_sets(60, np.random.default_rng(0))
    with pytest.raises((ValueError, TypeError), match="alpha"):
        compare_predictions(Y, [Y[t] for t in folds], [Y[t] for t in folds], test_sets=folds,
                            alpha=alpha)


@pytest.mark.parametrize("labels", [Y, pd.Series(Y, name="class"), list(Y)])
def test_stratify_given_the_labels_says_what_it_means(labels):
    with pytest.raises(ValueError) as e:
        compare(X, Y, Exploding(), "majority", stratify=labels)
    msg = str(e.value)
    assert "stratify must be True or False" in msg and "within the classes of y" in msg
    assert "of 60 values" in msg and "\n" not in msg and len(msg) < 200


def test_cli_separator_hint_is_in_cli_words(tmp_path, capsys):
    from pybcv.cli import main
    p = tmp_path / "semi.csv"
    p.write_text("x1;x2;class\n" + "\n".join(f"{i};{i % 3};{'ab'[i % 2]}" for i in range(40)) + "\n")
    assert main(["compare", "--csv", str(p), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "is the separator ';' rather than ','? give --sep ';'" in err and "sep=" not in err
    t = tmp_path / "tab.csv"
    t.write_text("x1|x2|class\n" + "\n".join(f"{i}|{i % 3}|{'ab'[i % 2]}" for i in range(40)) + "\n")
    assert main(["compare", "--csv", str(t), "--quiet"]) == 2
    assert "give --sep '|'" in capsys.readouterr().err


def test_a_cost_matrix_is_kept_in_the_result_and_its_json(tmp_path, capsys):
    import json
    from pybcv.cli import main
    rng = np.random.default_rng(0)
    Xc = rng.normal(size=(80, 2))
    yc = np.where(Xc[:, 0] + rng.normal(size=80) > 0, "pos", "neg")
    r = compare(Xc, yc, "majority", "kknn", loss=[[0, 1], [5, 0]], backend="python",
                progress=False)
    assert r.loss_info == {"cost_matrix": [[0.0, 1.0], [5.0, 0.0]], "labels": ["neg", "pos"]}
    assert "cost matrix [[0.0, 1.0], [5.0, 0.0]] (rows the true class, columns the predicted " \
           "class: neg, pos)" in str(r) and "mean costs" in str(r)
    p = tmp_path / "c.csv"
    p.write_text("x1,x2,class\n" + "\n".join(f"{a:.4f},{b:.4f},{c}" for (a, b), c in zip(Xc, yc)))
    assert main(["compare", "--csv", str(p), "--a", "majority", "--b", "kknn", "--backend",
                 "python", "--loss", "0,1;5,0", "--json", "--quiet"]) == 0
    cmp = json.loads(capsys.readouterr().out)["comparison"]
    assert cmp["cost_matrix"] == [[0.0, 1.0], [5.0, 0.0]] and cmp["labels"] == ["neg", "pos"]
    assert main(["compare", "--csv", str(p), "--learners", "majority,kknn,glm", "--backend",
                 "python", "--loss", "0,1;5,0", "--json", "--quiet"]) == 0
    many = json.loads(capsys.readouterr().out)
    assert many["cost_matrix"] == [[0.0, 1.0], [5.0, 0.0]] and many["labels"] == ["neg", "pos"]
    folds = DESIGNS["bcv5x2"].test_sets(80, np.random.default_rng(0))
    own = compare_predictions(yc, [yc[t] for t in folds], [np.full(len(t), "pos") for t in folds],
                              test_sets=folds, loss=[[0, -1], [5, 0]])
    assert any("negative entries" in w for w in own.warnings)


def test_plot_keeps_every_label_inside_a_plain_savefig():
    """compare_many(...).plot() then ax.figure.savefig(name) (no bbox_inches):
    long learner names and tick labels stay inside the figure (walk28 item 34)."""
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    from sklearn.linear_model import LinearRegression, Ridge
    from sklearn.ensemble import RandomForestRegressor
    from sklearn.tree import DecisionTreeRegressor
    rng = np.random.default_rng(1)
    Xr = rng.normal(size=(60, 3))
    yr = Xr @ [1.0, -0.5, 0.2] + rng.normal(size=60)
    m = compare_many(Xr, yr, [Ridge(), LinearRegression(), DecisionTreeRegressor(max_depth=3),
                              RandomForestRegressor(n_estimators=5, random_state=0)],
                     tests=["kfold_t"], progress=False)
    ax = m.plot()
    fig = ax.figure

    def inside():
        fig.canvas.draw()
        W, H = fig.bbox.width, fig.bbox.height
        for t in ax.get_xticklabels() + ax.get_yticklabels() + [ax.title]:
            bb = t.get_window_extent()
            assert bb.x0 >= -1 and bb.y0 >= -1 and bb.x1 <= W + 1 and bb.y1 <= H + 1, t.get_text()
    inside()
    fig.tight_layout()                   # what a user (and the gallery) may still call
    inside()


def test_groups_by_column_name_as_in_r_and_the_cli():
    """groups='site' names a column of X: its values form the groups and it is
    no predictor, as R's groups = "site" and the CLI's --groups site (walk28
    item 56); the same numbers as giving the values with X without the column."""
    rng = np.random.default_rng(5)
    df = pd.DataFrame({"x1": rng.normal(size=240), "x2": rng.normal(size=240),
                       "site": np.repeat([f"s{i:02d}" for i in range(24)], 10)})
    yy = np.where(df.x1 + rng.normal(size=240) > 0, "yes", "no")
    by_name = compare(df, yy, "majority", "kknn", groups="site", backend="python", progress=False)
    by_values = compare(df.drop(columns="site"), yy, "majority", "kknn", groups=df.site.to_numpy(),
                        backend="python", progress=False)
    r1, r2 = by_name["mcnemar_5x2bcv"], by_values["mcnemar_5x2bcv"]
    assert (r1.statistic, r1.pvalue) == (r2.statistic, r2.pvalue)
    with pytest.raises(ValueError, match="groups='place' names no column of X \\(columns: x1, x2, site\\)"):
        compare(df, yy, Exploding(), "majority", groups="place")
    with pytest.warns(UserWarning, match="groups is column 'site' of X, which stays a predictor"):
        compare(df, yy, "majority", "majority", groups=df.site, backend="python", progress=False)


def test_cli_out_of_memory_is_one_plain_line(monkeypatch, capsys):
    """numpy's MemoryError (e.g. pybcv compare --n 100000000000) is said in
    the command line's words, with no traceback hint (walk28 item 52)."""
    from pybcv import cli, datasets

    def huge(seed, n=300):
        raise MemoryError(f"Unable to allocate 745. GiB for an array with shape ({n},)")
    monkeypatch.setattr(datasets, "exp6", huge)
    assert cli.main(["compare", "--n", "100000000000", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pybcv: error: out of memory (Unable to allocate 745. GiB")
    assert "use fewer records" in err and "TRACEBACK" not in err


def test_r_learner_message_is_one_line():
    """R's long messages break onto an indented second line; the relayed
    message is one line (walk28 item 53)."""
    rb = pytest.importorskip("r_bridge.bridge")
    e = rb.RLearnerError("kknn", 1, "k must be smaller or equal the number of rows of the "
                                    "training\n                 set", 10)
    e.set_context(design="bcv5x2")
    assert str(e) == ("R learner 'kknn' failed on fold 1 of 10, design 'bcv5x2': k must be "
                      "smaller or equal the number of rows of the training set")


def test_one_sided_note_on_the_exact_hold_out_mcnemar():
    """The note says the exact hold-out McNemar stays two-sided too, not only
    'a chi-squared or F statistic', which is false of the binomial form
    (walk28 item 43)."""
    from pybcv.comparison import alternative_notes
    note, = alternative_notes(["mcnemar_ho", "t_5x2cv"], "less")
    assert "does not apply to mcnemar_ho:" in note and "exact=True" in note
    assert alternative_notes(["t_5x2cv"], "less") == []


def test_too_few_records_are_refused_before_any_fit():
    """compare(X[:8], y[:8]) is refused as load_csv and R refuse it, not by an
    R learner at fold 1 (walk28 item 9)."""
    from pybcv.datasets import DataError
    with pytest.raises(DataError, match=r"y: too few records \(8\); need at least 20"):
        compare(X[:8], Y[:8], Exploding(), "majority")
    with pytest.raises(DataError, match="too few records"):
        compare_many(X[:8], Y[:8], [Exploding(), "majority"])
