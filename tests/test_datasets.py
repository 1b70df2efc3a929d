"""Data sets of the experiments: determinism from a seed, the EXP6 rules,
and load_csv's error messages."""
import gzip

import numpy as np
import pytest

from pybcv import datasets as D


@pytest.mark.parametrize("name", ["epsilon", "exp6", "simple", "letter"])
def test_same_seed_same_data(name):
    a = D.make_dataset(name, 123)
    b = D.make_dataset(name, 123)
    c = D.make_dataset(name, 124)
    if a.learner_free:
        assert np.array_equal(a.loss_a, b.loss_a) and np.array_equal(a.loss_b, b.loss_b)
        assert not (np.array_equal(a.loss_a, c.loss_a) and np.array_equal(a.loss_b, c.loss_b))
    else:
        assert np.array_equal(a.X, b.X) and np.array_equal(a.y, b.y)
        assert not np.array_equal(a.X, c.X)
    # a SeedSequence and a Generator are accepted and give the same as the int seed
    s = np.random.SeedSequence(5, spawn_key=(3, 0))
    d1, d2 = D.make_dataset(name, s), D.make_dataset(name, np.random.default_rng(s))
    if a.learner_free:
        assert np.array_equal(d1.loss_a, d2.loss_a)
    else:
        assert np.array_equal(d1.X, d2.X)


def test_sizes_are_the_papers():
    assert D.make_dataset("epsilon", 0).n == 300
    assert D.make_dataset("exp6", 0).n == 300
    assert D.make_dataset("simple", 0).n == 1000
    assert D.make_dataset("letter", 0).n == 300


def test_bad_seed_and_name():
    with pytest.raises(ValueError, match="unknown data set"):
        D.make_dataset("iris", 0)
    with pytest.raises(ValueError, match="seed"):
        D.epsilon(-1)


def test_epsilon_rates_follow_the_halves():
    la = np.stack([D.epsilon(s).loss_a for s in range(400)])
    lb = np.stack([D.epsilon(s).loss_b for s in range(400)])
    assert la.dtype == np.int8 and set(np.unique(la)) <= {0, 1}
    assert abs(la[:, :150].mean() - 0.05) < 0.005 and abs(la[:, 150:].mean() - 0.15) < 0.008
    assert abs(lb[:, :150].mean() - 0.15) < 0.008 and abs(lb[:, 150:].mean() - 0.05) < 0.005
    assert abs(la.mean() - lb.mean()) < 0.005   # H0: equal error rates


def test_exp6_grid_and_class_rules():
    X, y = D.exp6_grid()
    assert X.shape == (22801, 2)
    assert np.isclose(X.min(), 0) and np.isclose(X.max(), 15)
    M = D.exp6_rules(X[:, 0], X[:, 1])
    assert M.sum(1).tolist() == [2250, 67, 3284, 819, 7798, 8749]     # points meeting each rule
    assert int((M.sum(0) > 1).sum()) == 166                           # overlap (spec §9.1)
    assert int((M.sum(0) == 0).sum()) == 0                            # no unclassified point
    over = M.sum(0) > 1
    assert np.all((X[over, 0] > 2.93) & (X[over, 0] < 5.07))
    # first matching rule in the paper's order: Y1 beats Y5, Y3 beats Y6
    assert np.bincount(y, minlength=7)[1:].tolist() == [2250, 67, 3284, 819, 7794, 8587]
    assert int((y == 2).sum()) == 67
    # a data set draws grid points
    d = D.exp6(7)
    assert set(np.unique(d.y)) <= set(range(1, 7))
    assert np.allclose(d.X * 10, np.round(d.X * 10))
    assert np.array_equal(D.exp6_label(d.X[:, 0], d.X[:, 1]), d.y)


def test_exp6_label_of_known_points():
    # (0, 15): x2 >= f1(0) = 6 and x2 >= f2(0) = 8 -> Y1
    assert D.exp6_label([0.0], [15.0])[0] == 1
    # (10, 0): x2 < f2(10) = 4 sin 5 + 8 = 4.16 and x2 < f3(10) = 29.76 -> Y6
    assert D.exp6_label([10.0], [0.0])[0] == 6


def test_simple_common_random_numbers():
    a, b = D.simple(9, delta=0.0), D.simple(9, delta=1.0)
    assert np.array_equal(a.y, b.y)
    assert np.allclose(b.X[:, 0] - a.X[:, 0], a.y * 1.0)
    big = D.simple(1, n=200000, delta=0.5)
    assert abs(big.y.mean() - 0.5) < 0.01
    assert abs(big.X[big.y == 1, 0].mean() - 0.5) < 0.02


def test_letter_keeps_uci_column_order():
    X, y = D.letter_population()
    assert X.shape == (20000, 16) and len(set(y)) == 26
    assert X[0].tolist() == [2, 4, 4, 3, 2, 7, 8, 2, 9, 11, 7, 7, 1, 8, 5, 6] and y[0] == "Z"
    d = D.letter(3)
    assert d.X.shape == (300, 16)
    # drawn with replacement: rows are population rows
    rows = {tuple(r) for r in X.tolist()}
    assert all(tuple(r) in rows for r in d.X.tolist())


# ------------------------------------------------------------------ load_csv
def _write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return str(path)


def test_load_csv_ok(tmp_path):
    rng = np.random.default_rng(0)
    rows = "\n".join(f"{a:.3f},{b:.3f},{'x' if a > 0 else 'y'}"
                     for a, b in rng.standard_normal((50, 2)))
    p = _write(tmp_path / "d.csv", "f1,f2,label\n" + rows + "\n")
    d = D.load_csv(p, target="label")
    assert d.n == 50 and d.X.shape == (50, 2) and set(d.y) == {"x", "y"}
    gz = tmp_path / "d.csv.gz"
    with gzip.open(gz, "wt") as f:
        f.write("f1,f2,label\n" + rows + "\n")
    assert D.load_csv(str(gz), "label").n == 50


@pytest.mark.parametrize("content,target,msg", [
    (None, "class", "not found"),
    ("a,b\n" + "1,2\n" * 30, "class", "no target column 'class'"),
    ("a,class\n" + "1,x\n" * 10 + ",y\n" + "2,y\n" * 20, "class", "missing values"),
    ("a,class\n1,x\n2,y\n", "class", "too few records"),
    ("a,class\n" + "1,x\n" * 30, "class", "single class"),
])
def test_load_csv_errors(tmp_path, content, target, msg):
    p = str(tmp_path / "f.csv")
    if content is not None:
        _write(p, content)
    with pytest.raises(D.DataError, match=msg):
        D.load_csv(p, target)


def test_load_csv_too_few_after_dropping(tmp_path):
    """Records dropped for missing values count: the one record check runs on
    what is left (even nothing at all)."""
    p = _write(tmp_path / "f.csv", "a,class\n" + "1,x\n2,y\n" * 5 + "?,x\n" * 15)
    with pytest.warns(UserWarning, match="dropped 15 record"), \
            pytest.raises(D.DataError, match=r"too few records \(10\); need at least 20"):
        D.load_csv(p, drop_missing=True)
    p = _write(tmp_path / "g.csv", "a,class\n" + "?,x\n" * 3)
    with pytest.warns(UserWarning), pytest.raises(D.DataError, match=r"too few records \(0\)"):
        D.load_csv(p, drop_missing=True)
