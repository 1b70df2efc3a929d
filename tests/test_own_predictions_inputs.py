"""Own folds and predictions (issues 21, 22): pybcv folds documents 0-based
rows and each design's training rows; pybcv test refuses duplicated columns,
huge ids and 1-based input with messages that say so; compare_predictions
refuses NaN labels and checks the training half of splits; rho1/rho2 are
checked when t is given."""
import numpy as np
import pandas as pd
import pytest

from pybcv.cli import main
from pybcv.comparison import compare_predictions
from pybcv.partitions import DESIGNS


def _predictions(tmp_path, name="p.csv", change=None, n=40):
    f = pd.DataFrame([(k, int(r)) for k, te in enumerate(DESIGNS["bcv5x2"].test_sets(n, 1))
                      for r in te], columns=["fold", "row"])
    y = (np.arange(n) % 2).astype(str)
    f["y"] = y[f.row]
    f["pred_a"] = y[f.row]
    f["pred_b"] = "1"
    if change:
        f = change(f)
    p = tmp_path / name
    f.to_csv(p, index=False)
    return str(p)


def _test(capsys, path, *extra):
    rc = main(["test", "--predictions", path, *extra])
    return rc, capsys.readouterr().err


@pytest.mark.parametrize("change,msg", [
    (lambda f: f.assign(row=f.row + 1), "no line has row 0 (folds and rows are 0-based"),
    (lambda f: f.assign(fold=f.fold + 1), "fold 0 has no line (folds and rows are 0-based"),
    (lambda f: f.set_axis(["fold", "row", "y", "pred_a", "pred_a"], axis=1),
     "column 'pred_a' appears 2 times in the header"),
    (lambda f: f.assign(row=f.row.astype(object).where(f.index > 0, 10 ** 30)),
     "'1000000000000000000000000000000' is far too large for a row number"),
    (lambda f: f.assign(fold=f.fold.astype(object).where(f.index > 0, 10 ** 12)),
     "far too large for a fold number"),
    (lambda f: f.assign(fold=f.fold.where(f.index > 0, 500)), "fold 500 on line 2, but the file has"),
    (lambda f: f.assign(row=f.row.where(f.index > 0, 10 ** 6)), "row 1000000 cannot be a record"),
])
def test_pybcv_test_refuses_with_clear_messages(tmp_path, capsys, change, msg):
    rc, err = _test(capsys, _predictions(tmp_path, change=change))
    assert rc == 2 and msg in err and "Traceback" not in err, err


def test_pybcv_test_bounds_n(tmp_path, capsys):
    rc, err = _test(capsys, _predictions(tmp_path), "--n", "100000000")
    assert rc == 2 and "no design of 100000000 records" in err
    rc, err = _test(capsys, _predictions(tmp_path), "--n", "40")
    assert rc == 0


def test_pybcv_folds_says_how_to_read_them(tmp_path, capsys):
    out = tmp_path / "f.csv"
    assert main(["folds", "--n", "40", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "rows are 0-based" in err and "training rows are all the other rows" in err
    assert main(["folds", "--n", "40", "--design", "conservative_z", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "training rows are NOT the other rows" in err and "--train" in err
    assert main(["folds", "--n", "40", "--design", "conservative_z", "--train", "--out", str(out)]) == 0
    capsys.readouterr()
    df = pd.read_csv(out)
    assert list(df.columns) == ["fold", "row", "set"]
    from pybcv.comparison import design_generator
    splits = DESIGNS["conservative_z"].splits(40, design_generator(0, "conservative_z"))
    last = df[df.fold == len(splits) - 1]
    assert sorted(last[last.set == "train"].row) == sorted(splits[-1][0].tolist())
    assert len(last[last.set == "train"]) + len(last[last.set == "test"]) < 40   # not complements


def _own(n=40):
    y = np.arange(n) % 2
    sp = DESIGNS["bcv5x2"].splits(n, 0)
    return y, sp, [y[t] for _, t in sp], [1 - y[t] for _, t in sp]


def test_compare_predictions_refuses_nan_labels_and_predictions():
    y, sp, pa, pb = _own()
    yn = y.astype(float)
    yn[3] = np.nan
    with pytest.raises(ValueError, match="missing label.*row 3"):
        compare_predictions(yn, pa, pb, splits=sp)
    pa2 = [p.astype(object) for p in pa]
    pa2[2][1] = None
    with pytest.raises(ValueError, match="pred_a, fold 2: the predictions have 1 missing"):
        compare_predictions(y, pa2, pb, splits=sp)
    pa3 = [p.astype(float) for p in pa]
    pa3[0][0] = np.nan
    with pytest.raises(ValueError, match="pred_a, fold 0: the predictions have 1 missing"):
        compare_predictions(y, pa3, pb, splits=sp)


def test_compare_predictions_checks_the_training_half_of_splits():
    y, sp, pa, pb = _own()
    ok = compare_predictions(y, pa, pb, splits=sp)
    assert ok.error_a == 0.0
    short = [(tr[:-2], te) for tr, te in sp]
    with pytest.raises(ValueError, match=r"splits\[0\]: the training rows are not all the rows"):
        compare_predictions(y, pa, pb, splits=short)
    overlap = [(np.append(tr, te[:1]), te) for tr, te in sp]
    with pytest.raises(ValueError, match="overlap"):
        compare_predictions(y, pa, pb, splits=overlap)


def test_rho_checked_when_t_is_given():
    from pybcv.stats import mcnemar_5x2bcv
    tables = np.tile(np.array([[5, 10], [3, 100]]), (10, 1, 1))
    assert np.isfinite(mcnemar_5x2bcv(tables, t=1.5).pvalue)
    with pytest.raises(ValueError, match="rho1"):
        mcnemar_5x2bcv(tables, rho1=5.0, t=1.5)
    with pytest.raises(TypeError, match="rho2 must be a real number"):
        mcnemar_5x2bcv(tables, rho2="abc", t=1.5)


def test_folds_of_another_design_are_named_with_the_design_to_give():
    """A new-user walk: predictions made on `pybcv folds --design cv10` and
    tested with the default design said only "row 0 is in neither fold 0
    nor fold 1"; the message now names the design the folds fit."""
    import numpy as np
    import pytest
    from pybcv.comparison import compare_predictions
    from pybcv.partitions import design_folds
    test_sets = design_folds(150, "cv10", seed=0)
    y = np.arange(150) % 2
    preds = [y[t] for t in test_sets]
    with pytest.raises(ValueError, match=r"the folds cannot be the design 'bcv5x2': .*; they are "
                                         r"folds of cv10: give design='cv10'$"):
        compare_predictions(y, preds, preds, test_sets=test_sets)
    assert compare_predictions(y, preds, preds, test_sets=test_sets, design="cv10").n == 150
    bcv = design_folds(150, "bcv5x2", seed=0)          # pybcv folds' default: named first
    preds = [y[t] for t in bcv]
    with pytest.raises(ValueError, match=r"they are folds of bcv5x2.*: give design='bcv5x2'$"):
        compare_predictions(y, preds, preds, test_sets=bcv, design="cv10")
